"""The scoring track: spaces 0..45, a lap only past 45 (rules R1), and "↻" explained.

Before the fix, ``score_with_laps(45)`` gave ``45↻1`` and 45 was drawn on space 0.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from textual.app import App, ComposeResult

from paris_tui.app.look.palette import player_style
from paris_tui.app.screens.help import HELP_TEXT
from paris_tui.app.widgets.panels import (
    LAPS_LEGEND,
    PlayersPanel,
    score_with_laps,
    track_position,
    track_text,
)
from paris_tui.core import SeatView

from .helpers import widgets_text

CASES = [  # score, (laps, space), as shown next to the score
    (0, (0, 0), "0"),
    (44, (0, 44), "44"),
    (45, (0, 45), "45"),
    (46, (1, 0), "46↻1"),
    (91, (1, 45), "91↻1"),
    (92, (2, 0), "92↻2"),
]


@pytest.mark.parametrize(("score", "where", "shown"), CASES)
def test_laps_only_past_45(score: int, where: tuple[int, int], shown: str) -> None:
    assert track_position(score) == where
    assert score_with_laps(score).plain == shown


@pytest.mark.parametrize(("score", "where", "shown"), CASES)
def test_track_draws_the_space(score: int, where: tuple[int, int], shown: str) -> None:
    laps, space = where
    symbol = player_style(0).symbol
    text = track_text([score], 50).plain
    track = text[1 : text.index("45", 1)]  # between the "0" and the "45" labels
    assert track.count(symbol) == 1
    cell = track.index(symbol)
    assert cell == round(space * (len(track) - 1) / 45)
    if space == 45:
        assert cell == len(track) - 1
    if space == 0:
        assert cell == 0
    assert ("laps past 45" in text) == bool(laps)
    if laps:
        assert text.endswith(f"{symbol}↻{laps}")


@pytest.mark.parametrize("width", [20, 46, 60, 100])
def test_track_fits_its_width_with_laps(width: int) -> None:
    text = track_text([50, 3, 100, 45], width)
    assert text.cell_len <= max(width, 13 + len("  laps past 45: ●↻1 ■↻2"))
    if width >= 46:
        assert text.cell_len == width


def test_track_shows_every_seat_even_on_one_space() -> None:
    text = track_text([0, 0, 0, 0], 40).plain
    for seat in range(4):
        assert text.count(player_style(seat).symbol) == 1


class _PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PlayersPanel("")


def _view(scores: list[int]) -> SeatView:
    return cast(
        SeatView,
        SimpleNamespace(
            players=len(scores),
            to_move=0,
            starter=0,
            is_over=False,
            names=tuple(f"P{i}" for i in range(len(scores))),
            scores=tuple(scores),
            supply=tuple(10 for _ in scores),
            sack_total=0,
        ),
    )


@pytest.mark.parametrize(("scores", "legend"), [([45, 3, 0], False), ([46, 3, 0], True)])
async def test_players_panel_explains_laps(scores: list[int], legend: bool) -> None:
    app = _PanelApp()
    async with app.run_test(size=(40, 12)):
        app.query_one(PlayersPanel).show(_view(scores))
        text = widgets_text(app)
    assert (LAPS_LEGEND in text) == legend
    assert ("↻" in text) == legend


def test_help_explains_laps() -> None:
    assert "↻1" in HELP_TEXT and "45" in HELP_TEXT
