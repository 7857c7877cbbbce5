"""The turn flow of one game on a screen: what is shown, whose turn, what comes next.

A :class:`TurnFlow` follows one :class:`~paris_tui.net.table.Table`: a game on this
terminal (:class:`~paris_tui.app.local.session.SessionTable`: hot-seat, or against
AI) or a seat or a watcher at a host's table
(:class:`~paris_tui.net.table.RemoteTable`). It keeps each update the table
tells (a move's events and the views after it) as it came, to be shown in
order, and decides what comes next (:meth:`TurnFlow.next_step`): an update to
show, a hand-off, a human turn, an AI turn, another terminal's turn, the end.
It stages a move's events for the tours' frames (:class:`Staging`) and says
which answers are stale (an AI's, a hint's). It draws nothing and runs no
timer or thread: the game screen does, and asks it.

Whatever is drawn comes from a :class:`SeatView`: the seat whose turn it is
(after the hand-off), a networked player's own seat, or the public view
``view(None)``, so no screen shows a seat's route to anyone else (R8).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from paris_tui.app.play.staging import Staging

from ...core import Event, Move, SeatView
from ...core.record import Player, Record
from ...core.sampling import Determinizer
from ...net.protocol import SeatInfo
from ...net.table import Table

if TYPE_CHECKING:
    from paris_tui.app.local.history import GameMode, History
    from paris_tui.app.local.session import Bot

__all__ = ["LocalBots", "Remembered", "Step", "TurnFlow", "Update"]


@runtime_checkable
class LocalBots(Protocol):
    """A table whose AI seats are played in this process (a local table)."""

    def local_bot(self, seat: int) -> Bot | None: ...


@dataclass(frozen=True, slots=True)
class Update:
    """One move as the table told it: its events and the views just after it."""

    events: tuple[Event, ...]
    public: SeatView
    views: dict[int, SeatView]


StepKind = Literal[
    "none",  # nothing now: the game ended, or the tours being shown go on when done
    "pause",  # the game is paused (too small a terminal): again once it is not
    "show",  # an update came: show it
    "later",  # a dialog is on top of the game: again in a moment
    "end",  # the game is over
    "ai",  # a local AI's turn (``seat``)
    "other",  # another terminal's turn, or a host's AI's (``seat``)
    "offline",  # this terminal's seat, but the table cannot be reached
    "handoff",  # a hot-seat turn: the hand-off first (``seat``)
    "turn",  # this terminal's seat chooses a tile (``seat``)
]


@dataclass(frozen=True, slots=True)
class Step:
    """What comes next in the game, for the screen to do."""

    kind: StepKind
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Remembered:
    """A finished game as the player's history keeps it."""

    public: SeatView
    events: list[Event]
    kinds: list[str]
    mode: GameMode
    local_seats: tuple[int, ...]

    async def keep(self, history: History) -> None:
        """Add it to ``history`` (in a thread); ``HistoryError`` if that fails."""
        await asyncio.to_thread(
            history.add,
            self.public,
            self.events,
            self.kinds,
            mode=self.mode,
            local_seats=self.local_seats,
        )


def _update(table: Table, events: tuple[Event, ...]) -> Update:
    views = {s: table.view(s) for s in table.local_seats}
    return Update(events, table.view(None), views)


