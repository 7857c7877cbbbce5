"""The post-game review: each move beside the strong AI's choice, and its loss (issue 11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paris_tui.ai import make_ai
from paris_tui.ai.review import review, review_json
from paris_tui.core import Game
from paris_tui.core.record import Player, Record, save_record

SIMS = 300


def _played(levels: list[str], seed: int) -> Record:
    bots = [make_ai(level, seed=seed * 10 + k, simulations=200) for k, level in enumerate(levels)]
    game = Game.new([f"P{k}" for k in range(len(levels))], seed=seed)
    while not game.is_over:
        seat = game.to_move
        game.play(bots[seat].choose(game.view(seat)))
    return Record.from_game(game, tuple(Player(f"P{k}", f"ai:{lv}") for k, lv in enumerate(levels)))


def test_losses_are_never_negative_and_zero_for_the_preferred_move() -> None:
    record = _played(["random", "greedy"], 3)
    reviews = review(record, seed=1, simulations=SIMS)
    assert [r.index for r in reviews] == list(range(len(record.moves)))
    assert all(r.loss >= 0 for r in reviews)
    assert all(r.loss == 0 for r in reviews if r.played == r.best)
    assert any(r.loss > 0 for r in reviews)
    data = review_json(record, reviews)
    for player in data["players"]:
        assert len(player["worst"]) <= 3
        losses = {m["index"]: m["loss"] for m in data["moves"] if m["seat"] == player["seat"]}
        assert all(index in losses for index in player["worst"])
        assert [losses[i] for i in player["worst"]] == sorted(
            (losses[i] for i in player["worst"]), reverse=True
        )


def test_the_review_is_deterministic_for_its_seed() -> None:
    record = _played(["greedy", "random", "greedy"], 5)
    assert review(record, seed=7, simulations=SIMS) == review(record, seed=7, simulations=SIMS)


def test_random_play_loses_more_than_strong_play() -> None:
    random_losses: list[float] = []
    strong_losses: list[float] = []
    for seed in range(3):
        levels = ["random", "strong"] if seed % 2 == 0 else ["strong", "random"]
        record = _played(levels, seed)
        for r in review(record, seed=seed, simulations=SIMS):
            (random_losses if levels[r.seat] == "random" else strong_losses).append(r.loss)
    mean_random = sum(random_losses) / len(random_losses)
    mean_strong = sum(strong_losses) / len(strong_losses)
    assert mean_random > mean_strong, (mean_random, mean_strong)


def test_review_json_command(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(_played(["greedy", "random"], 2), path)
    run = [sys.executable, "-m", "paris_tui", "review", str(path), "--simulations", "100"]
    out = subprocess.run([*run, "--json"], capture_output=True, text=True, check=True, timeout=120)
    data = json.loads(out.stdout)
    assert set(data) == {"moves", "players"}
    assert set(data["moves"][0]) == {"index", "seat", "played", "best", "loss"}
    assert set(data["players"][0]) == {"seat", "name", "mean_loss", "worst"}
    (tmp_path / "bad.json").write_text("{not json")
    bad = subprocess.run(
        [*run[:4], str(tmp_path / "bad.json"), "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1


def test_a_review_of_some_seats_equals_the_full_review_of_them() -> None:
    import pytest

    from paris_tui.ai.review import ReviewCancelled

    record = _played(["random", "greedy", "easy"], 5)
    full = review(record, seed=2, simulations=60)
    calls: list[tuple[int, int]] = []
    mine = review(
        record, seed=2, simulations=60, seats={1}, progress=lambda d, t: calls.append((d, t))
    )
    assert mine == [r for r in full if r.seat == 1]
    assert calls[0] == (0, len(mine)) and calls[-1] == (len(mine), len(mine))
    asked: list[int] = []

    def cancel_after_two() -> bool:
        asked.append(1)
        return len(asked) > 2

    with pytest.raises(ReviewCancelled):
        review(record, seed=2, simulations=60, cancelled=cancel_after_two)
    assert len(asked) == 3


def test_an_unfinished_game_is_not_reviewed(tmp_path: Path) -> None:
    """Issue 18.2: a review of a game still being played would read its movers' secret routes:
    review() refuses it, and `paris-tui review FILE` says so in one line, exit status 2."""
    import dataclasses

    import pytest

    from paris_tui.ai.review import UnfinishedGame

    record = _played(["greedy", "random"], 2)
    part = dataclasses.replace(record, moves=record.moves[:11])
    with pytest.raises(UnfinishedGame):
        review(part, simulations=10)
    path = tmp_path / "part.json"
    save_record(part, path)
    for extra in ([], ["--json"]):
        run = subprocess.run(
            [sys.executable, "-m", "paris_tui", "review", str(path), "--simulations", "10", *extra],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert run.returncode == 2 and run.stdout == "", run
        assert run.stderr.count("\n") == 1 and "not finished" in run.stderr


def test_the_review_command_prints_each_move_beside_the_ais_choice(tmp_path: Path) -> None:
    """Issue 18.9: the text output has a row per move (number, player, played, AI's choice,
    loss; `=` where the AI agrees, `!` on the costliest) and the per-player summary."""
    from paris_tui.ai.review import review_lines

    record = _played(["greedy", "random"], 2)
    reviews = review(record, simulations=30)
    lines = review_lines(record, reviews, seed=0, simulations=30)
    assert lines[0] == "Review: seed 0, 30 simulations a move"
    rows = lines[2 : 2 + len(record.moves)]
    data = review_json(record, reviews)
    costly = {i for p in data["players"] for i in p["worst"]}
    for r, row in zip(reviews, rows, strict=True):
        assert row[:5].replace("!", "").strip() == str(r.index + 1)
        assert row.startswith("!") == (r.index in costly)
        assert f"P{r.seat}" in row and row.endswith(f"{r.loss:.1f}")
        assert ("=" in row.split()) == (r.played == r.best)
    assert lines[2 + len(record.moves) :] == [
        f"P{p['seat']}: mean loss {p['mean_loss']:.1f}; costliest moves: "
        + (", ".join(str(i + 1) for i in p["worst"]) or "none")
        for p in data["players"]
    ]


def test_the_review_command_names_an_ai_seat_in_the_players_language() -> None:
    """An AI seat is named by its level in the player's language, as on every screen
    (`paris-tui review --lang zh-TW` wrote "Strong AI" where the game had said "強 AI")."""
    from paris_tui.ai.review import review_lines
    from paris_tui.wording import in_language

    game = Game.new(["Ann", "Strong AI"], seed=5)
    bots = [make_ai("greedy", seed=1), make_ai("greedy", seed=2)]
    while not game.is_over:
        game.play(bots[game.to_move].choose(game.view(game.to_move)))
    record = Record.from_game(game, (Player("Ann", "human"), Player("Strong AI", "ai:strong")))
    reviews = review(record, seats={1}, simulations=20)
    with in_language("de"):
        lines = review_lines(record, reviews, seed=0, simulations=20)
    text = "\n".join(lines)
    assert "Strong AI" not in text, text
    rows = lines[2 : 2 + len(reviews)]
    assert rows and all("Starke KI" in row for row in rows)
    assert any(line.startswith("Starke KI: ") for line in lines[2 + len(reviews) :])
