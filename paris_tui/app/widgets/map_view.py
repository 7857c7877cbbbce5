"""The board map the screens use (the map widget is ``board_map.py``), and what the game
screen marks on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board_map import BoardMap, MapOverlay

if TYPE_CHECKING:
    from paris_tui.app.look.frames import Frame

__all__ = ["BoardMap", "MapOverlay", "game_overlay", "stop_of"]


def stop_of(tile: str) -> str:
    """The stop a tile is for (its id up to the slash)."""
    return tile.split("/", 1)[0]


def game_overlay(frame: Frame | None, face_up: tuple[str, ...], active: int | None) -> MapOverlay:
    """The map's marks: a tour's frame while one shows, else the face-up tiles' stops and
    the highlighted one's."""
    if frame is not None:
        return MapOverlay(
            tour_line=frame.tour_line,
            bus_at=frame.bus_at,
            scoring=frame.scoring,
            small_tour_origin=frame.small_tour_origin,
        )
    face = tuple(dict.fromkeys(stop_of(t) for t in face_up))
    selected = stop_of(face_up[active]) if active is not None else None
    return MapOverlay(face_up=face, selected=selected)
