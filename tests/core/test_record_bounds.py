"""Records apply the one rule for names and bound what they carry (issue 7, items 6, 10, 11).

A record is outside text: every name goes through the core rule (refused at
``players[i].name``, or kept normalised), extra keys are bounded in depth and
size so a record that loads can always be saved again, and only regular files
are read (a FIFO with no writer must not hang the reader).
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import REFUSED, SHOWN, Case

from paris_tui.core import Game, RecordError
from paris_tui.core.record import (
    MAX_EXTRA_BYTES,
    MAX_EXTRA_DEPTH,
    Record,
    dumps_record,
    load_record,
    parse_record,
    save_record,
)

from .helpers import play_random


def _record(names: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    game = Game.new(3, seed=1)
    play_random(game, random.Random(1), 7)
    data: dict[str, Any] = json.loads(dumps_record(Record.from_game(game)))
    if names is not None:
        for player, name in zip(data["players"], names, strict=True):
            player["name"] = name
    data.update(extra)
    return data


def _refused(data: Any, where: str, *words: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        parse_record(data)
    assert caught.value.where == where, str(caught.value)
    for word in words:
        assert word in caught.value.problem
    return caught.value


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth - 1):
        value = [value]
    return value


# --- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", REFUSED, ids=[c.label for c in REFUSED])
def test_every_refused_name_is_refused_at_its_seat(case: Case) -> None:
    err = _refused(_record(["Ann", case.text, "Cy"]), "players[1].name", "the name")
    assert not any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in str(err))
    assert len(str(err)) < 150


@pytest.mark.parametrize("case", SHOWN, ids=[c.label for c in SHOWN])
def test_every_accepted_name_is_kept_normalised(case: Case) -> None:
    record = parse_record(_record(["Seat one", "Seat two", case.text]))
    assert record.players[2].name == case.shown
    again = parse_record(json.loads(dumps_record(record)))
    assert again == record


@pytest.mark.parametrize(
    ("names", "seat"),
    [(["Ann", "Ann", "Cy"], 1), (["Ann", "Bob", "ANN"], 2), (["Ann", "Bob", " Bob "], 2)],
)
def test_duplicate_names_are_refused(names: list[str], seat: int) -> None:
    _refused(_record(names), f"players[{seat}].name", "two seats are called")


def test_a_name_that_is_not_a_string_is_still_a_type_error() -> None:
    _refused(_record(["Ann", 7, "Cy"]), "players[1].name", "must be a string")  # type: ignore[list-item]


@pytest.mark.parametrize(
    "kind", ["ai:", "ai:\x1b]2;pwned\x07", "ai:" + "x" * 33, "ai:a b", "AI:greedy", "human "]
)
def test_a_kind_is_human_or_ai_and_a_short_word(kind: str) -> None:
    data = _record()
    data["players"][1]["kind"] = kind
    err = _refused(data, "players[1].kind", 'must be "human" or "ai:<level>"')
    assert "\x1b" not in str(err)


def test_an_ai_kind_with_any_short_level_is_a_valid_record() -> None:
    """Which levels exist is the app's business (it refuses ai:bogus when it resumes)."""
    data = _record()
    data["players"][1]["kind"] = "ai:bogus"
    assert parse_record(data).players[1].ai_level == "bogus"


# --- extra keys --------------------------------------------------------------------------------


def test_extra_keys_nested_as_deep_as_allowed_load_and_save(tmp_path: Path) -> None:
    record = parse_record(_record(notes=_nested(MAX_EXTRA_DEPTH)))
    save_record(record, tmp_path / "ok.json")
    assert load_record(tmp_path / "ok.json") == record


@pytest.mark.parametrize("depth", [MAX_EXTRA_DEPTH + 1, 980])
def test_extra_keys_nested_too_deep_are_refused(depth: int) -> None:
    """Issue 7 item 6: nested ~980 deep, the record loaded and the first autosave
    raised RecursionError; now loading refuses it, naming the key."""
    _refused(_record(notes=_nested(depth)), "notes", "nested deeper than")
    deep_dict: Any = {}
    for _ in range(depth):
        deep_dict = {"k": deep_dict}
    _refused(_record(meta=deep_dict), "meta", "nested deeper than")


def test_a_deeply_nested_file_is_refused_by_load_record(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    deep = "[" * 199 + '"leaf"' + "]" * 199  # written by hand: json.dumps would recurse
    path.write_text(json.dumps(_record()).rstrip("}") + f', "notes": {deep}}}', encoding="utf-8")
    with pytest.raises(RecordError, match="notes: nested deeper than"):
        load_record(path)


def test_saving_a_record_with_too_deep_extras_raises_a_record_error_not_recursion(
    tmp_path: Path,
) -> None:
    record = Record.from_game(Game.new(2, seed=1), extra={"notes": _nested(5000)})
    with pytest.raises(RecordError, match="notes"):
        save_record(record, tmp_path / "never.json")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(RecordError):
        dumps_record(record)


def test_extra_keys_too_large_are_refused() -> None:
    _refused(_record(notes="x" * (MAX_EXTRA_BYTES + 1)), "record", "extra keys", "bytes")
    parse_record(_record(notes="x" * (MAX_EXTRA_BYTES // 2)))
    many = {f"k{i}": "x" * 1000 for i in range(MAX_EXTRA_BYTES // 1000 + 1)}
    _refused(_record(**many), "record", "extra keys")


def test_non_finite_numbers_in_extra_keys_are_refused() -> None:
    """1e400 parses as infinity, which json.dumps would write back as non-JSON Infinity."""
    data = json.dumps(_record()).rstrip("}") + ', "notes": [1e400]}'
    with pytest.raises(RecordError) as caught:
        parse_record(json.loads(data))
    assert caught.value.where == "notes" and "finite" in caught.value.problem
    record = Record.from_game(Game.new(2, seed=1), extra={"x": math.nan})
    with pytest.raises(RecordError):
        dumps_record(record)


def test_extra_keys_of_ordinary_shapes_round_trip(tmp_path: Path) -> None:
    extra = {"app": {"seed": 5, "ai_seeds": [None, 7]}, "saved_at": "today", "n": [1, 2.5, True]}
    record = parse_record(_record(**extra))
    assert dict(record.extra) == extra
    save_record(record, tmp_path / "x.json")
    assert load_record(tmp_path / "x.json") == record


# --- only regular files ----------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_load_record_refuses_a_fifo_with_no_writer_at_once(tmp_path: Path) -> None:
    """Issue 7 item 10: ``replay`` on a FIFO with no writer hung. Run in a child process
    with a timeout, so a regression fails instead of hanging the suite."""
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    code = (
        "import sys\n"
        "from paris_tui.core.record import load_record\n"
        "from paris_tui.core import RecordError\n"
        "try:\n"
        "    load_record(sys.argv[1])\n"
        "except RecordError as exc:\n"
        "    print(exc)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not a regular file" in proc.stdout


def test_load_record_refuses_a_directory_and_a_device(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="is a directory"):
        load_record(tmp_path)
    if Path("/dev/zero").exists():
        with pytest.raises(RecordError, match="not a regular file"):
            load_record("/dev/zero")


def test_file_names_in_load_errors_are_escaped(tmp_path: Path) -> None:
    missing = tmp_path / "a\x1b]2;pwned\x07.json"
    with pytest.raises(RecordError) as caught:
        load_record(missing)
    message = str(caught.value)
    assert "\x1b" not in message and "\x07" not in message
    assert "\\x1b]2;pwned\\x07.json" in message
