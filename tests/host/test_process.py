"""``paris-tui host`` as a real process: killed mid-game and restarted, stopped by
SIGTERM, and its one-line refusals (issue 9). Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from . import helpers
from .helpers import (
    TIMEOUT,
    join_bot,
    random_player,
    stored_record,
    stored_record_file,
    stored_table_ids,
)

HOST = [sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--ssh-port", "0"]


class HostProcess:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.out: list[str] = []

    @classmethod
    async def start(cls, data_dir: Path, *args: str) -> HostProcess:
        """``paris-tui host`` on ``data_dir``, and --host-store's database if any."""
        database = [] if helpers.DATABASE is None else ["--database", helpers.DATABASE]
        proc = await asyncio.create_subprocess_exec(
            *HOST,
            "--data-dir",
            str(data_dir),
            *database,
            *args,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(proc)

    async def port(self) -> int:
        assert self.proc.stdout is not None
        async with asyncio.timeout(30):
            while True:
                line = (await self.proc.stdout.readline()).decode()
                assert line, f"the host exited: {await self.stderr()}"
                self.out.append(line)
                if "listening on" in line:
                    return int(line.split("listening on ", 1)[1].split(" ")[0].rsplit(":", 1)[1])

    async def stdout_rest(self) -> str:
        assert self.proc.stdout is not None
        async with asyncio.timeout(30):
            return "".join(self.out) + (await self.proc.stdout.read()).decode()

    async def stderr(self) -> str:
        assert self.proc.stderr is not None
        async with asyncio.timeout(30):
            return (await self.proc.stderr.read()).decode()

    async def wait(self) -> int:
        async with asyncio.timeout(30):
            return await self.proc.wait()


TABLE = ["--table", "ann,bob,ai:random", "--seed", "3", "--ai-delay", "0"]


async def test_killed_host_restarts_and_the_game_continues(tmp_path: Path) -> None:
    first = await HostProcess.start(tmp_path, *TABLE)
    port = await first.port()
    ann = await join_bot(port, "ann", random_player(1))
    bob = await join_bot(port, "bob", random_player(2))
    tokens = [ann.seated.token, bob.seated.token]
    assert all(tokens)
    await asyncio.gather(*(b.play_until(lambda v: len(v.moves) >= 10) for b in (ann, bob)))
    seen = max(len(ann.view.moves), len(bob.view.moves))
    first.proc.send_signal(signal.SIGKILL)
    assert await first.wait() == -signal.SIGKILL
    # Saved before it was sent: the record holds every move a player saw.
    saved = stored_record(tmp_path, "t1")
    assert len(saved.moves) >= seen

    # The same command again: the table is resumed, not opened twice.
    second = await HostProcess.start(tmp_path, *TABLE)
    port = await second.port()
    ann = await join_bot(port, "ann", random_player(3), token=tokens[0])
    bob = await join_bot(port, "bob", random_player(4), token=tokens[1])
    assert len(ann.view.moves) == len(saved.moves)
    assert ann.view.moves == saved.moves
    end, _ = await asyncio.gather(ann.play_to_end(), bob.play_to_end())
    second.proc.send_signal(signal.SIGTERM)
    assert await second.wait() == 0
    out, err = await second.stdout_rest(), await second.stderr()
    if helpers.DATABASE is None:
        assert (
            "Table t1: ann, bob, Random AI (move" in out
            and "ann: paris-tui join 127.0.0.1:" in out
            and "--name bob" in out
        )
    # With a database, t1's lease is still the dead host's when the new one (at another
    # port: not taken early) prints its lines; it takes t1 once that lease runs out
    # (lease_seconds), and the game above went on there. The database names the
    # first name it finds seated (paris_seated), the files every one.
    assert re.search(r"already sits? at unfinished table t1", err), err
    assert "stopped" in out
    assert stored_table_ids(tmp_path) == ["t1"]
    # The players' final scores are those of `paris-tui replay --json` of the host's record.
    replay = subprocess.run(
        [
            sys.executable,
            "-m",
            "paris_tui.cli",
            "replay",
            "--json",
            str(stored_record_file(tmp_path, "t1")),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    final = json.loads(replay.stdout)["final"]
    assert end.outcome is not None
    assert list(end.outcome.scores) == final["scores"]
    assert list(end.outcome.winners) == final["winners"]
    # Tokens are secrets: never in the host's output or its log.
    for token in tokens:
        assert token is not None and token not in out and token not in err
    assert "Traceback" not in err


async def test_sigterm_saves_and_exits_zero(tmp_path: Path) -> None:
    host = await HostProcess.start(tmp_path, "--table", "ann,bob")
    await host.port()
    host.proc.send_signal(signal.SIGTERM)
    assert await host.wait() == 0
    assert stored_record(tmp_path, "t1").moves == ()
    # The data directory is free again.
    again = await HostProcess.start(tmp_path)
    port = await again.port()
    assert port > 0
    again.proc.send_signal(signal.SIGINT)
    assert await again.wait() == 0
    rest = await again.stdout_rest()
    assert "No table is open" not in rest
    assert f"Anyone: paris-tui join 127.0.0.1:{port} (the lobby" in rest


async def test_a_second_host_on_the_same_data_directory_is_refused(tmp_path: Path) -> None:
    host = await HostProcess.start(tmp_path, "--table", "ann,bob")
    port = await host.port()
    try:
        other = _run(["--data-dir", str(tmp_path)])
        assert other.returncode == 1
        assert other.stderr.startswith("paris-tui host: another paris-tui host is serving")
        busy = _run(["--data-dir", str(tmp_path / "x"), "--port", str(port)])
        assert busy.returncode == 1 and "cannot listen" in busy.stderr
    finally:
        host.proc.send_signal(signal.SIGTERM)
        assert await host.wait() == 0


def _run(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run(
        [*HOST, *args], capture_output=True, text=True, timeout=60, env=env, check=False
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--port", "http"],
        ["--port", "70000"],
        ["--table", "ann"],
        ["--table", "ann,ann"],
        ["--table", "ann,ai:bogus"],
        ["--table", "ann,\x1b]2;pwned\x07"],
        ["--table", "ann,\u202eevil"],
        ["--table", "a,b,c,d,e"],
        ["--ai-delay", "nan"],
        ["--ai-takeover", "-1"],
        ["--seed", "x"],
        ["--small-tour", "fast"],
        ["--max-tables", "0"],
        ["--ssh-port", "ssh"],
        ["--ssh-port", "-1"],
        ["--ssh-port", "off", "--authorized-keys", "keys"],
    ],
)
def test_bad_options_get_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    result = _run(["--data-dir", str(tmp_path), *args])
    assert result.returncode == 2, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("paris-tui host: "), result.stderr
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr
    assert not (tmp_path / "host").exists()


def test_timeout_constant_is_sane() -> None:
    assert 1 <= TIMEOUT <= 60


async def test_the_start_up_lines_say_which_seats_are_claimed(
    tmp_path: Path,
) -> None:
    first = await HostProcess.start(tmp_path, *TABLE)
    port = await first.port()
    ann = await join_bot(port, "ann")  # claimed (from a browser, say)
    await ann.client.close()
    first.proc.send_signal(signal.SIGTERM)
    assert await first.wait() == 0
    again = await HostProcess.start(tmp_path)
    port = await again.port()
    again.proc.send_signal(signal.SIGTERM)
    assert await again.wait() == 0
    rest = await again.stdout_rest()
    # Whichever door claimed it (an SSH key claims as a token does): the words say each.
    assert (
        f"  ann: paris-tui join 127.0.0.1:{port} --name ann (claimed: only one of its account's "
        "SSH keys, join tokens or browsers takes it, or a link code)"
    ) in rest
    assert f"  bob: paris-tui join 127.0.0.1:{port} --name bob" in rest
    assert "Only this machine can connect (--bind 127.0.0.1)" in rest


def test_the_ssh_door_loads_without_a_word_on_stderr() -> None:
    """asyncssh names the DSA key classes, which cryptography 51 deprecates: loading it
    wrote five warnings to stderr before a host's first line. The door's modules load
    silently, whichever of them imports asyncssh first."""
    for modules in ("paris_tui.doors.ssh", "paris_tui.host.accounts.store, paris_tui.doors.ssh"):
        code = f"import {modules}; from paris_tui.host.accounts.store import ssh_fingerprint"
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0 and done.stderr == "", done.stderr
