"""The screens at 80x24 and 120x40 (except the map).

Each test reads what the terminal shows (the rendered screen, cropped to a
widget's region) or a widget's own text, at the sizes a player uses: nothing
that matters is cut (never a number, never a marker), nothing wraps
awkwardly, the takeover dialog says plainly what happens, the game end
reveals its result in order, and the footer's keys are true.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Footer

from paris_tui.app.look.describe import describe_events, preview_text
from paris_tui.app.look.frames import build_frames
from paris_tui.app.look.palette import player_style
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.new_game import NewGameScreen
from paris_tui.app.screens.takeover import TakeoverDialog
from paris_tui.app.screenshots import _policy, build_session
from paris_tui.app.terminal.fit import Fit
from paris_tui.app.widgets.map_view import BoardMap
from paris_tui.app.widgets.panels import GameLog, PlayersPanel, PreviewBar, RoutePanel, TilePanel
from paris_tui.core import ScoreEvent, TourEvent, classic_board
from paris_tui.core.analysis import LeftoverPreview

from .helpers import find_game, make_app, press, screen_text

SMALL = (80, 24)
LARGE = (120, 40)
NUMBERS = re.compile(r"\+(\d+)")


def region_lines(app: App[object], widget: Widget) -> list[str]:
    """What the terminal shows in ``widget``'s region, line by line (right spaces kept)."""
    rows = screen_text(app).split("\n")
    region = widget.region
    return [rows[y][region.x : region.right] for y in range(region.y, region.bottom)]


async def footer_text(pilot: Pilot[object]) -> str:
    """The footer's keys as drawn (the footer is rebuilt a moment after a screen shows)."""
    app = pilot.app
    for _ in range(20):
        footer = app.screen.query_one(Footer)
        text = "\n".join(region_lines(app, footer))
        if text.strip():
            return text
        await pilot.pause(0.05)
    return ""


def render(renderable: object, width: int, height: int | None = None) -> list[str]:
    """``renderable`` drawn ``width`` cells wide (in a widget ``height`` lines high)."""
    console = Console(width=width, file=io.StringIO())
    options = console.options.update(width=width, height=height)
    lines = console.render_lines(renderable, options, pad=False)  # type: ignore[arg-type]
    return ["".join(segment.text for segment in line) for line in lines]


async def to_turn(pilot: Pilot[object]) -> GameScreen:
    """Past a hand-off (if any) to the turn of a human seat."""
    await pilot.pause()
    if isinstance(pilot.app.screen, HandoffScreen):
        await press(pilot, "enter")
        await pilot.pause()
    game = find_game(pilot.app)
    assert game is not None and game.turn_seat is not None
    return game


def expected_numbers(preview: LeftoverPreview) -> list[str]:
    return [str(p) for p in preview.small_tour if p] + [str(p) for p in preview.grand_tour if p]


# --- cut text: the preview ----------------------------------------------------------


async def test_preview_keeps_every_number_of_the_grand_tour_at_80x24() -> None:
    # Seed 1 after 34 moves: tile 3 (Hôtel de Ville, red) would run the red grand tour.
    session = build_session("Annabelle,Bartholomew,Cyprian", 1, 34)
    app = make_app(session)
    async with app.run_test(size=SMALL) as pilot:
        game = await to_turn(pilot)
        for index in range(len(game.view.face_up)):
            await press(pilot, str(index + 1))
            await pilot.pause()
            preview = game.previews()[game.view.face_up[index]]
            (row,) = region_lines(app, game.query_one(PreviewBar))
            assert NUMBERS.findall(row) == expected_numbers(preview), row
            if preview.triggers_grand_tour:
                assert "grand" in row
            assert not row.rstrip().endswith("…"), row


async def test_preview_says_what_it_assumes_and_on_the_last_move_what_taking_leaves() -> None:
    """Before the round's last move the bar says it assumes the board as it is now;
    on the last move it names the tile that taking the highlighted one leaves over."""
    from paris_tui.app.look.describe import stop_name

    for moves, last in ((34, False), (35, True)):  # seed 1, 3 players: 2nd, then 3rd mover
        session = build_session("Ann,Bob,Cy", 1, moves)
        app = make_app(session)
        async with app.run_test(size=SMALL) as pilot:
            game = await to_turn(pilot)
            face_up = game.view.face_up
            assert (len(face_up) == 2) == last
            for index in range(len(face_up)):
                await press(pilot, str(index + 1))
                await pilot.pause()
                row = region_lines(app, game.query_one(PreviewBar))[0].strip()
                if not last:
                    assert row.startswith("Left over now: ") or "(board as now)" in row, row
                    continue
                other = face_up[1 - index]
                assert row.startswith(("Leaves ", "Taking it leaves ")), row
                assert stop_name(game.view.board, other.split("/")[0])[:5] in row, row
                preview = game.previews()[face_up[index]]
                assert preview.leaves == other
                assert NUMBERS.findall(row) == expected_numbers(preview), row


