"""The expert's playout engine (paris_tui.ai.fast) plays exactly the core's rules.

Over many random games of every player count and variant, move by move: the
same legal codes in the same order, the same stops, scores, supplies and
sacks after every move, the same end (scores and winners); and its random
playout, from any position, plays the very game the core's ``play_random``
plays from the same generator.
"""

from __future__ import annotations

import random

import pytest

from paris_tui.ai.fast import FastGame
from paris_tui.core import Game, Options

VARIANTS = (
    Options(),
    Options(small_tour="tile-line"),
    Options(final_tours="all-lines"),
    Options(small_tour="tile-line", final_tours="all-lines"),
)


def fast_from(game: Game) -> FastGame:
    """The fast engine on ``game``'s full state (its true secrets)."""
    board = game.board
    routes = [board.line_index[game.route(p)] for p in range(game.players)]
    future = [board.tile_index[t] for t in game.remaining_stack_tiles()]
    return FastGame.from_game(game, routes, future)


def same_state(fast: FastGame, game: Game) -> None:
    owners = fast.rules.owners
    assert tuple(owners[x] for x in fast.st) == game.occupancy()
    assert fast.scores == game.scores
    assert fast.supply == game.supply
    assert fast.sack == game.sack
    assert fast.on_board() == game.on_board()
    assert fast.over == game.is_over
    if not game.is_over:
        assert fast.round == game.round
        assert fast.to_move == game.to_move
        names = game.board.tile_names
        assert tuple(names[t] for t in fast.faceup) == game.face_up
        assert fast.legal() == game.legal_codes()
    else:
        outcome = game.outcome()
        assert outcome is not None
        assert tuple(fast.scores) == outcome.scores
        assert fast.winners == outcome.winners
        assert fast.legal() == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_move_by_move_as_the_core(players: int) -> None:
    """1,200 random games (400 a player count), every move, legal set and score."""
    for i in range(400):
        rng = random.Random(f"{players}:{i}")
        game = Game.new(players, seed=rng.randrange(10**9), options=VARIANTS[i % 4])
        fast = fast_from(game)
        same_state(fast, game)
        while not game.is_over:
            codes = game.legal_codes()
            # now and then a move that evicts, when there is one (full stops)
            evicting = [c for c in codes if c & 7]
            code = rng.choice(evicting if evicting and rng.random() < 0.5 else codes)
            game.apply_code(code)
            fast.apply(code)
            same_state(fast, game)


def test_an_empty_supply_as_the_core() -> None:
    """Two-player games where nobody evicts: a seat's 20th move finds its supply empty and
    opens nothing (C1); the engines agree there too."""
    emptied = 0
    for i in range(100):
        rng = random.Random(f"empty:{i}")
        game = Game.new(2, seed=rng.randrange(10**9), options=VARIANTS[i % 4])
        fast = fast_from(game)
        while not game.is_over:
            codes = game.legal_codes()
            calm = [c for c in codes if not c & 7] or codes
            code = rng.choice(calm)
            emptied += not game.supply[game.to_move]
            game.apply_code(code)
            fast.apply(code)
            same_state(fast, game)
    assert emptied > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playout_plays_the_cores_random_game(players: int) -> None:
    """From positions along 300 games a player count, the fast playout and the core's
    play_random draw the same moves and reach the same end."""
    for i in range(300):
        rng = random.Random(f"playout:{players}:{i}")
        game = Game.new(players, seed=rng.randrange(10**9), options=VARIANTS[i % 4])
        for _ in range(rng.randrange(game.total_moves)):
            codes = game.legal_codes()
            game.apply_code(codes[rng.randrange(len(codes))])
        fast = fast_from(game)
        start = game.move_count
        trace: list[int] = []
        fast.playout(random.Random(i).random, trace)
        game.play_random(random.Random(i))
        assert trace == [game.encode(m) for m in game.moves[start:]]
        same_state(fast, game)


def test_fork_is_independent() -> None:
    game = Game.new(3, seed=4)
    base = fast_from(game)
    before = (base.st[:], base.scores[:], base.faceup[:], base.round)
    one = base.fork(base.routes, base.future)
    one.playout(random.Random(1).random)
    assert one.over and not base.over
    assert (base.st, base.scores, base.faceup, base.round) == before
