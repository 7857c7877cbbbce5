"""A tournament's rounds, paired: Swiss, round robin and knockout, for tables of 2 to 4.

Pure Python, no I/O: every function takes the entrants (keys, best seed
first) and the rounds played so far and returns the next :class:`Round`'s
tables and byes. docs/tournaments.md states the rules in words, with worked
examples that tests/host/test_tournament_pairing.py computes.

- **Swiss** (:func:`swiss_round`): players ordered by points, then seed. Two
  players a table: a Dutch-style pairing, each score group (with the one who
  floated down from the group above) split in a top and a bottom half, the
  top half's k-th player meeting the bottom half's k-th. Three or four a
  table: tables filled from the top of that order. In both, no two players
  meet twice while any seating without a repeat exists (a complete search,
  bounded by :data:`SEARCH_BUDGET`; past it, the fewest repeats a greedy fill
  finds); where the preferred partner is taken or already met, the nearest
  in points, then in order, takes the place.
- **Byes**: when the players do not fill the tables (:func:`table_sizes`), the
  players with the fewest byes so far sit out, lowest in the order first, and
  a second bye never goes to anyone while an active player has had none.
- **Round robin** (:func:`round_robin_round`): two a table, FIDE's Berger
  tables (the last place fixed, the others turning half the ring a round; an
  odd count adds a missing last place, whose partner has the bye); three or four a
  table, the Swiss seating without the points, so everyone meets as many
  new opponents as the tables allow.
- **Knockout** (:func:`knockout_round`): seeded by rating; two a table, the
  best seeds take the byes up to a power of two and the others meet best
  against worst; three or four a table, the seeds dealt out to the tables in
  a snake. The first of each table goes on (the first two at tables of four),
  until one table is left: the final.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

__all__ = [
    "FORMATS",
    "SEARCH_BUDGET",
    "Format",
    "Round",
    "Table",
    "advancing",
    "bye_counts",
    "knockout_round",
    "knockout_rounds",
    "met_pairs",
    "place_points",
    "round_robin_round",
    "round_robin_rounds",
    "swiss_round",
    "table_sizes",
]

Format = Literal["swiss", "round-robin", "knockout"]
FORMATS: tuple[str, ...] = get_args(Format)

TOP_POINTS = 6
"""Points of a table's first (BGA's +6/+4/+2/0 at four, :func:`place_points`)."""
SEARCH_BUDGET = 20_000
"""Tables tried at most by the search for a seating without repeats."""


@dataclass(frozen=True)
class Table:
    """One table of a round: its players' keys in seat order, and once it is over the
    place of each (1 first; players level share the better place: 1, 1, 3)."""

    seats: tuple[str, ...]
    places: tuple[int, ...] | None = None

    @property
    def over(self) -> bool:
        return self.places is not None


@dataclass(frozen=True)
class Round:
    """A round: its tables and who sat out (a bye)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return all(t.over for t in self.tables)


def place_points(places: Sequence[int]) -> tuple[float, ...]:
    """Each seat's points from its place: a table of n gives place p the points
    ``6 * (n - p) / (n - 1)`` (four: 6, 4, 2, 0; three: 6, 3, 0; two: 6, 0), and players
    level share the mean of the places they cover (two level first at four: 5 each)."""
    n = len(places)
    if n < 2:
        return tuple(float(TOP_POINTS) for _ in places)
    base = [TOP_POINTS * (n - p) / (n - 1) for p in range(1, n + 1)]
    out: list[float] = []
    for place in places:
        level = sum(1 for q in places if q == place)
        covered = base[place - 1 : place - 1 + level]
        out.append(sum(covered) / len(covered) if covered else 0.0)
    return tuple(out)


def met_pairs(rounds: Iterable[Round]) -> set[frozenset[str]]:
    """Every two players who shared a table."""
    met: set[frozenset[str]] = set()
    for rnd in rounds:
        for table in rnd.tables:
            for a, b in itertools.combinations(table.seats, 2):
                met.add(frozenset((a, b)))
    return met


