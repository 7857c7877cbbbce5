"""The map of Paris as a grid of cells: layouts, no Textual.

A :class:`MapLayout` is the board drawn once on a character grid for a map
area of a given size: for every cell its glyph (plain and heavy), what it is
(:data:`EMPTY`, a :data:`LINE` track, a line :data:`LETTER`, a stop's
:data:`BRACKET` or business :data:`SLOT`, a stop :data:`NAME`, or a
:data:`JUNCTION` of two tracks) and which line or stop it belongs to, plus
where each stop's token and name are and where the bus and scoring labels go.
The widget (:mod:`paris_tui.app.widgets.board_map`) styles these cells per
update; tests check them here without an app::

    layout = build_layout(classic_board(), 54, 18)   # the compact layout
    print(layout_text(layout))
    label_cells(layout, board, (("opera", "+3"),))   # {(row, col): "+", ...}

Layouts (picked by the map area's size)
---------------------------------------
The first that fits wins:

* ``comfortable``: hand-made, 76 x 25 cells, full names, roomy (from 76 x 25,
  e.g. the ~80 x 30 the game screen gives it in a 120 x 40 terminal);
* ``wide``: hand-made, 78 x 16 cells, full names on the compact plan (from
  78 x 16, e.g. a wide but short area such as 80 x 18);
* ``compact``: hand-made, 50 x 16 cells, 3-5 letter names (from 50 x 16,
  e.g. the 54 x 19 in an 80 x 24 terminal);
* ``generic``: placed from the board file's schematic ``xy``, for boards
  other than the classic one (names shortened or left out where they collide);
* ``notice``: a one-line notice when nothing fits (down to 1 x 1).

The hand-made layouts are data (:mod:`paris_tui.app.map.classic`, notation in
:class:`~paris_tui.app.map.spec.LayoutSpec`); :func:`compile_spec` draws one
and, strict, raises :class:`LayoutError` on any collision.
``python -m paris_tui.app.map.layout`` prints them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import Final

from paris_tui.app.look.glyphs import Glyphs, glyphs_for

from ...core.board import Board, classic_board
from ...i18n import _
from .classic import LAYOUTS, SHORT_NAMES
from .spec import LayoutSpec

__all__ = [
    "BRACKET",
    "EMPTY",
    "JUNCTION",
    "LABEL_WIDTH",
    "LAYOUTS",
    "LETTER",
    "LINE",
    "NAME",
    "SHORT_NAMES",
    "SLOT",
    "Cell",
    "LabelSpot",
    "LayoutError",
    "LayoutSpec",
    "MapLayout",
    "MapOverlay",
    "build_layout",
    "bus_cell",
    "compile_spec",
    "generic_layout",
    "label_cells",
    "layout_text",
    "notice_layout",
    "prepare_layouts",
    "short_name",
]


# --------------------------------------------------------------------------
# Overlay


@dataclass(frozen=True)
class MapOverlay:
    """What the game screen wants shown on top of the board right now."""

    face_up: tuple[str, ...] = ()  # stop ids with a face-up tile this round: all marked
    selected: str | None = None  # stop id of the highlighted tile: lit up strongly
    tour_line: str | None = None  # line id of a grand/special tour in progress: emphasised
    bus_at: str | None = None  # stop id where the bus is right now (drawn as "▣")
    scoring: tuple[tuple[str, str], ...] = ()  # (stop id, short label like "+3")
    small_tour_origin: str | None = None  # the left-over tile's stop during a small tour


# --------------------------------------------------------------------------
# Names


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def short_name(board: Board, stop: int | str, limit: int = 5) -> str:
    """A stop's short name (at most ``limit`` characters) for tight layouts."""
    index = board.stop_index[stop] if isinstance(stop, str) else stop
    sid = board.stop_ids[index]
    name = _nfc(board.stops[index].name)
    if sid in SHORT_NAMES and len(SHORT_NAMES[sid]) <= limit:
        return SHORT_NAMES[sid]
    if len(name) <= limit:
        return name
    words = [w for w in name.replace("-", " ").split() if w]
    if len(words) > 1:
        initials = "".join(w[0] for w in words[:-1])
        squeezed = (initials + words[-1])[:limit]
        if len(squeezed) >= 3:
            return squeezed
    return name[:limit]


