"""Tournaments kept: settings, entrants, rounds, their tables and results.

:class:`SQLiteTournaments` keeps them in ``host/tournaments.sqlite`` beside the
accounts (WAL, ``synchronous=FULL``, one transaction per change, so a kill -9
loses nothing acknowledged); :class:`~paris_tui.host.tournaments.postgres.PostgresTournaments`
in the hosts' database, by the same statements. A round is written whole in one
transaction (its tables and byes), and only as the next one: two hosts pairing
the same round at once write it once, and the second is told it is there.

Entrants are accounts: a key of the pairing is the account's id as text.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paris_tui.host.store.sqlite_file import SQLiteFile
from paris_tui.host.tournaments.engine import Entrant, Plan
from paris_tui.host.tournaments.pairing import Round, Table
from paris_tui.i18n import _

__all__ = [
    "LEASE_SECONDS",
    "STATES",
    "TOURNAMENTS_FILE",
    "Fence",
    "SQLiteTournaments",
    "Tournament",
    "TournamentError",
    "TournamentsUnavailable",
    "open_tournaments",
]

TOURNAMENTS_FILE = "tournaments.sqlite"
STATES = ("open", "running", "finished", "cancelled")
"""open: taking entries until its start; running: its rounds are being played;
finished; cancelled by the operator."""

SCHEMA_VERSION = 2  # 2: tournament_tables.opened and .absent
# The same tables are in the hosts' database (pg_schema.SCHEMA, schemas 9 and 10).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL,
    format TEXT NOT NULL,
    players INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    move_time REAL NOT NULL,
    start REAL NOT NULL,
    rated INTEGER NOT NULL,
    min_games INTEGER NOT NULL,
    state TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_entrants (
    tournament INTEGER NOT NULL,
    account INTEGER NOT NULL,
    name TEXT NOT NULL,
    rating REAL NOT NULL,
    joined INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament, account)
);
CREATE TABLE IF NOT EXISTS tournament_tables (
    tournament INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    seats TEXT NOT NULL,
    table_id TEXT,
    places TEXT,
    claimed TEXT,
    claim_until REAL,
    opened REAL,
    absent TEXT,
    PRIMARY KEY (tournament, round, table_no)
);
-- After every game over: is it a tournament's table (table_of)? Made on opening a file too.
CREATE INDEX IF NOT EXISTS tournament_tables_table ON tournament_tables(table_id);
CREATE TABLE IF NOT EXISTS tournament_byes (
    tournament INTEGER NOT NULL,
    round INTEGER NOT NULL,
    account INTEGER NOT NULL,
    PRIMARY KEY (tournament, round, account)
);
CREATE TABLE IF NOT EXISTS tournament_rounds (
    tournament INTEGER NOT NULL,
    round INTEGER NOT NULL,
    paired REAL NOT NULL,
    PRIMARY KEY (tournament, round)
);
"""


_ADDED_COLUMNS = (("opened", "REAL"), ("absent", "TEXT"))
"""tournament_tables' columns of schema 2: when the host's table was opened (the
absence rule's grace runs from then), and the keys marked absent there (JSON)."""


LEASE_SECONDS = 15.0
"""How long a host's lease of a tournament's pairing lasts unless renewed (every look,
:data:`~paris_tui.host.services.tournaments.TICK`, renews it)."""


@dataclass(frozen=True)
class Fence:
    """A host's lease of a tournament: its holder and the epoch it was taken at."""

    holder: str
    epoch: int


class TournamentsUnavailable(OSError):
    """The store cannot be read or written."""


class TournamentError(ValueError):
    """A change the store refuses, with a sentence for the operator."""


@dataclass(frozen=True)
class Tournament:
    id: int
    name: str
    format: str
    players: int
    rounds: int
    move_time: float
    start: float
    rated: bool
    min_games: int
    state: str
    created: float

    @property
    def plan(self) -> Plan:
        return Plan(self.format, self.players, self.rounds)


_COLUMNS = "id, name, format, players, rounds, move_time, start, rated, min_games, state, created"


def _tournament(row: Sequence[Any]) -> Tournament:
    return Tournament(
        int(row[0]),
        str(row[1]),
        str(row[2]),
        int(row[3]),
        int(row[4]),
        float(row[5]),
        float(row[6]),
        bool(row[7]),
        int(row[8]),
        str(row[9]),
        float(row[10]),
    )


