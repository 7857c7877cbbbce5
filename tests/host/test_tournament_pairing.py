"""Tournament pairing and standings (paris_tui.host.tournaments): properties and worked examples.

Properties with hypothesis over random results: every active entrant seated once
a round (at a table or on a bye), no repeat meeting where a seating without one
exists (checked against a brute-force search on small fields), byes fair. The
worked examples of docs/tournaments.md are computed here and compared with the
page, so the page's numbers are the code's.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paris_tui.host.tournaments.engine import Entrant, Plan, next_round, seeds
from paris_tui.host.tournaments.pairing import (
    Round,
    Table,
    bye_counts,
    knockout_round,
    met_pairs,
    place_points,
    round_robin_round,
    swiss_round,
    table_sizes,
)
from paris_tui.host.tournaments.standings import points, standings

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"
NAMES = [f"p{i:02d}" for i in range(40)]


def finish(rnd: Round, rng: random.Random) -> Round:
    """``rnd`` with random places at every table (sometimes two level)."""
    tables = []
    for table in rnd.tables:
        order = list(range(len(table.seats)))
        rng.shuffle(order)
        places = [0] * len(order)
        for place, seat in enumerate(order, start=1):
            places[seat] = place
        if rng.random() < 0.15:  # the first two level
            second = order[1]
            places[second] = 1
        tables.append(Table(table.seats, tuple(places)))
    return Round(rnd.number, tuple(tables), rnd.byes)


def play(plan: Plan, entrants: list[Entrant], seed: int) -> list[Round]:
    rng = random.Random(seed)
    rounds: list[Round] = []
    for _ in range(40):
        rnd = next_round(plan, entrants, rounds)
        if rnd is None:
            break
        rounds.append(finish(rnd, rng))
    return rounds


def no_repeat_seating_exists(
    order: list[str], players: int, rounds: list[Round], byes_from: list[str]
) -> bool:
    """Brute force: a seating of ``order`` at :func:`table_sizes`' tables, the byes drawn
    from ``byes_from``, where no two have met."""
    sizes, bye_count = table_sizes(len(order), players)
    met = met_pairs(rounds)
    for byes in itertools.combinations(byes_from, bye_count):
        rest = [p for p in order if p not in byes]

        def seat(left: list[str], sizes_left: list[int]) -> bool:
            if not left:
                return True
            first = left[0]
            for others in itertools.combinations(left[1:], sizes_left[0] - 1):
                table = (first, *others)
                if any(frozenset(pair) in met for pair in itertools.combinations(table, 2)):
                    continue
                if seat([p for p in left if p not in table], sizes_left[1:]):
                    return True
            return False

        if seat(rest, sizes):
            return True
    return False


# --- points and sizes -------------------------------------------------------------------


def test_points_by_place() -> None:
    assert place_points((1, 2, 3, 4)) == (6, 4, 2, 0)
    assert place_points((2, 1, 3)) == (3, 6, 0)
    assert place_points((1, 2)) == (6, 0)
    assert place_points((1, 1)) == (3, 3)
    assert place_points((1, 1, 3, 4)) == (5, 5, 2, 0)
    assert place_points((1, 2, 2, 4)) == (6, 3, 3, 0)


def test_table_sizes() -> None:
    assert table_sizes(6, 4) == ([3, 3], 0)
    assert table_sizes(10, 4) == ([4, 3, 3], 0)
    assert table_sizes(5, 4) == ([4], 1)
    assert table_sizes(7, 3) == ([3, 3], 1)
    assert table_sizes(7, 2) == ([2, 2, 2], 1)


# --- properties -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(2, 14),
    players=st.sampled_from([2, 3, 4]),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 10_000),
    withdraw=st.integers(0, 2),
    late=st.integers(0, 2),
)
def test_swiss_seats_everyone_once_and_byes_are_fair(
    count: int, players: int, rounds: int, seed: int, withdraw: int, late: int
) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(NAMES[i], rating=rng.uniform(0, 40)) for i in range(count)]
    plan = Plan("swiss", players, rounds)
    played: list[Round] = []
    for number in range(1, rounds + 1):
        if number == 2:  # withdrawals and late joins before round 2
            for i in range(min(withdraw, len(entrants) - 2)):
                e = entrants[i]
                entrants[i] = Entrant(e.key, e.rating, e.joined, withdrawn=True)
            entrants += [Entrant(NAMES[30 + i], 10.0, joined=2) for i in range(late)]
        rnd = next_round(plan, entrants, played)
        active = {e.key for e in entrants if not e.withdrawn and e.joined <= number}
        if len(active) < 2:
            assert rnd is None
            return
        assert rnd is not None
        seated = [k for t in rnd.tables for k in t.seats] + list(rnd.byes)
        assert sorted(seated) == sorted(active), "each active entrant once a round"
        for table in rnd.tables:
            assert 2 <= len(table.seats) <= players
        before = bye_counts(played)
        if rnd.byes:  # nobody sits out again while one who plays has sat out less
            playing = active - set(rnd.byes)
            most = max(before.get(k, 0) for k in rnd.byes)
            assert not playing or most <= min(before.get(k, 0) for k in playing), "byes fair"
        played.append(finish(rnd, rng))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(3, 9),
    players=st.sampled_from([2, 3, 4]),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 10_000),
)
def test_swiss_repeats_only_when_unavoidable(
    count: int, players: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    order = NAMES[:count]
    played: list[Round] = []
    for _ in range(rounds):
        score = points(played)
        rnd = swiss_round(order, played, players, score)
        met = met_pairs(played)
        repeats = [
            pair
            for t in rnd.tables
            for pair in itertools.combinations(t.seats, 2)
            if frozenset(pair) in met
        ]
        if repeats:
            had = bye_counts(played)
            fewest = min(had.get(p, 0) for p in order)
            pool = [p for p in order if had.get(p, 0) == fewest]
            _sizes, byes = table_sizes(count, players)
            if len(pool) >= byes:
                assert not no_repeat_seating_exists(order, players, played, pool), (
                    f"a repeat {repeats} where a seating without one exists"
                )
        played.append(finish(rnd, rng))


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 13))
def test_round_robin_two_a_table_meets_everyone_once(count: int) -> None:
    entrants = [Entrant(NAMES[i], rating=40 - i) for i in range(count)]
    rounds = play(Plan("round-robin", 2, 0), entrants, seed=count)
    pairs = [frozenset(t.seats) for r in rounds for t in r.tables]
    assert len(pairs) == len(set(pairs)) == count * (count - 1) // 2
    assert all(sum(r.byes.count(k) for r in rounds) == count % 2 for k in NAMES[:count])


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 20), players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 999))
def test_knockout_ends_with_one_final_table(count: int, players: int, seed: int) -> None:
    entrants = [Entrant(NAMES[i], rating=40 - i) for i in range(count)]
    rounds = play(Plan("knockout", players, 0), entrants, seed)
    assert rounds
    assert len(rounds[-1].tables) == 1 and not rounds[-1].byes
    assert len(rounds[-1].tables[0].seats) <= players
    for rnd in rounds:
        seated = [k for t in rnd.tables for k in t.seats] + list(rnd.byes)
        assert len(seated) == len(set(seated))


# --- specific rules ---------------------------------------------------------------------


def test_dutch_first_round_is_top_half_against_bottom_half() -> None:
    order = NAMES[:8]
    rnd = swiss_round(order, [], 2, {})
    assert [t.seats for t in rnd.tables] == [
        ("p00", "p04"),
        ("p01", "p05"),
        ("p02", "p06"),
        ("p03", "p07"),
    ]


@pytest.mark.parametrize(
    ("winners", "expected"),
    [
        # The seeds win: each score group's top half meets its bottom half.
        ("1234", [("1", "3"), ("2", "4"), ("5", "7"), ("6", "8")]),
        # Two upsets: the group of six points is 1 3 6 8 by rating, so 1-6 and 3-8.
        ("1368", [("1", "6"), ("3", "8"), ("2", "5"), ("4", "7")]),
    ],
)
def test_dutch_second_round_pairs_each_score_group_by_halves(
    winners: str, expected: list[tuple[str, str]]
) -> None:
    """FIDE's Dutch system (C.04.3) without colours, which Paris Paris has none of: the
    second round of eight players after round 1's 1-5 2-6 3-7 4-8."""
    order = [str(i) for i in range(1, 9)]
    r1 = swiss_round(order, [], 2, {})
    assert [t.seats for t in r1.tables] == [("1", "5"), ("2", "6"), ("3", "7"), ("4", "8")]
    done = Round(
        1,
        tuple(Table(t.seats, (1, 2) if t.seats[0] in winners else (2, 1)) for t in r1.tables),
        (),
    )
    points_ = {k: 6.0 if k in winners else 0.0 for k in order}
    assert [t.seats for t in swiss_round(order, [done], 2, points_).tables] == expected