def test_preview_fits_four_long_names_in_80_columns() -> None:
    board = classic_board()
    names = tuple(f"{c}" * 20 for c in "ABCD")
    preview = LeftoverPreview("opera/blue", (3, 12, 1, 2), "Blue line", (14, 2, 9, 11), ())
    for width, height in ((78, 1), (118, 2)):
        lines = render(preview_text(board, names, preview), width, height)
        assert len(lines) <= height
        assert all(cell_len(line.rstrip()) <= width for line in lines)
        numbers = NUMBERS.findall(" ".join(lines))
        assert numbers == ["3", "12", "1", "2", "14", "2", "9", "11"], lines
    two = LeftoverPreview("opera/blue", (3, 12), "Blue line", (14, 2), ())
    (wide,) = render(preview_text(board, ("Ann", "Bob"), two), 118, 1)
    assert "● Ann +3, ▲ Bob +12" in wide  # names whole where they fit
    assert "grand tour [B] Blue line: ● Ann +14, ▲ Bob +2" in wide


async def test_preview_keeps_its_height_at_120x40_and_the_map_does_not_move() -> None:
    session = build_session("Annabelle-Marie,ai:strong,ai:greedy", 1, 34)
    app = make_app(session)
    async with app.run_test(size=LARGE) as pilot:
        game = await to_turn(pilot)
        bar = game.query_one(PreviewBar)
        board_map = game.query_one(BoardMap)
        regions = set()
        for index in range(len(game.view.face_up)):
            await press(pilot, str(index + 1))
            await pilot.pause()
            preview = game.previews()[game.view.face_up[index]]
            regions.add((board_map.region, bar.region))
            rows = " ".join(region_lines(app, bar))
            assert NUMBERS.findall(rows) == expected_numbers(preview), rows
            assert "▲ Strong AI +" in rows or not preview.grand_tour[1]  # names whole
        assert len(regions) == 1


# --- cut text: tiles, players, route, status -------------------------------------------


def tile_markers(game: GameScreen, index: int) -> str:
    view = game.view
    stop = view.face_up[index].split("/")[0]
    owners = view.businesses_at(stop)
    marks = "".join(player_style(p).symbol for p in owners)
    if len(owners) >= view.board.capacity[view.board.stop_index[stop]]:
        marks += " full"
    return marks


async def test_tile_rows_keep_their_markers_at_80x24_and_names_at_120x40() -> None:
    board = classic_board()
    for size in (SMALL, LARGE):
        session = build_session("Annabelle,Bartholomew,Cyprian", 1, 34)
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            game = await to_turn(pilot)
            panel = game.query_one(TilePanel)
            for index, tile in enumerate(game.view.face_up):
                row = game.query_one(f"#tile-{index}")
                (line,) = region_lines(app, row)
                assert cell_len(line) <= panel.content_region.width
                marks = tile_markers(game, index)
                assert line.rstrip().endswith(marks), (line, marks)
                stop, colour = tile.split("/")
                letter = board.lines[board.line_index[colour]].letter
                assert f"{index + 1} [{letter}] " in line
                name = board.stops[board.stop_index[stop]].name
                if size == LARGE:
                    assert name in line
            assert any("full" in tile_markers(game, i) for i in range(len(game.view.face_up)))


async def test_players_panel_shows_names_scores_and_the_sack_whole_at_the_end() -> None:
    # Seed 4 ends 76 / 34 / 21 with 12 businesses in the sack.
    session = build_session("Annabelle,Bartholomew,Cyprian", 4)
    while not session.view(None).is_over:
        session.play(_policy(session))
    view = session.view(None)
    app = make_app(session)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        app.pop_screen()
        await pilot.pause()
        panel = app.screen.query_one(PlayersPanel)
        text = "\n".join(region_lines(app, panel))
        assert f"In the sack: {view.sack_total}" in text
        for seat, score in enumerate(view.scores):
            row = next(r for r in text.split("\n") if player_style(seat).symbol in r)
            assert re.search(rf"\b{score}\b", row), row


