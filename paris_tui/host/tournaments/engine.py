"""A tournament's next round from its settings, its entrants and its rounds so far (pure).

:func:`next_round` is what a host calls when a round is over (or at the
start): it chooses the players still in (late joins from their round on,
withdrawals left out), the format's pairing, and says when the tournament is
over (``None``). docs/tournaments.md says it in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paris_tui.host.tournaments.pairing import (
    Round,
    advancing,
    knockout_round,
    round_robin_round,
    round_robin_rounds,
    swiss_round,
)
from paris_tui.host.tournaments.standings import points

__all__ = ["Entrant", "Plan", "knockout_seeds", "next_round", "seeds", "total_rounds"]


@dataclass(frozen=True)
class Plan:
    """What the operator chose: the format, players a table, rounds (Swiss)."""

    format: str
    players: int
    rounds: int


@dataclass(frozen=True)
class Entrant:
    """An entrant: their key, their rating at entry, the round they joined for (1: from
    the start) and whether they withdrew."""

    key: str
    rating: float = 0.0
    joined: int = 1
    withdrawn: bool = False


def seeds(entrants: Sequence[Entrant]) -> list[str]:
    """The entrants' keys, best seed first: a higher rating, then the key."""
    return [e.key for e in sorted(entrants, key=lambda e: (-e.rating, e.key))]


def knockout_seeds(entrants: Sequence[Entrant], rounds: Sequence[Round], players: int) -> list[str]:
    """Who is still in a knockout after ``rounds`` (the finished ones), best first."""
    live = {e.key for e in entrants if not e.withdrawn}
    order = [k for k in seeds(entrants) if k in live]
    for rnd in rounds:
        order = [k for k in advancing(rnd, order, players) if k in live]
    return order


def total_rounds(plan: Plan, entrants: Sequence[Entrant]) -> int:
    """The rounds this tournament will have, as far as can be told now."""
    from paris_tui.host.tournaments.pairing import knockout_rounds

    count = sum(1 for e in entrants if e.joined <= 1)
    if plan.format == "round-robin":
        return round_robin_rounds(count, plan.players)
    if plan.format == "knockout":
        return knockout_rounds(count, plan.players)
    return plan.rounds


def next_round(plan: Plan, entrants: Sequence[Entrant], rounds: Sequence[Round]) -> Round | None:
    """The round after ``rounds`` (all over), or ``None`` when the tournament is over
    (its rounds played, a knockout's final played, or fewer than two players left)."""
    if any(not r.over for r in rounds):
        raise ValueError("a round is still being played")
    number = len(rounds) + 1
    active = [k for k in seeds(entrants) if k in _active(entrants, number)]
    if plan.format == "knockout":
        if rounds and not rounds[-1].tables[1:] and not rounds[-1].byes:
            return None
        left = knockout_seeds(entrants, rounds, plan.players)
        return knockout_round(left, number, plan.players) if len(left) >= 2 else None
    if number > total_rounds(plan, entrants) or len(active) < 2:
        return None
    if plan.format == "round-robin":
        starters = [k for k in seeds(entrants) if _starter(entrants, k)]
        return round_robin_round(starters, active, rounds, plan.players)
    return swiss_round(active, rounds, plan.players, points(rounds))


def _active(entrants: Sequence[Entrant], number: int) -> set[str]:
    return {e.key for e in entrants if not e.withdrawn and e.joined <= number}


def _starter(entrants: Sequence[Entrant], key: str) -> bool:
    return any(e.key == key and e.joined <= 1 for e in entrants)
