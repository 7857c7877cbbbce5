"""The host's finished games on the wire (protocol 4).

Two requests and their answers, for the lobby's list of finished games and
the replay viewer:

* ``list_games`` -> ``games``: the host's finished games, newest first (at
  most :data:`MAX_GAMES`): each game's table id, its players' names, when it
  ended (seconds since the epoch) and whether it was rated;
* ``get_record`` ``table`` -> ``record``: that finished game as a
  ``paris-paris-record`` built from its *public* end position (the routes are
  revealed at the end, past stacks are public: the same record a player's
  own terminal builds for its review), never the host's file with its deal
  seed and AI seeds; refused with ``no_such_table`` for a game that is not
  finished (a running game's record would tell its secrets).

Added since, each an optional key an older reader ignores:

* ``list_games`` may name a ``player``: only the games that player sat in
  (a player's page, the list filtered by a name); the answer repeats the
  ``player`` asked for (an older host sends every game: the client filters);
* each finished game's ``scores``, ``places`` (1 first, shared places equal)
  and ``ratings`` (each seat's shown rating after the game, tenths; ``null``
  for a seat it did not rate), absent for a game counted before they were kept;
* the ``online`` of :class:`~paris_tui.net.protocol.Tables`: the accounts at
  this host now (:class:`Online`: a name, whether at a table, the shown rating
  in tenths and its rated games), at most :data:`MAX_ONLINE`.

A connection of protocol 3 or older never sees these; a host of protocol 3
would refuse them, so a client sends them only to a host that said 4.
"""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

from .wire import Form, Message, Name, TableId, Text, Word

__all__ = [
    "GAMES_VERSION",
    "MAX_GAMES",
    "MAX_ONLINE",
    "FinishedGame",
    "Games",
    "GetRecord",
    "ListGames",
    "Online",
    "RecordSent",
]

GAMES_VERSION = 4
MAX_GAMES = 200
MAX_ONLINE = 100

_Tenths = Annotated[int, Meta(ge=-100_000, le=100_000)]
_Score = Annotated[int, Meta(ge=-1000, le=10_000)]
_Place = Annotated[int, Meta(ge=1, le=4)]


class ListGames(Message, tag="list_games", frozen=True):
    """Protocol 4: ask for the host's finished games (answered by :class:`Games`);
    ``player`` (additive): only the games that player sat in."""

    player: Name | None = None


class GetRecord(Message, tag="get_record", frozen=True):
    """Protocol 4: ask for a finished game's public record (answered by :class:`RecordSent`)."""

    table: TableId


class FinishedGame(Form, frozen=True):
    table: Word
    names: Annotated[tuple[Text, ...], Meta(max_length=4)]
    finished: Annotated[int, Meta(ge=0, le=2**40)]  # when, seconds since the epoch
    rated: bool
    # Additive: each seat's score, place (1 first) and shown rating after (tenths).
    scores: Annotated[tuple[_Score, ...], Meta(max_length=4)] = ()
    places: Annotated[tuple[_Place, ...], Meta(max_length=4)] = ()
    ratings: Annotated[tuple[_Tenths | None, ...], Meta(max_length=4)] = ()
    # Additive (protocol 5): every player agreed to end it early, no winner, unrated.
    aborted: bool = False


class Games(Message, tag="games", frozen=True):
    games: Annotated[tuple[FinishedGame, ...], Meta(max_length=MAX_GAMES)]
    player: Text | None = None  # the player asked for (additive)


class Online(Form, frozen=True):
    """An account at this host now: at a table (``playing``) or in a lobby; its shown
    rating in tenths (absent before a rated game) and its rated games."""

    name: Text
    playing: bool = False
    rating: _Tenths | None = None
    games: Annotated[int, Meta(ge=0, le=10**9)] = 0


class RecordSent(Message, tag="record", frozen=True):
    """A finished game's public record (its JSON object, read with ``parse_record``
    where it is used)."""

    table: TableId
    record: dict[str, Any]
