"""What every full screen of the app shares: the "please enlarge the terminal" notice,
and key descriptions in the current language.

Bindings are class attributes, made at import: their descriptions are marked
with ``N_`` and translated here, each time the footer asks
(:attr:`Screen.active_bindings`), so a change of language shows at once.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rich.text import Text
from textual import events, on
from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widgets import Static

from paris_tui.app.start.resources import later_css_paths

from ...i18n import _, shown_marked
from ..widgets.footer import KeysFooter

__all__ = [
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "ComposedAgain",
    "ParisScreen",
    "TooSmallNotice",
    "TranslatedBindings",
    "translated_bindings",
]

MIN_WIDTH = 80
MIN_HEIGHT = 24


def translated_bindings(bindings: dict[str, ActiveBinding]) -> dict[str, ActiveBinding]:
    """``bindings`` with each description (marked ``N_`` or ``NP_``) in the current language."""
    out: dict[str, ActiveBinding] = {}
    for key, active in bindings.items():
        binding = active.binding
        if binding.description:
            binding = dataclasses.replace(binding, description=shown_marked(binding.description))
        out[key] = active._replace(binding=binding)
    return out


class TranslatedBindings(Screen[Any]):
    """A screen of the app: its footer shows its keys' descriptions in the current
    language, and Textual reads the stylesheets the first frame did without before it
    shows it, if the app has not read them yet (ParisApp.load_styles)."""

    CSS_PATH = later_css_paths()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return translated_bindings(super().active_bindings)


class ComposedAgain(Screen[Any]):
    """A dialog that holds nothing but its arguments: a change of language composes it again
    (the focused button keeps the focus)."""

    def language_changed(self) -> None:
        focused = self.focused.id if self.focused is not None else None

        async def again() -> None:
            await self.recompose()
            if focused is not None:
                for widget in self.query(f"#{focused}"):
                    widget.focus()

        self.call_later(again)


class TooSmallNotice(Static):
    """Covers the screen while the terminal is below 80x24."""


COMPACT_FOOTER_BELOW = 110
"""Columns: the app's ``-narrow`` layout, where footers go compact."""


class ParisScreen(TranslatedBindings):
    """A screen that shows a clear notice instead of a squashed layout when too small.

    Dialogs take it as a first base too (``class D(ParisScreen, ModalScreen[T])``),
    so the notice covers whatever screen is on top.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._take_breakpoints()

    def _take_breakpoints(self) -> None:
        """The breakpoint classes (``-narrow``, ``-wide``, ``-short``, ``-tall``) of the
        app's size now, before the screen is styled. Textual 8.2.8 gives a screen its
        classes at its first Resize, after it was composed and styled: a second styling
        of every widget on it, as it is about to be shown; that Resize then changes
        nothing (the same rule as Textual's ``Screen._on_resize``)."""
        try:
            app = self.app
        except RuntimeError:  # Textual's NoActiveAppError: made outside an app (a test)
            return
        horizontal = (
            app.HORIZONTAL_BREAKPOINTS
            if self.HORIZONTAL_BREAKPOINTS is None
            else self.HORIZONTAL_BREAKPOINTS
        ) or []
        vertical = (
            app.VERTICAL_BREAKPOINTS
            if self.VERTICAL_BREAKPOINTS is None
            else self.VERTICAL_BREAKPOINTS
        ) or []
        width, height = app.size
        classes = {name: False for _at, name in (*horizontal, *vertical)}
        for dimension, breakpoints in ((width, horizontal), (height, vertical)):
            for at, name in sorted(breakpoints, reverse=True):
                if dimension >= at:
                    classes[name] = True
                    break
        self.update_classes(classes, update=False)

    def on_mount(self) -> None:
        self._check_size(self.app.size.width, self.app.size.height)

    @on(events.Mount)
    async def _keys_in_first_frame(self) -> None:
        # After a subclass's mount handler (Textual calls each class's in the MRO, a
        # subclass's first): what the screen's keys depend on is set, so the footer can
        # show them in the first frame.
        for footer in self.query(KeysFooter):
            await footer.show_keys()

    def on_screen_resume(self) -> None:
        # It may have been hidden under another screen while the terminal was resized.
        self._check_size(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _fit_footer(self, width: int) -> None:
        """Below :data:`COMPACT_FOOTER_BELOW` columns the footer's keys sit closer (so
        that every key of the game's and the lobby's footers fits at 80, in each
        language)."""
        from textual.widgets import Footer

        for footer in self.query(Footer):
            footer.compact = width < COMPACT_FOOTER_BELOW

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        if small and not self.query(TooSmallNotice):
            self.mount(TooSmallNotice("", id="too-small"))  # only once it is needed
        self.set_class(small, "-too-small")
        for notice in self.query(TooSmallNotice):
            notice.update(
                Text(
                    _(
                        "Please enlarge the terminal\n\nParis Paris needs at least "
                        "{min_width}×{min_height}; this one is {width}×{height}.\n\n"
                        "Nothing is lost: the game waits."
                    ).format(min_width=MIN_WIDTH, min_height=MIN_HEIGHT, width=width, height=height)
                )
            )
