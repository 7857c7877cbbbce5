"""Every finished game, kept in an embedded SQLite database: the player's history.

The database is ``history.sqlite3`` in the app's data directory. Each
finished game (hot-seat, against AIs, or at a networked table as this
terminal's player) is added once, from its record, in one transaction: a
game's row and its seats' rows are written together or not at all, so a
``kill -9`` during a write leaves the database as it was (SQLite's
journal). A game is known by a digest of its deal and moves, so the same
game added twice counts once.

The schema is versioned with ``PRAGMA user_version`` and migrated forward
on open (:data:`MIGRATIONS`); a database from a newer paris-tui is refused
with a clear message, never changed. A corrupt, unreadable or locked
database raises :class:`HistoryError`, which callers report and play on:
the history is never fatal to a game.

Names in the database are outside text like any other: they were checked
by the core's name rule when their game was made, and are drawn as data.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from paris_tui.app.local.session import SCORE_KINDS, points_by_kind
from paris_tui.core import SeatView
from paris_tui.core.record import Record, replay
from paris_tui.core.text import printable
from paris_tui.i18n import _

if TYPE_CHECKING:
    import sqlite3  # imported on first use: the app's first frame needs no database

    from paris_tui.core import Event

__all__ = [
    "HISTORY_FILE",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "GameMode",
    "History",
    "HistoryError",
    "PlayerStats",
    "game_key",
]

HISTORY_FILE = "history.sqlite3"

GameMode = Literal["hot-seat", "ai", "network"]

MIGRATIONS: tuple[str, ...] = (
    # 1: games, their seats (with points by source) and each round's scores.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        finished_at TEXT NOT NULL,
        mode TEXT NOT NULL,
        players INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        decided_by TEXT NOT NULL
    );
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        local INTEGER NOT NULL,
        score INTEGER NOT NULL,
        won INTEGER NOT NULL,
        small_tour INTEGER NOT NULL,
        grand_tour INTEGER NOT NULL,
        special_tour INTEGER NOT NULL,
        sack INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE round_scores (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        score INTEGER NOT NULL,
        PRIMARY KEY (game_id, round, seat)
    );
    CREATE INDEX seats_by_name ON seats(name COLLATE NOCASE);
    """,
)
"""The schema, one script per version: version ``i + 1`` is ``MIGRATIONS[i]``."""

SCHEMA_VERSION = len(MIGRATIONS)

BUSY_TIMEOUT = 2.0
"""Seconds to wait for another paris-tui writing the database before giving up."""


class HistoryError(Exception):
    """The history database cannot be read or written; the message says why, in one line."""


def game_key(view: SeatView) -> str:
    """A digest naming a finished game: its board, options, names, moves, left-over
    tiles and routes (what every seat knows at the end), the same from every seat."""
    data = {
        "board": view.board.id,
        "options": [view.options.small_tour, view.options.final_tours],
        "names": list(view.names),
        "moves": [[m.tile, m.evict] for m in view.moves],
        "leftovers": list(view.leftovers),
        "routes": list(view.revealed_routes or ()),
        "public": view.public_route,
    }
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True, sort_keys=True)
    import hashlib

    return hashlib.sha256(text.encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One name's games: how many, won, mean score, and mean points by source."""

    name: str
    games: int
    wins: int
    mean_score: float
    mean_by_source: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "mean_score": round(self.mean_score, 2),
            "mean_by_source": {k: round(v, 2) for k, v in self.mean_by_source.items()},
        }


def _problem(path: Path, exc: BaseException) -> HistoryError:
    import sqlite3

    where = printable(str(path))
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return HistoryError(
            _("the history {path} is busy (another paris-tui is writing it)").format(path=where)
        )
    if isinstance(exc, sqlite3.DatabaseError):
        return HistoryError(
            _("the history {path} is damaged: {reason}").format(
                path=where, reason=printable(str(exc))
            )
        )
    reason = exc.strerror or exc if isinstance(exc, OSError) else printable(str(exc))
    return HistoryError(
        _("cannot use the history {path}: {reason}").format(path=where, reason=reason)
    )


