"""A stop's businesses as one small integer, and the tables of what that integer means.

The engine's hot path never builds a tuple of owners: a stop's businesses
are its *state*, 0 for an empty stop, then one number for every sorted tuple
of owners (one or two seats). Opening a business, removing one and listing
the legal moves are lookups in :class:`StopTables`, built once per board and
player count, and copying a position copies a flat list of ints. The game
(:mod:`.game`) changes states with these tables, the tours (:mod:`.scoring`)
read the owners out of them.

>>> from paris_tui.core.board import classic_board
>>> tables = stop_tables(classic_board(), 2)
>>> tables.owners[tables.add[tables.add[0][1]][0]]
(0, 1)
>>> tables.owners[tables.remove[tables.add[0][1]][1]]
()
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .board import Board

__all__ = ["StopTables", "stop_tables"]


@dataclass(frozen=True, slots=True)
class StopTables:
    """Precomputed per (board, player count): what a stop's state means and becomes.

    A move's integer code is ``tile kind * 8``, plus ``evict + 1`` when it
    removes seat ``evict``'s business (see :meth:`paris_tui.core.Game.encode`).
    """

    owners: tuple[tuple[int, ...], ...]  # state -> owners, sorted
    add: tuple[tuple[int, ...], ...]  # state, seat -> state with a business of seat more
    remove: tuple[tuple[int, ...], ...]  # state, seat -> state with one of seat's removed
    moves: tuple[tuple[tuple[int, ...], ...], ...]  # tile kind, state -> legal move codes


@cache
def stop_tables(board: Board, players: int) -> StopTables:
    """The tables of ``board`` with ``players`` seats (built once, then shared)."""
    states: list[tuple[int, ...]] = [()]
    states += [(p,) for p in range(players)]
    states += [(a, b) for a in range(players) for b in range(a, players)]
    index = {st: i for i, st in enumerate(states)}

    def without(st: tuple[int, ...], seat: int) -> int:
        if seat not in st:
            return -1
        rest = list(st)
        rest.remove(seat)
        return index[tuple(rest)]

    add = tuple(
        tuple(index.get(tuple(sorted((*st, p))), -1) for p in range(players)) for st in states
    )
    remove = tuple(tuple(without(st, p) for p in range(players)) for st in states)
    moves = tuple(
        tuple(
            (kind.index << 3,)
            if len(st) < board.capacity[kind.stop]
            else tuple((kind.index << 3) + v + 1 for v in sorted(set(st)))
            for st in states
        )
        for kind in board.tile_kinds
    )
    return StopTables(tuple(states), add, remove, moves)
