"""The board map widget: names, businesses, overlays, sizes, NO_COLOR, themes, clicks.

The layouts themselves are tested without an app in ``test_map_layout.py``.

Rules cited: R1 (stops, crossings, capacity), R4 (businesses at a stop).
Snapshots: ``tests/app/__snapshots__/test_board_map/`` (regenerate with
``pytest tests/app/test_board_map.py --snapshot-update`` and look at them).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.color import Color
from textual.containers import Container
from textual.geometry import Region

from paris_tui.app.look.palette import LINE_COLOURS, LINE_COLOURS_LIGHT, PLAYER_STYLES, player_style
from paris_tui.app.map.layout import LETTER, SHORT_NAMES, MapOverlay
from paris_tui.app.map.legend import map_legend
from paris_tui.app.widgets.board_map import BoardMap
from paris_tui.core import Game, SeatView

from .helpers import find_game, make_app, new_session
from .test_map_layout import other_board

MAP_CSS = Path(__file__).resolve().parents[2] / "styles" / "map.tcss"
COMPACT = (54, 18)
COMFORTABLE = (80, 30)
SIZES = [(1, 1), (10, 5), (40, 12), (54, 18), (80, 30), (120, 40)]


class MapApp(App[None]):
    """A bare app holding one map, styled by the repository's styles/map.tcss."""

    CSS_PATH = MAP_CSS

    def __init__(
        self,
        view: SeatView | None = None,
        overlay: MapOverlay | None = None,
        *,
        legend: bool = False,
        theme: str = "textual-dark",
    ) -> None:
        super().__init__()
        self.start_view = view
        self.start_overlay = overlay
        self.legend = legend
        self.start_theme = theme
        self.clicked: list[BoardMap.StopClicked] = []

    def compose(self) -> ComposeResult:
        yield BoardMap(self.start_view, self.start_overlay, legend=self.legend)

    def on_mount(self) -> None:
        self.theme = self.start_theme

    def on_board_map_stop_clicked(self, message: BoardMap.StopClicked) -> None:
        self.clicked.append(message)