class SQLiteTournaments(SQLiteFile):
    """The tournaments in one SQLite file (WAL; one transaction per change). Its
    statements are also PostgreSQL's (``?`` becomes ``%s``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, _SCHEMA, SCHEMA_VERSION, TournamentsUnavailable, "the tournaments")
        self._add_columns()

    def _add_columns(self) -> None:
        """A file of schema 1: the columns schema 2 added to its tables (none yet: when
        its tables were opened, who was absent)."""
        with self._lock:
            try:
                have = {str(r[1]) for r in self._db.execute("PRAGMA table_info(tournament_tables)")}
                for column, kind in _ADDED_COLUMNS:
                    if column not in have:
                        self._db.execute(
                            f"ALTER TABLE tournament_tables ADD COLUMN {column} {kind}"
                        )
            except sqlite3.Error as exc:
                raise TournamentsUnavailable(f"the tournaments store failed: {exc}") from None

    # --- tournaments ------------------------------------------------------------------

    def create(
        self,
        name: str,
        plan: Plan,
        *,
        move_time: float,
        start: float,
        rated: bool = False,
        min_games: int = 0,
    ) -> Tournament:
        """A new open tournament; a name an open or running one has is refused."""
        folded = name.casefold()
        now = time.time()
        with self._tx() as db:
            clash = db.execute(
                "SELECT id FROM tournaments WHERE folded = ? AND state IN ('open', 'running')",
                (folded,),
            ).fetchone()
            if clash is not None:
                raise TournamentError(
                    _("a tournament named {name} is already open or running").format(name=name)
                )
            row = db.execute(
                "INSERT INTO tournaments (name, folded, format, players, rounds, move_time, "
                "start, rated, min_games, state, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?) RETURNING id",
                (
                    name,
                    folded,
                    plan.format,
                    plan.players,
                    plan.rounds,
                    float(move_time),
                    float(start),
                    int(rated),
                    int(min_games),
                    now,
                ),
            ).fetchone()
        found = self.get(int(row[0]))
        assert found is not None
        return found

    def get(self, tournament: int) -> Tournament | None:
        rows = self._read(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament,))
        return _tournament(rows[0]) if rows else None

    def find(self, name: str) -> Tournament | None:
        """The newest tournament of that name (any case), or ``None``."""
        rows = self._read(
            f"SELECT {_COLUMNS} FROM tournaments WHERE folded = ? ORDER BY id DESC LIMIT 1",
            (name.casefold(),),
        )
        return _tournament(rows[0]) if rows else None

    def tournaments(self, states: Sequence[str] = STATES, limit: int = 1000) -> list[Tournament]:
        """The tournaments in ``states``, by start, then id."""
        marks = ", ".join("?" for _ in states)
        rows = self._read(
            f"SELECT {_COLUMNS} FROM tournaments WHERE state IN ({marks}) "
            "ORDER BY start, id LIMIT ?",
            (*states, int(limit)),
        )
        return [_tournament(r) for r in rows]

    def set_state(self, tournament: int, state: str, *, was: Sequence[str] = STATES) -> bool:
        """Move a tournament to ``state`` if it is in one of ``was``; whether it moved."""
        if state not in STATES:
            raise TournamentError(f"no state {state}")
        marks = ", ".join("?" for _ in was)
        with self._tx() as db:
            row = db.execute(
                f"UPDATE tournaments SET state = ? WHERE id = ? AND state IN ({marks}) "
                "RETURNING id",
                (state, tournament, *was),
            ).fetchone()
        return row is not None

    def cancel(self, tournament: int) -> bool:
        """Cancel an open or running tournament (its played rounds are kept)."""
        return self.set_state(tournament, "cancelled", was=("open", "running"))

    # --- entrants ---------------------------------------------------------------------

    def enter(self, tournament: int, account: int, name: str, rating: float) -> Entrant:
        """Enter an account: for round 1 while the tournament is open, for the next round
        of a running Swiss one (a late join); again after withdrawing, from the next round."""
        with self._tx() as db:
            row = db.execute(
                "SELECT state, format FROM tournaments WHERE id = ?", (tournament,)
            ).fetchone()
            if row is None:
                raise TournamentError(_("no such tournament"))
            state, fmt = str(row[0]), str(row[1])
            if state not in ("open", "running") or (state == "running" and fmt != "swiss"):
                raise TournamentError(_("this tournament takes no more entries"))
            paired = db.execute(
                "SELECT count(*) FROM tournament_rounds WHERE tournament = ?", (tournament,)
            ).fetchone()
            joined = int(paired[0]) + 1 if state == "running" else 1
            old = db.execute(
                "SELECT withdrawn FROM tournament_entrants WHERE tournament = ? AND account = ?",
                (tournament, account),
            ).fetchone()
            if old is not None and not old[0]:
                raise TournamentError(_("already entered"))
            if old is not None:
                db.execute(
                    "UPDATE tournament_entrants SET withdrawn = 0, joined = ? "
                    "WHERE tournament = ? AND account = ?",
                    (joined, tournament, account),
                )
            else:
                db.execute(
                    "INSERT INTO tournament_entrants (tournament, account, name, rating, joined) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (tournament, account, name, float(rating), joined),
                )
        return Entrant(str(account), float(rating), joined)

    def withdraw(self, tournament: int, account: int) -> bool:
        """Withdraw an entrant from the next round on (their results stay)."""
        with self._tx() as db:
            row = db.execute(
                "UPDATE tournament_entrants SET withdrawn = 1 "
                "WHERE tournament = ? AND account = ? AND withdrawn = 0 RETURNING account",
                (tournament, account),
            ).fetchone()
        return row is not None

    def entrants(self, tournament: int) -> list[Entrant]:
        rows = self._read(
            "SELECT account, rating, joined, withdrawn FROM tournament_entrants "
            "WHERE tournament = ? ORDER BY account",
            (tournament,),
        )
        return [Entrant(str(r[0]), float(r[1]), int(r[2]), bool(r[3])) for r in rows]

    def names(self, tournament: int) -> dict[str, str]:
        """Each entrant's key and name (the name they entered under)."""
        rows = self._read(
            "SELECT account, name FROM tournament_entrants WHERE tournament = ?", (tournament,)
        )
        return {str(r[0]): str(r[1]) for r in rows}

    # --- rounds -----------------------------------------------------------------------

    def lease(self, tournament: int, holder: str, seconds: float = LEASE_SECONDS) -> Fence | None:
        """The right to pair and open the tournament's rounds, for ``seconds``: the
        fence its writes are checked against, or ``None`` while another holder has it.
        One file is one host's (its folder is locked): always granted here;
        :class:`~paris_tui.host.tournaments.postgres.PostgresTournaments` keeps leases
        as a table's."""
        return Fence(holder, 0)

    def release(self, holder: str) -> None:
        """Give back every tournament lease of ``holder`` (a host's clean stop)."""

    def _fenced(self, db: Any, tournament: int, fence: Fence | None) -> bool:
        """Whether ``fence`` still holds the tournament's lease (inside ``db``'s
        transaction); no fence, or one file: yes."""
        return True

    def add_round(self, tournament: int, rnd: Round, fence: Fence | None = None) -> bool:
        """Write a newly paired round whole; ``False`` if that round is already there (an
        other host paired it first), the tournament is not running, or ``fence`` no
        longer holds its lease."""
        with self._tx() as db:
            if not self._fenced(db, tournament, fence):
                return False
            row = db.execute("SELECT state FROM tournaments WHERE id = ?", (tournament,)).fetchone()
            if row is None or str(row[0]) != "running":
                return False
            last = db.execute(
                "SELECT count(*) FROM tournament_rounds WHERE tournament = ?", (tournament,)
            ).fetchone()
            if int(last[0]) + 1 != rnd.number:
                return False
            db.execute(
                "INSERT INTO tournament_rounds (tournament, round, paired) VALUES (?, ?, ?)",
                (tournament, rnd.number, time.time()),
            )
            for no, table in enumerate(rnd.tables, start=1):
                db.execute(
                    "INSERT INTO tournament_tables (tournament, round, table_no, seats, places) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (
                        tournament,
                        rnd.number,
                        no,
                        json.dumps(list(table.seats)),
                        None if table.places is None else json.dumps(list(table.places)),
                    ),
                )
            for key in rnd.byes:
                db.execute(
                    "INSERT INTO tournament_byes (tournament, round, account) VALUES (?, ?, ?)",
                    (tournament, rnd.number, int(key)),
                )
        return True

    def open_table(
        self,
        tournament: int,
        number: int,
        table_no: int,
        table_id: str,
        opened: float | None = None,
        fence: Fence | None = None,
    ) -> bool:
        """Record the host's table that plays a round's table, and when it opened;
        ``False`` (nothing written) if another host's table plays it already or
        ``fence`` no longer holds the tournament's lease."""
        with self._tx() as db:
            if not self._fenced(db, tournament, fence):
                return False
            row = db.execute(
                "UPDATE tournament_tables SET table_id = ?, opened = ? "
                "WHERE tournament = ? AND round = ? AND table_no = ? AND table_id IS NULL "
                "RETURNING table_no",
                (table_id, time.time() if opened is None else opened, tournament, number, table_no),
            ).fetchone()
        return row is not None

    def unchecked(self, tournament: int, number: int) -> list[tuple[int, str, float]]:
        """Round ``number``'s tables open and still being played whose absent players
        are not looked for yet: each one's number, host table and when it opened."""
        rows = self._read(
            "SELECT table_no, table_id, opened FROM tournament_tables WHERE tournament = ? "
            "AND round = ? AND table_id IS NOT NULL AND places IS NULL AND absent IS NULL "
            "ORDER BY table_no",
            (tournament, number),
        )
        return [(int(r[0]), str(r[1]), float(r[2] or 0.0)) for r in rows]

    def mark_absent(
        self, tournament: int, number: int, table_no: int, keys: Sequence[str]
    ) -> list[str]:
        """Record who was absent at a table's start (none: ``[]``), once; then withdraw
        each of them who was absent at their previous table too (two in a row). The
        keys withdrawn; ``[]`` also when the table was looked at already."""
        withdrawn: list[str] = []
        with self._tx() as db:
            row = db.execute(
                "UPDATE tournament_tables SET absent = ? WHERE tournament = ? AND round = ? "
                "AND table_no = ? AND absent IS NULL RETURNING table_no",
                (json.dumps(list(keys)), tournament, number, table_no),
            ).fetchone()
            if row is None:
                return []
            for key in keys:
                before = db.execute(
                    "SELECT seats, absent FROM tournament_tables WHERE tournament = ? "
                    "AND round < ? ORDER BY round DESC",
                    (tournament, number),
                ).fetchall()
                last = next((a for s, a in before if key in json.loads(s)), None)
                if last is None or key not in json.loads(last or "[]"):
                    continue
                gone = db.execute(
                    "UPDATE tournament_entrants SET withdrawn = 1 WHERE tournament = ? "
                    "AND account = ? AND withdrawn = 0 RETURNING account",
                    (tournament, int(key)),
                ).fetchone()
                if gone is not None:
                    withdrawn.append(key)
        return withdrawn

    def absences(self, tournament: int) -> dict[int, list[str]]:
        """Each round's keys marked absent (rounds whose tables were looked at)."""
        out: dict[int, list[str]] = {}
        for number, absent in self._read(
            "SELECT round, absent FROM tournament_tables WHERE tournament = ? "
            "AND absent IS NOT NULL ORDER BY round, table_no",
            (tournament,),
        ):
            out.setdefault(int(number), []).extend(str(k) for k in json.loads(absent))
        return out

    def finish_table(
        self, tournament: int, number: int, table_no: int, places: Sequence[int]
    ) -> bool:
        """Record a table's places (1 first, level players share); ``False`` if it had
        them already (a game over heard twice counts once)."""
        with self._tx() as db:
            row = db.execute(
                "UPDATE tournament_tables SET places = ? WHERE tournament = ? AND round = ? "
                "AND table_no = ? AND places IS NULL RETURNING table_no",
                (json.dumps([int(p) for p in places]), tournament, number, table_no),
            ).fetchone()
        return row is not None

    def unopened(self, tournament: int, number: int) -> list[int]:
        """The numbers of round ``number``'s tables no host table plays yet."""
        rows = self._read(
            "SELECT table_no FROM tournament_tables WHERE tournament = ? AND round = ? "
            "AND table_id IS NULL ORDER BY table_no",
            (tournament, number),
        )
        return [int(r[0]) for r in rows]

    def claim_table(
        self, tournament: int, number: int, table_no: int, holder: str, seconds: float = 60.0
    ) -> bool:
        """Claim the opening of a table no host table plays yet, for ``seconds``:
        ``False`` if it is open or another holder's claim still runs (two hosts
        never open one table twice; a host that died lets the claim run out)."""
        now = time.time()
        with self._tx() as db:
            row = db.execute(
                "UPDATE tournament_tables SET claimed = ?, claim_until = ? "
                "WHERE tournament = ? AND round = ? AND table_no = ? AND table_id IS NULL "
                "AND (claimed IS NULL OR claimed = ? OR claim_until < ?) RETURNING table_no",
                (holder, now + seconds, tournament, number, table_no, holder, now),
            ).fetchone()
        return row is not None

    def table_of(self, table_id: str) -> tuple[int, int, int] | None:
        """The tournament, round and table number a host's table plays, if any."""
        rows = self._read(
            "SELECT tournament, round, table_no FROM tournament_tables WHERE table_id = ?",
            (table_id,),
        )
        return (int(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else None

    def current(self, tournament: int) -> tuple[int, bool] | None:
        """The latest round paired and whether it is over (every table has its places), in
        one small read; ``None`` before round 1 (a host's look at a round it handled)."""
        rows = self._read(
            "SELECT r.round, (SELECT count(*) FROM tournament_tables t "
            "WHERE t.tournament = r.tournament AND t.round = r.round AND t.places IS NULL) "
            "FROM tournament_rounds r WHERE r.tournament = ? ORDER BY r.round DESC LIMIT 1",
            (tournament,),
        )
        return (int(rows[0][0]), int(rows[0][1]) == 0) if rows else None

    def rounds(self, tournament: int) -> list[Round]:
        """The rounds paired so far, with the tables' results where they are over."""
        numbers = [
            int(r[0])
            for r in self._read(
                "SELECT round FROM tournament_rounds WHERE tournament = ? ORDER BY round",
                (tournament,),
            )
        ]
        tables: dict[int, list[Table]] = {n: [] for n in numbers}
        for number, seats, places in self._read(
            "SELECT round, seats, places FROM tournament_tables WHERE tournament = ? "
            "ORDER BY round, table_no",
            (tournament,),
        ):
            tables.setdefault(int(number), []).append(
                Table(
                    tuple(str(s) for s in json.loads(seats)),
                    None if places is None else tuple(int(p) for p in json.loads(places)),
                )
            )
        byes: dict[int, list[str]] = {n: [] for n in numbers}
        for number, account in self._read(
            "SELECT round, account FROM tournament_byes WHERE tournament = ? "
            "ORDER BY round, account",
            (tournament,),
        ):
            byes.setdefault(int(number), []).append(str(account))
        return [Round(n, tuple(tables[n]), tuple(byes[n])) for n in numbers]

    # --- read by the lobbies (host/services/tournament_desk.py) --------------------------

    def table_ids(self, tournament: int) -> dict[tuple[int, int], str]:
        """The host's table that plays each opened table, by (round, table number)."""
        rows = self._read(
            "SELECT round, table_no, table_id FROM tournament_tables "
            "WHERE tournament = ? AND table_id IS NOT NULL",
            (tournament,),
        )
        return {(int(r[0]), int(r[1])): str(r[2]) for r in rows}

    def counts(self) -> dict[int, tuple[int, int]]:
        """Each tournament's entrants in it now (not withdrawn) and rounds paired so far
        (a tournament with neither is left out)."""
        found: dict[int, list[int]] = {}
        for tid, n in self._read(
            "SELECT tournament, count(*) FROM tournament_entrants WHERE withdrawn = 0 "
            "GROUP BY tournament"
        ):
            found.setdefault(int(tid), [0, 0])[0] = int(n)
        for tid, n in self._read(
            "SELECT tournament, count(*) FROM tournament_rounds GROUP BY tournament"
        ):
            found.setdefault(int(tid), [0, 0])[1] = int(n)
        return {tid: (v[0], v[1]) for tid, v in found.items()}

    def entered(self, account: int) -> set[int]:
        """The tournaments ``account`` is in now (entered, not withdrawn)."""
        rows = self._read(
            "SELECT tournament FROM tournament_entrants WHERE account = ? AND withdrawn = 0",
            (account,),
        )
        return {int(r[0]) for r in rows}


def open_tournaments(root: Path) -> SQLiteTournaments:
    """The tournaments of a host's data folder (``root`` is ``<data dir>/host``)."""
    root.mkdir(parents=True, exist_ok=True)
    return SQLiteTournaments(root / TOURNAMENTS_FILE)
