"""Left-over previews (analysis.py): what leaving each face-up tile would score now, from a
seat's view only (R5, R6 on the public position)."""

from __future__ import annotations

import random

import pytest

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