def played_game(players: int = 3, moves: int = 15, seed: int = 7) -> Game:
    game = Game.new([f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        game.play(legal[int(rng.random() * len(legal))])
    return game


def face_up_stops(view: SeatView) -> tuple[str, ...]:
    return tuple(dict.fromkeys(tile.split("/")[0] for tile in view.face_up))


def rows(board_map: BoardMap) -> list[str]:
    return ["".join(seg.text for seg in strip) for strip in board_map.render_all()]


def cells(board_map: BoardMap, region: Region) -> list[tuple[str, Style]]:
    """(character, style) of each cell of a one-row region of the widget."""
    strip = board_map.render_all()[region.y]
    out: list[tuple[str, Style]] = []
    for seg in strip:
        out.extend((ch, seg.style or Style()) for ch in seg.text)
    return out[region.x : region.x + region.width]


def name_region(board_map: BoardMap, stop: str) -> Region:
    region = board_map.name_region(stop)
    assert region is not None
    return region


# --- the widget in an app --------------------------------------------------------


async def test_comfortable_shows_every_full_name_and_line_letter() -> None:
    view = played_game().view(0)
    async with MapApp(view).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        assert board_map.layout_name == "comfortable"
        text = "\n".join(rows(board_map))
        for stop in view.board.stops:
            assert stop.name in text, stop.name
        for line in view.board.lines:
            assert line.letter in text


async def test_compact_shows_every_short_name() -> None:
    view = played_game().view(0)
    async with MapApp(view).run_test(size=COMPACT) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        assert board_map.layout_name == "compact"
        text = "\n".join(rows(board_map))
        for sid in view.board.stop_ids:
            assert SHORT_NAMES[sid] in text, sid
        for line in view.board.lines:
            assert line.letter in text


@pytest.mark.parametrize("size", [COMPACT, COMFORTABLE])
async def test_businesses_show_owner_symbol_and_colour(size: tuple[int, int]) -> None:
    """R4: each business at its stop, as its owner's symbol in the owner's colour."""
    game = played_game(players=4, moves=30, seed=3)
    view = game.view(1)
    assert sum(len(o) for o in view.occupancy) > 10
    async with MapApp(view).run_test(size=size) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        for stop in view.board.stops:
            region = board_map.token_region(stop.id)
            assert region is not None
            token = cells(board_map, region)
            slots = token[1:-1]
            assert len(slots) == stop.capacity
            owners = view.occupancy[stop.index]
            for k, (ch, style) in enumerate(slots):
                if k < len(owners):
                    look = player_style(owners[k])
                    assert ch == look.symbol, stop.id
                    assert style.color is not None
                    assert style.color.triplet is not None
                    assert style.color.triplet.hex == look.colour.lower()
                else:
                    assert ch == "·", stop.id


async def test_business_appears_after_a_move() -> None:
    game = Game.new(["Ann", "Bob"], seed=11)
    move = game.legal_moves()[0]
    stop = move.tile.split("/")[0]
    async with MapApp(game.view(0)).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        region = board_map.token_region(stop)
        assert region is not None
        before = "".join(ch for ch, _ in cells(board_map, region))
        assert "●" not in before
        game.play(move)
        board_map.update_map(game.view(0))
        await pilot.pause()
        after = "".join(ch for ch, _ in cells(board_map, region))
        assert after[1] == PLAYER_STYLES[0].symbol


async def test_selected_stop_is_lit_and_changes_the_rendering() -> None:
    view = played_game().view(0)
    face = face_up_stops(view)
    async with MapApp(view, MapOverlay(face_up=face)).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        plain = [list(strip) for strip in board_map.render_all()]
        board_map.update_map(view, MapOverlay(face_up=face, selected=face[0]))
        await pilot.pause()
        lit = [list(strip) for strip in board_map.render_all()]
        assert plain != lit
        name = cells(board_map, name_region(board_map, face[0]))
        accent = Color.parse(pilot.app.current_theme.accent or "")
        assert all(style.bgcolor is not None for _, style in name)
        background = name[0][1].bgcolor
        assert background is not None and background.triplet is not None
        lit_colour = Color(*background.triplet)
        assert max(abs(a - b) for a, b in zip(lit_colour.rgb, accent.rgb, strict=True)) <= 2
        # the face-up stops that are not selected are marked (bold + underlined)
        for sid in face[1:]:
            style = cells(board_map, name_region(board_map, sid))[0][1]
            assert style.bold and style.underline
        # only the rows of the two stops that changed are rebuilt
        changed = [y for y, (a, b) in enumerate(zip(plain, lit, strict=True)) if a != b]
        assert 1 <= len(changed) <= 4


async def test_tour_overlay_bus_scores_and_origin() -> None:
    view = played_game().view(0)
    overlay = MapOverlay(
        tour_line="green",
        bus_at="pompidou",
        scoring=(("pompidou", "+3"), ("montmartre", "+1")),
        small_tour_origin="louvre",
    )
    async with MapApp(view).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        before = "\n".join(rows(board_map))
        assert "▣" not in before and "┃" not in before
        board_map.update_map(view, overlay)
        await pilot.pause()
        text = "\n".join(rows(board_map))
        assert "▣" in text  # the bus
        assert "┃" in text  # the tour's line drawn heavy
        assert "+3" in text and "+1" in text
        # the bus sits on the green track next to Pompidou
        token = board_map.token_region("pompidou")
        assert token is not None
        near = [
            rows(board_map)[y][x]
            for y in range(token.y - 1, token.y + 2)
            for x in range(token.x - 1, token.right + 1)
        ]
        assert "▣" in near
        # the small tour's origin is marked
        origin = cells(board_map, name_region(board_map, "louvre"))[0][1]
        assert origin.bold and origin.underline


@pytest.mark.parametrize("size", SIZES)
async def test_no_crash_at_any_size(size: tuple[int, int]) -> None:
    view = played_game().view(0)
    face = face_up_stops(view)
    overlay = MapOverlay(face_up=face, selected=face[0], bus_at="opera", scoring=(("opera", "+2"),))
    async with MapApp(view, overlay, legend=True).run_test(size=size) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        lines = board_map.render_lines(Region(0, 0, *board_map.size))
        assert len(lines) == size[1]
        assert all(line.cell_length == size[0] for line in lines)
        text = "\n".join(rows(board_map))
        if board_map.layout_name == "notice":
            assert size[0] < 54 or size[1] < 15
            if size[0] >= 30:
                assert "Map needs" in text
        else:
            assert "Opéra" in text or "Opéra" in text.replace("\n", "")
        await pilot.resize_terminal(80, 30)
        await pilot.pause()
        assert board_map.layout_name == "comfortable"


async def test_resize_switches_layout() -> None:
    view = played_game().view(0)
    async with MapApp(view).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        assert board_map.layout_name == "comfortable"
        await pilot.resize_terminal(80, 18)
        await pilot.pause()
        assert board_map.layout_name == "wide"
        text = "\n".join(rows(board_map))
        assert all(stop.name in text for stop in view.board.stops)
        await pilot.resize_terminal(*COMPACT)
        await pilot.pause()
        assert board_map.layout_name == "compact"
        assert "Opéra" in "\n".join(rows(board_map))


async def test_empty_widget_and_unknown_ids_do_not_crash() -> None:
    async with MapApp().run_test(size=COMPACT) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        assert board_map.layout_name == ""
        assert board_map.stop_at(5, 5) is None
        board_map.update_map(
            played_game().view(None),
            MapOverlay(face_up=("nowhere",), selected="nowhere", tour_line="purple", bus_at="x"),
        )
        await pilot.pause()
        assert board_map.layout_name == "compact"


async def test_another_board_draws_with_the_generic_layout() -> None:
    game = Game.new(2, seed=1, board=other_board())
    async with MapApp(game.view(0)).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        assert board_map.layout_name == "generic"
        assert any("(" in row or "[" in row for row in rows(board_map))


async def test_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR=1: players by symbol, lines by letter, selection by reverse video."""
    monkeypatch.setenv("NO_COLOR", "1")
    view = played_game(players=4, moves=30, seed=3).view(0)
    face = face_up_stops(view)
    app = MapApp(view, MapOverlay(face_up=face, selected=face[0]))
    async with app.run_test(size=COMFORTABLE) as pilot:
        assert pilot.app.no_color
        board_map = pilot.app.query_one(BoardMap)
        text = "\n".join(rows(board_map))
        owners = {p for o in view.occupancy for p in o}
        for seat in owners:
            assert player_style(seat).symbol in text
        for line in view.board.lines:
            assert line.letter in text
        selected = cells(board_map, name_region(board_map, face[0]))[0][1]
        assert selected.reverse and selected.bold
        screenshot = pilot.app.export_screenshot()
        assert "Montmartre" in screenshot


@pytest.mark.parametrize(
    ("size", "layout_name"),
    [((54, 19), "compact"), ((80, 18), "wide"), (COMFORTABLE, "comfortable")],
)
@pytest.mark.parametrize("tour", [None, "green", "red"])
async def test_no_color_tells_lines_and_players_apart(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], layout_name: str, tour: str | None
) -> None:
    """NO_COLOR=1: every line's letter drawn on its own track (during a tour
    too), every business as its owner's own symbol, scoring labels in reverse video."""
    monkeypatch.setenv("NO_COLOR", "1")
    view = played_game(players=4, moves=40, seed=5).view(0)
    board = view.board
    scoring = tuple((board.stop_ids[s], "+12") for s in board.line_crossings[0])
    overlay = MapOverlay(tour_line=tour, scoring=scoring if tour else ())
    async with MapApp(view, overlay).run_test(size=size) as pilot:
        assert pilot.app.no_color
        board_map = pilot.app.query_one(BoardMap)
        layout = board_map.map_layout
        assert layout is not None and layout.name == layout_name
        ox, oy = board_map.map_offset
        drawn = rows(board_map)
        for line in board.lines:
            letters = [
                (r, c)
                for r in range(layout.height)
                for c in range(layout.width)
                if layout.kind[r][c] == LETTER and layout.ref[r][c] == line.index
            ]
            assert letters, line.id
            assert all(drawn[oy + r][ox + c] == line.letter for r, c in letters), line.id
        symbols = [player_style(seat).symbol for seat in range(4)]
        assert len(set(symbols)) == 4
        for stop in board.stops:
            region = board_map.token_region(stop.id)
            assert region is not None
            slots = drawn[region.y][region.x + 1 : region.right - 1]
            owners = view.occupancy[stop.index]
            assert slots == "".join(symbols[p] for p in owners).ljust(stop.capacity, "·")
        for sid, label in overlay.scoring:
            spot = layout.label_spots[board.stop_index[sid]]
            row, col = spot.cells(len(label))[0]
            shown = cells(board_map, Region(ox + col, oy + row, len(label), 1))
            assert "".join(ch for ch, _ in shown) == label
            assert all(style.reverse for _, style in shown)


async def test_light_theme_uses_the_light_palette() -> None:
    view = played_game().view(0)
    async with MapApp(view, theme="textual-light").run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)

        def track_colours() -> set[str]:
            found: set[str] = set()
            for strip in board_map.render_all():
                for seg in strip:
                    if seg.text and seg.text[0] in "─│" and seg.style and seg.style.color:
                        triplet = seg.style.color.triplet
                        if triplet is not None:
                            found.add(triplet.hex)
            return found

        assert track_colours() <= {c.lower() for c in LINE_COLOURS_LIGHT.values()}
        pilot.app.theme = "textual-dark"
        await pilot.pause()
        assert track_colours() <= {c.lower() for c in LINE_COLOURS.values()}
        assert track_colours()


