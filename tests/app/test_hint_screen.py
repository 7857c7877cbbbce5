"""The hint on the game screen: h on your turn, worked out in a thread."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from paris_tui.ai.hint import hint
from paris_tui.app.app import ParisApp
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.widgets.hint import HintPanel, margin_text

from .helpers import _plain, find_game, make_app, new_session, press


async def _until(pilot: Pilot[object], condition: object, seconds: float = 60.0) -> None:
    """Wait (bounded) until ``condition()`` holds: the hint's thread may be slow under load."""
    assert callable(condition)
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


def _panel_text(game: GameScreen) -> str:
    return _plain(game.query_one(HintPanel).content)


async def _game_on_turn(app: ParisApp, pilot: Pilot[object]) -> GameScreen:
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "no turn came"
        game = find_game(app)
        if game is not None and game.turn_seat is not None and app.screen is game:
            return game
        if isinstance(app.screen, HandoffScreen):
            await press(pilot, "enter")
        else:
            await pilot.pause(0.05)


async def test_h_shows_the_hint_for_the_seat_to_move_and_h_hides_it(data_dir: Path) -> None:
    app = make_app(new_session("Ann,Bob", 5, data_dir / "g.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        game = await _game_on_turn(app, pilot)
        seat = game.turn_seat
        assert seat is not None
        assert game.check_action("hint", ()) is True  # in the footer on your turn
        await press(pilot, "h")
        panel = game.query_one(HintPanel)
        assert panel.shown
        await _until(pilot, lambda: panel.result is not None)
        expected = hint(game.seat_view(seat))
        assert panel.result == expected
        text = _panel_text(game)
        star = current_glyphs().star
        best_line = next(line for line in text.splitlines() if line.startswith(star))
        assert margin_text(expected.for_move(expected.best).margin) in best_line
        assert "Why:" in text
        assert len([line for line in text.splitlines() if line[:1] in (star, " ")]) >= len(
            expected.moves
        )
        await press(pilot, "h")
        assert not panel.shown
        # The turn never waited: the tiles still move and take.
        assert game.turn_seat == seat


async def test_a_move_made_meanwhile_drops_the_hint_and_the_hand_off_hides_it(
    data_dir: Path,
) -> None:
    app = make_app(new_session("Ann,Bob", 6, data_dir / "g.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        game = await _game_on_turn(app, pilot)
        first = game.move_count
        await press(pilot, "h")
        assert game.query_one(HintPanel).shown
        await press(pilot, "enter")  # take the tile before the hint is worked out
        await _until(pilot, lambda: game.move_count > first)
        assert not game.query_one(HintPanel).shown
        await _until(pilot, lambda: isinstance(app.screen, HandoffScreen))
        # Let any hint thread end: its answer is for a position that is gone.
        await _until(pilot, lambda: not [w for w in game.workers if w.group == "hint"])
        await pilot.pause(0.2)
        assert not game.query_one(HintPanel).shown
        assert game.query_one(HintPanel).result is None
        assert current_glyphs().star not in _panel_text(game)


async def test_no_hint_off_turn_nor_at_a_host_that_does_not_allow_it(data_dir: Path) -> None:
    app = make_app(new_session("Ann,ai:greedy", 7, data_dir / "g.json"), ai_delay=30.0)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await _game_on_turn(app, pilot)
        await press(pilot, "enter")
        await _until(pilot, lambda: game.turn_seat is None)
        assert game.check_action("hint", ()) is False
        await press(pilot, "h")
        assert not game.query_one(HintPanel).shown
        game.networked = True  # as at a host's table whose Welcome did not allow hints
        assert not game.hints_allowed


async def test_at_a_host_that_allows_hints_h_works_from_the_seats_own_view() -> None:
    from paris_tui.app.screenshots import build_session

    from .test_remote_screen import PushedTable, StillLink

    class HintsTable(PushedTable):
        hints_allowed = True

    session = build_session("Ann,Bob", 3, 0)
    seat = session.view(None).to_move
    assert seat is not None
    for allowed in (True, False):
        table = HintsTable(session, seat) if allowed else PushedTable(session, seat)
        app = ParisApp(link=StillLink(table), anim=0.0, ai_delay=0.0, cursor_blink=False)  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            game = await _game_on_turn(app, pilot)
            assert game.networked and game.hints_allowed is allowed
            assert game.check_action("hint", ()) is allowed
            await press(pilot, "h")
            panel = game.query_one(HintPanel)
            assert panel.shown is allowed
            if allowed:
                await _until(pilot, lambda p=panel: p.result is not None)
                expected = hint(session.view(seat))  # this seat's own view, nothing else
                star = current_glyphs().star
                best = next(line for line in _panel_text(game).splitlines() if star in line)
                assert margin_text(expected.for_move(expected.best).margin) in best


def test_the_reason_in_words_names_are_data() -> None:
    from paris_tui.ai.hint import HintReason
    from paris_tui.app.widgets.hint import reason_text
    from paris_tui.core import classic_board

    board = classic_board()
    names = ("Ann", "[bold red]Bob[/]\x1b[2J")
    reason = HintReason(
        opened="pompidou",
        count_there=2,
        next_to=("marais",),
        removed=1,
        removed_to="sack",
        leftover="opera/blue",
        leftover_certain=True,
        small_points=2,
        grand_line="blue",
        grand_points=3,
    )
    text = reason_text(board, names, 0, reason)
    assert text.startswith(
        "opens your second business at Pompidou; next to your business at Marais"
    )
    assert "[bold red]Bob[/]" in text and "\x1b" not in text  # shown as it is, escaped
    assert "goes into the sack" in text
    assert "the left-over Opéra (B) tile then pays you 2 points" in text
    assert "its grand tour on the Blue line pays you 3 points" in text
    guess = reason_text(
        board, names, 0, HintReason(None, 0, (), None, None, "opera/blue", False, 1, None, 0)
    )
    assert guess == (
        "your supply is empty: the tile opens no business; "
        "the left-over tile will likely be Opéra (B), paying you 1 point"
    )


@pytest.mark.parametrize(("lang", "line"), [("de", "Blaue Linie"), ("zh-TW", "藍線")])
def test_the_reason_names_the_line_in_the_readers_language(lang: str, line: str) -> None:
    from paris_tui import i18n
    from paris_tui.ai.hint import HintReason
    from paris_tui.app.widgets.hint import reason_text
    from paris_tui.core import classic_board

    i18n.set_language(lang)  # tests/conftest.py puts English back
    reason = HintReason("opera", 1, (), None, None, "opera/blue", True, 2, "blue", 3)
    text = reason_text(classic_board(), ("Ann", "Bob"), 0, reason)
    assert line in text
    assert "Blue" not in text


async def test_a_move_stops_the_hints_search_in_its_thread(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paris_tui.ai.hint import HintCancelled
    from paris_tui.app.screens import game_hint as game_module

    ended: list[str] = []

    def endless_hint(view: object, **kwargs: object) -> object:
        try:
            return hint(view, simulations=10**7, **kwargs)  # type: ignore[arg-type]
        except HintCancelled:
            ended.append("cancelled")
            raise

    monkeypatch.setattr(game_module, "hint", endless_hint)
    app = make_app(new_session("Ann,Bob", 6, data_dir / "g.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        game = await _game_on_turn(app, pilot)
        await press(pilot, "h")
        await pilot.pause(0.3)  # the search is under way
        assert not ended
        await press(pilot, "enter")
        await _until(pilot, lambda: ended == ["cancelled"])  # 10**7 simulations: hours
        assert not game.query_one(HintPanel).shown


def test_margins_as_each_language_writes_them() -> None:
    """The hint's and the review's margins with a decimal comma in German."""
    from paris_tui import i18n
    from paris_tui.app.widgets.hint import margin_text

    try:
        assert margin_text(3.24) == "+3.2" and margin_text(-1.46).endswith("1.5")
        i18n.set_language("de")
        assert margin_text(3.24) == "+3,2" and margin_text(-1.46).endswith("1,5")
        assert margin_text(0.01).endswith("0,0")
        assert i18n.decimal(12.345, 2) == "12,35" and i18n.decimal(-0.5) == "-0,5"
        i18n.set_language("zh-TW")
        assert margin_text(3.24) == "+3.2"
    finally:
        i18n.set_language("en")
