"""Timed tables on the host: move clocks, turn-based play, the notify command.

A table opened with a move time (``host --table ... --move-time 1d``, or the
lobby's form: :class:`~paris_tui.net.protocol.OpenTable`'s ``move_time``)
keeps it in its record's ``"app"`` meta (``move_time``), so it moves with the
table between stores and hosts. :class:`TurnKeeper` keeps, per timed table,
whose turn it waits for and since when (:class:`Turn`), in a
:class:`TurnStore`: the accounts store's ``turn_clocks`` table, SQLite in the
data directory or PostgreSQL with ``--database`` (the same code on both, as
:mod:`~paris_tui.host.accounts.postgres` does), so a restarted host, or another host
after a failover, goes on with the same clock.

When a move time runs out the takeover AI plays that one move for the player
(:meth:`TurnKeeper.expire_due`), the log says so and the players' panels are
told (:class:`~paris_tui.net.protocol.MoveClock`'s ``timed_out``): never a
silent loss. A turn-based table (an hour or more per move,
:data:`~paris_tui.net.turns.TURN_BASED_FROM`) never hands an away player's
seat to the AI (``--ai-takeover`` does not apply to it): it waits.

Every clock reads :attr:`TurnKeeper.clock` (``HostConfig.clock``, the wall
clock by default), so a test runs a table over days of simulated time.

:class:`Notifier` runs the operator's ``--notify-command`` (no shell: the
command's words, then the account, the table and what happened, each one
argument) when an absent player's turn comes, when a game ends, when a
table is opened with a seat kept for them (``invited``), and when a tournament
round opens with a table for them (``round``); bounded
(a timeout, a cap on commands running at once), each failure logged on one
line. paris-tui itself sends nothing out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from msgspec import structs

from paris_tui.core.text import printable
from paris_tui.host.accounts.store import AccountStore, SQLiteAccounts
from paris_tui.host.events import (
    AIPlaysFor,
    GameOver,
    MovePlayed,
    RoundOpened,
    SeatLeft,
    SeatReturned,
    SeatsInvited,
    TableEvent,
    TableServed,
)
from paris_tui.host.peers import Table
from paris_tui.host.ports import TurnsHost
from paris_tui.host.referee import Refusal
from paris_tui.net.protocol import MoveClock, TableInfo
from paris_tui.net.turns import check_move_time, is_turn_based

__all__ = [
    "MOVE_TIME_KEY",
    "NOTIFY_RUNNING",
    "NOTIFY_TIMEOUT",
    "AccountsTurnStore",
    "MemoryTurnStore",
    "Notifier",
    "Turn",
    "TurnKeeper",
    "TurnStore",
    "move_time_of",
    "turn_store_for",
]

log = logging.getLogger("paris_tui.host.services.turns")

MOVE_TIME_KEY = "move_time"
"""The key of a table's move time (seconds) in its record's ``"app"`` meta."""
NOTIFY_TIMEOUT = 10.0  # seconds a notify command may run before it is killed
NOTIFY_RUNNING = 4  # notify commands running at once at most (more are dropped, logged)

Happening = Literal["your-turn", "game-over", "invited", "round"]
T = TypeVar("T", bound=Table)


def move_time_of(meta: dict[str, object]) -> float | None:
    """A table's move time from its record's meta (``None``: not timed, or unreadable)."""
    value = meta.get(MOVE_TIME_KEY)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return check_move_time(float(value))
    except ValueError:
        return None


def checked_move_time(value: float | None) -> float | None:
    """A client's move time, or the refusal (``bad_table``) of one out of range."""
    if value is None:
        return None
    try:
        return check_move_time(value)
    except ValueError as exc:
        raise Refusal("bad_table", str(exc)) from None


# --- the store ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """A timed table waits for ``seat``'s move number ``move_no`` since ``since``."""

    table_id: str
    seat: int
    move_no: int
    since: float
    notified: bool = False


class TurnStore(Protocol):
    """Where the host keeps its timed tables' turns (both stores: :func:`turn_store_for`)."""

    def turns(self) -> dict[str, Turn]: ...

    def put_turn(self, turn: Turn) -> None: ...

    def forget_turn(self, table_id: str, *, finished: bool = False) -> None:
        """No clock for ``table_id`` any more (``finished``: its game is over)."""


