"""A player's page, from the lobby (Enter on a leaderboard row or on a name in the
list of who is online): their rating now and over time (a row of bars, then the
numbers), games and wins, and their recent finished games; Enter on a game
replays it (the lobby asks the host for its public record, as the finished
games' list does).

The lobby asks the host for that player's games (``list_games`` naming the
``player``) and hands the answer here (:meth:`PlayerScreen.show`); the words are
:mod:`~paris_tui.app.look.player_words`'s. Names are outside text, drawn through
:class:`rich.text.Text` after :func:`~paris_tui.core.printable`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ...core import printable
from ...i18n import N_, _, ngettext
from ...net.protocol import FinishedGame
from ..look.glyphs import current_glyphs
from ..look.player_words import player_record, rating_now_line, sparkline, tenths_text
from .base import TranslatedBindings

__all__ = ["PlayerScreen"]


class PlayerScreen(TranslatedBindings, ModalScreen[None]):
    """One player's page; ``open_game`` asks the lobby to replay a table's game."""

    DEFAULT_CSS = """
    PlayerScreen { align: center middle; background: $background 60%; }
    #player-box {
        width: 76; height: auto; max-height: 100%; padding: 0 2;
        border: heavy $accent; background: $panel;
    }
    #player-box > Static { margin-bottom: 1; }
    #player-grid { height: auto; max-height: 10; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Replay")),
        Binding("escape,q", "close", N_("Close")),
    ]

    def __init__(self, name: str, open_game: Callable[[str], None]) -> None:
        super().__init__()
        self.player = name
        self.open_game = open_game
        self.games: tuple[FinishedGame, ...] = ()

    def compose(self) -> ComposeResult:
        with Vertical(id="player-box"):
            yield Static(Text(printable(self.player), style="bold"), id="player-title")
            yield Static(Text(_("Asking the host…")), id="player-summary")
            grid: DataTable[Text] = DataTable(id="player-grid", cursor_type="row")
            grid.add_column(Text(_("Table")), width=5)
            grid.add_column(Text(_("Players and scores")), width=42)
            grid.add_column(Text(_("Ended")), width=16)
            yield grid

    def show(self, games: tuple[FinishedGame, ...]) -> None:
        """The host's answer (only this player's games are kept)."""
        record = player_record(self.player, games)
        self.games = record.games
        n = len(record.games)
        summary = Text(
            ngettext("{n} finished game, {wins} won.", "{n} finished games, {wins} won.", n).format(
                n=n, wins=record.wins
            )
            + "\n"
            + rating_now_line(record)
        )
        if len(record.ratings) >= 2 and not record.provisional:
            ascii_only = current_glyphs().name == "ascii"
            summary.append("\n" + _("Rating over time:") + " ")
            summary.append(sparkline(record.ratings, 30, ascii_only=ascii_only), style="cyan")
            low, high = min(record.ratings), max(record.ratings)
            summary.append(f" ({tenths_text(low)} … {tenths_text(high)})", style="dim")
        if not n:
            summary.append("\n" + _("No finished games on this host yet."))
        else:
            summary.append("\n" + _("Enter replays a game, Esc goes back."), style="dim")
        self.query_one("#player-summary", Static).update(summary)
        grid = self.query_one("#player-grid", DataTable)
        grid.clear()
        key = self.player.casefold()
        for game in record.games:
            players = Text(", ").join(self._seat_text(game, i, key) for i in range(len(game.names)))
            if game.aborted:
                players.append(_(" (aborted)"), style="dim")
            elif not game.rated:
                players.append(_(" (unrated)"), style="dim")
            ended = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.finished))
            grid.add_row(Text(game.table), players, Text(ended), key=game.table)
        grid.focus()

    @staticmethod
    def _seat_text(game: FinishedGame, seat: int, key: str) -> Text:
        name = game.names[seat]
        text = Text(printable(name), style="underline" if name.casefold() == key else "")
        if seat < len(game.scores):
            text.append(f" {game.scores[seat]}")
        if seat < len(game.places) and game.places[seat] == 1:
            text.append(" " + current_glyphs().star, style="bold yellow")
        return text

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        grid = self.query_one("#player-grid", DataTable)
        if self.games and 0 <= grid.cursor_row < len(self.games):
            self.open_game(self.games[grid.cursor_row].table)

    def action_close(self) -> None:
        self.dismiss(None)
