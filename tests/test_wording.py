"""Codes from the core and the host, words in the player's language (paris_tui/wording.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostile_corpus import REFUSED

from paris_tui import i18n
from paris_tui.core import InvalidNameError, RecordError, check_table_names, normalize_name
from paris_tui.core.record import load_record, parse_record
from paris_tui.net.protocol import ERROR_CODES
from paris_tui.wording import (
    _REFUSALS,
    in_language,
    language_of,
    language_of_accept,
    name_problem,
    record_problem,
    refusal_reason,
)


def _refused(text: str) -> InvalidNameError:
    with pytest.raises(InvalidNameError) as caught:
        normalize_name(text)
    return caught.value


@pytest.mark.parametrize("case", REFUSED, ids=[c.label for c in REFUSED])
def test_every_refused_name_is_worded_in_each_language(case: object) -> None:
    exc = _refused(case.text)  # type: ignore[attr-defined]
    # English: the app's words are the core's own (one wording of the rule everywhere).
    assert name_problem(exc) == exc.problem
    for tag in ("de", "zh-TW"):
        with in_language(tag):
            words = name_problem(exc)
        assert words != exc.problem and "{" not in words
        if exc.code == "control":
            assert str(exc.params["char"]) in words  # the code point, never the character


def test_name_codes_carry_their_numbers() -> None:
    exc = _refused("王" * 11)
    assert (exc.code, exc.params) == ("too_wide", {"cells": 22, "limit": 20})
    with in_language("de"):
        assert name_problem(exc) == (
            "der Name ist zu lang (22 Zellen breit; höchstens 20, breite Zeichen zählen doppelt)"
        )
    with in_language("zh-TW"):
        assert name_problem(exc) == "名字太長（寬 22 格；最多 20 格，全形字算兩格）"
    exc = _refused("Ann\u202e")
    assert exc.params == {"kind": "Cf", "char": "U+202E", "label": "RIGHT-TO-LEFT OVERRIDE"}
    with pytest.raises(InvalidNameError) as caught:
        check_table_names(["Ann", "Bob", "ann"])
    dup = caught.value
    assert (dup.code, dup.seat, dup.params) == ("duplicate", 2, {"name": "ann", "first": "Ann"})
    assert str(dup) == f"seat 3: {dup.problem}"
    with in_language("de"):
        assert name_problem(dup, with_seat=True) == (
            "Platz 3: zwei Plätze heißen Ann und ann: Namen müssen sich in mehr als der "
            "Groß- und Kleinschreibung unterscheiden"
        )


def test_record_problems_worded_from_codes(tmp_path: Path) -> None:
    cases: list[RecordError] = []
    for make in (
        lambda: load_record(tmp_path),  # a directory
        lambda: load_record(tmp_path / "missing.json"),
        lambda: (
            (tmp_path / "bin.json").write_bytes(b"\xff\xfe{") and load_record(tmp_path / "bin.json")
        ),
        lambda: (tmp_path / "bad.json").write_text("{") and load_record(tmp_path / "bad.json"),
        lambda: parse_record({"format": "nope"}),
    ):
        with pytest.raises(RecordError) as caught:
            make()
        cases.append(caught.value)
    codes = [exc.code for exc in cases]
    assert codes == ["directory", "unreadable", "not_utf8", "not_json", "invalid"]
    for exc in cases:
        assert record_problem(exc) == str(exc)  # English: the core's words, as before
    with in_language("de"):
        assert record_problem(cases[0]) == f"file: {tmp_path} ist ein Verzeichnis"
        assert record_problem(cases[2]).startswith("file: kein UTF-8-Text (")
    with in_language("zh-TW"):
        assert record_problem(cases[3]).startswith("file：不是有效的 JSON：")


def test_a_name_in_a_record_is_worded_by_the_name_rule() -> None:
    from paris_tui.core import Game
    from paris_tui.core.record import Record

    record = Record.from_game(Game.new(["Ann", "Bob"], seed=1)).to_json_dict()
    record["players"][1]["name"] = "Ann\x1b[2J"
    with pytest.raises(RecordError) as caught:
        parse_record(record)
    exc = caught.value
    assert exc.code == "bad_name" and exc.where == "players[1].name"
    assert record_problem(exc) == str(exc)
    with in_language("de"):
        assert record_problem(exc) == (
            "players[1].name: der Name enthält ein Steuerzeichen (U+001B)"
        )


def test_every_refusal_code_has_words() -> None:
    assert set(_REFUSALS) == set(ERROR_CODES)
    assert refusal_reason("seat_taken", "the seat of ann is claimed") == (
        "the seat of ann is claimed"  # English: the host's own, more precise words
    )
    for tag in ("de", "zh-TW"):
        with in_language(tag):
            for code in ERROR_CODES:
                words = refusal_reason(code, "HOST PROSE")
                assert words != "HOST PROSE" and words == i18n._(_REFUSALS[code])
    with in_language("de"):
        assert refusal_reason("not_your_turn", "it is ann's turn") == "du bist nicht am Zug"


def test_in_language_restores_the_language() -> None:
    i18n.set_language("de")
    with in_language("zh-TW"):
        assert i18n.current_language() == "zh-TW"
    assert i18n.current_language() == "de"
    with pytest.raises(RuntimeError), in_language("en"):
        raise RuntimeError
    assert i18n.current_language() == "de"


@pytest.mark.parametrize(
    ("environ", "tag"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "zh_TW.UTF-8"}, "zh-TW"),
        ({"LANG": "de_DE.UTF-8", "PARIS_TUI_LANG": "zh-TW"}, "zh-TW"),
        ({"PARIS_TUI_LANG": "klingon", "LANG": "fr_FR.UTF-8"}, "en"),
    ],
)
def test_language_of_a_session(environ: dict[str, str], tag: str) -> None:
    assert language_of(environ) == tag


@pytest.mark.parametrize(
    ("header", "tag"),
    [
        ("", "en"),
        ("de-CH,de;q=0.9,en;q=0.8", "de"),
        ("zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7", "zh-TW"),
        ("fr-FR,fr;q=0.9,de;q=0.5,en;q=0.4", "de"),
        ("en;q=0.3,zh-Hant;q=0.8", "zh-TW"),
        ("zh-CN,zh;q=0.9", "en"),
        ("de;q=0,en", "en"),
        ("de;q=abc,zh-TW;q=0.1", "zh-TW"),
        ("*", "en"),
    ],
)
def test_language_of_a_browser(header: str, tag: str) -> None:
    assert language_of_accept(header) == tag


def test_an_illegal_move_is_worded_from_its_code() -> None:
    host = "'x' is not face up this round (face up: a, b)"
    assert refusal_reason("illegal", host, "not_face_up") == host
    with in_language("de"):
        assert refusal_reason("illegal", host, "not_face_up") == (
            "dieses Plättchen liegt in dieser Runde nicht offen"
        )
        assert refusal_reason("illegal", host) == "dieser Zug ist nicht erlaubt"
    with in_language("zh-TW"):
        assert (
            refusal_reason("illegal", host, "must_remove") == "這個巴士站已滿：選擇要移除誰的商店"
        )


def _invalid_templates() -> set[str]:
    """The English template of every ``invalid(where, template, ...)`` in the package."""
    import ast

    root = Path(__file__).resolve().parent.parent / "paris_tui"
    found: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "invalid":
                template = node.args[1]
                if isinstance(template, ast.Name):  # a module constant (app/local/session.py)
                    continue
                assert isinstance(template, ast.Constant), f"{path}:{node.lineno}"
                found.add(template.value)
    return found


def test_every_record_detail_is_worded() -> None:
    """Issue 23: a record's field problem was `where: <English detail>` in every language."""
    from paris_tui.wording import _RECORD_DETAILS

    templates = _invalid_templates()
    assert len(templates) > 30
    assert templates <= _RECORD_DETAILS, sorted(templates - _RECORD_DETAILS)