# --------------------------------------------------------------------------
# Layout: a grid of cells, built once per (board, size), styled per update

# cell kinds
EMPTY: Final = 0
LINE: Final = 1  # ref = line index
LETTER: Final = 2  # ref = line index
BRACKET: Final = 3  # ref = stop index
SLOT: Final = 4  # ref = stop index, aux = slot number
NAME: Final = 5  # ref = stop index
JUNCTION: Final = 6  # two lines cross off a stop; ref = line index (first)

_N, _S, _E, _W = (-1, 0), (1, 0), (0, 1), (0, -1)
_NE, _NW, _SE, _SW = (-1, 1), (-1, -1), (1, 1), (1, -1)
_Dir = tuple[int, int]

_GLYPHS: Final[dict[frozenset[_Dir], tuple[str, str]]] = {
    frozenset((_E, _W)): ("─", "━"),
    frozenset((_N, _S)): ("│", "┃"),
    frozenset((_S, _E)): ("╭", "┏"),
    frozenset((_S, _W)): ("╮", "┓"),
    frozenset((_N, _E)): ("╰", "┗"),
    frozenset((_N, _W)): ("╯", "┛"),
    frozenset((_NE, _SW)): ("╱", "╱"),
    frozenset((_NW, _SE)): ("╲", "╲"),
}


def _glyph(a: _Dir, b: _Dir) -> tuple[str, str]:
    key = frozenset((a, b))
    if key in _GLYPHS:
        return _GLYPHS[key]
    diagonal = a if a[0] and a[1] else b
    if diagonal[0] and diagonal[1]:
        return ("╲", "╲") if diagonal in (_NW, _SE) else ("╱", "╱")
    return ("┼", "╋")


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


