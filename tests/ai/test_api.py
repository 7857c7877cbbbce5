"""The AI's public API: levels, make_ai, errors."""

from __future__ import annotations

import pytest

from paris_tui.ai import LEVELS, make_ai
from paris_tui.core import Game


def test_levels() -> None:
    assert LEVELS == ("random", "easy", "greedy", "strong", "expert")


@pytest.mark.parametrize("level", LEVELS)
def test_make_ai_gives_the_level(level: str) -> None:
    bot = make_ai(level, seed=1, simulations=5)
    assert bot.level == level
    game = Game.new(["Ann", "Bot"], seed=2)
    assert bot.choose(game.view(0)) in game.legal_moves()


def test_unknown_level() -> None:
    with pytest.raises(ValueError) as info:
        make_ai("x", seed=1)
    assert str(info.value) == ("unknown AI level 'x' (choose random, easy, greedy, strong, expert)")


@pytest.mark.parametrize(
    ("budget", "simulations"), [(0.0, None), (-1.0, None), (None, 0), (float("nan"), None)]
)
def test_bad_budget_or_simulations(budget: float | None, simulations: int | None) -> None:
    with pytest.raises(ValueError):
        make_ai("strong", seed=1, budget=budget, simulations=simulations)


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_searching_budget_defaults_to_one_second(level: str) -> None:
    from paris_tui.ai.strong import StrongBot

    bot = make_ai(level, seed="s")
    assert isinstance(bot, StrongBot)
    assert bot.budget == 1.0
    assert bot.simulations is None
    assert make_ai(level, seed="s", budget=0.25).budget == 0.25  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", LEVELS)
def test_choose_refuses_a_view_without_a_turn(level: str) -> None:
    game = Game.new(2, seed=1)
    with pytest.raises(ValueError, match="not this seat's turn"):
        make_ai(level, seed=1, simulations=5).choose(game.view(1))


def test_string_and_int_seeds() -> None:
    game = Game.new(3, seed=4)
    for seed in (0, 12345, "arena:1:game:0"):
        bot = make_ai("random", seed=seed)
        assert bot.choose(game.view(0)) in game.legal_moves()


def test_no_textual_import() -> None:
    import subprocess
    import sys

    code = (
        "import sys, paris_tui.ai, paris_tui.ai.arena, paris_tui.ai.strong, paris_tui.ai.greedy;"
        "sys.exit(1 if any(m.startswith('textual') for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
