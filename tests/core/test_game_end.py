"""R7 Game end: special tours, the sack, the winner and its tie-breaks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from paris_tui.core import Game, GameOver, Options
from paris_tui.core.record import parse_record, replay

from .helpers import (
    DATA,
    grand_tour_points,
    play_random,
    play_to_end,
    points,
    ref_engine,
    score_events,
    tours,
)

ALL_LINES = Options(final_tours="all-lines")


def fixture_game(name: str) -> tuple[Game, dict[str, Any]]:
    """A complete game from a stored record (found with the reference engine's
    ``random_record``) and the reference engine's summary of it."""
    data = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return replay(parse_record(data)), data


def last_move_events(game: Game) -> list[Any]:
    """Replay ``game`` with :meth:`Game.play` and return the events of its last move."""
    again = Game.from_setup(game.setup, game.players, options=game.options)
    moves = game.moves
    for m in moves[:-1]:
        again.play(m)
    return again.play(moves[-1])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r7_the_game_ends_when_no_stack_is_left(n: int) -> None:
    """R7: "If, at the start of a round, no stack is left, the game ends"."""
    game = Game.new(n, seed=n)
    rng = random.Random(n)
    play_random(game, rng, game.total_moves - 1)
    assert not game.is_over and game.round == game.rounds_total - 1
    assert game.stacks_left() == 0
    events = game.play(rng.choice(game.legal_moves()))
    assert game.is_over
    assert isinstance(events[-1], GameOver)
    assert len(game.round_scores) == game.rounds_total == 60 // (n + 1)
    assert game.view(None).to_move is None


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r7_special_tours_run_every_secret_route_and_the_public_route(n: int) -> None:
    """R7.1: "each marker's line gets a grand tour (R6). With 2 players the public route's line
    gets one too", starting with the seat that would start the next round, clockwise."""
    for seed in range(5):
        game = Game.new(n, seed=seed)
        events = play_random(game, random.Random(seed))
        special = tours(events, "special_tour")
        first = game.rounds_total % n
        expected = [(game.route((first + i) % n), (first + i) % n) for i in range(n)]
        if n == 2:
            assert game.public_route is not None
            expected.append((game.public_route, None))
        assert [(t.line, t.seat) for t in special] == expected
        for t in special:
            assert t.line is not None
            crossings = game.board.line_crossings[game.board.line_index[t.line]]
            assert t.stops == tuple(game.board.stop_ids[c] for c in crossings)
        # each special tour scores as a grand tour (R6) on the final board
        expected_points = [0] * n
        for line, _ in expected:
            for p, v in enumerate(grand_tour_points(game, line)):
                expected_points[p] += v
        assert points(events, n, "special_tour") == expected_points
        assert [
            game.round_scores[-1][p] + expected_points[p] + points(events, n, "sack")[p]
            for p in range(n)
        ] == game.scores


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r7_variant_all_lines_each_line_gets_one_special_tour(n: int) -> None:
    """R7 variant `final-tours: all-lines`: "each of the five lines gets exactly one grand
    tour" (instead of the route markers)."""
    game = Game.new(n, seed=17, options=ALL_LINES)
    events = play_random(game, random.Random(17))
    special = tours(events, "special_tour")
    assert sorted(t.line for t in special if t.line) == sorted(game.board.line_ids)
    assert all(t.seat is None for t in special)
    expected = [0] * n
    for line in game.board.line_ids:
        for p, v in enumerate(grand_tour_points(game, line)):
            expected[p] += v
    assert points(events, n, "special_tour") == expected


def test_r7_special_tours_after_the_last_round_and_before_game_over() -> None:
    game = Game.new(3, seed=5)
    play_random(game, random.Random(5), game.total_moves - 1)
    events = game.play(game.legal_moves()[0])
    kinds = [(type(e).__name__, getattr(e, "kind", None)) for e in events]
    small = kinds.index(("TourEvent", "small_tour"))
    discard = kinds.index(("TileDiscarded", None))
    special = kinds.index(("TourEvent", "special_tour"))
    assert small < discard < special < len(kinds) - 1
    assert kinds[-1] == ("GameOver", None)
    over = events[-1]
    assert isinstance(over, GameOver)
    outcome = game.outcome()
    assert outcome is not None
    assert over.scores == outcome.scores and over.winners == outcome.winners