async def test_ai_names_are_whole_after_a_resize_and_the_log_rewraps() -> None:
    players = "Annabelle-Marie,ai:strong,ai:greedy"
    fresh: dict[tuple[int, int], tuple[list[str], list[str]]] = {}
    for size in (SMALL, LARGE):
        app = make_app(build_session(players, 1, 34))
        async with app.run_test(size=size) as pilot:
            game = await to_turn(pilot)
            log = game.query_one(GameLog)
            fresh[size] = (
                region_lines(app, game.query_one(PlayersPanel)),
                ["".join(s.text for s in strip).rstrip() for strip in log.lines],
            )
    assert any("▲ Strong AI" in line for line in fresh[LARGE][0])
    app = make_app(build_session(players, 1, 34))
    async with app.run_test(size=SMALL) as pilot:
        game = await to_turn(pilot)
        log = game.query_one(GameLog)
        for size in (LARGE, SMALL, LARGE):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            players_lines = region_lines(app, game.query_one(PlayersPanel))
            log_lines = ["".join(s.text for s in strip).rstrip() for strip in log.lines]
            assert players_lines == fresh[size][0]
            assert log_lines == fresh[size][1]


async def test_route_and_status_take_one_line_each_at_80x24() -> None:
    # Seed 7: seat 0's route is the green line, seed 3: seat 1's is the yellow line.
    for seed, moves, letter in ((7, 0, "G"), (3, 19, "Y")):
        session = build_session("Annabelle,Bartholomew,Cyprian", seed, moves)
        app = make_app(session)
        async with app.run_test(size=SMALL) as pilot:
            game = await to_turn(pilot)
            route = game.query_one(RoutePanel)
            assert route.region.height == 1
            (line,) = region_lines(app, route)
            assert line.startswith("Your route") or line.startswith("Route")
            assert f"({letter})" in line
            status = game.query_one("#status")
            assert len(region_lines(app, status)) == 1 + 1  # its text and the rule under it
            assert game.view.names[game.turn_seat or 0] in region_lines(app, status)[0]


async def test_side_panel_fits_at_80x24_with_two_three_and_four_players() -> None:
    for players in ("Annabelle,Bartholomew", "Ann,Bob,Cy", "Ann,Bob,Cy,Dee"):
        app = make_app(build_session(players, 2, 0))
        async with app.run_test(size=SMALL) as pilot:
            game = await to_turn(pilot)
            side = game.query_one("#side")
            assert side.max_scroll_y == 0, players  # nothing hidden below the fold
            tiles = game.query_one(TilePanel)
            assert tiles.region.bottom <= side.region.bottom


def test_tour_captions_keep_every_number_in_one_line_at_80_columns() -> None:
    session = build_session("Annabelle,Bartholomew-Jon,Cyprian,Dorothea", 11)
    frames = []
    while not session.view(None).is_over:
        frames += build_frames(
            session.view(None).board, session.names, session.play(_policy(session))
        )
    assert any(f.caption.plain.startswith("Special tour") for f in frames)
    for frame in frames:
        expected = NUMBERS.findall(frame.caption.plain)
        (line,) = render(frame.caption, 78, 1)
        assert cell_len(line.rstrip()) <= 78
        assert NUMBERS.findall(line) == expected, (frame.caption.plain, line)
        full = render(frame.caption, 118, 2)
        assert NUMBERS.findall(" ".join(full)) == expected


async def test_game_end_screen_fits_80x24_with_four_long_names() -> None:
    session = build_session("Annabelle,Bartholomew-Jon,Cyprian,Dorothea", 4)
    while not session.view(None).is_over:
        session.play(_policy(session))
    app = make_app(session, anim=0.01)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            end = app.screen
            if isinstance(end, EndScreen) and end.shown == len(end.items):
                break
        assert isinstance(end, EndScreen)
        await pilot.pause(0.1)
        text = screen_text(app)
        assert "Game over" in text.split("\n")[1]  # the top is not scrolled away
        assert "wins" in text or "share" in text
        assert "Play again" in text
        for tour in end.tours:
            row = next(r for r in text.split("\n") if r.strip().startswith("Special tour"))
            assert row
            numbers = [str(p) for p in tour.points if p]
            rows = [r for r in text.split("\n") if NUMBERS.findall(r) == numbers]
            assert rows, (numbers, text)
        footer = await footer_text(pilot)
        assert "Show all" not in footer and "Play again" in footer