class AccountsTurnStore:
    """The ``turn_clocks`` table of the accounts store: SQLite (``host/accounts.sqlite``)
    or PostgreSQL (``--database``), by the accounts store's own transactions."""

    def __init__(self, accounts: SQLiteAccounts) -> None:
        self._accounts = accounts
        # Several hosts on one database: (holder, epoch) of this host's lease of a
        # table (raises when it never held it), and the clock's row is written only
        # while the lease row still says so (a stale referee's clock is refused).
        self.fence: Callable[[str], tuple[str, int] | None] | None = None

    def _fenced(self, db: Any, table_id: str) -> None:
        """Raise :class:`ClockFenced` unless this host holds the table's lease at
        its epoch (the row share-locked until the transaction ends)."""
        fence = self.fence
        if fence is None:
            return
        try:
            held = fence(table_id)
        except OSError as exc:
            raise ClockFenced(str(exc)) from None
        if held is None:
            return
        row = db.execute(
            "SELECT 1 FROM paris_leases WHERE table_id = ? AND holder = ? AND epoch = ? FOR SHARE",
            (table_id, *held),
        ).fetchone()
        if row is None:
            raise ClockFenced(f"table {table_id}: another host holds its lease")

    def turns(self) -> dict[str, Turn]:
        rows = self._accounts._read(
            "SELECT table_id, seat, move_no, since, notified FROM turn_clocks"
        )
        return {
            str(t): Turn(str(t), int(seat), int(no), float(since), bool(notified))
            for t, seat, no, since, notified in rows
        }

    def put_turn(self, turn: Turn) -> None:
        with self._accounts._tx() as db:
            self._fenced(db, turn.table_id)
            db.execute("DELETE FROM turn_clocks WHERE table_id = ?", (turn.table_id,))
            db.execute(
                "INSERT INTO turn_clocks (table_id, seat, move_no, since, notified) "
                "VALUES (?, ?, ?, ?, ?)",
                (turn.table_id, turn.seat, turn.move_no, turn.since, int(turn.notified)),
            )

    def forget_turn(self, table_id: str, *, finished: bool = False) -> None:
        """A finished game's clock goes without the lease: the host that saw the game
        end wrote that end under its lease (the last move's fenced write), then gave
        the lease back at once, and no host waits for a move of a finished table (an
        id is never used again), so this row is nobody's clock any more."""
        with self._accounts._tx() as db:
            if not finished:
                self._fenced(db, table_id)
            db.execute("DELETE FROM turn_clocks WHERE table_id = ?", (table_id,))


class ClockFenced(Exception):
    """A turn clock not written: another host referees the table now."""


class MemoryTurnStore:
    """Turns kept in memory only: for an accounts store of another kind (tests')."""

    def __init__(self) -> None:
        self._turns: dict[str, Turn] = {}

    def turns(self) -> dict[str, Turn]:
        return dict(self._turns)

    def put_turn(self, turn: Turn) -> None:
        self._turns[turn.table_id] = turn

    def forget_turn(self, table_id: str, *, finished: bool = False) -> None:
        self._turns.pop(table_id, None)


def turn_store_for(accounts: AccountStore | None) -> TurnStore:
    if isinstance(accounts, SQLiteAccounts):  # PostgresAccounts is one too
        return AccountsTurnStore(accounts)
    return MemoryTurnStore()


# --- the notify command -------------------------------------------------------------------


