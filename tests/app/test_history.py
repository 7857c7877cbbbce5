"""The history database: every finished game once, survivable, never fatal (issue 11)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paris_tui.app.local import history as history_module
from paris_tui.app.local.history import SCHEMA_VERSION, History, HistoryError
from paris_tui.core import Game
from paris_tui.core.record import Player, Record


def finished(names: list[str], seed: int, kinds: list[str] | None = None) -> Record:
    game = Game.new(names, seed=seed)
    while not game.is_over:
        moves = game.legal_moves()
        game.play(moves[(seed + len(game.view(None).moves)) % len(moves)])
    players = tuple(
        Player(n, k) for n, k in zip(names, kinds or ["human"] * len(names), strict=True)
    )
    return Record.from_game(game, players)


def test_a_game_is_kept_with_its_numbers(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    record = finished(["Ann", "Bob", "Cy"], 3, ["human", "human", "ai:greedy"])
    assert history.add_record(record, mode="ai", local_seats=(0, 1))
    stats = history.stats()
    assert stats["games"] == 1
    game = Game.from_setup(record.setup, ("Ann", "Bob", "Cy"))
    for move in record.moves:
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    by_name = {p["name"]: p for p in stats["players"]}
    assert set(by_name) == {"Ann", "Bob"}  # the AI seat was not played here
    for seat, name in enumerate(("Ann", "Bob")):
        entry = by_name[name]
        assert entry["games"] == 1
        assert entry["wins"] == int(seat in outcome.winners)
        assert entry["mean_score"] == outcome.scores[seat]
        assert sum(entry["mean_by_source"].values()) == outcome.scores[seat]
    assert stats["ai_levels"][0]["level"] == "greedy"
    assert stats["ai_levels"][0]["mean_score"] == outcome.scores[2]
    mine = (outcome.scores[0] + outcome.scores[1]) / 2
    assert stats["vs_ai"] == [
        {
            "level": "greedy",
            "games": 1,
            "wins": int(bool({0, 1} & set(outcome.winners))),
            "mean_score": round(mine, 2),
            "mean_by_source": {
                k: round(
                    (by_name["Ann"]["mean_by_source"][k] + by_name["Bob"]["mean_by_source"][k]) / 2,
                    2,
                )
                for k in by_name["Ann"]["mean_by_source"]
            },
        }
    ]
    last = stats["last_game"]
    assert last["names"] == ["Ann", "Bob", "Cy"]
    assert last["scores"] == list(outcome.scores)
    assert len(last["round_scores"]) == game.view(None).rounds_total
    assert [t["score"] for t in stats["trend"]] == [outcome.scores[0], outcome.scores[1]]


def test_two_ais_of_one_level_count_a_game_once(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    for seed in (3, 4, 5):
        record = finished(["Ann", "Bot1", "Bot2"], seed, ["human", "ai:easy", "ai:easy"])
        history.add_record(record, mode="ai", local_seats=(0,))
    stats = history.stats()
    ann = stats["players"][0]
    (easy,) = stats["vs_ai"]
    assert (easy["level"], easy["games"], easy["wins"]) == ("easy", 3, ann["wins"])
    assert easy["mean_score"] == ann["mean_score"]
    assert easy["mean_by_source"] == ann["mean_by_source"]


def test_the_same_game_counts_once(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    record = finished(["Ann", "Bob"], 5)
    assert history.add_record(record, mode="hot-seat", local_seats=(0, 1))
    assert not history.add_record(record, mode="hot-seat", local_seats=(0, 1))
    assert history.add_record(finished(["Ann", "Bob"], 6), mode="hot-seat", local_seats=(0, 1))
    assert history.stats()["games"] == 2


def test_an_unfinished_game_is_refused(tmp_path: Path) -> None:
    game = Game.new(["Ann", "Bob"], seed=1)
    game.play(game.legal_moves()[0])
    record = Record.from_game(game, (Player("Ann"), Player("Bob")))
    with pytest.raises(ValueError, match="finished"):
        History.in_data_dir(tmp_path).add_record(record, mode="hot-seat", local_seats=(0,))


def test_no_history_yet_reads_as_empty_and_creates_nothing(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    stats = history.stats()
    assert stats["games"] == 0 and stats["players"] == [] and stats["last_game"] is None
    assert not history.path.exists()


def test_a_corrupt_file_is_reported_in_one_line(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    history.path.write_bytes(b"this is not a database at all\n" * 100)
    for call in (
        history.stats,
        lambda: history.add_record(finished(["A", "B"], 1), mode="hot-seat", local_seats=(0,)),
    ):
        with pytest.raises(HistoryError) as info:
            call()
        assert "damaged" in str(info.value) and "\n" not in str(info.value)
    assert history.path.read_bytes().startswith(b"this is not")  # never overwritten


def test_a_newer_schema_is_left_untouched(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    with sqlite3.connect(history.path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = history.path.read_bytes()
    with pytest.raises(HistoryError, match="newer paris-tui"):
        history.stats()
    assert history.path.read_bytes() == before


def test_a_busy_database_is_reported_not_waited_on_for_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history_module, "BUSY_TIMEOUT", 0.2)
    history = History.in_data_dir(tmp_path)
    history.add_record(finished(["A", "B"], 1), mode="hot-seat", local_seats=(0,))
    other = sqlite3.connect(history.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(HistoryError, match="busy"):
            history.add_record(finished(["A", "B"], 2), mode="hot-seat", local_seats=(0,))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert history.add_record(finished(["A", "B"], 2), mode="hot-seat", local_seats=(0,))


def test_migrations_run_once_and_in_order(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    history.add_record(finished(["A", "B"], 1), mode="hot-seat", local_seats=(0,))
    with sqlite3.connect(history.path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    history.add_record(finished(["A", "B"], 2), mode="hot-seat", local_seats=(0,))
    assert history.stats()["games"] == 2


_WRITER = """
import sys
from pathlib import Path
from paris_tui.app.local.history import History
from paris_tui.core import Game
from paris_tui.core.record import Player, Record

history = History(Path(sys.argv[1]))
for seed in range(10_000):
    game = Game.new(["Ann", "Bob", "Cy", "Di"], seed=seed)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    record = Record.from_game(game, tuple(Player(n) for n in ("Ann", "Bob", "Cy", "Di")))
    history.add_record(record, mode="hot-seat", local_seats=(0, 1, 2, 3))
    print(seed, flush=True)
"""


@pytest.mark.parametrize("delay", [0.4, 0.9])
def test_kill_9_during_writes_leaves_whole_games(tmp_path: Path, delay: float) -> None:
    path = tmp_path / "history.sqlite3"
    writer = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None
        writer.stdout.readline()  # at least one game written, then die mid-stream
        time.sleep(delay)
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait(10)
    finally:
        writer.kill()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        seats = conn.execute("SELECT COUNT(*) FROM seats").fetchone()[0]
        rounds = conn.execute("SELECT COUNT(*) FROM round_scores").fetchone()[0]
        expected = conn.execute("SELECT SUM(players * rounds) FROM games").fetchone()[0]
    assert games >= 1
    assert seats == 4 * games  # no game without all its seats
    assert rounds == expected  # every round of every game, whole or not at all
    stats = History(path).stats()
    assert stats["games"] == games
