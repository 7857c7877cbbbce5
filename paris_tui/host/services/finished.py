"""The host's finished games for the lobby (protocol 4): a list, and a
finished game's public record for the replay viewer.

The list comes from the ratings (every finished game is counted there once,
rated or not: :meth:`~paris_tui.host.ratings.store.RatingStore.finished_games`),
each game with its scores, places and the ratings after it; a ``list_games``
naming a ``player`` gets only that player's games (their page, the list
filtered by a name). A record is
sent only for a finished game, and only its public end: it is rebuilt from the
spectator's view of the final position (the routes are revealed at the end,
each round's stack is public once played) with the core's
:class:`~paris_tui.core.sampling.Determinizer`, as a player's own terminal
builds it for its review. The host's file (its deal seed, its AI seeds, the
opener's key) is never sent.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import Any

from paris_tui.core import RecordError
from paris_tui.core.record import Record, replay
from paris_tui.host.peers import Peer
from paris_tui.host.ratings.store import Finished, RatingStore, RatingsUnavailable
from paris_tui.host.referee import Refusal
from paris_tui.host.store.files import TableStore
from paris_tui.net.games_wire import (
    MAX_GAMES,
    FinishedGame,
    Games,
    GetRecord,
    ListGames,
    RecordSent,
)
from paris_tui.net.ratings_wire import tenths

__all__ = ["answer", "public_record", "wire_game"]


def wire_game(game: Finished) -> FinishedGame:
    """A finished game as the list sends it (ratings in tenths)."""
    return FinishedGame(
        game.table_id,
        game.names,
        int(game.finished),
        game.rated,
        game.scores,
        game.places,
        tuple(tenths(r) for r in game.after),
        game.aborted,
    )


def public_record(record: Record) -> dict[str, Any] | None:
    """The finished game as everyone may see it at its end; ``None`` if it is not over."""
    from paris_tui.core.sampling import Determinizer

    game = replay(record)
    if not game.is_over:
        return None
    base = Determinizer(game.view(None)).base
    return Record.from_game(base, record.players).to_json_dict()


def _record_of(tables: TableStore, table_id: str) -> dict[str, Any] | None:
    try:
        record = tables.load_record(table_id)
    except (RecordError, ValueError):
        return None
    return None if record is None else public_record(record)


async def answer(
    conn: Peer,
    message: ListGames | GetRecord,
    games_of: RatingStore | None,
    io_pool: Executor,
    tables: TableStore,
) -> None:
    """Answer a protocol-4 request about the finished games (raises :class:`Refusal`):
    the list from the ratings' store ``games_of``, a record from ``tables``."""
    if conn.protocol < 4:
        kind = "list_games" if isinstance(message, ListGames) else "get_record"
        raise Refusal("bad_message", f"unknown message type {kind!r} in protocol {conn.protocol}")
    loop = asyncio.get_running_loop()
    if isinstance(message, ListGames):
        store = games_of
        games: tuple[FinishedGame, ...] = ()
        if store is not None:
            try:
                rows = await loop.run_in_executor(
                    io_pool, store.finished_games, MAX_GAMES, message.player
                )
            except RatingsUnavailable as exc:
                raise Refusal("unavailable", "the host cannot read its finished games now") from exc
            games = tuple(wire_game(g) for g in rows)
        conn.send(Games(games, message.player))
        return
    try:
        record = await loop.run_in_executor(io_pool, _record_of, tables, message.table)
    except OSError:
        raise Refusal("unavailable", "the host cannot read that game now") from None
    if record is None:
        raise Refusal("no_such_table", f"there is no finished game {message.table}")
    conn.send(RecordSent(message.table, record))
