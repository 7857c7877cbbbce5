"""Drawing a board on a grid of cells: the stops' tokens, the lines' tracks (straight,
45° diagonal, or an L along the row first, through a hand-made layout's bend points),
where each line's letter goes, the stops' names, and where the bus stops.

The layouts (:mod:`~paris_tui.app.map.layout`) say where things go; the
:class:`Canvas` draws them and finds what collides.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Final

from paris_tui.app.look.glyphs import Glyphs

from ...core.board import Board
from .grid import (
    BRACKET,
    EMPTY,
    JUNCTION,
    LETTER,
    LINE,
    NAME,
    SLOT,
    Cell,
    LayoutError,
    MapLayout,
)
from .labels import label_spots

__all__ = ["Canvas"]

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


class Canvas:
    """A board being drawn on a ``width`` x ``height`` grid: stops' tokens, the lines'
    tracks and letters, stops' names; :meth:`freeze` makes it a :class:`MapLayout`.

    ``strict``, a collision raises :class:`LayoutError`; else it is kept in
    :attr:`problems` and the drawing goes on.
    """

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
        labels, left = label_spots(
            self.width,
            self.height,
            self.kind,
            self.stop_cells,
            self.name_cells,
            set(on_line.values()),
        )
        for stop in left:
            self.fail(f"no room for the score label of {self.board.stop_ids[stop]}")
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
