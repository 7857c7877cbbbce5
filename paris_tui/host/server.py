"""The host: tables, their referees and AI seats, served over TCP (asyncio streams).

One :class:`Host` process holds every table of its data directory. Each
table is a :class:`~paris_tui.host.room.Room`: its
:class:`~paris_tui.host.referee.Referee` (the only
:class:`~paris_tui.core.Game`), the connections seated at it, its watchers,
and the AI that plays its AI seats and, with ``ai_takeover``, the seats of
players who are away. A connection speaks the protocol of
:mod:`paris_tui.net.protocol` (``docs/protocol.md``): newline-delimited
JSON, the client's :class:`~paris_tui.net.protocol.Hello` first.

The :class:`Host` listens, keeps the connections
(:class:`~paris_tui.host.admission.Admission`) and answers each one's
lines; the rooms and who sits where are the
:class:`~paris_tui.host.hall.Hall`'s, the tables waiting for players the
:class:`~paris_tui.host.services.opening.WaitingTables`'. The services
around the tables (ratings, chat, friends, turn clocks, the cluster) hear
what happens at them on :attr:`Host.events`
(:mod:`paris_tui.host.events`) and get the host through their ports
(:mod:`paris_tui.host.ports`), never this module.

What each connection receives is cut to its seat at send time, as
boardgame.io's ``filter-player-view`` does, with the core's
:class:`~paris_tui.core.SeatView` as the filter: a seated connection gets
its seat's view, a watcher the public view, both the public events. Nothing
else about a game is ever encoded for a connection.

Defences, each cutting off only the connection concerned (other tables
never notice): a line limit (:data:`~paris_tui.net.protocol.MAX_CLIENT_LINE`),
a message rate limit (token bucket), a hello deadline, pings to a silent
client and a cut-off when it stays silent (half-open connections), a cap on
bytes queued for a client that does not read, and caps on connections and
tables per person and per address (:mod:`paris_tui.host.limits`): connections
that sit nowhere yet have a pool of their own, and the doors' apps connect
on a private Unix socket, so that neither pool starves the players. Seat
tokens are compared in constant time and never logged; every name from a
client passes the core's name rule.

Who sits where: a name is an account (:mod:`paris_tui.host.accounts.store`), and
every request that acts as a name (``join``, ``open_table``, ``account``)
proves the account first (:class:`~paris_tui.host.accounts.identity.Gate`): its token,
a door's ticket for one of its credentials, or a link code. A seat, once
taken, belongs to the account that took it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from paris_tui.host.accounts.identity import (
    TICKET_SECONDS,
    DoorProof,
    Gate,
    Tickets,
)
from paris_tui.host.accounts.names import skeleton
from paris_tui.host.accounts.store import (
    AccountStore,
    AccountsUnavailable,
    migrate_ssh_pins,
)
from paris_tui.host.ratings.service import HostRatings, table_leaderboard
from paris_tui.host.services.chat import TableChat, chat_store
from paris_tui.host.services.finished import answer as finished_games
from paris_tui.host.services.friends import Friends
from paris_tui.host.services.presence import WhoIsOnline
from paris_tui.host.services.tournament_desk import DeskRules, TournamentDesk
from paris_tui.host.services.tournaments import HostTournaments
from paris_tui.host.services.turns import TurnKeeper
from paris_tui.host.store.files import HostStore, TableStore

from .. import __version__
from ..core.text import InvalidNameError, normalize_name, printable
from ..net.endings_wire import ENDINGS_VERSION
from ..net.protocol import (
    PROTOCOL_VERSIONS,
    AccountRequest,
    Agree,
    Bye,
    Chat,
    ClientMessage,
    FriendsRequest,
    GetRecord,
    Hello,
    Join,
    Leave,
    Left,
    ListGames,
    ListTables,
    MutesRequest,
    OpenTable,
    Ping,
    Play,
    Pong,
    Presence,
    Relay,
    Tables,
    Vouch,
    Watch,
    Watching,
    Welcome,
    refusal,
)
from ..net.tournaments_wire import TOURNAMENTS_VERSION, TournamentsRequest
from .accounts.request import answer_account
from .admission import Admission
from .ai_moves import AIMoves
from .config import HostConfig, Limits, TableConflictError
from .connection import Connection
from .events import EventBus
from .hall import Hall
from .locks import LockWatch
from .referee import Refusal
from .room import Room
from .services.agreements import Agreements
from .services.opening import WaitingTables
from .services.relay import PeerRelay, accept_relay, take_vouch
from .services.waiting import WaitingTable

if TYPE_CHECKING:  # pragma: no cover
    from paris_tui.host.services.cluster import Cluster


__all__ = ["TICKET_SECONDS", "Host", "HostConfig", "Limits", "Room", "TableConflictError"]

log = logging.getLogger("paris_tui.host")


class Host:
    """Every table of a data directory, served on one TCP port."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.events = EventBus()  # what happens at the tables, for the services
        # What the doors proved (SSH keys, browser cookies), for the apps they start.
        self.tickets = Tickets()
        self.store = HostStore(config.data_dir)  # the data directory (lock, doors' files)
        self.tables: TableStore = self.store  # where tables are kept: these files, or
        self.cluster: Cluster | None = None  # the database several hosts share, and
        if config.database is not None:  # this host among the others there
            from paris_tui.host.services.cluster import Cluster
            from paris_tui.host.store.postgres import PostgresStore

            database = PostgresStore(config.database, pool_size=config.db_pool)
            self.tables = database
            self.cluster = Cluster(self, database, config.lease_seconds, self.events)
        self.hall = Hall(self)  # the rooms: the tables served, and who sits where
        self.admission = Admission(config.limits)  # the connections, counted
        self._door_server: asyncio.Server | None = None
        self.door_socket: str | None = None  # where the doors' apps connect (start())
        self._door_dir: str | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self._closing = False
        self.ai_pool = ThreadPoolExecutor(
            max_workers=max(1, config.ai_threads), thread_name_prefix="paris-ai"
        )
        self.io_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="paris-io")
        # Moves are saved in threads of their own: a burst of joins (their accounts'
        # reads and writes, in io_pool) never queues a move behind it.
        self.move_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="paris-move")
        self.ai_moves = AIMoves(self.ai_pool, max(1, config.ai_threads), config.ai_budget)
        self.server_name = f"paris-tui {__version__}"
        self.accounts: AccountStore | None = None
        self.gate = Gate(None, "not loaded", self.tickets)
        self.opening = WaitingTables(self, config)  # tables waiting for players
        self.ratings = HostRatings(self, self.events)  # ratings and the leaderboard
        self.tournaments = HostTournaments(self, self.events)  # tournaments' rounds
        rules = DeskRules(config.tournament_makers, config.tournaments_open)
        self.desk = TournamentDesk(  # the lobbies' tournaments: list, pages, entries
            self, rules, lambda: self.tournaments.store, lambda: self.ratings.store, self.events
        )
        chats = chat_store(self.tables, self.store.tables_dir)
        self.chat = TableChat(self, chats, events=self.events)  # the tables' chat
        self.friends = Friends(self, self.cluster)  # "tell me when NAME is here"
        self.presence = WhoIsOnline(self, self.friends, lambda: self.ratings.store)  # who is online
        if self.cluster is not None:
            self.cluster.after_tick = self.friends.step
        self.saves_failing = False  # a move could not be saved, none has been since
        self.turns = TurnKeeper(  # the clocks of timed tables
            self, config.clock, config.notify_command, shared=self.cluster is not None
        )
        if self.cluster is not None:  # a clock's row is fenced as a move is
            self.turns.fence = self.cluster.store.fence
        self.locks = LockWatch(self)  # the operator's locks reach the seats already taken
        self.agreements = Agreements(self)  # rematches, agreed aborts, resignations
        # The tables are the hall's: what the doors, the services and the tests ask
        # of the host about them, it answers (Hall.open_table, Hall.sweep, ...).
        hall = self.hall
        self.open_table = hall.open_table
        self.sweep = hall.sweep
        self.table_infos = hall.table_infos
        self.unfinished = hall.unfinished
        self.prepare = hall.prepare
        self.resume = hall.resume
        self.load_owners = hall.load_owners
        self.new_table_id = hall.new_table_id
        self.deal = hall.deal
        self.lose_table = hall.lose_table
        self.end_locked = self.locks.end_locked

    # --- tables -------------------------------------------------------------------------

    def load(self) -> list[str]:
        """Take the data directory's lock and resume its unfinished tables.

        Returns notes for the operator (files that could not be read, which are
        left untouched). Raises :class:`~paris_tui.host.store.files.HostBusyError` or
        ``OSError``.
        """
        self.store.lock()
        try:
            self.tables.open()
        except BaseException:
            self.store.unlock()
            raise
        notes: list[str] = []
        skeleton("")  # the confusables table, read now (about 0.15 s), not at a first join
        try:
            self.accounts = self._open_accounts()
            notes += migrate_ssh_pins(self.accounts, self.store.root)
            self.gate = Gate(self.accounts, None, self.tickets)
        except AccountsUnavailable as exc:
            log.error("%s: every seat is refused until it is repaired", exc)
            self.gate = Gate(None, str(exc), self.tickets)
        self.ratings.open()
        self.tournaments.open()
        self.turns.open(self.accounts)
        tables, problems = self.tables.load_tables()
        for name, problem in problems:
            notes.append(f"skipped {printable(name)}: {problem}")
        notes += self.hall.serve_loaded(tables)
        return notes

    def _open_accounts(self) -> AccountStore:
        from paris_tui.host.store.postgres import PostgresStore

        if isinstance(self.tables, PostgresStore):
            from paris_tui.host.accounts.postgres import PostgresAccounts

            return PostgresAccounts(self.tables.pool)
        return self.config.accounts(self.store.root)

    # --- the tables (the hall's) ------------------------------------------------------

    def table_move_time(self, room: Room) -> float | None:
        return self.turns.move_time(room)

    def save_table(self, room: Room) -> None:
        self.tables.save(room.referee)

    @property
    def rooms(self) -> dict[str, Room]:
        return self.hall.rooms

    @property
    def serving(self) -> bool:
        return self._server is not None

    @property
    def waiting(self) -> dict[str, WaitingTable[Connection]]:
        """The tables waiting for players (:class:`WaitingTables`)."""
        return self.opening.waiting

    def client_tables(self) -> list[Room | WaitingTable[Connection]]:
        """The tables clients opened that count against the caps: unfinished or waiting."""
        return self.opening.client_tables()

    # --- doors --------------------------------------------------------------------------

    def issue_ticket(self, proof: DoorProof) -> str:
        """A ticket saying what a door proved (an SSH key, a browser's cookie).

        A door gives it to the app it starts for that person
        (:mod:`paris_tui.host.child`); the app presents it where a token goes.
        It proves an account only when the proven credential is one of the
        account's (or makes the account, with that credential, for a name that
        is nobody's). Good until :meth:`revoke_ticket` (the door's session
        ends) or :data:`TICKET_SECONDS`; only its hash is kept, never logged.
        """
        return self.tickets.issue(proof)

    def revoke_ticket(self, ticket: str) -> None:
        self.tickets.revoke(ticket)

    # --- serving ------------------------------------------------------------------------

    async def start(self) -> tuple[str, int]:
        """Listen; returns the address and port actually bound (``port=0`` picks one)."""
        self._server = await asyncio.start_server(
            self._handle,
            self.config.bind,
            self.config.port,
            limit=self.config.limits.line_bytes,
        )
        self.hall.start()
        self.locks.start()
        self.tournaments.start()
        await self._start_door_socket()
        sock = self._server.sockets[0].getsockname()
        address, port = str(sock[0]), int(sock[1])
        if self.cluster is not None:
            shown = "127.0.0.1" if address in ("0.0.0.0", "::", "") else address
            shown = f"[{shown}]" if ":" in shown else shown
            self.cluster.start(self.config.advertise or f"{shown}:{port}")
        return address, port

    async def _start_door_socket(self) -> None:
        """The doors' apps connect on a Unix socket in a fresh 0700 folder: nobody
        else (another user, the network) can reach it, so no flood of theirs can
        keep a door's player out. Without Unix sockets the apps use the TCP port."""
        if not hasattr(asyncio, "start_unix_server"):  # pragma: no cover - not POSIX
            return
        import tempfile

        folder = tempfile.mkdtemp(prefix="paris-tui-door-")
        path = os.path.join(folder, "host.sock")
        try:
            self._door_server = await asyncio.start_unix_server(
                self._handle_door, path, limit=self.config.limits.line_bytes
            )
        except OSError as exc:  # pragma: no cover - the apps fall back on TCP
            log.warning("no private socket for the doors' apps: %s", exc.strerror or exc)
            shutil.rmtree(folder, ignore_errors=True)
            return
        self._door_dir, self.door_socket = folder, path

    async def close(self) -> None:
        """Stop: say goodbye to every client, save every table, release the lock."""
        if self._closing:
            return
        self._closing = True
        self.hall.stop()
        self.locks.stop()
        await self.tournaments.close()
        self.friends.stop()
        if self._server is not None:
            self._server.close()
        if self._door_server is not None:
            self._door_server.close()
        if self._door_dir is not None:
            shutil.rmtree(self._door_dir, ignore_errors=True)
            self._door_dir = self.door_socket = None
        for conn in list(self.connections):
            conn.dismiss(Bye("shutdown"))
        for room in self.rooms.values():
            room.stop()
        self.turns.stop()
        if self.waiting:  # no game began: nothing of them is on disk
            log.info("dropped the tables waiting for players: %s", ", ".join(self.waiting))
            self.waiting.clear()
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=2.0)
        for task in list(self._handlers):
            task.cancel()
        for room in self.rooms.values():
            async with room.moving:  # a move being saved is saved first
                try:
                    self.tables.save(room.referee)
                except (OSError, ValueError, RecursionError) as exc:
                    log.error("could not save table %s: %s", room.id, exc)
        if self._server is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2.0):
                    await self._server.wait_closed()
        self.ai_pool.shutdown(wait=False, cancel_futures=True)
        self.io_pool.shutdown(wait=True)
        self.move_pool.shutdown(wait=True)
        await self.ratings.drain()  # a game's count under way is finished first
        if self.cluster is not None:
            await self.cluster.stop()  # the leases given back: another host may take them
        if self.accounts is not None:
            self.accounts.close()
        self.tables.close()
        self.store.unlock()
        log.info("host closed")

    async def _handle(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, door: bool = False
    ) -> None:
        task = asyncio.current_task()
        conn = Connection(self.config.limits, reader, writer, door=door)
        if self._closing:
            writer.close()
            return
        if not self._admit(conn):
            log.warning("%s refused: too many connections", conn)
            await conn.hang_up(refusal("host_full", "the host has too many connections"))
            return
        if task is not None:
            self._handlers.add(task)
        try:
            await self._serve(conn)
        except (ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            pass
        except Exception:  # a bug must cut off this connection, never the host
            log.exception("%s: internal error, connection closed", conn)
        finally:
            self._drop(conn)
            if task is not None:
                self._handlers.discard(task)
            if not writer.is_closing():
                writer.close()

    # --- connections ----------------------------------------------------------------------

    @property
    def connections(self) -> set[Connection]:
        return self.admission.connections

    @property
    def _per_address(self) -> Counter[str]:
        return self.admission.per_address

    @property
    def _anonymous(self) -> dict[Connection, None]:
        return self.admission.anonymous

    @property
    def _door_slots(self) -> Counter[str]:
        return self.admission.door_slots

    def _admit(self, conn: Connection) -> bool:
        return self.admission.admit(conn)

    def proven(self, conn: Connection) -> None:
        self.admission.proven(conn)

    def _drop(self, conn: Connection) -> None:
        self.admission.drop(conn)
        self._leave(conn)

    def reserve_door_slot(self, address: str) -> None:
        """A door started a session whose app connects from ``address``: allow one
        more connection from there than ``max_per_address`` (:class:`Admission`)."""
        self.admission.reserve_door_slot(address)

    def release_door_slot(self, address: str) -> None:
        """That session is over (called once per :meth:`reserve_door_slot`)."""
        self.admission.release_door_slot(address)

    def leave(self, conn: Connection) -> None:
        """``conn`` sits and waits nowhere any more."""
        self._leave(conn)

    async def _handle_door(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        await self._handle(reader, writer, door=True)

    def _leave(self, conn: Connection) -> None:
        if conn.room is not None:
            conn.room.depart(conn)
        conn.room = None
        conn.seat = None
        self.opening.left(conn)

    async def _serve(self, conn: Connection) -> None:
        hello = await conn.read(first=True)
        if hello is None:
            return
        if not isinstance(hello, Hello):
            await conn.hang_up(refusal("bad_message", "the first message must be a hello"))
            return
        if hello.protocol not in PROTOCOL_VERSIONS:
            spoken = f"{PROTOCOL_VERSIONS[0]} to {PROTOCOL_VERSIONS[-1]}"  # contiguous
            await conn.hang_up(
                refusal(
                    "unsupported_protocol",
                    f"this host speaks protocols {spoken}, not {hello.protocol}",
                )
            )
            return
        conn.protocol = hello.protocol
        conn.hello = hello
        try:
            client = normalize_name(hello.client)
        except InvalidNameError as exc:
            await conn.hang_up(refusal("bad_message", f"client name: {exc.problem}"))
            return
        log.info("%s: %s", conn, printable(client))
        # The host's own words are English; codes are the contract (docs/protocol.md).
        conn.send(Welcome(conn.protocol, self.server_name, "en", self.config.hints))
        while True:
            message = await conn.read(first=False)
            if message is None or self._closing:
                return
            try:
                await self._dispatch(conn, message)
            except Refusal as exc:
                answer = conn.refused(exc)
                if answer.fatal:
                    log.warning("%s refused (%s): cut off", conn, exc.code)
                    await conn.hang_up(answer)
                    return
                conn.send(answer)

    @property
    def relays(self) -> PeerRelay | None:
        """The relay to and from the other hosts of the database (``None``: alone)."""
        return None if self.cluster is None else self.cluster.relays

    async def _dispatch(self, conn: Connection, message: ClientMessage) -> None:
        if isinstance(message, Relay):
            accept_relay(self.relays, conn, message, self.admission)
            return
        if isinstance(message, Vouch):
            take_vouch(self.relays, conn, message)
            return
        conn.fresh = False
        if (
            isinstance(message, Join | OpenTable | AccountRequest | Watch)
            and self.tickets.vouch(message.token) is not None  # a door's ticket of ours
        ):
            conn.ticket = message.token
        if conn.protocol < 2 and isinstance(message, OpenTable | Leave):
            kind = "open_table" if isinstance(message, OpenTable) else "leave"
            raise Refusal("bad_message", f"unknown message type {kind!r} in protocol 1")
        if conn.protocol < 4 and isinstance(message, Chat | FriendsRequest | MutesRequest):
            kind = {Chat: "chat", FriendsRequest: "friends"}.get(type(message), "mutes")
            raise Refusal(
                "bad_message", f"unknown message type {kind!r} in protocol {conn.protocol}"
            )
        if conn.protocol < ENDINGS_VERSION and isinstance(message, Agree):
            raise Refusal(
                "bad_message", f"unknown message type 'agree' in protocol {conn.protocol}"
            )
        if conn.protocol < TOURNAMENTS_VERSION and isinstance(message, TournamentsRequest):
            raise Refusal(
                "bad_message", f"unknown message type 'tournaments' in protocol {conn.protocol}"
            )
        if conn.protocol < 3 and isinstance(message, AccountRequest):
            raise Refusal(
                "bad_message", f"unknown message type 'account' in protocol {conn.protocol}"
            )
        if (
            self.cluster is not None
            and isinstance(message, Join | Watch)
            and await self.cluster.route(conn, message)
        ):
            return  # relayed to the table's host: its referee answered
        match message:
            case Ping():
                conn.send(Pong(message.nonce))
            case Pong():
                pass
            case Hello():
                raise Refusal("bad_message", "hello was already sent")
            case ListGames() | GetRecord():  # protocol 4: the finished games (finished.py)
                await finished_games(conn, message, self.ratings.store, self.io_pool, self.tables)
            case ListTables():
                infos = self.table_infos(waiting=conn.protocol >= 2)
                if self.cluster is not None:  # every host's tables: read in an I/O thread
                    loop = asyncio.get_running_loop()
                    remote = await loop.run_in_executor(
                        self.io_pool, self.cluster.remote_infos, conn.protocol >= 2
                    )
                    infos = tuple(
                        sorted(
                            (*infos, *remote),
                            key=lambda t: (len(t.table), t.table),
                        )
                    )
                online = await self.presence.online() if conn.protocol >= 4 else ()
                conn.send(Tables(infos, table_leaderboard(self.ratings), online))
            case OpenTable():
                self.opening.open(conn, message)
            case Leave():
                room = conn.room or conn.waiting
                self._leave(conn)
                conn.send(Left(None if room is None else room.id))
            case Join():
                await self.hall.join(conn, message)
            case AccountRequest():
                answer_account(conn, message, self.gate, self.accounts)
            case Watch():
                table = self.waiting.get(message.table)
                if table is not None and conn.protocol >= 2:
                    raise Refusal(
                        "not_started",
                        f"table {table.id} has not started: {table.free_seats} seats are free",
                    )
                room = self.rooms.get(message.table)
                if room is None:
                    raise Refusal("no_such_table", f"there is no table {message.table}")
                await self.chat.watching(conn, message)  # a named account: proven (chat)
                self._leave(conn)
                room.watchers.add(conn)
                conn.room = room
                ref = room.referee
                seen = room.seat_infos()
                conn.send(Watching(room.id, ref.view(None), ref.events, seen, ref.tournament))
                room.tell_aborted(conn)  # a game every player agreed to abort: said so at once
                result = room.result_for(conn.protocol)
                if result is not None:  # a finished game: how it was rated
                    conn.send(Presence(room.id, room.seat_infos(), result))
                await self.chat.history(conn, room)
            case Chat():
                await self.chat.say(conn, message)
            case FriendsRequest():
                await self.friends.request(conn, message)
            case MutesRequest():
                await self.chat.mutes(conn, message)
            case Agree():
                await self.agreements.agree(conn, message)
            case TournamentsRequest():
                await self.desk.request(conn, message)
            case Play():
                room, seat = conn.room, conn.seat
                if room is None or seat is None:
                    raise Refusal("not_seated", "join a seat before playing")
                if seat in room.resigned:
                    raise Refusal("not_your_turn", "you resigned: the AI plays your seat")
                await room.play(seat, message.move, message.move_count)
