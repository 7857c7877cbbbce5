"""Left-over previews (analysis.py): what leaving each face-up tile would score, from a seat's
view only (R5, R6 on the public position): on the board as it is now before the round's last
move, and on the last move what taking the tile leaves, after that move."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paris_tui.core import Game
from paris_tui.core.analysis import leftover_preview, leftover_previews

from .helpers import ALL_OPTIONS, grand_tour_points, play_random, twin
from .test_events import small_tour_points


@pytest.mark.parametrize("options", ALL_OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_previews_match_an_independent_count(n: int, options: object) -> None:
    for seed in range(4):
        game = Game.new(n, seed=seed, options=options)  # type: ignore[arg-type]
        rng = random.Random(seed)
        while not game.is_over:
            view = game.view(game.to_move)
            previews = leftover_previews(view)
            assert set(previews) == set(game.face_up)
            for tile, preview in previews.items():
                if len(game.face_up) == 2:  # the round's last move: the other tile's tour
                    rest = list(game.face_up)
                    rest.remove(tile)
                    assert preview.leaves == rest[0] == preview.left_over
                    assert preview.after_move
                    continue  # its numbers: test_prop_last_move_preview_is_the_tour_...
                assert preview.leaves is None and not preview.after_move
                small, _ = small_tour_points(
                    game.board, game.occupancy(), tile, game.options.small_tour, n
                )
                assert list(preview.small_tour) == small
                colour = tile.split("/")[1]
                if colour in game.discard:
                    line = game.board.lines[game.board.line_index[colour]].name
                    assert preview.triggers_grand_tour and preview.grand_tour_line == line
                    assert list(preview.grand_tour) == grand_tour_points(game, colour)
                else:
                    assert not preview.triggers_grand_tour
                    assert preview.grand_tour == (0,) * n
                assert "small tour" in preview.summary(game.names)
            game.play(rng.choice(game.legal_moves()))
        assert leftover_previews(game.view(0)) == {}


def test_previews_do_not_change_the_game_and_need_no_secrets() -> None:
    game = Game.new(3, seed=7)
    play_random(game, random.Random(7), 11)
    before = (game.scores[:], game.occupancy(), game.face_up, game.discard)
    view = game.view(1)
    previews = leftover_previews(view)
    assert (game.scores[:], game.occupancy(), game.face_up, game.discard) == before
    other = twin(game, 1, random.Random(3))
    assert leftover_previews(other.view(1)) == previews


def test_leftover_preview_of_a_tile_not_face_up() -> None:
    game = Game.new(2, seed=1)
    absent = next(t for t in game.board.tile_names if t not in game.face_up)
    with pytest.raises(ValueError, match="not face up"):
        leftover_preview(game.view(0), absent)
    tile = game.face_up[0]
    assert leftover_preview(game.view(0), tile).tile == tile


def _round_end_tours(events: list[object], n: int) -> tuple[list[int], str | None, list[int]]:
    """The small tour's and the grand tour's points in the events the engine gave (R3.3, R3.4)."""
    from paris_tui.core import ScoreEvent, TourEvent

    small, grand = [0] * n, [0] * n
    line: str | None = None
    for event in events:
        if isinstance(event, TourEvent) and event.kind == "grand_tour":
            line = event.line
        elif isinstance(event, ScoreEvent) and event.kind in ("small_tour", "grand_tour"):
            (grand if event.kind == "grand_tour" else small)[event.seat] += event.points
    return small, line, grand


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([2, 3, 4]),
    st.sampled_from(ALL_OPTIONS),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.floats(min_value=0.0, max_value=1.0),
    st.booleans(),
)
def test_prop_last_move_preview_is_the_tour_the_engine_runs(
    n: int, options: object, seed: int, fraction: float, spectator: bool
) -> None:
    """Issue 18.1: on the round's last move, the preview of a tile is the tour that taking it
    makes the engine run (the other tile's, after the move's business and takeover)."""
    game = Game.new(n, seed=seed, options=options)  # type: ignore[arg-type]
    rng = random.Random(seed ^ 0x18)
    rounds = min(game.rounds_total - 1, int(fraction * game.rounds_total))
    while game.round < rounds or len(game.face_up) != 2:
        game.play(rng.choice(game.legal_moves()))
    view = game.view(None if spectator else game.to_move)
    previews = leftover_previews(view)
    assert set(previews) == set(game.face_up)
    board = game.board
    for move in game.legal_moves():
        preview = previews[move.tile]
        outcome = _round_end_tours(list(game.copy().play(move)), n)
        shown = [list(preview.small_tour), preview.grand_tour_line, list(preview.grand_tour)]
        if outcome[1] is not None:
            outcome = (outcome[0], board.lines[board.line_index[outcome[1]]].name, outcome[2])
        # The preview is this move's own tour, or any move's when the takeover choice does not
        # matter (getattr: the property ran on the code before the fix, which had no such fields).
        if getattr(preview, "evict", move.evict) == move.evict or not preview.depends:
            assert shown == list(outcome)


def test_last_move_preview_says_when_the_takeover_choice_matters() -> None:
    """A last move at a full crossing of two owners: the preview is the takeover dialog's first
    choice (an opponent's business, takeover_choices) and says another choice scores otherwise."""
    from paris_tui.core.analysis import takeover_choices

    found = 0
    for seed in range(40):
        game = Game.new(3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if len(game.face_up) == 2:
                for tile, preview in leftover_previews(game.view(None)).items():
                    moves = [m for m in game.legal_moves() if m.tile == tile]
                    outcomes = {
                        m.evict: _round_end_tours(list(game.copy().play(m)), 3) for m in moves
                    }
                    first = takeover_choices(moves, game.to_move)[0]
                    assert preview.evict == first.evict
                    assert first.evict is None or first.evict != game.to_move or len(moves) == 1
                    assert preview.depends == (len({str(o) for o in outcomes.values()}) > 1)
                    found += preview.depends
            game.play(rng.choice(game.legal_moves()))
    assert found >= 3
