"""The strong bot's search: its knobs, its budget, its counts."""

from __future__ import annotations

import time

import pytest

from paris_tui.ai.strong import StrongBot, StrongConfig
from paris_tui.core import Game, Move, Options, Setup

from .conftest import random_position

CONFIGS = [
    StrongConfig(),
    StrongConfig(policy="leftover"),
    StrongConfig(policy="mast"),
    StrongConfig(horizon=2),
    StrongConfig(policy="mast", horizon=1, margin_share=0.0),
    StrongConfig(policy="leftover", horizon=3, margin_share=1.0),
]


@pytest.mark.parametrize("config", CONFIGS, ids=repr)
@pytest.mark.parametrize("players", [2, 4])
def test_every_config_plays_legal_deterministic_moves(config: StrongConfig, players: int) -> None:
    for seed in range(4):
        game = random_position(seed, players, Options(small_tour="tile-line"))
        view = game.view(game.to_move)
        first = StrongBot(seed, simulations=40, config=config).choose(view)
        assert first in view.legal_moves
        assert StrongBot(seed, simulations=40, config=config).choose(view) == first


def test_simulation_count_is_exact() -> None:
    game = Game.new(3, seed=2)
    bot = StrongBot(1, simulations=77)
    bot.choose(game.view(0))
    assert bot.last_simulations == 77


def test_single_legal_move_needs_no_search() -> None:
    """Two face-up tiles of one kind left: one legal move, played without a search."""
    board = Game.new(2, seed=1).board
    tiles = list(board.all_tiles)
    twin = next(k.name for k in board.tile_kinds if k.count == 2)
    tiles.remove(twin)
    tiles.remove(twin)
    other = tiles.pop(0)
    rest = [tuple(tiles[i : i + 3]) for i in range(0, len(tiles), 3)]
    setup = Setup(((other, twin, twin), *rest), ("blue", "red"), "green")
    game = Game.from_setup(setup, 2)
    game.play(Move(other))
    assert len(game.legal_moves()) == 1
    bot = StrongBot(1, simulations=50)
    assert bot.choose(game.view(1)) == Move(twin)
    assert bot.last_simulations == 0


def test_time_budget_is_used_and_kept() -> None:
    """The clock path (no simulation count): the bot stops near its budget.

    A loose bound only, so a loaded test machine cannot fail it: no timing
    target is asserted here (the arena reports the 95th percentile).
    """
    game = Game.new(2, seed=4)
    bot = StrongBot(1, budget=0.15)
    start = time.perf_counter()
    move = bot.choose(game.view(0))
    elapsed = time.perf_counter() - start
    assert move in game.legal_moves()
    assert bot.last_simulations >= 1
    assert elapsed < 5.0
