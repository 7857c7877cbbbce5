"""A tournament's standings: points by place, and the tie-breaks (pure Python, no I/O).

Points: :func:`~paris_tui.host.tournaments.pairing.place_points` (BGA's
+6/+4/+2/0 at four; 6/3/0 at three; 6/0 at two; players level share).
A bye is worth :data:`BYE_POINTS`, the mean of a table's points, so sitting
out neither helps nor hurts on average. An unfinished table counts nothing yet.

Tie-breaks, in order (docs/tournaments.md):

- two a table: **Buchholz** (the sum, over one's tables, of the opponent's
  points), then **Sonneborn-Berger** (the sum of each opponent's points
  weighted by the share of the table's top points one took from that game:
  a win counts the opponent's points whole, a draw half, a loss nothing);
- three or four a table: the **sum of places** (lower is better; a bye counts
  the middle place, ``(n + 1) / 2``), then Buchholz (the mean points of the
  others at each of one's tables, summed), then Sonneborn-Berger the same way;
- last, the seed (a better rating first).

A knockout ranks first by how far one got (the last round one played or had a
bye in), then by one's place at that round's table (the final's order at the
top), then as above.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paris_tui.host.tournaments.pairing import TOP_POINTS, Round, place_points

__all__ = ["BYE_POINTS", "Standing", "points", "standings"]

BYE_POINTS = TOP_POINTS / 2


@dataclass(frozen=True)
class Standing:
    rank: int
    key: str
    points: float
    buchholz: float
    sonneborn_berger: float
    place_sum: float
    tables: int
    byes: int
    withdrawn: bool = False


def points(rounds: Sequence[Round]) -> dict[str, float]:
    """Each player's points from the finished tables and the byes of ``rounds``."""
    total: dict[str, float] = {}
    for rnd in rounds:
        for key in rnd.byes:
            total[key] = total.get(key, 0.0) + BYE_POINTS
        for table in rnd.tables:
            if table.places is None:
                continue
            for key, got in zip(table.seats, place_points(table.places), strict=True):
                total[key] = total.get(key, 0.0) + got
    return total


def standings(
    seeds: Sequence[str],
    rounds: Sequence[Round],
    players: int,
    withdrawn: Sequence[str] = (),
    *,
    knockout: bool = False,
) -> list[Standing]:
    """The standings of the entrants ``seeds`` (best seed first) after ``rounds``, at
    tables of ``players`` (``knockout``: by how far one got first); players level on
    every tie-break share a rank."""
    score = points(rounds)
    buchholz = dict.fromkeys(seeds, 0.0)
    berger = dict.fromkeys(seeds, 0.0)
    places = dict.fromkeys(seeds, 0.0)
    tables = dict.fromkeys(seeds, 0)
    byes = dict.fromkeys(seeds, 0)
    middle = (players + 1) / 2
    reached: dict[str, tuple[int, int]] = {}  # key -> (last round, minus the place there)
    for rnd in rounds:
        for key in rnd.byes:
            reached[key] = (rnd.number, -1)
            byes[key] = byes.get(key, 0) + 1
            places[key] = places.get(key, 0.0) + middle
        for table in rnd.tables:
            if table.places is None:
                continue
            got = place_points(table.places)
            for i, key in enumerate(table.seats):
                others = [score.get(o, 0.0) for j, o in enumerate(table.seats) if j != i]
                mean = sum(others) / len(others)
                buchholz[key] = buchholz.get(key, 0.0) + mean
                berger[key] = berger.get(key, 0.0) + mean * got[i] / TOP_POINTS
                places[key] = places.get(key, 0.0) + table.places[i]
                tables[key] = tables.get(key, 0) + 1
                reached[key] = (rnd.number, -table.places[i])
    seed = {p: i for i, p in enumerate(seeds)}
    out = set(withdrawn)

    def breaks(key: str) -> tuple[float, ...]:
        far: tuple[float, ...] = ()
        if knockout:
            last, minus_place = reached.get(key, (0, 0))
            far = (-last, -minus_place)
        if players == 2:
            return (*far, -score.get(key, 0.0), -buchholz[key], -berger[key])
        return (*far, -score.get(key, 0.0), places[key], -buchholz[key], -berger[key])

    order = sorted(seeds, key=lambda k: (breaks(k), seed[k]))
    rows: list[Standing] = []
    for i, key in enumerate(order):
        rank = i + 1
        if rows and breaks(order[i - 1]) == breaks(key):
            rank = rows[-1].rank
        rows.append(
            Standing(
                rank,
                key,
                round(score.get(key, 0.0), 4),
                round(buchholz[key], 4),
                round(berger[key], 4),
                round(places[key], 4),
                tables[key],
                byes[key],
                key in out,
            )
        )
    return rows
