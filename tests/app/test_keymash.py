"""Random keys and resizes on every screen: nothing crashes, the app keeps running."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

from paris_tui.app.app import ParisApp
from paris_tui.app.local.session import Session
from paris_tui.app.local.storage import find_unfinished, saves_dir
from paris_tui.core.record import load_record

from .helpers import from_terminal, make_app, new_session, press

KEYS = [
    "left", "right", "up", "down", "enter", "escape", "tab", "shift+tab", "space",
    "1", "2", "3", "4", "5", "p", "r", "t", "y", "n", "a", "x", "question_mark", "f1",
    "f5", "home", "end", "pageup", "pagedown", "backspace",
]  # fmt: skip
SIZES = [(40, 12), (60, 20), (80, 24), (120, 40), (100, 30), (79, 23)]


def played(players: str, seed: int, moves: int, path: Path | None = None) -> Session:
    session = new_session(players, seed, path)
    for i in range(moves):
        seat = session.view(None).to_move
        legal = session.view(seat).legal_moves
        session.play(legal[i % len(legal)])
    return session


def scenarios(data: Path) -> dict[str, Callable[[], ParisApp]]:
    def resume() -> ParisApp:
        played("Ann,Bob", 3, 5, saves_dir() / "r.json")
        return make_app(None, resume_offer=find_unfinished()[0])

    def replay() -> ParisApp:
        path = data / "replay.json"
        played("Ann,Bob,Cy", 4, 44, path)
        return make_app(None, replay=(load_record(path), path))

    return {
        "new-game": lambda: make_app(None),
        "hot-seat": lambda: make_app(played("Ann,Bob,Cy,Dee", 2, 5)),
        "near-end": lambda: make_app(played("Ann,Bob", 5, 38)),
        "finished": lambda: make_app(played("Ann,Bob,Cy", 6, 45)),
        "ai": lambda: make_app(new_session("Ann,ai:greedy", 8, None)),
        "animated": lambda: make_app(played("Ann,Bob", 7, 3), anim=0.05),
        "resume": resume,
        "replay": replay,
    }


NAMES = ["new-game", "hot-seat", "near-end", "finished", "ai", "animated", "resume", "replay"]


@pytest.mark.parametrize("name", NAMES)
async def test_key_mash_and_resizes_do_not_break_anything(name: str, data_dir: Path) -> None:
    rng = random.Random(name)
    app = scenarios(data_dir)[name]()
    mash: Callable[[Pilot[object]], Awaitable[None]]

    async def mash(pilot: Pilot[object]) -> None:
        for _ in range(80):
            if rng.random() < 0.08:
                await pilot.resize_terminal(*rng.choice(SIZES))
            else:
                await press(pilot, rng.choice(KEYS))
        await pilot.resize_terminal(80, 24)
        await pilot.pause()

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await mash(pilot)
        assert app.is_running
        assert app.screen is not None


# The command palette's key races: Ctrl+P and then keys at once, before the
# palette is laid out. Textual 8.2.8 raised KeyError (PageUp/PageDown), NoMatches
# 'CommandList' and DuplicateIds (a second Ctrl+P); see paris_tui/app/commands.py.
# Enter is left out: it would run a palette command (one of them quits).
PALETTE_KEYS = [
    "pageup", "pagedown", "home", "end", "ctrl+home", "ctrl+end", "shift+home", "shift+end",
    "up", "down", "escape", "ctrl+p", "tab", "a", "x", "backspace", "f1", "question_mark",
]  # fmt: skip
PALETTE_BURSTS = [
    ["pageup"],
    ["pagedown"],
    ["pageup", "pagedown", "home", "end"],
    ["ctrl+end", "pagedown"],
    ["ctrl+home", "pageup", "pageup"],
    ["ctrl+p", "pageup"],
    ["escape", "escape", "pageup"],
    ["down", "escape", "pagedown"],
    ["a", "up", "ctrl+p", "backspace"],
]


def send_at_once(app: ParisApp, keys: list[str]) -> None:
    """Keys as a fast typist or a pasted burst sends them: all queued before any is handled."""
    for key in keys:
        from_terminal(app, events.Key(key, key if len(key) == 1 else None))


@pytest.mark.parametrize("seed", [1, 2])
async def test_command_palette_key_races_do_not_crash(seed: int) -> None:
    rng = random.Random(seed)
    app = make_app(new_session("Ann,Bob", seed, None))
    bursts = PALETTE_BURSTS + [
        [rng.choice(PALETTE_KEYS) for _ in range(rng.randint(1, 6))] for _ in range(20)
    ]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen
        for burst in bursts:
            send_at_once(app, ["ctrl+p", *burst])
            await pilot.pause()
            await pilot.pause(rng.choice([0.0, 0.02, 0.06]))
            for _ in range(10):  # close the palette (and help) again
                if app.screen is game or not app.is_running:
                    break
                await press(pilot, "escape")
                await pilot.pause()
            assert app.is_running
            assert app.screen is game, f"{burst}: {app.screen_stack}"
        send_at_once(app, ["ctrl+p"])
        await pilot.pause()
        assert "CommandPalette" in type(app.screen).__name__  # the palette still opens
