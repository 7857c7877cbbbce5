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

from paris_tui.ai.fast import FastGame, best_builds, build_value, leftover_gain
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


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    ("eps", "own", "greedy"),
    [(0.0, False, 0.0), (0.0, True, 0.0), (0.3, True, 0.5), (1.0, False, 1.0)],
)
def test_guided_playout_plays_legal_moves_to_the_cores_end(
    players: int, eps: float, own: bool, greedy: float
) -> None:
    """From positions along 100 games a player count, every move of the guided playout is
    legal in the core, and the core replaying its trace ends with the same scores and
    winners; the same generator plays the same game."""
    for i in range(100):
        rng = random.Random(f"guided:{players}:{i}")
        game = Game.new(players, seed=rng.randrange(10**9), options=VARIANTS[i % 4])
        for _ in range(rng.randrange(game.total_moves)):
            codes = game.legal_codes()
            game.apply_code(codes[rng.randrange(len(codes))])
        fast = fast_from(game)
        again = fast.fork(fast.routes, fast.future[:])
        trace: list[int] = []
        fast.playout_guided(random.Random(i).random, eps, own, trace, greedy)
        for code in trace:
            assert code in game.legal_codes()
            game.apply_code(code)
        same_state(fast, game)
        twin: list[int] = []
        again.playout_guided(random.Random(i).random, eps, own, twin, greedy)
        assert twin == trace


def test_guided_last_mover_leaves_the_tile_that_pays_it() -> None:
    """With no randomness at the round's last move, the last mover never leaves over the
    tile with the smaller gain (leftover_gain), and with ``own`` never removes its own
    business while another move with the same tile is legal (the tile is chosen first); a
    uniform playout does both, in some game."""
    guided_bad = random_bad = 0
    own_guided = own_random = 0
    for i in range(300):
        rng = random.Random(f"last:{i}")
        game = Game.new(2, seed=rng.randrange(10**9), options=VARIANTS[i % 4])
        for guided in (True, False):
            fast = fast_from(game)
            rules = fast.rules
            while not fast.over:
                codes = fast.legal()
                p = fast.to_move
                before = fast.fork(fast.routes, fast.future)
                trace: list[int] = []
                step = random.Random(f"{i}:{fast.round}:{fast.k}").random
                if guided:
                    before.playout_guided(step, 0.0, True, trace)
                else:
                    before.playout(step, trace)
                code = trace[0]
                if fast.k == rules.players - 1 and not fast.dup:
                    a, b = fast.faceup
                    gains = {
                        t: leftover_gain(rules, fast.st, fast.m1, fast.m2, fast.discard, t, p)
                        for t in (a, b)
                    }
                    left = b if code >> 3 == a else a
                    worse = gains[left] < max(gains.values())
                    if guided:
                        guided_bad += worse
                    else:
                        random_bad += worse
                if code & 7 == p + 1:
                    same_tile = [c for c in codes if c >> 3 == code >> 3]
                    if guided and any(c & 7 != p + 1 for c in same_tile):
                        own_guided += 1
                    elif not guided:
                        own_random += 1
                fast.apply(code)
    assert guided_bad == 0 and own_guided == 0
    assert random_bad > 0 and own_random > 0


def test_greedy_playout_moves_take_the_best_build_value() -> None:
    """With ``greedy`` 1 (and no left-over rule) every move takes a code of the best
    build_value among the legal ones (best_builds agrees with it), and a crossing next to
    the seat's businesses is worth more than a plain stop."""
    checked = 0
    for i in range(60):
        rng = random.Random(f"greedy:{i}")
        game = Game.new(2, seed=rng.randrange(10**9), options=VARIANTS[i % 4])
        fast = fast_from(game)
        rules = fast.rules
        while not fast.over:
            codes = fast.legal()
            p = fast.to_move
            values = {c: build_value(rules, fast.m1, c, p) for c in codes}
            top = max(values.values())
            assert best_builds(rules, fast.m1, codes, p) == [c for c in codes if values[c] == top]
            trace: list[int] = []
            step = random.Random(f"{i}:{fast.round}:{fast.k}").random
            fast.fork(fast.routes, fast.future).playout_guided(step, 1.0, False, trace, 1.0)
            if fast.supply[p] and len(codes) > 1:
                assert values[trace[0]] == top
                checked += 1
            fast.apply(trace[0])
    assert checked > 500
    board = Game.new(2, seed=1).board
    rules = fast_from(Game.new(2, seed=1)).rules
    crossing = board.crossings()[0]
    plain = next(s for s in range(len(board.stops)) if not board.stops[s].is_crossing)
    tile_at = {board.tile_stop[t]: t for t in range(len(board.tile_kinds))}
    m1 = [board.neighbour_mask[crossing], 0]
    assert build_value(rules, m1, tile_at[crossing] << 3, 0) > build_value(
        rules, [0, 0], tile_at[plain] << 3, 0
    )
