"""The operator's options for creating tournaments from the lobby: ``paris-tui host
--tournament-makers NAME,...`` (names by the name rule) and ``--tournaments-open``
reach the host's settings; a name breaking the rule is a usage error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paris_tui.cli import main
from paris_tui.host.server import HostConfig


def test_a_maker_breaking_the_name_rule_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["host", "--data-dir", str(tmp_path), "--ssh-port", "off"]
    assert main([*args, "--tournament-makers", "ann,b\x1b[2Jb"]) == 2
    err = capsys.readouterr().err
    assert "--tournament-makers" in err and len(err.strip().splitlines()) == 1, err
    assert "\x1b" not in err
    assert not (tmp_path / "host").exists()


@pytest.mark.parametrize(
    ("extra", "makers", "everyone"),
    [
        ([], (), False),
        (["--tournament-makers", " Ann, bob ,"], ("Ann", "bob"), False),
        (["--tournaments-open"], (), True),
    ],
)
def test_the_options_reach_the_host(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    extra: list[str],
    makers: tuple[str, ...],
    everyone: bool,
) -> None:
    from paris_tui.doors import command

    seen: list[HostConfig] = []

    async def run_host(config: HostConfig, *rest: Any) -> int:
        seen.append(config)
        return 0

    monkeypatch.setattr(command, "_run_host", run_host)
    args = ["host", "--data-dir", str(tmp_path), "--ssh-port", "off", "--port", "0"]
    assert main([*args, *extra]) == 0
    assert (seen[0].tournament_makers, seen[0].tournaments_open) == (makers, everyone)
