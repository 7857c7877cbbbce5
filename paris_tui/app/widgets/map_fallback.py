"""A stand-in for the board map while ``board_map.py`` is not there (same API)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from ...core import SeatView
from ..describe import stop_name
from ..palette import player_style


@dataclass(frozen=True)
class MapOverlay:
    face_up: tuple[str, ...] = ()
    selected: str | None = None
    tour_line: str | None = None
    bus_at: str | None = None
    scoring: tuple[tuple[str, str], ...] = ()
    small_tour_origin: str | None = None


class BoardMap(Static):
    """Lists the stops with their businesses; marks face-up and selected stops."""

    class StopClicked(Message):
        def __init__(self, stop: str) -> None:
            super().__init__()
            self.stop = stop  # type: ignore[method-assign,assignment]

    def update_map(self, view: SeatView, overlay: MapOverlay = MapOverlay()) -> None:
        board = view.board
        text = Text()
        scoring = dict(overlay.scoring)
        for line in board.lines:
            text.append(f"{line.letter}: ", style="bold")
            for i, s in enumerate(line.stops):
                sid = board.stop_ids[s]
                mark = "*" if sid in overlay.face_up else ""
                if sid == overlay.selected:
                    mark = ">"
                owners = "".join(player_style(p).symbol for p in view.businesses_at(s))
                bus = "BUS " if sid == overlay.bus_at else ""
                extra = f" {scoring[sid]}" if sid in scoring else ""
                text.append(f"{mark}{bus}{stop_name(board, sid)[:6]}{owners}{extra}")
                if i < len(line.stops) - 1:
                    text.append("-")
            text.append("\n")
        self.update(text)
