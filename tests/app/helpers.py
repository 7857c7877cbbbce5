"""Helpers for the app tests: build apps, read what the screens show, play by keys."""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual import events
from textual._compositor import LayoutUpdate
from textual.app import App
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import RichLog, Static

from paris_tui.app.app import ParisApp
from paris_tui.app.local.session import Session, parse_players
from paris_tui.app.screens.game import GameScreen
from paris_tui.core import Options


def new_session(
    players: str, seed: int, path: Path | None, options: Options | None = None
) -> Session:
    return Session.new(parse_players(players), seed=seed, options=options, path=path)


async def until(pilot: Pilot[object], test: object, what: str, steps: int = 1000) -> None:
    """Wait (at most ``steps`` pauses of 20 ms) until ``test()`` holds."""
    assert callable(test)
    for _ in range(steps):
        if test():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never: {what}")


async def remote_app(port: int, name: str, tokens_at: Path) -> ParisApp:
    """An app at the table of ``name`` on the host at 127.0.0.1:``port`` (its link open,
    its lobby the host's; tokens kept in ``tokens_at``), not yet running."""
    from paris_tui.app.online.remote import Home, JoinTarget, open_link
    from paris_tui.net.client import TokenStore

    tokens = TokenStore(tokens_at)
    target = JoinTarget("127.0.0.1", port, name)
    link = await open_link(target, tokens)
    return make_app(link=link, home=Home(target, tokens))


def make_app(session: Session | None = None, **kwargs: object) -> ParisApp:
    kwargs.setdefault("anim", 0.0)
    kwargs.setdefault("ai_delay", 0.0)
    kwargs.setdefault("cursor_blink", False)
    kwargs.setdefault("deliberate_keys", False)  # keys at machine speed (test_held_keys: on)
    return ParisApp(session=session, **kwargs)  # type: ignore[arg-type]


def drawn(
    app: App[object], screen: Screen[object] | None = None, *, blended: bool = False
) -> LayoutUpdate:
    """What ``screen`` (the active one) draws over the whole terminal now, as one Rich
    renderable (its ``strips``: a row each); ``blended``: with the screens under it
    blended into a translucent background, as the terminal shows it.

    The tests' one use of Textual's private parts (8.2.8): Textual has no public way to
    read what a screen draws as text or styled segments (``App.export_screenshot``, its
    nearest, makes an SVG of this very update, asked of the compositor the same way).
    When Textual moves, this is the one place to change.
    """
    screen = app.screen if screen is None else screen
    under = app._background_screens if blended else None
    update = screen._compositor.render_update(full=True, screen_stack=under)
    assert isinstance(update, LayoutUpdate)
    return update


def screen_text(app: App[object]) -> str:
    """The text of the whole terminal as drawn now (the active screen and what shows through)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, force_terminal=True
    )
    console.print(drawn(app))
    return console.export_text()


def widgets_text(app: App[object]) -> str:
    """The content of every Static and log on every screen of the stack, shown or not."""
    parts: list[str] = []
    for screen in app.screen_stack:
        for widget in screen.query("*"):
            if isinstance(widget, Static):
                parts.append(_plain(widget.content))
            elif isinstance(widget, RichLog):
                parts.extend("".join(seg.text for seg in strip) for strip in widget.lines)
    return "\n".join(parts)


def _plain(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Text):
        return content.plain
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(content)
    return console.export_text()


def all_text(app: App[object]) -> str:
    return screen_text(app) + "\n" + widgets_text(app)


def from_terminal(app: App[object], event: Message) -> None:
    """``event`` (a key, a mouse button) given to ``app`` as its terminal driver gives
    what it reads: onto the app's message queue, behind what is queued already."""
    event.set_sender(app)
    app.post_message(event)


async def press(pilot: Pilot[object], *keys: str) -> None:
    """Press keys like ``pilot.press`` but wait only until the screen has handled them.

    ``Pilot.press`` sleeps until the process looks idle after every key (about
    40 ms); a whole game is hundreds of keys, so the game tests use this.
    """
    app = pilot.app
    for key in keys:
        from_terminal(app, events.Key(key, key if len(key) == 1 else None))
        await pilot.pause(0)  # the app's and the screen's queues handled, no more
        await pilot.pause(0)


@dataclass(frozen=True)
class Notice:
    """What ``App.notify`` was asked to show."""

    message: str
    title: str
    severity: SeverityLevel
    markup: bool


class Notices:
    """The notifications ``app`` was asked for (``App.notify``, which every widget's
    ``notify`` calls) since this was made, less those cleared
    (``App.clear_notifications``): both public methods, wrapped on this one app. Make it
    before the app runs to hear what it says as it starts."""

    def __init__(self, app: App[object]) -> None:
        self.shown: list[Notice] = []
        notify, clear = app.notify, app.clear_notifications

        def recorded_notify(
            message: str,
            *,
            title: str = "",
            severity: SeverityLevel = "information",
            timeout: float | None = None,
            markup: bool = True,
        ) -> None:
            self.shown.append(Notice(message, title, severity, markup))
            notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

        def recorded_clear() -> None:
            self.shown.clear()
            clear()

        app.notify = recorded_notify  # type: ignore[method-assign]
        app.clear_notifications = recorded_clear  # type: ignore[method-assign]

    @property
    def messages(self) -> list[str]:
        return [notice.message for notice in self.shown]


def find_game(app: App[object]) -> GameScreen | None:
    """The game screen, once it exists (a hot-seat game opens on a hand-off before it)."""
    for screen in app.screen_stack:
        if isinstance(screen, GameScreen):
            return screen
    return None


def choose_like_the_cli(lang: str | None, glyphs: str | None = None) -> None:
    """Choose the language and glyph set as ``paris-tui [--lang LANG] [--glyphs SET]`` does.

    The same calls ``cli.main`` makes (``None``: the option not given, so the
    environment, the settings and the locale decide). ``tests/conftest.py``
    puts English back after each test; a test that calls this puts the Unicode
    glyphs back itself (``set_glyphs("unicode")``).
    """
    from paris_tui.app.look.glyphs import choose_glyphs
    from paris_tui.cli import choose_language

    choose_language(lang)
    choose_glyphs(glyphs)


async def show_statistics(pilot: Pilot[object], *, charts: bool = False) -> None:
    """Open the statistics screen, wait for its numbers; with ``charts``, scroll to the charts."""
    from paris_tui.app.screens.stats import StatsScreen

    app = pilot.app
    await pilot.pause()
    app.action_statistics()  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while not (isinstance(app.screen, StatsScreen) and app.screen.stats is not None):
        assert time.monotonic() < deadline, "no statistics came"
        await pilot.pause(0.05)
    await pilot.pause(0.3)
    if charts:
        app.screen.query_one("#stats-box").scroll_end(animate=False)
        await pilot.pause(0.3)
