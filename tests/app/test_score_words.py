"""The app words the core's score reasons (numbers and ids) for the log."""

from __future__ import annotations

from paris_tui.app.look.describe import describe_events, score_detail
from paris_tui.core import ScoreEvent, classic_board
from paris_tui.core.events import TourEvent

BOARD = classic_board()


def test_small_tour_words() -> None:
    here = ScoreEvent(0, "small_tour", 0, 1, "louvre", None, 1, 0, 0, "louvre")
    away = ScoreEvent(0, "small_tour", 1, 2, "concorde", None, 2, 0, 2, "pont-neuf")
    one = ScoreEvent(0, "small_tour", 1, 1, "concorde", None, 1, 0, 1, "pont-neuf")
    assert score_detail(BOARD, here) == "1 business at Louvre"
    assert score_detail(BOARD, away) == "2 businesses at Concorde, 2 stops away"
    assert score_detail(BOARD, one) == "1 business at Concorde, 1 stop away"


def test_grand_tour_and_sack_words() -> None:
    grand = ScoreEvent(2, "grand_tour", 0, 4, "pompidou", "blue", 2, 2)
    alone = ScoreEvent(2, "special_tour", 0, 1, "pompidou", "blue", 1, 0)
    sack = ScoreEvent(6, "sack", 2, 3, None, None, 3)
    assert score_detail(BOARD, grand) == "2 businesses at Pompidou + 2 next to it"
    assert score_detail(BOARD, alone) == "1 business at Pompidou"
    assert score_detail(BOARD, sack) == "the most businesses in the sack (3)"


def test_the_log_puts_the_words_under_the_tour() -> None:
    events = [
        TourEvent(0, "small_tour", "yellow", "pont-neuf", ("concorde",)),
        ScoreEvent(0, "small_tour", 1, 2, "concorde", None, 2, 0, 2, "pont-neuf"),
    ]
    lines = [line.plain for line in describe_events(BOARD, ("Ann", "Bob"), events)]
    assert lines[0] == "Small tour from Pont Neuf"
    assert lines[1].endswith("Bob +2: 2 businesses at Concorde, 2 stops away")


def test_a_tour_where_nobody_scores_is_worded_in_the_language() -> None:
    """ "Small tour from Louvre: nobody scores", with the language's own colon:
    Chinese writes it full width (：), as every other line of its log."""
    from paris_tui.wording import in_language

    events = [TourEvent(0, "small_tour", "yellow", "louvre", ())]
    with in_language("zh-TW"):
        line = describe_events(BOARD, ("Ann", "Bob"), events)[0].plain
    assert line.endswith("：無人得分") and ": " not in line, line
    (line,) = [t.plain for t in describe_events(BOARD, ("Ann", "Bob"), events)]
    assert line == "Small tour from Louvre: nobody scores"


def test_the_players_points_are_listed_with_the_languages_comma() -> None:
    """ "● Ann +3, ▲ Bob +12" in the left-over preview (and the tours' lines on the map
    and the end screen, worded alike): Chinese lists them with its own mark, "、",
    as its other lists of names do."""
    from paris_tui.app.look.describe import preview_text
    from paris_tui.core.analysis import LeftoverPreview
    from paris_tui.wording import in_language

    two = LeftoverPreview("opera/blue", (3, 12), "Blue line", (14, 2), ())
    with in_language("zh-TW"):
        widest = preview_text(BOARD, ("Ann", "Bob"), two).variants[0].plain
    assert "● Ann +3、▲ Bob +12" in widest and ", " not in widest, widest
    widest = preview_text(BOARD, ("Ann", "Bob"), two).variants[0].plain
    assert "● Ann +3, ▲ Bob +12" in widest, widest
