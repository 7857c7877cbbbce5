"""The static evaluation's pieces."""

from __future__ import annotations

import pytest

from paris_tui.ai.evaluation import Evaluator, expected_tours
from paris_tui.core import Game, Options


def test_expected_tours_edge_cases() -> None:
    assert expected_tours(1, 0, 5, 20) == 0.0  # no left-over to come
    assert expected_tours(0, 5, 0, 20) == 0.0  # no tile of the colour left
    assert expected_tours(1, 1, 4, 4) == pytest.approx(1.0)  # the next left-over pairs surely
    assert expected_tours(0, 1, 4, 4) == pytest.approx(0.0)  # one tile alone runs nothing
    assert expected_tours(0, 2, 2, 2) == pytest.approx(1.0)
    assert expected_tours(1, 1, 1, 4) == pytest.approx(0.25)
    assert expected_tours(0, 10, 12, 40) < expected_tours(1, 10, 12, 40)


def test_special_tour_probabilities() -> None:
    two = Game.new(2, seed=1)
    ev = Evaluator(two.view(0))
    line = two.board.line_index
    assert ev.special[line[two.route(0)]] == 1.0
    assert two.public_route is not None
    assert ev.special[line[two.public_route]] == 1.0
    assert sorted(ev.special) == pytest.approx([1 / 3, 1 / 3, 1 / 3, 1.0, 1.0])
    four = Game.new(4, seed=1)
    assert sorted(Evaluator(four.view(2)).special) == pytest.approx([0.75] * 4 + [1.0])
    every = Game.new(3, seed=1, options=Options(final_tours="all-lines"))
    assert Evaluator(every.view(0)).special == (1.0,) * 5


def test_values_start_even() -> None:
    game = Game.new(4, seed=3)
    ev = Evaluator(game.view(0))
    from paris_tui.ai.evaluation import unseen_kind_counts

    values = ev.values(game, rounds=12, unseen_kinds=unseen_kind_counts(game, include_face_up=True))
    assert values == [0.0] * 4
