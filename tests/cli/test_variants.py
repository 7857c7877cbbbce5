"""The rule variants' options (R5, R7): one declaration for play, host and arena, one check."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from paris_tui.cli import build_parser, main
from paris_tui.core import Options
from paris_tui.variants import VariantError, variant_options

COMMANDS = ("play", "host", "arena")
# What each command needs besides the variants to get as far as checking them.
NEEDS = {
    "play": ["--players", "Ann,Bob"],
    "host": [],
    "arena": ["--seats", "random,random", "--games", "1", "--json"],
}
PREFIX = {"play": "paris-tui: ", "host": "paris-tui host: ", "arena": "paris-tui arena: "}


def _command_parser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: argparse.ArgumentParser = sub.choices[command]
    return found


def _declared(command: str) -> list[tuple[object, ...]]:
    parser = _command_parser(command)
    return [
        (a.option_strings, a.dest, a.default, a.metavar, a.help, a.choices, a.type)
        for a in parser._actions
        if set(a.option_strings) & {"--small-tour", "--final-tours"}
    ]


def test_the_three_commands_declare_the_variants_alike() -> None:
    """R5, R7: the same options, defaults (the rulebook's), help and check everywhere."""
    play = _declared("play")
    assert [entry[0] for entry in play] == [["--small-tour"], ["--final-tours"]]
    assert [entry[2] for entry in play] == [Options().small_tour, Options().final_tours]
    assert all(entry[4] for entry in play)  # each has a help line
    for command in ("host", "arena"):
        assert _declared(command) == play, command


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("variants", "options"),
    [
        ([], Options()),
        (["--small-tour", "tile-line"], Options(small_tour="tile-line")),
        (["--final-tours", "all-lines"], Options(final_tours="all-lines")),
        (
            ["--final-tours", "all-lines", "--small-tour", "tile-line"],
            Options(small_tour="tile-line", final_tours="all-lines"),
        ),
    ],
)
def test_each_command_turns_the_modes_into_the_cores_options(
    command: str, variants: list[str], options: Options
) -> None:
    args = build_parser().parse_args([command, *NEEDS[command], *variants])
    assert variant_options(args) == options


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("variants", "message"),
    [
        (["--small-tour", "none"], "--small-tour must be both-lines or tile-line, not 'none'"),
        (["--final-tours", "all"], "--final-tours must be secret or all-lines, not 'all'"),
        (["--small-tour", "tile-line", "--final-tours", ""], "--final-tours must be"),
        (["--small-tour", "\x1b]2;pwned\x07\u202e"], r"not '\x1b]2;pwned\x07\u202e'"),
        (["--small-tour", "x" * 500], "not '" + "x" * 40 + "...'"),
    ],
)
def test_a_bad_mode_is_one_line_and_exit_2_in_each_command(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: str,
    variants: list[str],
    message: str,
) -> None:
    extra = ["--data-dir", str(tmp_path / "data")] if command == "host" else []
    status = main([command, *NEEDS[command], *extra, *variants])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(PREFIX[command]), err
    assert message in err
    assert "\x1b" not in err and "\u202e" not in err and len(err) < 120
    assert not (tmp_path / "data").exists()  # refused before anything was made


def test_the_check_names_the_first_bad_option() -> None:
    args = argparse.Namespace(small_tour="both", final_tours="every")
    with pytest.raises(VariantError, match=r"^--small-tour must be"):
        variant_options(args)
    args.small_tour = "both-lines"
    with pytest.raises(VariantError, match=r"^--final-tours must be"):
        variant_options(args)
