"""The host's tournaments on the wire (protocol 6).

One request, three answers, for the lobby's tournaments list and a
tournament's page (docs/tournaments.md, docs/protocol.md):

* ``tournaments`` (client to host) ``action``: ``list`` (answered by
  :class:`TournamentList`), ``show`` a tournament's page (by its id,
  ``tournament``; answered by :class:`TournamentPage`), ``enter`` or
  ``withdraw`` the account (answered by the page, with ``done``), ``create``
  a tournament from its settings (:class:`NewTournament`; answered by the new
  one's page, when the operator allows this account). The account is ``name``,
  proven by ``token`` as in a ``join`` (a door's ticket, an account's token);
  ``list`` and ``show`` may name none (nobody's entries are marked then).
  A connection that named an account listens from then on: when a round opens
  with that account at a table it is sent a :class:`RoundStart`.
* ``tournaments`` (host to client): each tournament open for entry, running or
  finished (:class:`TournamentInfo`), by start; ``can_create``: this account may
  create one here.
* ``tournament`` (host to client): one tournament's page: its entrants, its
  standings with their tie-breaks (at most :data:`MAX_ENTRANTS` of each, the
  best of the standings), and each round's tables (the latest rounds, at most
  :data:`MAX_TABLES_SENT` tables in all) (a host table's id
  once it is opened, the players' names in seat order, their places once it
  is over) and byes.
* ``round_opened`` (host to client): a round of a tournament the account is in
  has opened its tables; the account sits at ``table``, seat ``seat``, with
  ``seats`` (every player's name there, in seat order). It joins as at any
  named seat.

Points and tie-breaks are whole hundredths (``550`` is 5.5), so that no float
but seconds crosses the wire. A connection of protocol 5 or older is sent none
of these, and its ``tournaments`` is ``bad_message``. Names (a tournament's, an
entrant's) are outside text: a client checks them by the core's name rule.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self, get_args

from msgspec import Meta
from msgspec.structs import replace

from ..core.text import InvalidNameError, normalize_name
from .wire import Form, Message, Name, Seat, TableId, Token, WireError, sent

__all__ = [
    "MAX_ENTRANTS",
    "MAX_TABLES_SENT",
    "MAX_TOURNAMENTS",
    "TOURNAMENTS_VERSION",
    "TOURNAMENT_ACTIONS",
    "TOURNAMENT_DONE",
    "TOURNAMENT_FORMATS",
    "TOURNAMENT_STATES",
    "EntrantInfo",
    "NewTournament",
    "RoundInfo",
    "RoundStart",
    "RoundTable",
    "StandingInfo",
    "TournamentAction",
    "TournamentDone",
    "TournamentFormat",
    "TournamentInfo",
    "TournamentList",
    "TournamentPage",
    "TournamentState",
    "TournamentsRequest",
    "hundredths",
]

TOURNAMENTS_VERSION = 6
MAX_TOURNAMENTS = 200
MAX_ENTRANTS = 1000
MAX_ROUNDS_SENT = 1000
MAX_TABLES_SENT = 20_000
"""A page holds the latest rounds whose tables number at most this (a line of about
1.5 MB): a long round robin's first rounds give way."""

TournamentAction = Literal["list", "show", "enter", "withdraw", "create"]
TOURNAMENT_ACTIONS: tuple[str, ...] = get_args(TournamentAction)
TournamentFormat = Literal["swiss", "round-robin", "knockout"]
TOURNAMENT_FORMATS: tuple[str, ...] = get_args(TournamentFormat)
TournamentState = Literal["open", "running", "finished", "cancelled"]
TOURNAMENT_STATES: tuple[str, ...] = get_args(TournamentState)
TournamentDone = Literal["entered", "withdrawn", "created"]
TOURNAMENT_DONE: tuple[str, ...] = get_args(TournamentDone)

_Id = Annotated[int, Meta(ge=1, le=2**53)]
_Players = Annotated[int, Meta(ge=2, le=4)]
_Rounds = Annotated[int, Meta(ge=0, le=1000)]
_Round = Annotated[int, Meta(ge=0, le=1000)]
_MoveTime = Annotated[float, Meta(ge=5.0, le=30 * 86400.0)]  # as a timed table's (net/turns.py)
_When = Annotated[int, Meta(ge=0, le=2**40)]  # seconds since the epoch
_Games = Annotated[int, Meta(ge=0, le=10**9)]
_Hundredths = Annotated[int, Meta(ge=-(10**9), le=10**9)]
_Tenths = Annotated[int, Meta(ge=-100_000, le=100_000)]
_Place = Annotated[int, Meta(ge=1, le=4)]
_Seats = Annotated[tuple[Name, ...], Meta(min_length=1, max_length=4)]


def hundredths(value: float) -> int:
    """A point count or tie-break as whole hundredths (``5.5`` is ``550``)."""
    return round(value * 100)


def tournament_name(name: str) -> str:
    """A tournament's name a host sent (in a seated or watching), by the name rule."""
    return _name(name, "tournament")


def _name(name: str, where: str) -> str:
    # A name a host sends is outside text to the client: the core's name rule again.
    try:
        return normalize_name(name)
    except InvalidNameError as exc:
        raise WireError(where, f"breaks the name rule: {exc}") from None


class NewTournament(Form, frozen=True):
    """A tournament to create: ``name`` (the name rule), ``format``, ``players`` a
    table, ``rounds`` (a Swiss one's; 0 for the others: they have the rounds their
    entrants need), ``move_time`` (seconds a move), ``start`` (seconds since the
    epoch), ``rated``, ``min_games`` (rated games an account needs to enter)."""

    name: Name
    format: TournamentFormat
    players: _Players
    rounds: _Rounds
    move_time: _MoveTime
    start: _When
    rated: bool = False
    min_games: _Games = 0


