"""Ratings on the wire (issue 22): additive fields of protocol messages.

Older clients ignore keys they do not know, so these travel in messages they
already read, under new keys (no new message type, no new version):

* a seat's ``rating`` (:class:`~paris_tui.net.protocol.SeatInfo`): its
  account's shown rating (the ordinal ``mu - 3 sigma``) in tenths, absent
  before its first rated game;
* the ``leaderboard`` of :class:`~paris_tui.net.protocol.Tables`: the best
  accounts' names, shown ratings (tenths) and rated games;
* the ``result`` of :class:`~paris_tui.net.protocol.Presence` once a game is
  over: rated or why not, each seat's place (a leaver last), and each seat's
  shown rating before and after (tenths; absent when unrated).

Ratings are whole tenths so that no float crosses the wire.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .wire import WireError, boolean, choice, field, integer, items, obj, opt_integer, text

__all__ = [
    "RATING_REASONS",
    "Leader",
    "RatedResult",
    "leader_from_json",
    "leader_to_json",
    "result_from_json",
    "result_to_json",
    "tenths",
]

RATING_REASONS: tuple[str, ...] = ("ai_seat", "takeover", "leaver", "no_account")
_LIMIT = 100_000  # |rating| in tenths: the model's ordinals stay far inside


def tenths(value: float | None) -> int | None:
    return None if value is None else round(value * 10)


@dataclass(frozen=True, slots=True)
class Leader:
    """A leaderboard row: ``rating`` in tenths."""

    name: str
    rating: int
    games: int


@dataclass(frozen=True, slots=True)
class RatedResult:
    """How a finished game was rated; ratings in tenths (``None``: not rated)."""

    rated: bool
    reason: str | None
    ranks: tuple[int, ...]
    leavers: tuple[int, ...] = ()
    before: tuple[int | None, ...] = ()
    after: tuple[int | None, ...] = ()


def leader_to_json(row: Leader) -> dict[str, Any]:
    return {"name": row.name, "rating": row.rating, "games": row.games}


def leader_from_json(value: object, where: str) -> Leader:
    data = obj(value, where)
    return Leader(
        text(field(data, "name", where), f"{where}.name", limit=1000),
        integer(field(data, "rating", where), f"{where}.rating", -_LIMIT, _LIMIT),
        integer(field(data, "games", where), f"{where}.games", 0, 10**9),
    )


def result_to_json(result: RatedResult) -> dict[str, Any]:
    return {
        "rated": result.rated,
        "reason": result.reason,
        "ranks": list(result.ranks),
        "leavers": list(result.leavers),
        "before": list(result.before),
        "after": list(result.after),
    }


def _place(value: object, where: str) -> int:
    return integer(value, where, 1, 4)


def _seat(value: object, where: str) -> int:
    return integer(value, where, 0, 3)


def _rating(value: object, where: str) -> int | None:
    return opt_integer(value, where, -_LIMIT, _LIMIT)


def result_from_json(value: object, where: str = "result") -> RatedResult:
    data = obj(value, where)
    reason = data.get("reason")
    if reason is not None:
        reason = choice(reason, f"{where}.reason", RATING_REASONS)
    result = RatedResult(
        boolean(field(data, "rated", where), f"{where}.rated"),
        reason,
        items(field(data, "ranks", where), f"{where}.ranks", _place, limit=4),
        items(data.get("leavers", []), f"{where}.leavers", _seat, limit=4),
        items(data.get("before", []), f"{where}.before", _rating, limit=4),
        items(data.get("after", []), f"{where}.after", _rating, limit=4),
    )
    if result.rated == (reason is not None):
        raise WireError(where, "a rated game has no reason, an unrated one has one")
    return result