def bye_counts(rounds: Iterable[Round]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for rnd in rounds:
        for key in rnd.byes:
            counts[key] = counts.get(key, 0) + 1
    return counts


def table_sizes(count: int, players: int) -> tuple[list[int], int]:
    """The tables' sizes for ``count`` players at tables of ``players``, and the byes.

    Tables of four are full where they can be; otherwise one to three tables of
    three take the rest (10 players: 4 + 3 + 3). Tables of two and three leave the
    remainder out (byes), as does four when too few remain for tables of three."""
    if count < 2:
        return [], count
    if players == 4:
        rest = count % 4
        threes = (4 - rest) % 4
        if count >= 3 * threes:
            fours = (count - 3 * threes) // 4
            return [4] * fours + [3] * threes, 0
    size = min(players, count)
    return [size] * (count // size), count % size


# --- the search -------------------------------------------------------------------------


class _Spent(Exception):
    pass


Prefer = Callable[[str, list[str]], list[str]]


def _seat(
    order: list[str], sizes: list[int], met: set[frozenset[str]], prefer: Prefer
) -> list[tuple[str, ...]] | None:
    """Tables of ``sizes`` for ``order`` where no two have met (``None``: there are none,
    or the search ran out of :data:`SEARCH_BUDGET`). The first unseated player opens
    each table and ``prefer`` orders the candidates to sit with them."""
    spent = [0]

    def tables(remaining: list[str], left: list[int]) -> list[tuple[str, ...]] | None:
        if not remaining:
            return []
        first, rest = remaining[0], remaining[1:]
        for company in _companies(first, prefer(first, rest), left[0] - 1, met):
            spent[0] += 1
            if spent[0] > SEARCH_BUDGET:
                raise _Spent
            taken = set(company)
            found = tables([p for p in rest if p not in taken], left[1:])
            if found is not None:
                return [(first, *company), *found]
        return None

    try:
        return tables(order, sizes)
    except _Spent:
        return None


def _companies(
    first: str, candidates: list[str], need: int, met: set[frozenset[str]]
) -> Iterable[tuple[str, ...]]:
    """The sets of ``need`` candidates who met neither ``first`` nor each other,
    in the candidates' order of preference."""
    fresh = [c for c in candidates if frozenset((first, c)) not in met]
    for combo in itertools.combinations(fresh, need):
        if all(frozenset((a, b)) not in met for a, b in itertools.combinations(combo, 2)):
            yield combo


def _greedy(
    order: list[str], sizes: list[int], met: set[frozenset[str]], prefer: Prefer
) -> list[tuple[str, ...]]:
    """Tables with as few repeats as a fill from the top finds: each seat goes to the
    candidate who met the fewest of the table so far (ties: the preferred)."""
    remaining = list(order)
    out: list[tuple[str, ...]] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            ranked = prefer(table[0], remaining)
            best = min(
                ranked,
                key=lambda c: (sum(frozenset((c, t)) in met for t in table), ranked.index(c)),
            )
            remaining.remove(best)
            table.append(best)
        out.append(tuple(table))
    return out


def _seat_with_byes(
    order: list[str],
    players: int,
    rounds: Sequence[Round],
    prefer_for: Callable[[list[str]], Prefer],
) -> tuple[list[tuple[str, ...]], list[str]]:
    """The tables and byes for ``order`` (best first): the byes go to the players with the
    fewest byes so far, lowest first, and among those to ones that leave a seating
    without repeats when one exists."""
    sizes, bye_count = table_sizes(len(order), players)
    met = met_pairs(rounds)
    had = bye_counts(rounds)
    options: list[tuple[str, ...]] = [()]
    if bye_count:
        fewest = min(had.get(p, 0) for p in order)
        pool = [p for p in reversed(order) if had.get(p, 0) == fewest]
        if len(pool) < bye_count:
            more = [p for p in reversed(order) if p not in pool]
            more.sort(key=lambda p: had.get(p, 0))
            pool += more[: bye_count - len(pool)]
            options = [tuple(pool)]
        else:
            options = list(itertools.islice(itertools.combinations(pool, bye_count), 64))
    for byes in options:
        rest = [p for p in order if p not in byes]
        found = _seat(rest, sizes, met, prefer_for(rest))
        if found is not None:
            return found, list(byes)
    byes = options[0]
    rest = [p for p in order if p not in byes]
    return _greedy(rest, sizes, met, prefer_for(rest)), list(byes)


# --- Swiss ------------------------------------------------------------------------------


def _dutch_partners(order: list[str], points: dict[str, float]) -> dict[str, str]:
    """Each player's Dutch partner: score groups from the top, the lowest of an odd group
    floating down, the top half's k-th against the bottom half's k-th."""
    partner: dict[str, str] = {}
    carry: list[str] = []
    for _score, group in itertools.groupby(order, key=lambda p: points.get(p, 0.0)):
        pool = carry + list(group)
        carry = [pool.pop()] if len(pool) % 2 else []
        half = len(pool) // 2
        for a, b in zip(pool[:half], pool[half:], strict=True):
            partner[a], partner[b] = b, a
    return partner


def swiss_round(
    entrants: Sequence[str],
    rounds: Sequence[Round],
    players: int,
    points: dict[str, float],
) -> Round:
    """The next Swiss round for the active ``entrants`` (best seed first) after ``rounds``,
    with ``points`` each so far (:func:`standings.points`)."""
    seed = {p: i for i, p in enumerate(entrants)}
    order = sorted(entrants, key=lambda p: (-points.get(p, 0.0), seed[p]))
    pos = {p: i for i, p in enumerate(order)}

    def prefer_for(rest: list[str]) -> Prefer:
        partners = _dutch_partners(rest, points) if players == 2 else {}

        def prefer(first: str, candidates: list[str]) -> list[str]:
            ideal = partners.get(first)
            anchor = pos[ideal] if ideal is not None else pos[first]

            def key(c: str) -> tuple[bool, float, int, int]:
                gap = abs(points.get(first, 0.0) - points.get(c, 0.0))
                return (c != ideal, gap, abs(pos[c] - anchor), pos[c])

            return sorted(candidates, key=key)

        return prefer

    tables, byes = _seat_with_byes(order, players, rounds, prefer_for)
    return Round(len(rounds) + 1, tuple(Table(t) for t in tables), tuple(byes))


# --- round robin --------------------------------------------------------------------------


def round_robin_rounds(count: int, players: int) -> int:
    """Rounds of a round robin of ``count``: two a table, everyone meets everyone once
    (``count - 1`` rounds, ``count`` when odd); more a table, each meets at least
    ``players - 1`` new opponents a round, so ``ceil((count - 1) / (players - 1))``."""
    if players == 2:
        return count if count % 2 else count - 1
    return max(1, math.ceil((count - 1) / (players - 1)))


def _berger(seeds: Sequence[str], number: int) -> tuple[list[tuple[str, str]], list[str]]:
    """Round ``number`` (1-based) of FIDE's Berger tables for ``seeds`` (best first): its
    pairs, the first-named first (the first seat), and its bye.

    With ``n`` places (an odd count adds a last, missing one, whose partner has the
    bye), place ``n`` meets place ``p = (r - 1) * n / 2 mod (n - 1) + 1`` in round
    ``r``, ``p`` first in odd rounds; the others meet ``p + k`` first against ``p - k``
    (``k = 1 .. n/2 - 1``, counted round the ``n - 1`` other places). Round 1 is
    1-n, 2-(n-1), ...; every round of the published tables is this one's.
    """
    ring: list[str | None] = list(seeds)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    if n < 2:
        return [], [s for s in ring if s is not None]
    others = n - 1
    r = (number - 1) % others  # rounds past the schedule turn it again
    p = r * (n // 2) % others  # 0-based among the first n - 1 places
    meetings: list[tuple[str | None, str | None]] = [
        (ring[p], ring[-1]) if r % 2 == 0 else (ring[-1], ring[p])
    ]
    for k in range(1, n // 2):
        meetings.append((ring[(p + k) % others], ring[(p - k) % others]))
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    for a, b in meetings:
        if a is None or b is None:
            byes.extend(x for x in (a, b) if x is not None)
        else:
            pairs.append((a, b))
    return pairs, byes


def round_robin_round(
    seeds: Sequence[str],
    active: Sequence[str],
    rounds: Sequence[Round],
    players: int,
) -> Round:
    """The next round of a round robin of ``seeds`` (every entrant at the start, best
    first); a player of ``seeds`` no longer ``active`` (withdrawn) leaves their
    opponent a bye."""
    number = len(rounds) + 1
    if players == 2:
        pairs, byes = _berger(seeds, number)
        live = set(active)
        tables: list[Table] = []
        for a, b in pairs:
            if a in live and b in live:
                tables.append(Table((a, b)))
            else:
                byes.extend(x for x in (a, b) if x in live)
        return Round(number, tuple(tables), tuple(p for p in byes if p in live))
    return swiss_round([p for p in seeds if p in set(active)], rounds, players, {})


# --- knockout ---------------------------------------------------------------------------


def _advance_per_table(players: int) -> int:
    return 2 if players == 4 else 1


def knockout_rounds(count: int, players: int) -> int:
    """Rounds of a knockout of ``count`` at tables of ``players``."""
    left, rounds = count, 0
    while left > 1:
        rounds += 1
        if left <= players:
            break
        if players == 2:
            left = 2 ** math.ceil(math.log2(left)) // 2
        else:
            left = math.ceil(left / players) * _advance_per_table(players)
    return rounds


def knockout_round(seeds: Sequence[str], number: int, players: int) -> Round:
    """Round ``number`` of a knockout for ``seeds``, the players still in, best first
    (by rating in the first round, then by :func:`advancing`'s order)."""
    count = len(seeds)
    if count <= players:
        return Round(number, (Table(tuple(seeds)),) if count > 1 else (), ())
    if players == 2:
        bracket = 2 ** math.ceil(math.log2(count))
        byes = list(seeds[: bracket - count])
        rest = list(seeds[bracket - count :])
        half = len(rest) // 2
        pairs = [(rest[i], rest[len(rest) - 1 - i]) for i in range(half)]
        return Round(number, tuple(Table(p) for p in pairs), tuple(byes))
    tables_n = math.ceil(count / players)
    seated: list[list[str]] = [[] for _ in range(tables_n)]
    for i, key in enumerate(seeds):
        lap, at = divmod(i, tables_n)
        seated[at if lap % 2 == 0 else tables_n - 1 - at].append(key)
    return Round(number, tuple(Table(tuple(t)) for t in seated if len(t) > 1), ())


def advancing(rnd: Round, seeds: Sequence[str], players: int) -> list[str]:
    """Who goes on from a finished knockout round: its byes and each table's first (first
    two at four), ordered by place, then by seed; a tie at the cut goes to the better
    seed. Empty when the round was the final."""
    if len(rnd.tables) == 1 and not rnd.byes:
        return []
    rank = {p: i for i, p in enumerate(seeds)}
    keep = _advance_per_table(players)
    on: list[tuple[int, int, str]] = [(1, rank.get(p, 0), p) for p in rnd.byes]
    for table in rnd.tables:
        places = table.places or tuple(range(1, len(table.seats) + 1))
        ordered = sorted(zip(places, table.seats, strict=True), key=lambda x: (x[0], rank[x[1]]))
        on.extend((place, rank[p], p) for place, p in ordered[:keep])
    return [p for _place, _rank, p in sorted(on)]
