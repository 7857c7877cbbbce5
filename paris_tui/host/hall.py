"""Every table the host serves: the rooms, their records, and who sits where.

:class:`Hall` owns the host's rooms (:class:`~paris_tui.host.room.Room`, one
per table served): it resumes them from the table store, opens the
operator's tables and deals the games of waiting tables, seats a ``join``
(the account proven first, then the seat's owner), archives the tables
abandoned and forgets the old finished ones (:meth:`Hall.sweep`), and gives a
table up when another host referees it. What it needs of the host is
:class:`HallHost`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Protocol

from paris_tui.core import Options
from paris_tui.core.record import Record
from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.host.accounts.names import same_name
from paris_tui.host.accounts.store import (
    AccountError,
    AccountsUnavailable,
    Credential,
)
from paris_tui.host.config import TableConflictError
from paris_tui.host.connection import Connection
from paris_tui.host.events import TableArchived, TableResumed
from paris_tui.host.peers import Peer
from paris_tui.host.ports import AccountsSource, Resumed
from paris_tui.host.ratings.service import HostRatings
from paris_tui.host.referee import (
    APP_KEY,
    TOURNAMENT_KEY,
    UNRATED_KEY,
    Referee,
    Refusal,
    SeatSpec,
)
from paris_tui.host.room import Room, RoomHost
from paris_tui.host.services.chat import TableChat
from paris_tui.host.services.cluster import Cluster
from paris_tui.host.services.friends import Friends
from paris_tui.host.services.opening import WaitingTables
from paris_tui.host.services.tournament_desk import TournamentDesk
from paris_tui.host.services.turns import MOVE_TIME_KEY, TurnKeeper, move_time_of
from paris_tui.host.services.waiting import WaitingTable
from paris_tui.host.store.files import SeatsFileError
from paris_tui.host.store.postgres import SeatTaken
from paris_tui.net.protocol import Bye, Join, Seated, TableInfo
from paris_tui.net.turns import is_turn_based
from paris_tui.trace import mark

__all__ = ["Hall", "HallHost"]

log = logging.getLogger("paris_tui.host")


class HallHost(RoomHost, AccountsSource, Protocol):
    """What the hall needs of the host: the accounts, the services a seat and a
    table's start involve, a connection's seat left or proven."""

    @property
    def cluster(self) -> Cluster | None: ...

    @property
    def ratings(self) -> HostRatings: ...

    @property
    def turns(self) -> TurnKeeper: ...

    @property
    def chat(self) -> TableChat: ...

    @property
    def friends(self) -> Friends: ...

    @property
    def desk(self) -> TournamentDesk: ...

    @property
    def opening(self) -> WaitingTables: ...

    @property
    def waiting(self) -> dict[str, WaitingTable[Connection]]: ...

    @property
    def serving(self) -> bool:
        """Whether the host listens already (a table opened then starts at once)."""
        ...

    def leave(self, conn: Connection) -> None: ...

    def proven(self, conn: Connection) -> None: ...


class Hall:
    """The rooms of one host, from their records to their seats."""

    def __init__(self, host: HallHost) -> None:
        self.host = host
        self.rooms: dict[str, Room] = {}
        self._next_id = 1
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Serve every room, and sweep the tables now and then."""
        for room in self.rooms.values():
            room.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()

    def serve_loaded(self, tables: list[tuple[str, Record]]) -> list[str]:
        """Serve the tables read at the start (:meth:`Host.load`): the unfinished
        ones, and the latest finished ones for the lobby; the abandoned ones
        archived. Returns notes for the operator."""
        notes: list[str] = []
        limits = self.host.config.limits
        now = time.time()
        finished = [
            table_id
            for table_id, record in tables
            if len(record.moves) >= len(record.setup.stacks) * len(record.players)
            or _aborted(record)
        ]
        shown = set(finished[-limits.keep_finished :]) if limits.keep_finished > 0 else set()
        for table_id, record in tables:
            over = table_id in finished
            if over:
                self.host.ratings.catch_up(table_id, record)  # a finish not counted yet (kill -9)
                self.host.turns.finished(table_id)  # no clock left running for it
            if over and (self.host.cluster is not None or table_id not in shown):
                # kept for replay, not served: with a database several hosts would
                # each serve a copy; the finished list and the replay read the store
                continue
            if self.host.cluster is not None and not self.host.cluster.acquire(table_id):
                continue  # another host referees it
            touched = self.host.tables.touched(table_id)
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
        return referee, *self.load_owners(table_id, referee)

    def resume(self, table_id: str, record: Record, prepared: Resumed | None = None) -> Room:
        """Serve a table from its record (raises ``ValueError``)."""
        referee, owners, seats_problem = prepared or self.prepare(table_id, record)
        if seats_problem is not None and self.host.accounts is not None:
            log.error(
                "table %s: %s: its seats are refused until it is repaired",
                table_id,
                seats_problem,
            )
        room = Room(self.host, referee, owners, seats_problem)
        self.host.events.publish(TableResumed(room))  # its rating result; its chat read again
        self.rooms[table_id] = room
        if not referee.is_over:
            log.info("resumed table %s at move %d", table_id, referee.move_count)
        return room

    def _new_referee(
        self,
        table_id: str,
        seats: Sequence[SeatSpec],
        seed: int | None,
        options: Options | None,
        move_time: float | None = None,
        rated: bool = True,
        tournament: str | None = None,
    ) -> Referee:
        """A new table's referee, its record saved (a failure in ``save_error``)."""
        referee = Referee.new(table_id, seats, seed=seed, options=options)
        if move_time is not None:  # in the record from its first save (services/turns.py)
            referee.meta[MOVE_TIME_KEY] = move_time
        if not rated:  # the ratings leave its game out (ratings/service.py)
            referee.meta[UNRATED_KEY] = True
        if tournament is not None:  # a round's table: no rematch (services/agreements.py)
            referee.meta[TOURNAMENT_KEY] = tournament
        try:
            self.host.tables.create(referee)
        except (OSError, ValueError, RecursionError) as exc:
            referee.save_error = (
                f"could not save table {table_id}: {getattr(exc, 'strerror', None) or exc}"
            )
        return referee

    def load_owners(self, table_id: str, referee: Referee) -> tuple[dict[int, int], str | None]:
        """Who owns the seats of a resumed table (from the accounts store), with the
        seat file of an earlier version moved in first; a problem instead when
        either cannot be read (fail closed: no seat counts as free then)."""
        accounts = self.host.accounts
        if accounts is None:
            return {}, self.host.gate.problem or "the accounts store cannot be read"
        try:
            key = f"seats:{table_id}"
            if not accounts.done(key):
                try:
                    legacy = self.host.tables.load_seats(table_id)
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
                    self.host.tables.retire_seats(table_id)
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
            self.host.tables.archive(table_id)
        except OSError as exc:
            log.error("table %s: could not archive it: %s", table_id, exc.strerror or exc)
            return
        self.host.events.publish(TableArchived(table_id))  # its lease given back
        log.info(
            "table %s archived as abandoned (untouched for %.0f days): %s",
            table_id,
            days,
            self.host.tables.archived_where(table_id),
        )

    def sweep(self) -> list[str]:
        """Archive the tables abandoned by now, forget the finished tables beyond
        ``keep_finished`` that nobody is at; the ids archived."""
        limits = self.host.config.limits
        now = time.time()
        archived: list[str] = []
        for room in list(self.rooms.values()):
            if room.seated or room.watchers or room.moving.locked():
                continue
            if (
                room.opener is not None  # the operator's own tables are the operator's
                and not room.referee.is_over
                and not self.host.turns.turn_based(room)  # it waits; its clock moves it on
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
        every = max(1.0, min(3600.0, self.host.config.limits.abandon_after / 8))
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # pragma: no cover - a bug must not stop the host
                log.exception("sweeping the tables failed")

    def unfinished(self) -> list[Room]:
        return [r for r in self.rooms.values() if not r.referee.is_over]

    def open_table(
        self,
        seats: Sequence[SeatSpec],
        *,
        seed: int | None = None,
        options: Options | None = None,
        move_time: float | None = None,
        rated: bool = True,
        tournament: str | None = None,
    ) -> Room:
        """Open the operator's table (saved at once); ``rated=False``: its game is left
        out of the ratings (an unrated tournament's, kept in its record); ``tournament``:
        the tournament whose round it is (in its record: no rematch there). Raises
        :class:`TableConflictError` when its players sit at an unfinished table,
        ``OSError`` if it cannot be saved. Never refused for the tables clients
        opened: those have their own cap (``Limits.max_tables``)."""
        for room in self.unfinished():
            if is_turn_based(move_time) and self.host.turns.turn_based(room):
                continue  # one may sit at several turn-based tables
            clash = [
                s.name
                for s in seats
                if s.level is None and room.referee.seat_of(s.name) is not None
            ]
            if clash:
                raise TableConflictError(room.id, clash)
        table_id = self.new_table_id()
        humans = [s.name for s in seats if s.level is None]
        if self.host.cluster is not None and humans and not is_turn_based(move_time):
            try:  # ... or at another host's, a lock in the database
                self.host.cluster.seat(table_id, humans)
            except SeatTaken as exc:
                raise TableConflictError(exc.table_id, [exc.name]) from None
        referee = self._new_referee(table_id, seats, seed, options, move_time, rated, tournament)
        if self.host.cluster is not None:
            self.host.cluster.acquire(table_id)
        if referee.save_error:
            if self.host.cluster is not None:  # no table: its names sit nowhere
                with contextlib.suppress(OSError):
                    self.host.cluster.withdraw(table_id, started=False)
            raise OSError(referee.save_error)
        room = Room(self.host, referee, {}, self._forget_owners(table_id))
        self.rooms[table_id] = room
        if self.host.serving:
            room.start()
        log.info("opened table %s", table_id)
        return room

    def _forget_owners(self, table_id: str) -> str | None:
        """A new table's id: no seat claim of an older table of that id counts
        (a record removed by hand); a problem when the store cannot say."""
        if self.host.accounts is None:
            return self.host.gate.problem or "the accounts store cannot be read"
        try:
            self.host.accounts.forget_table(table_id)
            self.host.accounts.mark_done(f"seats:{table_id}")
        except AccountsUnavailable as exc:
            log.error("table %s: %s", table_id, exc)
            return str(exc)
        return None

    def deal(
        self,
        table: WaitingTable[Connection],
        accounts: dict[int, int],
        tokens: dict[int, str | None],
    ) -> None:
        """Every seat of the waiting ``table`` is held by ``accounts``: deal, save the
        record and the owners, and seat everyone (each told its ``tokens``' one)."""
        holders = table.holders
        referee = self._new_referee(table.id, table.specs(), None, table.options, table.move_time)
        if self.host.cluster is not None:
            self.host.cluster.acquire(table.id)
        if referee.save_error:
            log.error("%s", referee.save_error)  # the game goes on; the next move saves again
        if table.opener is not None:
            referee.meta["opener"] = table.opener
            try:  # a restart counts it against its opener's quota too
                self.host.tables.save(referee)
            except OSError as exc:
                log.error("table %s: could not save its opener: %s", table.id, exc)
        room = Room(self.host, referee, {}, self._forget_owners(table.id))
        room.opener_address = table.opener_address
        if room.seats_problem is None and self.host.accounts is not None:
            try:
                for seat, account_id in accounts.items():
                    self.host.accounts.claim_seat(room.id, seat, account_id)
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

    def new_table_id(self) -> str:
        """An id no record and no table of this run has had (a waiting table's id is
        its record's name once its game starts)."""
        number = max(int(self.host.tables.new_table_id()[1:]), self._next_id)
        self._next_id = number + 1
        return f"t{number}"

    def table_infos(self, *, waiting: bool = True) -> tuple[TableInfo, ...]:
        """Every table, in id order; ``waiting=False`` leaves out the tables that
        wait for players (a protocol-1 connection does not know them)."""
        infos = [room.info() for room in self.rooms.values()]
        if waiting:
            infos += [table.info() for table in self.host.waiting.values()]
        return tuple(sorted(infos, key=lambda t: (len(t.table), t.table)))

    def lose_table(self, table_id: str) -> list[Peer] | None:
        """Another host referees ``table_id`` now: stop serving it here at once.
        Its connections are returned to be unseated and told ``bye`` (with the
        table's new host when known, so they go straight there); until then a
        move of theirs is refused by the fence (``unavailable``: made again
        there), not ``not_seated``. ``None``: the table was not served here."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return None
        room.stop()
        return [*room.seated.values(), *room.watchers]

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
        # A running real-time game first (its seat is missed at once), then the
        # turn-based tables, your move first; never a finished game: a name whose games
        # are over has no seat (its login reaches the lobby).
        running = self.unfinished()
        turns = self.host.turns
        real_time = [room for room in running if not turns.turn_based(room)]
        first = turns.waiting_order([r for r in running if turns.turn_based(r)], name)
        for room in (*real_time, *first):
            seat = seat_in(room)
            if seat is not None:
                return room, seat
        raise Refusal("no_such_seat", f"no table has a seat reserved for {name}")

    async def join(self, conn: Connection, message: Join) -> None:
        """Seat ``conn`` (a waiting table's seat, or a seat of its name's)."""
        mark("host join")
        try:
            name = normalize_name(message.name)
        except InvalidNameError as exc:
            raise Refusal("bad_name", exc.problem) from None
        waiting = None if message.table is None else self.host.waiting.get(message.table)
        if waiting is not None and conn.protocol >= 2:
            self.host.opening.join(conn, name, waiting, message)
            return
        loop = asyncio.get_running_loop()
        # The accounts' reads in an I/O thread: with --database each is a round trip,
        # and the event loop serves every other table's moves meanwhile.
        known = await loop.run_in_executor(self.host.io_pool, self.host.gate.find, name)
        mine = known.id if known is not None and same_name(known.name, name) else None
        room, seat = self._find_seat(name, message.table, mine)
        if room.seats_problem is not None:
            log.warning("table %s: a seat asked for while its owners cannot be read", room.id)
            raise Refusal("unavailable", f"the host cannot read who owns the seats of {room.id}")
        # The account first (its proof), then the seat: nothing is written for a refusal.
        claim = await loop.run_in_executor(
            self.host.io_pool, self.host.gate.prove, name, message.token, message.code, conn.vouched
        )
        owner = room.owners.get(seat)
        if owner is not None and (claim.account is None or claim.account.id != owner):
            owner = self._owner_still_there(room, seat, owner)
        if owner is not None and (claim.account is None or claim.account.id != owner):
            log.warning("%s: %s's seat at table %s is another account's", conn, name, room.id)
            raise Refusal("seat_taken", f"{name}'s seat at table {room.id} is another account's")
        account = await loop.run_in_executor(self.host.io_pool, self.host.gate.commit, claim)
        try:
            if owner is None:
                await self._claim_seat(room, seat, account.id, name)
            # The seats' ratings (a read each, the first time) into their cache off the loop.
            await loop.run_in_executor(self.host.io_pool, room.seat_infos)
            if self.host.cluster is not None:  # after the last wait: still the referee here?
                await self.host.cluster.still_here(room)
        except Refusal as exc:
            # The account this join made is there now: its token goes with the
            # refusal, or the next try would meet name_taken, its token never said.
            if claim.account is None:
                exc.token = claim.token
            raise
        issued = claim.token
        self.host.leave(conn)
        old = room.seated.get(seat)
        if old is not None and old is not conn:
            old.unseat()
            old.dismiss(Bye("replaced"))
        self.host.friends.arrived(conn, account.id, account.name)  # before it counts as here
        self.host.desk.listen(conn, account.id, account.name)  # told of a round meanwhile
        conn.room, conn.seat = room, seat
        self.host.proven(conn)
        room.arrive(seat, conn)
        ref = room.referee
        seats = room.seat_infos()
        conn.send(Seated(room.id, seat, issued, ref.view(seat), ref.events, seats, ref.tournament))
        room.tell_aborted(conn)  # a game every player agreed to abort: said so at once
        mark("host seated")
        # The others hear of the arrival with the seat, before the chat's history is
        # read: a watcher who comes after the seat was given gets no late presence.
        room.broadcast_presence()
        await self.host.chat.history(conn, room)
        log.info("%s sits at table %s, seat %d (%s)", conn, room.id, seat, printable(name))
        room.kick()

    async def _claim_seat(self, room: Room, seat: int, account: int, name: str) -> None:
        """The seat is ``account``'s from now on (saved first), or ``Refusal``."""
        loop = asyncio.get_running_loop()
        async with room.owners_saving:
            try:
                if self.host.accounts is None:
                    raise AccountsUnavailable("no accounts store")
                taken = await loop.run_in_executor(
                    self.host.io_pool, self.host.accounts.claim_seat, room.id, seat, account
                )
            except AccountsUnavailable as exc:
                log.error("table %s: could not save the seat's owner: %s", room.id, exc)
                raise Refusal("unavailable", "the host cannot save who owns the seat") from None
            if not taken:
                why = f"{name}'s seat at table {room.id} is another account's"
                raise Refusal("seat_taken", why)
            room.owners[seat] = account

    def _owner_still_there(self, room: Room, seat: int, owner: int) -> int | None:
        """The seat's owner, unless the operator removed that account meanwhile
        (its claims went with it: the seat is free again)."""
        try:
            if self.host.accounts is not None and self.host.accounts.get(owner) is None:
                room.owners.pop(seat, None)
                return None
        except AccountsUnavailable as exc:
            raise self.host.gate.broken(exc) from None
        return owner


def _aborted(record: Record) -> bool:
    """Every player agreed to end the record's game early: it is finished too."""
    meta = record.extra.get(APP_KEY)
    return isinstance(meta, dict) and meta.get("aborted") is True