class _Canvas:
    def __init__(self, board: Board, width: int, height: int, strict: bool) -> None:
        self.board = board
        self.width = width
        self.height = height
        self.strict = strict
        self.glyph = [[" "] * width for _ in range(height)]
        self.heavy = [[" "] * width for _ in range(height)]
        self.kind = [[EMPTY] * width for _ in range(height)]
        self.ref = [[-1] * width for _ in range(height)]
        self.aux = [[0] * width for _ in range(height)]
        self.stop_cells: dict[int, list[tuple[int, int]]] = {}
        self.name_cells: dict[int, tuple[int, int, int]] = {}
        self.anchor: dict[int, tuple[int, int]] = {}
        self.hits: dict[tuple[int, int], int] = {}
        self.tracks: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.problems: list[str] = []

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width

    def fail(self, problem: str) -> None:
        if self.strict:
            raise LayoutError(problem)
        self.problems.append(problem)

    # tokens ---------------------------------------------------------------

    def token_span(self, stop: int, r: int, c: int) -> list[tuple[int, int]]:
        cap = self.board.capacity[stop]
        return [(r, x) for x in range(c - 1, c + cap + 1)]

    def token_free(self, stop: int, r: int, c: int) -> bool:
        return all(
            self.inside(y, x) and self.kind[y][x] == EMPTY for y, x in self.token_span(stop, r, c)
        )

    def put_token(self, stop: int, r: int, c: int) -> None:
        cap = self.board.capacity[stop]
        cells = self.token_span(stop, r, c)
        for y, x in cells:
            if not self.inside(y, x) or self.kind[y][x] != EMPTY:
                self.fail(f"stop {self.board.stop_ids[stop]} overlaps at row {y}, col {x}")
                return
        left, right = ("[", "]") if cap == 2 else ("(", ")")
        for i, (y, x) in enumerate(cells):
            if i == 0 or i == len(cells) - 1:
                self.set(y, x, BRACKET, stop, 0, left if i == 0 else right)
            else:
                self.set(y, x, SLOT, stop, i - 1, "·")
            self.hits[(y, x)] = stop
        self.stop_cells[stop] = cells
        self.anchor[stop] = (r, c)

    def set(
        self, r: int, c: int, kind: int, ref: int, aux: int, glyph: str, heavy: str = ""
    ) -> None:
        self.kind[r][c] = kind
        self.ref[r][c] = ref
        self.aux[r][c] = aux
        self.glyph[r][c] = glyph
        self.heavy[r][c] = heavy or glyph

    # tracks ---------------------------------------------------------------

    def track(self, line: int, k: int, points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """Draw line ``line``'s track through ``points``; returns its free cells in order."""
        path: list[tuple[int, int]] = [points[0]]
        for (r0, c0), (r1, c1) in pairwise(points):
            dr, dc = r1 - r0, c1 - c0
            if dr and dc and abs(dr) != abs(dc):
                # an L: along the row first, then the column
                corner = (r0, c1)
                legs = [((r0, c0), corner), (corner, (r1, c1))]
            else:
                legs = [((r0, c0), (r1, c1))]
            for (a0, b0), (a1, b1) in legs:
                sr = (a1 > a0) - (a1 < a0)
                sc = (b1 > b0) - (b1 < b0)
                y, x = a0, b0
                while (y, x) != (a1, b1):
                    y, x = y + sr, x + sc
                    path.append((y, x))
        lid = self.board.line_ids[line]
        free: list[tuple[int, int]] = []
        drawn = self.tracks.setdefault((line, k), [])
        for i in range(1, len(path) - 1):
            y, x = path[i]
            if not self.inside(y, x):
                self.fail(f"line {lid} track {k} leaves the grid at row {y}, col {x}")
                continue
            kind = self.kind[y][x]
            if kind in (BRACKET, SLOT):
                if self.hits.get((y, x)) not in (self.stop_at(path[0]), self.stop_at(path[-1])):
                    self.fail(f"line {lid} track {k} runs through a stop at row {y}, col {x}")
                continue
            prev, nxt = path[i - 1], path[i + 1]
            a = (prev[0] - y, prev[1] - x)
            b = (nxt[0] - y, nxt[1] - x)
            glyph, heavy = _glyph(a, b)
            if kind == LINE:
                if self.ref[y][x] == line:
                    self.fail(f"line {lid} track {k} runs over itself at row {y}, col {x}")
                    continue
                old = self.glyph[y][x]
                if {old, glyph} == {"─", "│"}:
                    self.set(y, x, JUNCTION, self.ref[y][x], line, "┼", "╋")
                    drawn.append((y, x))
                elif {old, glyph} == {"╱", "╲"}:
                    self.set(y, x, JUNCTION, self.ref[y][x], line, "╳", "╳")
                    drawn.append((y, x))
                else:
                    self.fail(f"lines {lid} and another overlap at row {y}, col {x}")
                continue
            if kind != EMPTY:
                self.fail(f"line {lid} track {k} runs over text at row {y}, col {x}")
                continue
            self.set(y, x, LINE, line, 0, glyph, heavy)
            free.append((y, x))
            drawn.append((y, x))
        return free

    def stop_at(self, point: tuple[int, int]) -> int:
        return self.hits.get(point, -1)

    def letter(self, line: int, cells: list[Cell]) -> bool:
        """Write the line's letter on a track (``cells``: its own cells, in order).

        On its diagonal part when it has one of two cells or more (crossing
        diagonals are then told apart without colour), else in the middle of a
        straight track of four cells or more, keeping a track cell each side.
        Returns whether a letter was written.
        """
        runs: list[list[int]] = []
        for i, (y, x) in enumerate(cells):
            if self.glyph[y][x] not in ("╱", "╲"):
                continue
            if runs and runs[-1][-1] == i - 1:
                (py, px) = cells[i - 1]
                if abs(py - y) == 1 and abs(px - x) == 1:
                    runs[-1].append(i)
                    continue
            runs.append([i])
        run = max(runs, key=len, default=[])
        if len(run) >= 2:
            mid = (run[0] + run[-1]) / 2
            best = min(run, key=lambda i: (self.by_token(cells[i]), abs(i - mid), i))
            self.put_letter(line, cells[best])
            return True
        if len(cells) < 4:
            return False
        mid = len(cells) // 2
        order = sorted(range(1, len(cells) - 1), key=lambda i: (abs(i - mid), i))
        for i in order:
            y, x = cells[i]
            if self.glyph[y][x] in ("─", "│"):
                self.put_letter(line, (y, x))
                return True
        return False

    def any_letter(self, line: int, tracks: Sequence[list[Cell]]) -> None:
        """Give a line with no letter yet one, on its longest track, even a short one."""
        best: tuple[tuple[float, ...], Cell] | None = None
        for cells in tracks:
            mid = (len(cells) - 1) / 2
            for i, (y, x) in enumerate(cells):
                if self.glyph[y][x] in ("─", "│", "╱", "╲"):
                    key = (self.by_token((y, x)), -len(cells), abs(i - mid))
                    if best is None or key < best[0]:
                        best = (key, (y, x))
        if best is not None:
            self.put_letter(line, best[1])

    def by_token(self, cell: Cell) -> bool:
        """Whether a cell touches a stop's token (a letter there crowds the stop)."""
        y, x = cell
        return any(
            self.inside(y + dy, x + dx) and self.kind[y + dy][x + dx] in (BRACKET, SLOT)
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
        )

    def put_letter(self, line: int, cell: Cell) -> None:
        y, x = cell
        self.set(y, x, LETTER, line, 0, self.board.lines[line].letter)

    # names ----------------------------------------------------------------

    def name_free(self, r: int, c: int, n: int) -> bool:
        if not (0 <= r < self.height and c >= 0 and c + n <= self.width):
            return False
        return all(self.kind[r][x] == EMPTY for x in range(c, c + n))

    def put_name(self, stop: int, r: int, c: int, text: str) -> None:
        if not self.name_free(r, c, len(text)):
            self.fail(f"name {text!r} of {self.board.stop_ids[stop]} collides at row {r}, col {c}")
            return
        for i, ch in enumerate(text):
            self.set(r, c + i, NAME, stop, i, ch)
            self.hits[(r, c + i)] = stop
        self.name_cells[stop] = (r, c, len(text))

    def label_position(self, stop: int, text: str, label: str) -> tuple[int, int]:
        r, c = self.anchor[stop]
        cap = self.board.capacity[stop]
        t0, t1 = c - 1, c + cap  # token's first and last cell
        side, rest = label[0], label[1:]
        drow = 0
        if "," in rest:
            rest, row_shift = rest.split(",", 1)
            drow = int(row_shift)
        shift = int(rest) if rest else 0
        n = len(text)
        if side == "r":
            return r + drow, t1 + 2 + shift
        if side == "l":
            return r + drow, t0 - 1 - n + shift
        centre = (t0 + t1 + 1) // 2
        row = r - 1 if side == "a" else r + 1
        return row + drow, centre - n // 2 + shift

    # finishing ------------------------------------------------------------

    def bus_spots(
        self,
    ) -> tuple[dict[int, Cell], dict[tuple[int, int], Cell]]:
        """Where the bus goes at each stop: any free cell by it, and on each line's track."""
        bus: dict[int, Cell] = {}
        on_line: dict[tuple[int, int], Cell] = {}
        for stop, cells in self.stop_cells.items():
            (r, t0), (_, t1) = cells[0], cells[-1]
            _, c = self.anchor[stop]
            # the first track cell of each line next to the token (left, right, then around)
            around = [(r, t0 - 1), (r, t1 + 1)]
            around += [(r + dr, x) for dr in (-1, 1) for x in range(t0 - 1, t1 + 2)]
            for y, x in around:
                if self.inside(y, x) and self.kind[y][x] in (LINE, LETTER):
                    on_line.setdefault((stop, self.ref[y][x]), (y, x))
            for y, x in ((r, t0 - 1), (r, t1 + 1), (r - 1, c), (r + 1, c)):
                if self.inside(y, x) and self.kind[y][x] in (EMPTY, LINE, LETTER):
                    bus[stop] = (y, x)
                    break
            else:
                bus[stop] = (r, t0)
        return bus, on_line

    def drawing(self, stop: int) -> AbstractSet[Cell]:
        """The cells of a stop's token and name."""
        cells = set(self.stop_cells.get(stop, ()))
        if stop in self.name_cells:
            row, col, length = self.name_cells[stop]
            cells.update((row, col + i) for i in range(length))
        return cells

    def label_candidates(
        self, stop: int, owner: _Owners, avoid: AbstractSet[Cell]
    ) -> list[LabelSpot]:
        """Spots for ``stop``'s label, best first (see :class:`LabelSpot` for the rules)."""
        mine = self.drawing(stop)
        rows = [r for r, _ in mine]
        cols = [c for _, c in mine]
        name_row = self.name_cells[stop][0] if stop in self.name_cells else -1
        found: list[tuple[tuple[int, ...], LabelSpot]] = []
        for row in range(min(rows) - 1, max(rows) + 2):
            for col in range(min(cols) - LABEL_WIDTH, max(cols) + 2):
                span = [(row, col + i) for i in range(LABEL_WIDTH)]
                if not all(
                    self.inside(y, x) and self.kind[y][x] in (EMPTY, LINE) and (y, x) not in avoid
                    for y, x in span
                ):
                    continue
                full = owner.reading(row, col, LABEL_WIDTH, stop)
                if not full:
                    continue
                for right in (False, True):  # a shorter label keeps to the side that reads
                    spot = LabelSpot(row, col, right)
                    narrow = owner.reading(row, spot.cells(2)[0][1], 2, stop)
                    if narrow:
                        break
                else:
                    continue
                track = sum(self.kind[y][x] == LINE for y, x in span)
                key = (track, max(full, narrow), row != name_row, int(right))
                found.append(((*key, abs(col - min(cols))), spot))
        found.sort(key=lambda item: item[0])
        return [spot for _, spot in found]

    def label_spots(self, avoid: AbstractSet[Cell]) -> dict[int, LabelSpot]:
        """One spot for every stop's label, all at once, each apart from the others.

        A depth-first search over each stop's candidates (stops with fewest first);
        a stop left without a spot is a problem (an error for a strict layout).
        """
        owner = _Owners(self.width, self.height)
        for stop in self.stop_cells:
            for y, x in self.drawing(stop):
                owner.set(y, x, stop)
        options = {stop: self.label_candidates(stop, owner, avoid) for stop in self.stop_cells}
        order = sorted(options, key=lambda stop: (len(options[stop]), stop))
        chosen: dict[int, LabelSpot] = {}
        budget = [20_000]

        def free(spot: LabelSpot) -> bool:
            return all(spot.apart(other) for other in chosen.values())

        def place(i: int) -> bool:
            if i == len(order):
                return True
            budget[0] -= 1
            if budget[0] < 0:
                return False
            stop = order[i]
            for spot in options[stop]:
                if free(spot):
                    chosen[stop] = spot
                    if place(i + 1):
                        return True
                    del chosen[stop]
            return False

        if place(0):
            return chosen
        chosen.clear()  # no full solution: each stop its first free spot, if any
        for stop in order:
            spot = next((s for s in options[stop] if free(s)), None)
            if spot is None:
                self.fail(f"no room for the score label of {self.board.stop_ids[stop]}")
            else:
                chosen[stop] = spot
        return chosen

    def redraw(self, glyphs: Glyphs) -> None:
        """Draw the tracks and empty slots with ``glyphs`` (they are drawn in Unicode).

        Cell for cell: every map character of a set takes one cell, so nothing moves.
        """
        if not glyphs.is_ascii:
            return
        table = glyphs.map_table()
        for y in range(self.height):
            for x in range(self.width):
                if self.kind[y][x] in (LINE, JUNCTION, SLOT):
                    self.glyph[y][x] = table.get(self.glyph[y][x], self.glyph[y][x])
                    self.heavy[y][x] = table.get(self.heavy[y][x], self.heavy[y][x])

    def freeze(self, name: str, glyphs: Glyphs | None = None) -> MapLayout:
        bus, on_line = self.bus_spots()
        labels = self.label_spots(set(on_line.values()))
        if glyphs is not None:
            self.redraw(glyphs)
        return MapLayout(
            name=name,
            width=self.width,
            height=self.height,
            glyph=self.glyph,
            heavy=self.heavy,
            kind=self.kind,
            ref=self.ref,
            aux=self.aux,
            stop_cells=self.stop_cells,
            name_cells=self.name_cells,
            bus_spot=bus,
            bus_on_line=on_line,
            label_spots=labels,
            hits=self.hits,
            tracks=self.tracks,
        )


class _Owners:
    """Which stop's token or name each cell shows (-1: none), on a grid padded all round."""

    PAD: Final = 4

    def __init__(self, width: int, height: int) -> None:
        pad = self.PAD
        self.rows = [[-1] * (width + 2 * pad) for _ in range(height + 2 * pad)]

    def set(self, y: int, x: int, stop: int) -> None:
        self.rows[y + self.PAD][x + self.PAD] = stop

    def reading(self, row: int, col: int, length: int, stop: int) -> int:
        """How plainly a label on ``length`` cells from (row, col) reads as ``stop``'s.

        1 beside the stop, 2 above or under it; 0 when it does not: it must share
        an edge with the stop's token or name and touch no other stop's (not even
        at a corner); and another stop's cell on the label's own row must be
        farther than its own stop: two columns away from a label beside its stop,
        four from one above or under it (a label reads with the text on its own
        row before the one over or under it).
        """
        pad = self.PAD
        y, c0, c1 = row + pad, col + pad, col + pad + length - 1
        here, above, below = self.rows[y], self.rows[y - 1], self.rows[y + 1]
        if stop in (here[c0 - 1], here[c1 + 1]):
            own = 1
        elif stop in above[c0 : c1 + 1] or stop in below[c0 : c1 + 1]:
            own = 2
        else:
            return 0
        reach = 1 if own == 1 else 3
        for cells in (
            above[c0 - 1 : c1 + 2],
            below[c0 - 1 : c1 + 2],
            here[c0 - reach : c1 + reach + 1],
        ):
            if any(v not in (-1, stop) for v in cells):
                return 0
        return own


def compile_spec(
    spec: LayoutSpec, board: Board, strict: bool = True, glyphs: str = "unicode"
) -> MapLayout:
    """Draw hand-made layout ``spec`` of ``board`` with glyph set ``glyphs``.

    Strict, a collision raises :class:`LayoutError`; else it is kept in
    ``problems``. In ``ascii`` the names lose their accents and the tracks are
    drawn with ASCII, cell for cell: the layout is the same.
    """
    look = glyphs_for(glyphs)
    canvas = _Canvas(board, spec.width, spec.height, strict=strict)
    for sid, (r, c, _label) in spec.stops.items():
        canvas.put_token(board.stop_index[sid], r, c)
    tracks: list[tuple[int, int, list[tuple[int, int]]]] = []
    for line in board.lines:
        for k, (a, b) in enumerate(zip(line.stops, line.stops[1:], strict=False)):
            points = [canvas.anchor[a], *spec.routes.get((line.id, k), ()), canvas.anchor[b]]
            tracks.append((line.index, k, canvas.track(line.index, k, points)))
    for sid, (_r, _c, label) in spec.stops.items():
        stop = board.stop_index[sid]
        text = look.name_of(short_name(board, stop) if spec.short else board.stops[stop].name)
        row, col = canvas.label_position(stop, text, label)
        canvas.put_name(stop, row, col, text)
    lettered: set[int] = set()
    for li, k, cells in tracks:
        if (board.line_ids[li], k) not in spec.no_letter and canvas.letter(li, cells):
            lettered.add(li)
    for line in board.lines:
        if line.index not in lettered:
            own = [(k, cells) for li, k, cells in tracks if li == line.index]
            allowed = [cells for k, cells in own if (line.id, k) not in spec.no_letter]
            canvas.any_letter(line.index, allowed or [cells for _, cells in own])
    layout = canvas.freeze(spec.name, look)
    layout.problems = canvas.problems
    return layout


def generic_layout(board: Board, width: int, height: int, glyphs: str = "unicode") -> MapLayout:
    """Stops placed from the board's schematic ``xy``: whatever fits, never an error."""
    look = glyphs_for(glyphs)
    canvas = _Canvas(board, width, height, strict=False)
    xs = [s.xy[0] for s in board.stops]
    ys = [s.xy[1] for s in board.stops]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    margin = 6 if width >= 40 else 2
    span_c = max(1, width - 2 * margin - 3)
    span_r = max(1, height - 3)
    for stop in sorted(board.stops, key=lambda s: (-s.is_crossing, s.index)):
        c = margin + round((stop.xy[0] - x0) / ((x1 - x0) or 1) * span_c)
        r = 1 + round((y1 - stop.xy[1]) / ((y1 - y0) or 1) * span_r)
        placed = False
        for radius in range(max(width, height)):
            for dr in range(-radius, radius + 1):
                for dc in range(-radius, radius + 1):
                    if max(abs(dr), abs(dc)) != radius:
                        continue
                    if canvas.token_free(stop.index, r + dr, c + dc):
                        canvas.put_token(stop.index, r + dr, c + dc)
                        placed = True
                        break
                if placed:
                    break
            if placed:
                break
    tracks: list[tuple[int, list[tuple[int, int]]]] = []
    for line in board.lines:
        for k, (a, b) in enumerate(zip(line.stops, line.stops[1:], strict=False)):
            if a in canvas.anchor and b in canvas.anchor:
                ra, ca = canvas.anchor[a]
                rb, cb = canvas.anchor[b]
                points = [(ra, ca)]
                dr, dc = rb - ra, cb - ca
                diag = min(abs(dr), abs(dc))
                sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
                if diag:
                    points.append((ra + sr * diag, ca + sc * diag))
                points.append((rb, cb))
                tracks.append((line.index, canvas.track(line.index, k, points)))
    for stop in board.stops:
        if stop.index not in canvas.anchor:
            continue
        full = look.name_of(stop.name)
        options = [
            full,
            look.name_of(short_name(board, stop.index)),
            look.name_of(short_name(board, stop.index, 3)),
        ]
        done = False
        for text in dict.fromkeys(options):
            for label in ("r", "l", "a", "b", "a+3", "b-3"):
                row, col = canvas.label_position(stop.index, text, label)
                if canvas.name_free(row, col - 1, len(text) + 2) or canvas.name_free(
                    row, col, len(text)
                ):
                    canvas.put_name(stop.index, row, col, text)
                    done = True
                    break
            if done:
                break
    lettered: set[int] = set()
    for li, cells in tracks:
        if canvas.letter(li, cells):
            lettered.add(li)
    for line in board.lines:
        if line.index not in lettered:
            canvas.any_letter(line.index, [cells for li, cells in tracks if li == line.index])
    return canvas.freeze("generic", look)


def notice_layout(width: int, height: int, text: str) -> MapLayout:
    """No map, just ``text`` (the widget centres it); holds no grid, whatever the size."""
    canvas = _Canvas(classic_board(), 0, 0, strict=False)
    layout = canvas.freeze("notice")
    layout.notice = text
    return layout


def _is_classic(board: Board) -> bool:
    classic = classic_board()
    return board is classic or (
        board.stop_ids == classic.stop_ids
        and [(ln.id, ln.stops) for ln in board.lines] == [(ln.id, ln.stops) for ln in classic.lines]
    )


@lru_cache(maxsize=32)
def _compiled(spec_name: str, board: Board, glyphs: str) -> MapLayout:
    spec = next(s for s in LAYOUTS if s.name == spec_name)
    return compile_spec(spec, board, glyphs=glyphs)


def prepare_layouts() -> int:
    """Draw every hand-made layout of the classic board in every glyph set, now: what
    :func:`build_layout` then finds drawn. A door's fork server (host/zygote.py) calls
    it once, so that no forked app draws them again (a tenth of its time to its first
    frame). Returns how many layouts were drawn."""
    from paris_tui.app.look.glyphs import GLYPH_SETS

    board = classic_board()
    for spec in LAYOUTS:
        for glyphs in GLYPH_SETS:
            _compiled(spec.name, board, glyphs)
    return len(LAYOUTS) * len(GLYPH_SETS)


def _needs(need: tuple[int, int], have: tuple[int, int], glyphs: str) -> str:
    times = glyphs_for(glyphs).times
    return _("Map needs {need} cells (have {have})").format(
        need=f"{need[0]}{times}{need[1]}", have=f"{have[0]}{times}{have[1]}"
    )


def build_layout(board: Board, width: int, height: int, glyphs: str = "unicode") -> MapLayout:
    """The layout for a map area of ``width`` x ``height`` cells (never raises).

    ``glyphs`` is the set it is drawn with (:data:`~paris_tui.app.look.glyphs.GLYPH_SETS`).
    A map that does not fit is a notice in the current language.
    """
    width, height = max(width, 0), max(height, 0)
    need = _too_small(board, width, height)
    if need is not None:
        return notice_layout(width, height, _needs(need, (width, height), glyphs))
    return _build_layout(board, width, height, glyphs)


def _too_small(board: Board, width: int, height: int) -> tuple[int, int] | None:
    """The size a map needs when ``width`` x ``height`` holds none of its layouts."""
    if _is_classic(board):
        if any(spec.width <= width and spec.height <= height for spec in LAYOUTS):
            return None
        smallest = LAYOUTS[-1]
        if width < smallest.width or height < smallest.height:
            return (smallest.width, smallest.height)
    if width < 24 or height < 8:
        return (24, 8)
    return None


@lru_cache(maxsize=32)
def _build_layout(board: Board, width: int, height: int, glyphs: str) -> MapLayout:
    if _is_classic(board):
        for spec in LAYOUTS:
            if spec.width <= width and spec.height <= height:
                try:
                    return _compiled(spec.name, board, glyphs)
                except LayoutError:  # pragma: no cover - the layouts are tested
                    break
    return generic_layout(board, width, height, glyphs)


def layout_text(layout: MapLayout) -> str:
    """The layout's static drawing as plain text (for checking hand layouts)."""
    if layout.notice:
        return layout.notice
    return "\n".join("".join(row).rstrip() for row in layout.glyph)


# --------------------------------------------------------------------------
# Overlay cells


def label_cells(
    layout: MapLayout, board: Board, scoring: Sequence[tuple[str, str]]
) -> dict[Cell, str]:
    """Where the scoring labels (stop id, label) are drawn: (row, col) -> character.

    Each stop has its own :class:`LabelSpot`, so labels never cover names or
    each other; a label is cut to :data:`LABEL_WIDTH` cells (no score gets wider).
    """
    index = board.stop_index
    cells: dict[Cell, str] = {}
    for sid, label in scoring:
        spot = layout.label_spots.get(index[sid]) if sid in index else None
        if spot is None or not label:
            continue
        text = label[:LABEL_WIDTH]
        cells.update(zip(spot.cells(len(text)), text, strict=True))
    return cells


def bus_cell(
    layout: MapLayout, board: Board, stop: str | None, line: int | None
) -> tuple[int, int] | None:
    """Where the bus is drawn at ``stop``: on ``line``'s track next to it if there is one."""
    if stop not in board.stop_index or layout.notice:
        return None
    index = board.stop_index[stop]
    spot = layout.bus_on_line.get((index, -1 if line is None else line))
    return spot or layout.bus_spot.get(index)


if __name__ == "__main__":  # pragma: no cover - print the hand layouts
    for spec in LAYOUTS:
        drawn = compile_spec(spec, classic_board(), strict=False)
        print(f"{spec.name} {spec.width}x{spec.height}")
        print("\n".join(f"{i:2d}|{''.join(row)}|" for i, row in enumerate(drawn.glyph)))
        for problem in drawn.problems:
            print("  !", problem)
