"""The command palette (Ctrl+P): Textual's own, guarded against key races that crash it.

Textual 8.2.8, reproduced in ``tests/app/test_keymash.py`` (keys queued at once):

- Ctrl+P and then PageUp or PageDown within about 50 ms raise ``KeyError`` in
  ``OptionList._move_page``. The palette's ``CommandList`` (an ``OptionList``)
  has no size yet, and ``OptionList._update_lines`` returns early on an empty
  region (the behaviour behind Textualize/textual#5794), so the line index
  ``_move_page`` looks the highlighted option up in is empty. No upstream
  report names the palette (the same crash in a ``Select``:
  kagan-sh/kagan-legacy#31).
- ``NoMatches: 'CommandList'``: a key queued for the palette reached it after it
  was dismissed and its children were gone.
- ``DuplicateIds: '--command-palette'``: a second Ctrl+P before the first
  palette became the active screen pushed a second one (``App.action_command_palette``
  checks only the active screen); guarded in ``ParisApp.action_command_palette``.

:class:`SafeCommandPalette` only skips those actions while the list cannot
take them; everything else is Textual's.
"""

from __future__ import annotations

from textual.command import CommandList, CommandPalette
from textual.css.query import NoMatches

__all__ = ["SafeCommandPalette"]

_PAGING = frozenset({"page_up", "page_down"})


class SafeCommandPalette(CommandPalette):
    """:class:`CommandPalette` whose list actions wait until the list can take them."""

    def _command_list(self) -> CommandList | None:
        try:
            return self.query_one(CommandList)
        except NoMatches:  # dismissed while a key for it was still queued
            return None

    def _action_command_list(self, action: str) -> None:
        commands = self._command_list()
        if commands is None:
            return
        if action in _PAGING:
            highlighted = commands.highlighted
            laid_out = bool(commands.scrollable_content_region)
            if not laid_out or (highlighted is not None and highlighted >= commands.option_count):
                return  # nothing on screen to page through yet (the KeyError above)
        super()._action_command_list(action)

    def _action_cursor_down(self) -> None:
        if self._command_list() is not None:
            super()._action_cursor_down()