class History:
    """The history database at ``path`` (opened, and migrated, on each use)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> History:
        return cls(data_dir / HISTORY_FILE)

    @contextlib.contextmanager
    def _connect(self, *, create: bool) -> Iterator[sqlite3.Connection]:
        import sqlite3

        if not create and not self.path.exists():
            conn = sqlite3.connect(":memory:")
        else:
            try:
                if create:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            except (sqlite3.Error, OSError) as exc:
                raise _problem(self.path, exc) from None
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            self._migrate(conn)
            yield conn
        except (sqlite3.Error, OSError) as exc:
            raise _problem(self.path, exc) from None
        finally:
            conn.close()

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise HistoryError(
                _(
                    "the history {path} was written by a newer paris-tui "
                    "(schema {version}; this one knows {known}): it is left untouched"
                ).format(path=printable(str(self.path)), version=version, known=SCHEMA_VERSION)
            )
        if version == SCHEMA_VERSION:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another process may have migrated meanwhile.
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            for number in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    # --- writing ---------------------------------------------------------------------

    def add(
        self,
        view: SeatView,
        events: Sequence[Event],
        kinds: Sequence[str],
        *,
        mode: GameMode,
        local_seats: Sequence[int],
        finished_at: datetime | None = None,
    ) -> bool:
        """Add a finished game; ``False`` if it was there already.

        ``view`` is any view of the finished game (the public one will do),
        ``events`` every event of the game, ``kinds`` each seat's ``"human"``
        or ``"ai:<level>"``, ``local_seats`` the seats played from this
        terminal (every human seat of a hot-seat game, one's own seat at a
        networked table). Works the same for a local game and a remote table:
        it needs nothing a seat does not see. Raises :class:`HistoryError`, or
        ``ValueError`` if the game is not finished.
        """
        outcome = view.outcome
        if outcome is None:
            raise ValueError("only a finished game goes into the history")
        players = len(view.names)
        if len(kinds) != players:
            raise ValueError("one kind per seat")
        import sqlite3

        by_source = points_by_kind(players, events)
        key = game_key(view)
        when = (finished_at or datetime.now(UTC)).isoformat(timespec="seconds")
        with self._connect(create=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if conn.execute("SELECT 1 FROM games WHERE key = ?", (key,)).fetchone():
                    conn.execute("ROLLBACK")
                    return False
                cursor = conn.execute(
                    "INSERT INTO games (key, finished_at, mode, players, rounds, decided_by)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (key, when, mode, players, view.rounds_total, outcome.decided_by),
                )
                game_id = cursor.lastrowid
                for seat, name in enumerate(view.names):
                    points = by_source[seat]
                    conn.execute(
                        "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            game_id,
                            seat,
                            name,
                            kinds[seat],
                            int(seat in local_seats),
                            outcome.scores[seat],
                            int(seat in outcome.winners),
                            *(points[k] for k in SCORE_KINDS),
                        ),
                    )
                for rnd, scores in enumerate(view.round_scores):
                    for seat, score in enumerate(scores):
                        conn.execute(
                            "INSERT INTO round_scores VALUES (?, ?, ?, ?)",
                            (game_id, rnd, seat, score),
                        )
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        return True

    def add_record(self, record: Record, *, mode: GameMode, local_seats: Sequence[int]) -> bool:
        """:meth:`add` for the finished game of a record."""
        game = replay(record, 0)
        events: list[Event] = []
        for move in record.moves:
            events.extend(game.play(move))
        kinds = [p.kind for p in record.players]
        return self.add(game.view(None), events, kinds, mode=mode, local_seats=local_seats)

    # --- reading ---------------------------------------------------------------------

    @staticmethod
    def _grouped(conn: sqlite3.Connection, column: str, where: str) -> list[PlayerStats]:
        # ``column`` and ``where`` are this module's own constants, never outside text.
        rows = conn.execute(
            f"SELECT {column}, COUNT(*), SUM(won), AVG(score), AVG(small_tour), AVG(grand_tour),"
            f" AVG(special_tour), AVG(sack) FROM seats WHERE {where}"
            f" GROUP BY {column} COLLATE NOCASE ORDER BY COUNT(*) DESC, {column}"
        ).fetchall()
        return [
            PlayerStats(
                name=row[0],
                games=row[1],
                wins=row[2],
                mean_score=row[3],
                mean_by_source=dict(zip(SCORE_KINDS, row[4:8], strict=True)),
            )
            for row in rows
        ]

    def stats(self) -> dict[str, Any]:
        """Every number of the statistics screen, as ``paris-tui stats --json`` prints it.

        ``players``: each name played from this terminal; ``ai_levels``: each
        AI level faced (its own games, wins and means); ``vs_ai``: per level,
        how this terminal's players did against it (games with that level, games
        a local player won, the local players' mean score and mean points by
        source); ``last_game``: the most recent game's names, scores after each
        round and final scores; ``trend``: the local players' score in each
        game, oldest first.
        """
        with self._connect(create=False) as conn:
            games = int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
            players = self._grouped(conn, "name", "local = 1")
            levels = self._grouped(conn, "kind", "kind LIKE 'ai:%'")
            # Each local seat once per level it faced (two AIs of one level count once).
            vs_ai = conn.execute(
                "SELECT kind, COUNT(DISTINCT game_id),"
                " COUNT(DISTINCT CASE WHEN won = 1 THEN game_id END), AVG(score),"
                " AVG(small_tour), AVG(grand_tour), AVG(special_tour), AVG(sack) FROM ("
                " SELECT DISTINCT ai.kind AS kind, me.game_id AS game_id, me.seat, me.won AS won,"
                " me.score AS score, me.small_tour AS small_tour, me.grand_tour AS grand_tour,"
                " me.special_tour AS special_tour, me.sack AS sack FROM seats AS me"
                " JOIN seats AS ai ON ai.game_id = me.game_id AND ai.kind LIKE 'ai:%'"
                " WHERE me.local = 1) GROUP BY kind ORDER BY kind"
            ).fetchall()
            last = conn.execute(
                "SELECT id, finished_at FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone()
            last_game: dict[str, Any] | None = None
            if last is not None:
                seats = conn.execute(
                    "SELECT name, score FROM seats WHERE game_id = ? ORDER BY seat", (last[0],)
                ).fetchall()
                names = [r[0] for r in seats]
                rounds: dict[int, list[int]] = {}
                for rnd, seat, score in conn.execute(
                    "SELECT round, seat, score FROM round_scores WHERE game_id = ?"
                    " ORDER BY round, seat",
                    (last[0],),
                ):
                    rounds.setdefault(rnd, [0] * len(names))[seat] = score
                last_game = {
                    "finished_at": last[1],
                    "names": names,
                    "round_scores": [rounds[r] for r in sorted(rounds)],
                    "scores": [r[1] for r in seats],
                }
            trend = [
                {"game": row[0], "name": row[1], "score": row[2], "won": bool(row[3])}
                for row in conn.execute(
                    "SELECT game_id, name, score, won FROM seats WHERE local = 1"
                    " ORDER BY game_id, seat"
                )
            ]
        return {
            "games": games,
            "players": [p.to_json() for p in players],
            "ai_levels": [_level_json(level) for level in levels],
            "vs_ai": [
                {
                    "level": row[0][3:],
                    "games": row[1],
                    "wins": int(row[2] or 0),
                    "mean_score": round(row[3], 2),
                    "mean_by_source": {
                        k: round(v, 2) for k, v in zip(SCORE_KINDS, row[4:8], strict=True)
                    },
                }
                for row in vs_ai
            ],
            "last_game": last_game,
            "trend": trend,
        }


def _level_json(stats: PlayerStats) -> dict[str, Any]:
    data = stats.to_json()
    del data["name"]
    return {"level": stats.name.removeprefix("ai:"), **data}
