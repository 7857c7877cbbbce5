"""The expert level: the strong search with a fitted opponent model, and its per-seat budget."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from paris_tui.ai import arena as arena_module
from paris_tui.ai import make_ai
from paris_tui.ai.arena import GameSpec, UsageError, parse_seat_levels, run_arena
from paris_tui.ai.belief import BeliefConfig
from paris_tui.ai.expert import ExpertBot, ExpertModel, FittedBelief, load_model, phase
from paris_tui.ai.strong import StrongBot
from paris_tui.cli import main
from paris_tui.core import Game
from paris_tui.core.sampling import Determinizer

from .test_belief import greedy_game

DATA = Path(__file__).resolve().parents[2] / "paris_tui" / "ai" / "data" / "expert.json"


def test_the_shipped_model_loads() -> None:
    model = load_model()
    data = json.loads(DATA.read_text("utf-8"))
    assert ExpertModel.from_json(data["model"]) == model
    assert len(model.temperatures) == 3
    assert "scripts/fit_expert.py" in data["about"]


@pytest.mark.parametrize(
    "data",
    [
        {"temperatures": [0.1, 0.1], "floor": 0.05},
        {"temperatures": [0.1, 0.0, 0.1], "floor": 0.05},
        {"temperatures": [0.1, 0.1, 0.1], "floor": 1.0},
        {"temperatures": "hot", "floor": 0.05},
        {"temperatures": [0.1, 0.1, 0.1], "floor": 0.05, "line_weights": [1.0]},
        {"temperatures": [0.1, 0.1, 0.1], "floor": 0.05, "line_weights": [1, "x", 2]},
    ],
)
def test_a_bad_model_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ExpertModel.from_json(data)


def test_the_fit_finds_a_player_who_builds_on_its_line() -> None:
    """scripts/fit_expert.py on made-up records: each seat builds on its route's line two
    times in three; the fit gives that a positive weight, and the belief grows with the moves."""
    import importlib.util
    import random

    path = DATA.parents[3] / "scripts" / "fit_expert.py"
    spec = importlib.util.spec_from_file_location("fit_expert", path)
    assert spec is not None and spec.loader is not None
    fit_expert = importlib.util.module_from_spec(spec)
    sys.modules["fit_expert"] = fit_expert  # its dataclasses look their module up
    try:
        spec.loader.exec_module(fit_expert)
    finally:
        del sys.modules["fit_expert"]
    rng = random.Random(5)
    lines = ("red", "blue", "green")
    tracks = []
    for _ in range(30):
        truth = rng.choice(lines)
        turns = []
        for index in range(0, 36, 2):
            options = rng.sample(lines, 2)  # two moves: each on one line
            if truth in options and rng.random() < 2 / 3:
                played = options.index(truth)
            else:
                played = rng.randrange(2)
            margins = {
                line: ([0.0, 0.0], [1.0 if o == line else 0.0 for o in options], played)
                for line in lines
            }
            turns.append(fit_expert.Turn(index, margins))
        tracks.append(fit_expert.Track(2, 18, truth, lines, tuple(turns)))
    model, score = fit_expert.fit(tracks)
    assert all(w > 0 for w in model.line_weights)
    assert score > math.log(1 / 3)
    five, _, fifteen = fit_expert.at_checkpoints(tracks, model)
    assert 1 / 3 < five < fifteen


def test_phases_cut_the_rounds_in_thirds() -> None:
    assert [phase(i, 2, 18) for i in (0, 11, 12, 23, 24, 35)] == [0, 0, 1, 1, 2, 2]
    assert phase(10_000, 4, 9) == 2


def test_strong_keeps_its_own_model_and_expert_the_fitted_one() -> None:
    strong = make_ai("strong", seed=1)
    expert = make_ai("expert", seed=1)
    assert type(strong) is StrongBot and type(expert) is ExpertBot
    assert strong.belief.config == BeliefConfig()  # type: ignore[attr-defined]
    assert isinstance(expert.belief, FittedBelief)  # type: ignore[attr-defined]
    assert expert.belief.model == load_model()  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_choices_legal_and_deterministic_from_the_seed(players: int) -> None:
    game = Game.new(players, seed=40 + players)
    other = make_ai("greedy", seed=3)
    while not game.is_over and game.move_count < 3 * players + 2:
        seat = game.to_move
        view = game.view(seat)
        if seat == 0:
            move = make_ai("expert", seed=9, simulations=40).choose(view)
            again = make_ai("expert", seed=9, simulations=40).choose(view)
            assert move == again
            assert move in view.legal_moves
        else:
            move = other.choose(view)
        game.play(move)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_belief_is_a_distribution(players: int) -> None:
    game = greedy_game(6, players, upto=4 * players)
    seat = game.to_move
    det = Determinizer(game.view(seat))
    weights = FittedBelief().weights(det)
    assert set(weights) == set(range(players)) - {seat}
    for lines in weights.values():
        assert set(lines) == set(det.unknown_lines)
        assert sum(lines.values()) == pytest.approx(1.0)
        assert all(0.0 < w < 1.0 for w in lines.values())


@pytest.mark.parametrize(
    ("model", "gain"),
    [(ExpertModel((0.2, 0.2, 0.2), 0.05, (1.0, 1.0, 1.0)), 0.1), (None, 0.03)],
    ids=["sharp", "shipped"],
)
def test_belief_moves_towards_the_true_route(model: ExpertModel | None, gain: float) -> None:
    """Greedy players, who play for their route, give it away: the true route's weight grows
    from the uniform share as their moves pile up (with a sharp model clearly, with the
    shipped one, fitted on strong players, less)."""
    early, late = [], []
    for seed in range(10):
        game = greedy_game(seed, upto=24)
        seat = game.to_move
        other = 1 - seat
        truth = game.route(other)
        belief = FittedBelief(model)
        det = Determinizer(game.view(seat))
        start = Game.from_setup(game.setup, 2)
        for move in game.view(seat).moves[:4]:
            start.play(move)
        first = belief.weights(Determinizer(start.view(start.to_move)))
        early.append(first.get(other, {}).get(truth, 1 / 3) if start.to_move != other else 1 / 3)
        late.append(belief.weights(det)[other][truth])
    uniform = 1 / len(det.unknown_lines)
    assert sum(late) / len(late) > uniform + gain
    assert sum(late) / len(late) > sum(early) / len(early)


# --- budgets per seat -----------------------------------------------------------


def test_seat_levels_with_their_own_budgets() -> None:
    assert parse_seat_levels("expert@0.25, strong@1,greedy") == (
        ("expert", "strong", "greedy"),
        (0.25, 1.0, None),
    )
    assert parse_seat_levels("strong,expert") == (("strong", "expert"), (None, None))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("greedy@1,strong", "greedy takes no time budget"),
        ("expert@0,strong", "must be a positive number of seconds"),
        ("expert@soon,strong", "must be a number of seconds"),
        ("expert@inf,strong", "must be a positive number of seconds"),
        ("wizard@1,strong", "unknown AI level 'wizard'"),
    ],
)
def test_bad_seat_budgets(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        parse_seat_levels(text)


def test_a_seats_own_budget_wins_over_budget() -> None:
    spec = GameSpec(0, ("expert", "strong", "greedy"), 1, budget=2.0, budgets=(0.25, None, None))
    assert [spec.budget_of(e) for e in range(3)] == [0.25, 2.0, 2.0]
    assert GameSpec(0, ("strong", "greedy"), 1).budget_of(0) is None


def test_the_arena_gives_each_bot_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, float | None]] = []
    real = arena_module.make_ai

    def recording(level: str, **kwargs: Any) -> Any:
        made.append((level, kwargs.get("budget")))
        return real(level, **kwargs)

    monkeypatch.setattr(arena_module, "make_ai", recording)
    result = run_arena(
        ["expert", "strong", "greedy"],
        games=2,
        seed=3,
        budget=0.5,
        budgets=[0.25, None, None],
        simulations=6,
    )
    assert result.seats == ("expert@0.25", "strong", "greedy")
    assert sorted(set(made)) == [("expert", 0.25), ("greedy", 0.5), ("strong", 0.5)]
    assert len(made) == 6


def test_arena_command_line_per_seat_budget(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["arena", "--seats", "expert@0.25,greedy", "--games", "2", "--simulations", "6", "--json"]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert json.loads(out)["seats"] == ["expert@0.25", "greedy"]
    status = main(["arena", "--seats", "greedy@1,expert", "--games", "2", "--json"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.strip().startswith("paris-tui arena: greedy takes no time budget")