class Notifier:
    """Runs ``--notify-command``: its words (``shlex.split``), then the account, the table
    id and what happened (``your-turn``, ``game-over``, ``invited``, ``round``), each one
    argument, no shell."""

    def __init__(
        self,
        command: str | None,
        *,
        timeout: float = NOTIFY_TIMEOUT,
        max_running: int = NOTIFY_RUNNING,
    ) -> None:
        self.argv: tuple[str, ...] = tuple(shlex.split(command)) if command else ()
        self.timeout = timeout
        self.max_running = max_running
        self._tasks: set[asyncio.Task[None]] = set()
        self._queues: set[asyncio.Task[None]] = set()  # notify_all's, each in turn

    @property
    def running(self) -> int:
        return len(self._tasks)

    def notify(self, account: str, table_id: str, what: Happening) -> bool:
        """Start the command for ``account``; ``False`` if none is set or too many run."""
        if not self.argv:
            return False
        if len(self._tasks) >= self.max_running:
            log.warning(
                "notify command not run for table %s (%d already running)",
                table_id,
                len(self._tasks),
            )
            return False
        task = asyncio.get_running_loop().create_task(
            self._run((*self.argv, account, table_id, what), table_id)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    def notify_all(self, calls: Sequence[tuple[str, str, Happening]]) -> None:
        """Run the command for each of ``calls`` (account, table, what), one after the
        other as the cap lets them start: none dropped for the cap (a round's players all
        hear of it), each still bounded by the timeout."""
        if not self.argv or not calls:
            return
        task = asyncio.get_running_loop().create_task(self._in_turn(tuple(calls)))
        self._queues.add(task)
        task.add_done_callback(self._queues.discard)

    async def _in_turn(self, calls: tuple[tuple[str, str, Happening], ...]) -> None:
        for account, table_id, what in calls:
            while len(self._tasks) >= self.max_running:
                await asyncio.wait(list(self._tasks), return_when=asyncio.FIRST_COMPLETED)
            self.notify(account, table_id, what)

    async def _run(self, argv: tuple[str, ...], table_id: str) -> None:
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
                start_new_session=True,
            )
        except (OSError, ValueError) as exc:  # ValueError: an argument no OS argv holds
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            log.warning(
                "notify command failed for table %s: %s", table_id, printable(str(reason))[:200]
            )
            return
        try:
            async with asyncio.timeout(self.timeout):
                code = await process.wait()
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            log.warning("notify command for table %s killed after %.0f s", table_id, self.timeout)
            return
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            raise
        if code != 0:
            log.warning("notify command for table %s exited with %d", table_id, code)

    async def drain(self) -> None:
        """Wait for the commands running and those waiting their turn (each bounded by
        the timeout)."""
        if self._queues:
            await asyncio.wait(list(self._queues))
        if self._tasks:
            await asyncio.wait(list(self._tasks))

    def cancel(self) -> None:
        for task in [*self._queues, *self._tasks]:
            task.cancel()


# --- the clocks -----------------------------------------------------------------------------


