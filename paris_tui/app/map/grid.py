"""What a map layout is made of, without drawing it: the cells' kinds, a layout's grid,
the spots kept for scoring labels, and the overlay the game screen asks for.

A :class:`MapLayout` holds, for every cell of the map area, its glyph (plain and
heavy), what it is (:data:`EMPTY`, a :data:`LINE` track, a line :data:`LETTER`, a
stop's :data:`BRACKET` or business :data:`SLOT`, a stop :data:`NAME`, or a
:data:`JUNCTION` of two tracks) and which line or stop it belongs to. It is drawn
by :mod:`~paris_tui.app.map.canvas` and picked by :mod:`~paris_tui.app.map.layout`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

__all__ = [
    "BRACKET",
    "EMPTY",
    "JUNCTION",
    "LABEL_WIDTH",
    "LETTER",
    "LINE",
    "NAME",
    "SLOT",
    "Cell",
    "LabelSpot",
    "LayoutError",
    "MapLayout",
    "MapOverlay",
]


@dataclass(frozen=True)
class MapOverlay:
    """What the game screen wants shown on top of the board right now."""

    face_up: tuple[str, ...] = ()  # stop ids with a face-up tile this round: all marked
    selected: str | None = None  # stop id of the highlighted tile: lit up strongly
    tour_line: str | None = None  # line id of a grand/special tour in progress: emphasised
    bus_at: str | None = None  # stop id where the bus is right now (drawn as "▣")
    scoring: tuple[tuple[str, str], ...] = ()  # (stop id, short label like "+3")
    small_tour_origin: str | None = None  # the left-over tile's stop during a small tour


# cell kinds
EMPTY: Final = 0
LINE: Final = 1  # ref = line index
LETTER: Final = 2  # ref = line index
BRACKET: Final = 3  # ref = stop index
SLOT: Final = 4  # ref = stop index, aux = slot number
NAME: Final = 5  # ref = stop index
JUNCTION: Final = 6  # two lines cross off a stop; ref = line index (first)


Cell = tuple[int, int]  # (row, column)

LABEL_WIDTH: Final = 3
"""Cells kept for each stop's scoring label: "+18" at most (two owners at a crossing)."""


@dataclass(frozen=True, slots=True)
class LabelSpot:
    """Where a stop's scoring label goes: :data:`LABEL_WIDTH` cells from (row, col).

    Chosen so that a label reads as its stop's: it touches the stop's token or
    name (a shorter label keeps to the side that touches: ``right`` aligns it to
    the right), keeps at least one cell from every other stop's token and name
    and from every other label, and lies only on empty ground or plain track
    (never a name, a token, a line letter or a cell where the bus stops).
    """

    row: int
    col: int
    right: bool = False

    def cells(self, length: int = LABEL_WIDTH) -> list[Cell]:
        """The cells a label of ``length`` cells (at most :data:`LABEL_WIDTH`) takes."""
        length = min(length, LABEL_WIDTH)
        start = self.col + (LABEL_WIDTH - length if self.right else 0)
        return [(self.row, start + i) for i in range(length)]

    def apart(self, other: LabelSpot) -> bool:
        """Far enough from another spot not to read as one label: a free cell
        between them (a row or a column), two free columns on one row."""
        rows = abs(self.row - other.row)
        gap = abs(self.col - other.col) - LABEL_WIDTH
        return rows >= 2 or gap >= (1 if rows else 2)


class LayoutError(ValueError):
    """A hand-made layout does not fit together (overlapping cells)."""


@dataclass
class MapLayout:
    """A board drawn on a character grid: static glyphs plus what each cell shows."""

    name: str
    width: int
    height: int
    glyph: list[list[str]]
    heavy: list[list[str]]
    kind: list[list[int]]
    ref: list[list[int]]
    aux: list[list[int]]
    stop_cells: dict[int, list[tuple[int, int]]]  # token cells per stop (for hits)
    name_cells: dict[int, tuple[int, int, int]]  # stop -> (row, col, length)
    bus_spot: dict[int, tuple[int, int]]
    bus_on_line: dict[tuple[int, int], tuple[int, int]]  # (stop, line) -> track cell next to it
    label_spots: dict[int, LabelSpot]  # stop -> where its scoring label goes
    hits: dict[tuple[int, int], int]
    # (line, k) -> the cells of the track from the line's k-th stop to the next, in order
    tracks: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)
    notice: str = ""
    problems: list[str] = field(default_factory=list)
    row_stops: list[tuple[int, ...]] = field(default_factory=list)  # stops drawn in each row
    row_lines: list[tuple[int, ...]] = field(default_factory=list)  # lines drawn in each row

    def __post_init__(self) -> None:
        for y in range(self.height):
            stops: set[int] = set()
            lines: set[int] = set()
            for x in range(self.width):
                kind = self.kind[y][x]
                if kind in (BRACKET, SLOT, NAME):
                    stops.add(self.ref[y][x])
                elif kind in (LINE, LETTER):
                    lines.add(self.ref[y][x])
                elif kind == JUNCTION:
                    lines.update((self.ref[y][x], self.aux[y][x]))
            self.row_stops.append(tuple(sorted(stops)))
            self.row_lines.append(tuple(sorted(lines)))
