"""The host's finished games on the wire (issue 22; protocol 4).

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

from dataclasses import dataclass
from typing import Any

from .wire import boolean, field, integer, items, obj, strs, text

__all__ = [
    "GAMES_VERSION",
    "MAX_GAMES",
    "FinishedGame",
    "Games",
    "GetRecord",
    "ListGames",
    "RecordSent",
    "decode_games_client",
    "decode_games_host",
    "games_to_json",
]

GAMES_VERSION = 4
MAX_GAMES = 200


@dataclass(frozen=True, slots=True)
class ListGames:
    """Protocol 4: ask for the host's finished games (answered by :class:`Games`)."""


@dataclass(frozen=True, slots=True)
class GetRecord:
    """Protocol 4: ask for a finished game's public record (answered by :class:`RecordSent`)."""

    table: str


@dataclass(frozen=True, slots=True)
class FinishedGame:
    table: str
    names: tuple[str, ...]
    finished: int  # when, seconds since the epoch
    rated: bool


@dataclass(frozen=True, slots=True)
class Games:
    games: tuple[FinishedGame, ...]


@dataclass(frozen=True, slots=True)
class RecordSent:
    """A finished game's public record (its JSON object, read with ``parse_record``)."""

    table: str
    record: dict[str, Any]


GamesMessage = ListGames | GetRecord | Games | RecordSent


def games_to_json(message: GamesMessage) -> dict[str, Any]:
    match message:
        case ListGames():
            return {"type": "list_games"}
        case GetRecord():
            return {"type": "get_record", "table": message.table}
        case Games():
            return {
                "type": "games",
                "games": [
                    {
                        "table": g.table,
                        "names": list(g.names),
                        "finished": g.finished,
                        "rated": g.rated,
                    }
                    for g in message.games
                ],
            }
        case RecordSent():
            return {"type": "record", "table": message.table, "record": message.record}


def decode_games_client(
    kind: str, data: dict[str, Any], table_id: Any
) -> ListGames | GetRecord | None:
    """``list_games`` or ``get_record`` (``table_id`` reads a table id), else ``None``."""
    if kind == "list_games":
        return ListGames()
    if kind == "get_record":
        return GetRecord(table_id(field(data, "table", kind), "table"))
    return None


def _game(value: object, where: str) -> FinishedGame:
    data = obj(value, where)
    return FinishedGame(
        text(field(data, "table", where), f"{where}.table", limit=32),
        strs(field(data, "names", where), f"{where}.names", limit=4),
        integer(field(data, "finished", where), f"{where}.finished", 0, 2**40),
        boolean(field(data, "rated", where), f"{where}.rated"),
    )


def decode_games_host(kind: str, data: dict[str, Any], table_id: Any) -> Games | RecordSent | None:
    """``games`` or ``record``, else ``None``. A record's contents are read by the core
    (``parse_record``) where it is used."""
    if kind == "games":
        return Games(items(field(data, "games", kind), "games", _game, limit=MAX_GAMES))
    if kind == "record":
        return RecordSent(
            table_id(field(data, "table", kind), "table"),
            obj(field(data, "record", kind), "record"),
        )
    return None
