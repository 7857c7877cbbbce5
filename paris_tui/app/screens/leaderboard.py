"""The host's leaderboard: its best ratings, from the lobby's ``l``.

The rows come with the lobby's table list (the ``leaderboard`` of the host's
:class:`~paris_tui.net.protocol.Tables`): each account's name (outside text,
drawn through :class:`rich.text.Text` after :func:`~paris_tui.core.printable`),
its shown rating (the conservative estimate ``mu - 3 sigma`` of openskill's
Plackett-Luce model: 0 for a newcomer, rising as rated games show more) and
its rated games. A rating of fewer than
:data:`~paris_tui.net.ratings_wire.PROVISIONAL_GAMES` rated games is
provisional: ``?`` in place of its number. Enter on a row opens that player's
page (:mod:`~paris_tui.app.screens.player_page`), when the lobby gives a way to.
"""

from __future__ import annotations

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
from ...net.protocol import Leader
from ...net.ratings_wire import PROVISIONAL_GAMES, is_provisional
from .base import TranslatedBindings

__all__ = ["PROVISIONAL_MARK", "LeaderboardScreen", "rated_text", "rating_text"]

PROVISIONAL_MARK = "?"
"""A provisional rating, in place of its number (docs/ratings.md)."""


def rating_text(tenths: int) -> str:
    """A shown rating as the screens write it: one decimal (``12.3``, ``-0.4``)."""
    sign = "-" if tenths < 0 else ""
    return f"{sign}{abs(tenths) // 10}.{abs(tenths) % 10}"


def rated_text(tenths: int, provisional: bool) -> str:
    """:func:`rating_text`, or :data:`PROVISIONAL_MARK` for a provisional rating (fewer
    rated games than :data:`~paris_tui.net.ratings_wire.PROVISIONAL_GAMES`): no number
    that one game moved far, no negative number after a first loss."""
    return PROVISIONAL_MARK if provisional else rating_text(tenths)


class LeaderboardScreen(TranslatedBindings, ModalScreen[None]):
    """The leaderboard the host sent last; Esc closes it."""

    DEFAULT_CSS = """
    LeaderboardScreen { align: center middle; background: $background 60%; }
    #leaderboard-box {
        width: 64; height: auto; max-height: 90%; padding: 1 2;
        border: heavy $accent; background: $panel;
    }
    #leaderboard-box > Static { margin-bottom: 1; }
    #leaderboard-grid { height: auto; max-height: 24; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "player", N_("Player's page")),
        Binding("escape,l,q", "close", N_("Close")),
    ]

    def __init__(
        self,
        rows: tuple[Leader, ...],
        me: str | None = None,
        open_player: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__()
        self.rows = rows
        self.me = me
        self.open_player = open_player

    def compose(self) -> ComposeResult:
        with Vertical(id="leaderboard-box"):
            yield Static(Text(_("Leaderboard of this host"), style="bold"))
            yield Static(
                Text(
                    _(
                        "Rating: the conservative estimate mu − 3σ (openskill, Plackett-Luce), "
                        "0 for a newcomer. Only games between accounts played to the end "
                        "count."
                    )
                    + " "
                    + _("? : provisional, fewer than {n} rated games.").format(n=PROVISIONAL_GAMES)
                ),
                id="leaderboard-about",
            )
            if not self.rows:
                yield Static(Text(_("No rated games yet.")), id="leaderboard-empty")
                return
            grid: DataTable[Text] = DataTable(id="leaderboard-grid", cursor_type="row")
            grid.add_column(Text("#"), width=3)
            grid.add_column(Text(_("Player")), width=26)
            grid.add_column(Text(_("Rating")), width=8)
            grid.add_column(Text(_("Games")), width=12)
            me = None if self.me is None else self.me.casefold()
            for place, row in enumerate(self.rows, 1):
                name = Text(printable(row.name))
                if me is not None and row.name.casefold() == me:
                    name.stylize("bold underline")
                games = ngettext("{n} game", "{n} games", row.games).format(n=row.games)
                shown = rated_text(row.rating, is_provisional(row.games))
                grid.add_row(Text(str(place)), name, Text(shown), Text(games))
            yield grid

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_player()

    def action_player(self) -> None:
        """The page of the player on the row the cursor is on."""
        grids = self.query("#leaderboard-grid").results(DataTable)
        grid = next(grids, None)
        if grid is None or self.open_player is None:
            return
        if 0 <= grid.cursor_row < len(self.rows):
            self.open_player(self.rows[grid.cursor_row].name)

    def action_close(self) -> None:
        self.dismiss(None)
