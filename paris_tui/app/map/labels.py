"""The scoring labels on a map: where each stop's label may go, chosen once when a
layout is drawn (:func:`label_spots`), and the cells of the labels shown now
(:func:`label_cells`).

Every stop gets its own :class:`~paris_tui.app.map.grid.LabelSpot`, apart from the
others', so that labels never cover names or each other; the rules a spot keeps are
the :class:`~paris_tui.app.map.grid.LabelSpot`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Final

from ...core.board import Board
from .grid import EMPTY, LABEL_WIDTH, LINE, Cell, LabelSpot, MapLayout

__all__ = ["label_cells", "label_spots"]


def label_spots(
    width: int,
    height: int,
    kind: list[list[int]],
    stop_cells: dict[int, list[Cell]],
    name_cells: dict[int, tuple[int, int, int]],
    avoid: AbstractSet[Cell],
) -> tuple[dict[int, LabelSpot], list[int]]:
    """One spot for every stop's label, all at once, each apart from the others, on the
    ``width`` x ``height`` grid whose cells are of ``kind``, never on a cell of ``avoid``.

    A depth-first search over each stop's candidates (stops with fewest first). With
    the spots, the stops left without one, in the order they were tried (a problem
    each, an error for a strict layout).
    """
    return _Ground(width, height, kind, stop_cells, name_cells).spots(avoid)


class _Ground:
    """The drawn cells a label is placed among: what each cell is, and where each stop's
    token and name are."""

    def __init__(
        self,
        width: int,
        height: int,
        kind: list[list[int]],
        stop_cells: dict[int, list[Cell]],
        name_cells: dict[int, tuple[int, int, int]],
    ) -> None:
        self.width = width
        self.height = height
        self.kind = kind
        self.stop_cells = stop_cells
        self.name_cells = name_cells

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width

    def drawing(self, stop: int) -> AbstractSet[Cell]:
        """The cells of a stop's token and name."""
        cells = set(self.stop_cells.get(stop, ()))
        if stop in self.name_cells:
            row, col, length = self.name_cells[stop]
            cells.update((row, col + i) for i in range(length))
        return cells

    def candidates(self, stop: int, owner: _Owners, avoid: AbstractSet[Cell]) -> list[LabelSpot]:
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

    def spots(self, avoid: AbstractSet[Cell]) -> tuple[dict[int, LabelSpot], list[int]]:
        """:func:`label_spots`."""
        owner = _Owners(self.width, self.height)
        for stop in self.stop_cells:
            for y, x in self.drawing(stop):
                owner.set(y, x, stop)
        options = {stop: self.candidates(stop, owner, avoid) for stop in self.stop_cells}
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
            return chosen, []
        chosen.clear()  # no full solution: each stop its first free spot, if any
        left: list[int] = []
        for stop in order:
            spot = next((s for s in options[stop] if free(s)), None)
            if spot is None:
                left.append(stop)
            else:
                chosen[stop] = spot
        return chosen, left


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
