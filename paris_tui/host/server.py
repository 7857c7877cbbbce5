"""The host: tables, their referees and AI seats, served over TCP (asyncio streams).

One :class:`Host` process holds every table of its data directory. Each
table is a :class:`Room`: its :class:`~paris_tui.host.referee.Referee` (the
only :class:`~paris_tui.core.Game`), the connections seated at it, its
watchers, and the AI that plays its AI seats and, with ``ai_takeover``, the
seats of players who are away. A connection speaks the protocol of
:mod:`paris_tui.net.protocol` (``docs/protocol.md``): newline-delimited
JSON, the client's :class:`~paris_tui.net.protocol.Hello` first.

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

Who sits where: a name is an account (:mod:`paris_tui.host.accounts`), and
every request that acts as a name (``join``, ``open_table``, ``account``)
proves the account first (:class:`~paris_tui.host.identity.Gate`): its token,
a door's ticket for one of its credentials, or a link code. A seat, once
taken, belongs to the account that took it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import logging
import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import structs

from .. import __version__
from ..core import Event, Move, Options
from ..core.text import InvalidNameError, normalize_name, printable
from ..net.protocol import MAX_CLIENT_LINE as _MAX_LINE
from ..net.protocol import (
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    AccountInfo,
    AccountRequest,
    Bye,
    Chat,
    ClientMessage,
    ErrorCode,
    FriendsRequest,
    GetRecord,
    Hello,
    HostMessage,
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
    ProtocolError,
    RatedResult,
    Refused,
    Relay,
    Seated,
    SeatInfo,
    SeatStatus,
    TableInfo,
    Tables,
    Vouch,
    Waiting,
    Watch,
    Watching,
    Welcome,
    decode_client,
    encode,
    encode_updates,
    refusal,
)
from ..net.turns import is_turn_based
from ..trace import mark
from .accounts import (
    CODE_SECONDS,
    AccountError,
    AccountStore,
    AccountsUnavailable,
    Credential,
    format_code,
    migrate_ssh_pins,
    open_accounts,
    ssh_fingerprint,
)
from .ai_moves import AIMoves
from .chat import TableChat, chat_store
from .finished import answer as finished_games
from .friends import Friends
from .identity import TICKET_SECONDS, Claim, DoorProof, Gate, Tickets, Vouched
from .limits import NestedWindow, Quota, address_key, owner_key
from .names import same_name, skeleton
from .pgstore import SeatTaken
from .rated import HostRatings, table_leaderboard
from .referee import APP_KEY, Referee, Refusal, SeatSpec
from .store import HostStore, SeatsFileError, TableStore
from .turns import MOVE_TIME_KEY, TurnKeeper, move_time_of

if TYPE_CHECKING:  # pragma: no cover
    from ..core.record import Record
    from .cluster import Cluster
from .turns import check_turn_cap, checked_move_time, table_turn_based
from .waiting import WaitingTable, plan_seats, table_options

__all__ = ["TICKET_SECONDS", "Host", "HostConfig", "Limits", "Room", "TableConflictError"]

log = logging.getLogger("paris_tui.host")

# The refusals of protocol 3 as an older connection is told them (it knows no others).
_OLD_CODES: dict[str, ErrorCode] = {
    "name_taken": "seat_taken",
    "bad_code": "bad_token",
    "account_locked": "seat_taken",
    "unavailable": "seat_taken",
}


@dataclass(frozen=True, slots=True)
class Limits:
    """What one host allows. Every limit cuts off only the connection that breaks it."""

    max_connections: int = 256
    max_per_address: int = 32
    # Tables opened by clients (open_table, protocol 2), unfinished or waiting, together;
    # the operator's own tables (--table) never count and are never refused.
    max_tables: int = 64
    tables_per_owner: int = 2  # ... of them one person's, unfinished or waiting
    tables_per_address: int = 4  # ... of them opened from one address (IPv6: its /64)
    # Tables opened (each open_table that is not refused), per person, address, host.
    opens: Quota = field(default_factory=lambda: Quota(6, 12, 120, 3600.0))
    # A table a client opened that nobody has moved at or joined for this long, with
    # nobody at it, is archived as abandoned: out of the lobby and the caps, still
    # replayable. The operator's own tables (--table) are never archived.
    abandon_after: float = 14 * 86400.0
    keep_finished: int = 16  # finished tables kept in the lobby (the latest ones)
    line_bytes: int = _MAX_LINE
    rate: float = 20.0  # messages per second a client may send, sustained
    burst: int = 40  # ... and in a burst
    hello_timeout: float = 10.0  # the first line must come this soon
    # Connections that have proven nobody yet (no seat, no table held): a pool of their
    # own, so they never starve the players and the doors' apps; a shorter hello.
    max_anonymous: int = 64
    anonymous_per_address: int = 8  # ... from one address (IPv6: its /64)
    anonymous_hello_timeout: float = 5.0
    ping_interval: float = 15.0  # a silent client is pinged this often
    idle_timeout: float = 45.0  # a client silent this long (no pong) is cut off
    send_buffer: int = 4 * 1024 * 1024  # bytes queued for a client that does not read
    # Unfinished turn-based tables (issue 22: hours or days per move) one account sits
    # at, waiting ones included, as BGA's 21; they do not count in tables_per_owner.
    turn_tables_per_account: int = 21
    # The operator locks an account from another process (host accounts lock): the host
    # reads the locks this often and ends the locked accounts' seats (docs/security.md).
    lock_check: float = 2.0


@dataclass(slots=True)
class HostConfig:
    data_dir: Path
    bind: str = "127.0.0.1"
    port: int = 7337
    ai_delay: float = 0.8  # an AI's move is played no sooner than this after its turn began
    ai_takeover: float | None = None  # seconds away before an AI plays for a player
    limits: Limits = field(default_factory=Limits)
    ai_threads: int = 2
    hints: bool = False  # players may ask for a hint (worked out by their own terminal)
    # The accounts store, given the host's folder (<data dir>/host): SQLite there by
    # default; any AccountStore (one shared by several hosts) fits.
    accounts: Callable[[Path], AccountStore] = open_accounts
    # PostgreSQL (host --database URL): tables and accounts there, shared by several
    # hosts; None keeps them in data_dir (files and SQLite).
    database: str | None = None
    db_pool: int = 4  # connections this host keeps to the database at most
    lease_seconds: float = 3.0  # a dead machine's tables are taken over after about this
    advertise: str | None = None  # HOST:PORT where the other hosts reach this one
    # Timed tables (issue 22, host/turns.py): the clock of their move times (the wall
    # clock; a test's own runs a table over days), and --notify-command.
    clock: Callable[[], float] = time.time
    notify_command: str | None = None


class TableConflictError(ValueError):
    """A new table's players already sit at an unfinished table."""

    def __init__(self, table_id: str, names: Sequence[str]) -> None:
        self.table_id = table_id
        self.names = tuple(names)
        super().__init__(
            f"{', '.join(names)} already {'sits' if len(names) == 1 else 'sit'} at unfinished "
            f"table {table_id}: not opening a second table"
        )


_ids = itertools.count(1)


