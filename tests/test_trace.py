"""paris_tui/trace.py: a login's timeline, off unless asked (issue 19)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paris_tui import trace


def test_mark_writes_nothing_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace, "_PATH", None)
    monkeypatch.chdir(tmp_path)
    trace.mark("ssh accept")
    assert list(tmp_path.iterdir()) == []


def test_mark_appends_one_line_a_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "trace.txt"
    monkeypatch.setattr(trace, "_PATH", str(path))
    trace.mark("ssh accept")
    trace.mark("game first frame")
    lines = [line.split(" ", 2) for line in path.read_text().splitlines()]
    assert [label for _when, _pid, label in lines] == ["ssh accept", "game first frame"]
    assert all(pid == str(os.getpid()) for _when, pid, _label in lines)
    assert float(lines[0][0]) <= float(lines[1][0])
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_profile_is_written_once_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trace, "_PROFILE_DIR", None)
    trace.start_profile()
    assert not trace.profiling()
    monkeypatch.setattr(trace, "_PROFILE_DIR", str(tmp_path))
    trace.start_profile()
    assert trace.profiling()
    sum(range(1000))
    trace.stop_profile()
    trace.stop_profile()  # (once)
    assert not trace.profiling()
    assert [p.name for p in tmp_path.iterdir()] == [f"app-{os.getpid()}.prof"]
