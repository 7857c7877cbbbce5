"""The map's layouts without an app: hand-made layouts, sizes, names, other boards.

Pure tests of :mod:`paris_tui.app.map` (no Textual). Rules cited: R1 (stops,
crossings, capacity).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Mapping
from importlib import resources
from itertools import combinations, pairwise

import pytest

from paris_tui.app.map.layout import (
    LAYOUTS,
    LETTER,
    SHORT_LIMIT,
    SHORT_NAMES,
    LayoutSpec,
    MapLayout,
    build_layout,
    compile_spec,
    label_cells,
    layout_text,
    short_name,
)
from paris_tui.core import Board, classic_board, parse_board

SIZES = [(1, 1), (10, 5), (40, 12), (54, 18), (80, 30), (120, 40)]


def test_map_package_imports_no_textual() -> None:
    code = (
        "import sys, paris_tui.app.map.layout, paris_tui.app.map.legend;"
        "sys.exit(1 if any(m.startswith('textual') for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@pytest.mark.parametrize("spec", LAYOUTS, ids=lambda s: s.name)
def test_hand_layouts_fit_together(spec: LayoutSpec) -> None:
    """Every stop drawn once, named, no overlaps; every line marked with its letter."""
    board = classic_board()
    layout = compile_spec(spec, board, strict=True)  # raises on any collision
    assert (layout.width, layout.height) == (spec.width, spec.height)
    assert set(layout.stop_cells) == set(range(len(board.stops)))
    assert set(layout.name_cells) == set(range(len(board.stops)))
    for stop in board.stops:  # R1: crossing [··] holds 2, plain (·) holds 1
        token = "".join(layout.glyph[r][c] for r, c in layout.stop_cells[stop.index])
        assert token == ("[··]" if stop.is_crossing else "(·)")
    text = layout_text(layout)
    for line in board.lines:
        assert text.count(line.letter) >= 2, line.id


def test_layout_chosen_by_size() -> None:
    board = classic_board()
    assert build_layout(board, 80, 30).name == "comfortable"
    assert build_layout(board, 76, 25).name == "comfortable"
    assert build_layout(board, 80, 18).name == "wide"
    assert build_layout(board, 78, 16).name == "wide"
    assert build_layout(board, 78, 15).name == "notice"
    assert build_layout(board, 77, 25).name == "comfortable"
    assert build_layout(board, 75, 25).name == "compact"
    assert build_layout(board, 54, 18).name == "compact"
    assert build_layout(board, 54, 17).name == "compact"  # the map's area at 80x24
    assert build_layout(board, 54, 16).name == "compact"
    assert build_layout(board, 54, 15).name == "notice"
    assert build_layout(board, 53, 16).name == "notice"
    assert build_layout(board, 1, 1).name == "notice"
    assert build_layout(board, 0, 0).name == "notice"


def test_short_names_are_short_and_distinct() -> None:
    board = classic_board()
    names = [short_name(board, s.index, SHORT_LIMIT) for s in board.stops]
    assert all(3 <= len(n) <= SHORT_LIMIT for n in names)
    assert len(set(names)) == len(names)
    assert set(SHORT_NAMES) == set(board.stop_ids)


def other_board() -> Board:
    """A valid board that is not the classic one (stops renamed and moved)."""
    text = resources.files("paris_tui.core").joinpath("data/board-classic.json").read_text("utf-8")
    data = json.loads(text)
    rename = {s["id"]: f"s{i}" for i, s in enumerate(data["stops"])}
    for i, stop in enumerate(data["stops"]):
        stop["id"] = rename[stop["id"]]
        stop["name"] = f"Stop number {i}"
        stop["xy"] = [stop["xy"][1], -stop["xy"][0]]
    for line in data["lines"]:
        line["stops"] = [rename[s] for s in line["stops"]]
    data["id"] = "rotated"
    return parse_board(data)


@pytest.mark.parametrize("size", [*SIZES, (24, 8), (200, 60)])
def test_generic_layout_for_another_board(size: tuple[int, int]) -> None:
    board = other_board()
    layout = build_layout(board, *size)
    assert layout.name in ("generic", "notice")
    assert len(layout.glyph) == layout.height
    if size[0] >= 80:
        assert layout.name == "generic"
        assert len(layout.stop_cells) == len(board.stops)


# --- scoring labels and line letters on the hand-made layouts ----------------------

CLASSIC = classic_board()
HAND = {spec.name: compile_spec(spec, CLASSIC, strict=True) for spec in LAYOUTS}
Cell = tuple[int, int]


def distance(a: Iterable[Cell], b: Iterable[Cell]) -> int:
    """Cells apart (king moves) between the nearest cells of two sets."""
    b = list(b)
    return min(max(abs(r0 - r1), abs(c0 - c1)) for r0, c0 in a for r1, c1 in b)


def stop_drawing(layout: MapLayout, stop: int) -> set[Cell]:
    """The cells of a stop's token and of its name."""
    row, col, length = layout.name_cells[stop]
    return {*layout.stop_cells[stop], *((row, col + i) for i in range(length))}


