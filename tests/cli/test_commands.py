"""The ``paris-tui`` console script end to end, ``bench``, ``--version`` and ``--help``."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from paris_tui import __version__
from paris_tui.cli import main
from paris_tui.core import Game
from paris_tui.core.record import Record, dumps_record, replay_summary

SCRIPT = Path(sys.executable).parent / "paris-tui"
SUBCOMMANDS = ["play", "resume", "replay", "bench"]
if importlib.util.find_spec("paris_tui.ai.arena") is not None:
    SUBCOMMANDS.append("arena")


def script(*args: str) -> subprocess.CompletedProcess[str]:
    assert SCRIPT.exists(), f"the console script is not installed at {SCRIPT}"
    return subprocess.run(
        [str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def one_line_error(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.endswith("\n"), proc.stderr
    assert "Traceback" not in proc.stderr
    for word in words:
        assert word in proc.stderr


# --- the real console script -----------------------------------------------------------


def test_script_replay_json_good_record(tmp_path: Path) -> None:
    game = Game.new(3, seed=4)
    game.play_random(__import__("random").Random(4))
    record = Record.from_game(game)
    path = tmp_path / "done.json"
    path.write_text(dumps_record(record), encoding="utf-8")
    proc = script("replay", str(path), "--json")
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout) == json.loads(json.dumps(replay_summary(record)))


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("not-json.json", b"this is not json", ["not valid JSON"]),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000, ["nested"]),
        ("nan.json", b'{"format": NaN}', ["NaN"]),
        ("latin1.json", b'{"name": "caf\xe9"}', ["UTF-8"]),
        ("bad.json", b'{"format": "paris-paris-record", "version": "1"}', ["version"]),
    ],
    ids=["not-json", "deep", "nan", "latin1", "bad-version"],
)
def test_script_replay_json_bad_files(
    tmp_path: Path, name: str, content: bytes, words: list[str]
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    one_line_error(script("replay", str(path), "--json"), name, *words)


def test_script_replay_json_missing_file_and_directory(tmp_path: Path) -> None:
    one_line_error(script("replay", str(tmp_path / "nope.json"), "--json"), "nope.json")
    one_line_error(script("replay", str(tmp_path), "--json"), "directory")


def test_script_replay_json_huge_file(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b"[" + b"0," * (2 * 1024 * 1024 + 5) + b"0]")
    one_line_error(script("replay", str(path), "--json"), "too large")


def test_script_version_and_help() -> None:
    proc = script("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"paris-tui {__version__}"
    proc = script("--help")
    assert proc.returncode == 0 and proc.stderr == ""
    for command in SUBCOMMANDS:
        assert command in proc.stdout


def test_script_bench_json() -> None:
    proc = script("bench", "--games", "3", "--players", "2", "--json")
    assert proc.returncode == 0 and proc.stderr == ""
    data = json.loads(proc.stdout)
    assert set(data) == {"games", "seconds", "games_per_s"}
    assert data["games"] == 3


# --- in process --------------------------------------------------------------------------


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_bench_json_shape(capsys: pytest.CaptureFixture[str], players: str) -> None:
    """``bench --json``: ``{"games": K, "seconds": s, "games_per_s": x}``."""
    assert main(["bench", "--games", "4", "--players", players, "--json", "--seed", "7"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("\n") == 1
    data = json.loads(out)
    assert set(data) == {"games", "seconds", "games_per_s"}
    assert data["games"] == 4 and type(data["games"]) is int
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    assert isinstance(data["games_per_s"], float) and data["games_per_s"] > 0


def test_bench_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "3", "--players", "3"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("\n") == 1
    assert out.startswith("3 random 3-player games in ") and "games/s" in out


@pytest.mark.parametrize(
    "args", [["--players", "5"], ["--players", "1"], ["--games", "0"], ["--games", "-3"]]
)
def test_bench_bad_arguments(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert main(["bench", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("paris-tui: ")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"paris-tui {__version__}"


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for command in SUBCOMMANDS:
        assert f"\n    {command} " in out, f"{command} missing from --help"


@pytest.mark.parametrize("command", ["replay", "bench"])
def test_subcommand_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "--json" in out


def test_replay_without_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["replay"])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and "file" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "Ann,Bob,Cy", "--seed", "3"],
        ["--lang", "de", "play", "--players", "Ann,ai:easy", "--small-tour", "tile-line"],
        ["--ai-delay=0.5", "resume"],
        ["--glyphs", "ascii", "replay", "game.json", "--json"],
        ["stats", "--json", "--data-dir", "d"],
        ["bench", "--games", "5"],
        ["join", "localhost:7337", "--name", "Ann"],
    ],
)
def test_the_parser_of_one_command_parses_it_as_the_whole_parser(argv: list[str]) -> None:
    # paris-tui play builds only play's parser (issue 19): the same namespace comes out.
    from paris_tui.cli import _command, _light_enough, build_parser

    assert _light_enough(argv)
    command = _command(argv)
    assert command is not None and command in argv
    only = build_parser(light=True, only=command)
    assert list(only._subparsers._group_actions[0].choices) == [command]  # type: ignore[union-attr]
    assert vars(only.parse_args(argv)) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize("reader", [[], ["--screen-reader"]])
def test_join_watch_with_a_name_is_accepted_and_dials_the_host(
    reader: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 22: ``join --watch ID --name N`` watches under N's account (proven by
    the token kept for N, as a join: tests/host/test_chat.py), no longer refused as
    bad arguments; ``--watch`` with ``--table`` still is."""
    import socket

    from paris_tui.app.start import launch

    monkeypatch.setattr(launch, "_terminal_problem", lambda: None)  # pytest's stdin

    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    where = ["--data-dir", str(tmp_path)]
    argv = ["join", f"127.0.0.1:{port}", "--watch", "t1", "--name", "ann", *reader, *where]
    assert main(argv) == 3  # it dialled: nothing listens there
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--watch" not in err
    assert main([*argv, "--table", "t2"]) == 2
    err = capsys.readouterr().err
    assert "--watch" in err and "--table" in err