async def test_enter_during_the_reveal_presses_no_hidden_button() -> None:
    """The buttons show once the result is all shown; before, Enter pressed the hidden
    Play again (a new game, the result never seen). Once shown, Enter plays again."""
    app = make_app(build_session("Ann,Bob,Cy", 4, 44), anim=5.0)
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "enter", "enter")  # the hand-off, the last move
        for _ in range(40):  # bounded: Space skips each final tour's animation
            if isinstance(app.screen, EndScreen):
                break
            await press(pilot, "space")
        end = app.screen
        assert isinstance(end, EndScreen) and end.shown < len(end.items)
        await press(pilot, "enter")
        assert app.screen is end and end.shown < len(end.items)
        await press(pilot, "space")  # shows all: the buttons come, Play again focused
        await pilot.pause()
        assert end.shown == len(end.items)
        assert isinstance(app.focused, Button) and app.focused.id == "play-again"
        await press(pilot, "enter")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)  # a new game's first hand-off


# --- awkward wraps ------------------------------------------------------------------


async def test_hand_off_says_who_may_look_on_lines_of_its_own() -> None:
    for name in ("Ann", "Bartholomew-Johnson"):
        session = build_session(f"{name},Bob", 3, 0)
        app = make_app(session)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, HandoffScreen)
            info = app.screen.query_one("#handoff-info")
            lines = [line.strip() for line in region_lines(app, info)]
            assert "Round 1 of" in lines[0]
            assert any(line.startswith(f"Only {name} ") and line.endswith("now.") for line in lines)


def test_log_lines_of_a_whole_game_fit_80_columns_with_ai_names() -> None:
    session = build_session("Strong AI,Greedy AI,Random AI", 2)
    while not session.view(None).is_over:
        session.play(_policy(session))
    view = session.view(None)
    lines = describe_events(view.board, view.names, session.events)
    assert len(lines) > 100
    for line in lines:
        assert cell_len(line.plain) <= 77, line.plain


def test_a_small_tour_that_scores_nothing_says_so() -> None:
    # Seed 3's first round: the small tour from Jardin des Plantes finds no business.
    session = build_session("Ann,Bob,Cy", 3, 3)
    view = session.view(None)
    events = session.events
    index = next(i for i, e in enumerate(events) if isinstance(e, TourEvent))
    assert not isinstance(events[index + 1], ScoreEvent)
    text = "\n".join(line.plain for line in describe_events(view.board, view.names, events))
    assert "Small tour from Jardin des Plantes: nobody scores" in text


async def test_the_footer_says_how_to_scroll_the_log() -> None:
    app = make_app(build_session("Ann,Bob,Cy", 3, 30))
    async with app.run_test(size=SMALL) as pilot:
        game = await to_turn(pilot)
        assert "PgUp" in await footer_text(pilot) and "Log" in await footer_text(pilot)
        log = game.query_one(GameLog)
        assert log.max_scroll_y > 0
        bottom = log.scroll_y
        await press(pilot, "pageup")
        await pilot.pause()
        assert log.scroll_y < bottom
        assert game.turn_seat is not None  # the key scrolled, it took no tile
        await press(pilot, "pagedown")
        await pilot.pause()
        assert log.scroll_y == bottom


