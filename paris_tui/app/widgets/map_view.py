"""The board map the screens use (the map widget is ``board_map.py``)."""

from __future__ import annotations

from .board_map import BoardMap, MapOverlay

__all__ = ["BoardMap", "MapOverlay"]
