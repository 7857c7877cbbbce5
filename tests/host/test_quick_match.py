"""Issue 22's pure part: move times, the waiting-for-you order, quick match, the wire."""

from __future__ import annotations

import pytest

from paris_tui.net.protocol import (
    MoveClock,
    OpenTable,
    Presence,
    SeatInfo,
    TableInfo,
    Tables,
    decode_client,
    decode_host,
    encode,
)
from paris_tui.net.turns import (
    is_turn_based,
    move_time_words,
    parse_move_time,
    quick_match,
    quick_seats,
    tables_in_order,
    waiting_for,
)


def seat(name: str, status: str = "present", kind: str = "human") -> SeatInfo:
    return SeatInfo(name, kind, status)  # type: ignore[arg-type]


def free() -> SeatInfo:
    return SeatInfo("", "human", "free")


def waiting(table: str, *seats: SeatInfo) -> TableInfo:
    free_seats = sum(1 for s in seats if s.status == "free")
    return TableInfo(table, seats, 0, 0, False, waiting=True, free_seats=free_seats)


def timed(table: str, to_move: int, waited: float, *names: str) -> TableInfo:
    seats = tuple(seat(n, "away") for n in names)
    return TableInfo(table, seats, 3, 40, False, move_time=86400.0, to_move=to_move, waited=waited)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("45", 45.0), ("90s", 90.0), ("2m", 120.0), ("2 min", 120.0), ("12h", 43200.0)],
)
def test_move_times_are_read_in_their_units(text: str, seconds: float) -> None:
    assert parse_move_time(text) == seconds


@pytest.mark.parametrize("text", ["", "1", "soon", "-5", "31d", "1e9", "5 weeks", "nan"])
def test_a_move_time_out_of_range_or_unreadable_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_move_time(text)


def test_an_hour_or_more_per_move_is_turn_based() -> None:
    assert not is_turn_based(None)
    assert not is_turn_based(3599.0)
    assert is_turn_based(parse_move_time("1h"))
    assert is_turn_based(parse_move_time("3d"))
    assert [move_time_words(s) for s in (30, 300, 5400, 18000, 90000, 3 * 86400)] == [
        "30 s",
        "5 min",
        "90 min",
        "5 h",
        "25 h",
        "3 d",
    ]


def test_the_tables_waiting_for_my_move_come_first_the_longest_waiting_at_the_top() -> None:
    infos = [
        TableInfo("t1", (seat("ann"), seat("bob")), 4, 40, False),  # not timed
        timed("t2", 1, 3600.0, "ann", "bob"),
        timed("t3", 0, 7200.0, "bob", "cy"),
        timed("t4", 0, 99999.0, "ann", "bob"),  # ann's move, not bob's
        timed("t10", 1, 86400.0, "cy", "BOB"),  # names compare as the host does (case)
        TableInfo("t5", (seat("bob"), seat("ann")), 40, 40, True, move_time=86400.0),
    ]
    assert [t.table for t in waiting_for(infos, "bob")] == ["t10", "t3", "t2"]
    assert [t.table for t in tables_in_order(infos, "bob")] == [
        "t10",
        "t3",
        "t2",
        "t1",
        "t4",
        "t5",
    ]
    assert tables_in_order(infos, None) == infos
    assert waiting_for(infos, "nobody") == []


def test_quick_match_takes_the_fullest_waiting_table_of_the_size_asked() -> None:
    infos = [
        waiting("t1", seat("ann"), free(), free()),
        waiting("t2", seat("bob"), seat("cy"), free()),
        waiting("t3", seat("dee"), free()),
        waiting("t4", seat("eve"), seat("fay"), seat("gus"), free()),
        TableInfo("t5", (seat("hal"), seat("ida"), seat("jo")), 5, 60, False),  # playing
    ]
    assert quick_match(infos, 3, "zed") == "t2"
    assert quick_match(infos, 2, "zed") == "t3"
    assert quick_match(infos, 4, "zed") == "t4"
    assert quick_match(infos, 3, "bob") == "t1"  # not a table I wait at already
    assert quick_match([], 2, "zed") is None
    assert quick_match(infos[:1], 2, "zed") is None  # none of that size: open one
    assert quick_seats(3) == ("me", "open", "open")
    with pytest.raises(ValueError):
        quick_seats(5)


def test_quick_match_prefers_players_of_a_near_rating_among_the_fullest() -> None:
    infos = [
        waiting("t1", seat("ann"), free()),
        waiting("t2", seat("bob"), free()),
        waiting("t3", seat("cy"), free()),
        waiting("t4", seat("dee"), seat("eve"), free()),
    ]
    ratings = {"ann": 1200.0, "bob": 1580.0, "cy": 1900.0, "zed": 1550.0}
    assert quick_match(infos[:3], 2, "zed", ratings.get) == "t2"
    assert quick_match(infos[:3], 2, "zed") == "t1"  # no lookup: the oldest
    assert quick_match(infos[:3], 2, "new", ratings.get) == "t1"  # unrated me: the oldest
    # Fuller beats nearer: a table of 3 with one seat left, over the one-player tables.
    assert quick_match(infos, 3, "zed", ratings.get) == "t4"


def test_the_timed_fields_cross_the_wire_and_older_lines_still_read() -> None:
    info = TableInfo(
        "t2", (seat("ann"), seat("bob")), 3, 40, False, move_time=86400.0, to_move=1, waited=5.5
    )
    assert decode_host(encode(Tables((info,)))) == Tables((info,))
    plain = TableInfo("t1", (seat("ann"), seat("bob")), 3, 40, False)
    line = encode(Tables((plain,)))
    assert b"move_time" not in line  # an untimed table's line is as before
    assert decode_host(line) == Tables((plain,))
    clock = MoveClock(30.0, False, 1, 12.5, 0, 6)
    presence = Presence("t1", (seat("ann"), seat("bob")), clock=clock)
    assert decode_host(encode(presence)) == presence
    assert b"clock" not in encode(Presence("t1", (seat("ann"),)))
    opened = OpenTable("ann", ("me", "open"), move_time=172800.0)
    assert decode_client(encode(opened)) == opened
    assert decode_client(encode(OpenTable("ann", ("me", "open")))) == OpenTable(
        "ann", ("me", "open")
    )


def test_the_screen_readers_lobby_says_which_table_waits_for_your_move() -> None:
    from paris_tui.reader.lobby import table_line

    info = timed("t3", 1, 5 * 3600.0, "ann", "bob")
    assert table_line(2, info, "bob") == "2: table t3, ann, bob, move 3 of 40, your move for 5 h."
    assert table_line(2, info, "ann") == "2: table t3, ann, bob, move 3 of 40."
    assert table_line(2, info) == "2: table t3, ann, bob, move 3 of 40."
