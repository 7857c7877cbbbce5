"""The table: the map beside the side panels, shared by the game and replay screens."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from .map_view import BoardMap
from .panels import DiscardPanel, PlayersPanel, RoutePanel, TilePanel

__all__ = ["compose_table"]


def compose_table(status: Widget) -> ComposeResult:
    """Map on the left; on the right ``status``, then players, route, tiles and discard."""
    with Horizontal(id="main"):
        yield BoardMap(id="map")
        with Vertical(id="side"):
            yield status
            yield PlayersPanel("", id="players")
            yield RoutePanel("", id="route")
            yield TilePanel(id="tiles")
            yield DiscardPanel("", id="discard")
