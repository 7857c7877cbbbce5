"""Every app test saves into its own temporary data directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("PARIS_TUI_DATA_DIR", str(folder))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return folder
