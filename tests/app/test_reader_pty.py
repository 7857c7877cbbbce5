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
from paris_tui.app.look.describe import line_name, shown_name
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
    template = words(lang, "Your secret route, {player}: the {line}.")
    mark = squash(template.split("{line}")[0].replace("{player}", name))
    return [i for i, line in enumerate(lines) if mark in squash(line)]


def test_hot_seat_three_players_by_ear_in_german(tmp_path: Path) -> None:
    names = ["Ann", "Bob", "Cy"]
    app = PtyApp(
        ["play", "--players", ",".join(names), "--seed", "5", "--screen-reader"],
        _env(tmp_path, "de"),
        size=(WIDTH, 24),
    )
    try:
        ear = Ear(app, "de", queries=["punkte", "sack", "board"], held_enter=True)
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
    # The held Enter at the first hand-off did not pass it: one line said so, and only the
    # deliberate Enter after it began Bob's turn.
    too_soon = squash(words("de", "Too soon: wait a moment, then press Enter."))
    said = [i for i, line in enumerate(lines) if too_soon in squash(line)]
    first_handoff = next(i for i, line in enumerate(lines) if handoff in squash(line))
    assert len(said) == 1 and said[0] > first_handoff
    second_name = names[1]
    assert _route_lines(lines, "de", second_name)[0] > said[0]
    assert 1 <= len(ear.answers["punkte"]) <= 3, ear.answers
    assert 1 <= len(ear.answers["sack"]) <= 2, ear.answers
    # One line per bus line, wrapped at spaces only (never inside a stop's name).
    assert 5 <= len(ear.answers["board"]) <= 15, ear.answers


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
    i18n.set_language("zh-TW")
    try:
        ai_name = shown_name(record.players[1].name)  # an AI seat in the player's language
    finally:
        i18n.set_language("en")
    summary = replay_json(_save(tmp_path))
    final = summary["final"]
    assert isinstance(final, dict)
    assert final_scores(lines, "zh-TW", ["Ann", ai_name]) == final["scores"]
    # The AI's route is never read out before the game end (R8): only the reveal names it.
    end = max(
        i
        for i, line in enumerate(lines)
        if squash(words("zh-TW", "The game is over.")) in squash(line)
    )
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


def test_join_a_host_table_by_ear_beside_a_full_screen_player(tmp_path: Path) -> None:
    host, port = start_host(tmp_path / "host", "ann,bob")
    record_path = tmp_path / "host" / "host" / "tables" / "t1.json"
    address = f"127.0.0.1:{port}"
    try:
        bob = PtyApp(
            ["join", address, "--name", "bob", "--data-dir", str(tmp_path / "bob")],
            {"PARIS_TUI_DATA_DIR": str(tmp_path / "bob"), "PARIS_TUI_LANG": "en"},
            size=(100, 30),
        )
        ann = PtyApp(
            ["join", address, "--name", "ann", "--data-dir", str(tmp_path / "ann")],
            {
                "PARIS_TUI_DATA_DIR": str(tmp_path / "ann"),
                "PARIS_TUI_LANG": "en",
                "PARIS_TUI_SCREEN_READER": "1",
            },
            size=(WIDTH, 24),
        )
        game_over = [False]
        state = {"checked": 0.0, "pressed": 0.0, "skipped": 0.0, "bob": False}

        def bob_plays() -> None:
            """Bob presses Enter (take the tile, or the takeover's first choice) on his turns."""
            bob._read(0)
            clock = time.monotonic()
            if clock - state["checked"] > 0.1:
                state["checked"] = clock
                try:
                    game = replay(load_record(record_path))
                except (OSError, ValueError, Exception):
                    return
                state["bob"] = not game.is_over and game.to_move == 1
                game_over[0] = game.is_over
            touring = "Space skips" in bob.display()  # a tour is being shown
            if game_over[0]:
                return
            if touring or not state["bob"]:
                if clock - state["skipped"] > 0.3:
                    state["skipped"] = clock
                    bob.send(b" ")  # Space skips the tour shown (as a hurried player does)
            # A deliberate Enter: a quiet moment after any key, no repeat within 0.8 s.
            elif clock - max(state["pressed"] + 0.5, state["skipped"]) > 0.5:
                state["pressed"] = clock
                bob.send(Key.ENTER)

        try:
            ear = Ear(ann, "en", queries=["route", "last", "line blue", "hint"], idle=bob_plays)
            assert ear.play(timeout=240) == 0
            for _ in range(5):  # the end screen takes a deliberate key: a quiet moment first
                bob.settle(quiet=0.6, timeout=3)
                bob.send(b"q")
                bob.settle(quiet=0.3, timeout=2)
                if bob.proc.poll() is not None:
                    break
            assert bob.finish(timeout=20) == 0
        finally:
            ann.kill()
            bob.kill()
    finally:
        os.killpg(host.pid, signal.SIGTERM)
        host.wait(20)
    lines = check_plain(bytes(ann.output), WIDTH)
    summary = replay_json(str(record_path))
    final = summary["final"]
    assert isinstance(final, dict)
    assert final_scores(lines, "en", ["ann", "bob"]) == final["scores"]
    assert ear.moves == 20
    # Bob's route is never read out to Ann before the end (R8).
    assert not _route_lines(lines, "en", "bob")
    end = max(i for i, line in enumerate(lines) if "The game is over." in line)
    assert not any("The routes were" in line for line in lines[:end])
    assert any("Waiting for bob to choose a tile." in line for line in lines)
    # Own route and the public one (an announcement may come in between, "bob is back.",
    # and then the turn's question again).
    route = [
        line
        for line in ear.answers["route"]
        if not line.endswith(("is back.", "is away.")) and ear.turn not in squash(line)
    ]
    assert len(route) == 2, ear.answers
    assert ear.answers["hint"] == ["This host does not allow hints."]
    assert 1 <= len(ear.answers["line blue"]) <= 3, ear.answers
    assert 1 <= len(ear.answers["last"]) <= 10, ear.answers


