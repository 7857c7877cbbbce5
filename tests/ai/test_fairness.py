"""Fairness (R8): a bot's move depends only on what its seat may know.

Two games that differ only in what the bot's seat cannot know (the other
seats' routes, the hidden markers, the order of the face-down stacks) must
give the bot the same move for the same seed.
"""

from __future__ import annotations

import random

import pytest

from paris_tui.ai import LEVELS, make_ai
from paris_tui.core import Game, Options, Setup

from .conftest import VARIANTS


def twin_games(seed: int, players: int, options: Options) -> tuple[Game, Game, int]:
    """Two games with the same past and present, different secrets; and the seat to move."""
    rng = random.Random(seed)
    game = Game.new(players, rng=rng, options=options)
    target = rng.randrange(game.total_moves - players)  # leave some future to hide
    moves = []
    while game.move_count < target:
        move = game.legal_moves()[rng.randrange(len(game.legal_moves()))]
        moves.append(move)
        game.play(move)
    seat = game.to_move
    setup = game.setup
    known = game.round + 1  # past stacks and the current one are public
    future = [t for stack in setup.stacks[known:] for t in stack]
    for _ in range(20):  # reshuffle until the order really differs
        rng.shuffle(future)
        size = players + 1
        new_future = tuple(tuple(future[i : i + size]) for i in range(0, len(future), size))
        if new_future != setup.stacks[known:]:
            break
    lines = [line for line in game.board.line_ids if line not in (setup.routes[seat],)]
    if setup.public_route is not None:
        lines.remove(setup.public_route)
    while True:
        rng.shuffle(lines)
        it = iter(lines)
        routes = tuple(setup.routes[p] if p == seat else next(it) for p in range(players))
        if routes != setup.routes:
            break
    other_setup = Setup(setup.stacks[:known] + new_future, routes, setup.public_route)
    other = Game.from_setup(other_setup, players, options=options)
    for move in moves:
        other.play(move)
    return game, other, seat


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", LEVELS)
def test_same_view_same_move(level: str, players: int) -> None:
    for i in range(6):
        options = VARIANTS[i % len(VARIANTS)]
        game, other, seat = twin_games(100 * players + i, players, options)
        assert game.setup != other.setup
        view, other_view = game.view(seat), other.view(seat)
        assert view == other_view  # the seat cannot tell the games apart
        first = make_ai(level, seed=i, simulations=60).choose(view)
        second = make_ai(level, seed=i, simulations=60).choose(other_view)
        assert first == second
