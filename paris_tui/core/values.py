"""The values the rules pass around: a move, the variants, a deal, a result.

Plain frozen dataclasses that know nothing of a game in progress. This module
imports nothing of the core, so every other module (the game, the views, the
records, the AI) may import it without making a cycle; :mod:`paris_tui.core`
and :mod:`paris_tui.core.game` re-export its names.

>>> move = Move("pompidou/green", evict=1)
>>> str(move), move < Move("pompidou/green", evict=2)
('pompidou/green (remove seat 1)', True)
>>> Options().small_tour
'both-lines'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "FINAL_TOUR_MODES",
    "SMALL_TOUR_MODES",
    "DecidedBy",
    "Move",
    "Options",
    "Outcome",
    "Setup",
]

SMALL_TOUR_MODES = ("both-lines", "tile-line")
FINAL_TOUR_MODES = ("secret", "all-lines")

DecidedBy = Literal["score", "fewest_businesses", "shared"]
"""How a game's winner was found (R7): the score, the tie-break, or a shared win."""


@dataclass(frozen=True, slots=True)
class Options:
    """The rule variants (R5, R7). The defaults are the rulebook's."""

    small_tour: Literal["both-lines", "tile-line"] = "both-lines"
    final_tours: Literal["secret", "all-lines"] = "secret"

    def __post_init__(self) -> None:
        if self.small_tour not in SMALL_TOUR_MODES:
            raise ValueError(
                f"small_tour must be one of {SMALL_TOUR_MODES}, not {self.small_tour!r}"
            )
        if self.final_tours not in FINAL_TOUR_MODES:
            raise ValueError(
                f"final_tours must be one of {FINAL_TOUR_MODES}, not {self.final_tours!r}"
            )


@dataclass(frozen=True, slots=True)
class Setup:
    """The dealt, secret part of a game (R2): stacks in play order and route markers."""

    stacks: tuple[tuple[str, ...], ...]
    routes: tuple[str, ...]
    public_route: str | None = None


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """Take ``tile`` (``"stop/line"``); at a full stop remove seat ``evict``'s business.

    ``evict`` is ``None`` unless the stop is full and the mover has a business
    in supply (R4, C1).
    """

    tile: str
    evict: int | None = None

    def __str__(self) -> str:
        return self.tile if self.evict is None else f"{self.tile} (remove seat {self.evict})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of the game (R7): final scores, sack and board counts, the winners.

    ``decided_by`` says how the winner was found: ``"score"``,
    ``"fewest_businesses"`` (the tie-break: fewest businesses on the board),
    or ``"shared"`` when the tie-break left several winners.
    """

    scores: tuple[int, ...]
    sack: tuple[int, ...]
    on_board: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: DecidedBy
