"""Every app test saves into its own temporary data directory, and runs as if in a terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from paris_tui.app.start import launch


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("PARIS_TUI_DATA_DIR", str(folder))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return folder


@pytest.fixture(autouse=True)
def in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The launch functions refuse when standard input is not a terminal, as it is not
    under pytest; the app tests drive the app themselves (Pilot, or a pty). The refusal
    itself is tested on the real command in tests/cli/test_hostile_input.py."""
    monkeypatch.setattr(launch, "_terminal_problem", lambda: None)
