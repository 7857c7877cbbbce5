"""The command palette (Ctrl+P): the app's commands in it, the language and theme
palettes, and Textual's palette guarded against key races that crash it.

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

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, Protocol, cast

from textual.app import App, SystemCommand
from textual.command import (
    CommandList,
    CommandListItem,
    CommandPalette,
    SimpleCommand,
    SimpleProvider,
)
from textual.css.query import NoMatches

from paris_tui.app.look.glyphs import current_glyphs

from ..i18n import LANGUAGE_NAMES, LANGUAGES, _, current_language
from ..net.table import RemoteTable

__all__ = [
    "PaletteApp",
    "SafeCommandPalette",
    "language_palette",
    "open_palette",
    "system_commands",
    "theme_palette",
]

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


class PaletteApp(Protocol):
    """What the palette's commands ask of the app (:class:`~paris_tui.app.app.ParisApp`)."""

    @property
    def link(self) -> object | None: ...
    @property
    def lobby(self) -> object | None: ...
    @property
    def home(self) -> object | None: ...

    def action_new_game(self) -> None: ...
    def action_help(self) -> None: ...
    def action_account(self) -> None: ...
    def action_statistics(self) -> None: ...
    def action_toggle_preview(self) -> None: ...
    def action_hide_route(self) -> None: ...
    def action_toggle_theme(self) -> None: ...
    def action_change_theme(self) -> None: ...
    def action_choose_language(self) -> None: ...
    def switch_glyphs(self, name: str) -> None: ...
    def action_save_copy(self) -> None: ...
    def action_quit(self) -> Any: ...
    def action_lobby(self) -> None: ...


def open_palette(app: App[Any]) -> None:
    """Textual's palette, guarded against key races (see above).

    Textual checks only the active screen for an open palette; a second Ctrl+P
    before the first palette is active pushed a second one (``DuplicateIds``).
    """
    if app.use_command_palette and not any(
        isinstance(screen, CommandPalette) for screen in app.screen_stack
    ):
        app.push_screen(
            SafeCommandPalette(id="--command-palette", placeholder=_("Search for commands…"))
        )


def theme_palette(app: App[Any]) -> None:
    """Textual's theme search, guarded like the palette, its placeholder in our words."""
    from textual.theme import ThemeProvider

    app.push_screen(
        SafeCommandPalette(providers=[ThemeProvider], placeholder=_("Search for themes…"))
    )


def language_palette(app: App[Any], choose: Callable[[str], None]) -> None:
    """A palette of the languages, each named in itself (``Deutsch``, ``繁體中文``)."""
    commands: list[CommandListItem] = [
        SimpleCommand(LANGUAGE_NAMES[tag], partial(choose, tag)) for tag in LANGUAGES
    ]
    # An instance, as App.search_commands passes it (Textual's annotation wants a class).
    provider = cast(Any, SimpleProvider(app.screen, commands))
    app.push_screen(SafeCommandPalette(providers=[provider], placeholder=_("Choose a language…")))


def system_commands(app: PaletteApp) -> Iterable[SystemCommand]:
    """The app's commands in the palette (a host's table has no new game, no copy)."""
    if app.link is None and app.lobby is None:
        yield SystemCommand(
            _("New game"), _("Set up a new game (this one stays saved)"), app.action_new_game
        )
    yield SystemCommand(_("Help"), _("Rules in brief and keys"), app.action_help)
    if app.home is not None and app.link is not None:
        yield SystemCommand(
            _("Lobby"),
            _("Back to the host's lobby (q); your seat is kept: Enter on its table sits again"),
            app.action_lobby,
        )
    if app.link is not None or app.lobby is not None:
        yield SystemCommand(
            _("Account"),
            _("Your account on this host: link another door (a code, an SSH key)"),
            app.action_account,
        )
    yield from _resign_command(app)
    yield from _abort_command(app)
    yield SystemCommand(
        _("Statistics"),
        _("Your finished games: wins, points by source, the last game, the trend"),
        app.action_statistics,
    )
    yield SystemCommand(
        _("Toggle left-over preview"),
        _("Show or hide what the highlighted tile does if it is left over"),
        app.action_toggle_preview,
    )
    yield SystemCommand(_("Hide route"), _("Hide or show your route marker"), app.action_hide_route)
    yield SystemCommand(
        _("Toggle light/dark theme"),
        _("Switch between the light and dark themes"),
        app.action_toggle_theme,
    )
    yield SystemCommand(_("Theme"), _("Choose any theme"), app.action_change_theme)
    # Named in English too in other languages: whoever cannot read them finds it.
    yield SystemCommand(
        _("Language") if current_language() == "en" else f"{_('Language')} (Language)",
        _("Choose the language of the game"),
        app.action_choose_language,
    )
    other = "unicode" if current_glyphs().is_ascii else "ascii"
    yield SystemCommand(
        # Translators: {glyphs} is "unicode" or "ascii" (not translated).
        _("Glyphs: {glyphs}").format(glyphs=other),
        _("Draw the map and panels with {glyphs} characters (kept for next time)").format(
            glyphs=other
        ),
        lambda: app.switch_glyphs(other),
    )
    if app.link is None and app.lobby is None:
        yield SystemCommand(
            _("Save a copy"), _("Save a copy of this game's record"), app.action_save_copy
        )
    yield SystemCommand(_("Quit"), _("Quit (the game is saved after every move)"), app.action_quit)


def _resign_command(app: PaletteApp) -> Iterable[SystemCommand]:
    """Resign, at a host's table whose game runs, for its seat (protocol 5)."""
    table = getattr(app.link, "table", None)
    if not isinstance(table, RemoteTable) or not table.agree_allowed:
        return
    said = table.agreements.get("resign")
    seats = table.local_seats
    if table.view(None).is_over or (said is not None and seats and seats[0] in said.seats):
        return
    yield SystemCommand(
        _("Resign"),
        _("Give this game up: the AI plays your seat to the end, you are ranked last"),
        lambda: table.agree("resign"),
    )


def _abort_command(app: PaletteApp) -> Iterable[SystemCommand]:
    """Propose (or agree to) an abort at a host's table whose game runs; once it is
    proposed and this seat agreed, taking the word back declines it (protocol 5)."""
    table = getattr(app.link, "table", None)
    if not isinstance(table, RemoteTable) or not table.agree_allowed:
        return
    said = table.agreements.get("abort")
    seats = table.local_seats
    if table.view(None).is_over or (said is not None and said.to is not None) or not seats:
        return
    if said is not None and said.seats and seats[0] in said.seats:
        yield SystemCommand(
            _("Decline abort"),
            _("Take your word back: the proposal to abort is gone, the game goes on"),
            lambda: table.agree("abort", False),
        )
        return
    if said is not None and said.seats:
        yield SystemCommand(
            _("Agree to abort"),
            _("End this game now, unrated, with no winner, as proposed"),
            lambda: table.agree("abort"),
        )
        yield SystemCommand(
            _("Decline abort"),
            _("Say no: the proposal to abort is gone, the game goes on"),
            lambda: table.agree("abort", False),
        )
        return
    yield SystemCommand(
        _("Propose abort"),
        _("Ask every player to end this game now: unrated, no winner, once all agree"),
        lambda: table.agree("abort"),
    )