def test_bye_goes_to_the_lowest_without_one() -> None:
    order = NAMES[:5]
    r1 = swiss_round(order, [], 2, {})
    assert r1.byes == ("p04",)
    done = finish(r1, random.Random(1))
    r2 = swiss_round(order, [done], 2, points([done]))
    assert r2.byes and r2.byes[0] != "p04"


# FIDE's Berger tables (FIDE Handbook C.05, Annex 1), the first-named player first:
# the published schedules for 4, 6 and 8 players (5 and 7 play them with a bye for
# whoever meets the missing last number).
BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
}


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_round_robin_two_a_table_is_fides_berger_tables(count: int) -> None:
    size = count + count % 2
    seeds_ = [str(i) for i in range(1, count + 1)]
    played: list[Round] = []
    for number, published in enumerate(BERGER[size], 1):
        rnd = round_robin_round(seeds_, seeds_, played, 2)
        pairs = [tuple(pair.split("-")) for pair in published.split()]
        assert rnd.number == number
        assert [t.seats for t in rnd.tables] == [
            p for p in pairs if str(size) not in p or size == count
        ]
        assert list(rnd.byes) == [
            a if b == str(size) else b for a, b in pairs if str(size) in (a, b)
        ] * (count % 2)
        played.append(rnd)


def test_round_robin_withdrawal_gives_the_opponent_a_bye() -> None:
    seeds_ = NAMES[:4]
    rnd = round_robin_round(seeds_, seeds_[1:], [], 2)
    assert "p00" not in [k for t in rnd.tables for k in t.seats]
    assert len(rnd.byes) == 1


