"""``paris-tui arena``: JSON output, errors, seeds independent of --jobs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from paris_tui.ai.arena import GameSpec, percentile, run_arena
from paris_tui.cli import main

KEYS = ["games", "seats", "wins", "shared", "mean_score", "move_ms_mean", "move_ms_p95"]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    status = main(["arena", *args, "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out.endswith("\n") and out.count("\n") == 1
    data = json.loads(out)
    assert isinstance(data, dict)
    assert list(data) == KEYS
    assert "\r" in err  # the progress bar went to stderr
    return data


def test_json_tiny_run(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys, "--seats", "strong,greedy", "--games", "2", "--seed", "5", "--simulations", "10"
    )
    assert data["games"] == 2
    assert data["seats"] == ["strong", "greedy"]
    wins = data["wins"]
    assert isinstance(wins, list) and len(wins) == 2
    assert sum(wins) + data["shared"] == 2  # type: ignore[operator]
    for key in ("mean_score", "move_ms_mean", "move_ms_p95"):
        values = data[key]
        assert isinstance(values, list) and len(values) == 2
        assert all(isinstance(v, int | float) and v >= 0 for v in values)


def test_results_do_not_depend_on_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--seats", "greedy,random,strong", "--games", "3", "--seed", "2", "--simulations", "8"]
    one = run_json(capsys, *args, "--jobs", "1")
    two = run_json(capsys, *args, "--jobs", "2")
    for key in ("games", "seats", "wins", "shared", "mean_score"):
        assert one[key] == two[key]


def test_seats_rotate_and_deals_repeat() -> None:
    """Each level starts equally often (R3: seat 0 starts); the n rotations of a deal share it."""
    specs = [GameSpec(g, ("strong", "greedy", "random"), seed=9) for g in range(6)]
    starters = [next(e for e in range(3) if spec.seat_of(e) == 0) for spec in specs]
    assert sorted(starters) == [0, 0, 1, 1, 2, 2]
    assert len({spec.deal_seed for spec in specs[:3]}) == 1
    assert specs[0].deal_seed != specs[3].deal_seed
    assert len({spec.bot_seed(0) for spec in specs}) == 6
    result = run_arena(["random", "random"], games=4, seed=3)
    assert result.games == 4
    assert len(result.move_ms[0]) == len(result.move_ms[1]) == 4 * 20


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["arena", "--seats", "greedy,random", "--games", "2", "--seed", "1"])
    out, err = capsys.readouterr()
    assert status == 0
    assert "2 games" in out and "greedy" in out and "shared" in out
    assert "arena [" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "strong,wizard"], "unknown AI level 'wizard'"),
        (["--seats", "strong"], "2 to 4"),
        (["--seats", "random,random,random,random,random"], "2 to 4"),
        ([], "needs --seats"),
        (["--seats", "random,random", "--games", "0"], "--games"),
        (["--seats", "random,random", "--games", "ten"], "--games"),
        (["--seats", "random,random", "--seed", "x"], "--seed"),
        (["--seats", "random,random", "--jobs", "0"], "--jobs"),
        (["--seats", "random,random", "--budget", "-1"], "--budget"),
        (["--seats", "random,random", "--budget", "inf"], "--budget"),
        (["--seats", "random,random", "--simulations", "1.5"], "--simulations"),
        (["--seats", "random,random", "--small-tour", "none"], "--small-tour"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status = main(["arena", *args, "--json"])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err


def test_percentile() -> None:
    assert percentile([], 95) == 0.0
    assert percentile([5.0], 95) == 5.0
    assert percentile([float(i) for i in range(1, 101)], 95) == 95.0


def test_console_script() -> None:
    script = Path(sys.executable).with_name("paris-tui")
    if not script.exists():
        pytest.skip("the paris-tui console script is not installed next to this Python")
    proc = subprocess.run(
        [str(script), "arena", "--seats", "greedy,random", "--games", "2", "--seed", "4", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["games"] == 2 and data["seats"] == ["greedy", "random"]
    bad = subprocess.run(
        [str(script), "arena", "--seats", "greedy,nobody", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "unknown AI level 'nobody'" in bad.stderr


def _table(lang: str) -> str:
    from paris_tui import i18n
    from paris_tui.ai.arena import ArenaArgs, format_table
    from paris_tui.core import Options

    result = run_arena(["random", "random"], games=3, seed=4)
    parsed = ArenaArgs(("random", "random"), (None, None), 3, 4, 1, None, None, Options())
    i18n.set_language(lang)
    try:
        return format_table(result, parsed, 1.25)
    finally:
        i18n.set_language("en")


def test_table_headings_stand_apart() -> None:
    """Issue 18.14: "95% interval mean score" ran together: two headings, two spaces at least."""

    for lang in ("en", "de", "zh-TW"):
        head = next(line for line in _table(lang).splitlines() if line.startswith("#"))
        assert len(re.split(r"\s{2,}", head.strip())) == 8, (lang, head)


def test_table_numbers_as_the_language_writes_them() -> None:
    """Issue 23: German decimals with a comma (win %, its interval, the means)."""
    english, german = _table("en"), _table("de")
    rows = [line for line in german.splitlines() if line.startswith(("0 ", "1 "))]
    assert rows and all("," in row and "." not in row for row in rows), rows
    assert "1,2 s" in german or "1,3 s" in german  # the run's seconds
    english_rows = [line for line in english.splitlines() if line.startswith(("0 ", "1 "))]
    assert all("." in row and "," not in row for row in english_rows), english_rows
