"""Choosing the language on the command line: --lang, PARIS_TUI_LANG, the saved setting,
the locale; argparse's own words and our one-line errors in that language."""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from paris_tui import argparse_words, i18n
from paris_tui.app.local.settings import Settings, save_settings
from paris_tui.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No settings.json of the machine's user decides a language here."""
    folder = tmp_path / "data"
    monkeypatch.setenv("PARIS_TUI_DATA_DIR", str(folder))
    return folder


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse: --help, a usage error
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_help_in_german_argparse_words_too(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["--lang", "de", "--help"], capsys)
    assert status == 0 and err == ""
    assert out.startswith("Aufruf: paris-tui ")
    assert "\nOptionen:\n" in out and "\nPositionsargumente:\n" in out
    assert "diese Hilfe anzeigen und beenden" in out
    assert "gleich ein Spiel starten" in out  # our own help text of `play`
    assert "usage:" not in out and "show this help" not in out


def test_lang_after_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["play", "--lang", "de"], capsys)
    assert status == 2 and out == ""
    assert "paris-tui play: Fehler: folgende Argumente werden benötigt: --players" in err
    assert err.startswith("Aufruf: paris-tui play ")
    status, out, _err = _run(["join", "--lang=zh-TW", "--help"], capsys)
    assert status == 0 and out.startswith("用法：paris-tui join ")


def test_environment_variable_chooses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARIS_TUI_LANG", "zh-TW")
    status, _out, err = _run(["play"], capsys)
    assert status == 2
    assert err.splitlines()[-1] == "paris-tui play：錯誤：必須提供下列參數：--players"
    # Our own errors (a type check of --seed) and argparse's wrapping of them.
    status, _out, err = _run(["play", "--players", "a,b", "--seed", "x"], capsys)
    assert status == 2
    assert err.splitlines()[-1] == "paris-tui play：錯誤：參數 --seed：不是整數：x"
    # --lang beats the variable.
    status, _out, err = _run(["--lang", "en", "play"], capsys)
    assert err.splitlines()[-1].endswith("error: the following arguments are required: --players")


def test_locale_chooses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    status, out, err = _run(["bench", "--players", "7"], capsys)
    assert (status, out, err) == (2, "", "paris-tui: --players muss 2, 3 oder 4 sein\n")
    monkeypatch.setenv("LC_ALL", "zh_TW.UTF-8")  # LC_ALL before LANG
    status, out, err = _run(["bench", "--players", "7"], capsys)
    assert err == "paris-tui: --players 必須是 2、3 或 4\n"
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")  # a locale we have no words for: English
    status, out, err = _run(["bench", "--players", "7"], capsys)
    assert err == "paris-tui: --players must be 2, 3 or 4\n"


def test_saved_setting_chooses_after_the_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, _own_data_dir: Path
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    save_settings(Settings(language="zh-TW"), _own_data_dir)
    _status, _out, err = _run(["bench", "--games", "0"], capsys)
    assert err == "paris-tui: --games 至少要是 1\n"  # the setting beats the locale
    monkeypatch.setenv("PARIS_TUI_LANG", "de")
    _status, _out, err = _run(["bench", "--games", "0"], capsys)
    assert err == "paris-tui: --games muss mindestens 1 sein\n"  # the variable beats the setting
    _status, _out, err = _run(["bench", "--games", "0", "--lang", "en"], capsys)
    assert err == "paris-tui: --games must be at least 1\n"  # --lang beats everything


@pytest.mark.parametrize("argv", [["--lang", "klingon", "play"], ["play", "--lang=fr"]])
def test_unknown_language_is_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = _run(argv, capsys)
    assert status == 2 and out == ""
    value = argv[-1].split("=")[-1] if "=" in argv[-1] else argv[1]
    assert err == f"paris-tui: unknown language {value!r} (choose from en, zh-TW, de)\n"
    # Said in the language the rest would have been in.
    monkeypatch.setenv("PARIS_TUI_LANG", "de")
    status, out, err = _run(argv, capsys)
    assert status == 2 and err.startswith("paris-tui: unbekannte Sprache ")
    assert len(err.splitlines()) == 1


