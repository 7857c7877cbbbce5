"""Complete hot-seat games played by key presses only (R3-R7 through the app).

Each game checks, at every step, that nothing on screen (nor in any widget of
any screen in the stack) shows a seat's secret route except to that seat on
its own turn (R8), that a hand-off comes exactly when the keyboard changes
hands, and at the end that the scores shown equal the rules engine's replay
of the autosaved record. Two of them are played in German and in Traditional
Chinese (chosen as ``--lang`` chooses, and through a Taiwanese locale), where
the route and the winner are looked for in that language's words.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from rich.text import Text

from paris_tui import i18n
from paris_tui.app.look.describe import line_name
from paris_tui.app.look.glyphs import set_glyphs
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.takeover import TakeoverDialog
from paris_tui.core import classic_board
from paris_tui.core.record import load_record, replay_summary

from .helpers import (
    all_text,
    choose_like_the_cli,
    find_game,
    make_app,
    new_session,
    press,
    screen_text,
)

BOARD = classic_board()


def your_route() -> str:
    """ "Your route" in the current language (what no screen may show off a seat's turn)."""
    return i18n._("Your route: ").strip().rstrip(":：").strip()


def route_phrase(line: str) -> str:
    """ "Your route: Blue line" in the current language."""
    return i18n._("Your route: ") + line_name(BOARD, line)


def winner_words(top: int, shared: bool) -> str:
    """The end screen's winner sentence after the names, in the current language
    ("wins with 31 points.", "gewinnt mit 31 Punkten.")."""
    if shared:
        template = i18n.ngettext(
            "{player}[bold] share the victory[/bold] with {n} point.",
            "{player}[bold] share the victory[/bold] with {n} points.",
            top,
        )
    else:
        template = i18n.ngettext(
            "{player}[bold] wins[/bold] with {n} point.",
            "{player}[bold] wins[/bold] with {n} points.",
            top,
        )
    plain = Text.from_markup(template).plain
    return max(plain.split("{player}"), key=len).strip().format(n=top)


def check_secrets(app: object, game: GameScreen | None, routes: tuple[str, ...]) -> None:
    from textual.app import App

    assert isinstance(app, App)
    text = all_text(app)
    allowed = None
    handoff = isinstance(app.screen, HandoffScreen)
    if not handoff and game is not None and game.turn_seat is not None and not game.route_hidden:
        allowed = route_phrase(routes[game.turn_seat])
    for seat, line in enumerate(routes):
        phrase = route_phrase(line)
        if phrase != allowed:
            assert phrase not in text, f"seat {seat}'s route is visible ({app.screen})"
    if allowed is None:
        assert your_route() not in text
    else:
        assert allowed in text


async def play_by_keys(
    players: str,
    seed: int,
    data: Path,
    size: tuple[int, int],
    english: tuple[str, ...] = (),
) -> None:
    """Play a whole game by keys; ``english``: English words that must never be on screen."""
    path = data / "game.json"
    session = new_session(players, seed, path)
    routes = session.record().setup.routes
    n = len(routes)
    rng = random.Random(seed)
    app = make_app(session)
    handoffs = 0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        steps = 0
        while not isinstance(app.screen, EndScreen):
            game = find_game(app)
            steps += 1
            assert steps < 800, "the game does not progress"
            check_secrets(app, game, routes)
            if english:
                shown = screen_text(app)
                assert not [w for w in english if w in shown], shown
            screen = app.screen
            if isinstance(screen, HandoffScreen):
                handoffs += 1
                await press(pilot, "enter")
            elif isinstance(screen, TakeoverDialog):
                await press(pilot, rng.choice(["down", "up", "tab"]), "enter")
                while app.screen is screen:  # until the dialog has closed
                    await pilot.pause()
            elif isinstance(screen, GameScreen):
                if screen.turn_seat is None or game is None:
                    await pilot.pause()
                    continue
                if rng.random() < 0.1:
                    await press(pilot, "r")  # hide the route, then check nothing shows it
                    check_secrets(app, screen, routes)
                    await press(pilot, "r")
                count = len(screen.view.face_up)
                keys = [str(rng.randint(1, count))] if rng.random() < 0.5 else []
                keys += [rng.choice(["left", "right", "up", "down"])] * rng.randint(0, 2)
                await press(pilot, *keys, "enter")
            else:  # pragma: no cover - no other screen comes up in a game
                raise AssertionError(f"unexpected screen {screen}")
        end = app.screen
        assert isinstance(end, EndScreen)
        shown = end.scores
        text = all_text(app)
        assert not [w for w in english if w in screen_text(app)]
    record = load_record(path)
    summary = replay_summary(record)
    assert summary["finished"]
    assert list(shown) == summary["final"]["scores"]
    final = summary["final"]
    top = max(final["scores"])
    assert winner_words(top, len(final["winners"]) > 1) in " ".join(text.split())
    assert len(record.moves) == 60 // (n + 1) * n
    # A hand-off each time the keyboard changes hands (not when a seat moves twice running).
    order = [((m // n) + (m % n)) % n for m in range(len(record.moves))]
    expected = 1 + sum(1 for a, b in itertools.pairwise(order) if a != b)
    assert handoffs == expected


@pytest.mark.parametrize(
    ("players", "seed", "size"),
    [
        ("Ann,Bob", 3, (80, 24)),
        ("Ann,Bob,Cy", 11, (120, 40)),
        ("Ann,Bob,Cy,Dee", 7, (100, 30)),
    ],
)
async def test_full_hotseat_game_by_keys(
    players: str, seed: int, size: tuple[int, int], data_dir: Path
) -> None:
    await play_by_keys(players, seed, data_dir, size)


@pytest.mark.parametrize(
    ("lang", "locale", "players", "seed", "english"),
    [
        # paris-tui --lang de: German, the Unicode glyphs of a C.UTF-8 terminal.
        ("de", "C.UTF-8", "Jürgen,Anke,Björn,Ute", 5, ("Your route", "wins", "points")),
        # A Taiwanese terminal, no option: Chinese and the ascii glyphs from the locale.
        (None, "zh_TW.UTF-8", "小明,阿華,美玲", 13, ("Your route", "wins", "points", "Pass")),
    ],
)
async def test_full_hotseat_game_by_keys_in_a_language(
    lang: str | None,
    locale: str,
    players: str,
    seed: int,
    english: tuple[str, ...],
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANG", locale)
    try:
        choose_like_the_cli(lang)
        assert i18n.current_language() == (lang or "zh-TW")
        await play_by_keys(players, seed, data_dir, (80, 24), english=english)
    finally:
        set_glyphs("unicode")
