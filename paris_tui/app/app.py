"""The Textual application: screens, app-wide keys, command palette, themes.

:class:`ParisApp` owns at most one :class:`~paris_tui.app.local.session.Session`
(the game and its autosave) and shows it through
:class:`~paris_tui.app.screens.game.GameScreen`. It starts on one of: a game
(``paris-tui play`` / ``resume``), the new-game screen (``paris-tui``, which
offers to resume an unfinished game), or the replay viewer.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.driver import Driver
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender

if TYPE_CHECKING:
    from paris_tui.app.local.history import History
    from paris_tui.app.online.remote import Home, Link, LobbyStart

    from .screens.game import GameScreen

from paris_tui.app.local.session import SeatSpec, Session, SessionTable
from paris_tui.app.local.storage import SaveInfo
from paris_tui.app.look.describe import printable
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.themes import DARK, LIGHT, THEMES
from paris_tui.app.start.resources import (
    LAST_TIE_BREAKER,
    first_css_paths,
    last_css_path,
    later_css_paths,
)
from paris_tui.app.terminal.keygate import Gate, KeyStamp

from ..core import Options
from ..core.record import Record
from ..i18n import N_, _
from .screens.base import MIN_HEIGHT, MIN_WIDTH

__all__ = ["DEFAULT_AI_DELAY", "DEFAULT_ANIM", "AsciiScrollBarRender", "ParisApp"]

DEFAULT_AI_DELAY = 0.8
DEFAULT_ANIM = 0.6
# Below this width the footer has no room for Textual's "^p palette" key (-tight).
TIGHT_WIDTH = 100
# After the first frame (the hand-off), the game screen is made ready this much later.
WARM_UP_DELAY = 0.05
# Keys that always work, even behind the too-small notice: quitting (every move is saved).
ALWAYS_KEYS = frozenset({"ctrl+c", "ctrl+q"})


class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars in whole cells: the thumb's ends without the block characters (``▁▂▃``,
    ``▉▊▋``) a CJK terminal draws two cells wide (used with the ascii glyph set)."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


class ParisApp(App[int]):
    """Paris Paris in the terminal."""

    TITLE = "Paris Paris"
    CSS_PATH = first_css_paths()  # the rest: load_styles, and each screen's CSS_PATH
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012 - Textual's API
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]  # noqa: RUF012
    ENABLE_COMMAND_PALETTE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", N_("Quit"), show=False, priority=True),
        Binding("f1", "help", N_("Help"), show=False),
        # Textual's own palette key, with its description marked for the catalogs.
        Binding(
            "ctrl+p",
            "command_palette",
            N_("palette"),
            show=False,
            priority=True,
            tooltip=N_("Open the command palette"),
        ),
    ]

    def __init__(
        self,
        *,
        session: Session | None = None,
        replay: tuple[Record, Path] | None = None,
        link: Link | None = None,
        lobby: LobbyStart | None = None,
        home: Home | None = None,
        resume_offer: SaveInfo | None = None,
        locked: SaveInfo | None = None,
        problems: Iterable[str] = (),
        anim: float = DEFAULT_ANIM,
        ai_delay: float = DEFAULT_AI_DELAY,
        cursor_blink: bool = True,
        deliberate_keys: bool = True,
        history: History | None = None,
    ) -> None:
        """``deliberate_keys=False`` lets scripted drivers (tests, screenshots) press keys
        at machine speed: the screens' key gates (:mod:`.terminal.keygate`) are off."""
        super().__init__()
        self.session = session
        self.replay = replay
        self.link = link  # a seat (or a watcher) at a host's table: paris-tui join
        self.lobby = lobby  # ... or the host's lobby first, which leads to one
        self.home = home  # the host's lobby, beneath every table (q goes back to it)
        self.resume_offer = resume_offer
        self.locked = locked  # a game another copy holds: offer to watch it, or quit
        self.problems = list(problems)
        self.anim = anim
        self.ai_delay = ai_delay
        self.cursor_blink = cursor_blink
        self.show_preview = True
        self.deliberate_keys = deliberate_keys
        # Where finished games are kept (app/local/history.py): the launch functions give the
        # data directory's; None (tests, screenshots) keeps none.
        self.history = history
        self.too_small = False  # the "please enlarge" notice shows: no input, the game waits
        self._last_key: KeyStamp | None = None
        self._mouse_down_admitted = True
        self._later_styles = False
        self._glyph_styles = False
        self._resized_to: tuple[int, int] | None = None  # the size of the last Resize taken
        self._resizes = 0  # Resize events seen (the first two: the app's own, the driver's)
        self._opened_on_handoff = False  # the hand-off is the first screen: get_default_screen
        from paris_tui.app.start.warm_css import prefilled, shared_stylesheet

        if prefilled():  # in a fork server's app (else: no theme's variables made again)
            shared = shared_stylesheet(self.get_css_variables())
            if shared is not None:
                self.stylesheet = shared

    # --- start-up: the first frame first ---------------------------------------------

    def load_styles(self) -> None:
        """Read the stylesheets the first frame did without (resources.py), once.

        Every screen but the hand-off names them (its ``CSS_PATH``: screens/base.py), so
        that Textual reads them before it shows one, if they are not read by then; but
        Textual then parses every stylesheet again, so the app reads them first: before
        its first screen when that is not the hand-off, else just after its first frame
        (``_warm_up``)."""
        if self._later_styles:
            return
        self._later_styles = True
        for path in later_css_paths():
            self.stylesheet.read(path)
        self._load_glyph_styles()
        if self.is_running and any(type(screen) is not Screen for screen in self.screen_stack):
            self.stylesheet.update(self)  # what shows already (the hand-off)

    def _load_glyph_styles(self) -> None:
        """The ascii glyph set's stylesheet (every rule needs the app's ``-ascii-glyphs``
        class), winning its ties as the last one read; once."""
        if self._glyph_styles:
            return
        self._glyph_styles = True
        last = last_css_path()
        if last is not None:
            self.stylesheet.add_source(
                last.read_text(encoding="utf-8"),
                read_from=(str(last), ""),
                tie_breaker=LAST_TIE_BREAKER,
            )

    def _first_frame(self) -> None:
        """The first frame is out: collect garbage again (cli.py and ``python -m paris_tui``
        start without: the start-up's objects live as long as the app), once."""
        if not gc.isenabled():
            gc.freeze()  # what start-up made stays out of every later collection
            gc.enable()

    def _warm_up(self) -> None:
        """After the first frame, while the hand-off waits for its press: what the
        game screen needs (its stylesheets and modules), so that Enter shows it at once."""
        self.load_styles()
        from .screens import game  # noqa: F401 - imported for its side effect: loaded

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables; first (Textual's ``__init__`` asks, to make the
        stylesheet) our themes are registered and the dark one chosen, so that the first
        stylesheet, a fork server's prefilled rules included, is made with its greys."""
        if DARK not in self.available_themes:
            for theme in THEMES:
                self.register_theme(theme)
            self.set_reactive(App.theme, DARK)
        return super().get_css_variables()

    def get_key_display(self, binding: Binding) -> str:
        """How the footer shows a key: Textual's way, in ASCII with the ascii glyph set."""
        return current_glyphs().key_text(super().get_key_display(binding))

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, with the fix that ends the app when its terminal goes away
        (:mod:`~paris_tui.app.terminal.driver`)."""
        chosen = super().get_driver_class()
        if sys.platform == "win32":
            return chosen  # app/terminal/driver.py fixes Textual's POSIX and web drivers only
        from paris_tui.app.terminal.driver import driver_class

        return driver_class(chosen)

    def get_default_screen(self) -> Screen[Any]:
        """The first screen: a hot-seat game's hand-off, when the game opens on one, in
        place of Textual's blank screen (that one was made, styled and laid out before the
        first frame for nothing). Its Ready pushes the game screen over it:
        the stack has the shape it had, the spent hand-off in the blank screen's place."""
        if self.session is not None:
            handoff = self._handoff(self.session)
            if handoff is not None:
                self._opened_on_handoff = True
                return handoff
        return super().get_default_screen()

    def on_mount(self) -> None:
        self.call_after_refresh(self._first_frame)
        if self.session is None or _handoff_seat(self.session) is None:
            self.load_styles()  # the first screen needs them (only the hand-off does not)
        self.theme = DARK
        self._show_glyphs()
        self._set_too_small(self.size.width, self.size.height)
        self.set_class(self.size.width < TIGHT_WIDTH, "-tight")
        if self._opened_on_handoff:
            self.call_after_refresh(self.set_timer, WARM_UP_DELAY, self._warm_up)
        elif self.session is not None:
            self.open_game(self.session)
        # A door's first screen waits for the end of Textual's start-up batch: a screen
        # laid out inside it is rendered once for a frame that Textual throws away
        # (tests/app/test_first_frame.py).
        elif self.link is not None:
            self.call_later(self.open_remote, self.link)
        elif self.lobby is not None:
            self.call_later(self.open_lobby, self.lobby)
        elif self.replay is not None:
            from .screens.replay import ReplayScreen

            record, path = self.replay
            self.push_screen(ReplayScreen(record, path))
        elif self.locked is not None:
            self.show_locked(self.locked, leave="Quit")
        else:
            self.open_new_game(offer=self.resume_offer)
        for problem in self.problems:
            self.notify(
                printable(problem),
                title=_("Save file not read (left untouched)"),
                severity="warning",
                timeout=12,
                markup=False,
            )

    # --- input: gates and the too-small pause ----------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if not getattr(event, "is_forwarded", False) and not self._admit(event):
            return  # dropped before Textual routes it to any binding or widget
        if isinstance(event, events.Resize):
            self._resizes += 1
            if self._resizes == 2 and tuple(event.size) == self._resized_to:
                # The driver's first size, the one the app started with (its own first
                # Resize): Textual 8.2.8 keeps it and, when idle, sends it to every
                # screen, which lays itself out and repaints again for nothing: half of
                # a forked SSH app's CPU time after its first frame, while other
                # players' apps are starting. Any later Resize goes as Textual has it.
                return
        await super().on_event(event)

    def _admit(self, event: events.Event) -> bool:
        """May this input event reach the screens? Every other event passes."""
        if isinstance(event, events.Key):
            stamp = KeyStamp(event.key, event.time)
            previous = self._last_key
            if previous is None or stamp.time >= previous.time:
                self._last_key = stamp  # a dropped key still restarts every wait
            if event.key in ALWAYS_KEYS:
                return True
            if self.too_small:
                return False
            gate = self._gate()
            return gate is None or gate.admit(stamp, previous)
        if isinstance(event, events.MouseEvent):
            if self.too_small:
                self._mouse_down_admitted = False
                return False
            if isinstance(event, events.MouseDown):
                gate = self._gate()
                self._mouse_down_admitted = gate is None or gate.admit_click(event.time)
                return self._mouse_down_admitted
            if isinstance(event, events.MouseUp):
                return self._mouse_down_admitted  # no click out of a dropped press
            return True
        if isinstance(event, events.Paste):
            return not self.too_small
        return True

    def _gate(self) -> Gate | None:
        if not self.deliberate_keys:
            return None
        gate = getattr(self.screen, "key_gate", None)
        return gate if isinstance(gate, Gate) else None

    def on_resize(self, event: events.Resize) -> None:
        self._resized_to = (event.size.width, event.size.height)
        self._set_too_small(event.size.width, event.size.height)
        self.set_class(event.size.width < TIGHT_WIDTH, "-tight")

    def _set_too_small(self, width: int, height: int) -> None:
        """Below 80x24 the notice shows: input stops, AI moves and animations wait."""
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        if small == self.too_small:
            return
        self.too_small = small
        for screen in self.screen_stack:
            set_paused = getattr(screen, "set_paused", None)
            if callable(set_paused):
                set_paused(small)

    def action_command_palette(self) -> None:
        """Textual's palette, guarded against key races (:mod:`~paris_tui.app.commands`)."""
        from .commands import open_palette

        open_palette(self)

    def search_themes(self) -> None:
        """Textual's theme search, guarded like the palette, its placeholder in our words."""
        from .commands import theme_palette

        theme_palette(self)

    # --- language ----------------------------------------------------------------------

    def action_choose_language(self) -> None:
        """A palette of the languages, each named in itself (``Deutsch``, ``繁體中文``)."""
        from .commands import language_palette

        language_palette(self, self.choose_language)

    def choose_language(self, tag: str) -> None:
        """Show every screen in language ``tag`` at once, and keep the choice in the settings."""
        from .choices import choose_language

        choose_language(self, tag, self.refresh_language)

    def refresh_language(self) -> None:
        """Every open screen shows its words again, in the current language."""
        from .choices import redraw_words

        redraw_words(self)

    # --- games -------------------------------------------------------------------------

    def open_new_game(self, *, offer: SaveInfo | None = None) -> None:
        from .screens.new_game import NewGameScreen

        seats = None
        if self.session is not None:
            seats = [SeatSpec(p.name, p.kind) for p in self.session.players]
        self.push_screen(NewGameScreen(seats=seats, cursor_blink=self.cursor_blink))
        if offer is not None and offer.in_use:
            self.show_locked(offer)
        elif offer is not None:
            from .screens.resume import ResumeDialog

            self.push_screen(ResumeDialog(offer), callback=self._resume_answer)

    def _resume_answer(self, info: SaveInfo | None) -> None:
        if info is not None:
            from .saves import resume

            resume(self, info, self.start_session)

    def show_locked(self, info: SaveInfo, *, leave: Literal["Back", "Quit"] = "Back") -> None:
        """Say that another copy has the game open; offer to watch it read-only."""
        from .saves import show_locked

        show_locked(self, info, leave=leave)

    def on_unmount(self) -> None:
        if self.session is not None:
            self.session.close()  # the OS would drop the lock at exit anyway
        if self.link is not None:
            self.link.closed = True

    # --- a host's table -----------------------------------------------------------------

    def open_lobby(self, lobby: LobbyStart) -> None:
        """The host's tables: sit, watch or open one; then its game screen (or quit)."""
        from .host_table import open_lobby

        open_lobby(self, lobby, self._seated)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "lobby" or (self.home is not None and self.link is not None)

    def action_lobby(self) -> None:
        """Back to the host's lobby from its table, the seat kept (host_table.py)."""
        self.leave_table(None)

    def leave_table(self, to: str | None) -> None:
        """Leave this host's table for its lobby (``to`` None) or for table ``to`` (a rematch)."""
        from .host_table import leave_table

        if self.home is not None and self.link is not None:
            link, self.link = self.link, None
            self.workers.cancel_group(self, "link")
            self.run_worker(leave_table(self, self.home, link, self._seated, to), group="lobby")

    def _seated(self, link: Link) -> None:
        self.link = link
        self.open_remote(link)

    def open_remote(self, link: Link) -> None:
        """Show the host's table, and follow it (reconnecting) while the app runs."""
        from .screens.game import GameScreen

        self.push_screen(GameScreen(link.table, anim=self.anim, ai_delay=self.ai_delay))
        self.run_worker(self._follow(link), group="link", exclusive=True, exit_on_error=False)

    async def _follow(self, link: Link) -> None:
        from .host_table import follow_link

        await follow_link(self, link, self._game_screen)

    def start_session(self, session: Session) -> None:
        """Show ``session`` on a fresh game screen, dropping every other screen."""
        if self.session is not None and self.session is not session:
            self.session.close()  # that game stays saved; this copy stops being its writer
        self.session = session
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.open_game(session)

    def open_game(self, session: Session) -> None:
        """Show the game; a hot-seat game whose next seat is human opens on its hand-off.

        The hand-off comes first, before the game screen is built: it shows
        nothing secret and is the first frame a player waits for.
        """
        handoff = self._handoff(session)
        if handoff is None:
            from .screens.game import GameScreen

            table = SessionTable(session)
            self.push_screen(GameScreen(table, anim=self.anim, ai_delay=self.ai_delay))
            return
        self.push_screen(handoff)
        self.call_after_refresh(self.set_timer, WARM_UP_DELAY, self._warm_up)

    def _handoff(self, session: Session) -> Screen[Any] | None:
        """The hand-off ``session`` opens on (its Ready shows the game screen in its
        place), or None: not a hot-seat game, or an AI to move."""
        seat = _handoff_seat(session)
        if seat is None:
            return None
        from .screens.handoff import HandoffScreen

        table = SessionTable(session)

        def ready(seat: int) -> None:
            from .screens.game import GameScreen  # imported late: the hand-off shows first

            screen = GameScreen(table, anim=self.anim, ai_delay=self.ai_delay, ready_seat=seat)
            if len(self.screen_stack) == 1:
                # The app's first screen (get_default_screen), which Textual cannot switch
                # away from: the game goes over it, as over Textual's blank first screen.
                self.push_screen(screen)
            else:
                self.switch_screen(screen)  # in place of the hand-off: no empty frame between

        return HandoffScreen.before_turn(session.view(None), seat, on_ready=ready)

    def start_new(self, seats: list[SeatSpec], *, seed: int | None, options: Options) -> None:
        """A new game in a new save file; ``OSError`` (nothing started) if it cannot be saved."""
        session = Session.new_saved(seats, seed=seed, options=options)
        self.start_session(session)

    def play_again(self) -> None:
        """A new game with the same seats and variants (a new deal)."""
        from .routes import play_again

        play_again(self, self.session)

    # --- app-wide actions -----------------------------------------------------------

    def action_account(self) -> None:
        """Account (a host's table or lobby): link another door to this name."""
        from .routes import open_account

        open_account(self, self.link)

    def action_help(self) -> None:
        from .screens.help import HelpScreen  # Markdown is slow to import: only when asked

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT if self.theme == DARK else DARK

    def _show_glyphs(self) -> None:
        """Textual's own drawing follows the glyph set: boxes (styles/glyphs.tcss, by the
        class ``-ascii-glyphs``) and scrollbars (whole cells only, no block characters)."""
        ascii_ = current_glyphs().is_ascii
        if ascii_:
            self._load_glyph_styles()
        self.set_class(ascii_, "-ascii-glyphs")
        ScrollBar.renderer = AsciiScrollBarRender if ascii_ else ScrollBarRender

    def switch_glyphs(self, name: str) -> None:
        """Draw with glyph set ``name`` from now on, at once, and keep it in the settings."""
        from .choices import switch_glyphs

        switch_glyphs(self, name, self._show_glyphs)

    def action_toggle_preview(self) -> None:
        from .routes import toggle_preview

        toggle_preview(self)

    def action_hide_route(self) -> None:
        screen = self._game_screen()
        if screen is not None:
            screen.action_toggle_route()

    def action_new_game(self) -> None:
        self.open_new_game()

    def open_review(self) -> None:
        """The review of the finished game on the game screen (from the end screen)."""
        from .routes import open_review

        open_review(self, self._game_screen())

    def action_statistics(self) -> None:
        """Your history of finished games (app/screens/stats.py)."""
        from .routes import open_statistics

        open_statistics(self, self.history)

    def action_save_copy(self) -> None:
        from .saves import save_copy

        save_copy(self, self.session)

    def _game_screen(self) -> GameScreen | None:
        from .screens.game import GameScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        from .commands import system_commands

        return system_commands(self)


def _handoff_seat(session: Session) -> int | None:
    """The seat whose hand-off a game opens on (a hot-seat game, a human to move), or None."""
    seat = session.view(None).to_move
    if seat is None or not session.hot_seat or session.is_ai(seat):
        return None
    return seat
