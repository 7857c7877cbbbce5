"""The map's layouts without an app: hand-made layouts, sizes, names, other boards.

Pure tests of :mod:`paris_tui.app.map` (no Textual). Rules cited: R1 (stops,
crossings, capacity).
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import pytest

from paris_tui.app.map.layout import (
    LAYOUTS,
    SHORT_NAMES,
    LayoutSpec,
    build_layout,
    compile_spec,
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
    assert build_layout(board, 78, 15).name == "wide"
    assert build_layout(board, 77, 25).name == "comfortable"
    assert build_layout(board, 75, 25).name == "compact"
    assert build_layout(board, 54, 18).name == "compact"
    assert build_layout(board, 50, 15).name == "compact"
    assert build_layout(board, 49, 15).name == "notice"
    assert build_layout(board, 1, 1).name == "notice"
    assert build_layout(board, 0, 0).name == "notice"


def test_short_names_are_short_and_distinct() -> None:
    board = classic_board()
    names = [short_name(board, s.index) for s in board.stops]
    assert all(3 <= len(n) <= 5 for n in names)
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