class Connection:
    """One client connection: where it sits, what it may still send, its socket."""

    def __init__(
        self,
        host: Host,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        door: bool = False,
    ) -> None:
        self.id = next(_ids)
        self.host = host
        self.reader = reader
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.address = "door" if door else str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.address_key = address_key(self.address)
        # Its far end as ip:port (what a peer host's relay proof is bound to, issue 21).
        self.source = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) > 1 else "?"
        self.fresh = True  # nothing said after its hello yet (a relay says who it is then)
        # A door's app (on the host's private socket): never anonymous, never counted
        # against an address. Otherwise anonymous until it sits or holds a table.
        self.door = door
        self.anonymous = not self.door
        self.room: Room | None = None
        self.seat: int | None = None
        self.protocol = PROTOCOL_VERSION  # the hello's version, once said
        self.waiting: WaitingTable | None = None  # a waiting table where it holds a seat
        self.claim: Claim | None = None  # the account it holds a waiting seat as
        self.hello: Hello | None = None  # its hello (a relay to another host says it again)
        # A door's ticket (issue 21): one of this host's own that it sent (in memory
        # only, to keep it from crossing to another host), or what a peer host
        # vouched for when it relayed it here.
        self.ticket: str | None = None
        self.vouched: Vouched | None = None
        self.relayed = False  # a peer host relays it (its relay line was proven)
        # The account a watcher reads the chat as (named in its watch, or proven by a
        # chat or mutes request): the host sends it no line of a writer it mutes.
        self.chat_account: int | None = None
        self.chat_joins = 0  # the chat histories it was sent (TableChat.history)
        loop = asyncio.get_running_loop()
        self.last_heard = loop.time()
        self._tokens = float(host.config.limits.burst)
        self._stamp = loop.time()
        self.closed = False
        self._nonce = 0

    def __str__(self) -> str:
        return f"connection {self.id} ({self.address})"

    def send(self, message: HostMessage) -> None:
        self.send_bytes(encode(message))

    def send_bytes(self, data: bytes) -> None:
        if self.closed or self.writer.is_closing():
            return
        self.writer.write(data)
        if self.writer.transport.get_write_buffer_size() > self.host.config.limits.send_buffer:
            log.warning("%s does not read what it is sent: cut off", self)
            self.abort()

    def ping(self) -> None:
        self._nonce += 1
        self.send(Ping(self._nonce))

    def spend(self) -> bool:
        """Take one message from the rate bucket; ``False`` when it is empty."""
        limits = self.host.config.limits
        now = asyncio.get_running_loop().time()
        self._tokens = min(float(limits.burst), self._tokens + (now - self._stamp) * limits.rate)
        self._stamp = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def abort(self) -> None:
        self.closed = True
        self.writer.transport.abort()

    def dismiss(self, last: HostMessage) -> None:
        """Send ``last`` and close, from outside this connection's own task (which
        then sees the end of its input and finishes)."""
        self.send(last)
        self.closed = True
        self.writer.close()

    async def hang_up(self, last: HostMessage | None = None) -> None:
        """Send ``last``, close our side, and drain the peer briefly so that the
        kernel delivers our last line instead of resetting the connection."""
        if last is not None:
            self.send(last)
        self.closed = True
        writer = self.writer
        if writer.is_closing():
            return
        with contextlib.suppress(OSError, RuntimeError):
            if writer.can_write_eof():
                writer.write_eof()
        with contextlib.suppress(TimeoutError, OSError, asyncio.IncompleteReadError):
            async with asyncio.timeout(1.0):
                drained = 0
                while drained < 1024 * 1024:
                    chunk = await self.reader.read(65536)
                    if not chunk:
                        break
                    drained += len(chunk)
        writer.close()