def around(layout: MapLayout, cells: Iterable[Cell], extra: Mapping[Cell, str]) -> str:
    """The layout's text near ``cells`` with ``extra`` drawn on top (for failure messages)."""
    rows = [r for r, _ in cells]
    top, bottom = max(0, min(rows) - 2), min(layout.height, max(rows) + 3)
    return "\n".join(
        "".join(extra.get((r, c), layout.glyph[r][c]) for c in range(layout.width))
        for r in range(top, bottom)
    )


@pytest.mark.parametrize("label", ["+1", "+12"])
@pytest.mark.parametrize("name", list(HAND))
def test_score_labels_sit_by_their_own_stop(name: str, label: str) -> None:
    """A label never covers a name and always reads as its own stop's.

    Each stop's label, alone or with every stop labelled at once: drawn whole,
    on no name, token, line letter or bus cell; sharing an edge with its own
    stop's name or token, touching no other stop's and farther from each;
    on its own row no other stop within a column (when the label is beside
    its stop) or three (when it is above or under it); apart from every other
    label.
    """
    layout = HAND[name]
    drawings = {s.index: stop_drawing(layout, s.index) for s in CLASSIC.stops}
    taken = set().union(*drawings.values())
    letters = {
        (r, c)
        for r in range(layout.height)
        for c in range(layout.width)
        if layout.kind[r][c] == LETTER
    }
    buses = set(layout.bus_on_line.values())
    singles: dict[int, dict[Cell, str]] = {}
    for stop in CLASSIC.stops:
        cells = label_cells(layout, CLASSIC, ((stop.id, label),))
        where = f"{stop.id} in {name}:\n{around(layout, drawings[stop.index], cells)}"
        assert "".join(cells[c] for c in sorted(cells)) == label, where
        assert len({r for r, _ in cells}) == 1, where
        assert not set(cells) & taken, where
        assert not set(cells) & (letters | buses), where
        own = distance(cells, drawings[stop.index])
        assert own == 1, where
        assert any(  # shares an edge with its stop, not just a corner
            (r + dr, c + dc) in drawings[stop.index]
            for r, c in cells
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
        ), where
        (row,) = {r for r, _ in cells}
        beside = any((row, c + dc) in drawings[stop.index] for _, c in cells for dc in (-1, 1))
        reach = 1 if beside else 3  # it reads with the text on its own row first
        for other, drawn in drawings.items():
            if other != stop.index:
                assert distance(cells, drawn) > own, f"{CLASSIC.stop_ids[other]} near {where}"
                same_row = [c for r, c in drawn if r == row]
                assert all(min(abs(c - x) for _, x in cells) > reach for c in same_row), (
                    f"{CLASSIC.stop_ids[other]} on the row of {where}"
                )
        singles[stop.index] = cells
    everyone = label_cells(layout, CLASSIC, tuple((s.id, label) for s in CLASSIC.stops))
    assert everyone == {cell: ch for cells in singles.values() for cell, ch in cells.items()}
    for a, b in combinations(singles, 2):
        apart = distance(singles[a], singles[b])
        assert apart >= 2, f"{CLASSIC.stop_ids[a]}, {CLASSIC.stop_ids[b]}\n" + around(
            layout, singles[a], everyone
        )


@pytest.mark.parametrize("name", list(HAND))
def test_every_line_carries_its_letter(name: str) -> None:
    """Each line's letter is on a cell of that line's track, on every layout."""
    layout = HAND[name]
    for line in CLASSIC.lines:
        found = [
            (r, c)
            for r in range(layout.height)
            for c in range(layout.width)
            if layout.kind[r][c] == LETTER and layout.ref[r][c] == line.index
        ]
        assert found, f"{line.id} has no letter in {name}\n{layout_text(layout)}"
        assert all(layout.glyph[r][c] == line.letter for r, c in found)
        tracks = {
            cell for (li, _), cells in layout.tracks.items() if li == line.index for cell in cells
        }
        assert set(found) <= tracks


@pytest.mark.parametrize("name", list(HAND))
def test_every_diagonal_carries_its_letter(name: str) -> None:
    """A track that runs diagonally (two cells or more) carries its line's letter."""
    layout = HAND[name]
    for (li, k), cells in layout.tracks.items():
        diagonal = any(
            abs(r0 - r1) == 1 and abs(c0 - c1) == 1 for (r0, c0), (r1, c1) in pairwise(cells)
        )
        if not diagonal:
            continue
        line = CLASSIC.lines[li]
        marked = [
            (r, c) for r, c in cells if layout.kind[r][c] == LETTER and layout.ref[r][c] == li
        ]
        assert marked, f"{line.id} {k} in {name}:\n" + around(layout, cells, {})
