"""benchmarks/ladder.py: the ladder's numbers are computed as it says."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "benchmarks" / "ladder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_elo_of_win_rates() -> None:
    ladder = _ladder()
    assert ladder.elo(0.5) == pytest.approx(0.0)
    assert ladder.elo(0.75) == pytest.approx(400 * 0.47712, abs=0.01)  # 400 log10(3)
    assert ladder.elo(0.25) == pytest.approx(-ladder.elo(0.75))
    step = ladder.Step("easy", "random", 10, 10.0, 0.7, 1.0, 50.0, 1.0)
    assert step.elo == pytest.approx(ladder.elo(10.5 / 11))  # a sweep stays finite
    assert step.significant
    assert not ladder.Step("a", "b", 10, 6.0, 0.31, 0.83, 1.0, 1.0).significant


def test_a_small_run_prints_the_step() -> None:
    script = str(ROOT / "benchmarks" / "ladder.py")
    out = subprocess.run(
        [sys.executable, script, "--games", "4", "--jobs", "1", "--steps", "easy", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    data = json.loads(out)
    (step,) = data["steps"]
    assert (step["upper"], step["lower"], step["games"]) == ("easy", "random", 4)
    assert 0 <= step["wins"] <= 4
    low, high = step["interval"]
    assert 0.0 <= low <= step["rate"] <= high <= 1.0


def _step(ladder: ModuleType, upper: str, lower: str, wins: float, margin: float) -> object:
    low, high = (0.6, 0.8) if wins > 50 else (0.3, 0.6)
    return ladder.Step(upper, lower, 100, wins, low, high, margin, 1.0, 11, "1 s a move")


def test_the_floor_table_says_whether_the_margin_over_random_grows() -> None:
    ladder = _ladder()
    steps = [
        _step(ladder, "easy", "random", 97, 57.3),
        _step(ladder, "greedy", "easy", 88, 35.1),
        _step(ladder, "strong", "greedy", 72, 20.0),
        _step(ladder, "greedy", "random", 100, 80.0),
        _step(ladder, "strong", "random", 100, 95.5),
    ]
    text = ladder.table(steps)
    assert "| greedy over easy | 100 | 88 |" in text
    assert "| strong | 100 | 100 |" in text
    assert "grows at each step up: +57.3 < +80.0 < +95.5." in text
    assert "strong at 1 s a move" in text
    shrinking = [*steps[:4], _step(ladder, "strong", "random", 100, 70.0)]
    assert "does not grow at every step up: +57.3, +80.0, +70.0." in ladder.table(shrinking)
    assert "against random" not in ladder.table(steps[:3])


def test_kept_results_round_trip(tmp_path: Path) -> None:
    ladder = _ladder()
    path = tmp_path / "ladder.json"
    steps = {"easy/random": _step(ladder, "easy", "random", 97, 57.3)}
    ladder.save_results(path, steps)
    assert ladder.load_results(path) == steps
    assert ladder.load_results(tmp_path / "none.json") == {}


def test_steps_are_named_upper_over_lower() -> None:
    ladder = _ladder()
    assert ladder.wanted_steps("strong") == [("strong", "greedy")]
    assert ladder.wanted_steps("strong/random,easy") == [("easy", "random"), ("strong", "random")]
    assert len(ladder.wanted_steps("all")) == 5
    with pytest.raises(SystemExit, match="no step 'strong/easy'"):
        ladder.wanted_steps("strong/easy")
