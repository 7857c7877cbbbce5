"""Quick match: "Play now" in the lobby (key ``p``).

:class:`QuickMatchScreen` asks how many players (2, 3 or 4; ← → or the
digit) and dismisses with it; :func:`quick_request` is what the lobby then
sends: a seat at the fullest table of that size waiting for players
(:func:`~paris_tui.net.turns.quick_match`, preferring players of a near
rating when the lobby is given a rating lookup), or a new table of that
size with open seats.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Static

from ...i18n import N_, _
from ...net.protocol import Join, OpenTable, TableInfo
from ...net.turns import RatingLookup, quick_match, quick_seats
from ..widgets.footer import KeysFooter
from .base import ParisScreen
from .lobby.cycler import Cycler

__all__ = ["QuickMatchScreen", "quick_request"]


def quick_request(
    tables: Iterable[TableInfo],
    size: int,
    name: str,
    rating: RatingLookup | None = None,
    token: str | None = None,
) -> Join | OpenTable:
    """A seat at the fullest waiting table of ``size`` seats, else a new one."""
    table = quick_match(tables, size, name, rating)
    if table is not None:
        return Join(name, token, table)
    return OpenTable(name, quick_seats(size), token=token)


class QuickMatchScreen(ParisScreen):
    """How many players: dismisses with 2, 3 or 4, or ``None`` (Esc)."""

    DEFAULT_CSS = """
    QuickMatchScreen #quick-form { padding: 0 2; }
    QuickMatchScreen #quick-title { text-style: bold; margin: 1 0; }
    QuickMatchScreen .form-row { height: 1; margin-bottom: 1; }
    QuickMatchScreen .form-label { width: 17; }
    QuickMatchScreen .cycler { width: 30; padding: 0 1; }
    QuickMatchScreen .cycler:focus { background: $boost; text-style: bold; }
    QuickMatchScreen #quick-help { color: $text-muted; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", N_("Play now")),
        Binding("2", "size(2)", "2", show=False),
        Binding("3", "size(3)", "3", show=False),
        Binding("4", "size(4)", "4", show=False),
        Binding("escape", "back", N_("Back")),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="quick-form"):
            yield Static(Text(_("Play now")), id="quick-title")
            with Horizontal(classes="form-row"):
                yield Label(_("Players"), classes="form-label")
                yield Cycler([(str(n), str(n)) for n in (2, 3, 4)], id="quick-size")
            yield Static(
                Text(
                    _(
                        "You sit at the fullest table of that size waiting for players, or "
                        "a new one opens for others to join. Enter plays, Esc goes back."
                    )
                ),
                id="quick-help",
            )
        yield KeysFooter()

    def on_mount(self) -> None:
        # (Textual calls ParisScreen.on_mount after this one: each class's handler in the MRO.)
        self.query_one("#quick-size").focus()

    def action_size(self, size: int) -> None:
        self.dismiss(size)

    def action_play(self) -> None:
        self.dismiss(int(self.query_one("#quick-size", Cycler).value))

    def action_back(self) -> None:
        self.dismiss(None)
