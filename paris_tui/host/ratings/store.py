"""Ratings: every finished game between accounts moves its players' ratings.

The model is openskill's Plackett-Luce (Weng and Lin's Bayesian approximation,
:data:`MODEL`, the library's defaults: mu 25, sigma 25/3, beta 25/6, tau
25/300). It rates a ranking of any number of players, with ties, in one
update, which is what a Paris Paris result is: 2 to 4 players in an order.
One rating per account, overall, not one per player count: the model already
weighs a game by who was in it (a win against three is worth more than a win
against one), and per-count ratings would split a host's few games three ways
and leave most players with three uncertain numbers (docs/ratings.md).

The order of a game is R7.3's, applied to every place: a higher score first,
between equal scores fewer businesses on the board first; players level on
both share the place (a shared win is a tie at the top, and a tie further down
is a tie there), as the model's ``ranks`` take them.

A game is *rated* when every seat was an account's to the end and the AI
never moved for one (:func:`judge`). An AI seat, a seat the takeover AI
(``--ai-takeover``) played even once, or a seat without an account makes the
game unrated for everyone. A seat the takeover AI was still playing when the
game ended is a *leaver*: it is ranked last (the end screen says so), and the
game is unrated.

Shown is the conservative ordinal, ``mu - 3 sigma`` (openskill's
``ordinal()``): about a 99.7 % lower bound of the skill, 0 for a newcomer,
rising as games show what a player can do (:func:`shown`).

:class:`RatingStore` keeps them: :class:`SQLiteRatings` in
``host/ratings.sqlite`` beside the accounts (WAL, ``synchronous=FULL``, one
transaction per change) and :class:`~paris_tui.host.ratings.postgres.PostgresRatings`
in the hosts' database. A game is counted once per game key
(:func:`game_key`, the table id and its deal): the result and the new
ratings are one transaction, so a replayed, resumed or twice-finished game
never counts twice and a kill -9 leaves it counted or not at all.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, get_args

from paris_tui.host.store.sqlite_file import SQLiteFile

__all__ = [
    "RATINGS_FILE",
    "Finished",
    "GameResult",
    "Rating",
    "RatingStore",
    "RatingsUnavailable",
    "Reason",
    "SQLiteRatings",
    "game_key",
    "judge",
    "new_ratings",
    "open_ratings",
    "ranks",
    "shown",
]

log = logging.getLogger("paris_tui.host.ratings")

RATINGS_FILE = "ratings.sqlite"
MU = 25.0
SIGMA = 25.0 / 3.0
LEADERBOARD_SIZE = 20
"""Rows of the lobby's leaderboard."""
HISTORY_SCAN = 5000
"""The newest finished games a player's own games are looked for among."""

Reason = Literal["ai_seat", "takeover", "leaver", "no_account", "same_person", "aborted", "unrated"]
"""Why a game was unrated: an AI seat, a seat the takeover AI played (who came
back), a seat it was still playing at the end (a leaver), a seat without an account,
two seats the host could not tell apart (one address, or one account), every
player agreed to end it before its end (aborted: no winner, everyone first), or the
table was opened unrated (an unrated tournament's: never told to a client, whose
protocol does not know the word)."""
REASONS: tuple[str, ...] = get_args(Reason)

