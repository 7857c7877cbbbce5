"""The footer of every screen: Textual's, rebuilt only when its keys change, and once.

Textual 8.2.8's :class:`~textual.widgets.Footer` rebuilds its keys (removes
them, makes and mounts new ones, lays the screen out again) each time the
screen says its bindings may have changed: three times as a game screen
starts, for the same keys. And each new ``FooterKey`` starts compact (its
own default), takes the class ``-compact`` as it is mounted and gives it up
a moment later, when it takes the footer's setting (not compact at 110
columns and more): two restylings of each key every time.

:class:`KeysFooter` is that footer, with two differences only in the work
done: it rebuilds its keys only when what they show would change (the keys
on offer, their words, whether each is enabled, how the key is written: the
glyph set's), and it gives each new key the footer's setting and class
before it is mounted, so that it is styled once. The keys are Textual's and
end up exactly as Textual leaves them (the command palette's key, which
Textual does not bind to the footer's setting, is left as Textual makes
it). ``FooterKey`` is imported from Textual's private module
``textual.widgets._footer`` (it is not exported): debt, checked by
tests/app/test_footer.py against Textual's own footer.
"""

from __future__ import annotations

import asyncio

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

__all__ = ["KeysFooter"]

_PALETTE_KEY = "-command-palette"
"""The class of the command palette's key: the one Textual does not bind to ``compact``."""


class KeysFooter(Footer):
    """Textual's footer, rebuilt only when its keys change, each key styled once."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._shown: tuple[object, ...] | None = None  # what the keys show (None: none yet)
        self.recomposed = 0  # how many times the keys were made (tests)

    def _keys_shown(self) -> tuple[object, ...]:
        """Everything the footer's keys show, in order (what a rebuild would show)."""
        app = self.app
        return (
            self.show_command_palette,
            app.ENABLE_COMMAND_PALETTE,
            tuple(
                (
                    key,
                    binding.key,
                    binding.action,
                    binding.description,
                    binding.show,
                    None if binding.group is None else binding.group.description,
                    None if binding.group is None else binding.group.compact,
                    enabled,
                    tooltip,
                    binding.tooltip,
                    app.get_key_display(binding),
                )
                for key, (_node, binding, enabled, tooltip) in self.screen.active_bindings.items()
            ),
        )

    async def recompose(self) -> None:
        """Rebuild the keys, unless they would show what they show already."""
        if self._shown is not None and self.is_attached and self._keys_shown() == self._shown:
            return
        await super().recompose()

    async def show_keys(self) -> None:
        """Make the keys now, and wait until they are mounted: the screen has set what
        its keys depend on (ParisScreen's ``on_mount``, its last), so they are in its
        first frame. Textual's footer makes them once the screen's bindings signal has
        come, after the first frame: the screen laid out and drawn again for them.

        Called from the screen's handler; the keys are made in the footer's own turn
        (Textual binds each key's ``compact`` to the footer that composes it)."""
        if not self.is_running:
            return
        made = asyncio.Event()

        async def make() -> None:
            try:
                self.set_reactive(Footer._bindings_ready, True)  # Textual's flag (private)
                await self.recompose()
            finally:
                made.set()

        self.call_next(make)
        await made.wait()

    def compose(self) -> ComposeResult:
        compact = self.compact
        made = False
        for widget in super().compose():
            made = True
            if isinstance(widget, FooterKey) and not widget.has_class(_PALETTE_KEY):
                _settle(widget, compact)
            yield widget
        # Nothing made: Textual's footer waits for the screen's first bindings.
        self._shown = self._keys_shown() if made else None
        if made:
            self.recomposed += 1


def _settle(key: Widget, compact: bool) -> None:
    key.set_reactive(FooterKey.compact, compact)
    key.set_class(compact, "-compact", update=False)
