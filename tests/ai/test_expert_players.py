"""Expert's knobs per player count: the rewards, the belief's use, strong's knobs overridden."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from paris_tui.ai import make_ai
from paris_tui.ai.expert import ExpertBot, FittedBelief
from paris_tui.ai.expert_search import SearchKnobs, knobs_for, reward_function
from paris_tui.ai.strong import StrongBot, StrongConfig
from paris_tui.core import Game
from paris_tui.core.sampling import Determinizer

from .conftest import VARIANTS, random_position


def finished_game(seed: int, players: int) -> Game:
    game = random_position(seed, players, VARIANTS[0], moves=0)
    game.play_random(random.Random(seed))
    assert game.is_over
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_margin_reward_is_strongs(players: int) -> None:
    """The "margin" reward gives what strong backs up, on finished games."""
    strong = StrongBot(1, simulations=1)
    for seed in range(12):
        game = finished_game(seed, players)
        outcome = game.outcome()
        assert outcome is not None
        cfg = strong.config
        reward = reward_function(players, "margin", cfg.margin_share, cfg.margin_scale)
        mine = reward(list(outcome.scores), outcome.winners)
        assert mine == pytest.approx(strong.rewards(game, None))  # type: ignore[arg-type]


def test_the_rank_reward_counts_the_seats_beaten() -> None:
    reward = reward_function(4, "rank", 0.3, 10.0)
    # Scores 40 > 30 = 30 > 10: the winner beats all three, the two tied beat one and
    # a half, the last none.
    out = reward([30, 40, 30, 10], (1,))
    assert out == pytest.approx([0.3 * 1.5 / 3, 0.7 + 0.3, 0.3 * 1.5 / 3, 0.0])
    shared = reward([20, 20, 5, 5], (0, 1))
    assert shared == pytest.approx([0.35 + 0.3 * 2.5 / 3, 0.35 + 0.3 * 2.5 / 3, 0.05, 0.05])
    assert reward_function(4, "rank", 0.0, 10.0)([1, 2, 3, 4], (3,)) == [0.0, 0.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="unknown reward"):
        reward_function(4, "paranoid", 0.3, 10.0)


@pytest.mark.parametrize("players", [2, 4])
def test_every_reward_lies_in_zero_one(players: int) -> None:
    for kind in ("margin", "rank"):
        for share in (0.0, 0.3, 1.0):
            reward = reward_function(players, kind, share, 10.0)
            for seed in range(10):
                outcome = finished_game(100 + seed, players).outcome()
                assert outcome is not None
                out = reward(list(outcome.scores), outcome.winners)
                assert all(0.0 <= r <= 1.0 for r in out)
                assert max(out) == out[outcome.winners[0]]


def test_knobs_override_only_what_they_set() -> None:
    base = StrongConfig()
    assert SearchKnobs().config(base) == base
    cfg = SearchKnobs(exploration=1.1, margin_share=0.0).config(base)
    assert cfg == replace(base, exploration=1.1, margin_share=0.0)


def test_an_unset_bot_takes_the_knobs_of_its_table() -> None:
    """No knobs given: each search uses knobs_for(the view's player count)."""
    assert ExpertBot(1).knobs is None
    given = SearchKnobs(bias=2.0)
    assert ExpertBot(1, knobs=given).knobs is given
    assert all(isinstance(knobs_for(n), SearchKnobs) for n in (2, 3, 4))


class CountingBelief(FittedBelief):
    calls = 0

    def weights(self, det: Determinizer) -> dict[int, dict[str, float]]:
        CountingBelief.calls += 1
        return super().weights(det)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("belief", [True, False])
def test_the_belief_is_read_where_the_knobs_say(players: int, belief: bool) -> None:
    """With ``belief=False`` the search draws routes uniformly and never works the belief
    out (it costs 20 to 40 ms a decision at 4 players); with the default it reads it."""
    game = random_position(7 + players, players, VARIANTS[0], moves=3 * players)
    view = game.view(game.to_move)
    bot = ExpertBot(3, simulations=20, knobs=replace(knobs_for(players), belief=belief))
    bot.belief = CountingBelief()
    CountingBelief.calls = 0
    move = bot.choose(view)
    assert move in view.legal_moves
    assert CountingBelief.calls == (1 if belief else 0)
    default = ExpertBot(3, simulations=20)
    default.belief = CountingBelief()
    CountingBelief.calls = 0
    default.choose(view)
    assert CountingBelief.calls == (1 if knobs_for(players).belief else 0)


@pytest.mark.parametrize("knobs", [SearchKnobs(reward="rank"), knobs_for(4)])
def test_choices_at_four_are_deterministic_from_the_seed(knobs: SearchKnobs) -> None:
    for i in range(3):
        game = random_position(300 + i, 4, VARIANTS[i])
        view = game.view(game.to_move)
        moves = [ExpertBot(i, simulations=40, knobs=knobs).choose(view) for _ in range(2)]
        assert moves[0] == moves[1] and moves[0] in view.legal_moves
    assert make_ai("expert", seed=1).knobs is None  # type: ignore[attr-defined]
