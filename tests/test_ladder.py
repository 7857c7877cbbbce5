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
