"""The score chart's ticks (app/widgets/score_chart.py): whole numbers, each on a row of its own."""

from __future__ import annotations

import math

import pytest

from paris_tui.app.widgets.score_chart import nice_ticks, row_ticks


@pytest.mark.parametrize("rows", [2, 3, 5, 7, 9, 11, 13])
def test_row_ticks_fall_on_rows_and_cover_the_highest_score(rows: int) -> None:
    for high in [0, 0.5, 1, 3, 7, 23, 25, 40, 46, 57, 80, 99, 110, 130, 187, 250, 999]:
        ticks = row_ticks(high, rows)
        assert ticks[0] == 0 and ticks[-1] >= high and len(ticks) >= 2
        assert ticks == sorted(set(ticks))
        top, gaps = ticks[-1], rows - 1
        steps = len(ticks) - 1
        if steps > 1:  # evenly apart, each on a whole row, at least two rows between
            assert gaps % steps == 0 and gaps // steps >= 2
            step = ticks[1]
            assert ticks == [i * step for i in range(steps + 1)]
        # Never far above the highest score: the next nice number (at most a third
        # above), or at most a quarter more than that for a tick in between.
        assert top <= 1.34 * 1.25 * max(1, math.ceil(high)), (high, rows, ticks)


def test_row_ticks_of_the_usual_scores() -> None:
    assert row_ticks(57, 9) == [0, 15, 30, 45, 60]
    assert row_ticks(80, 9) == [0, 20, 40, 60, 80]
    assert row_ticks(40, 9) == [0, 10, 20, 30, 40]
    assert row_ticks(99, 9) == [0, 25, 50, 75, 100]
    assert row_ticks(0, 9) == [0, 1]


def test_nice_ticks_are_1_2_5_steps() -> None:
    assert nice_ticks(0, 15, 5) == [0, 5, 10, 15]
    assert nice_ticks(1, 30, 7) == [0, 5, 10, 15, 20, 25, 30]
    assert nice_ticks(5, 5, 4) == [5, 6]
