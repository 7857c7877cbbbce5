"""The main game screen: map, tiles, players, route, discard area, preview, log.

The screen shows one :class:`~paris_tui.net.table.Table` through its turn flow
(:class:`~paris_tui.app.play.turns.TurnFlow`, which holds no widget): the flow
keeps each update the table tells and says what comes next; the screen draws
it, takes the keys, and runs what takes time: the hand-off's dialog, the AI's
moves in a thread worker (only a local table has local AIs: a host plays its
own), the tours' frames on a timer, each update's tours shown before the next
one is, so no later state shows under an earlier animation. While the
terminal is too small (the app's "please enlarge" notice) the screen is
paused: AI moves and animations wait and go on where they were.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar, cast, overload

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.worker import Worker

from paris_tui.app.look.describe import printable
from paris_tui.app.look.frames import Frame
from paris_tui.app.look.game_status import status_line
from paris_tui.app.online.chat import CHAT_CODES, PHRASE_KEYS, ChatPane, chat_table
from paris_tui.app.play.staging import reveal_chunks
from paris_tui.app.play.turns import LocalBots, TurnFlow, Update
from paris_tui.app.terminal.keygate import KeyStamp, TurnGate

from ...core import Event, Move, SeatView
from ...core.analysis import LeftoverPreview, leftover_previews
from ...i18n import N_, _
from ...net.protocol import ErrorCode, SeatInfo
from ...net.table import Table
from ...trace import PROFILE_AFTER, mark, profiling, stop_profile
from ..widgets.footer import KeysFooter
from ..widgets.hint import HintPanel
from ..widgets.map_view import BoardMap, game_overlay
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
from ..widgets.status_line import StatusLine
from ..widgets.table import compose_table
from .base import ParisScreen
from .game_ai import LocalAi
from .game_chat import TableChat
from .game_choice import TileChoice
from .game_clock import MoveClockTick
from .game_end import GameEnd
from .game_hint import HintWork
from .game_tours import TourFrames
from .handoff import HandoffScreen

__all__ = ["GameScreen", "LocalBots", "reveal_chunks"]

T = TypeVar("T")


class _Kept(Generic[T]):
    """A screen attribute kept by one of its parts (the turn flow, the tours' frames):
    read (and set) on the screen, as the app and the tests do."""

    def __init__(self, part: str, name: str) -> None:
        self.part = part
        self.name = name

    @overload
    def __get__(self, screen: None, owner: type[Any]) -> _Kept[T]: ...
    @overload
    def __get__(self, screen: GameScreen, owner: type[Any]) -> T: ...
    def __get__(self, screen: GameScreen | None, owner: type[Any]) -> _Kept[T] | T:
        if screen is None:
            return self
        return cast(T, getattr(getattr(screen, self.part), self.name))

    def __set__(self, screen: GameScreen, value: T) -> None:
        setattr(getattr(screen, self.part), self.name, value)


class GameScreen(ParisScreen):
    """One game, from the first move (or a resumed position) to the end screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "step(-1)", N_("Tile"), show=False, priority=True),
        Binding("right,down", "step(1)", N_("Tile"), key_display="←→", priority=True),
        *(Binding(str(i + 1), f"pick({i})", show=False, priority=True) for i in range(5)),
        Binding("enter", "take", N_("Take"), priority=True),
        Binding("space", "skip", N_("Skip tour"), priority=True),
        Binding("p", "toggle_preview", N_("Preview")),
        Binding("r", "toggle_route", N_("Route")),
        Binding("h", "hint", N_("Hint")),
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
        Binding("t", "app.toggle_theme", N_("Theme"), show=False),
        Binding("q", "app.lobby", N_("Lobby")),  # at a host's table (else q quits)
        Binding("q", "app.quit", N_("Quit")),
        Binding("pageup", "scroll_log(-1)", N_("Log"), key_display="PgUp/Dn", priority=True),
        Binding("pagedown", "scroll_log(1)", N_("Log"), show=False, priority=True),
        # Table chat (app/online/chat.py): at a host's table that speaks it.
        Binding("c", "chat", N_("Chat")),
        *(Binding(key, f"phrase({i})", show=False) for i, key in enumerate(PHRASE_KEYS)),
    ]

    # The turn flow's state, as the app and the tests read it on the screen.
    table = _Kept[Table]("flow", "table")
    networked = _Kept[bool]("flow", "networked")
    seats = _Kept[tuple[SeatInfo, ...]]("flow", "seats")
    viewer = _Kept[int | None]("flow", "viewer")
    turn_seat = _Kept[int | None]("flow", "turn_seat")
    ai_choice = _Kept[Move | None]("flow", "ai_choice")
    waiting_for = _Kept[int | None]("flow", "waiting_for")
    connection = _Kept[str | None]("flow", "connection")
    ended = _Kept[bool]("flow", "ended")
    _public = _Kept[SeatView]("flow", "public")
    _events = _Kept[list[Event]]("flow", "events")
    _pending = _Kept[deque[Update]]("flow", "pending")
    _showing = _Kept[bool]("flow", "showing")
    highlight = _Kept[int]("choice", "highlight")
    frames = _Kept[list[Frame]]("tours", "frames")
    frame = _Kept[Frame | None]("tours", "frame")
    frame_timer = _Kept[Timer | None]("tours", "timer")

    def __init__(
        self,
        table: Table,
        *,
        anim: float = 0.6,
        ai_delay: float = 0.8,
        ready_seat: int | None = None,
    ) -> None:
        super().__init__()
        self.flow = TurnFlow(table, ready_seat=ready_seat)
        self.anim = anim
        self.ai_delay = ai_delay
        self.choice = TileChoice(self)
        self.route_hidden = False
        self.tours = TourFrames(self)
        self.view: SeatView = self.flow.public
        self._previews: tuple[int, dict[str, LeftoverPreview]] | None = None
        self._keys_state: tuple[bool, bool, bool] | None = None
        self._resumed_at: int | None = None  # the log's first line: "Resumed after n moves."
        # A turn drops keys stamped before it began, and a held or hasty Enter
        # (terminal/keygate.py).
        self.key_gate = TurnGate(on_drop=self._take_dropped)
        self.ai = LocalAi(self)
        self.clock = MoveClockTick(self.flow)
        self.chat = TableChat(self)
        self.hints = HintWork(self)
        self.ending = GameEnd(self)
        self._going = False  # on_mount went on to the game (see table_changed)
        # What waits while the game is paused (too small a terminal), run on resume.
        self._waiting: dict[str, Callable[[], None]] = {}
        table.add_listener(self)

    # --- the table -------------------------------------------------------------------

    @property
    def move_count(self) -> int:
        """The moves of the position shown (the table may be ahead while tours show)."""
        return self.flow.move_count

    @property
    def shown_scores(self) -> tuple[int, ...] | None:
        """The scores shown while a move's events are staged (None: the view's own)."""
        return self.flow.staging.shown_scores

    def seat_view(self, seat: int | None) -> SeatView:
        """The shown view of a local ``seat`` (``None``: the public view)."""
        return self.flow.seat_view(seat)

    def table_changed(self, table: Table, events: tuple[Event, ...]) -> None:
        # Once on_mount went on, shown even before Textual counts the screen as mounted.
        if self.flow.changed(table, events) and (self.is_mounted or self._going):
            self._show_next()

    def table_refused(self, table: Table, code: ErrorCode, message: str) -> None:
        if code in CHAT_CODES:
            self.notify(printable(message), title=_("Not said"), severity="warning", markup=False)
            return
        go_on = self.flow.refused()
        self.notify(printable(message), title=_("Move refused"), severity="warning", markup=False)
        if go_on:
            self.advance()  # the game goes on: it may still be this seat's turn

    def table_presence(self, table: Table) -> None:
        self.flow.seats = table.seats
        self.clock.follow()  # a clock comes with the seats' presence
        self.ending.rated(table)
        # Drawn once the widgets are there, whether or not Textual counts the screen as
        # mounted yet: a presence can arrive between the first draw and the end of the
        # screen's Mount handlers, and would otherwise wait for the next change.
        if self.query(GameLog):
            line = self.clock.time_out_line(table)
            if line is not None:  # the AI moved for a player out of time: said in the log
                self.query_one(GameLog).write_entry(line)
        if self.query(PlayersPanel):
            self._show_presence()

    def _show_presence(self) -> None:
        """Who is here, away or played for shows in the players' panel and the status
        line only: those two again (each player joining a host's table changes every
        other's; the whole screen again was a tenth of a second of CPU in a burst of
        logins)."""
        self.show_players()
        self._show_status()

    def show_players(self) -> None:
        """The players' panel: scores as shown, presence, a timed table's clock."""
        self.query_one(PlayersPanel).show(
            self.view,
            scores=self.shown_scores,
            presence=self.flow.presence(),
            clock=self.clock.text(),
        )

    def _tick_clock(self) -> None:
        """The move clock's second tick: the players' panel again, with the clock."""
        if self.clock.running() and self.query(PlayersPanel):
            self.show_players()

    def table_closed(self, table: Table, reason: str) -> None:
        self.flow.sent = False

    def rebind(self, table: Table) -> None:
        """Go on with ``table``, the same game on a new connection (after a drop).

        What happened meanwhile comes as one more update, shown like any other.
        """
        update = self.flow.rebind(table)
        table.add_listener(self)
        self.ending.follow(table)
        self.chat.follow()
        self.clock.follow()
        self.flow.pending.append(update)
        if self.is_mounted and not self.flow.showing and not self.flow.ended:
            self._show_next()

    def set_connection(self, problem: str | None) -> None:
        """Say the table cannot be reached (keys make no move meanwhile), or that it can."""
        if self.flow.set_connection(problem):
            self.choice.turn_lost()
        if self.is_mounted and self.query(PlayersPanel):
            self.refresh_all()

    # --- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from compose_table(StatusLine("", id="status"))
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
            self.clock.start(self.set_interval(1.0, self._tick_clock, pause=True))
        self._resumed_at = self.move_count if self.flow.events else None
        self._write_log()
        self.chat.follow()
        self.refresh_all()
        self.advance()  # at once: a hand-off then shows before the game screen is laid out
        self._going = True
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
        staging, public, shown = self.flow.staging, self.flow.public, self.flow.events
        self.query_one(GameLog).rewrite(
            self._resumed_at,
            public,
            shown[: len(shown) - staging.held()],
            staging.partly_shown(public),
        )

    def language_changed(self) -> None:
        """Show everything again in the current language; the game and the turn go on as they
        were (position, highlight, hidden route, the log's events, a tour being shown)."""
        if not self.query(GameLog):
            return
        self._write_log()
        for pane in self.query(ChatPane):
            pane.redraw()
        self.refresh_all()
        self.hints.redraw()

    # --- what is shown -------------------------------------------------------------

    @property
    def active_tile(self) -> int | None:
        """The highlighted tile's index while a tile is being chosen (human or AI)."""
        return self.choice.active()

    def previews(self) -> dict[str, LeftoverPreview]:
        public = self.flow.public
        if self._previews is None or self._previews[0] != self.move_count:
            self._previews = (self.move_count, leftover_previews(public))
        return self._previews[1]

    def refresh_all(self) -> None:
        flow = self.flow
        self.view = flow.seat_view(flow.viewer)
        view = self.view
        self.show_players()
        self.query_one(RoutePanel).show(
            view,
            reveal=flow.viewer is not None and not self.route_hidden,
            hidden_hint=flow.viewer is not None and self.route_hidden,
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
        flow = self.flow
        state = (flow.turn_seat is not None, self.frame is not None, flow.viewer is not None)
        if state != self._keys_state:
            self._keys_state = state
            self.refresh_bindings()

    def _take_dropped(self, key: KeyStamp, previous: KeyStamp | None) -> None:
        """The turn gate dropped an Enter (too soon after the last one, or held): say so for
        as long as the wait lasts, so a second press never vanishes without a word."""
        if self.flow.turn_seat is not None:
            self.query_one(StatusLine).enter_waits(self._show_status)
            self._show_status()

    def _show_status(self) -> None:
        """One line: whose turn, or what is happening (shorter wordings where it is narrow)."""
        line = self.query_one(StatusLine)
        touring, waits = self.frame is not None, line.take_waits is not None
        line.say(status_line(self.flow, self.view, touring=touring, take_waits=waits))

    def _show_map(self) -> None:
        overlay = game_overlay(self.frame, self.view.face_up, self.active_tile)
        self.query_one(BoardMap).update_map(self.view, overlay)

    def _show_preview(self) -> None:
        self.query_one(PreviewBar).show(
            self.frame,
            self.view,
            self.active_tile,
            shown=bool(getattr(self.app, "show_preview", True)),
            previews=self.previews,
        )

    def show_frame(self, frame: Frame) -> None:
        """A tour's frame: the map, the caption, and the log lines and points by then."""
        self._reveal(*self.flow.staging.with_frame(frame))
        self._show_status()
        self._show_map()
        self._show_preview()
        self._refresh_keys()

    # --- keys -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # False hides a key from the footer while it does nothing (80 columns are few).
        if action in ("step", "pick", "take"):
            return self.flow.turn_seat is not None
        if action == "skip":
            return self.frame is not None
        if action == "toggle_route":
            return self.flow.viewer is not None
        if action == "toggle_preview":  # a watcher never moves, a tour has no tile: no preview
            mover = bool(self.table.local_seats) or isinstance(self.table, LocalBots)
            return mover and self.frame is None
        if action == "hint":
            return self.flow.turn_seat is not None and self.hints_allowed
        if action in ("chat", "phrase"):
            return chat_table(self.table) is not None and bool(self.query(ChatPane))
        return True

    def action_chat(self) -> None:
        self.chat.open_prompt()

    def action_phrase(self, index: int) -> None:
        self.chat.say_phrase(index)

    @property
    def hints_allowed(self) -> bool:
        """Always in a game on this terminal; at a host's table only if the host allows it."""
        return self.flow.hints_allowed

    def action_hint(self) -> None:
        """Show (or hide) the hint for the seat to move (``h``)."""
        self.hints.toggle()

    def action_scroll_log(self, pages: int) -> None:
        log = self.query_one(GameLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_step(self, delta: int) -> None:
        self.choice.step(delta)

    def action_pick(self, index: int) -> None:
        self.choice.pick(index)

    def action_take(self) -> None:
        self.choice.take()

    def highlight_ai(self, index: int) -> None:
        """The AI's choice is the ``index``-th tile (shown before it is played)."""
        self.choice.highlight = index

    def show_choice(self) -> None:
        """The map and the preview of the highlighted tile (the tile row shows it)."""
        self._show_map()
        self._show_preview()

    def action_toggle_preview(self) -> None:
        toggle = getattr(self.app, "action_toggle_preview", None)
        if toggle is not None:
            toggle()

    def preview_changed(self) -> None:
        self._show_preview()

    def action_toggle_route(self) -> None:
        if self.flow.viewer is not None:  # a watcher has no route to hide
            self.route_hidden = not self.route_hidden
            self.refresh_all()

    def action_skip(self) -> None:
        self.tours.skip()

    def on_tile_row_clicked(self, message: TileRow.Clicked) -> None:
        self.choice.clicked(message.index)

    def on_board_map_stop_clicked(self, message: BoardMap.StopClicked) -> None:
        # The stop's id (Message.stop is also a method).
        self.choice.stop_clicked(cast(str, message.stop))

    # --- pause (the terminal is too small) --------------------------------------------

    @property
    def paused(self) -> bool:
        return bool(getattr(self.app, "too_small", False))

    def when_resumed(self, name: str, then: Callable[[], None]) -> None:
        """Run ``then`` once the game is no longer paused (one of each name)."""
        self._waiting[name] = then

    def set_paused(self, paused: bool) -> None:
        """Called by the app: stop the clocks (timers) while paused, restart them after."""
        if paused:
            self.tours.pause()
            self.ai.pause()
            return
        waiting, self._waiting = self._waiting, {}
        for then in waiting.values():
            then()

    # --- turns ----------------------------------------------------------------------

    def advance(self) -> None:
        """Start whatever comes next: a hand-off, a human turn, an AI turn, or the end."""
        flow = self.flow
        step = flow.next_step(
            paused=lambda: self.paused, covered=lambda: self.app.screen is not self
        )
        kind, seat = step.kind, step.seat
        if kind == "pause":
            self.when_resumed("advance", self.advance)
        elif kind == "show":
            self._show_next()
        elif kind == "later":
            # A dialog (or help) is still on top: go on once this screen is back.
            self.set_timer(0.05, self.advance)
        elif kind == "end":
            flow.end()
            self.clock.follow()
            self.refresh_all()
            self.ending.show(step=self.anim, muted=self.chat.muted())
        elif kind == "ai":
            assert seat is not None and isinstance(flow.table, LocalBots)
            self.ai.start(seat, flow.table)
        elif kind in ("other", "offline"):
            self.refresh_all()
        elif kind == "handoff":
            assert seat is not None
            self.refresh_all()
            handoff = HandoffScreen.before_turn(flow.public, seat)
            self.app.push_screen(handoff, callback=lambda _: self.begin_turn(seat))
        elif kind == "turn":
            assert seat is not None
            self.begin_turn(seat)

    def begin_turn(self, seat: int) -> None:
        self.hints.hide()
        self.flow.begin_turn(seat)
        self.route_hidden = False
        self.choice.highlight = 0
        self.key_gate.begin()
        self.refresh_all()

    def commit(self, move: Move, seat: int) -> None:
        """Submit ``seat``'s move to the table (whose referee checks it).

        The answer comes to the listener methods: from a local table before
        this returns, from a host when it answers; meanwhile no key moves.
        """
        self.flow.submit(move, seat)
        save_error = getattr(self.table, "save_error", None)
        if save_error:
            self.notify(
                printable(save_error), title=_("Autosave failed"), severity="error", markup=False
            )
        if self.flow.awaiting_answer():  # no answer yet: the host has it
            self.key_gate.end()
            self.refresh_all()

    def _show_next(self) -> None:
        """Show the next update that came: log it, animate its tours, then go on."""
        self.hints.hide()
        before, events = self.flow.show_next()
        self.key_gate.end()
        staging = self.flow.staging
        frames = staging.stage(before, events, animate=self.anim > 0)
        self._reveal(*staging.first(frames))
        self.refresh_all()
        self.tours.play(frames, self._tours_done)

    # --- showing a move's events in order ----------------------------------------------

    def _reveal(self, count: int, partial: int = 0) -> None:
        """Show the staged chunks before the ``count``-th, and the first ``partial`` events of
        the ``count``-th (a tour up to the bus's stop): log lines, then points."""
        log = self.query_one(GameLog)
        for line in self.flow.staging.reveal(self.flow.public, count, partial):
            log.write_entry(line)
        self.show_players()
        self.query_one(ScoreTrack).show(self.view, scores=self.shown_scores)

    def _tours_done(self) -> None:
        self._reveal(10**9)
        self.flow.shown()
        self.refresh_all()
        self.advance()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "hint":
            self.hints.worker_changed(event)
        elif event.worker.group == "ai":
            self.ai.worker_changed(event)

    def _next_frame(self) -> None:
        """The next of the tours' frames at once (scripted screenshots and tests)."""
        self.tours.next()

    # --- the end -------------------------------------------------------------------------