# --- the takeover dialog ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seed", "moves", "index", "into", "own_first"),
    [
        # Ann may remove her own business or Cy's at Pompidou (the core lists hers first).
        ("Ann,Bob,Cy", 1, 18, 3, "into the sack", True),
        # Two players: Ann's removed business goes back to her supply (R4).
        ("Ann,Bob", 3, 6, 0, "back to their supply", False),
    ],
)
async def test_takeover_dialog_says_plainly_and_offers_the_opponent_first(
    players: str, seed: int, moves: int, index: int, into: str, own_first: bool
) -> None:
    session = build_session(players, seed, moves)
    app = make_app(session)
    async with app.run_test(size=SMALL) as pilot:
        game = await to_turn(pilot)
        mover = game.turn_seat
        assert mover is not None
        tile = game.view.face_up[index]
        core_order = [m.evict for m in game.view.legal_moves if m.tile == tile]
        # The core's order, which made Down+Enter remove one's own business:
        assert (core_order[0] == mover) is own_first
        await press(pilot, str(index + 1), "enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, TakeoverDialog)
        labels = [str(b.label) for b in dialog.query(Button)]
        (other,) = [seat for seat in core_order if seat != mover]
        own = "Remove your own business (back to your supply)"
        assert labels == [f"Remove {session.names[other]}'s business ({into})", own]
        focused = app.focused
        assert isinstance(focused, Button) and str(focused.label) == labels[0]
        text = screen_text(app)
        for label in labels:
            assert label in text  # whole at 80x24
        await press(pilot, "enter")
        await pilot.pause()
        removed = [m.evict for m in session.record().moves[-1:]]
        assert removed == [other]


# --- the game end -----------------------------------------------------------------------


async def test_the_game_end_reveals_the_result_in_order() -> None:
    session = build_session("Ann,Bob,Cy", 4)
    total = session.view(None).rounds_total * 3
    while session.move_count < total - 1:
        session.play(_policy(session))
    before = session.view(None).scores
    app = make_app(session, anim=100.0)  # frames stay until stepped on below
    async with app.run_test(size=LARGE) as pilot:
        game = await to_turn(pilot)
        await press(pilot, "enter")
        if isinstance(app.screen, TakeoverDialog):
            await press(pilot, "enter")
        await pilot.pause()
        assert session.view(None).is_over
        log = game.query_one(GameLog)

        def log_text() -> str:
            return "\n".join("".join(s.text for s in strip) for strip in log.lines)

        def shown_scores() -> list[int]:
            text = "\n".join(region_lines(app, game.query_one(PlayersPanel)))
            return [
                int(re.findall(r"\s(\d+)(?:↻\d+)?\s+\d+\s*$", row)[0])
                for row in text.split("\n")
                if any(player_style(s).symbol in row for s in range(3))
            ]

        seen_special = False
        steps = 0
        while game.frame is not None:
            steps += 1
            assert steps < 200
            assert "Game over" not in log_text()
            assert "wins" not in log_text()
            assert "Game over" not in "\n".join(region_lines(app, game.query_one("#status")))
            caption = game.frame.caption.plain
            if caption.startswith("Special tour"):
                seen_special = True
            if not seen_special:
                assert "Special tour" not in log_text()
                assert shown_scores() != list(session.view(None).scores) or before == tuple(
                    session.view(None).scores
                )
            if game.frame_timer is not None:
                game.frame_timer.stop()
            game._next_frame()
            await pilot.pause()
        assert seen_special
        assert "Game over" in log_text()
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)


# --- footer keys that are true ------------------------------------------------------------


async def test_new_game_footer_offers_only_keys_that_work() -> None:
    app = make_app(None)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        footer = await footer_text(pilot)
        assert "Back" not in footer  # nothing to go back to
        assert "^q" in footer and "Quit" in footer
        await pilot.press("q")
        assert app.is_running and app.screen.query_one("#name-0").value.endswith("q")  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code is not None or not app.is_running


