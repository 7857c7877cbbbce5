"""Public-information analysis for players: what a left-over tile would do.

The rulebook's tactical advice ("pay close attention to which tile will be
the one left over") made computable from a seat's view, so the app can show
it and the AI can use it. Computed by the engine itself on the public
position, never by a second copy of the scoring rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from .events import Event, ScoreEvent, TourEvent
from .sampling import Determinizer
from .view import SeatView

__all__ = ["LeftoverPreview", "leftover_preview", "leftover_previews"]


@dataclass(frozen=True, slots=True)
class LeftoverPreview:
    """If ``tile`` were left over now: points per seat and whether a grand tour runs."""

    tile: str
    small_tour: tuple[int, ...]
    grand_tour_line: str | None
    grand_tour: tuple[int, ...]
    events: tuple[Event, ...]

    @property
    def triggers_grand_tour(self) -> bool:
        return self.grand_tour_line is not None

    def summary(self, names: tuple[str, ...]) -> str:
        """One line, e.g. ``small tour: Ann +1, Bob +2 · grand tour (Blue line): Ann +3``."""

        def points(values: tuple[int, ...]) -> str:
            parts = [f"{names[p]} +{v}" for p, v in enumerate(values) if v]
            return ", ".join(parts) if parts else "nobody scores"

        text = f"small tour: {points(self.small_tour)}"
        if self.grand_tour_line is not None:
            text += f" · grand tour ({self.grand_tour_line}): {points(self.grand_tour)}"
        return text


def leftover_previews(view: SeatView) -> dict[str, LeftoverPreview]:
    """The preview of every face-up tile of the view's round (keyed by tile name)."""
    if view.is_over:
        return {}
    game = Determinizer(view).base
    out: dict[str, LeftoverPreview] = {}
    for tile in dict.fromkeys(view.face_up):
        events = game.leftover_events(tile)
        small = [0] * view.players
        grand = [0] * view.players
        line: str | None = None
        for event in events:
            if isinstance(event, TourEvent) and event.kind == "grand_tour":
                line = event.line
            elif isinstance(event, ScoreEvent):
                (grand if event.kind == "grand_tour" else small)[event.seat] += event.points
        line_name = None
        if line is not None:
            line_name = view.board.lines[view.board.line_index[line]].name
        out[tile] = LeftoverPreview(tile, tuple(small), line_name, tuple(grand), tuple(events))
    return out


def leftover_preview(view: SeatView, tile: str) -> LeftoverPreview:
    """The preview of one face-up tile."""
    previews = leftover_previews(view)
    if tile not in previews:
        raise ValueError(f"{tile} is not face up")
    return previews[tile]
