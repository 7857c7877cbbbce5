"""R1 Components: the classic board's structure and the board validator."""

from __future__ import annotations

import copy
import json
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from paris_tui.core import Board, BoardError, load_board, parse_board

EXPECTED_CROSSINGS = {
    "etoile": {"blue", "yellow"},
    "opera": {"blue", "pink"},
    "montmartre": {"blue", "green"},
    "republique": {"blue", "red"},
    "concorde": {"yellow", "pink"},
    "pompidou": {"yellow", "green"},
    "bastille": {"yellow", "red"},
    "hotel-de-ville": {"red", "green"},
    "invalides": {"red", "pink"},
    "quartier-latin": {"pink", "green"},
}


def classic_data() -> dict[str, Any]:
    """A fresh copy of the packaged classic board's JSON."""
    text = resources.files("paris_tui.core").joinpath("data/board-classic.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def line(data: dict[str, Any], line_id: str) -> dict[str, Any]:
    return next(ln for ln in data["lines"] if ln["id"] == line_id)


def refused(data: Any) -> str:
    with pytest.raises(BoardError) as info:
        parse_board(data)
    return str(info.value)


# --- the classic board -----------------------------------------------------


def test_r1_classic_board_has_25_stops_10_crossings_15_plain(board: Board) -> None:
    """R1: "25 stops: 10 crossings (on two lines) and 15 plain stops (on one line)"."""
    assert len(board.stops) == 25
    crossings = {s.id for s in board.stops if s.is_crossing}
    assert len(crossings) == 10
    assert sum(1 for s in board.stops if len(s.lines) == 1) == 15
    assert {s.id: {board.line_ids[li] for li in s.lines} for s in board.stops if s.is_crossing} == (
        EXPECTED_CROSSINGS
    )
    assert set(board.crossings()) == {board.stop_index[s] for s in crossings}


def test_r1_five_lines_of_seven_stops_each_crossing_every_other_once(board: Board) -> None:
    """R1: "Five bus lines, each an ordered list of seven stops ... Every line crosses every
    other line exactly once, so each line has 4 crossings and 3 plain stops"."""
    assert len(board.lines) == 5
    for ln in board.lines:
        assert len(ln.stops) == 7
        assert len(set(ln.stops)) == 7
        assert sum(board.stops[s].is_crossing for s in ln.stops) == 4
        assert len(board.line_crossings[ln.index]) == 4
        # the crossings a grand tour visits, in line order (R6)
        assert board.line_crossings[ln.index] == tuple(
            s for s in ln.stops if board.stops[s].is_crossing
        )
    for a in board.lines:
        for b in board.lines:
            if a.index < b.index:
                assert len(set(a.stops) & set(b.stops)) == 1


def test_r1_sixty_tiles_twelve_per_colour(board: Board) -> None:
    """R1: "Tiles: 60 ... Each colour has 12 tiles"."""
    assert len(board.all_tiles) == 60
    colours = Counter(t.split("/")[1] for t in board.all_tiles)
    assert colours == dict.fromkeys(board.line_ids, 12)
    # a tile is written stop/line and its stop is on its line
    for t in board.all_tiles:
        stop, ln = t.split("/")
        assert board.stop_index[stop] in board.lines[board.line_index[ln]].stops


def test_r1_tiles_per_stop_one_per_road_segment(board: Board) -> None:
    """R1: "a plain end stop has 1 tile, a plain middle stop 2 tiles of its line, a crossing
    3 or 4 tiles split between its two lines"."""
    per_stop = Counter(t.split("/")[0] for t in board.all_tiles)
    for s in board.stops:
        segments = 0
        for li in s.lines:
            seq = board.lines[li].stops
            pos = seq.index(s.index)
            segments += (pos > 0) + (pos < 6)
        assert per_stop[s.id] == segments
        assert 1 <= per_stop[s.id] <= 4
        if s.is_crossing:
            assert per_stop[s.id] in (3, 4)
        else:
            assert per_stop[s.id] in (1, 2)
    assert per_stop["trocadero"] == 1  # plain end stop
    assert per_stop["gare-du-nord"] == 2  # plain middle stop
    assert per_stop["pompidou"] == 4  # crossing in the middle of both lines
    assert per_stop["etoile"] == 3  # crossing at yellow's first stop
    assert Counter(board.all_tiles)["etoile/yellow"] == 1
    assert Counter(board.all_tiles)["etoile/blue"] == 2


def test_r1_neighbours_three_or_four_at_crossings(board: Board) -> None:
    """R1: "A crossing has 3 or 4 neighbours (3 when it is the end of one of its lines)"."""
    for s in board.stops:
        nbrs = {board.stop_ids[n] for n in board.neighbours[s.index]}
        expected = set()
        for li in s.lines:
            seq = board.lines[li].stops
            pos = seq.index(s.index)
            expected |= {board.stop_ids[seq[p]] for p in (pos - 1, pos + 1) if 0 <= p < 7}
        assert nbrs == expected
        if s.is_crossing:
            ends = sum(board.lines[li].stops.index(s.index) in (0, 6) for li in s.lines)
            assert len(nbrs) == (3 if ends else 4)
        else:
            assert len(nbrs) in (1, 2)
    assert {board.stop_ids[n] for n in board.neighbours[board.stop_index["pompidou"]]} == {
        "pont-neuf",
        "marais",
        "saint-nicolas",
        "hotel-de-ville",
    }


def test_r4_capacity_two_at_crossings_one_elsewhere(board: Board) -> None:
    """R4: "a plain stop holds 1 business, a crossing 2"."""
    for s in board.stops:
        assert s.capacity == (2 if s.is_crossing else 1)
        assert board.capacity[s.index] == s.capacity


def test_r1_classic_board_matches_the_reference_engine(board: Board, ref_board: Any) -> None:
    """The reference engine reads the same file independently: same stops, tiles, neighbours."""
    assert list(board.stop_ids) == ref_board.stops
    assert sorted(board.all_tiles) == ref_board.tiles
    for s in board.stops:
        assert {board.stop_ids[n] for n in board.neighbours[s.index]} == set(
            ref_board.neighbours[s.id]
        )
    for ln in board.lines:
        assert [board.stop_ids[c] for c in board.line_crossings[ln.index]] == (
            ref_board.line_crossings(ln.id)
        )


def test_r1_load_board_reads_a_file(tmp_path: Any) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(classic_data()), encoding="utf-8")
    assert len(load_board(path).all_tiles) == 60


