"""Hostile input at the command line (issue 7): names, records, file names, seeds, no terminal.

Every hostile name of the corpus goes through ``play --players``, ``replay --json``
and ``resume FILE``: each is refused in one line naming the seat (or the
record's ``players[i].name``), exit status 2, no traceback, and the line itself
holds no raw control character; the accepted ones are kept normalised. The
commands that open the app refuse at once, in one line, when standard input or
standard error (where Textual draws) is not a terminal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import REFUSED, SHOWN, Case

from paris_tui.app.local.session import MAX_SEED, parse_players
from paris_tui.cli import main
from paris_tui.core import Game
from paris_tui.core.record import Record, dumps_record

SCRIPT = Path(sys.executable).parent / "paris-tui"
NOT_TEXT = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# A comma separates seats on the command line: a name given there holds none.
REFUSED_NO_COMMA = tuple(c for c in REFUSED if "," not in c.text)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("PARIS_TUI_DATA_DIR", str(folder))
    return folder


def _clean_line(err: str) -> str:
    """The one line of a refusal; it holds no raw character that is not text."""
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err[:300]!r}"
    assert "Traceback" not in err
    line = err[:-1]
    raw = [f"U+{ord(ch):04X}" for ch in line if unicodedata.category(ch) in NOT_TEXT]
    assert raw == [], f"raw characters in the error line: {raw}"
    assert len(line) < 300
    return line


def _record_file(folder: Path, names: list[str], name: str = "game.json", **extra: Any) -> Path:
    game = Game.new(len(names), seed=3)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    data = json.loads(dumps_record(Record.from_game(game)))
    for player, text in zip(data["players"], names, strict=True):
        player["name"] = text
    data.update(extra)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    # ensure_ascii: a lone surrogate in a name must still be writable as JSON.
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _ids(cases: tuple[Case, ...]) -> list[str]:
    return [c.label for c in cases]


# --- play --players ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", REFUSED_NO_COMMA, ids=_ids(REFUSED_NO_COMMA))
def test_play_refuses_every_hostile_name_in_one_clean_line(
    case: Case, capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    status = main(["play", "--players", f"Ann,{case.text}", "--seed", "1"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    line = _clean_line(err)
    assert line.startswith("paris-tui: --players: seat 2: the name "), line
    assert not data_dir.exists(), "a refused game must not leave a save"


@pytest.mark.parametrize("case", SHOWN, ids=_ids(SHOWN))
def test_play_keeps_every_accepted_name_normalised(case: Case) -> None:
    seats = parse_players(f"Seat one,{case.text}")
    assert [s.name for s in seats] == ["Seat one", case.shown]


def test_a_comma_separates_seats_on_the_command_line() -> None:
    assert [s.name for s in parse_players("Ann,O'Brien, Jr")] == ["Ann", "O'Brien", "Jr"]
    (case,) = (c for c in REFUSED if "," in c.text)  # refused whole elsewhere, and here
    with pytest.raises(ValueError, match="seat 2: the name is too long"):
        parse_players(f"Ann,{case.text}")


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ("Ann,ann", "--players: seat 2: two seats are called Ann and ann: names must differ"),
        ("Ann, Ann ", "--players: seat 2: two seats are called Ann"),
        ("Ann,,Bob", "--players: seat 2: the name is blank"),
        ("Ann,ai:\x1b]2;pwned\x07", "seat 2: unknown AI level '\\x1b]2;pwned\\x07'"),
        ("Ann,ai:" + "x" * 500, "seat 2: unknown AI level 'xxxxxxxxxxxxxxxxxxxx...'"),
        ("Ann," + "B" * 1_000_000, "--players: seat 2: the name is too long (1000000 characters"),
        ("," * 1_000_000, "players: Paris Paris is for 2 to 4"),
        ("Ann", "names 1 player: Paris Paris is for 2 to 4"),
    ],
)
def test_play_refusals_say_what_and_where(
    players: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--players", players]) == 2
    assert words in _clean_line(capsys.readouterr().err)


def test_ai_seats_are_named_apart_from_the_humans_ignoring_case() -> None:
    seats = parse_players("greedy ai,ai:greedy,ai:greedy")
    assert [s.name for s in seats] == ["greedy ai", "Greedy AI 2", "Greedy AI 3"]


@pytest.mark.parametrize("seed", ["-1", str(MAX_SEED + 1)])
def test_play_refuses_a_seed_out_of_range(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "Ann,Bob", "--seed", seed]) == 2
    assert "--seed must be a whole number from 0 to" in _clean_line(capsys.readouterr().err)


def test_play_refuses_a_5000_digit_seed_in_a_few_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["play", "--players", "Ann,Bob", "--seed", "9" * 5000])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "too long for a seed (5000 characters)" in err
    assert "Traceback" not in err and len(err) < 1000


# --- records: replay --json and resume ----------------------------------------------------------


@pytest.mark.parametrize("case", REFUSED, ids=_ids(REFUSED))
def test_replay_json_refuses_every_hostile_name_naming_the_seat(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record_file(tmp_path, ["Ann", case.text, "Cy"])
    assert main(["replay", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "players[1].name: the name" in _clean_line(err)


@pytest.mark.parametrize("case", REFUSED, ids=_ids(REFUSED))
def test_resume_refuses_every_hostile_name_and_leaves_the_file(
    case: Case, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record_file(data_dir / "saves", ["Ann", case.text])
    before = path.read_bytes()
    assert main(["resume", str(path)]) == 2
    line = _clean_line(capsys.readouterr().err)
    assert "cannot resume" in line and "players[1].name: the name" in line
    assert path.read_bytes() == before


@pytest.mark.parametrize("case", SHOWN, ids=_ids(SHOWN))
def test_replay_json_accepts_every_accepted_name(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record_file(tmp_path, ["Seat one", case.text])
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 2


def test_duplicate_names_in_a_record_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record_file(tmp_path, ["Ann", "Bob", "bob"])
    assert main(["replay", str(path), "--json"]) == 2
    assert "players[2].name: two seats are called Bob and bob" in _clean_line(
        capsys.readouterr().err
    )


HOSTILE_FILE_NAMES = [
    "osc\x1b]2;pwned\x07.json",
    "csi\x1b[2J.json",
    "c1\x9b2J.json",
    "bidi\u202enosj.json",
]


@pytest.mark.parametrize("name", HOSTILE_FILE_NAMES)
@pytest.mark.parametrize("command", ["replay", "resume"])
def test_file_names_in_error_lines_are_escaped(
    name: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 7 item 3: file names with escapes were printed raw by resume and replay."""
    missing = tmp_path / name
    broken = tmp_path / ("x" + name)
    broken.write_text("{not json", encoding="utf-8")
    for path in (missing, broken):
        args = ["replay", str(path), "--json"] if command == "replay" else ["resume", str(path)]
        assert main(args) == 2
        line = _clean_line(capsys.readouterr().err)
        assert "\\x1b" in line or "\\x9b" in line or "\\u202e" in line


