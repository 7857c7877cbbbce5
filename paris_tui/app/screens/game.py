"""The main game screen: map, tiles, players, route, discard area, preview, log.

The screen shows one :class:`~paris_tui.net.table.Table`: a game on this
terminal (:class:`~paris_tui.app.local.session.SessionTable`: hot-seat, or against
AI) or a seat or a watcher at a host's table
(:class:`~paris_tui.net.table.RemoteTable`). It sends moves with
:meth:`Table.submit` and learns what happened as the table's listener: each
update (a move's events and the views after it) is kept as it came and shown
in order, its tours animated before the next one is shown, so no later state
shows under an earlier animation.

The screen drives the turns: a hand-off before each human turn in a
hot-seat game, the AI's moves in a thread worker (only a local table has
local AIs: a host plays its own), the tour animations after a round; on a
remote table, the other players' turns are waited for. While the terminal
is too small (the app's "please enlarge" notice) the screen is paused: AI
moves and animations wait and go on where they were. Everything it draws
comes from a :class:`SeatView`: the seat whose turn it is (after the
hand-off), a networked player's own seat, or the public view ``view(None)``,
so no screen shows a seat's route to anyone else (R8).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import ClassVar, Protocol, cast, runtime_checkable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker, WorkerState, get_current_worker

from paris_tui.app.local.history import GameMode, History, HistoryError
from paris_tui.app.local.session import Bot, points_by_kind
from paris_tui.app.look.describe import (
    describe_events,
    preview_text,
    printable,
    seat_label,
    stop_name,
    words,
)
from paris_tui.app.look.frames import Frame, build_frames
from paris_tui.app.online.chat import (
    CHAT_CODES,
    PHRASE_KEYS,
    ChatPane,
    ChatPrompt,
    Mutes,
    chat_entry,
    chat_table,
    say_chosen,
    speaking_as,
)
from paris_tui.app.online.turns_view import clock_text, new_time_out, real_time, table_clock
from paris_tui.app.terminal.fit import Fit
from paris_tui.app.terminal.keygate import REPEAT_DELAY, KeyStamp, TurnGate

from ...ai.hint import Hint, HintCancelled, hint
from ...core import (
    BusinessRemoved,
    Event,
    GameOver,
    Move,
    ScoreEvent,
    SeatView,
    TourEvent,
)
from ...core.analysis import LeftoverPreview, leftover_previews
from ...core.record import Player, Record
from ...core.sampling import Determinizer
from ...i18n import N_, _, ngettext
from ...net.protocol import CHAT_PHRASES, ChatLine, ErrorCode, SeatInfo
from ...net.table import Table
from ...trace import PROFILE_AFTER, mark, profiling, stop_profile
from ..widgets.footer import KeysFooter
from ..widgets.hint import HintPanel
from ..widgets.map_view import BoardMap, MapOverlay
from ..widgets.panels import (
    DiscardPanel,
    GameLog,
    PlayersPanel,
    PreviewBar,
    RoutePanel,
    ScoreTrack,
    TilePanel,
    TileRow,
)
from ..widgets.table import compose_table
from .base import ParisScreen
from .end import EndScreen
from .handoff import HandoffScreen
from .takeover import TakeoverDialog

__all__ = ["GameScreen", "LocalBots", "reveal_chunks"]


@runtime_checkable
class LocalBots(Protocol):
    """A table whose AI seats are played in this process (a local table)."""

    def local_bot(self, seat: int) -> Bot | None: ...


@dataclass(frozen=True, slots=True)
class _Update:
    """One move as the table told it: its events and the views just after it."""

    events: tuple[Event, ...]
    public: SeatView
    views: dict[int, SeatView]


def _stop_of(tile: str) -> str:
    return tile.split("/", 1)[0]


def _in_style(template: str, label: Text) -> Text:
    """``template`` with ``{player}`` as ``label``, all of it in the player's colour."""
    text = words(template, player=label)
    text.style = label.style
    return text


def reveal_chunks(events: list[Event]) -> list[list[Event]]:
    """A move's events cut where the log may pause: before each tour, the sack, the end.

    A tour's chunk holds its points; what follows a tour (the left-over tile,
    the next round) starts a chunk of its own, shown once that tour is.
    """
    chunks: list[list[Event]] = [[]]
    after_tour = False
    for event in events:
        starts = isinstance(event, TourEvent | GameOver) or (
            isinstance(event, ScoreEvent) and event.kind == "sack"
        )
        if starts or (after_tour and not isinstance(event, ScoreEvent)):
            chunks.append([])
            after_tour = starts and not isinstance(event, GameOver)
        chunks[-1].append(event)
    return [chunk for chunk in chunks if chunk]


def _is_tour(chunk: list[Event]) -> bool:
    """A tour's chunk: its heading, then only its score events (one log line each)."""
    return (
        bool(chunk)
        and isinstance(chunk[0], TourEvent)
        and all(isinstance(e, ScoreEvent) for e in chunk[1:])
    )


def _reached(chunk: list[Event], frame: Frame) -> int:
    """How many of ``chunk``'s events ``frame`` shows: a grand or special tour's heading and
    the points of the crossings the bus has reached (R6 scores crossing by crossing, in the
    line's order); everything for any other frame."""
    head = chunk[0] if chunk else None
    if frame.bus_at is None or not isinstance(head, TourEvent) or not _is_tour(chunk):
        return len(chunk)
    if frame.bus_at not in head.stops:
        return len(chunk)
    reached = set(head.stops[: head.stops.index(frame.bus_at) + 1])
    return 1 + sum(1 for e in chunk[1:] if isinstance(e, ScoreEvent) and e.stop in reached)