# --- the validator refuses malformed boards -----------------------------------


def test_r1_parse_board_accepts_the_classic_data() -> None:
    assert parse_board(classic_data()).id == "classic"


@pytest.mark.parametrize("value", [[], "board", 3, None])
def test_r1_board_not_an_object(value: Any) -> None:
    assert "object" in refused(value)


def test_r1_board_wrong_format_and_version() -> None:
    data = classic_data()
    data["format"] = "other"
    assert "format" in refused(data)
    data = classic_data()
    data["version"] = 2
    assert "version" in refused(data)


def test_r1_board_wrong_line_count() -> None:
    data = classic_data()
    data["lines"] = data["lines"][:4]
    assert "expected 5 lines, found 4" in refused(data)
    data = classic_data()
    data["lines"].append(copy.deepcopy(data["lines"][0]))
    assert "expected 5 lines, found 6" in refused(data)


def test_r1_board_six_stops_on_a_line() -> None:
    data = classic_data()
    line(data, "blue")["stops"].pop()
    message = refused(data)
    assert "'blue'" in message and "expected 7 stops, found 6" in message


def test_r1_board_eight_stops_on_a_line() -> None:
    data = classic_data()
    line(data, "green")["stops"].append("trocadero")
    message = refused(data)
    assert "'green'" in message and "found 8" in message


def test_r1_board_two_lines_sharing_no_stop() -> None:
    data = classic_data()
    data["stops"].append({"id": "nowhere-else", "name": "Elsewhere", "xy": [0, 0]})
    yellow = line(data, "yellow")["stops"]
    yellow[yellow.index("etoile")] = "nowhere-else"
    message = refused(data)
    assert "'blue'" in message and "'yellow'" in message
    assert "share exactly one stop" in message and "share 0" in message