def test_knockout_two_a_table_seeds_byes_to_the_best() -> None:
    rnd = knockout_round(NAMES[:6], 1, 2)
    assert rnd.byes == ("p00", "p01")
    assert [t.seats for t in rnd.tables] == [("p02", "p05"), ("p03", "p04")]


def test_knockout_four_a_table_snake() -> None:
    rnd = knockout_round(NAMES[:8], 1, 4)
    assert [t.seats for t in rnd.tables] == [
        ("p00", "p03", "p04", "p07"),
        ("p01", "p02", "p05", "p06"),
    ]


# --- the worked examples of docs/tournaments.md -----------------------------------------


def _fmt(value: float) -> str:
    return f"{value:g}"


def render(plan: Plan, entrants: list[Entrant], results: list[list[tuple[int, ...]]]) -> str:
    """Pair each round with the code, give its tables the places of ``results``, and write
    the pairings and the final standings as docs/tournaments.md shows them."""
    rounds: list[Round] = []
    lines: list[str] = []
    for places in results:
        rnd = next_round(plan, entrants, rounds)
        assert rnd is not None
        tables = tuple(Table(t.seats, p) for t, p in zip(rnd.tables, places, strict=True))
        rnd = Round(rnd.number, tables, rnd.byes)
        rounds.append(rnd)
        cells = [
            " ".join(f"{k}({p})" for k, p in zip(t.seats, t.places or (), strict=True))
            for t in rnd.tables
        ]
        bye = f" | bye: {', '.join(rnd.byes)}" if rnd.byes else ""
        lines.append(f"round {rnd.number}: " + " | ".join(cells) + bye)
    lines.append("")
    if plan.players == 2:
        lines.append("rank player points Buchholz Sonneborn-Berger")
    else:
        lines.append("rank player points places Buchholz Sonneborn-Berger")
    for row in standings(seeds(entrants), rounds, plan.players):
        cells = [str(row.rank), row.key, _fmt(row.points)]
        if plan.players != 2:
            cells.append(_fmt(row.place_sum))
        cells += [_fmt(row.buchholz), _fmt(row.sonneborn_berger)]
        lines.append(" ".join(cells))
    return "\n".join(lines)


EXAMPLES = {
    "swiss-2": (
        Plan("swiss", 2, 3),
        [Entrant(k, r) for k, r in zip("ABCDE", (30, 25, 20, 15, 10), strict=True)],
        [
            [(1, 2), (2, 1)],
            [(1, 2), (1, 2)],
            [(2, 1), (1, 1)],
        ],
    ),
    "swiss-3": (
        Plan("swiss", 3, 2),
        [Entrant(k, r) for k, r in zip("ABCDEF", (30, 25, 20, 15, 10, 5), strict=True)],
        [
            [(1, 2, 3), (3, 1, 2)],
            [(2, 1, 3), (1, 3, 2)],
        ],
    ),
}


def doc_block(name: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- example: {re.escape(name)} -->\s*```text\n(.*?)\n```", text, re.S)
    assert found, f"docs/tournaments.md has no example {name}"
    return found.group(1)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_worked_examples_are_the_codes(name: str) -> None:
    plan, entrants, results = EXAMPLES[name]
    assert doc_block(name) == render(plan, entrants, results)


def test_knockout_standings_rank_by_how_far_one_got() -> None:
    seeds_ = NAMES[:6]  # p00 and p01 have byes in round 1
    r1 = Round(
        1,
        (Table(("p02", "p05"), (2, 1)), Table(("p03", "p04"), (1, 2))),
        ("p00", "p01"),
    )
    r2 = Round(2, (Table(("p00", "p05"), (2, 1)), Table(("p01", "p03"), (1, 2))))
    r3 = Round(3, (Table(("p05", "p01"), (2, 1)),))
    rows = standings(seeds_, [r1, r2, r3], 2, knockout=True)
    # the final's order; then round 2's losers (p03's 6 points above p00's bye, 3);
    # then round 1's, level on points: p02 lost to p05 (12 points), p04 to p03 (6)
    assert [r.key for r in rows] == ["p01", "p05", "p03", "p00", "p02", "p04"]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    # the final decides even against points: the loser of a final with more points
    # than the winner (a bye is 3, a win 6) is still second
    final = Round(3, (Table(("p05", "p01"), (1, 2)),))
    rows = standings(seeds_, [r1, r2, final], 2, knockout=True)
    assert [r.key for r in rows][:2] == ["p05", "p01"]
    late = Round(3, (Table(("p01", "p05"), (1, 2)),))
    assert [r.key for r in standings(seeds_, [r1, r2, late], 2, knockout=True)][:2] == [
        "p01",
        "p05",
    ]
