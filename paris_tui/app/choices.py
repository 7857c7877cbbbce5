"""The player's choices of language and glyph set: every open screen shows them at once
(none is rebuilt), and the settings keep them for next time (a failure to keep one is a
toast, never fatal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from paris_tui.app.local.settings import load_settings, save_settings
from paris_tui.app.look.describe import printable
from paris_tui.app.look.glyphs import set_glyphs

from ..i18n import _, set_language

__all__ = ["choose_language", "redraw_words", "switch_glyphs"]


def redraw_words(app: App[Any]) -> None:
    """Every open screen shows its words again, in the current language."""
    for screen in app.screen_stack:
        changed = getattr(screen, "language_changed", None)
        if callable(changed):
            changed()
        screen.refresh_bindings()


def choose_language(app: App[Any], tag: str, redraw: Callable[[], None]) -> None:
    """Show every screen in language ``tag`` at once (``redraw``), and keep the choice.

    Each open screen shows its words again from what it holds (a game keeps
    its position, selection and log; a hand-off stays a hand-off).
    """
    set_language(tag)
    redraw()
    try:
        save_settings(load_settings().with_changes(language=tag))
    except OSError as exc:
        message = printable(
            _("The language is used but not saved: {problem}").format(problem=exc.strerror or exc)
        )
        app.notify(message, severity="warning", markup=False)


def switch_glyphs(app: App[Any], name: str, show: Callable[[], None]) -> None:
    """Draw with glyph set ``name`` from now on, at once (``show`` sets Textual's own
    drawing to it), and keep it in the settings."""
    from .screens.game import GameScreen

    set_glyphs(name)
    show()
    for screen in app.screen_stack:
        # Each screen draws what it holds again (as for a change of language).
        redraw = getattr(screen, "language_changed", None)
        if callable(redraw):
            redraw()
        elif isinstance(screen, GameScreen):
            screen.refresh_all()
        screen.refresh_bindings()  # the footer's keys
        for widget in screen.walk_children():
            widget.refresh()
    try:
        save_settings(load_settings().with_changes(glyphs=name))
    except OSError as exc:
        app.notify(
            _("Could not keep the glyph set: {problem}").format(problem=printable(str(exc))),
            severity="warning",
            markup=False,
        )
