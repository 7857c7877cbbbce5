"""The map in the ``ascii`` glyph set: the same layout, drawn in plain ASCII.

Every layout of the classic board keeps its cells (kinds, stops, labels, bus
spots) and only the characters change: tracks ``- | / \\ + X``, empty slots
``.``, players ``@ * # %``, the bus ``&``, stop names without accents. The
widget draws with the set in use and follows a switch at once.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from paris_tui.app.look.glyphs import ASCII, UNICODE, set_glyphs
from paris_tui.app.look.palette import PLAYER_STYLES, player_style
from paris_tui.app.map.classic import LAYOUTS
from paris_tui.app.map.layout import (
    JUNCTION,
    LINE,
    NAME,
    SLOT,
    MapOverlay,
    build_layout,
    compile_spec,
    generic_layout,
    layout_text,
)
from paris_tui.app.map.legend import map_legend
from paris_tui.app.widgets.board_map import BoardMap
from paris_tui.core.board import classic_board

from .test_board_map import COMFORTABLE, COMPACT, MapApp, cells, face_up_stops, played_game, rows
from .test_map_layout import other_board

CLASSIC = classic_board()


@pytest.fixture(autouse=True)
def unicode_after() -> Iterator[None]:
    yield
    set_glyphs("unicode")


@pytest.mark.parametrize("spec", LAYOUTS, ids=lambda s: s.name)
def test_hand_layouts_in_ascii_keep_every_cell(spec: object) -> None:
    uni = compile_spec(spec, CLASSIC, strict=True)  # type: ignore[arg-type]
    asc = compile_spec(spec, CLASSIC, strict=True, glyphs="ascii")  # type: ignore[arg-type]
    assert asc.kind == uni.kind and asc.ref == uni.ref and asc.aux == uni.aux
    assert asc.label_spots == uni.label_spots and asc.bus_on_line == uni.bus_on_line
    assert asc.name_cells == uni.name_cells and asc.stop_cells == uni.stop_cells
    text = layout_text(asc)
    assert text.isascii(), sorted({ch for ch in text if not ch.isascii()})
    for grid in (asc.heavy,):
        assert all(ch.isascii() for row in grid for ch in row)
    table = ASCII.map_table()
    for y in range(uni.height):
        for x in range(uni.width):
            a, u = asc.glyph[y][x], uni.glyph[y][x]
            if uni.kind[y][x] in (LINE, JUNCTION, SLOT):
                assert a == table[u], (y, x, u, a)
            elif uni.kind[y][x] == NAME:
                assert a == ASCII.name_of(u), (y, x, u, a)
            else:
                assert a == u
    assert set("-|/") <= set(text)


def test_names_without_accents() -> None:
    full = layout_text(build_layout(CLASSIC, 80, 30, "ascii"))
    assert "Opera" in full and "Etoile" in full and "Republique" in full
    assert "Opéra" in layout_text(build_layout(CLASSIC, 80, 30))
    short = layout_text(build_layout(CLASSIC, 54, 18, "ascii"))
    assert "Etoil" in short and "Repu" in short


def test_generic_and_notice_layouts_in_ascii() -> None:
    board = other_board()
    layout = generic_layout(board, 60, 20, "ascii")
    assert layout_text(layout).isascii()
    notice = build_layout(CLASSIC, 30, 10, "ascii")
    assert notice.notice == "Map needs 54x16 cells (have 30x10)"
    assert build_layout(CLASSIC, 30, 10).notice == "Map needs 54×16 cells (have 30×10)"


def test_players_symbols_follow_the_set() -> None:
    assert [p.symbol for p in PLAYER_STYLES] == ["●", "▲", "■", "◆"]
    set_glyphs("ascii")
    assert [p.symbol for p in PLAYER_STYLES] == list(ASCII.players)
    assert [p.glyph for p in PLAYER_STYLES] == list(UNICODE.players)


@pytest.mark.parametrize("size", [COMPACT, COMFORTABLE, (80, 18)])
async def test_widget_draws_only_ascii(size: tuple[int, int]) -> None:
    set_glyphs("ascii")
    game = played_game(players=4, moves=30, seed=3)
    view = game.view(1)
    face = face_up_stops(view)
    tour = MapOverlay(tour_line="red", bus_at="bastille", scoring=(("orsay", "+3"),))
    for overlay in (MapOverlay(face_up=face, selected=face[0]), tour):
        async with MapApp(view, overlay, legend=True).run_test(size=size) as pilot:
            board_map = pilot.app.query_one(BoardMap)
            drawn = "\n".join(rows(board_map))
            assert drawn.isascii(), sorted({ch for ch in drawn if not ch.isascii()})
            for stop in view.board.stops:
                region = board_map.token_region(stop.id)
                assert region is not None
                slots = cells(board_map, region)[1:-1]
                owners = view.occupancy[stop.index]
                for k, (ch, _style) in enumerate(slots):
                    assert ch == (ASCII.player(owners[k]) if k < len(owners) else ".")
            if overlay is tour:
                assert "&" in drawn and "=" in drawn


async def test_switching_the_set_redraws_the_map() -> None:
    game = played_game(players=4, moves=30, seed=3)
    view = game.view(0)
    async with MapApp(view).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        token = board_map.token_region("opera")
        before = "\n".join(strip.text for strip in (board_map.render_line(y) for y in range(30)))
        assert "Opéra" in before and "●" in before and "─" in before
        set_glyphs("ascii")
        board_map.refresh()
        await pilot.pause()
        after = "\n".join(strip.text for strip in (board_map.render_line(y) for y in range(30)))
        assert after.isascii() and "Opera" in after and "@" in after
        # the drawing is the same size: every row the same width, stops where they were
        assert [len(r) for r in after.split("\n")] == [len(r) for r in before.split("\n")]
        assert board_map.token_region("opera") == token
        set_glyphs("unicode")
        board_map.refresh()
        await pilot.pause()
        again = "\n".join(strip.text for strip in (board_map.render_line(y) for y in range(30)))
        assert again == before


async def test_tooltip_in_ascii() -> None:
    set_glyphs("ascii")
    game = played_game(players=4, moves=30, seed=3)
    view = game.view(0)
    async with MapApp(view).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        tip = board_map.describe_stop("opera")
        assert tip.startswith("Opera (")
        held = [ASCII.player(p) for p in view.occupancy[view.board.stop_index["opera"]]]
        for symbol in held:
            assert symbol in tip


def test_legend_in_ascii() -> None:
    view = played_game(players=4).view(0)
    set_glyphs("ascii")
    legend = map_legend(view).plain
    assert legend.isascii() and "(.) stop  [..] crossing" in legend
    for seat in range(4):
        assert player_style(seat).symbol in legend
    cut = map_legend(view, width=12).plain
    assert cut.endswith("...") and len(cut) <= 12