async def test_click_on_a_stop_posts_stop_clicked() -> None:
    view = played_game().view(0)
    async with MapApp(view).run_test(size=COMFORTABLE) as pilot:
        board_map = pilot.app.query_one(BoardMap)
        region = board_map.token_region("bastille")
        assert region is not None
        await pilot.click(BoardMap, offset=(region.x + 1, region.y))
        await pilot.pause()
        name = name_region(board_map, "louvre")
        await pilot.click(BoardMap, offset=(name.x + 2, name.y))
        await pilot.pause()
        await pilot.click(BoardMap, offset=(0, 0))  # empty ground: nothing
        await pilot.pause()
        assert [m.stop for m in pilot.app.clicked] == ["bastille", "louvre"]
        assert isinstance(pilot.app.clicked[0].stop, str)
        assert board_map.describe_stop("bastille").startswith("Bastille (crossing")


class StopsClicks(Container):
    """Holds the map and stops its StopClicked messages the usual way, ``message.stop()``."""

    def on_board_map_stop_clicked(self, message: BoardMap.StopClicked) -> None:
        message.stop()


class StoppedApp(MapApp):
    def compose(self) -> ComposeResult:
        with StopsClicks():
            yield BoardMap(self.start_view)


async def test_stop_clicked_can_still_be_stopped() -> None:
    """``message.stop`` is the stop id, and calling it still stops the bubbling."""
    async with StoppedApp(played_game().view(0)).run_test(size=COMFORTABLE) as pilot:
        region = pilot.app.query_one(BoardMap).token_region("bastille")
        assert region is not None
        await pilot.click(BoardMap, offset=(region.x + 1, region.y))
        await pilot.pause()
        assert pilot.app.clicked == []


