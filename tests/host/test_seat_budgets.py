"""AI seats with their own thinking time (``ai:expert@0.25``) and the host's ``--budget``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from paris_tui.host.referee import Referee, parse_seats
from paris_tui.host.server import Host, HostConfig

from .helpers import MAX_STEPS, TIMEOUT
from .test_process import _run


def test_a_searching_seat_may_have_its_own_seconds() -> None:
    seats = parse_seats("ann,ai:expert@0.25,ai:strong, ai:Strong@2")
    assert [(s.kind, s.budget) for s in seats] == [
        ("human", None),
        ("ai:expert", 0.25),
        ("ai:strong", None),
        ("ai:strong", 2.0),
    ]
    assert [s.name for s in seats] == ["ann", "Expert AI", "Strong AI", "Strong AI 2"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("ann,ai:greedy@1", "greedy takes no time budget"),
        ("ann,ai:expert@0", "between 0 and 3600 seconds"),
        ("ann,ai:expert@nan", "between 0 and 3600 seconds"),
        ("ann,ai:expert@soon", "needs a number of seconds"),
    ],
)
def test_bad_seat_seconds(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_seats(text)


def test_the_referee_keeps_each_seats_seconds(tmp_path: Path) -> None:
    path = tmp_path / "t1.json"
    ref = Referee.new("t1", parse_seats("ai:expert@0.25,ai:strong,ann"), seed=4, path=path)
    assert ref.meta["ai_budgets"] == [0.25, None, None]
    assert ref.bot(0, 0.5).budget == 0.25  # type: ignore[attr-defined]
    assert ref.bot(1, 0.5).budget == 0.5  # type: ignore[attr-defined]
    again = Referee.from_record("t1", ref.record(), path)  # a resumed table: the same seconds
    assert again.ai_budget_for(0) == 0.25 and again.ai_budget_for(1) is None
    assert again.bot(1).budget == 1.0  # type: ignore[attr-defined]
    plain = Referee.new("t2", parse_seats("ann,ai:strong"), seed=4, path=tmp_path / "t2.json")
    assert "ai_budgets" not in plain.meta


async def test_the_host_gives_its_ai_seats_their_seconds(tmp_path: Path) -> None:
    host = Host(HostConfig(data_dir=tmp_path, port=0, ai_delay=0.0, ai_budget=0.2))
    host.load()
    room = host.open_table(parse_seats("ai:expert@0.05,ai:strong"), seed=3)
    await host.start()
    try:
        ref = room.referee
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        for _ in range(MAX_STEPS):
            if ref.move_count >= 2 or loop.time() > deadline:
                break
            await asyncio.sleep(0.02)
        assert ref.move_count >= 2
        assert ref.bot(0).level == "expert"  # type: ignore[attr-defined]
        assert ref.bot(0).budget == 0.05  # type: ignore[attr-defined]
        assert ref.bot(1).budget == 0.2  # type: ignore[attr-defined]
    finally:
        await host.close()


@pytest.mark.parametrize(
    "args", [["--budget", "0"], ["--budget", "soon"], ["--table", "ann,ai:easy@1"]]
)
def test_bad_budgets_get_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    result = _run(["--data-dir", str(tmp_path), *args])
    assert result.returncode == 2, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("paris-tui host: "), result.stderr