@pytest.mark.parametrize(
    ("edit", "english", "german"),
    [
        (lambda d: d.pop("board"), "board: missing", "board: fehlt"),
        (
            lambda d: d.update(players="x"),
            "players: must be a list, found a string",
            "players: muss eine Liste sein, gefunden: eine Zeichenkette",
        ),
        (
            lambda d: d["moves"].append({"tile": "Nowhere"}),
            "moves[0].tile: 'Nowhere' is not a tile of this board",
            "moves[0].tile: 'Nowhere' ist kein Plättchen dieses Spielplans",
        ),
    ],
)
def test_a_record_field_problem_in_each_language(edit: object, english: str, german: str) -> None:
    """Issue 18.14: a missing field read `board: must be a string, found null`."""

    from paris_tui.core import Game
    from paris_tui.core.record import Record

    data = Record.from_game(Game.new(("Ann", "Bob"), seed=5)).to_json_dict()
    edit(data)  # type: ignore[operator]
    with pytest.raises(RecordError) as caught:
        parse_record(data)
    assert record_problem(caught.value) == english
    with in_language("de"):
        assert record_problem(caught.value) == german
    with in_language("zh-TW"):
        words = record_problem(caught.value)
    assert not re.search(r"\b(must|found|missing|is not)\b", words), words


def test_the_json_decoders_words_are_translated() -> None:
    """Issue 23: `file: not valid JSON: Expecting value (line 1, column 2)` kept Python's
    English inside a German or Chinese line."""
    from paris_tui.core.record import read_record_text
    from paris_tui.wording import _JSON_ERRORS

    with pytest.raises(RecordError) as caught:
        read_record_text("{")
    english = record_problem(caught.value)
    assert english == str(caught.value)
    with in_language("de"):
        german = record_problem(caught.value)
    assert german.startswith("file: kein gültiges JSON: ") and "(Zeile 1, Spalte 2)" in german
    assert "Expecting" not in german and "line" not in german
    for text in ("[1,", '{"a" 1}', "{} x", '"\\x"'):
        with pytest.raises(RecordError) as caught:
            read_record_text(text)
        assert caught.value.params["message"] in _JSON_ERRORS, caught.value.params
