"""The board map the screens use: the real widget when it is there, else a stand-in."""

from __future__ import annotations

try:
    from .board_map import BoardMap, MapOverlay
except ImportError:  # the map widget is being built in parallel
    from .map_fallback import BoardMap, MapOverlay  # type: ignore[assignment]

__all__ = ["BoardMap", "MapOverlay"]
