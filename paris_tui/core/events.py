"""What happened: the events a move produces, each point explained.

:meth:`paris_tui.core.Game.play` returns a list of these. Every point scored
is one :class:`ScoreEvent` with its reason as numbers, so a log (or a test) can
account for the whole score. Events carry only public information: a
removal into the sack is public as it happens (R8), routes appear only in
the special tours at the game end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "BusinessOpened",
    "BusinessRemoved",
    "Event",
    "GameOver",
    "NothingOpened",
    "RoundStarted",
    "ScoreEvent",
    "ScoreKind",
    "TileDiscarded",
    "TourEvent",
]

ScoreKind = Literal["small_tour", "grand_tour", "special_tour", "sack"]


@dataclass(frozen=True, slots=True)
class BusinessOpened:
    """``seat`` took ``tile`` and opened a business at ``stop`` (R4)."""

    round: int
    seat: int
    tile: str
    stop: str


@dataclass(frozen=True, slots=True)
class NothingOpened:
    """``seat`` took ``tile`` with an empty supply: nothing opened or removed (C1)."""

    round: int
    seat: int
    tile: str


@dataclass(frozen=True, slots=True)
class BusinessRemoved:
    """``by`` removed ``owner``'s business at ``stop``; it went ``to`` the supply or the sack."""

    round: int
    owner: int
    stop: str
    by: int
    to: Literal["supply", "sack"]


@dataclass(frozen=True, slots=True)
class TourEvent:
    """A tour begins. The score events that follow belong to it.

    ``kind`` is ``small_tour`` (``stop`` is where the left-over tile's stop is,
    ``stops`` the stops whose businesses score, empty when nobody scores),
    ``grand_tour`` or ``special_tour`` (``line`` is the line, ``stops`` its four
    crossings in the bus's order). ``seat`` is whose route marker a special
    tour runs (``None`` for the public route and the ``all-lines`` variant).
    """

    round: int
    kind: Literal["small_tour", "grand_tour", "special_tour"]
    line: str | None
    stop: str | None
    stops: tuple[str, ...]
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """Points for one seat, with where and why, as numbers and ids (no words).

    ``stop`` is where the scoring business stands (the crossing for a grand
    or special tour), ``line`` the tour's line. Why, by ``kind``:

    - ``small_tour``: ``here`` businesses of the seat at ``stop``, which is
      ``distance`` stops from ``origin``, the left-over tile's stop (R5);
    - ``grand_tour``/``special_tour``: ``here`` businesses at the crossing
      ``stop`` plus ``near`` next to it (R6);
    - ``sack``: ``here`` businesses in the seat's sack, more than anyone's (R7).

    ``points`` is what they are worth. The words are made where they are
    shown (``paris_tui.app.look.describe``), in the reader's language.
    """

    round: int
    kind: ScoreKind
    seat: int
    points: int
    stop: str | None
    line: str | None
    here: int
    near: int = 0
    distance: int = 0
    origin: str | None = None


@dataclass(frozen=True, slots=True)
class TileDiscarded:
    """The left-over tile went to the discard area; ``grand_tour`` if it paired a colour."""

    round: int
    tile: str
    grand_tour: bool


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A new stack was turned face up; ``starter`` holds the bus."""

    round: int
    starter: int
    tiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended (R7); see :meth:`paris_tui.core.Game.outcome`."""

    round: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    BusinessOpened
    | NothingOpened
    | BusinessRemoved
    | TourEvent
    | ScoreEvent
    | TileDiscarded
    | RoundStarted
    | GameOver
)
