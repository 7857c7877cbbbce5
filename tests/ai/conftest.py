"""Shared helpers for the AI tests: random positions in every variant."""

from __future__ import annotations

import random

from paris_tui.core import Game, Options

VARIANTS = (
    Options(),
    Options(small_tour="tile-line"),
    Options(final_tours="all-lines"),
    Options(small_tour="tile-line", final_tours="all-lines"),
)


def random_position(seed: int, players: int, options: Options, moves: int | None = None) -> Game:
    """A game ``moves`` random moves in (random if ``None``), not over."""
    rng = random.Random(seed)
    game = Game.new(players, rng=rng, options=options)
    total = game.total_moves
    steps = rng.randrange(total) if moves is None else min(moves, total - 1)
    for _ in range(steps):
        codes = game.legal_codes()
        game.apply_code(codes[rng.randrange(len(codes))])
    return game