# Schema of ratings.sqlite ("ratings"). The same tables are in the
# hosts' database (pg_schema.SCHEMA, the block marked "ratings").
SCHEMA_VERSION = 2  # 2: rating_people
_SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    account INTEGER PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rating_games (
    game TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    finished REAL NOT NULL,
    rated INTEGER NOT NULL,
    result TEXT NOT NULL,
    names TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS rating_games_finished ON rating_games(finished);
CREATE TABLE IF NOT EXISTS rating_marks (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
-- Who sat at each seat while the game went on (schema 2): a digest of an address
-- (host/ratings/people.py); two seats with one are one person to the ratings.
CREATE TABLE IF NOT EXISTS rating_people (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    person TEXT NOT NULL,
    PRIMARY KEY (table_id, seat, person)
);
"""


class RatingsUnavailable(OSError):
    """The ratings cannot be read or written (one line)."""


@functools.cache
def model() -> Any:
    """The one model every rating goes through (openskill's Plackett-Luce, its defaults)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


def shown(mu: float, sigma: float) -> float:
    """The value shown for a rating: the ordinal ``mu - 3 sigma``, one decimal."""
    return round(mu - 3.0 * sigma, 1)


@dataclass(frozen=True, slots=True)
class Rating:
    account: int
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> float:
        return shown(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game as the ratings keep it: for the lobby's list of finished games."""

    table_id: str
    names: tuple[str, ...]
    finished: float
    rated: bool
    scores: tuple[int, ...] = ()  # each seat's, when the result kept them
    places: tuple[int, ...] = ()  # each seat's place, 1 first
    after: tuple[float | None, ...] = ()  # each seat's shown rating after (rated games)
    aborted: bool = False  # every player agreed to end it early: no winner, unrated


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game as the ratings took it (kept, and sent to the table).

    ``ranks``: each seat's place (1 first; shared places are equal; a leaver
    last). ``before``/``after``: each seat's shown rating (``None`` for an
    unrated game's or a seat without an account)."""

    rated: bool
    reason: Reason | None
    ranks: tuple[int, ...]
    leavers: tuple[int, ...] = ()
    before: tuple[float | None, ...] = ()
    after: tuple[float | None, ...] = ()
    replayed: bool = field(default=False, compare=False)  # counted before: nothing changed now
    scores: tuple[int, ...] = ()  # each seat's final score (absent in older results)

    def to_json(self) -> dict[str, Any]:
        return {
            "rated": self.rated,
            "reason": self.reason,
            "ranks": list(self.ranks),
            "leavers": list(self.leavers),
            "before": list(self.before),
            "after": list(self.after),
            **({"scores": list(self.scores)} if self.scores else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameResult:
        """Raises ``ValueError`` on anything but what :meth:`to_json` writes."""
        if not isinstance(data, dict):
            raise ValueError("a game result is an object")
        rated, reason = data.get("rated"), data.get("reason")
        if not isinstance(rated, bool) or (reason is not None and reason not in REASONS):
            raise ValueError("bad rated/reason")

        def ints(key: str) -> tuple[int, ...]:
            value = data.get(key)
            if not isinstance(value, list) or len(value) > 4:
                raise ValueError(f"bad {key}")
            if not all(type(v) is int and 0 <= v <= 4 for v in value):
                raise ValueError(f"bad {key}")
            return tuple(value)

        def floats(key: str) -> tuple[float | None, ...]:
            value = data.get(key, [])
            if not isinstance(value, list) or len(value) > 4:
                raise ValueError(f"bad {key}")
            out: list[float | None] = []
            for v in value:
                if v is None:
                    out.append(None)
                elif type(v) in (int, float) and -1000.0 <= v <= 1000.0:
                    out.append(float(v))
                else:
                    raise ValueError(f"bad {key}")
            return tuple(out)

        scores = data.get("scores", [])
        if not isinstance(scores, list) or len(scores) > 4:
            raise ValueError("bad scores")
        if not all(type(v) is int and -1000 <= v <= 10_000 for v in scores):
            raise ValueError("bad scores")
        return cls(
            rated,
            reason,
            ints("ranks"),
            ints("leavers"),
            floats("before"),
            floats("after"),
            scores=tuple(scores),
        )


# --- the rules of a rated game ------------------------------------------------------------


def ranks(scores: Sequence[int], on_board: Sequence[int], leavers: Sequence[int] = ()) -> list[int]:
    """Each seat's place (1 first): R7.3 for every place, ties shared; leavers last
    (after everyone else, level with each other)."""
    n = len(scores)
    stayed = [s for s in range(n) if s not in leavers]
    key = {s: (-scores[s], on_board[s]) for s in range(n)}
    out = [0] * n
    for s in stayed:
        out[s] = 1 + sum(1 for o in stayed if key[o] < key[s])
    last = len(stayed) + 1
    for s in range(n):
        if s in leavers:
            out[s] = last
    return out


def judge(
    kinds: Sequence[str],
    owners: dict[int, int],
    marks: dict[int, str],
    people: dict[int, set[str]] | None = None,
) -> tuple[Reason | None, tuple[int, ...]]:
    """Why the game is unrated (``None``: rated) and its leavers.

    ``kinds``: each seat's ``"human"`` or ``"ai:<level>"``; ``owners``: seat ->
    account id; ``marks``: seat -> ``"takeover"`` (the takeover AI was playing
    it at the end: a leaver) or ``"returned"`` (it played it, the player came back);
    ``people``: seat -> who sat there (digests of addresses): two seats that
    share one, or one account, are one person, and the game is unrated."""
    leavers = tuple(sorted(s for s, state in marks.items() if state == "takeover"))
    if leavers:
        return "leaver", leavers
    if marks:
        return "takeover", ()
    if any(kind != "human" for kind in kinds):
        return "ai_seat", ()
    accounts = [owners.get(s) for s in range(len(kinds))]
    if None in accounts:
        return "no_account", ()
    if len(set(accounts)) != len(accounts):
        return "same_person", ()
    seen: dict[str, int] = {}
    for seat, found in sorted((people or {}).items()):
        for person in found:
            if seen.setdefault(person, seat) != seat:
                return "same_person", ()
    return None, ()


def new_ratings(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings after a game with these places (openskill's ``rate``, one player a team)."""
    m = model()
    teams = [[m.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = m.rate(teams, ranks=list(places))
    return [
        Rating(r.account, float(team[0].mu), float(team[0].sigma), r.games + 1)
        for r, team in zip(before, rated, strict=True)
    ]


def game_key(table_id: str, record_json: dict[str, Any]) -> str:
    """What a game is counted once by: its table id and its deal (a table id used
    again for another game is another key)."""
    setup = record_json.get("setup")
    players = record_json.get("players")
    digest = hashlib.sha256(
        json.dumps([setup, players], sort_keys=True, ensure_ascii=True).encode("ascii")
    ).hexdigest()[:32]
    return f"{table_id}:{digest}"


# --- the store ---------------------------------------------------------------------------


class RatingStore(Protocol):
    """Where a host keeps ratings (:class:`SQLiteRatings`, or the hosts' database).

    Every method raises :class:`RatingsUnavailable` when the store cannot answer."""

    def ratings(self, accounts: Sequence[int]) -> dict[int, Rating]:
        """The ratings of these accounts that have played a rated game."""

    def leaderboard(self, limit: int = LEADERBOARD_SIZE) -> list[Rating]:
        """The best shown ratings first (ties: more games first, then account id)."""

    def mark(self, table_id: str, seat: int, state: str) -> None:
        """The takeover AI moves for ``seat`` (``"takeover"``), or the player of a seat
        it moved for is back (``"returned"``: nothing for a seat it never moved for)."""

    def marks(self, table_id: str) -> dict[int, str]: ...

    def results(self, limit: int = 100_000) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        """The finished games' seat names and places, newest first."""
        ...

    def seen(self, table_id: str, seat: int, person: str) -> None:
        """``person`` (a digest: :mod:`~paris_tui.host.ratings.people`) sat at ``seat``."""

    def finish(
        self,
        key: str,
        table_id: str,
        kinds: Sequence[str],
        owners: dict[int, int],
        scores: Sequence[int],
        on_board: Sequence[int],
        names: Sequence[str] = (),
        aborted: bool = False,
        unrated: bool = False,
    ) -> GameResult:
        """Count a finished game once (one transaction): judge it, rank it, move
        the ratings if it is rated. A key counted before returns its result as it
        was (``replayed``). ``aborted``: every player agreed to end it early: unrated
        (reason ``aborted``), no leavers, every seat placed first. ``unrated``: the
        table was opened unrated (reason ``unrated``; its places as played)."""

    def result(self, key: str) -> GameResult | None: ...

    def games(self, limit: int = 200) -> list[Finished]:
        """The finished games counted, newest first (rated or not)."""

    def finished_games(self, limit: int = 200, player: str | None = None) -> list[Finished]:
        """:meth:`games` with each game's scores, places and ratings after; only
        those ``player`` sat in (a name, ignoring case) when one is given."""

    def close(self) -> None: ...


class SQLiteRatings(SQLiteFile):
    """:class:`RatingStore` in one SQLite file (WAL; one transaction per change).

    Safe to call from several threads (one connection behind a lock). Its
    statements are also PostgreSQL's (``?`` becomes ``%s``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, _SCHEMA, SCHEMA_VERSION, RatingsUnavailable, "the ratings")

    # --- reading ---------------------------------------------------------------------

    @staticmethod
    def _rating(row: tuple[Any, ...]) -> Rating:
        return Rating(int(row[0]), float(row[1]), float(row[2]), int(row[3]))

    def ratings(self, accounts: Sequence[int]) -> dict[int, Rating]:
        wanted = sorted({int(a) for a in accounts})[:64]
        if not wanted:
            return {}
        marks = ",".join("?" for _ in wanted)
        rows = self._read(
            f"SELECT account, mu, sigma, games FROM ratings WHERE account IN ({marks})",
            tuple(wanted),
        )
        return {int(r[0]): self._rating(r) for r in rows}

    def leaderboard(self, limit: int = LEADERBOARD_SIZE) -> list[Rating]:
        rows = self._read(
            "SELECT account, mu, sigma, games FROM ratings "
            "ORDER BY mu - 3 * sigma DESC, games DESC, account LIMIT ?",
            (max(0, min(int(limit), 10_000)),),
        )
        return [self._rating(r) for r in rows]

    def marks(self, table_id: str) -> dict[int, str]:
        rows = self._read("SELECT seat, state FROM rating_marks WHERE table_id = ?", (table_id,))
        return {int(seat): str(state) for seat, state in rows}

    def result(self, key: str) -> GameResult | None:
        rows = self._read("SELECT result FROM rating_games WHERE game = ?", (key,))
        if not rows:
            return None
        try:
            return GameResult.from_json(json.loads(str(rows[0][0])))
        except ValueError as exc:
            raise RatingsUnavailable(f"the ratings store holds a bad result: {exc}") from None

    def games(self, limit: int = 200) -> list[Finished]:
        rows = self._read(
            "SELECT table_id, finished, rated, names FROM rating_games "
            "ORDER BY finished DESC, table_id LIMIT ?",
            (max(0, min(int(limit), 10_000)),),
        )
        out: list[Finished] = []
        for table_id, finished, rated, names in rows:
            try:
                found = json.loads(str(names))
            except ValueError:
                found = []
            if not isinstance(found, list) or not all(isinstance(n, str) for n in found):
                found = []
            out.append(Finished(str(table_id), tuple(found), float(finished), bool(rated)))
        return out

    def results(self, limit: int = 100_000) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        """The finished games' seat names and places, newest first (the operator's
        ``host ratings --pairs``)."""
        rows = self._read(
            "SELECT names, result FROM rating_games ORDER BY finished DESC LIMIT ?",
            (max(0, min(int(limit), 1_000_000)),),
        )
        out: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
        for names, result in rows:
            try:
                found = json.loads(str(names))
                places = GameResult.from_json(json.loads(str(result))).ranks
            except ValueError:
                continue
            if isinstance(found, list) and all(isinstance(n, str) for n in found):
                out.append((tuple(found), places))
        return out

    def finished_games(self, limit: int = 200, player: str | None = None) -> list[Finished]:
        limit = max(0, min(int(limit), 10_000))
        key = None if player is None else player.casefold()
        # A player's games are looked for among the newest this many (a page of them).
        scan = limit if key is None else HISTORY_SCAN
        rows = self._read(
            "SELECT table_id, finished, rated, names, result FROM rating_games "
            "ORDER BY finished DESC, table_id LIMIT ?",
            (scan,),
        )
        out: list[Finished] = []
        for table_id, finished, rated, names, result in rows:
            found = _names_of(names)
            if key is not None and not any(n.casefold() == key for n in found):
                continue
            try:
                kept = GameResult.from_json(json.loads(str(result)))
            except ValueError:
                kept = GameResult(bool(rated), None, ())
            n = len(found)
            aborted = kept.reason == "aborted"
            # A result of another seat count is not shown; an aborted game has no places.
            fits = len(kept.ranks) == n and not aborted
            out.append(
                Finished(
                    str(table_id),
                    found,
                    float(finished),
                    bool(rated),
                    kept.scores if len(kept.scores) == n else (),
                    kept.ranks if fits else (),
                    kept.after if len(kept.after) == n else (),
                    aborted,
                )
            )
            if len(out) >= limit:
                break
        return out

    # --- writing ---------------------------------------------------------------------

    def seen(self, table_id: str, seat: int, person: str) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO rating_people (table_id, seat, person) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id, seat, person) DO NOTHING",
                (table_id, seat, person),
            )

    def mark(self, table_id: str, seat: int, state: str) -> None:
        with self._tx() as db:
            if state == "returned":  # only a seat the AI moved for has come back
                db.execute(
                    "UPDATE rating_marks SET state = ? WHERE table_id = ? AND seat = ?",
                    (state, table_id, seat),
                )
                return
            db.execute(
                "INSERT INTO rating_marks (table_id, seat, state) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id, seat) DO UPDATE SET state = excluded.state",
                (table_id, seat, state),
            )

    def finish(
        self,
        key: str,
        table_id: str,
        kinds: Sequence[str],
        owners: dict[int, int],
        scores: Sequence[int],
        on_board: Sequence[int],
        names: Sequence[str] = (),
        aborted: bool = False,
        unrated: bool = False,
    ) -> GameResult:
        with self._tx() as db:
            row = db.execute("SELECT result FROM rating_games WHERE game = ?", (key,)).fetchone()
            if row is not None:
                try:
                    old = GameResult.from_json(json.loads(str(row[0])))
                except ValueError as exc:
                    raise RatingsUnavailable(
                        f"the ratings store holds a bad result: {exc}"
                    ) from None
                return GameResult(
                    old.rated,
                    old.reason,
                    old.ranks,
                    old.leavers,
                    old.before,
                    old.after,
                    True,
                    scores=old.scores,
                )
            found = db.execute(
                "SELECT seat, state FROM rating_marks WHERE table_id = ?", (table_id,)
            ).fetchall()
            marks = {int(seat): str(state) for seat, state in found}
            people: dict[int, set[str]] = {}
            for seat, person in db.execute(
                "SELECT seat, person FROM rating_people WHERE table_id = ?", (table_id,)
            ).fetchall():
                people.setdefault(int(seat), set()).add(str(person))
            reason, leavers = judge(kinds, owners, marks, people)
            places = ranks(scores, on_board, leavers)
            if aborted:
                reason, leavers, places = "aborted", (), [1] * len(kinds)
            elif unrated:  # an unrated tournament's table: nobody's rating moves
                reason = "unrated"
            n = len(kinds)
            before: list[float | None] = [None] * n
            after: list[float | None] = [None] * n
            if reason is None:
                accounts = [owners[s] for s in range(n)]
                held: dict[int, Rating] = {}
                for account in accounts:
                    got = db.execute(
                        "SELECT account, mu, sigma, games FROM ratings WHERE account = ?",
                        (account,),
                    ).fetchone()
                    held[account] = self._rating(got) if got else Rating(account)
                old_ratings = [held[a] for a in accounts]
                now = time.time()
                for seat, rating in enumerate(new_ratings(old_ratings, places)):
                    before[seat] = old_ratings[seat].shown
                    after[seat] = rating.shown
                    db.execute(
                        "INSERT INTO ratings (account, mu, sigma, games, updated) "
                        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (account) DO UPDATE SET "
                        "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                        "updated = excluded.updated",
                        (rating.account, rating.mu, rating.sigma, rating.games, now),
                    )
            result = GameResult(
                reason is None,
                reason,
                tuple(places),
                leavers,
                tuple(before),
                tuple(after),
                scores=tuple(scores),
            )
            db.execute(
                "INSERT INTO rating_games (game, table_id, finished, rated, result, names) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    key,
                    table_id,
                    time.time(),
                    int(reason is None),
                    json.dumps(result.to_json()),
                    json.dumps(list(names), ensure_ascii=False),
                ),
            )
            db.execute("DELETE FROM rating_marks WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM rating_people WHERE table_id = ?", (table_id,))
        if result.rated:
            log.info("table %s: rated (places %s)", table_id, result.ranks)
        else:
            log.info("table %s: unrated (%s)", table_id, reason)
        return result


def _names_of(kept: Any) -> tuple[str, ...]:
    """The seats' names a ``rating_games`` row keeps (none if the column is bad)."""
    try:
        found = json.loads(str(kept))
    except ValueError:
        return ()
    if not isinstance(found, list) or not all(isinstance(n, str) for n in found):
        return ()
    return tuple(found)


def open_ratings(root: Path) -> SQLiteRatings:
    """The ratings of a host's data folder (``root`` is ``<data dir>/host``)."""
    root.mkdir(parents=True, exist_ok=True)
    return SQLiteRatings(root / RATINGS_FILE)