class GameScreen(ParisScreen):
    """One game, from the first move (or a resumed position) to the end screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "step(-1)", N_("Tile"), show=False, priority=True),
        Binding("right,down", "step(1)", N_("Tile"), key_display="←→", priority=True),
        Binding("1", "pick(0)", show=False, priority=True),
        Binding("2", "pick(1)", show=False, priority=True),
        Binding("3", "pick(2)", show=False, priority=True),
        Binding("4", "pick(3)", show=False, priority=True),
        Binding("5", "pick(4)", show=False, priority=True),
        Binding("enter", "take", N_("Take"), priority=True),
        Binding("space", "skip", N_("Skip tour"), priority=True),
        Binding("p", "toggle_preview", N_("Preview")),
        Binding("r", "toggle_route", N_("Route")),
        Binding("h", "hint", N_("Hint")),
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
        Binding("t", "app.toggle_theme", N_("Theme"), show=False),
        Binding("q", "app.quit", N_("Quit")),
        Binding("pageup", "scroll_log(-1)", N_("Log"), key_display="PgUp/Dn", priority=True),
        Binding("pagedown", "scroll_log(1)", N_("Log"), show=False, priority=True),
        # Table chat (issue 22, app/chat.py): at a host's table that speaks it.
        Binding("c", "chat", N_("Chat")),
        *(Binding(key, f"phrase({i})", show=False) for i, key in enumerate(PHRASE_KEYS)),
    ]

    def __init__(
        self,
        table: Table,
        *,
        anim: float = 0.6,
        ai_delay: float = 0.8,
        ready_seat: int | None = None,
    ) -> None:
        super().__init__()
        self.table = table
        # A table that plays its AI seats here is this terminal's own game; any other
        # is a host's, where this terminal is one seat (or watches).
        self.networked = not isinstance(table, LocalBots)
        self.anim = anim
        self.ai_delay = ai_delay
        self.viewer: int | None = None
        self.turn_seat: int | None = None
        # The seat that already passed its hand-off (the app shows the first one).
        self.last_human: int | None = ready_seat
        self.highlight = 0
        self.route_hidden = False
        self.ai_choice: Move | None = None
        self.thinking: int | None = None
        self.frames: list[Frame] = []
        self.frame: Frame | None = None
        self.frame_timer: Timer | None = None
        self.after_frames: Callable[[], None] | None = None
        # What is shown: the views and events of the updates shown so far (snapshots).
        self._public: SeatView = table.view(None)
        self._views: dict[int, SeatView] = {s: table.view(s) for s in table.local_seats}
        self._events: list[Event] = list(table.events)
        self.seats: tuple[SeatInfo, ...] = table.seats
        self._pending: deque[_Update] = deque()  # updates that came, not shown yet
        self._showing = False  # an update's tours are being shown
        self._sent = False  # a move was submitted and its answer has not come
        self.waiting_for: int | None = None  # another terminal's seat whose move is awaited
        self.connection: str | None = None  # why the table cannot be reached, while so
        self.view: SeatView = self._public
        self._previews: tuple[int, dict[str, LeftoverPreview]] | None = None
        self.ended = False
        self._keys_state: tuple[bool, bool, bool] | None = None
        self._status_shape: bool | None = None  # whether the status line says something
        self._resumed_at: int | None = None  # the log's first line: "Resumed after n moves."
        # A move's events in the order they are shown: the log and the scores
        # follow the tours' animation (the game end's result comes last).
        self.shown_scores: tuple[int, ...] | None = None
        self._staged: list[list[Event]] = []
        self._shown_chunks = 0
        self._shown_events = 0  # of the chunk after those: a tour's stops the bus has reached
        # id(frame) -> (k, m): with that frame, the chunks before the k-th and m events of it
        self._reveal_with: dict[int, tuple[int, int]] = {}
        # A turn drops keys stamped before it began, and a held or hasty Enter (keygate.py).
        self.key_gate = TurnGate(on_drop=self._take_dropped)
        self.take_waits: Timer | None = None  # while set, the status says why Enter waits
        self.ai_timer: Timer | None = None
        self._clock_timer: Timer | None = None  # a networked game's second tick
        # What waits while the game is paused (too small a terminal), run on resume.
        self._waiting: dict[str, Callable[[], None]] = {}
        self._time_outs: set[int] = set()  # the moves whose time-out the log told
        table.add_listener(self)

    # --- the table -------------------------------------------------------------------

    @property
    def move_count(self) -> int:
        """The moves of the position shown (the table may be ahead while tours show)."""
        return len(self._public.moves)

    @property
    def hot_seat(self) -> bool:
        """Two or more humans share this keyboard: hand-offs, no secrets between turns."""
        return len(self.table.local_seats) > 1

    def seat_view(self, seat: int | None) -> SeatView:
        """The shown view of a local ``seat`` (``None``: the public view)."""
        if seat is None:
            return self._public
        view = self._views.get(seat)
        if view is None:  # a local AI seat: its view is asked of the table when it moves
            view = self.table.view(seat)
        return view

    def table_changed(self, table: Table, events: tuple[Event, ...]) -> None:
        views = {s: table.view(s) for s in table.local_seats}
        self._pending.append(_Update(tuple(events), table.view(None), views))
        self._sent = False
        if self.is_mounted and not self._showing and not self.ended:
            self._show_next()

    def table_refused(self, table: Table, code: ErrorCode, message: str) -> None:
        if code in CHAT_CODES:
            self.notify(printable(message), title=_("Not said"), severity="warning", markup=False)
            return
        self._sent = False
        self.notify(printable(message), title=_("Move refused"), severity="warning", markup=False)
        if self.turn_seat is None and self.thinking is None and not self._showing:
            self.advance()  # the game goes on: it may still be this seat's turn

    def table_presence(self, table: Table) -> None:
        self.seats = table.seats
        self._tick_while_timed()  # a clock comes with the seats' presence
        rated = getattr(table, "rated", None)  # a host's table: how the game was rated
        if rated is not None:
            for screen in self.app.screen_stack:
                if isinstance(screen, EndScreen):
                    screen.set_rated(rated)
        if self.is_mounted and self.query(GameLog):
            line = new_time_out(table, self._time_outs, self._public.names)
            if line is not None:  # the AI moved for a player out of time: said in the log
                self.query_one(GameLog).write_entry(line)
        if self.is_mounted and self.query(PlayersPanel):
            self._show_presence()

    def _show_presence(self) -> None:
        """Who is here, away or played for shows in the players' panel and the status
        line only: those two again (each player joining a host's table changes every
        other's; the whole screen again was a tenth of a second of CPU in a burst of
        logins)."""
        self.query_one(PlayersPanel).show(
            self.view, scores=self.shown_scores, presence=self._presence(), clock=self._clock()
        )
        self._show_status()

    def _clock(self) -> Text | None:
        """A timed table's clock for the players panel (issue 22, app/turns_view.py)."""
        clock, since = table_clock(self.table)
        return None if self.ended else clock_text(clock, self._public.names, since)

    def _tick_while_timed(self) -> None:
        """The clock's second tick runs only while a real-time clock runs: an idle
        player's app wakes for nothing else (64 idle SSH players on one host)."""
        timer = self._clock_timer
        if timer is None:
            return
        if real_time(self.table) and not self.ended:
            timer.resume()
        else:
            timer.pause()

    def _tick_clock(self) -> None:
        if real_time(self.table) and not self.ended and self.query(PlayersPanel):
            self.query_one(PlayersPanel).show(
                self.view, scores=self.shown_scores, presence=self._presence(), clock=self._clock()
            )

    def table_closed(self, table: Table, reason: str) -> None:
        self._sent = False

    def rebind(self, table: Table) -> None:
        """Go on with ``table``, the same game on a new connection (after a drop).

        What happened meanwhile comes as one more update, shown like any other.
        """
        known = list(self._events)
        for update in self._pending:
            known.extend(update.events)
        events = table.events
        if list(events[: len(known)]) != known:
            raise ValueError("the table's events do not continue the game shown")
        self.table = table
        self.seats = table.seats
        table.add_listener(self)
        self._follow_chat()
        self._tick_while_timed()
        views = {s: table.view(s) for s in table.local_seats}
        self._pending.append(_Update(tuple(events[len(known) :]), table.view(None), views))
        if self.is_mounted and not self._showing and not self.ended:
            self._show_next()

    def set_connection(self, problem: str | None) -> None:
        """Say the table cannot be reached (keys make no move meanwhile), or that it can."""
        self.connection = problem
        if problem is not None and self.turn_seat is not None:
            self.turn_seat = None
            self.key_gate.end()
        if self.is_mounted and self.query(PlayersPanel):
            self.refresh_all()

    # --- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from compose_table(Static("", id="status"))
        yield PreviewBar("", id="preview")
        yield ScoreTrack("", id="track")
        log = GameLog(id="log", wrap=True, markup=False, min_width=20)
        log.can_focus = False  # PgUp/PgDn scroll it from anywhere (see BINDINGS)
        if chat_table(self.table) is None:
            yield log
        else:
            with Horizontal(id="bottom"):
                yield log
                yield ChatPane(id="chat")
        yield HintPanel(id="hint")
        yield KeysFooter()

    def on_resize(self, event: events.Resize) -> None:
        # (Textual calls ParisScreen.on_resize too: each class's handler in the MRO.)
        self._fit_footer(event.size.width)

    def on_mount(self) -> None:
        if not self.query(GameLog):
            return  # mounted while the app shuts down: nothing to show
        self._fit_footer(self.app.size.width)
        if self.networked:  # a real-time move clock's bar, ticking only while it runs
            self._clock_timer = self.set_interval(1.0, self._tick_clock, pause=True)
            self._tick_while_timed()
        self._resumed_at = self.move_count if self._events else None
        self._write_log()
        self._follow_chat()
        self.refresh_all()
        self.advance()  # at once: a hand-off then shows before the game screen is laid out
        mark("game composed")
        self.call_after_refresh(self._first_frame_drawn)

    def _first_frame_drawn(self) -> None:
        """The game screen's first frame is drawn (a login's timeline, paris_tui/trace.py);
        a profile of a forked app (``PARIS_TUI_PROFILE``) ends a little later: what the
        frame's writing and the frames just after it cost too."""
        mark("game first frame")
        if profiling():
            self.set_timer(PROFILE_AFTER, stop_profile)

    def _write_log(self) -> None:
        """The log from the start: every event shown so far (not those a tour still holds)."""
        log = self.query_one(GameLog)
        log.clear()
        if self._resumed_at is not None:
            n = self._resumed_at
            resumed = ngettext("Resumed after {n} move.", "Resumed after {n} moves.", n)
            log.write_entry(Text(resumed.format(n=n), style="dim"))
        held = sum(len(chunk) for chunk in self._staged[self._shown_chunks :])
        log.add_events(self._public, self._events[: len(self._events) - held])
        if self._shown_events and self._shown_chunks < len(self._staged):
            chunk = self._staged[self._shown_chunks]
            for line in self._chunk_lines(chunk, 0, self._shown_events):
                log.write_entry(line)

    def language_changed(self) -> None:
        """Show everything again in the current language; the game and the turn go on as they
        were (position, highlight, hidden route, the log's events, a tour being shown)."""
        if not self.query(GameLog):
            return
        self._write_log()
        for pane in self.query(ChatPane):
            pane.redraw()
        self.refresh_all()
        panel = self.query_one(HintPanel)
        if panel.result is not None and self.turn_seat is not None:
            view = self.seat_view(self.turn_seat)
            panel.show_hint(view.board, view.names, panel.result)
        elif panel.shown:
            panel.show_thinking()

    # --- what is shown -------------------------------------------------------------

    @property
    def show_preview(self) -> bool:
        return bool(getattr(self.app, "show_preview", True))

    @property
    def active_tile(self) -> int | None:
        """The highlighted tile's index while a tile is being chosen (human or AI)."""
        if self.turn_seat is None and self.ai_choice is None:
            return None
        if not self.view.face_up:
            return None
        return min(self.highlight, len(self.view.face_up) - 1)

    def previews(self) -> dict[str, LeftoverPreview]:
        public = self._public
        if self._previews is None or self._previews[0] != self.move_count:
            self._previews = (self.move_count, leftover_previews(public))
        return self._previews[1]

    def _presence(self) -> tuple[str, ...] | None:
        """Each seat's presence, for a host's table (a local one has everyone here)."""
        if not self.networked:
            return None
        return tuple(info.status for info in self.seats)

    def refresh_all(self) -> None:
        self.view = self.seat_view(self.viewer)
        view = self.view
        self.query_one(PlayersPanel).show(
            view, scores=self.shown_scores, presence=self._presence(), clock=self._clock()
        )
        self.query_one(RoutePanel).show(
            view,
            reveal=self.viewer is not None and not self.route_hidden,
            hidden_hint=self.viewer is not None and self.route_hidden,
        )
        self.query_one(TilePanel).show(view, self.active_tile, active=self.active_tile is not None)
        self.query_one(DiscardPanel).show(view)
        self.query_one(ScoreTrack).show(view, scores=self.shown_scores)
        self._show_status()
        self._show_map()
        self._show_preview()
        self._refresh_keys()

    def _refresh_keys(self) -> None:
        """Refresh the footer only when the keys on offer change (it is rebuilt each time)."""
        state = (self.turn_seat is not None, self.frame is not None, self.viewer is not None)
        if state != self._keys_state:
            self._keys_state = state
            self.refresh_bindings()

    def _take_dropped(self, key: KeyStamp, previous: KeyStamp | None) -> None:
        """The turn gate dropped an Enter (too soon after the last one, or held): say so for
        as long as the wait lasts, so a second press never vanishes without a word."""
        if self.turn_seat is None:
            return
        if self.take_waits is not None:
            self.take_waits.stop()
        self.take_waits = self.set_timer(REPEAT_DELAY, self._take_ready)
        self._show_status()

    def _take_ready(self) -> None:
        self.take_waits = None
        self._show_status()

    def _show_status(self) -> None:
        """One line: whose turn, or what is happening (shorter wordings where it is narrow)."""
        view = self.view
        if self.take_waits is not None and self.turn_seat is not None and self.frame is None:
            said = [
                _("Enter seen: wait a moment, then press it again (a held key takes no tile)"),
                _("Enter seen: press it again in a moment"),
                # Translators: the status at 80 columns (about 24 cells): a second Enter came
                # too soon after the first to be told from a held key; press it once more.
                _("Enter seen: press again"),
                _("Press Enter again"),
            ]
            status = Fit([Text(w, style="bold") for w in said])
            self._set_status(status)
            return
        if self.frame is not None:
            status = Fit([Text(_("Tour… (Space skips)")), Text(_("Tour…"))])
        elif self.connection is not None and not view.is_over:
            short = self.connection.split(":", 1)[0]  # "Connection lost"
            status = Fit([Text(self.connection, style="bold"), Text(short, style="bold")])
        elif view.is_over:
            status = Fit([Text(_("Game over"), style="bold")])
        elif self.thinking is not None or self.ai_choice is not None:
            seat = view.to_move
            assert seat is not None
            label = seat_label(view.names, seat)
            if self.ai_choice is None:
                said = [_("{player} is thinking…"), _("{player} thinks…")]
            else:
                said = [_("{player} chooses:")]
            status = Fit([_in_style(w, label) for w in said] + [label])
        elif self.turn_seat is not None and self.networked:
            status = Fit([Text(_("Your turn: choose a tile")), Text(_("Your turn"))])
        elif self.turn_seat is not None:
            label = seat_label(view.names, self.turn_seat)
            said = [_("{player}: choose a tile"), _("{player}: your turn")]
            status = Fit([_in_style(w, label) for w in said] + [label])
        elif self._sent:
            status = Fit([Text(_("Your move is on its way…")), Text(_("Sending…"))])
        elif self.networked and view.to_move is not None:
            status = self._waiting_status(view.to_move)
        else:
            seat = view.to_move
            next_up = _("{player} is next")
            status = Fit([] if seat is None else [_in_style(next_up, seat_label(view.names, seat))])
        self._set_status(status)

    def _set_status(self, status: Fit) -> None:
        """The status line shows ``status``: one line whatever it says (Fit picks a wording
        that fits, or cuts the last; none has two lines), so the screen is laid out again
        only when it goes from nothing to something or back."""
        shape = any(v.plain for v in status.variants)
        self.query_one("#status", Static).update(status, layout=shape != self._status_shape)
        self._status_shape = shape

    def _waiting_status(self, seat: int) -> Fit:
        """Whose turn it is at a host's table, and that this terminal waits for them."""
        label = seat_label(self.view.names, seat)
        status = self.seats[seat].status if seat < len(self.seats) else "present"
        if status in ("ai", "takeover"):
            said = [_("{player} is thinking…"), _("{player} thinks…")]
            if status == "takeover":
                said.insert(0, _("{player} is away: an AI plays for them…"))
        elif status == "away":
            said = [_("{player} is away: waiting for them…"), _("{player} is away…")]
        else:
            said = [_("{player}'s turn: waiting…"), _("{player} to move…")]
        variants = [words(w, player=label) for w in said]
        if not self.table.local_seats:
            variants = [words(_("Watching: {status}"), status=v) for v in variants]
        variants.append(_in_style(said[-1], label))
        return Fit([*variants, label])

    def _overlay(self) -> MapOverlay:
        frame = self.frame
        if frame is not None:
            return MapOverlay(
                tour_line=frame.tour_line,
                bus_at=frame.bus_at,
                scoring=frame.scoring,
                small_tour_origin=frame.small_tour_origin,
            )
        face = tuple(dict.fromkeys(_stop_of(t) for t in self.view.face_up))
        active = self.active_tile
        selected = _stop_of(self.view.face_up[active]) if active is not None else None
        return MapOverlay(face_up=face, selected=selected)

    def _show_map(self) -> None:
        self.query_one(BoardMap).update_map(self.view, self._overlay())

    def _show_preview(self) -> None:
        bar = self.query_one(PreviewBar)
        if self.frame is not None:
            bar.update(self.frame.caption)
            return
        active = self.active_tile
        if active is None:
            bar.update("")
            return
        if not self.show_preview:
            bar.update(Text(_("Left-over preview off (p shows it)"), style="dim"))
            return
        tile = self.view.face_up[active]
        preview = self.previews().get(tile)
        if preview is None:
            bar.update("")
            return
        bar.update(preview_text(self.view.board, self.view.names, preview))

    # --- keys -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # False hides a key from the footer while it does nothing (80 columns are few).
        if action in ("step", "pick", "take"):
            return self.turn_seat is not None
        if action == "skip":
            return self.frame is not None
        if action == "toggle_route":
            return self.viewer is not None
        if action == "toggle_preview":  # a watcher never moves: no preview to show
            return bool(self.table.local_seats) or isinstance(self.table, LocalBots)
        if action == "hint":
            return self.turn_seat is not None and self.hints_allowed
        if action in ("chat", "phrase"):
            return chat_table(self.table) is not None and bool(self.query(ChatPane))
        return True

    # --- table chat (c, F2-F7; app/chat.py) ----------------------------------------------

    def _follow_chat(self) -> None:
        """The chat pane hears the table's lines: those heard so far, then each as it comes."""
        table = chat_table(self.table)
        panes = self.query(ChatPane)
        if table is None or not panes:
            return
        panes.first().follow(table, self._public.names)
        if self._chat_elsewhere not in table.chat_listeners:
            table.chat_listeners.append(self._chat_elsewhere)

    def _chat_elsewhere(self, line: ChatLine) -> None:
        """A line heard while another screen is on top (help, say): a notice. The end
        screen and the chat prompt show it themselves."""
        top = self.app.screen if self.is_attached else self
        if top is self or isinstance(top, ChatPrompt):
            return
        if isinstance(top, EndScreen) and top.chat is not None:
            return
        pane = self.query(ChatPane)
        if pane and line.name in pane.first().muted:
            return
        self.notify(chat_entry(line, self._public.names).plain, title=_("Chat"), markup=False)

    def _chat_muted(self) -> Mutes | None:
        """The names hidden on this terminal (/mute), shared with the end screen."""
        panes = self.query(ChatPane)
        return panes.first().muted if panes else None

    def action_chat(self) -> None:
        table = chat_table(self.table)
        if table is not None:
            prompt = ChatPrompt(speaking_as(table, over=self._public.is_over))
            self.app.push_screen(prompt, self._chat_chosen)

    def action_phrase(self, index: int) -> None:
        self._chat_chosen(("phrase", CHAT_PHRASES[index]))

    def _chat_chosen(self, said: tuple[str, str] | None) -> None:
        say_chosen(chat_table(self.table), self.query(ChatPane), said)

    # --- the hint (h) -----------------------------------------------------------------

    @property
    def hints_allowed(self) -> bool:
        """Always in a game on this terminal; at a host's table only if the host allows it."""
        return not self.networked or bool(getattr(self.table, "hints_allowed", False))

    def action_hint(self) -> None:
        """Show (or hide) the hint for the seat to move, worked out in a thread.

        The turn never waits for it; a move made meanwhile drops it (its
        result is for a position that is gone).
        """
        seat = self.turn_seat
        panel = self.query_one(HintPanel)
        if panel.shown:
            self.hide_hint()
            return
        if seat is None or not self.hints_allowed:
            return
        view = self.seat_view(seat)
        if not view.my_turn:
            return
        panel.show_thinking()
        self.run_worker(
            partial(self._work_out_hint, view),
            thread=True,
            exclusive=True,
            group="hint",
            name=f"hint-{seat}-{self.move_count}",
            exit_on_error=False,  # a hint that fails is no hint, never the game's end
        )

    @staticmethod
    def _work_out_hint(view: SeatView) -> Hint | None:
        """In the worker's thread: stops early (None) once the worker is cancelled (a move)."""
        worker = get_current_worker()
        try:
            return hint(view, cancelled=lambda: worker.is_cancelled)
        except HintCancelled:
            return None

    def hide_hint(self) -> None:
        """Hide the hint and drop one being worked out (a move, a hand-off)."""
        self.workers.cancel_group(self, "hint")
        if self.query(HintPanel):
            self.query_one(HintPanel).hide()

    def _hint_done(self, result: Hint, name: str) -> None:
        seat = self.turn_seat
        if seat is None or name != f"hint-{seat}-{self.move_count}":
            return  # for a position that is gone
        panel = self.query_one(HintPanel)
        if panel.shown:
            view = self.seat_view(seat)
            panel.show_hint(view.board, view.names, result)

    def action_scroll_log(self, pages: int) -> None:
        log = self.query_one(GameLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_step(self, delta: int) -> None:
        if self.turn_seat is None or not self.view.face_up:
            return
        self._set_highlight((self.highlight + delta) % len(self.view.face_up))

    def action_pick(self, index: int) -> None:
        if self.turn_seat is None or index >= len(self.view.face_up):
            return
        self._set_highlight(index)

    def _set_highlight(self, index: int) -> None:
        old = self.active_tile
        self.highlight = index
        self.query_one(TilePanel).update_highlight(self.view, old, self.active_tile)
        self._show_map()
        self._show_preview()

    def action_toggle_preview(self) -> None:
        toggle = getattr(self.app, "action_toggle_preview", None)
        if toggle is not None:
            toggle()

    def preview_changed(self) -> None:
        self._show_preview()

    def action_toggle_route(self) -> None:
        if self.viewer is None:
            return
        self.route_hidden = not self.route_hidden
        self.refresh_all()

    def action_skip(self) -> None:
        if self.frame is None:
            return
        if self.frame_timer is not None:
            self.frame_timer.stop()
            self.frame_timer = None
        self.frames.clear()
        self._next_frame()

    def on_tile_row_clicked(self, message: TileRow.Clicked) -> None:
        if self.turn_seat is None:
            return
        if message.index == self.active_tile:
            self.action_take()
        else:
            self.action_pick(message.index)

    def on_board_map_stop_clicked(self, message: BoardMap.StopClicked) -> None:
        if self.turn_seat is None:
            return
        clicked = cast(str, message.stop)  # the stop's id (Message.stop is also a method)
        stops = [_stop_of(t) for t in self.view.face_up]
        if clicked not in stops:
            return
        index = stops.index(clicked)
        if index == self.active_tile:
            self.action_take()
        else:
            self.action_pick(index)

    # --- pause (the terminal is too small) --------------------------------------------

    @property
    def paused(self) -> bool:
        return bool(getattr(self.app, "too_small", False))

    def _wait(self, name: str, then: Callable[[], None]) -> None:
        """Run ``then`` once the game is no longer paused (one of each name)."""
        self._waiting[name] = then

    def set_paused(self, paused: bool) -> None:
        """Called by the app: stop the clocks (timers) while paused, restart them after."""
        if paused:
            if self.frame_timer is not None:  # the frame shows again in full afterwards
                self.frame_timer.stop()
                self.frame_timer = None
                self._wait("frame", self._restart_frame)
            if self.ai_timer is not None:
                self.ai_timer.stop()
                self.ai_timer = None
                self._wait("ai", self._restart_ai)
            return
        waiting, self._waiting = self._waiting, {}
        for then in waiting.values():
            then()

    def _restart_frame(self) -> None:
        if self.frame is not None and self.frame_timer is None:
            self.frame_timer = self.set_timer(self.frame.weight * self.anim, self._next_frame)

    def _restart_ai(self) -> None:
        move = self.ai_choice
        if move is not None:
            self._schedule_ai(move, self.move_count)

    # --- turns ----------------------------------------------------------------------

    def advance(self) -> None:
        """Start whatever comes next: a hand-off, a human turn, an AI turn, or the end."""
        if self.ended:
            return
        if self.paused:
            self._wait("advance", self.advance)
            return
        if self._showing:
            return  # the tours being shown go on here when they are done
        if self._pending:
            self._show_next()
            return
        if self.app.screen is not self:
            # A dialog (or help) is still on top: go on once this screen is back.
            self.set_timer(0.05, self.advance)
            return
        public = self._public
        if public.is_over:
            self.show_end()
            return
        seat = public.to_move
        assert seat is not None
        local = self.table.local_seats
        self.waiting_for = None
        if seat not in local:
            self.viewer = local[0] if len(local) == 1 else None
            bots = self.table if isinstance(self.table, LocalBots) else None
            if bots is not None:
                self.start_ai(seat, bots)
                return
            self.turn_seat = None  # another terminal's turn (or the host's AI's)
            self.waiting_for = seat
            self.refresh_all()
            return
        if self.connection is not None:
            self.viewer = seat
            self.refresh_all()  # no turn while the table cannot be reached
            return
        if self.hot_seat and self.last_human != seat:
            self.viewer = None
            self.turn_seat = None
            self.refresh_all()
            self.app.push_screen(
                HandoffScreen(
                    public.names,
                    seat,
                    min(public.round + 1, public.rounds_total),
                    public.rounds_total,
                    public.scores,
                ),
                callback=lambda _: self.begin_turn(seat),
            )
            return
        self.begin_turn(seat)

    def begin_turn(self, seat: int) -> None:
        self.hide_hint()
        self.viewer = seat
        self.turn_seat = seat
        self.last_human = seat
        self.route_hidden = False
        self.highlight = 0
        self.key_gate.begin()
        self.refresh_all()

    def action_take(self) -> None:
        seat = self.turn_seat
        active = self.active_tile
        if seat is None or active is None:
            return
        view = self.seat_view(seat)
        tile = view.face_up[active]
        moves = [m for m in view.legal_moves if m.tile == tile]
        if not moves:
            return
        if len(moves) == 1:
            self.commit(moves[0], seat)
            return
        destination = self._destinations(view, moves)
        dialog = TakeoverDialog(
            stop_name(view.board, _stop_of(tile)),
            view.names,
            seat,
            moves,
            destination=destination,
            on_choose=self._takeover_chosen,
        )
        self.app.push_screen(dialog)

    def _takeover_chosen(self, move: Move) -> None:
        """Called by the dialog before it closes, so no key can reach a stale turn."""
        if self.turn_seat is not None:
            self.commit(move, self.turn_seat)

    @staticmethod
    def _destinations(view: SeatView, moves: list[Move]) -> dict[int, str]:
        """Where each removed business would go, as the core says (R4): "sack" or "supply"."""
        base = Determinizer(view).base
        out: dict[int, str] = {}
        for move in moves:
            assert move.evict is not None
            probe = base.copy()
            for event in probe.play(move):
                if isinstance(event, BusinessRemoved):
                    out[move.evict] = event.to
        return out

    def commit(self, move: Move, seat: int) -> None:
        """Submit ``seat``'s move to the table (whose referee checks it).

        The answer comes to the listener methods: from a local table before
        this returns, from a host when it answers; meanwhile no key moves.
        """
        self._sent = True
        self.table.submit(seat, move, self.move_count)
        save_error = getattr(self.table, "save_error", None)
        if save_error:
            self.notify(
                printable(save_error), title=_("Autosave failed"), severity="error", markup=False
            )
        if self._sent:  # no answer yet: the host has it
            self.turn_seat = None
            self.key_gate.end()
            self.refresh_all()

    def _show_next(self) -> None:
        """Show the next update that came: log it, animate its tours, then go on."""
        update = self._pending.popleft()
        self.hide_hint()
        before = self._public
        self._public = update.public
        self._views = update.views
        self._events.extend(update.events)
        self._showing = True
        self.turn_seat = None
        self.waiting_for = None
        self.key_gate.end()
        self.ai_choice = None
        self.thinking = None
        if self.hot_seat:
            self.viewer = None
        frames = self._stage(before, list(update.events))
        self.refresh_all()
        self.play_frames(frames, self._tours_done)

    # --- showing a move's events in order ----------------------------------------------

    def _stage(self, before: SeatView, events: list[Event]) -> list[Frame]:
        """Log what happens before the first tour; keep the rest for the tours' frames.

        Each tour's heading is shown when its animation starts, and a grand or
        special tour's points stop by stop as the bus reaches each crossing
        (log lines and scores; the README's "as the tour is shown"); the game
        end's special tours, the sack and "Game over" come last, so the result
        is never given away before it is shown (the end screen follows).
        """
        chunks = reveal_chunks(events)
        self._staged = chunks
        self._shown_chunks = 0
        self._shown_events = 0
        self._reveal_with = {}
        self.shown_scores = before.scores
        frames: list[Frame] = []
        if self.anim > 0:
            for k, chunk in enumerate(chunks):
                for frame in build_frames(before.board, before.names, chunk):
                    self._reveal_with[id(frame)] = (k, _reached(chunk, frame))
                    frames.append(frame)
        first = (self._reveal_with[id(frames[0])][0], 0) if frames else (len(chunks), 0)
        self._reveal(*first)
        return frames

    def _chunk_lines(self, chunk: list[Event], start: int, end: int) -> list[Text]:
        """The log lines of ``chunk``'s events ``start:end``: a tour's heading and score lines
        are one line each (worded from the whole tour: "nobody scores" only when true);
        another chunk's lines come all at once, with its last event."""
        public = self._public
        lines = describe_events(public.board, public.names, chunk)
        if _is_tour(chunk) and len(lines) == len(chunk):
            return lines[start:end]
        return lines if end >= len(chunk) else []

    def _reveal(self, count: int, partial: int = 0) -> None:
        """Show the staged chunks before the ``count``-th, and the first ``partial`` events of
        the ``count``-th (a tour up to the bus's stop): log lines, then points."""
        log = self.query_one(GameLog)
        public = self._public
        scores = list(self.shown_scores or public.scores)
        while self._shown_chunks < min(count + 1, len(self._staged)):
            chunk = self._staged[self._shown_chunks]
            end = len(chunk) if self._shown_chunks < count else min(partial, len(chunk))
            if end > self._shown_events:
                for line in self._chunk_lines(chunk, self._shown_events, end):
                    log.write_entry(line)
                for event in chunk[self._shown_events : end]:
                    if isinstance(event, ScoreEvent):
                        scores[event.seat] += event.points
                self._shown_events = end
            if end < len(chunk):
                break
            self._shown_chunks += 1
            self._shown_events = 0
        done = self._shown_chunks >= len(self._staged)
        self.shown_scores = None if done else tuple(scores)
        self.query_one(PlayersPanel).show(
            self.view, scores=self.shown_scores, presence=self._presence(), clock=self._clock()
        )
        self.query_one(ScoreTrack).show(self.view, scores=self.shown_scores)

    def _tours_done(self) -> None:
        self._reveal(10**9)
        self._showing = False
        self.refresh_all()
        self.advance()

    # --- AI ----------------------------------------------------------------------------

    def start_ai(self, seat: int, bots: LocalBots) -> None:
        self.thinking = seat
        self.turn_seat = None
        self.refresh_all()
        try:
            bot = bots.local_bot(seat)
            if bot is None:
                raise ValueError(f"seat {seat} is not an AI")
        except (ImportError, ValueError) as exc:
            message = _("AI unavailable: {problem}").format(problem=exc)
            self.notify(printable(message), severity="error", markup=False)
            self.thinking = None
            return
        view = self.table.view(seat)
        self.run_worker(
            partial(self._think, bot, view),
            thread=True,
            exclusive=True,
            group="ai",
            name=f"ai-{seat}-{self.move_count}",
        )

    @staticmethod
    def _think(bot: Bot, view: SeatView) -> Move:
        return bot.choose(view)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group == "hint":
            if event.state == WorkerState.SUCCESS and isinstance(worker.result, Hint):
                self._hint_done(worker.result, worker.name)
            elif event.state == WorkerState.ERROR:
                self.hide_hint()
            return
        if worker.group != "ai":
            return
        if event.state == WorkerState.SUCCESS:
            move = worker.result
            assert isinstance(move, Move)
            self._ai_chose(move, worker.name)
        elif event.state == WorkerState.ERROR:
            seat = self.thinking
            self.notify(
                printable(
                    _("The AI failed ({problem}); it plays its first legal move").format(
                        problem=worker.error
                    )
                ),
                markup=False,
            )
            if seat is not None:
                self._ai_chose(self.table.view(seat).legal_moves[0], worker.name)

    def _ai_chose(self, move: Move, name: str) -> None:
        if name != f"ai-{self.thinking}-{self.move_count}":
            return  # a stale answer
        view = self._public
        if move.tile not in view.face_up:
            return
        self.ai_choice = move
        self.highlight = view.face_up.index(move.tile)
        self.refresh_all()
        self._schedule_ai(move, self.move_count)

    def _schedule_ai(self, move: Move, count: int) -> None:
        """Play the AI's choice after showing it for ``ai_delay`` (once not paused)."""
        if self.paused:
            self._wait("ai", self._restart_ai)
        elif self.ai_delay > 0:
            self.ai_timer = self.set_timer(self.ai_delay, partial(self._ai_play, move, count))
        else:
            self._ai_play(move, count)

    def _ai_play(self, move: Move, count: int) -> None:
        self.ai_timer = None
        if self.move_count != count or self.ended or self._pending:
            return
        if self.paused:
            self._wait("ai", self._restart_ai)
            return
        seat = self._public.to_move
        if seat is not None:
            self.commit(move, seat)

    # --- animation ----------------------------------------------------------------------

    def play_frames(self, frames: list[Frame], then: Callable[[], None]) -> None:
        self.frames = list(frames)
        self.after_frames = then
        self._next_frame()

    def _next_frame(self) -> None:
        self.frame_timer = None
        if self.paused and self.frame is not None:
            self._wait("frame", self._restart_frame)
            return
        if not self.frames:
            had_frame, self.frame = self.frame is not None, None
            then, self.after_frames = self.after_frames, None
            if had_frame:
                self.refresh_all()
            if then is not None:
                then()
            return
        self.frame = self.frames.pop(0)
        self._reveal(*self._reveal_with.get(id(self.frame), (0, 0)))
        self._show_status()
        self._show_map()
        self._show_preview()
        self._refresh_keys()
        self.frame_timer = self.set_timer(self.frame.weight * self.anim, self._next_frame)

    # --- the end -------------------------------------------------------------------------

    def show_end(self) -> None:
        self.ended = True
        self._tick_while_timed()
        self.viewer = None
        self.refresh_all()
        public = self._public
        self.app.push_screen(
            EndScreen(
                public,
                self._events,
                points_by_kind(public.players, self._events),
                step=self.anim,
                play_again=not self.networked,
                rated=getattr(self.table, "rated", None),
                chat=chat_table(self.table),
                muted=self._chat_muted(),
            )
        )
        self._remember()

    def finished_record(self) -> Record | None:
        """The finished game as a record, from what every seat knows at the end (the
        routes are revealed, past stacks are public): what the review screen reads."""
        public = self._public
        if not public.is_over:
            return None
        game = Determinizer(public).base
        kinds = [info.kind for info in self.table.seats]
        if len(kinds) != public.players:
            kinds = ["human"] * public.players
        players = tuple(Player(name, kind) for name, kind in zip(public.names, kinds, strict=True))
        return Record.from_game(game, players)

    def _remember(self) -> None:
        """Keep the finished game in the player's history (in a thread; never fatal)."""
        history: History | None = getattr(self.app, "history", None)
        local = tuple(self.table.local_seats)
        if history is None or not local:
            return  # a watcher's game is not theirs
        kinds = [info.kind for info in self.table.seats]
        mode: GameMode = (
            "network"
            if self.networked
            else "ai"
            if any(k != "human" for k in kinds)
            else "hot-seat"
        )
        public, events = self._public, list(self._events)

        async def remember() -> None:
            try:
                await asyncio.to_thread(
                    history.add, public, events, kinds, mode=mode, local_seats=local
                )
            except HistoryError as exc:
                self.notify(
                    str(exc), title=_("History not updated"), severity="warning", markup=False
                )

        self.run_worker(remember(), group="history", exit_on_error=False)