# --- the real console script: bytes on stderr, a FIFO, no terminal -----------------------------


def _script(*args: str, env: dict[str, str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    assert SCRIPT.exists(), f"the console script is not installed at {SCRIPT}"
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    kwargs.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(
        [str(SCRIPT), *args],
        stdout=subprocess.PIPE,
        timeout=60,
        check=False,
        env=env,
        **kwargs,
    )


@pytest.fixture
def env(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "PARIS_TUI_DATA_DIR": str(data_dir)}


@pytest.mark.parametrize(
    "label", ["OSC 52 clipboard", "OSC 2 title", "C1 CSI byte", "bidi RLO", "NUL"]
)
def test_script_stderr_bytes_hold_no_escape_from_a_hostile_record(
    label: str, tmp_path: Path, env: dict[str, str]
) -> None:
    (case,) = (c for c in REFUSED if c.label == label)
    path = _record_file(tmp_path, ["Ann", case.text])
    proc = _script("replay", str(path), "--json", env=env)
    assert proc.returncode == 2 and proc.stdout == b""
    assert b"\x1b" not in proc.stderr and b"\xc2\x9b" not in proc.stderr
    assert b"\x07" not in proc.stderr and b"\xe2\x80\xae" not in proc.stderr
    assert b"players[1].name" in proc.stderr and proc.stderr.count(b"\n") == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", ["replay", "resume"])
def test_script_refuses_a_fifo_at_once(command: str, tmp_path: Path, env: dict[str, str]) -> None:
    """Issue 7 item 10: ``replay`` on a FIFO with no writer hung (here: a 60 s timeout)."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    args = ["replay", str(fifo), "--json"] if command == "replay" else ["resume", str(fifo)]
    proc = _script(*args, env=env)
    assert proc.returncode == 2
    assert b"not a regular file" in proc.stderr and proc.stderr.count(b"\n") == 1


def _valid_save(data_dir: Path) -> Path:
    return _record_file(data_dir / "saves", ["Ann", "Bob"], name="game-1.json")


COMMANDS_THAT_OPEN_THE_APP = {
    "play": lambda d: ["play", "--players", "Ann,Bob", "--seed", "1"],
    "resume": lambda d: ["resume"],
    "resume FILE": lambda d: ["resume", str(_valid_save(d))],
    "replay FILE": lambda d: ["replay", str(_valid_save(d))],
    "new-game screen": lambda d: [],
}


@pytest.mark.parametrize("command", list(COMMANDS_THAT_OPEN_THE_APP))
def test_script_without_a_terminal_refuses_in_one_line(
    command: str, data_dir: Path, env: dict[str, str]
) -> None:
    """Issue 7 item 10: ``paris-tui play ... </dev/null`` spun at 99% CPU for ever
    (here it would hit the 60 s timeout). Now: one line, exit 2, no save written."""
    if command == "resume":
        _valid_save(data_dir)
    args = COMMANDS_THAT_OPEN_THE_APP[command](data_dir)
    before = sorted(p.name for p in data_dir.rglob("*"))
    proc = _script(*args, env=env)
    assert proc.returncode == 2, proc
    assert proc.stdout == b""
    line = _clean_line(proc.stderr.decode())
    assert "needs a terminal: standard input is not one" in line
    assert sorted(p.name for p in data_dir.rglob("*")) == before


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_script_with_a_terminal_in_but_stderr_redirected_refuses(
    data_dir: Path, env: dict[str, str]
) -> None:
    """Textual draws on standard error: redirected, the game would draw into a file."""
    import pty

    leader, follower = pty.openpty()
    try:
        proc = _script("play", "--players", "Ann,Bob", env=env, stdin=follower)
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == 2
    assert b"standard error is not one" in proc.stderr
    assert not data_dir.exists()