# --- the sack ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_r7_sack_strict_maximum_scores(n: int, ref_board: Any) -> None:
    """R7.2: "if one player has strictly more businesses in the sack than every other
    player, they score 1 point per business of theirs in the sack"."""
    game, data = fixture_game(f"sack_strict_{n}p")
    outcome = game.outcome()
    assert outcome is not None
    best = max(outcome.sack)
    assert outcome.sack.count(best) == 1 and best > 0
    seat = outcome.sack.index(best)
    events = last_move_events(game)
    sack = score_events(events, "sack")
    assert [(e.seat, e.points) for e in sack] == [(seat, best)]
    assert sack[0].stop is None and sack[0].here == best
    assert outcome.sack == tuple(game.sack)
    summary = ref_engine.replay_summary(ref_board, data)
    assert list(outcome.scores) == summary["final"]["scores"]
    assert list(outcome.sack) == summary["final"]["sack"]


@pytest.mark.parametrize("n", [3, 4])
def test_r7_sack_tied_maximum_scores_nothing(n: int) -> None:
    """R7.2: "Otherwise nobody scores for the sack"."""
    game, _ = fixture_game(f"sack_tied_{n}p")
    outcome = game.outcome()
    assert outcome is not None
    best = max(outcome.sack)
    assert best > 0 and outcome.sack.count(best) > 1
    assert score_events(last_move_events(game), "sack") == []


@pytest.mark.parametrize("n", [3, 4])
def test_r7_sack_rule_on_many_games(n: int) -> None:
    seen = set()
    for seed in range(40):
        game = Game.new(n, seed=seed)
        events = play_random(game, random.Random(seed))
        best = max(game.sack)
        strict = best > 0 and game.sack.count(best) == 1
        sack = score_events(events, "sack")
        if strict:
            assert [(e.seat, e.points) for e in sack] == [(game.sack.index(best), best)]
        else:
            assert sack == []
        assert sum(game.sack) == game.view(None).sack_total
        seen.add(strict)
    assert seen == {True, False}


def test_r7_sack_is_not_used_with_two_players() -> None:
    """R7.2 "(3-4 players)": "Not used with 2 players"; removals go back to the supply (R4)."""
    removals = 0
    for seed in range(30):
        game = Game.new(2, seed=seed)
        events = play_random(game, random.Random(seed))
        removals += sum(1 for e in events if type(e).__name__ == "BusinessRemoved")
        assert game.sack == [0, 0]
        assert score_events(events, "sack") == []
        outcome = game.outcome()
        assert outcome is not None and outcome.sack == (0, 0)
    assert removals > 0


# --- the winner ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r7_winner_highest_score(n: int) -> None:
    """R7.3: "Winner: highest score"."""
    for seed in range(10):
        game = Game.new(n, seed=seed)
        play_to_end(game)
        outcome = game.outcome()
        assert outcome is not None
        assert outcome.scores == tuple(game.scores)
        assert outcome.on_board == tuple(game.on_board())
        top = max(outcome.scores)
        if outcome.scores.count(top) == 1:
            assert outcome.winners == (outcome.scores.index(top),)
            assert outcome.decided_by == "score"
        assert all(outcome.scores[w] == top for w in outcome.winners)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r7_tie_broken_by_fewest_businesses_on_the_board(n: int, ref_board: Any) -> None:
    """R7.3: "Tie: of the tied players, the one with the fewest businesses on the board
    wins"."""
    game, data = fixture_game(f"tie_fewest_{n}p")
    outcome = game.outcome()
    assert outcome is not None
    top = max(outcome.scores)
    tied = [p for p in range(n) if outcome.scores[p] == top]
    assert len(tied) > 1
    fewest = min(outcome.on_board[p] for p in tied)
    (winner,) = [p for p in tied if outcome.on_board[p] == fewest]
    assert outcome.winners == (winner,)
    assert outcome.decided_by == "fewest_businesses"
    assert list(outcome.winners) == ref_engine.replay_summary(ref_board, data)["final"]["winners"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r7_full_tie_shared_victory(n: int, ref_board: Any) -> None:
    """R7.3: "Still tied: they share the victory"."""
    game, data = fixture_game(f"tie_shared_{n}p")
    outcome = game.outcome()
    assert outcome is not None
    top = max(outcome.scores)
    tied = [p for p in range(n) if outcome.scores[p] == top]
    fewest = min(outcome.on_board[p] for p in tied)
    winners = tuple(p for p in tied if outcome.on_board[p] == fewest)
    assert len(winners) > 1
    assert outcome.winners == winners
    assert outcome.decided_by == "shared"
    assert list(outcome.winners) == ref_engine.replay_summary(ref_board, data)["final"]["winners"]
    over = last_move_events(game)[-1]
    assert isinstance(over, GameOver) and over.winners == winners


def test_r7_all_three_decisions_occur_in_random_games() -> None:
    decisions = set()
    for seed in range(600):
        game = Game.new(4, seed=seed)
        game.play_random(random.Random(seed))
        outcome = game.outcome()
        assert outcome is not None
        decisions.add(outcome.decided_by)
        if len(decisions) == 3:
            break
    assert decisions == {"score", "fewest_businesses", "shared"}