def test_stats_table_in_each_language(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from paris_tui.cli import _stats_table

    player = {
        "name": "王小明",
        "games": 3,
        "wins": 2,
        "mean_score": 31.5,
        "mean_by_source": {"small_tour": 10.0, "grand_tour": 12.0, "special_tour": 6.5, "sack": 3},
    }
    english = _stats_table([player])
    assert english[0] == "player                games  wins  mean  small  grand  special  sack"
    assert english[1] == "王小明                    3     2  31.5   10.0   12.0      6.5   3.0"
    from rich.cells import cell_len

    big = dict(player, name="Zoë", mean_score=113.0)  # wider than its column's heading
    for tag in ("en", "de", "zh-TW"):
        i18n.set_language(tag)
        lines = _stats_table([player, big])
        assert tag == "en" or lines[0] != english[0]
        # Every column ends in the same cell on every line (numbers are right-aligned).
        ends = [[cell_len(line[: m.end()]) for m in re.finditer(r"\S+", line)] for line in lines]
        assert ends[0][1:] == ends[1][1:] == ends[2][1:], lines


def test_readme_commands_take_lang() -> None:
    """Each command in the README still parses, and with --lang before or after it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"`\./scripts/play ([^`]*)`", readme)
    commands += re.findall(r"^(?:\./scripts/play|\s*\S+: paris-tui) (.*)$", readme, re.M)
    commands = [c for c in commands if not {"...", "--help", "COMMAND"} & set(shlex.split(c))]
    assert len(commands) >= 12 and any(c.startswith("host ") for c in commands)
    i18n.set_language("de")
    parser = build_parser()
    for command in commands:
        argv = shlex.split(command)
        for with_lang in ([*argv, "--lang", "de"], ["--lang", "zh-TW", *argv]):
            args = parser.parse_args(with_lang)
            assert args.lang in ("de", "zh-TW")


# argparse's messages that only a programmer meets (a parser built wrongly).
_PROGRAMMERS_ONLY = {
    ".__call__() not defined",
    "conflicting subparser: %s",
    "conflicting subparser alias: %s",
    'argument "-" with mode %r',
    "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "conflicting option string: %s",
    "conflicting option strings: %s",
    "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments",
    "%r is not callable",
}


# Messages whose translation is the English (the catalog check sees that they are translated).
_SAME_IN = {"de": {"%(heading)s:"}}


def _argparse_messages() -> set[str]:
    """Every string literal argparse of this Python passes to _() or ngettext()."""
    tree = ast.parse(inspect.getsource(argparse))
    found: set[str] = set()
    for node in ast.walk(tree):
        called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        if called and node.func.id in ("_", "ngettext"):  # type: ignore[attr-defined]
            for arg in node.args[:2]:  # type: ignore[attr-defined]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
                elif isinstance(arg, ast.JoinedStr | ast.BinOp):  # pragma: no cover
                    found.add(ast.unparse(arg))
    return found


def test_every_argparse_message_a_user_meets_is_translated() -> None:
    wanted = _argparse_messages() - _PROGRAMMERS_ONLY
    assert "usage: " in wanted and "the following arguments are required: %s" in wanted
    ours = set(argparse_words.MESSAGES) | {"expected %s argument", "expected %s arguments"}
    assert sorted(wanted - ours) == [], "add these to paris_tui/argparse_words.py"
    for tag in ("de", "zh-TW"):
        catalog = i18n.translations(tag)
        for message in sorted(ours - {"expected %s arguments"} - _SAME_IN.get(tag, set())):
            assert catalog.gettext(message) != message, (tag, message)
        assert catalog.ngettext("expected %s argument", "expected %s arguments", 2) not in (
            "expected %s argument",
            "expected %s arguments",
        )


def test_the_real_command_in_german() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "paris_tui", "--lang", "de", "bench", "--players", "9"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "paris-tui: --players muss 2, 3 oder 4 sein\n"


# --- the words of each command, in the chosen language ----------------------------------


def test_players_names_refused_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["--lang", "de", "play", "--players", "Ann,ann"], capsys)
    assert (status, out) == (2, "")
    assert err == (
        "paris-tui: --players: Platz 2: zwei Plätze heißen Ann und ann: Namen müssen sich "
        "in mehr als der Groß- und Kleinschreibung unterscheiden\n"
    )
    status, out, err = _run(["play", "--players", "Ann,Bob\x1b"], capsys)
    assert err == "paris-tui: --players: seat 2: the name holds a control character (U+001B)\n"


def test_record_errors_in_chinese(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = _run(["--lang", "zh-TW", "replay", str(tmp_path), "--json"], capsys)
    assert (status, out) == (2, "")
    assert err == f"paris-tui: 無效的紀錄 {tmp_path}：file：{tmp_path} 是目錄\n"
    status, out, err = _run(["replay", str(tmp_path), "--json"], capsys)
    assert err == f"paris-tui: invalid record {tmp_path}: file: {tmp_path} is a directory\n"


def test_join_and_arena_errors_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    # (A host without a port is HOST:7337: a bad port is what is refused.)
    status, _out, err = _run(["--lang", "de", "join", "nowhere:x"], capsys)
    assert status == 2
    assert err == (
        "paris-tui: „nowhere:x“ ist nicht HOST:PORT (z. B. 127.0.0.1:7337): "
        "der Port muss eine Zahl von 1 bis 65535 sein\n"
    )
    status, _out, err = _run(["--lang", "de", "arena", "--seats", "greedy,wizard"], capsys)
    assert status == 2
    assert err.startswith("paris-tui arena: unbekannte KI-Stufe 'wizard' (zur Wahl: random, ")
    status, _out, err = _run(["--lang", "zh-TW", "host", "--port", "x"], capsys)
    assert (status, err) == (2, "paris-tui host: --port 必須是整數，而不是 'x'\n")


COMMANDS = ["play", "resume", "replay", "stats", "bench", "arena", "review", "host", "join"]


@pytest.mark.parametrize("lang", ["en", "de", "zh-TW"])
def test_every_help_fits_80_cells(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", "80")
    for command in [None, *COMMANDS]:
        argv = ["--lang", lang, *([command] if command else []), "--help"]
        status, out, _err = _run(argv, capsys)
        assert status == 0
        wide = [line for line in out.splitlines() if cell_len(line) > 80]
        assert wide == [], (command, wide)
    if lang == "zh-TW":  # the usage's later lines line up under the first's arguments
        _status, out, _err = _run(["--lang", lang, "join", "--help"], capsys)
        first, second = out.splitlines()[:2]
        assert first.startswith("用法：paris-tui join [")
        assert cell_len(second) - len(second.lstrip()) == cell_len("用法：paris-tui join ")


def test_english_help_is_argparse_own(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cell-wrapping formatter leaves English exactly as argparse writes it."""
    monkeypatch.setenv("COLUMNS", "80")
    for command in [None, *COMMANDS]:
        argv = [*([command] if command else []), "--help"]
        _status, ours, _err = _run(argv, capsys)
        parser = build_parser()
        for each in (parser, *parser._subparsers._group_actions[0].choices.values()):  # type: ignore[union-attr]
            each.formatter_class = argparse.HelpFormatter
        with pytest.raises(SystemExit):
            parser.parse_args(argv)
        plain, _err = capsys.readouterr()
        assert ours == plain


def test_wrap_cells() -> None:
    from paris_tui.argparse_words import wrap_cells

    # 10 cells: five characters; a closing mark stays with the character before it.
    assert wrap_cells("連線到主機，在這個終端機上坐你的座位。", 10) == [
        "連線到主",
        "機，在這個",
        "終端機上坐",
        "你的座位。",
    ]
    assert wrap_cells("ab cd  ef", 5) == ["ab cd", "ef"]
    assert wrap_cells("abcdefgh", 3) == ["abc", "def", "gh"]
    assert wrap_cells("用 --lang de 看", 9) == ["用 --lang", "de 看"]


def test_too_few_or_many_players_reads_as_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18.14: `Paris Paris is for 2 to 4 players, --players names 1`."""
    status, _out, err = _run(["play", "--players", "Ann"], capsys)
    assert (status, err) == (2, "paris-tui: --players names 1 player: Paris Paris is for 2 to 4\n")
    status, _out, err = _run(["play", "--players", "A,B,C,D,E"], capsys)
    assert err == "paris-tui: --players names 5 players: Paris Paris is for 2 to 4\n"
    status, _out, err = _run(["--lang", "de", "play", "--players", "Ann"], capsys)
    assert err == "paris-tui: --players nennt 1 Spieler: Paris Paris ist für 2 bis 4\n"
