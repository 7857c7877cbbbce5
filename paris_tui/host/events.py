"""What happens at the host's tables, as one typed stream (:data:`TableEvent`).

The host and its tables publish; the services around them subscribe to one
:class:`EventBus` (the host's ``events``), each hearing every event and
acting on those it cares about, in the order they subscribed (the host makes
the cluster, the ratings, the chat, then the turn clocks). An event is a
frozen dataclass:

- :class:`TableServed` (a :class:`~paris_tui.host.room.Room` begins serving:
  a start, a restart, a takeover): heard by the turn clocks.
- :class:`TableResumed` (a table served again from its record): the ratings
  give it its finished game's result, the chat reads its lines again.
- :class:`SeatLeft` (a seated connection left its seat): the turn clocks
  notify an absent player whose move it is.
- :class:`SeatReturned` (a player is back from the takeover AI, or played on
  after a time-out move): the ratings mark the seat returned.
- :class:`AIPlaysFor` (the takeover AI is about to move for a human seat): the
  ratings mark the game unrated first (delivered and waited for).
- :class:`MovePlayed` (a move was saved and told): the turn clocks start the
  next turn's clock.
- :class:`GameOver` (a move ended the game, or an agreed abort): the ratings
  count it, the chat sends the players the watchers' lines (delivered and
  waited for), the turn clocks stop its clock.
- :class:`MoveLost` (a move could not be saved: another host referees the
  table now): the cluster stops serving it here.
- :class:`TableArchived` (an abandoned table was archived): the cluster gives
  its lease back.
- :class:`WaitingChanged`, :class:`WaitingStarted`, :class:`WaitingClosed`
  (a table waiting for players, published by the waiting tables): the cluster
  keeps the other hosts' lobbies told.
- :class:`SeatsInvited` (a table was opened with seats kept for named
  accounts): the turn clocks run the notify command for each of them.
- :class:`RoundOpened` (a tournament's round has its tables open, published
  by the tournaments' rounds): the notify command and the lobbies tell each
  paired account where it sits.

:meth:`EventBus.publish` calls each subscriber at once; :meth:`EventBus.deliver`
also waits for what a subscriber gives back to wait for (an awaitable), so a
table goes on only once, for example, a game's chat lines reached its players.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from paris_tui.host.peers import Table
from paris_tui.host.services.waiting import WaitingTable

__all__ = [
    "AIPlaysFor",
    "EventBus",
    "GameOver",
    "Handler",
    "MoveLost",
    "MovePlayed",
    "RoundOpened",
    "SeatLeft",
    "SeatReturned",
    "SeatsInvited",
    "TableArchived",
    "TableEvent",
    "TableResumed",
    "TableServed",
    "WaitingChanged",
    "WaitingClosed",
    "WaitingStarted",
]


@dataclass(frozen=True, slots=True)
class _AtTable:
    table: Table


@dataclass(frozen=True, slots=True)
class _AtSeat:
    table_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class _OfTable:
    table_id: str


class TableServed(_AtTable):
    """A table begins serving (a start, a restart, a takeover): its clock goes on."""


class TableResumed(_AtTable):
    """A table is served again from its record: its result and chat are read again."""


@dataclass(frozen=True, slots=True)
class SeatLeft(_AtTable):
    """The connection seated at ``seat`` left it (hung up, cut off, or sat elsewhere)."""

    seat: int


class SeatReturned(_AtSeat):
    """The player of ``seat`` is back from the takeover AI (or played on after a time-out)."""


class AIPlaysFor(_AtSeat):
    """The takeover AI is about to move for the human ``seat``: the game is no longer rated."""


class MovePlayed(_AtTable):
    """A move was saved and told to everyone at the table."""


class GameOver(_AtTable):
    """The move just told ended the game."""


class MoveLost(_OfTable):
    """A move could not be saved: another host referees the table now."""


class TableArchived(_OfTable):
    """An abandoned table was archived (out of every lobby; still a record)."""


@dataclass(frozen=True, slots=True)
class WaitingChanged:
    """A waiting table's seats changed (or it was opened)."""

    table: WaitingTable[Any]


@dataclass(frozen=True, slots=True)
class WaitingStarted(_OfTable):
    """Every seat of a waiting table was held: its game starts here with ``players``."""

    players: Sequence[str]


class WaitingClosed(_OfTable):
    """A waiting table closed: nobody waits at it any more."""


@dataclass(frozen=True, slots=True)
class SeatsInvited(_OfTable):
    """A table was opened with a seat kept for each of ``names`` (invitations)."""

    names: Sequence[str]


@dataclass(frozen=True, slots=True)
class RoundOpened:
    """Round ``number`` of the tournament ``tournament_id`` (called ``name``) has its
    tables open: ``tables`` pairs each table's id with the account names seated there.
    ``notify`` is false when another host of the database opened them (and ran its
    notify command for them): this host's lobbies are told, the command is not run
    again."""

    tournament_id: int
    name: str
    number: int
    tables: tuple[tuple[str, tuple[str, ...]], ...]
    notify: bool = True


TableEvent = (
    TableServed
    | TableResumed
    | SeatLeft
    | SeatReturned
    | AIPlaysFor
    | MovePlayed
    | GameOver
    | MoveLost
    | TableArchived
    | WaitingChanged
    | WaitingStarted
    | WaitingClosed
    | SeatsInvited
    | RoundOpened
)

Handler = Callable[[TableEvent], Awaitable[None] | None]
"""A subscriber: hears every event; gives back an awaitable when it has work to wait for."""


class EventBus:
    """A small synchronous bus: subscribers in order, on the caller's stack."""

    def __init__(self) -> None:
        self._handlers: list[Handler] = []

    def subscribe(self, handler: Handler) -> None:
        self._handlers.append(handler)

    def publish(self, event: TableEvent) -> None:
        """Tell every subscriber (none may have anything to wait for)."""
        for handler in self._handlers:
            pending = handler(event)
            if pending is not None:  # pragma: no cover - a wiring bug
                raise RuntimeError(f"{type(event).__name__} is delivered, not published")

    async def deliver(self, event: TableEvent) -> None:
        """Tell every subscriber, each one's work waited for before the next hears it."""
        for handler in self._handlers:
            pending = handler(event)
            if pending is not None:
                await pending