class TournamentsRequest(Message, tag="tournaments", frozen=True):
    """Protocol 6: the tournaments (``list``), one's page (``show``), enter or
    withdraw ``name``'s account, or ``create`` one (see the module's doc)."""

    action: TournamentAction = sent("list")
    tournament: _Id | None = None
    name: Name | None = None
    token: Token | None = None
    create: NewTournament | None = None


class TournamentInfo(Form, frozen=True):
    """A tournament in the list: ``entrants`` in it now (withdrawn ones not counted),
    ``round`` the current (last paired) round, 0 before the first; ``entered``: the
    asking account is in it (not withdrawn)."""

    id: _Id
    name: Name
    format: TournamentFormat
    players: _Players
    rounds: _Rounds
    move_time: _MoveTime
    start: _When
    rated: bool
    min_games: _Games
    entrants: _Games
    state: TournamentState
    round: _Round
    entered: bool = False

    def checked(self, where: str) -> Self:
        return replace(self, name=_name(self.name, f"{where}.name"))


class TournamentList(Message, tag="tournaments", frozen=True):
    """Protocol 6: the tournaments open for entry, running or finished, by start
    (at most :data:`MAX_TOURNAMENTS`); ``can_create``: the account asking may
    create one; ``name``: that account (``None``: none was named)."""

    tournaments: Annotated[tuple[TournamentInfo, ...], Meta(max_length=MAX_TOURNAMENTS)]
    can_create: bool = False
    name: Name | None = None

    def _checked(self) -> Self:
        return replace(
            self,
            tournaments=tuple(
                t.checked(f"tournaments[{i}]") for i, t in enumerate(self.tournaments)
            ),
            name=None if self.name is None else _name(self.name, "name"),
        )


class EntrantInfo(Form, frozen=True):
    """An entrant: the name they entered under, their rating at entry (tenths;
    absent when they had none), the round they joined for, and whether they withdrew."""

    name: Name
    rating: _Tenths | None = None
    joined: _Round = 1
    withdrawn: bool = False


class StandingInfo(Form, omit_defaults=False, frozen=True):
    """A row of the standings: points and tie-breaks in hundredths (``place_sum``:
    the sum of places, lower is better, for tables of three and four)."""

    rank: Annotated[int, Meta(ge=1, le=MAX_ENTRANTS)]
    name: Name
    points: _Hundredths
    buchholz: _Hundredths
    sonneborn_berger: _Hundredths
    place_sum: _Hundredths
    tables: _Games
    byes: _Games
    withdrawn: bool = False


class RoundTable(Form, frozen=True):
    """A round's table: the host's table that plays it (``None`` until it opens), its
    players' names in seat order, and their places once it is over."""

    table: TableId | None
    seats: _Seats
    places: Annotated[tuple[_Place, ...], Meta(max_length=4)] | None = None


class RoundInfo(Form, frozen=True):
    number: Annotated[int, Meta(ge=1, le=1000)]
    tables: Annotated[tuple[RoundTable, ...], Meta(max_length=MAX_ENTRANTS)]
    byes: Annotated[tuple[Name, ...], Meta(max_length=MAX_ENTRANTS)] = ()


class TournamentPage(Message, tag="tournament", frozen=True):
    """Protocol 6: a tournament's page; ``done``: what the request just did
    (``entered``, ``withdrawn``, ``created``), ``None`` for a ``show``."""

    tournament: TournamentInfo
    entrants: Annotated[tuple[EntrantInfo, ...], Meta(max_length=MAX_ENTRANTS)] = ()
    standings: Annotated[tuple[StandingInfo, ...], Meta(max_length=MAX_ENTRANTS)] = ()
    rounds: Annotated[tuple[RoundInfo, ...], Meta(max_length=MAX_ROUNDS_SENT)] = ()
    done: TournamentDone | None = None
    can_create: bool = False

    def _checked(self) -> Self:
        return replace(
            self,
            tournament=self.tournament.checked("tournament"),
            entrants=tuple(
                replace(e, name=_name(e.name, f"entrants[{i}].name"))
                for i, e in enumerate(self.entrants)
            ),
            standings=tuple(
                replace(s, name=_name(s.name, f"standings[{i}].name"))
                for i, s in enumerate(self.standings)
            ),
            rounds=tuple(
                replace(
                    r,
                    tables=tuple(
                        replace(
                            t,
                            seats=tuple(
                                _name(n, f"rounds[{i}].tables[{j}].seats") for n in t.seats
                            ),
                        )
                        for j, t in enumerate(r.tables)
                    ),
                    byes=tuple(_name(n, f"rounds[{i}].byes") for n in r.byes),
                )
                for i, r in enumerate(self.rounds)
            ),
        )


class RoundStart(Message, tag="round_opened", frozen=True):
    """Protocol 6: round ``round`` of tournament ``tournament`` (``name``) opened; the
    account this connection named sits at ``table``, seat ``seat``; ``seats`` every
    player's name there in seat order."""

    tournament: _Id
    name: Name
    round: Annotated[int, Meta(ge=1, le=1000)]
    table: TableId
    seat: Seat
    seats: _Seats

    def _checked(self) -> Self:
        if self.seat >= len(self.seats):
            raise WireError("seat", "is not one of the table's seats")
        return replace(
            self,
            name=_name(self.name, "name"),
            seats=tuple(_name(n, "seats") for n in self.seats),
        )
