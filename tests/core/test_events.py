"""Score events: every point explained (events.py), checked against independent R5/R6 sums."""

from __future__ import annotations

import random
from typing import Any

import pytest

from paris_tui.core import Board, Game, Options, ScoreEvent, TileDiscarded, TourEvent

from .helpers import ALL_OPTIONS, grand_tour_points


def small_tour_points(
    board: Board, occ: tuple[tuple[int, ...], ...], tile: str, mode: str, n: int
) -> tuple[list[int], set[str]]:
    """R5 computed independently: points per seat and the stops that score."""
    stop_id, line_id = tile.split("/")
    stop = board.stop_index[stop_id]
    out = [0] * n
    if occ[stop]:
        for p in occ[stop]:
            out[p] += 1
        return out, {stop_id}
    lines = (
        [line_id] if mode == "tile-line" else [board.line_ids[li] for li in board.stops[stop].lines]
    )
    for d in range(1, 7):
        hit: set[int] = set()
        for ln in lines:
            seq = board.lines[board.line_index[ln]].stops
            i = seq.index(stop)
            hit |= {seq[j] for j in (i - d, i + d) if 0 <= j < 7 and occ[seq[j]]}
        if hit:
            for s in hit:
                for p in occ[s]:
                    out[p] += 1
            return out, {board.stop_ids[s] for s in hit}
    return out, set()


def whole_game(n: int, options: Options, seed: int) -> tuple[Game, list[tuple[int, Any]]]:
    """Play a random game; return it and (move index, events) for every move."""
    game = Game.new(n, seed=seed, options=options)
    rng = random.Random(seed)
    log: list[tuple[int, Any]] = []
    i = 0
    while not game.is_over:
        log.append((i, game.play(rng.choice(game.legal_moves()))))
        i += 1
    return game, log


@pytest.mark.parametrize("options", ALL_OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_score_events_add_up_to_the_scores(n: int, options: Options) -> None:
    """The sum of ScoreEvent points per seat equals the score, round by round and at the end."""
    for seed in range(5):
        game, log = whole_game(n, options, seed)
        total = [0] * n
        per_round: dict[int, list[int]] = {}
        for _, events in log:
            for e in events:
                if isinstance(e, ScoreEvent):
                    assert e.points > 0
                    total[e.seat] += e.points
                    if e.kind in ("small_tour", "grand_tour"):
                        per_round[e.round] = list(total)
        assert total == game.scores
        running = [0] * n
        for r, scores in enumerate(game.round_scores):
            running = per_round.get(r, running)
            assert list(scores) == running


@pytest.mark.parametrize("options", ALL_OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_score_events_kinds_reasons_and_stops(n: int, options: Options) -> None:
    """Each ScoreEvent belongs to the tour announced before it (same kind); its reason is
    numbers that add up to its points (no words from the core)."""
    for seed in range(3):
        game, log = whole_game(n, options, seed + 100)
        board = game.board
        for _, events in log:
            current: TourEvent | None = None
            for e in events:
                if isinstance(e, TourEvent):
                    current = e
                if not isinstance(e, ScoreEvent):
                    continue
                assert 0 <= e.seat < n
                assert e.here >= 1
                if e.kind == "sack":
                    assert n > 2 and game.is_over
                    assert e.stop is None and e.line is None and e.origin is None
                    assert e.points == e.here and e.near == e.distance == 0
                    continue
                assert current is not None and current.kind == e.kind
                assert e.stop is not None
                if e.kind == "small_tour":
                    assert e.line is None and e.near == 0
                    assert e.stop in current.stops and e.origin == current.stop
                    assert e.points == e.here  # 1 point per business (R5)
                    assert (e.distance == 0) == (e.stop == e.origin)
                else:
                    assert e.line == current.line
                    assert e.stop in current.stops  # a crossing of the tour's line
                    assert board.stops[board.stop_index[e.stop]].is_crossing
                    assert e.points == e.here + e.near and e.distance == 0


@pytest.mark.parametrize("options", ALL_OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_round_tours_match_an_independent_count(n: int, options: Options) -> None:
    """Every round's small tour (R5, either mode) and grand tour (R6) score what an independent
    count on the board gives."""
    for seed in range(4):
        game = Game.new(n, seed=seed + 50, options=options)
        rng = random.Random(seed)
        while not game.is_over:
            events = game.play(rng.choice(game.legal_moves()))
            small = [e for e in events if isinstance(e, TourEvent) and e.kind == "small_tour"]
            if not small:
                continue
            (discard,) = [e for e in events if isinstance(e, TileDiscarded)]
            expected, stops = small_tour_points(
                game.board, game.occupancy(), discard.tile, options.small_tour, n
            )
            got = [0] * n
            grand = [0] * n
            for e in events:
                if isinstance(e, ScoreEvent) and e.kind == "small_tour":
                    got[e.seat] += e.points
                if isinstance(e, ScoreEvent) and e.kind == "grand_tour":
                    grand[e.seat] += e.points
            assert got == expected
            assert set(small[0].stops) == stops
            assert small[0].stop == discard.tile.split("/")[0]
            if discard.grand_tour:
                assert grand == grand_tour_points(game, discard.tile.split("/")[1])
            else:
                assert grand == [0] * n
