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

A connection of protocol 3 or older never sees these; a host of protocol 3
would refuse them, so a client sends them only to a host that said 4.
"""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

from .wire import Form, Message, TableId, Text, Word

__all__ = [
    "GAMES_VERSION",
    "MAX_GAMES",
    "FinishedGame",
    "Games",
    "GetRecord",
    "ListGames",
    "RecordSent",
]

GAMES_VERSION = 4
MAX_GAMES = 200


class ListGames(Message, tag="list_games", frozen=True):
    """Protocol 4: ask for the host's finished games (answered by :class:`Games`)."""


class GetRecord(Message, tag="get_record", frozen=True):
    """Protocol 4: ask for a finished game's public record (answered by :class:`RecordSent`)."""

    table: TableId


class FinishedGame(Form, frozen=True):
    table: Word
    names: Annotated[tuple[Text, ...], Meta(max_length=4)]
    finished: Annotated[int, Meta(ge=0, le=2**40)]  # when, seconds since the epoch
    rated: bool


class Games(Message, tag="games", frozen=True):
    games: Annotated[tuple[FinishedGame, ...], Meta(max_length=MAX_GAMES)]


class RecordSent(Message, tag="record", frozen=True):
    """A finished game's public record (its JSON object, read with ``parse_record``
    where it is used)."""

    table: TableId
    record: dict[str, Any]
