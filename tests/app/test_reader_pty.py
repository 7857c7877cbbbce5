"""Play by ear (issue 20): whole games on a pty by typed commands only, checked byte by byte.

Hot-seat with three players and their hand-offs (German), one player against the strong AI
(Chinese), and a seat at a host's table over ``join`` beside a full-screen player (English).
Each transcript is plain lines only (:func:`ear.check_plain`), its final scores are the
record's (``replay --json``), no seat's route is read out to anyone else before the end
(R8), and a query is answered in one to a few lines.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from paris_tui import i18n
from paris_tui.app.describe import line_name
from paris_tui.core import classic_board
from paris_tui.core.record import load_record, replay

from .ear import Ear, check_plain, final_scores, fragment, replay_json, squash, words
from .pty_app import Key, PtyApp
from .test_join_pty import start_host

WIDTH = 80


def _env(tmp_path: Path, lang: str) -> dict[str, str]:
    return {"PARIS_TUI_DATA_DIR": str(tmp_path / "data"), "PARIS_TUI_LANG": lang}


def _save(tmp_path: Path) -> str:
    saves = sorted((tmp_path / "data" / "saves").glob("*.json"))
    assert len(saves) == 1, saves
    return str(saves[0])


def _route_lines(lines: list[str], lang: str, name: str) -> list[int]:
    """Where ``name``'s own secret route was read out (line numbers)."""
    mark = squash(words(lang, "Your secret route, {player}: the {line}.").split("{")[0] + name)
    return [i for i, line in enumerate(lines) if mark in squash(line)]


def test_hot_seat_three_players_by_ear_in_german(tmp_path: Path) -> None:
    names = ["Ann", "Bob", "Cy"]
    app = PtyApp(
        ["play", "--players", ",".join(names), "--seed", "5", "--screen-reader"],
        _env(tmp_path, "de"),
        size=(WIDTH, 24),
    )
    try:
        ear = Ear(app, "de", queries=["punkte", "sack", "board"])
        assert ear.play() == 0
    finally:
        app.kill()
    lines = check_plain(bytes(app.output), WIDTH)
    summary = replay_json(_save(tmp_path))
    final = summary["final"]
    assert isinstance(final, dict)
    assert final_scores(lines, "de", names) == final["scores"]
    assert ear.moves == 45
    # Each route is read only after its own player's hand-off, never before the end to another.
    handoff = fragment("de", "Pass to {player}. {player}, press Enter when only you are listening.")
    for name in names:
        told = _route_lines(lines, "de", name)
        assert told, name
        for at in told:
            before = [i for i in range(at) if handoff in squash(lines[i])]
            assert before and squash(name) in squash(lines[before[-1]]), lines[at]
    assert 1 <= len(ear.answers["punkte"]) <= 3, ear.answers
    assert 1 <= len(ear.answers["sack"]) <= 2, ear.answers
    assert 5 <= len(ear.answers["board"]) <= 12, ear.answers  # one line per bus line, wrapped


def test_against_the_strong_ai_by_ear_in_chinese(tmp_path: Path) -> None:
    app = PtyApp(
        ["play", "--players", "Ann,ai:strong", "--seed", "2", "--screen-reader"],
        _env(tmp_path, "zh-TW"),
        size=(WIDTH, 24),
    )
    try:
        ear = Ear(app, "zh-TW", queries=["route", "tiles", "stop opera", "scores"])
        assert ear.play(timeout=240) == 0
    finally:
        app.kill()
    lines = check_plain(bytes(app.output), WIDTH)
    record = load_record(Path(_save(tmp_path)))
    ai_name = record.players[1].name
    summary = replay_json(_save(tmp_path))
    final = summary["final"]
    assert isinstance(final, dict)
    assert final_scores(lines, "zh-TW", ["Ann", ai_name]) == final["scores"]
    # The AI's route is never read out before the game end (R8): only the reveal names it.
    end = max(i for i, line in enumerate(lines) if squash(words("zh-TW", "The game is over.")) in squash(line))
    ai_route = replay(record).route(1)

    i18n.set_language("zh-TW")
    try:
        route_name = squash(line_name(classic_board(), ai_route))
        routes_words = squash(words("zh-TW", "The routes were: {routes}.").split("{")[0])
    finally:
        i18n.set_language("en")
    assert not _route_lines(lines[:end], "zh-TW", ai_name)
    assert not any(routes_words in squash(line) for line in lines[:end])
    assert any(routes_words in squash(line) and route_name in squash(line) for line in lines[end:])
    assert 1 <= len(ear.answers["route"]) <= 2, ear.answers
    assert 1 <= len(ear.answers["scores"]) <= 3, ear.answers
    assert 2 <= len(ear.answers["tiles"]) <= 6, ear.answers
    assert 1 <= len(ear.answers["stop opera"]) <= 4, ear.answers

