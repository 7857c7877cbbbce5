"""Move times, turn-based tables and quick match: the pure part both sides share.

A table may be opened with a *move time*: the seconds a player has for a
move. Under :data:`TURN_BASED_FROM` (an hour) it is a real-time table whose
clock is shown as a bar; from an hour on it is a *turn-based* table (hours or
days per move), which waits for its players while they come and go. When a
move time runs out the host's AI plays that move for the player and says so.

The lobby's order (the tables waiting for your move first, the longest
waiting at the top) and quick match's choice (the fullest waiting table of
the size asked for, players of a near rating preferred) are functions of the
host's :class:`~paris_tui.net.protocol.TableInfo` list, so the host, the app
and the tests compute them the same way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence

from .protocol import TableInfo

__all__ = [
    "MAX_MOVE_TIME",
    "MIN_MOVE_TIME",
    "TURN_BASED_FROM",
    "RatingLookup",
    "is_turn_based",
    "move_time_words",
    "parse_move_time",
    "quick_match",
    "quick_seats",
    "tables_in_order",
    "waiting_for",
]

TURN_BASED_FROM = 3600.0
"""A move time of an hour or more makes a turn-based table."""
MIN_MOVE_TIME = 5.0
MAX_MOVE_TIME = 30 * 86400.0

_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0, "d": 86400.0}
_MOVE_TIME = re.compile(r"\s*(\d{1,6}(?:\.\d{1,3})?)\s*(s|m|min|h|d|)\s*", re.IGNORECASE)

RatingLookup = Callable[[str], float | None]
"""A player's rating by name, ``None`` for none: the host's ratings, as the lobby knows them."""


def parse_move_time(text: str) -> float:
    """``"45"``, ``"90s"``, ``"2m"``, ``"12h"``, ``"3d"`` as seconds; raises ``ValueError``."""
    match = _MOVE_TIME.fullmatch(text[:40])
    if match is None:
        raise ValueError(
            f"{text[:40]!r} is no move time: give seconds (90 or 90s), minutes (2m), "
            "hours (12h) or days (3d)"
        )
    seconds = float(match.group(1)) * _UNITS[match.group(2).lower()]
    return check_move_time(seconds)


def check_move_time(seconds: float) -> float:
    """``seconds`` if it is a move time a table may have; raises ``ValueError``."""
    if not math.isfinite(seconds) or not MIN_MOVE_TIME <= seconds <= MAX_MOVE_TIME:
        raise ValueError(
            f"a move time is {MIN_MOVE_TIME:.0f} seconds to {MAX_MOVE_TIME / 86400:.0f} days"
        )
    return seconds


def is_turn_based(move_time: float | None) -> bool:
    return move_time is not None and move_time >= TURN_BASED_FROM


def move_time_words(seconds: float) -> str:
    """A duration in its largest whole unit that fits: ``45 s``, ``3 min``, ``5 h``, ``2 d``."""
    seconds = max(0.0, seconds)
    if seconds >= 86400:
        return f"{seconds / 86400:.0f} d" if seconds >= 2 * 86400 else f"{seconds / 3600:.0f} h"
    if seconds >= 3600:
        return f"{seconds / 3600:.0f} h" if seconds >= 2 * 3600 else f"{seconds / 60:.0f} min"
    if seconds >= 120:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.0f} s"


def _to_move_name(info: TableInfo) -> str | None:
    if info.to_move is None or not 0 <= info.to_move < len(info.seats):
        return None
    return info.seats[info.to_move].name


def waiting_for(infos: Iterable[TableInfo], me: str | None) -> list[TableInfo]:
    """The timed tables where it is ``me``'s move, the longest-waiting first."""
    if not me:
        return []
    key = me.casefold()
    mine = [
        info
        for info in infos
        if not info.finished
        and info.move_time is not None
        and (_to_move_name(info) or "").casefold() == key
        and info.seats[info.to_move or 0].kind == "human"
    ]
    return sorted(mine, key=lambda t: (-(t.waited or 0.0), len(t.table), t.table))


def tables_in_order(infos: Sequence[TableInfo], me: str | None) -> list[TableInfo]:
    """The lobby's order: the tables waiting for ``me``'s move first (longest waiting
    at the top), then those keeping a free seat for ``me`` (an invitation), then every
    other table in the host's order."""
    first = waiting_for(infos, me)
    key = (me or "").casefold()
    first += [
        t
        for t in infos
        if key
        and t.waiting
        and any(s.status == "free" and s.name.casefold() == key for s in t.seats)
    ]
    ids = {t.table for t in first}
    return first + [t for t in infos if t.table not in ids]


def _mean_gap(info: TableInfo, mine: float, rating: RatingLookup) -> float:
    """How far the rated players waiting at ``info`` are from ``mine`` (0 if none is rated)."""
    found = [r for s in info.seats if s.name and (r := rating(s.name)) is not None]
    return abs(sum(found) / len(found) - mine) if found else 0.0


def quick_match(
    infos: Iterable[TableInfo],
    size: int,
    me: str | None = None,
    rating: RatingLookup | None = None,
) -> str | None:
    """The id of the waiting table quick match seats ``me`` at, or ``None`` (open one).

    The fullest table of ``size`` seats waiting for players (fewest free seats),
    and among those, with a ``rating`` lookup that knows ``me``, the one whose
    waiting players' mean rating is nearest; then the oldest (lowest id).
    """
    key = (me or "").casefold()
    candidates = [
        t
        for t in infos
        if t.waiting
        and not t.finished
        and len(t.seats) == size
        and any(s.status == "free" and not s.name for s in t.seats)  # not kept for a name
        and not any(s.name.casefold() == key for s in t.seats if key)
    ]
    if not candidates:
        return None
    mine = rating(me) if rating is not None and me else None

    def order(t: TableInfo) -> tuple[int, float, int, str]:
        gap = 0.0 if mine is None or rating is None else _mean_gap(t, mine, rating)
        return (t.free_seats, gap, len(t.table), t.table)

    return min(candidates, key=order).table


def quick_seats(size: int) -> tuple[str, ...]:
    """The seats of the table quick match opens when none waits: me, then open seats."""
    if not 2 <= size <= 4:
        raise ValueError(f"Paris Paris is for 2 to 4 players, not {size}")
    return ("me", *(["open"] * (size - 1)))
