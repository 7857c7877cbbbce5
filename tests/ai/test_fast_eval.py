"""The fast engine's evaluation (paris_tui.ai.fast_eval) and its truncated playout.

The evaluation must give what the core's :class:`Evaluator` gives on the same
position when both weigh the special tours alike (in a sampled world the
routes are known: 1 for every route and the public one), and the final score
at the game's end. A truncated playout stops at the start of the round asked
for, in the very state the core reaches playing the same random moves.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from paris_tui.ai.evaluation import Evaluator, Weights, unseen_kind_counts
from paris_tui.ai.fast import FastGame
from paris_tui.ai.fast_eval import fast_values, lookahead_playout, rounds_left, value_features
from paris_tui.core import Game

from .conftest import VARIANTS, random_position
from .test_fast import fast_from, same_state

WEIGHTS = (Weights(), Weights(grand=0.7, special=1.3, small=0.4, sack=0.5, tie=0.02))


def core_values(game: Game, fast: FastGame, weights: Weights) -> list[float]:
    """The core Evaluator's values of ``game``, the special tours on the true routes."""
    evaluator = Evaluator(game.view(0), weights)
    if not fast.rules.all_lines:
        known = {*fast.routes, fast.public}
        evaluator.special = tuple(1.0 if li in known else 0.0 for li in range(fast.rules.lines))
    return evaluator.values(
        game,
        rounds=game.stacks_left() + 1,
        unseen_kinds=unseen_kind_counts(game, include_face_up=True),
        small=True,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_values_agree_with_the_core_evaluator(players: int) -> None:
    """On 120 positions a player count (at round boundaries and within rounds, every
    variant, two sets of weights) the values are the Evaluator's."""
    boundaries = 0
    for i in range(120):
        game = random_position(9000 + 7 * i + players, players, VARIANTS[i % 4])
        fast = fast_from(game)
        assert rounds_left(fast) == game.stacks_left() + 1
        boundaries += fast.k == 0
        for weights in WEIGHTS:
            assert fast_values(fast, weights) == pytest.approx(
                core_values(game, fast, weights), abs=1e-9
            )
    assert boundaries > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_values_move_with_the_position(players: int) -> None:
    """The values are not just the scores: along a game they differ from them, and the
    evaluation does not change the game (its scores stay the core's)."""
    game = Game.new(players, seed=77, options=VARIANTS[0])
    rng = random.Random(5)
    differ = 0
    while not game.is_over:
        fast = fast_from(game)
        values = fast_values(fast, Weights(small=0.6))
        differ += values != [float(s) for s in game.scores]
        same_state(fast, game)
        codes = game.legal_codes()
        game.apply_code(codes[rng.randrange(len(codes))])
    assert differ > game.total_moves // 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_the_end_the_values_are_the_final_scores(players: int) -> None:
    for i in range(20):
        game = random_position(500 + i, players, VARIANTS[i % 4], moves=0)
        fast = fast_from(game)
        fast.playout(random.Random(i).random)
        game.play_random(random.Random(i))
        outcome = game.outcome()
        assert outcome is not None and fast.over
        assert fast_values(fast, Weights(small=0.6)) == [float(s) for s in outcome.scores]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("horizon", [1, 2, 4])
def test_a_truncated_playout_stops_at_its_round(players: int, horizon: int) -> None:
    """From positions within and at the start of rounds, ``until`` stops the playout when
    that round begins: the moves are the first ones the core's random game plays from the
    same generator, and the state is the core's after those moves (or the end, when the
    game ends first)."""
    stopped = ended = 0
    for i in range(60):
        game = random_position(700 + 13 * i + players, players, VARIANTS[i % 4])
        fast = fast_from(game)
        until = fast.round + horizon
        trace: list[int] = []
        fast.playout(random.Random(i).random, trace, until)
        full = game.copy()
        start = full.move_count
        full.play_random(random.Random(i))
        played = [full.encode(m) for m in full.moves[start:]]
        assert trace == played[: len(trace)]
        for code in trace:
            game.apply_code(code)
        same_state(fast, game)
        if fast.over:
            ended += 1
            assert until >= fast.total and trace == played
        else:
            stopped += 1
            assert fast.round == until and fast.k == 0 and game.move_count == until * players
            assert len(fast.faceup) == players + 1
    assert stopped > 0 and ended > 0


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rounds", [0, 1])
def test_a_lookahead_playout_plays_the_core_evaluator_s_best_moves(
    players: int, rounds: int
) -> None:
    """Each move of a look-ahead playout (chance 1) is one of the mover's best by the core
    Evaluator's margin after it (the final scores after the game's last move), over the
    core's legal moves; with ``rounds`` only the
    first round's moves are; the playout ends in the core's state after its moves."""
    weights = Weights(small=0.0)
    checked = unchecked = 0
    for i in range(12):
        game = random_position(1300 + 11 * i + players, players, VARIANTS[i % 4])
        fast = fast_from(game)
        last = fast.round + rounds if rounds else fast.total
        trace: list[int] = []
        lookahead_playout(fast, random.Random(i).random, 1.0, weights, rounds=rounds, trace=trace)
        for code in trace:
            codes = game.legal_codes()
            assert code in codes
            if len(codes) > 1 and game.round < last:
                margins = {}
                for other in codes:
                    after = game.copy()
                    after.apply_code(other)
                    outcome = after.outcome()
                    values = (
                        [float(v) for v in outcome.scores]
                        if outcome is not None
                        else core_values(after, fast, weights)
                    )
                    p = game.to_move
                    margins[other] = values[p] - max(v for q, v in enumerate(values) if q != p)
                assert margins[code] == pytest.approx(max(margins.values()), abs=1e-9)
                checked += 1
            elif len(codes) > 1:
                unchecked += 1
            game.apply_code(code)
        same_state(fast, game)
        assert fast.over
    assert checked >= 12
    assert (unchecked > 0) == (rounds > 0)


@pytest.mark.parametrize("players", [2, 4])
def test_a_lookahead_playout_stops_at_its_round(players: int) -> None:
    """``until`` stops a look-ahead playout when that round begins, in the core's state
    after its moves."""
    for i in range(10):
        game = random_position(1500 + i, players, VARIANTS[i % 4])
        fast = fast_from(game)
        until = fast.round + 1
        trace: list[int] = []
        lookahead_playout(fast, random.Random(i).random, 0.5, Weights(), until, trace=trace)
        for code in trace:
            game.apply_code(code)
        same_state(fast, game)
        assert fast.over or (fast.round == until and fast.k == 0)


@pytest.mark.parametrize("players", [2, 4])
def test_the_features_add_up_to_the_values(players: int) -> None:
    """The fit's features are the parts of the value its weights multiply."""
    weights = Weights(grand=0.8, special=1.2, small=0.5, sack=0.0, tie=0.0)
    for i in range(30):
        game = random_position(1100 + i, players, VARIANTS[i % 4])
        fast = fast_from(game)
        values = fast_values(fast, weights)
        for p, (grand, special, small) in enumerate(value_features(fast)):
            expect = fast.scores[p] + 0.8 * grand + 1.2 * special + 0.5 * small
            assert values[p] == pytest.approx(expect, abs=1e-9)


def test_the_fit_recovers_known_weights() -> None:
    """scripts/fit_horizon.py's least squares on made-up rows gives back their weights."""
    path = Path(__file__).resolve().parents[2] / "scripts" / "fit_horizon.py"
    spec = importlib.util.spec_from_file_location("fit_horizon", path)
    assert spec is not None and spec.loader is not None
    fit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit)
    rng = random.Random(8)
    rows = []
    for _ in range(200):
        x = (rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-5, 5))
        rows.append((0.7 * x[0] + 1.4 * x[1] + 0.3 * x[2], x, 0))
    weights, explained = fit.least_squares(rows)
    assert weights == pytest.approx([0.7, 1.4, 0.3], abs=1e-9)
    assert explained == pytest.approx(1.0)
