"""Every level plays only legal moves, in random positions of every size and variant (R3, R4)."""

from __future__ import annotations

import random

import pytest

from paris_tui.ai import LEVELS, make_ai
from paris_tui.core import Game, Options

from .conftest import VARIANTS, random_position


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o.small_tour}-{o.final_tours}")
def test_legal_moves_in_random_positions(level: str, players: int, options: Options) -> None:
    count = {"random": 40, "easy": 40, "greedy": 40, "strong": 15, "expert": 15}[level]
    for i in range(count):
        seed = players * 1000 + i
        game = random_position(seed, players, options)
        seat = game.to_move
        view = game.view(seat)
        bot = make_ai(level, seed=seed, simulations=30)
        move = bot.choose(view)
        assert move in view.legal_moves
        game.play(move)  # the engine agrees


@pytest.mark.parametrize("level", ["greedy", "strong", "expert"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_last_moves_of_a_round_and_of_the_game(level: str, players: int) -> None:
    """The round's last mover decides the left-over tile; the game's last move ends it (R7)."""
    for options in (Options(), Options(final_tours="all-lines")):
        for k in (players - 1, 2 * players - 1, None):
            game = random_position(7, players, options, moves=0)
            total = game.total_moves
            target = total - 1 if k is None else k
            rng = random.Random(target)
            while game.move_count < target:
                codes = game.legal_codes()
                game.apply_code(codes[rng.randrange(len(codes))])
            view = game.view(game.to_move)
            move = make_ai(level, seed=1, simulations=20).choose(view)
            assert move in view.legal_moves
            game.play(move)
            assert game.is_over == (k is None)


@pytest.mark.parametrize("level", LEVELS)
def test_full_stop_evict_choices(level: str) -> None:
    """Positions where the seat must choose whose business to remove (R4) are handled."""
    found = 0
    for seed in range(400):
        game = random_position(seed, 3, Options())
        view = game.view(game.to_move)
        if not any(m.evict is not None for m in view.legal_moves):
            continue
        found += 1
        move = make_ai(level, seed=seed, simulations=20).choose(view)
        assert move in view.legal_moves
        if found == 8:
            break
    assert found == 8


@pytest.mark.parametrize("level", LEVELS)
def test_whole_games_in_every_variant(level: str) -> None:
    """Complete games where every seat is this level, including empty supplies (C1)."""
    for players, options in ((2, VARIANTS[1]), (3, VARIANTS[2]), (4, VARIANTS[3])):
        game = Game.new(players, seed=players, options=options)
        bots = [make_ai(level, seed=s, simulations=8) for s in range(players)]
        while not game.is_over:
            seat = game.to_move
            game.play(bots[seat].choose(game.view(seat)))
        assert game.outcome() is not None