async def test_legend_inside_the_widget_when_there_is_room() -> None:
    view = played_game().view(0)
    async with MapApp(view, legend=True).run_test(size=COMFORTABLE) as pilot:
        text = "\n".join(rows(pilot.app.query_one(BoardMap)))
        assert " B Blue" in text and "● P0" in text


def test_map_legend_names_lines_and_players() -> None:
    view = played_game(players=4).view(0)
    legend = map_legend(view, dark=False)
    plain = legend.plain
    for line in view.board.lines:
        assert f" {line.letter} " in plain
    for seat, name in enumerate(view.names):
        assert f"{player_style(seat).symbol} {name}" in plain
    assert "(·) stop" in plain and "[··] crossing" in plain


@pytest.mark.parametrize(
    ("size", "layout_name"), [((80, 24), "compact"), ((120, 40), "comfortable")]
)
async def test_the_game_screen_gives_the_map_room_for_its_layout(
    size: tuple[int, int], layout_name: str
) -> None:
    """The map area of the game screen holds the hand-made layout meant for the terminal
    (at 80x24 the compact one: a few rows fewer and the map would be a notice)."""
    app = make_app(new_session("Ann,Bob,Cy", 3, None))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # past the hand-off
        await pilot.pause()
        game = find_game(app)
        assert game is not None
        board_map = game.query_one(BoardMap)
        assert board_map.layout_name == layout_name, board_map.size


# --- snapshots (look at them after --snapshot-update) ------------------------------


def snapshot_app(size: tuple[int, int]) -> MapApp:
    game = played_game(players=4, moves=34, seed=2024)
    view = game.view(0)
    face = face_up_stops(view)
    return MapApp(view, MapOverlay(face_up=face, selected=face[1]), legend=size[1] >= 27)


def test_snapshot_compact(snap_compare: Any) -> None:
    assert snap_compare(snapshot_app(COMPACT), terminal_size=COMPACT)


def test_snapshot_comfortable_with_tour(snap_compare: Any) -> None:
    view = played_game(players=4, moves=34, seed=2024).view(0)
    overlay = MapOverlay(
        tour_line="red",
        bus_at="hotel-de-ville",
        scoring=(("hotel-de-ville", "+3"), ("bastille", "+1")),
    )
    app = MapApp(view, overlay, legend=True)
    assert snap_compare(app, terminal_size=COMFORTABLE)
