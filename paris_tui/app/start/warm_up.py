"""A fork server's app, run once before it forks any: every forked app starts hot.

The first game screen an app draws fills many lazy caches: rich's parsed
styles, Textual's selector matches and rendered contents, our own
``lru_cache``\\ s, and Python 3.11's specialised bytecode of every function on
the way. A forked app filled them again on its own (copy-on-write pages: its
own memory too) before its first frame. The fork server (doors/zygote.py)
calls :func:`warm` once instead, the app's whole warm-up: every stylesheet
parsed (app/start/warm_css.py), the map's hand-made layouts drawn, and
:func:`warm_up`: a throwaway app shows the game screen of
a throwaway table (a host's seat, as a door's app shows it: chat and hints
on) headless at 120x40, renders it to text as a terminal driver would, and
is torn down (Textual's compositor is private API: debt, the
warm-up's frame only). It then leaves no thread, no event loop, no app and no table
behind (the fork server checks), and changes nothing a forked app reads: the
language, the glyph set and the scrollbars are as they were, nothing is
written to any data directory.
"""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["WARM_SIZE", "forget_escape_codes", "warm", "warm_up"]

WARM_SIZE = (120, 40)
"""The terminal the throwaway app draws on (the doors' most common size)."""


class _Client:
    """A host that says nothing: a protocol-4 host with hints (what a door's app sees)."""

    def __init__(self) -> None:
        from paris_tui.net.protocol import Welcome

        self.welcome = Welcome(4, "warm-up", "en", hints=True)

    def send(self, message: object) -> None:
        return None

    def play(self, move: object, move_count: int) -> None:
        return None

    def abort(self) -> None:
        return None

    async def close(self) -> None:
        return None


class _StillLink:
    """A seat at a table that does not change (no socket, nothing to follow)."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.closed = False
        self.target = None

    async def follow(self, *_: object) -> None:
        return None

    async def close(self) -> None:
        self.closed = True


def _table() -> Any:
    """A host's seat at a new four-player game (its own seat: Ann's)."""
    from paris_tui.core import Game
    from paris_tui.net.protocol import Seated, SeatInfo
    from paris_tui.net.table import RemoteTable

    names = ["Ann", "Bob", "Cy", "Dee"]
    game = Game.new(names, seed=1)
    seats = tuple(SeatInfo(name, "human", "present") for name in names)
    seated = Seated("warm", 0, None, game.view(0), (), seats)
    return RemoteTable(_Client(), seated)  # type: ignore[arg-type]


async def _show(size: tuple[int, int]) -> int:
    from textual._compositor import CompositorUpdate
    from textual.widgets import Static

    from paris_tui.app.app import ParisApp
    from paris_tui.app.screens.game import GameScreen

    app = ParisApp(link=_StillLink(_table()), deliberate_keys=False)  # type: ignore[arg-type]
    drawn = 0
    async with app.run_test(headless=True, size=size) as pilot:
        for _ in range(20):  # bounded: a few refreshes until the game screen is laid out
            await pilot.pause()
            if isinstance(app.screen, GameScreen) and app.screen.query(Static):
                break
        await pilot.pause()
        screen = app.screen
        # What a terminal driver does with a frame: the compositor's update as text.
        update: Any = screen._compositor.render_update(full=True)
        if isinstance(update, CompositorUpdate):
            drawn = len(update.render_segments(app.console))
        app.exit()
    return drawn


def warm_up(size: tuple[int, int] = WARM_SIZE) -> int:
    """Show a throwaway game screen once, headless; returns the length of its frame's
    text (0 when none was drawn). Runs its own event loop, closed when it returns."""
    from textual.scrollbar import ScrollBar

    from paris_tui.app.look.glyphs import current_glyphs, set_glyphs
    from paris_tui.i18n import current_language, set_language

    language, glyphs, renderer = current_language(), current_glyphs(), ScrollBar.renderer
    try:
        return asyncio.run(_show(size))
    finally:
        set_language(language)
        set_glyphs(glyphs.name)
        ScrollBar.renderer = renderer
        asyncio.set_event_loop(None)


def warm() -> int:
    """Everything a fork server does once for the app before it forks any: every
    stylesheet parsed and kept for the apps it forks, the map's hand-made layouts
    drawn, rich's table of cell widths read, and a throwaway game screen shown
    (:func:`warm_up`, whose frame's text length it returns)."""
    from rich.cells import cell_len

    from paris_tui.app.app import ParisApp
    from paris_tui.app.map.layout import prepare_layouts
    from paris_tui.app.start.warm_css import prefill

    prefill(ParisApp().get_css_variables())  # every stylesheet parsed once, here
    prepare_layouts()  # the map's hand-made layouts drawn once, here
    cell_len("\u00e9\u4e2d")  # rich's table of cell widths, imported at the first width
    drawn = warm_up()  # a throwaway game screen drawn once: every lazy cache filled, here
    forget_escape_codes()
    return drawn


def forget_escape_codes() -> int:
    """Forget the terminal escape codes rich keeps on each style it has drawn with
    (``Style._ansi``, made once per style for the colours of the first terminal it
    was drawn on; ``Style.parse`` hands out one style per text): the warm-up drew in
    the fork server's colours (16 where the host has a plain ``TERM``), and every
    forked app draws in its own terminal's (true colour in a browser). Returns how
    many styles had codes. Rich's private attribute: debt, as the compositor above."""
    import gc

    from rich.style import Style

    forgotten = 0
    for found in gc.get_objects():
        if isinstance(found, Style) and found._ansi is not None:
            found._ansi = None
            forgotten += 1
    return forgotten