async def test_new_game_from_a_game_offers_back() -> None:
    app = make_app(build_session("Ann,Bob", 3, 0))
    async with app.run_test(size=SMALL) as pilot:
        await to_turn(pilot)
        app.action_new_game()
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "Back" in await footer_text(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


def test_fit_picks_the_first_wording_that_fits() -> None:
    fit = Fit([Text("a long wording"), Text("short")])
    assert render(fit, 20) == ["a long wording"]
    assert render(fit, 8) == ["short"]
    assert render(fit, 3) == ["sh…"]
    two = Fit([Text("one line, long"), Text("two\nlines"), Text("one")])
    assert render(two, 10) == ["two", "lines"]
    assert render(two, 10, 1) == ["one"]


async def test_a_grand_tours_points_follow_the_bus_stop_by_stop() -> None:
    """While the bus stands at a crossing, the log lists the points of the
    crossings it has reached and no later one, and the scores shown add up just those."""
    from paris_tui.app.look.describe import stop_name
    from paris_tui.core.analysis import leftover_previews

    session = build_session("Ann,Bob,Cy", 3, 20)  # the last move: face-up tile 1 runs a tour
    view = session.view(None)
    preview = leftover_previews(view)[view.face_up[0]]
    assert preview.triggers_grand_tour and not preview.depends
    (tour,) = [e for e in preview.events if isinstance(e, TourEvent) and e.kind == "grand_tour"]
    points = [e for e in preview.events if isinstance(e, ScoreEvent) and e.kind == "grand_tour"]
    assert len({e.stop for e in points}) >= 3
    app = make_app(session, anim=100.0)  # frames stay until stepped on below
    async with app.run_test(size=LARGE) as pilot:
        game = await to_turn(pilot)
        await press(pilot, "enter")
        if isinstance(app.screen, TakeoverDialog):
            await press(pilot, "enter")
        await pilot.pause()
        board = game.view.board
        log = game.query_one(GameLog)
        at_stops = 0
        steps = 0
        while game.frame is not None:
            steps += 1
            assert steps < 100
            frame = game.frame
            if frame.tour_line == tour.line and frame.bus_at is not None:
                at_stops += 1
                reached = tour.stops[: tour.stops.index(frame.bus_at) + 1]
                text = "\n".join("".join(s.text for s in strip) for strip in log.lines)
                under = text.rsplit("Grand tour:", 1)[1]
                for event in points:
                    name = stop_name(board, event.stop or "")
                    assert (f"at {name}" in under) == (event.stop in reached), (frame.bus_at, under)
                shown = list(view.scores)
                for event in points:
                    if event.stop in reached:
                        shown[event.seat] += event.points
                small = [e for e in preview.events if isinstance(e, ScoreEvent)]
                for event in small:
                    if event.kind == "small_tour":
                        shown[event.seat] += event.points
                assert game.shown_scores == tuple(shown), frame.bus_at
            if game.frame_timer is not None:
                game.frame_timer.stop()
            game._next_frame()
            await pilot.pause()
        assert at_stops == len(tour.stops)
        assert game.shown_scores is None  # the tour over: the real scores


async def test_a_toast_keeps_the_file_name_whole_and_leaves_the_preview_bar_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Save a copy" at 80x24: the file name on one line of its own, and the
    toast over the log, below the preview bar (it covered the bar and cut the name)."""
    monkeypatch.setenv("PARIS_TUI_DATA_DIR", str(tmp_path / "a-rather-long-data-directory"))
    session = build_session("Ann,Bob,Cy", 1, 34)
    app = make_app(session)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        game = await to_turn(pilot)
        await pilot.pause()
        bar = game.query_one(PreviewBar)
        before = region_lines(app, bar)
        app.action_save_copy()
        deadline = 50
        while "Saved a copy" not in screen_text(app) and deadline:
            deadline -= 1
            await pilot.pause(0.05)
        text = screen_text(app)
        assert "Saved a copy" in text
        name = f"game-move{session.move_count}.json"
        whole = re.compile(r"(^|\s)" + re.escape(name) + r"(\s|$)")
        assert any(whole.search(line) for line in text.split("\n")), text
        assert region_lines(app, bar) == before  # the preview bar is not covered


@pytest.mark.parametrize("language", ["en", "de", "zh-TW"])
async def test_the_help_keys_table_keeps_each_key_on_one_line(language: str) -> None:
    """At 80x24 the help's keys column wrapped `← → ↑ ↓ or 1-5` over three
    lines; every key cell of the table is drawn whole on one line."""
    from paris_tui.app.screens.help import HelpScreen, help_text

    keys = [
        row.split("|")[1].strip()
        for row in help_text(language).splitlines()
        if row.startswith("|") and not row.startswith("| ---")
    ][1:]  # the heading row is not a key
    assert keys
    app = make_app(build_session("Ann,Bob", 1, 4))
    async with app.run_test(size=SMALL) as pilot:
        await to_turn(pilot)
        app.choose_language(language)
        await pilot.pause()
        await press(pilot, "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        box = app.screen.query_one("#help-box")
        cells: set[str] = set()
        for _ in range(30):
            for line in screen_text(app).split("\n"):
                parts = line.split("│")
                if len(parts) > 3:
                    cells.add(parts[1].strip())
            if box.scroll_y >= box.max_scroll_y:
                break
            box.scroll_page_down(animate=False)
            await pilot.pause()
        missing = [key.replace("`", "") for key in keys if key.replace("`", "") not in cells]
        assert not missing, (missing, sorted(cells))