def test_r1_board_two_lines_sharing_two_stops() -> None:
    data = classic_data()
    yellow = line(data, "yellow")["stops"]
    yellow[yellow.index("louvre")] = "opera"  # opera is on blue (and pink) already
    message = refused(data)
    assert "'blue'" in message and "'yellow'" in message
    assert "share 2" in message and "etoile" in message and "opera" in message


def test_r1_board_unknown_stop() -> None:
    data = classic_data()
    red = line(data, "red")["stops"]
    red[red.index("orsay")] = "atlantis"
    message = refused(data)
    assert "unknown stop" in message and "'atlantis'" in message and "'red'" in message


def test_r1_board_duplicate_stop_id() -> None:
    data = classic_data()
    data["stops"].append({"id": "louvre", "name": "Louvre again", "xy": [0, 0]})
    message = refused(data)
    assert "duplicate stop id" in message and "'louvre'" in message


def test_r1_board_duplicate_line_id() -> None:
    data = classic_data()
    line(data, "green")["id"] = "blue"
    message = refused(data)
    assert "duplicate line id" in message and "'blue'" in message


def test_r1_board_duplicate_line_letter() -> None:
    data = classic_data()
    line(data, "green")["letter"] = "B"
    assert "letter" in refused(data)


def test_r1_board_stop_twice_on_one_line() -> None:
    data = classic_data()
    blue = line(data, "blue")["stops"]
    blue[blue.index("gare-du-nord")] = "trocadero"
    message = refused(data)
    assert "'trocadero'" in message and "twice" in message


def test_r1_board_stop_on_three_lines() -> None:
    """Every pair of lines still shares exactly one stop, but Étoile is on three lines."""
    data = classic_data()
    data["stops"].append({"id": "new-stop", "name": "New", "xy": [0, 0]})
    red = line(data, "red")["stops"]
    red[red.index("republique")] = "etoile"  # red now meets blue at etoile
    red[red.index("bastille")] = "new-stop"  # ... and yellow at etoile only
    message = refused(data)
    assert "'etoile'" in message and "3 lines" in message


def test_r1_board_stop_on_no_line() -> None:
    data = classic_data()
    data["stops"].append({"id": "lonely", "name": "Lonely", "xy": [0, 0]})
    message = refused(data)
    assert "'lonely'" in message and "no line" in message


def test_r1_board_crossing_at_the_end_of_both_lines() -> None:
    """A crossing with only 2 neighbours breaks R1's "a crossing has 3 or 4 neighbours"."""
    data = classic_data()
    blue = line(data, "blue")["stops"]
    blue[0], blue[1] = blue[1], blue[0]  # etoile now starts both blue and yellow
    message = refused(data)
    assert "'etoile'" in message and "2 neighbours" in message


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: d.pop("id"), ["'id'"]),
        (lambda d: d.__setitem__("stops", {}), ["'stops'", "list"]),
        (lambda d: d.__setitem__("lines", "blue"), ["'lines'", "list"]),
        (lambda d: d["stops"].__setitem__(0, "trocadero"), ["stops[0]", "object"]),
        (lambda d: d["lines"].__setitem__(2, 7), ["lines[2]", "object"]),
        (lambda d: d["stops"][3].__setitem__("xy", [1]), ["stops[3]", "'xy'"]),
        (lambda d: d["stops"][3].__setitem__("id", "a/b"), ["stops[3]", "'/'"]),
        (lambda d: d["lines"][1].__setitem__("stops", [1, 2, 3, 4, 5, 6, 7]), ["strings"]),
        (lambda d: d["lines"][1].__setitem__("letter", "YY"), ["letter"]),
    ],
)
def test_r1_board_malformed_fields_are_named(mutate: Any, words: list[str]) -> None:
    data = classic_data()
    mutate(data)
    message = refused(data)
    for word in words:
        assert word in message


def test_r1_load_board_refuses_unreadable_and_non_json_files(tmp_path: Any) -> None:
    with pytest.raises(BoardError, match="cannot read"):
        load_board(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(BoardError, match="not valid JSON"):
        load_board(bad)
