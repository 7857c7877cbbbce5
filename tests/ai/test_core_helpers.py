"""The core helpers the AI's evaluation uses agree with the engine's real tours (R5, R6)."""

from __future__ import annotations

import pytest

from paris_tui.core import Options, ScoreEvent

from .conftest import VARIANTS, random_position


@pytest.mark.parametrize("options", VARIANTS[:2], ids=["both-lines", "tile-line"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tour_and_small_tour_points_match_the_engine(players: int, options: Options) -> None:
    for seed in range(15):
        game = random_position(seed, players, options)
        before = (game.occupancy(), list(game.scores), game.discard)
        for tile in dict.fromkeys(game.face_up):
            events = game.leftover_events(tile)
            small = [0] * players
            grand = [0] * players
            for e in events:
                if isinstance(e, ScoreEvent):
                    (small if e.kind == "small_tour" else grand)[e.seat] += e.points
            assert game.small_tour_points(tile) == small
            line = game.board.tile_kinds[game.board.tile_index[tile]].line
            if game.board.line_ids[line] in game.discard:
                assert game.tour_points(line) == grand
                assert game.tour_points(game.board.line_ids[line]) == grand
        assert (game.occupancy(), list(game.scores), game.discard) == before


def test_tour_points_equal_a_special_tour() -> None:
    """R6/R7: with all-lines final tours, the game's last points are the five lines' tours."""
    for seed in range(10):
        game = random_position(seed, 3, Options(final_tours="all-lines"), moves=10**6)
        assert game.move_count == game.total_moves - 1
        code = game.legal_codes()[0]
        probe = game.copy()
        probe.apply_code(code)
        # Replay the same last move, stopping the clock before the special tours:
        # the difference between the outcome and the score after the round is the tours' sum.
        after_round = probe.round_scores[-1]
        expected = [0] * 3
        for line in range(len(game.board.lines)):
            for p, pts in enumerate(probe.tour_points(line)):
                expected[p] += pts
        outcome = probe.outcome()
        assert outcome is not None
        sack_bonus = [0] * 3
        best = max(outcome.sack)
        if best and outcome.sack.count(best) == 1:
            sack_bonus[outcome.sack.index(best)] = best
        assert [
            a + e + s for a, e, s in zip(after_round, expected, sack_bonus, strict=True)
        ] == list(outcome.scores)