class Room:
    """A table being served: its referee, who sits where, who watches, its AI."""

    def __init__(
        self, host: Host, referee: Referee, owners: dict[int, int], problem: str | None = None
    ) -> None:
        self.host = host
        self.referee = referee
        self.id = referee.table_id
        self.owners = owners  # seat -> account id, for the seats already claimed
        self.seats_problem = problem  # the owners could not be read: no seat is given
        self.seated: dict[int, Connection] = {}
        self.watchers: set[Connection] = set()
        self.takeover: set[int] = set()
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._ai_task: asyncio.Task[None] | None = None
        self._ai_job: tuple[int, int] | None = None
        self.moving = asyncio.Lock()  # held while a move is made, saved and sent
        self.owners_saving = asyncio.Lock()
        # Opened by a client: the opener's owner key (kept in the record's meta, so
        # a restart still counts it) and address key (this run only: an address is
        # nobody's business in a record that is handed round for replays).
        opener = referee.meta.get("opener")
        self.opener: str | None = opener if isinstance(opener, str) else None
        self.opener_address: str | None = None
        self.touched = time.time()  # the last move or arrival (wall clock: survives restarts)
        self.result: RatedResult | None = None  # how the finished game was rated (rated.py)

    # --- who is here ----------------------------------------------------------------

    def status(self, seat: int) -> SeatStatus:
        if self.referee.is_ai(seat):
            return "ai"
        if seat in self.seated:
            return "present"
        return "takeover" if seat in self.takeover else "away"

    def seat_infos(self) -> tuple[SeatInfo, ...]:
        rating = self.host.ratings.seat_rating_of  # the account's rating (rated.py)
        return tuple(
            SeatInfo(p.name, p.kind, self.status(i), rating(p, self.owners.get(i)))
            for i, p in enumerate(self.referee.players)
        )

    def info(self) -> TableInfo:
        ref = self.referee
        info = TableInfo(self.id, self.seat_infos(), ref.move_count, ref.total_moves, ref.is_over)
        return self.host.turns.table_info(self, info)

    def start(self) -> None:
        """Begin serving: away seats' takeover clocks run, the AI moves if it is its turn."""
        for seat in self.referee.human_seats:
            if seat not in self.seated:
                self._start_clock(seat)
        self.host.turns.started(self)
        self.kick()

    def arrive(self, seat: int, conn: Connection) -> None:
        """``conn`` sits in ``seat``: a takeover ends, the player's own moves count again.

        The caller announces it (:meth:`broadcast_presence`) once the newcomer has
        been told where it sits."""
        self.seated[seat] = conn
        self.touched = time.time()
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if seat in self.takeover:
            self.takeover.discard(seat)
            log.info("table %s: seat %d is back, the AI hands it back", self.id, seat)
            self.host.ratings.mark_soon(self.id, seat, "returned")
        if self._ai_job is not None and self._ai_job[0] == seat:
            self._cancel_ai()

    def depart(self, conn: Connection) -> None:
        """``conn`` leaves (hung up, cut off, or joined elsewhere)."""
        self.watchers.discard(conn)
        seat = conn.seat
        if seat is not None and self.seated.get(seat) is conn:
            del self.seated[seat]
            self._start_clock(seat)
            self.host.turns.departed(self, seat)
            self.broadcast_presence()

    def _start_clock(self, seat: int) -> None:
        delay = self.host.config.ai_takeover
        if delay is None or self.referee.is_over or seat in self._timers:
            return
        if self.host.turns.turn_based(self):
            return  # a turn-based table waits for its players (host/turns.py)
        loop = asyncio.get_running_loop()
        self._timers[seat] = loop.call_later(delay, self._take_over, seat)

    def _take_over(self, seat: int) -> None:
        self._timers.pop(seat, None)
        if seat in self.seated or self.referee.is_over:
            return
        self.takeover.add(seat)
        log.info("table %s: seat %d away, the AI plays for it", self.id, seat)
        self.broadcast_presence()
        self.kick()

    # --- sending ----------------------------------------------------------------------

    def broadcast_presence(self) -> None:
        data = encode(
            Presence(self.id, self.seat_infos(), self.result, self.host.turns.move_clock(self))
        )
        for conn in (*self.seated.values(), *self.watchers):
            conn.send_bytes(data)

    def broadcast_update(self, events: Sequence[Event]) -> None:
        """Each seated connection gets its own seat's view; watchers the public one."""
        ref = self.referee
        seated = list(self.seated.items())
        public, views = ref.views(seat for seat, _ in seated)
        lines, public_line = encode_updates(self.id, public, views, tuple(events))
        for seat, conn in seated:
            conn.send_bytes(lines[seat])
        for conn in list(self.watchers):
            conn.send_bytes(public_line)

    # --- moves ------------------------------------------------------------------------

    async def play(self, seat: int, move: Move, move_count: int) -> None:
        """Submit to the referee (raises :class:`Refusal`), save, then tell everyone.

        One move at a time per table: the record is written (in an I/O thread,
        so no table waits for another's disk) before anyone hears of the move,
        so a move a player has seen is a move on disk.
        """
        ref = self.referee
        async with self.moving:
            events = ref.play(seat, move, move_count)
            self.touched = time.time()
            loop = asyncio.get_running_loop()
            try:
                await loop.run_in_executor(self.host.move_pool, self.host.tables.append, ref)
            except OSError as exc:
                ref.save_error = f"could not save table {self.id}: {exc.strerror or exc}"
                if not self.host.saves_failing:  # once per outage, not once per move
                    self.host.saves_failing = True
                    log.error("%s: moves wait until it takes them again", ref.save_error)
                if self.host.config.database is not None:
                    # A move is told only once it is in the database: this one is
                    # taken back and refused; the table waits for the database.
                    self._take_back()
                    if self.host.cluster is not None and type(exc).__name__ == "MoveConflict":
                        self.host.cluster.lose(self.id)  # another host referees it now
                    raise Refusal("unavailable", "the host cannot save the move now") from None
            else:
                ref.save_error = None
                if self.host.saves_failing:
                    self.host.saves_failing = False
                    log.info("moves are saved again (table %s)", self.id)
            self.broadcast_update(events)
            if ref.is_over:
                self._game_over()
                await self.host.chat.game_over(self)  # (the players' mutes read first)
            self.host.turns.moved(self)
        self.kick()

    def _take_back(self) -> None:
        """Undo the referee's last move (it could not be saved)."""
        old = self.referee
        record = old.record()
        self.referee = Referee.from_record(self.id, record.with_moves(record.moves[:-1]))
        self.referee.save_error = old.save_error
        self._cancel_ai()

    def _game_over(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self.takeover.clear()
        log.info("table %s: game over", self.id)
        self.host.ratings.finish_soon(self)

    def kick(self) -> None:
        """Start the AI if the seat to move is an AI seat or taken over."""
        ref = self.referee
        seat = ref.to_move
        if seat is None:
            return
        job = (seat, ref.move_count)
        if self._ai_job == job:
            return
        self._cancel_ai()
        if ref.is_ai(seat) or seat in self.takeover:
            self._ai_job = job
            self._ai_task = asyncio.get_running_loop().create_task(self._ai_turn(*job))

    def _cancel_ai(self) -> None:
        if self._ai_task is not None and not self._ai_task.done():
            self._ai_task.cancel()
        self._ai_task = None
        self._ai_job = None

    async def _ai_turn(self, seat: int, count: int) -> None:
        ref = self.referee
        loop = asyncio.get_running_loop()
        started = loop.time()
        view = ref.view(seat)
        bot = ref.bot(seat)
        try:
            move = await self.host.ai_moves.choose(bot, view)  # queued, budget shared (ai_moves.py)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "table %s: the AI of seat %d failed; it plays a legal move", self.id, seat
            )
            move = view.legal_moves[0]
        delay = self.host.config.ai_delay - (loop.time() - started)
        if delay > 0:
            await asyncio.sleep(delay)
        if self._ai_job != (seat, count):
            return
        self._ai_job = None
        self._ai_task = None
        if not (ref.is_ai(seat) or seat in self.takeover):
            return
        if not ref.is_ai(seat):  # the takeover AI's move: the game is no longer rated
            await self.host.ratings.mark(self.id, seat, "takeover")
            if self._ai_job is not None or seat not in self.takeover:
                return
        try:
            await self.play(seat, move, count)
        except Refusal as exc:  # a player's own move came first
            log.info("table %s: the AI's move was refused: %s", self.id, exc)

    def stop(self) -> None:
        """No more AI moves or takeovers (the host is closing)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._cancel_ai()


# A table ready to serve: its replayed referee, its seats' owners, a problem reading them.
Resumed = tuple[Referee, dict[int, int], str | None]


class Host:
    """Every table of a data directory, served on one TCP port."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.store = HostStore(config.data_dir)  # the data directory (lock, doors' files)
        self.tables: TableStore = self.store  # where tables are kept: these files, or
        self.cluster: Cluster | None = None  # the database several hosts share, and
        if config.database is not None:  # this host among the others there
            from .cluster import Cluster
            from .pgstore import PostgresStore

            database = PostgresStore(config.database, pool_size=config.db_pool)
            self.tables = database
            self.cluster = Cluster(self, database, config.lease_seconds)
        self.rooms: dict[str, Room] = {}
        # Tables opened by clients whose seats are not all taken (in memory only).
        self.waiting: dict[str, WaitingTable] = {}
        self._next_id = 1
        self.connections: set[Connection] = set()
        self._per_address: Counter[str] = Counter()  # TCP connections per address key
        # The anonymous pool, oldest first (limits.max_anonymous), and per address key.
        self._anonymous: dict[Connection, None] = {}
        self._anonymous_per_address: Counter[str] = Counter()
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
        self.ai_moves = AIMoves(self.ai_pool, max(1, config.ai_threads))
        self.server_name = f"paris-tui {__version__}"
        # What the doors proved (SSH keys, browser cookies), for the apps they start.
        self.tickets = Tickets()
        self.accounts: AccountStore | None = None
        self.gate = Gate(None, "not loaded", self.tickets)
        # Connections over the per-address limit allowed from an address where a
        # door's apps come from: one per live door session (reserve_door_slot).
        self._door_slots: Counter[str] = Counter()
        # Tables opened by clients: per person, per address, for the host (limits.py).
        self.opens = NestedWindow(config.limits.opens)
        self.ratings = HostRatings(self)  # ratings and the leaderboard (rated.py)
        self.chat = TableChat(self, chat_store(self))  # issue 22: table chat (chat.py)
        self.friends = Friends(self)  # issue 22: "tell me when NAME is here" (friends.py)
        self._sweeper: asyncio.Task[None] | None = None
        self.saves_failing = False  # a move could not be saved, none has been since
        self.turns = TurnKeeper(self, config.clock, config.notify_command)  # timed tables
        self._lock_watch: asyncio.Task[None] | None = None

    # --- tables -------------------------------------------------------------------------

    def load(self) -> list[str]:
        """Take the data directory's lock and resume its unfinished tables.

        Returns notes for the operator (files that could not be read, which are
        left untouched). Raises :class:`~paris_tui.host.store.HostBusyError` or
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
        self.turns.open(self.accounts)
        tables, problems = self.tables.load_tables()
        for name, problem in problems:
            notes.append(f"skipped {printable(name)}: {problem}")
        limits = self.config.limits
        now = time.time()
        finished = [
            table_id
            for table_id, record in tables
            if len(record.moves) >= len(record.setup.stacks) * len(record.players)
        ]
        shown = set(finished[-limits.keep_finished :]) if limits.keep_finished > 0 else set()
        for table_id, record in tables:
            over = table_id in finished
            if over:
                self.ratings.catch_up(table_id, record)  # a finish not counted yet (kill -9)
            if over and (self.cluster is not None or table_id not in shown):
                # kept for replay, not listed (across hosts, the lobby reads the database)
                continue
            if self.cluster is not None and not self.cluster.acquire(table_id):
                continue  # another host referees it
            touched = self.tables.touched(table_id)
            meta = record.extra.get(APP_KEY)
            opened_by_client = isinstance(meta, dict) and isinstance(meta.get("opener"), str)
            abandoned = now - touched > limits.abandon_after
            if isinstance(meta, dict) and is_turn_based(move_time_of(meta)):
                abandoned = False  # a turn-based table waits; its clock moves it on
            if not over and opened_by_client and abandoned:
                self._archive_file(table_id, touched)
                continue
            try:
                room = self.resume(table_id, record)
            except ValueError as exc:  # pragma: no cover - load_record replayed it already
                notes.append(f"skipped table {table_id}: {exc}")
                continue
            room.touched = touched
        return notes

    def prepare(self, table_id: str, record: Record) -> Resumed:
        """What :meth:`resume` needs: the replayed referee and the seats' owners (the
        accounts store's reads). Blocking, so a takeover runs it in an I/O thread."""
        referee = Referee.from_record(table_id, record)
        return referee, *self._load_owners(table_id, referee)

    def resume(self, table_id: str, record: Record, prepared: Resumed | None = None) -> Room:
        """Serve a table from its record (raises ``ValueError``)."""
        referee, owners, seats_problem = prepared or self.prepare(table_id, record)
        if seats_problem is not None and self.accounts is not None:
            log.error(
                "table %s: %s: its seats are refused until it is repaired",
                table_id,
                seats_problem,
            )
        room = Room(self, referee, owners, seats_problem)
        room.result = self.ratings.result_of(table_id)
        self.chat.forget(table_id)  # lines said meanwhile elsewhere: read them again
        self.rooms[table_id] = room
        if not referee.is_over:
            log.info("resumed table %s at move %d", table_id, referee.move_count)
        return room

    def _open_accounts(self) -> AccountStore:
        from .pgstore import PostgresStore

        if isinstance(self.tables, PostgresStore):
            from .pgaccounts import PostgresAccounts

            return PostgresAccounts(self.tables.pool)
        return self.config.accounts(self.store.root)

    def _new_referee(
        self,
        table_id: str,
        seats: Sequence[SeatSpec],
        seed: int | None,
        options: Options | None,
        move_time: float | None = None,
    ) -> Referee:
        """A new table's referee, its record saved (a failure in ``save_error``)."""
        referee = Referee.new(table_id, seats, seed=seed, options=options)
        if move_time is not None:  # in the record from its first save (host/turns.py)
            referee.meta[MOVE_TIME_KEY] = move_time
        try:
            self.tables.create(referee)
        except (OSError, ValueError, RecursionError) as exc:
            referee.save_error = (
                f"could not save table {table_id}: {getattr(exc, 'strerror', None) or exc}"
            )
        return referee

    def _load_owners(self, table_id: str, referee: Referee) -> tuple[dict[int, int], str | None]:
        """Who owns the seats of a resumed table (from the accounts store), with the
        seat file of an earlier version moved in first; a problem instead when
        either cannot be read (fail closed: no seat counts as free then)."""
        accounts = self.accounts
        if accounts is None:
            return {}, self.gate.problem or "the accounts store cannot be read"
        try:
            key = f"seats:{table_id}"
            if not accounts.done(key):
                try:
                    legacy = self.tables.load_seats(table_id)
                except SeatsFileError as exc:
                    return {}, str(exc)
                for seat, token_digest in legacy.items():
                    if seat >= len(referee.players):
                        continue
                    name = referee.players[seat].name
                    credential = Credential("token", token_digest, f"seat {seat} of {table_id}")
                    account = accounts.find(name)
                    if account is None:
                        account = accounts.create(name, credential)
                    elif not same_name(account.name, name):  # pragma: no cover - find decides
                        continue
                    else:
                        with contextlib.suppress(AccountError):
                            accounts.add_credential(account.id, credential)
                    accounts.claim_seat(table_id, seat, account.id)
                accounts.mark_done(key)
                if legacy:
                    self.tables.retire_seats(table_id)
            return accounts.seat_owners(table_id), None
        except AccountError as exc:
            return {}, str(exc)

    # --- abandoned and finished tables ----------------------------------------------------

    def _archive_file(self, table_id: str, touched: float) -> None:
        """Archive an abandoned table: a file moved to ``archive/``, or a database
        row marked (out of every host's lobby, caps and takeovers; its lease given
        back). Either stays a record to replay."""
        days = (time.time() - touched) / 86400
        try:
            self.tables.archive(table_id)
        except OSError as exc:
            log.error("table %s: could not archive it: %s", table_id, exc.strerror or exc)
            return
        if self.cluster is not None:
            with contextlib.suppress(OSError):
                self.cluster.leases.release(table_id)
        log.info(
            "table %s archived as abandoned (untouched for %.0f days): %s",
            table_id,
            days,
            self.tables.archived_where(table_id),
        )

    def sweep(self) -> list[str]:
        """Archive the tables abandoned by now, forget the finished tables beyond
        ``keep_finished`` that nobody is at; the ids archived."""
        limits = self.config.limits
        now = time.time()
        archived: list[str] = []
        for room in list(self.rooms.values()):
            if room.seated or room.watchers or room.moving.locked():
                continue
            if (
                room.opener is not None  # the operator's own tables are the operator's
                and not room.referee.is_over
                and not self.turns.turn_based(room)  # it waits; its clock moves it on
                and now - room.touched > limits.abandon_after
            ):
                room.stop()
                del self.rooms[room.id]
                self._archive_file(room.id, room.touched)
                archived.append(room.id)
        over = [r for r in self.rooms.values() if r.referee.is_over]
        for room in over[: max(0, len(over) - limits.keep_finished)]:
            if not (room.seated or room.watchers):
                del self.rooms[room.id]
        return archived

    async def _sweep_now_and_then(self) -> None:
        every = max(1.0, min(3600.0, self.config.limits.abandon_after / 8))
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # pragma: no cover - a bug must not stop the host
                log.exception("sweeping the tables failed")

    # --- locks (issue 17 follow-up: a lock reaches the sessions already open) -------------

    @staticmethod
    def _account_of(conn: Connection) -> int | None:
        """The account ``conn`` holds a seat as (at a table, or a waiting one)."""
        if conn.room is not None and conn.seat is not None:
            return conn.room.owners.get(conn.seat)
        if conn.waiting is not None and conn.claim is not None and conn.claim.account is not None:
            return conn.claim.account.id
        return None

    async def _watch_locks(self) -> None:
        """Every ``lock_check`` seconds, while anyone holds a seat: which accounts are
        locked (one query, in an I/O thread), and end their seats."""
        loop = asyncio.get_running_loop()
        said = False
        while True:
            await asyncio.sleep(self.config.limits.lock_check)
            store = self.accounts
            if store is None or all(self._account_of(c) is None for c in self.connections):
                continue
            try:
                locked = await loop.run_in_executor(self.io_pool, store.locked_accounts)
            except AccountsUnavailable as exc:
                if not said:  # once: the seats themselves refuse while it lasts
                    log.error("cannot read the accounts' locks: %s", exc)
                said = True
                continue
            except Exception:  # pragma: no cover - a bug must not stop the watch
                log.exception("reading the accounts' locks failed")
                continue
            said = False
            if locked:
                self.end_locked(locked)

    def end_locked(self, locked: set[int]) -> int:
        """End the seats of the accounts ``locked``: each connection is told why
        (``account_locked``, fatal) and closed. How many ended."""
        ended = 0
        for conn in list(self.connections):
            account = self._account_of(conn)
            if account is None or account not in locked or conn.closed:
                continue
            log.warning("%s: its account is locked: its seat ends", conn)
            self._leave(conn)
            answer = self._answer(
                conn,
                Refusal(
                    "account_locked",
                    "the host's operator locked this account: its seats end until it is unlocked",
                ),
            )
            conn.dismiss(structs.replace(answer, fatal=True))
            ended += 1
        return ended

    def unfinished(self) -> list[Room]:
        return [r for r in self.rooms.values() if not r.referee.is_over]

    def open_table(
        self,
        seats: Sequence[SeatSpec],
        *,
        seed: int | None = None,
        options: Options | None = None,
        move_time: float | None = None,
    ) -> Room:
        """Open the operator's table (saved at once). Raises
        :class:`TableConflictError` when its players sit at an unfinished table,
        ``OSError`` if it cannot be saved. Never refused for the tables clients
        opened: those have their own cap (``Limits.max_tables``)."""
        for room in self.unfinished():
            if is_turn_based(move_time) and self.turns.turn_based(room):
                continue  # one may sit at several turn-based tables
            clash = [
                s.name
                for s in seats
                if s.level is None and room.referee.seat_of(s.name) is not None
            ]
            if clash:
                raise TableConflictError(room.id, clash)
        table_id = self._new_table_id()
        humans = [s.name for s in seats if s.level is None]
        if self.cluster is not None and humans and not is_turn_based(move_time):
            try:  # ... or at another host's, a lock in the database (issue 21)
                self.cluster.seat(table_id, humans)
            except SeatTaken as exc:
                raise TableConflictError(exc.table_id, [exc.name]) from None
        referee = self._new_referee(table_id, seats, seed, options, move_time)
        if self.cluster is not None:
            self.cluster.acquire(table_id)
        if referee.save_error:
            if self.cluster is not None:  # no table: its names sit nowhere
                with contextlib.suppress(OSError):
                    self.cluster.withdraw(table_id, started=False)
            raise OSError(referee.save_error)
        room = Room(self, referee, {}, self._forget_owners(table_id))
        self.rooms[table_id] = room
        if self._server is not None:
            room.start()
        log.info("opened table %s", table_id)
        return room

    def _forget_owners(self, table_id: str) -> str | None:
        """A new table's id: no seat claim of an older table of that id counts
        (a record removed by hand); a problem when the store cannot say."""
        if self.accounts is None:
            return self.gate.problem or "the accounts store cannot be read"
        try:
            self.accounts.forget_table(table_id)
            self.accounts.mark_done(f"seats:{table_id}")
        except AccountsUnavailable as exc:
            log.error("table %s: %s", table_id, exc)
            return str(exc)
        return None

    def _tables_full(self) -> bool:
        return len(self.unfinished()) + len(self.waiting) >= self.config.limits.max_tables

    def client_tables(self) -> list[Room | WaitingTable]:
        """The tables clients opened that count against the caps: unfinished or waiting."""
        rooms: list[Room | WaitingTable] = [r for r in self.unfinished() if r.opener is not None]
        return rooms + list(self.waiting.values())

    def _check_quota(self, conn: Connection, owner: str, move_time: float | None = None) -> None:
        """Refuse (``too_many_tables``) an open_table over any table quota."""
        limits = self.config.limits
        address = address_key(conn.address)
        mine = conn.waiting
        if mine is not None and mine.opener_conn is not conn:
            mine = None  # a table it only sits at stays when it opens one
        held = [t for t in self.client_tables() if t is not mine]
        owned = [t for t in held if t.opener == owner]
        if not is_turn_based(move_time):  # turn-based tables have their own cap
            owned = [t for t in owned if not table_turn_based(self, t)]
        else:
            owned = []
        if len(owned) >= limits.tables_per_owner:
            raise Refusal(
                "too_many_tables",
                f"{owner} holds {limits.tables_per_owner} unfinished tables already: "
                "finish or leave one first",
            )
        if sum(1 for t in held if t.opener_address == address) >= limits.tables_per_address:
            raise Refusal(
                "too_many_tables",
                f"{limits.tables_per_address} unfinished tables were opened from this "
                "address already",
            )
        if len(held) >= limits.max_tables:
            raise Refusal("too_many_tables", f"the host serves {limits.max_tables} tables at most")
        used = self.opens.refusal(owner, address)
        if used is not None:
            quota = limits.opens
            wait = max(1, round(self.opens.retry_after(owner, address) / 60))
            per = {"owner": quota.per_owner, "address": quota.per_address, "host": quota.total}
            who = {"owner": owner, "address": "this address", "host": "the host"}[used]
            raise Refusal(
                "too_many_tables",
                f"{who} opened {per[used]} tables in the last hour: try again in {wait} min",
            )

    def _new_table_id(self) -> str:
        """An id no record and no table of this run has had (a waiting table's id is
        its record's name once its game starts)."""
        number = max(int(self.tables.new_table_id()[1:]), self._next_id)
        self._next_id = number + 1
        return f"t{number}"

    def table_infos(self, *, waiting: bool = True) -> tuple[TableInfo, ...]:
        """Every table, in id order; ``waiting=False`` leaves out the tables that
        wait for players (a protocol-1 connection does not know them)."""
        infos = [room.info() for room in self.rooms.values()]
        if waiting:
            infos += [table.info() for table in self.waiting.values()]
        return tuple(sorted(infos, key=lambda t: (len(t.table), t.table)))

    # --- tables opened by clients (protocol 2) -----------------------------------------

    def _check_name_free(self, name: str, conn: Connection, move_time: float | None = None) -> None:
        """A name sits at one table at a time: refuse one seated at an unfinished
        table, or waiting at another table than ``conn``'s own. Turn-based tables
        (issue 22) are apart: a name sits at several of them (``turn_tables_per_account``)."""
        if is_turn_based(move_time):
            check_turn_cap(self, name)
            return
        for room in self.unfinished():
            if self.turns.turn_based(room):
                continue
            if room.referee.seat_of(name) is not None:
                raise Refusal("name_in_use", f"{name} sits at unfinished table {room.id}: join it")
        for table in self.waiting.values():
            if table is conn.waiting or is_turn_based(table.move_time):
                continue
            for slot in table.slots:
                if slot.conn is not None and slot.name is not None and same_name(slot.name, name):
                    raise Refusal("name_in_use", f"{slot.name} already waits at table {table.id}")

    def _seat_everywhere(
        self, table_id: str, name: str, conn: Connection, move_time: float | None
    ) -> None:
        """With ``--database``, ``name`` sits at ``table_id`` in the database too,
        or is refused (``name_in_use``) for a table of any host: a lock there, not
        a read, so two hosts that seat one name at the same instant cannot both
        (issue 21, docs/scaling.md). Turn-based tables are apart, as above. The
        rows of this host's own waiting tables give way: the check above saw them."""
        if self.cluster is None or is_turn_based(move_time):
            return
        mine = [t for t in self.waiting if t != table_id]
        try:
            self.cluster.seat(table_id, [name], replace=mine)
        except SeatTaken as exc:
            if exc.started:
                raise Refusal(
                    "name_in_use", f"{exc.name} sits at unfinished table {exc.table_id}: join it"
                ) from None
            raise Refusal(
                "name_in_use", f"{exc.name} already waits at table {exc.table_id}"
            ) from None
        except OSError as exc:
            log.error("%s: cannot seat %s in the database: %s", conn, printable(name), exc)
            raise Refusal("unavailable", "the host cannot reach its database now") from None

    def _open(self, conn: Connection, message: OpenTable) -> None:
        try:
            name = normalize_name(message.name)
        except InvalidNameError as exc:
            raise Refusal("bad_name", exc.problem) from None
        claim = self.gate.prove(name, message.token, message.code, conn.vouched)
        name = claim.name
        mine, slots = plan_seats(message.seats, name)
        options = table_options(message.small_tour, message.final_tours)
        move_time = checked_move_time(message.move_time)
        self._check_name_free(name, conn, move_time)
        owner = owner_key(name)
        self._check_quota(conn, owner, move_time)
        table_id = self._new_table_id()
        self._seat_everywhere(table_id, name, conn, move_time)
        address = address_key(conn.address)
        self.opens.add(owner, address)
        self._leave(conn)
        table = WaitingTable(table_id, slots, options, opener=owner, opener_address=address)
        table.rating_of = self.ratings.seat_rating_by_name
        table.move_time = move_time
        self.waiting[table.id] = table
        table.take(name, conn, mine)
        table.opener_conn = conn
        conn.waiting = table
        conn.claim = claim
        self._proven(conn)
        log.info("%s opened table %s, %d seats free", conn, table.id, table.free_seats)
        self._filled(table)

    def _join_waiting(
        self, conn: Connection, name: str, table: WaitingTable, message: Join
    ) -> None:
        claim = self.gate.prove(name, message.token, message.code, conn.vouched)
        name = claim.name
        mine = table.seat_of(conn)
        if mine is not None and (table.slots[mine].name or "").casefold() == name.casefold():
            self._announce(table)  # already there: say so again
            return
        if table.name_taken(name):
            raise Refusal("name_in_use", f"someone called {name} already sits at table {table.id}")
        self._check_name_free(name, conn, table.move_time)
        if table.free_seats == 0 and mine is None:
            raise Refusal("no_such_seat", f"table {table.id} has no free seat")
        self._seat_everywhere(table.id, name, conn, table.move_time)
        if mine is not None:  # the same connection, another name: its seat is taken again
            table.release(conn)
            conn.waiting = None
        self._leave(conn)
        table.take(name, conn)
        conn.waiting = table
        conn.claim = claim
        self._proven(conn)
        log.info("%s waits at table %s (%s)", conn, table.id, printable(name))
        self._filled(table)

    def _announce(self, table: WaitingTable) -> None:
        if self.cluster is not None:  # every host's lobby lists it (issue 21)
            self.cluster.publish(table)
        seats = table.seat_infos()
        for seat, conn in table.holders:
            conn.send(Waiting(table.id, seat, seats))

    def _filled(self, table: WaitingTable) -> None:
        """Start the game if no seat is free, else tell everyone at the table."""
        if table.free_seats:
            self._announce(table)
            return
        # Every seat is held: each holder's account (made now if new), then deal,
        # save the record and the owners, and seat everyone.
        accounts: dict[int, int] = {}
        tokens: dict[int, str | None] = {}
        for seat, conn in table.holders:
            claim = conn.claim
            try:
                if claim is None:
                    raise Refusal("unavailable", "the host lost who this seat's holder is")
                accounts[seat] = self.gate.commit(claim).id
            except Refusal as exc:  # someone took the name first: this holder goes
                log.warning("%s refused at table %s (%s)", conn, table.id, exc.code)
                conn.waiting = None
                conn.claim = None
                table.release(conn)
                conn.send(self._answer(conn, exc))
                self._announce(table)
                return
            tokens[seat] = claim.token
        del self.waiting[table.id]
        if self.cluster is not None:
            names = [slot.name for slot in table.slots if slot.conn is not None and slot.name]
            self.cluster.withdraw(table.id, started=True, players=names)
        holders = table.holders
        referee = self._new_referee(table.id, table.specs(), None, table.options, table.move_time)
        if self.cluster is not None:
            self.cluster.acquire(table.id)
        if referee.save_error:
            log.error("%s", referee.save_error)  # the game goes on; the next move saves again
        if table.opener is not None:
            referee.meta["opener"] = table.opener
            try:  # a restart counts it against its opener's quota too
                self.tables.save(referee)
            except OSError as exc:
                log.error("table %s: could not save its opener: %s", table.id, exc)
        room = Room(self, referee, {}, self._forget_owners(table.id))
        room.opener_address = table.opener_address
        if room.seats_problem is None and self.accounts is not None:
            try:
                for seat, account_id in accounts.items():
                    self.accounts.claim_seat(room.id, seat, account_id)
            except AccountsUnavailable as exc:
                log.error("table %s: could not save seat owners: %s", room.id, exc)
        room.owners.update(accounts)
        self.rooms[room.id] = room
        for seat, conn in holders:
            conn.waiting = None
            conn.claim = None
            conn.room, conn.seat = room, seat
            room.arrive(seat, conn)
        seats = room.seat_infos()
        for seat, conn in holders:
            view = referee.view(seat)
            conn.send(Seated(room.id, seat, tokens[seat], view, referee.events, seats))
        log.info("table %s: every seat is taken, the game starts", room.id)
        room.start()

    def _close_waiting(self, table: WaitingTable) -> None:
        self.waiting.pop(table.id, None)
        if self.cluster is not None:
            self.cluster.withdraw(table.id, started=False)
        log.info("table %s closed: nobody waits at it", table.id)

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

    def vouched(self, conn: Connection) -> tuple[Vouched, str | None] | None:
        """The door's ticket ``conn`` proves itself with, for this host to vouch
        for when it relays ``conn`` to the table's host (issue 21): one of this
        host's own live tickets (with the ticket itself), else what a peer
        vouched for to this host (the ticket unknown here)."""
        if conn.ticket is not None:
            mine = self.tickets.vouch(conn.ticket)
            return None if mine is None else (mine, conn.ticket)
        if conn.vouched is not None and conn.vouched.deadline > time.monotonic():
            return conn.vouched, None
        return None

    def reserve_door_slot(self, address: str) -> None:
        """A door started a session whose app connects from ``address``: allow one
        more connection from there than ``max_per_address``. The door caps its
        sessions per *person's* address itself, so many players over one door
        never trip the limit meant for one address."""
        self._door_slots[address_key(address)] += 1

    def release_door_slot(self, address: str) -> None:
        """That session is over (called once per :meth:`reserve_door_slot`)."""
        key = address_key(address)
        self._door_slots[key] -= 1
        if self._door_slots[key] <= 0:
            del self._door_slots[key]

    # --- serving ------------------------------------------------------------------------

    async def start(self) -> tuple[str, int]:
        """Listen; returns the address and port actually bound (``port=0`` picks one)."""
        self._server = await asyncio.start_server(
            self._handle,
            self.config.bind,
            self.config.port,
            limit=self.config.limits.line_bytes,
        )
        for room in self.rooms.values():
            room.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())
        self._lock_watch = asyncio.get_running_loop().create_task(self._watch_locks())
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
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._lock_watch is not None:
            self._lock_watch.cancel()
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
        conn = Connection(self, reader, writer, door=door)
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

    def _admit(self, conn: Connection) -> bool:
        """Count a new connection, or ``False`` (refuse it).

        A door's app (the private socket) is bounded by the doors' live sessions
        only. A TCP connection comes in anonymous: bounded in all, per address, and
        in the anonymous pool; when the pool (not its address's share) is full, the
        oldest anonymous connection makes room, so a flood from many addresses
        delays a newcomer's hello but cannot keep it out."""
        limits = self.config.limits
        if conn.door:
            doors = sum(1 for c in self.connections if c.door)
            if doors >= sum(self._door_slots.values()) + 8:
                return False
            self.connections.add(conn)
            return True
        key = conn.address_key
        tcp = len(self.connections) - sum(1 for c in self.connections if c.door)
        if (
            tcp >= limits.max_connections
            or self._per_address[key] >= limits.max_per_address + self._door_slots.get(key, 0)
            or self._anonymous_per_address[key] >= limits.anonymous_per_address
        ):
            return False
        if len(self._anonymous) >= limits.max_anonymous:
            oldest = next(iter(self._anonymous))
            log.info("%s: the anonymous pool is full, the oldest (%s) makes room", conn, oldest)
            self._proven(oldest)  # out of the pool at once; its own task ends it
            oldest.dismiss(refusal("host_full", "the host has too many connections"))
        self.connections.add(conn)
        self._per_address[key] += 1
        self._anonymous[conn] = None
        self._anonymous_per_address[key] += 1
        return True

    def _proven(self, conn: Connection) -> None:
        """``conn`` sits, or holds a table: out of the anonymous pool."""
        if conn.anonymous:
            conn.anonymous = False
            self._anonymous.pop(conn, None)
            key = conn.address_key
            self._anonymous_per_address[key] -= 1
            if self._anonymous_per_address[key] <= 0:
                del self._anonymous_per_address[key]

    def _drop(self, conn: Connection) -> None:
        self._proven(conn)
        if conn in self.connections:
            self.connections.discard(conn)
            if not conn.door:
                key = conn.address_key
                self._per_address[key] -= 1
                if self._per_address[key] <= 0:
                    del self._per_address[key]
        self._leave(conn)

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
        table = conn.waiting
        if table is not None:
            conn.waiting = None
            if table.opener_conn is conn:
                self._opener_left(table)
            elif table.release(conn):
                self._announce(table)
            elif self.waiting.get(table.id) is table:
                self._close_waiting(table)

    def _opener_left(self, table: WaitingTable) -> None:
        """The opener of a waiting table left: the table closes, whoever waits is told."""
        table.opener_conn = None
        for _seat, other in table.holders:
            if other.waiting is table:
                other.waiting = None
                other.send(Left(table.id))
                other.send(
                    refusal("no_such_table", f"table {table.id} was closed: its opener left")
                )
        for slot in table.slots:
            if slot.kind == "human":
                slot.name, slot.conn = None, None
        if self.waiting.get(table.id) is table:
            self._close_waiting(table)

    async def _read(self, conn: Connection, first: bool) -> ClientMessage | None:
        """The next message, or ``None`` once the connection is over (closed or cut off)."""
        limits = self.config.limits
        loop = asyncio.get_running_loop()
        while not conn.closed:
            hello = limits.anonymous_hello_timeout if conn.anonymous else limits.hello_timeout
            wait = hello if first else limits.ping_interval
            try:
                async with asyncio.timeout(wait):
                    line = await conn.reader.readuntil(b"\n")
            except TimeoutError:
                if first or loop.time() - conn.last_heard >= limits.idle_timeout:
                    log.info("%s silent too long: cut off", conn)
                    await conn.hang_up(Bye("idle"))
                    return None
                conn.ping()
                continue
            except asyncio.IncompleteReadError:
                return None
            except asyncio.LimitOverrunError:
                log.warning("%s sent a line over %d bytes: cut off", conn, limits.line_bytes)
                await conn.hang_up(
                    refusal("too_large", f"a line is limited to {limits.line_bytes} bytes")
                )
                return None
            conn.last_heard = loop.time()
            if not conn.spend():
                log.warning("%s sends too fast: cut off", conn)
                await conn.hang_up(refusal("rate_limited", "too many messages"))
                return None
            try:
                return decode_client(line)
            except ProtocolError as exc:
                log.warning("%s sent a bad message (%s): cut off", conn, exc.code)
                await conn.hang_up(refusal(exc.code, exc.message))
                return None
        return None

    async def _serve(self, conn: Connection) -> None:
        hello = await self._read(conn, first=True)
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
            message = await self._read(conn, first=False)
            if message is None or self._closing:
                return
            try:
                await self._dispatch(conn, message)
            except Refusal as exc:
                answer = self._answer(conn, exc)
                if answer.fatal:
                    log.warning("%s refused (%s): cut off", conn, exc.code)
                    await conn.hang_up(answer)
                    return
                conn.send(answer)

    @staticmethod
    def _answer(conn: Connection, exc: Refusal) -> Refused:
        """The refusal as this connection's protocol says it."""
        code: ErrorCode = exc.code
        if conn.protocol < 3:
            code = _OLD_CODES.get(code, code)
        return refusal(code, exc.message, exc.illegal)

    def _relayed(self, conn: Connection, message: Relay) -> None:
        """A peer host relays ``conn`` (issue 21): count it at the person's address.

        Only right after the hello, and only with the proof of a host on this
        database over this very TCP connection; anything else is cut off."""
        if (
            self.cluster is None
            or conn.door
            or not conn.fresh
            or not self.cluster.proven_relay(conn.source, message)
        ):
            log.warning("%s: a relay message from what is not a peer host: cut off", conn)
            raise Refusal("bad_message", "relay is only for the hosts of one database")
        conn.fresh = False
        conn.relayed = True
        if message.vouch is not None:  # a door's ticket, resolved by the host that issued it
            self.take_vouch(conn, message.vouch)
        address = message.address
        if address not in ("door", "?"):  # a door's app at the peer: it bounds its people
            try:
                address = str(ipaddress.ip_address(address.split("%", 1)[0]))
            except ValueError:
                raise Refusal("bad_message", "relay: not an address") from None
        key = address_key(address)
        limits = self.config.limits
        if address != "door" and (
            self._per_address[key] >= limits.max_per_address + self._door_slots.get(key, 0)
            or (conn.anonymous and self._anonymous_per_address[key] >= limits.anonymous_per_address)
        ):
            log.warning("%s relayed for %s refused: too many connections", conn, address)
            raise Refusal("host_full", "the host has too many connections from this address")
        old = conn.address_key
        for counter, counted in (
            (self._per_address, True),
            (self._anonymous_per_address, conn.anonymous),
        ):
            if counted:
                counter[old] -= 1
                if counter[old] <= 0:
                    del counter[old]
                counter[key] += 1
        log.info("%s is relayed by a peer host for %s", conn, address)
        conn.address, conn.address_key = address, key

    def take_vouch(self, conn: Connection, vouch: Vouch) -> None:
        """A peer host's word for the door's ticket of ``conn``, which it relays
        here (issue 21): for this one connection, once, and only if proven for it."""
        if (
            self.cluster is None
            or not conn.relayed
            or conn.vouched is not None
            or (found := self.cluster.proven_vouch(conn.source, vouch)) is None
        ):
            log.warning("%s: a word for a door not a peer's for it: cut off", conn)
            raise Refusal("bad_message", "vouch is only for a peer host's relay, once")
        conn.vouched = found

    async def _dispatch(self, conn: Connection, message: ClientMessage) -> None:
        if isinstance(message, Relay):
            self._relayed(conn, message)
            return
        if isinstance(message, Vouch):
            self.take_vouch(conn, message)
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
                await finished_games(self, conn, message)
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
                conn.send(Tables(infos, table_leaderboard(self)))
            case OpenTable():
                self._open(conn, message)
            case Leave():
                room = conn.room or conn.waiting
                self._leave(conn)
                conn.send(Left(None if room is None else room.id))
            case Join():
                await self._join(conn, message)
            case AccountRequest():
                await self._account(conn, message)
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
                conn.send(Watching(room.id, ref.view(None), ref.events, room.seat_infos()))
                if room.result is not None:  # a finished game: how it was rated
                    conn.send(Presence(room.id, room.seat_infos(), room.result))
                await self.chat.history(conn, room)
            case Chat():
                await self.chat.say(conn, message)
            case FriendsRequest():
                await self.friends.request(conn, message)
            case MutesRequest():
                await self.chat.mutes(conn, message)
            case Play():
                room, seat = conn.room, conn.seat
                if room is None or seat is None:
                    raise Refusal("not_seated", "join a seat before playing")
                await room.play(seat, message.move, message.move_count)

    def _find_seat(self, name: str, table: str | None, account_id: int | None) -> tuple[Room, int]:
        """The seat of ``name``: one its account owns (a renamed account keeps its
        seats), else one reserved for the name."""

        def seat_in(room: Room) -> int | None:
            if account_id is not None:
                for seat, owner in room.owners.items():
                    if owner == account_id:
                        return seat
            return room.referee.seat_of(name)

        if table is not None:
            room = self.rooms.get(table)
            if room is None:
                raise Refusal("no_such_table", f"there is no table {table}")
            seat = seat_in(room)
            if seat is None:
                raise Refusal("no_such_seat", f"no seat at table {table} is reserved for {name}")
            return room, seat
        first = self.turns.waiting_order(self.unfinished(), name)  # your move first
        for rooms in (first, list(self.rooms.values())):
            for room in rooms:
                seat = seat_in(room)
                if seat is not None:
                    return room, seat
        raise Refusal("no_such_seat", f"no table has a seat reserved for {name}")

    async def _join(self, conn: Connection, message: Join) -> None:
        mark("host join")
        try:
            name = normalize_name(message.name)
        except InvalidNameError as exc:
            raise Refusal("bad_name", exc.problem) from None
        waiting = None if message.table is None else self.waiting.get(message.table)
        if waiting is not None and conn.protocol >= 2:
            self._join_waiting(conn, name, waiting, message)
            return
        loop = asyncio.get_running_loop()
        # The accounts' reads in an I/O thread: with --database each is a round trip,
        # and the event loop serves every other table's moves meanwhile.
        known = await loop.run_in_executor(self.io_pool, self.gate.find, name)
        mine = known.id if known is not None and same_name(known.name, name) else None
        room, seat = self._find_seat(name, message.table, mine)
        if room.seats_problem is not None:
            log.warning("table %s: a seat asked for while its owners cannot be read", room.id)
            raise Refusal("unavailable", f"the host cannot read who owns the seats of {room.id}")
        # The account first (its proof), then the seat: nothing is written for a refusal.
        claim = await loop.run_in_executor(
            self.io_pool, self.gate.prove, name, message.token, message.code, conn.vouched
        )
        owner = room.owners.get(seat)
        if owner is not None and (claim.account is None or claim.account.id != owner):
            owner = self._owner_still_there(room, seat, owner)
        if owner is not None and (claim.account is None or claim.account.id != owner):
            log.warning("%s: %s's seat at table %s is another account's", conn, name, room.id)
            raise Refusal("seat_taken", f"{name}'s seat at table {room.id} is another account's")
        account = await loop.run_in_executor(self.io_pool, self.gate.commit, claim)
        if owner is None:
            async with room.owners_saving:
                try:
                    if self.accounts is None:
                        raise AccountsUnavailable("no accounts store")
                    taken = await loop.run_in_executor(
                        self.io_pool, self.accounts.claim_seat, room.id, seat, account.id
                    )
                except AccountsUnavailable as exc:
                    log.error("table %s: could not save the seat's owner: %s", room.id, exc)
                    raise Refusal("unavailable", "the host cannot save who owns the seat") from None
                if not taken:
                    raise Refusal(
                        "seat_taken", f"{name}'s seat at table {room.id} is another account's"
                    )
                room.owners[seat] = account.id
        issued = claim.token
        # The seats' ratings (a read each, the first time) into their cache off the loop.
        await loop.run_in_executor(self.io_pool, room.seat_infos)
        self._leave(conn)
        old = room.seated.get(seat)
        if old is not None and old is not conn:
            old.room = None
            old.seat = None
            old.dismiss(Bye("replaced"))
        self.friends.arrived(conn, account.id, account.name)  # before it counts as here
        conn.room, conn.seat = room, seat
        self._proven(conn)
        room.arrive(seat, conn)
        ref = room.referee
        conn.send(Seated(room.id, seat, issued, ref.view(seat), ref.events, room.seat_infos()))
        mark("host seated")
        # The others hear of the arrival with the seat, before the chat's history is
        # read: a watcher who comes after the seat was given gets no late presence.
        room.broadcast_presence()
        await self.chat.history(conn, room)
        log.info("%s sits at table %s, seat %d (%s)", conn, room.id, seat, printable(name))
        room.kick()

    def _owner_still_there(self, room: Room, seat: int, owner: int) -> int | None:
        """The seat's owner, unless the operator removed that account meanwhile
        (its claims went with it: the seat is free again)."""
        try:
            if self.accounts is not None and self.accounts.get(owner) is None:
                room.owners.pop(seat, None)
                return None
        except AccountsUnavailable as exc:
            raise self.gate.broken(exc) from None
        return owner

    async def _account(self, conn: Connection, message: AccountRequest) -> None:
        """Show an account, make it a link code, or add an SSH key to it."""
        try:
            name = normalize_name(message.name)
        except InvalidNameError as exc:
            raise Refusal("bad_name", exc.problem) from None
        claim = self.gate.prove(name, message.token, vouched=conn.vouched)
        account = claim.account
        if account is None:
            raise Refusal(
                "no_such_seat", f"{name} is no account here yet: take a seat or open a table first"
            )
        store = self.accounts
        if store is None:  # pragma: no cover - prove refused already
            raise Refusal("unavailable", "the host cannot read its accounts")
        code: str | None = None
        try:
            if message.action == "code":
                code = format_code(store.new_code(account.id))
                log.info("%s: a link code for %s", conn, printable(account.name))
            elif message.action == "add_key":
                try:
                    fingerprint = ssh_fingerprint(message.key or "")
                except ValueError:
                    raise Refusal("bad_message", "that is not an SSH public key") from None
                store.add_credential(account.id, Credential("ssh", fingerprint, "added in the app"))
                log.info("%s: an SSH key for %s", conn, printable(account.name))
            doors = Counter(c.door for c in store.credentials(account.id))
        except AccountsUnavailable as exc:
            raise self.gate.broken(exc) from None
        except AccountError as exc:
            raise Refusal("name_taken", str(exc)) from None
        conn.send(
            AccountInfo(
                account.name,
                tuple((door, doors.get(door, 0)) for door in ("ssh", "token", "browser")),
                code,
                None if code is None else int(CODE_SECONDS),
            )
        )