class TurnKeeper:
    """The move clocks of a host's timed tables."""

    def __init__(
        self,
        host: TurnsHost,
        clock: Callable[[], float] = time.time,
        notify: str | None = None,
        *,
        shared: bool = False,
    ) -> None:
        self.host = host
        self.shared = shared  # several hosts on one database: a clock may be another's
        self.clock = clock
        self.notifier = Notifier(notify)
        self.store: TurnStore = MemoryTurnStore()
        # The referee's fence (PostgresStore.fence) for the clocks' rows, if shared.
        self.fence: Callable[[str], tuple[str, int] | None] | None = None
        self._turns: dict[str, Turn] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._expiring: dict[str, asyncio.Task[None]] = {}
        # table -> (seat, move number) of the last move the AI made for a player out of time
        self.timed_out: dict[str, tuple[int, int]] = {}
        host.events.subscribe(self.hear)

    def hear(self, event: TableEvent) -> Awaitable[None] | None:
        """A table is served, moved, or a seat left: its clock follows."""
        match event:
            case TableServed(table):
                self.started(table)
            case MovePlayed(table):
                self.moved(table)
            case GameOver(table):  # the last move, or an abort every player agreed to
                self.over(table)
            case SeatLeft(table, seat):
                self.departed(table, seat)
            case SeatsInvited(table_id, names):
                for name in names:  # an invitation: the notify command, as for a turn
                    self.notifier.notify(name, table_id, "invited")
            case RoundOpened(tables=tables, notify=True):  # a round: where each one sits
                self.notifier.notify_all(
                    [(name, table_id, "round") for table_id, names in tables for name in names]
                )
        return None

    def open(self, accounts: AccountStore | None) -> None:
        """Read the turns kept (a restart, or a failover, goes on with their clocks)."""
        self.store = turn_store_for(accounts)
        if isinstance(self.store, AccountsTurnStore):
            self.store.fence = self.fence
        try:
            self._turns = self.store.turns()
        except OSError as exc:
            log.error("cannot read the turn clocks: %s", exc)
        except Exception as exc:  # AccountsUnavailable: the clocks start again
            log.error("cannot read the turn clocks: %s", printable(str(exc))[:200])

    # --- reading ---------------------------------------------------------------------------

    def move_time(self, room: Table) -> float | None:
        return move_time_of(room.referee.meta)

    def turn_based(self, room: Table) -> bool:
        return is_turn_based(self.move_time(room))

    def turn(self, table_id: str) -> Turn | None:
        return self._turns.get(table_id)

    def waited(self, room: Table) -> float | None:
        turn = self._turns.get(room.id)
        return None if turn is None else max(0.0, self.clock() - turn.since)

    def move_clock(self, room: Table) -> MoveClock | None:
        """What a :class:`~paris_tui.net.protocol.Presence` says of the clock."""
        move_time = self.move_time(room)
        if move_time is None:
            return None
        turn = self._turns.get(room.id)
        out = self.timed_out.get(room.id)
        return MoveClock(
            move_time,
            is_turn_based(move_time),
            None if turn is None else turn.seat,
            0.0 if turn is None else max(0.0, self.clock() - turn.since),
            None if out is None else out[0],
            None if out is None else out[1],
        )

    def table_info(self, room: Table, info: TableInfo) -> TableInfo:
        """``info`` with the timed table's fields (the lobby's order reads them)."""
        move_time = self.move_time(room)
        if move_time is None:
            return info
        turn = self._turns.get(room.id)
        return structs.replace(
            info,
            move_time=move_time,
            to_move=None if turn is None else turn.seat,
            waited=None if turn is None else max(0.0, self.clock() - turn.since),
        )

    def waiting_order(self, rooms: Sequence[T], name: str) -> list[T]:
        """``rooms`` with the timed ones waiting for ``name``'s move first, the
        longest-waiting at the top (where a join that names no table sits)."""
        now = self.clock()
        key = name.casefold()

        def order(room: T) -> tuple[int, float]:
            turn = self._turns.get(room.id)
            if turn is None or room.referee.names[turn.seat].casefold() != key:
                return (1, 0.0)
            return (0, -(now - turn.since))

        return sorted(rooms, key=order)

    # --- the turn ---------------------------------------------------------------------------

    def started(self, room: Table) -> None:
        """The table is served (a start, a restart, a failover): its clock goes on."""
        if self.move_time(room) is None:
            return
        if self.shared or room.id not in self._turns:
            try:  # another host may have kept it last
                kept = self.store.turns().get(room.id)
            except Exception as exc:
                log.error("table %s: cannot read its turn clock: %s", room.id, exc)
                kept = None
            if kept is not None:
                self._turns[room.id] = kept
        self.sync(room)

    def moved(self, room: Table) -> None:
        """A move was made and told: the next turn's clock, told to everyone there."""
        if self.move_time(room) is None:
            return
        self.sync(room)
        if room.referee.is_over and self.turn_based(room):
            self._game_over(room)  # this move ended it: the absent players hear of it
        room.broadcast_presence()

    def over(self, room: Table) -> None:
        """The game ended: its clock stops and goes, timer and row (an abort ends it
        with no move, so no :meth:`moved` follows)."""
        self._cancel_timer(room.id)
        if room.id in self._turns:
            self._forget(room.id, finished=True)

    def finished(self, table_id: str) -> None:
        """A table found finished at the start: a clock kept for it is left over (an
        older version kept it, or its game ended while its row could not go) and goes."""
        if table_id in self._turns:
            self._forget(table_id, finished=True)

    def sync(self, room: Table) -> None:
        """The table moved, started or was resumed: whose turn it is now, since when."""
        move_time = self.move_time(room)
        ref = room.referee
        seat = ref.to_move
        old = self._turns.get(room.id)
        if move_time is None or seat is None or ref.is_ai(seat):
            self._cancel_timer(room.id)
            if old is not None:
                self._forget(room.id, finished=ref.is_over)
            return
        if old is not None and old.seat == seat and old.move_no == ref.move_count:
            turn = old  # resumed: the clock goes on from when the turn began
        else:
            turn = Turn(room.id, seat, ref.move_count, self.clock())
            self._put(turn)
        if not turn.notified and seat not in room.seated and is_turn_based(move_time):
            self._notify_turn(room, turn)
        self._schedule(room, move_time - (self.clock() - turn.since))

    def departed(self, room: Table, seat: int) -> None:
        """``seat`` left: notify them if the table now waits for their move."""
        turn = self._turns.get(room.id)
        if turn is not None and turn.seat == seat and not turn.notified and self.turn_based(room):
            self._notify_turn(room, turn)

    def _notify_turn(self, room: Table, turn: Turn) -> None:
        name = room.referee.names[turn.seat]
        if self.notifier.notify(name, room.id, "your-turn"):
            self._put(Turn(turn.table_id, turn.seat, turn.move_no, turn.since, True))

    def _game_over(self, room: Table) -> None:
        for seat in room.referee.human_seats:
            if seat not in room.seated:
                self.notifier.notify(room.referee.names[seat], room.id, "game-over")

    def _put(self, turn: Turn) -> None:
        self._turns[turn.table_id] = turn
        try:
            self.store.put_turn(turn)
        except Exception as exc:  # the clock goes on in memory; logged once per change
            log.error("table %s: cannot save its turn clock: %s", turn.table_id, exc)

    def _forget(self, table_id: str, *, finished: bool = False) -> None:
        self._turns.pop(table_id, None)
        try:
            self.store.forget_turn(table_id, finished=finished)
        except Exception as exc:
            log.error("table %s: cannot forget its turn clock: %s", table_id, exc)

    def _schedule(self, room: Table, remaining: float) -> None:
        self._cancel_timer(room.id)
        loop = asyncio.get_running_loop()
        # Long turns are looked at again within the hour (the clock may be adjusted).
        self._timers[room.id] = loop.call_later(
            max(0.0, min(remaining, 3600.0)), self._due, room.id
        )

    def _cancel_timer(self, table_id: str) -> None:
        timer = self._timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()

    def _due(self, table_id: str) -> None:
        self._timers.pop(table_id, None)
        room = self.host.rooms.get(table_id)
        if room is None:
            return
        move_time = self.move_time(room)
        turn = self._turns.get(table_id)
        if move_time is None or turn is None:
            return
        remaining = move_time - (self.clock() - turn.since)
        if remaining > 0:
            self._schedule(room, remaining)
            return
        self._start_expiry(room, turn)

    def _start_expiry(self, room: Table, turn: Turn) -> asyncio.Task[None] | None:
        if room.id in self._expiring:
            return self._expiring[room.id]
        task = asyncio.get_running_loop().create_task(self._play_for(room, turn))
        self._expiring[room.id] = task
        key = room.id

        def done(_task: asyncio.Task[None]) -> None:
            self._expiring.pop(key, None)

        task.add_done_callback(done)
        return task

    async def expire_due(self) -> list[str]:
        """Play the AI's move at every table whose move time ran out by now; the ids."""
        tasks: list[asyncio.Task[None]] = []
        ids: list[str] = []
        now = self.clock()
        for table_id, turn in list(self._turns.items()):
            room = self.host.rooms.get(table_id)
            move_time = None if room is None else self.move_time(room)
            if room is None or move_time is None or now - turn.since < move_time:
                continue
            task = self._start_expiry(room, turn)
            if task is not None:
                tasks.append(task)
                ids.append(table_id)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        return ids

    async def _play_for(self, room: Table, turn: Turn) -> None:
        """The move time of ``turn`` ran out: the takeover AI plays that one move."""
        ref = room.referee
        if ref.to_move != turn.seat or ref.move_count != turn.move_no:
            return
        view = ref.view(turn.seat)
        try:
            ai_moves = self.host.ai_moves
            move = await ai_moves.choose(ref.bot(turn.seat, ai_moves.budget), view)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the AI failed on a time-out; a legal move", room.id)
            move = view.legal_moves[0]
        if room.referee is not ref or ref.move_count != turn.move_no:
            return  # the player moved meanwhile
        # The takeover AI plays this move: the game is no longer rated (the ratings);
        # the player has not left, so the seat is theirs again once it is played.
        await self.host.events.deliver(AIPlaysFor(room.id, turn.seat))
        if room.referee is not ref or ref.move_count != turn.move_no:
            return
        self.timed_out[room.id] = (turn.seat, turn.move_no)
        log.info(
            "table %s: %s's move time ran out, the AI played move %d for them",
            room.id,
            printable(ref.names[turn.seat]),
            turn.move_no + 1,
        )
        try:
            await room.play(turn.seat, move, turn.move_no)
        except Refusal as exc:
            self.timed_out.pop(room.id, None)
            log.info("table %s: the time-out move was refused: %s", room.id, exc)
        if turn.seat not in room.takeover:  # not away for good: not a leaver
            self.host.events.publish(SeatReturned(room.id, turn.seat))

    def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in list(self._expiring.values()):
            task.cancel()
        self.notifier.cancel()