def _wait_text(app: PtyApp, *texts: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        text = app.output.decode("utf-8", "replace")
        if all(squash(t) in squash(text) for t in texts):
            return text
        assert time.monotonic() < deadline and app.proc.poll() is None, (texts, text[-2000:])
        app._read(0.05)


def test_no_command_offers_a_new_game_then_resume_by_ear(tmp_path: Path) -> None:
    env = _env(tmp_path, "en")
    app = PtyApp(["--screen-reader"], env, size=(WIDTH, 24))
    try:
        _wait_text(app, "A new game. Type the players separated by commas")
        app.send(b"Ann, ai:random\r")
        _wait_text(app, "Your turn, Ann")
        app.send(b"1\r")
        _wait_text(app, "Ann took")
        app.send(b"quit\r")
        _wait_text(app, "The game is saved. Resume it with: paris-tui resume --screen-reader")
        assert app.finish() == 0
    finally:
        app.kill()
    check_plain(bytes(app.output), WIDTH)
    app = PtyApp(["--screen-reader"], env, size=(WIDTH, 24))
    try:
        _wait_text(app, "1: resume the game of Ann, Random AI", "2: a new game. 3: quit.")
        app.send(b"1\r")
        _wait_text(app, "Resumed after ", "Your turn, Ann")
        app.send(b"scores\r")
        _wait_text(app, "Scores: Ann")
        app.send(b"quit\r")
        assert app.finish() == 0
    finally:
        app.kill()
    check_plain(bytes(app.output), WIDTH)
    app = PtyApp(["resume", "--screen-reader"], env, size=(WIDTH, 24))
    try:
        _wait_text(app, "Resumed after ", "Your turn, Ann")
        app.send(b"quit\r")
        assert app.finish() == 0
    finally:
        app.kill()


def test_the_lobby_by_ear_lists_tables_as_numbered_lines(tmp_path: Path) -> None:
    host, port = start_host(tmp_path / "host", "ann,ai:random")
    try:
        app = PtyApp(
            ["join", f"127.0.0.1:{port}", "--screen-reader", "--data-dir", str(tmp_path / "c")],
            {"PARIS_TUI_DATA_DIR": str(tmp_path / "c"), "PARIS_TUI_LANG": "en"},
            size=(WIDTH, 24),
        )
        try:
            _wait_text(app, "1: table t1, ann, Random AI, move 0 of 40.")
            app.send(b"1\r")
            _wait_text(app, "Your name at this table?")
            app.send(b"ann\r")
            _wait_text(app, "Paris Paris, by ear.", "Your turn, ann")
            app.send(b"quit\r")  # the table: back to the lobby, whose quit ends
            _wait_text(app, "You left the table for the host's lobby", "The host's lobby.")
            app.send(b"quit\r")
            assert app.finish() == 0
        finally:
            app.kill()
        check_plain(bytes(app.output), WIDTH)
        # A table of one's own: "new", a name, the other seats.
        app = PtyApp(
            ["join", f"127.0.0.1:{port}", "--screen-reader", "--data-dir", str(tmp_path / "d")],
            {"PARIS_TUI_DATA_DIR": str(tmp_path / "d"), "PARIS_TUI_LANG": "en"},
            size=(WIDTH, 24),
        )
        try:
            _wait_text(app, "new opens a table of your own.")
            app.send(b"new\r")
            _wait_text(app, "Your name at this table?")
            app.send(b"cy\r")
            _wait_text(app, "The other seats, separated by commas")
            app.send(b"ai:random\r")
            _wait_text(app, "Paris Paris, by ear. Players: cy and Random AI.", "Your turn, cy")
            app.send(b"quit\r")
            _wait_text(app, "The host's lobby.")
            app.send(b"quit\r")
            assert app.finish() == 0
        finally:
            app.kill()
    finally:
        os.killpg(host.pid, signal.SIGTERM)
        host.wait(20)
    check_plain(bytes(app.output), WIDTH)