class TurnFlow:
    """One game's turns as a screen shows them, from the first move to the end."""

    def __init__(self, table: Table, *, ready_seat: int | None = None) -> None:
        self.table = table
        # A table that plays its AI seats here is this terminal's own game; any other
        # is a host's, where this terminal is one seat (or watches).
        self.networked = not isinstance(table, LocalBots)
        self.viewer: int | None = None  # whose view is shown (None: the public view)
        self.turn_seat: int | None = None  # the seat choosing a tile on this terminal
        # The seat that already passed its hand-off (the app shows the first one).
        self.last_human: int | None = ready_seat
        self.ai_choice: Move | None = None  # the AI's move, shown before it is played
        self.thinking: int | None = None  # the local AI seat working out its move
        # What is shown: the views and events of the updates shown so far (snapshots).
        self.public: SeatView = table.view(None)
        self.views: dict[int, SeatView] = {s: table.view(s) for s in table.local_seats}
        self.events: list[Event] = list(table.events)
        self.seats: tuple[SeatInfo, ...] = table.seats
        self.pending: deque[Update] = deque()  # updates that came, not shown yet
        self.showing = False  # an update's tours are being shown
        self.sent = False  # a move was submitted and its answer has not come
        self.waiting_for: int | None = None  # another terminal's seat whose move is awaited
        self.connection: str | None = None  # why the table cannot be reached, while so
        self.ended = False
        self.staging = Staging()

    # --- what is shown ----------------------------------------------------------------

    @property
    def move_count(self) -> int:
        """The moves of the position shown (the table may be ahead while tours show)."""
        return len(self.public.moves)

    @property
    def hot_seat(self) -> bool:
        """Two or more humans share this keyboard: hand-offs, no secrets between turns."""
        return len(self.table.local_seats) > 1

    def seat_view(self, seat: int | None) -> SeatView:
        """The shown view of a local ``seat`` (``None``: the public view)."""
        if seat is None:
            return self.public
        view = self.views.get(seat)
        if view is None:  # a local AI seat: its view is asked of the table when it moves
            view = self.table.view(seat)
        return view

    @property
    def hints_allowed(self) -> bool:
        """Always in a game on this terminal; at a host's table only if the host allows it."""
        return not self.networked or bool(getattr(self.table, "hints_allowed", False))

    def presence(self) -> tuple[str, ...] | None:
        """Each seat's presence, for a host's table (a local one has everyone here)."""
        if not self.networked:
            return None
        return tuple(info.status for info in self.seats)

    # --- what the table tells -----------------------------------------------------------

    def changed(self, table: Table, events: tuple[Event, ...]) -> bool:
        """A move was made: keep its update; True if it is to be shown now."""
        self.pending.append(_update(table, events))
        self.sent = False
        return not self.showing and not self.ended

    def refused(self) -> bool:
        """The table refused the move sent: True if the game goes on at once (it may still
        be this seat's turn)."""
        self.sent = False
        return self.turn_seat is None and self.thinking is None and not self.showing

    def rebind(self, table: Table) -> Update:
        """Go on with ``table``, the same game on a new connection (after a drop): what
        happened meanwhile, as one more update to queue (:attr:`pending`).

        ``ValueError`` if the table's events do not continue the game shown.
        """
        known = list(self.events)
        for update in self.pending:
            known.extend(update.events)
        events = table.events
        if list(events[: len(known)]) != known:
            raise ValueError("the table's events do not continue the game shown")
        self.table = table
        self.seats = table.seats
        return _update(table, tuple(events[len(known) :]))

    def set_connection(self, problem: str | None) -> bool:
        """The table cannot be reached (no move meanwhile), or can again: True if that
        ended this terminal's turn."""
        self.connection = problem
        if problem is not None and self.turn_seat is not None:
            self.turn_seat = None
            return True
        return False

    # --- what comes next --------------------------------------------------------------

    def next_step(self, *, paused: Callable[[], bool], covered: Callable[[], bool]) -> Step:
        """What comes next; ``paused()`` says whether the game waits (too small a
        terminal), ``covered()`` whether a dialog is on top of it."""
        if self.ended:
            return Step("none")
        if paused():
            return Step("pause")
        if self.showing:
            return Step("none")  # the tours being shown go on when they are done
        if self.pending:
            return Step("show")
        if covered():
            return Step("later")
        public = self.public
        if public.is_over:
            return Step("end")
        seat = public.to_move
        assert seat is not None
        local = self.table.local_seats
        self.waiting_for = None
        if seat not in local:
            self.viewer = local[0] if len(local) == 1 else None
            if isinstance(self.table, LocalBots):
                return Step("ai", seat)
            self.turn_seat = None  # another terminal's turn (or the host's AI's)
            self.waiting_for = seat
            return Step("other", seat)
        if self.connection is not None:
            self.viewer = seat
            return Step("offline", seat)  # no turn while the table cannot be reached
        if self.hot_seat and self.last_human != seat:
            self.viewer = None
            self.turn_seat = None
            return Step("handoff", seat)
        return Step("turn", seat)

    def begin_turn(self, seat: int) -> None:
        """``seat`` chooses a tile on this terminal."""
        self.viewer = seat
        self.turn_seat = seat
        self.last_human = seat

    def submit(self, move: Move, seat: int) -> None:
        """Send ``seat``'s move to the table (whose referee checks it); its answer comes
        to the table's listener: from a local table before this returns."""
        self.sent = True
        self.table.submit(seat, move, self.move_count)

    def awaiting_answer(self) -> bool:
        """A move was sent and no answer came yet (a host has it): True once, as the turn
        ends here."""
        if self.sent:
            self.turn_seat = None
            return True
        return False

    def show_next(self) -> tuple[SeatView, list[Event]]:
        """The next update that came is shown from now: the view before it, its events."""
        update = self.pending.popleft()
        before = self.public
        self.public = update.public
        self.views = update.views
        self.events.extend(update.events)
        self.showing = True
        self.turn_seat = None
        self.waiting_for = None
        self.ai_choice = None
        self.thinking = None
        if self.hot_seat:
            self.viewer = None
        return before, list(update.events)

    def shown(self) -> None:
        """The update's tours are shown: what comes next may come."""
        self.showing = False

    # --- the AI's turns -------------------------------------------------------------

    def ai_thinks(self, seat: int) -> None:
        self.thinking = seat
        self.turn_seat = None

    def ai_name(self, seat: int) -> str:
        """The name of the work on ``seat``'s move in this position (stale once it moves)."""
        return f"ai-{seat}-{self.move_count}"

    def ai_chose(self, move: Move, name: str) -> int | None:
        """The AI's choice came from the work ``name``: the index of its tile to show, or
        None for a stale answer (the position moved on)."""
        if name != f"ai-{self.thinking}-{self.move_count}":
            return None
        view = self.public
        if move.tile not in view.face_up:
            return None
        self.ai_choice = move
        return view.face_up.index(move.tile)

    def ai_due(self, count: int) -> bool:
        """The AI's choice, made at move ``count``, is still to be played."""
        return self.move_count == count and not self.ended and not self.pending

    # --- the end -----------------------------------------------------------------------

    def end(self) -> None:
        self.ended = True
        self.viewer = None

    def finished_record(self) -> Record | None:
        """The finished game as a record, from what every seat knows at the end (the
        routes are revealed, past stacks are public): what the review screen reads."""
        public = self.public
        if not public.is_over:
            return None
        game = Determinizer(public).base
        kinds = [info.kind for info in self.table.seats]
        if len(kinds) != public.players:
            kinds = ["human"] * public.players
        players = tuple(Player(name, kind) for name, kind in zip(public.names, kinds, strict=True))
        return Record.from_game(game, players)

    def remembered(self) -> Remembered | None:
        """The finished game for the player's history; None for a watcher (not theirs)."""
        local = tuple(self.table.local_seats)
        if not local:
            return None
        kinds = [info.kind for info in self.table.seats]
        mode: GameMode = (
            "network"
            if self.networked
            else "ai"
            if any(k != "human" for k in kinds)
            else "hot-seat"
        )
        return Remembered(self.public, list(self.events), kinds, mode, local)
