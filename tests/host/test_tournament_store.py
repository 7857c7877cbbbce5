"""Tournaments kept in the host's store: the data folder's SQLite and the hosts' PostgreSQL.

Each test runs against both (``store``, tests/host/conftest.py): a tournament, its
entrants, its rounds with tables and byes, the results, read back after the store
is closed and opened again (a restart), and the guards a second host relies on.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from pg import PostgresServer

from paris_tui.host.store.postgres import PostgresStore
from paris_tui.host.tournaments.engine import Plan, next_round
from paris_tui.host.tournaments.pairing import Round, Table
from paris_tui.host.tournaments.standings import standings
from paris_tui.host.tournaments.store import (
    SQLiteTournaments,
    TournamentError,
    open_tournaments,
)


@contextmanager
def opened(tmp_path: Path, store: str | None) -> Iterator[SQLiteTournaments]:
    """The tournaments of the chosen store, closed after (a host's stop)."""
    if store is None:
        kept = open_tournaments(tmp_path / "host")
        try:
            yield kept
        finally:
            kept.close()
        return
    from paris_tui.host.tournaments.postgres import PostgresTournaments

    tables = PostgresStore(store, pool_size=2)
    tables.open()
    try:
        yield PostgresTournaments(tables.pool)
    finally:
        tables.close()


def test_a_tournament_survives_a_restart_round_by_round(tmp_path: Path, store: str | None) -> None:
    plan = Plan("swiss", 3, 3)
    rng = random.Random(3)
    with opened(tmp_path, store) as kept:
        made = kept.create("Winter Cup", plan, move_time=120.0, start=1_900_000_000.0, rated=True)
        assert made.state == "open" and made.plan == plan and made.rated
        for account in range(1, 8):
            kept.enter(made.id, account, f"player{account}", rating=40.0 - account)
        with pytest.raises(TournamentError):
            kept.enter(made.id, 3, "player3", 37.0)
        assert kept.set_state(made.id, "running", was=("open",))
        first = next_round(plan, kept.entrants(made.id), kept.rounds(made.id))
        assert first is not None
        assert kept.add_round(made.id, first)
        assert not kept.add_round(made.id, first), "a round written twice is refused"
        kept.open_table(made.id, 1, 1, "t-one")
    with opened(tmp_path, store) as kept:  # a restart mid-round
        again = kept.find("winter cup")
        assert again is not None and again.state == "running" and again.id == made.id
        assert kept.rounds(made.id) == [first]
        assert kept.table_of("t-one") == (made.id, 1, 1)
        for no, table in enumerate(first.tables, start=1):
            places = list(range(1, len(table.seats) + 1))
            rng.shuffle(places)
            assert kept.finish_table(made.id, 1, no, places)
            assert not kept.finish_table(made.id, 1, no, places), "a result counts once"
        assert kept.withdraw(made.id, 7)
        assert not kept.withdraw(made.id, 7)
        late = kept.enter(made.id, 9, "latecomer", 20.0)
        assert late.joined == 2
    with opened(tmp_path, store) as kept:
        rounds = kept.rounds(made.id)
        assert rounds[0].over and rounds[0].byes == first.byes
        entrants = kept.entrants(made.id)
        assert {e.key for e in entrants if e.withdrawn} == {"7"}
        second = next_round(plan, entrants, rounds)
        assert second is not None
        seated = {k for t in second.tables for k in t.seats} | set(second.byes)
        assert "7" not in seated and "9" in seated
        assert kept.add_round(made.id, second)
        assert kept.rounds(made.id)[1] == second
        assert kept.names(made.id)["9"] == "latecomer"
        rows = standings([e.key for e in entrants], kept.rounds(made.id), 3)
        assert len(rows) == 8


def test_names_states_and_cancel(tmp_path: Path, store: str | None) -> None:
    plan = Plan("knockout", 4, 0)
    with opened(tmp_path, store) as kept:
        one = kept.create("Open", plan, move_time=86400.0, start=1.0)
        with pytest.raises(TournamentError):
            kept.create("OPEN", plan, move_time=60.0, start=2.0)
        assert kept.cancel(one.id)
        assert not kept.cancel(one.id), "a cancelled tournament stays cancelled"
        assert not kept.add_round(one.id, Round(1, (Table(("1", "2")),))), "not running"
        with pytest.raises(TournamentError):
            kept.enter(one.id, 1, "ann", 0.0)
        two = kept.create("Open", plan, move_time=60.0, start=2.0)
        assert two.id != one.id
        assert [t.state for t in kept.tournaments()] == ["cancelled", "open"]
        assert [t.id for t in kept.tournaments(("open",))] == [two.id]
        assert kept.find("open") == two
        assert kept.get(10_000) is None


def test_the_current_round_and_whether_it_is_over_in_one_read(
    tmp_path: Path, store: str | None
) -> None:
    plan = Plan("swiss", 2, 2)
    with opened(tmp_path, store) as kept:
        made = kept.create("Now", plan, move_time=120.0, start=1.0)
        for account in range(1, 6):
            kept.enter(made.id, account, f"player{account}", rating=10.0 - account)
        other = kept.create("Other", plan, move_time=120.0, start=1.0)
        assert kept.set_state(made.id, "running") and kept.set_state(other.id, "running")
        assert kept.current(made.id) is None, "before round 1"
        for number in (1, 2):
            rnd = next_round(plan, kept.entrants(made.id), kept.rounds(made.id))
            assert rnd is not None and rnd.number == number and len(rnd.tables) == 2
            assert kept.add_round(made.id, rnd)
            assert kept.current(made.id) == (number, False)
            assert kept.finish_table(made.id, number, 1, [1, 2])
            assert kept.current(made.id) == (number, False), "a table still played"
            assert kept.finish_table(made.id, number, 2, [2, 1])
            assert kept.current(made.id) == (number, True)
            assert kept.current(made.id) == (kept.rounds(made.id)[-1].number, True)
        assert kept.current(other.id) is None, "another tournament's rounds are its own"


@pytest.fixture
def database(postgres: PostgresServer) -> str:
    return postgres.dsn(postgres.create_database())


def test_a_database_of_schema_8_gains_the_tournaments(database: str) -> None:
    from paris_tui.host.store.pg_schema import SCHEMA_VERSION, ensure_schema
    from paris_tui.host.tournaments.postgres import PostgresTournaments

    tables = PostgresStore(database, pool_size=2)
    tables.open()
    try:
        with tables.pool.connection() as conn, conn.transaction():
            for name in ("leases", "byes", "tables", "rounds", "entrants"):
                conn.execute(f"DROP TABLE tournament_{name}")
            conn.execute("DROP TABLE tournaments")
            conn.execute("UPDATE paris_schema SET version = 8")
        ensure_schema(tables.pool)
        with tables.pool.connection() as conn:
            assert conn.execute("SELECT version FROM paris_schema").fetchone() == (SCHEMA_VERSION,)
        assert SCHEMA_VERSION >= 9
        kept = PostgresTournaments(tables.pool)
        assert kept.create("After", Plan("swiss", 2, 1), move_time=60.0, start=0.0).id >= 1
    finally:
        tables.close()


def test_a_table_is_claimed_by_one_holder_until_the_claim_runs_out(
    tmp_path: Path, store: str | None
) -> None:
    with opened(tmp_path, store) as kept:
        made = kept.create("Claims", Plan("swiss", 2, 1), move_time=60.0, start=0.0)
        assert kept.set_state(made.id, "running", was=("open",))
        assert kept.add_round(made.id, Round(1, (Table(("1", "2")), Table(("3", "4")))))
        assert kept.claim_table(made.id, 1, 1, "host-a")
        assert kept.claim_table(made.id, 1, 1, "host-a"), "its holder may claim it again"
        assert not kept.claim_table(made.id, 1, 1, "host-b"), "a running claim holds"
        assert kept.claim_table(made.id, 1, 2, "host-b", seconds=-1.0)
        assert kept.claim_table(made.id, 1, 2, "host-a"), "a claim that ran out is free"
        kept.open_table(made.id, 1, 1, "t7")
        assert not kept.claim_table(made.id, 1, 1, "host-a"), "an opened table is not claimed"
        assert kept.unopened(made.id, 1) == [2]


def test_a_database_of_schema_9_gains_the_absences_and_the_leases(database: str) -> None:
    from paris_tui.host.store.pg_schema import SCHEMA_VERSION, ensure_schema
    from paris_tui.host.tournaments.postgres import PostgresTournaments

    tables = PostgresStore(database, pool_size=2)
    tables.open()
    try:
        with tables.pool.connection() as conn, conn.transaction():
            conn.execute("DROP TABLE tournament_leases")
            conn.execute("ALTER TABLE tournament_tables DROP COLUMN opened")
            conn.execute("ALTER TABLE tournament_tables DROP COLUMN absent")
            conn.execute("UPDATE paris_schema SET version = 9")
        ensure_schema(tables.pool)
        with tables.pool.connection() as conn:
            assert conn.execute("SELECT version FROM paris_schema").fetchone() == (SCHEMA_VERSION,)
        assert SCHEMA_VERSION == 10
        kept = PostgresTournaments(tables.pool)
        made = kept.create("After", Plan("swiss", 2, 1), move_time=60.0, start=0.0)
        assert kept.set_state(made.id, "running")
        assert kept.lease(made.id, "host-a") is not None
        assert kept.add_round(made.id, Round(1, (Table(("1", "2")),)))
        assert kept.open_table(made.id, 1, 1, "t1", opened=5.0)
        assert kept.unchecked(made.id, 1) == [(1, "t1", 5.0)]
        assert kept.mark_absent(made.id, 1, 1, ["2"]) == []
        assert kept.absences(made.id) == {1: ["2"]}
    finally:
        tables.close()


def test_a_file_of_schema_1_gains_the_absences(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "tournaments.sqlite"
    SQLiteTournaments(path).close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE tournament_tables DROP COLUMN opened")
    db.execute("ALTER TABLE tournament_tables DROP COLUMN absent")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    kept = SQLiteTournaments(path)
    try:
        made = kept.create("Old", Plan("swiss", 2, 1), move_time=60.0, start=0.0)
        assert kept.set_state(made.id, "running")
        assert kept.add_round(made.id, Round(1, (Table(("1", "2")),)))
        assert kept.open_table(made.id, 1, 1, "t1", opened=5.0)
        assert kept.mark_absent(made.id, 1, 1, ["1"]) == []
        assert kept.absences(made.id) == {1: ["1"]}
    finally:
        kept.close()


def test_two_absences_in_a_row_withdraw_and_a_table_between_resets(
    tmp_path: Path, store: str | None
) -> None:
    with opened(tmp_path, store) as kept:
        _absent_twice(kept)


def _absent_twice(kept: SQLiteTournaments) -> None:
    made = kept.create("Twice", Plan("swiss", 2, 4), move_time=60.0, start=0.0)
    for account in (1, 2, 3, 4):
        kept.enter(made.id, account, f"p{account}", 0.0)
    assert kept.set_state(made.id, "running")
    seatings = [(("1", "2"), ("3", "4")), (("1", "3"), ("2", "4")), (("1", "4"), ("2", "3"))]
    absent = [(["1"], ["4"]), (["1"], []), ([], ["2"])]
    withdrawn: list[list[str]] = []
    for number, (tables, marks) in enumerate(zip(seatings, absent, strict=True), start=1):
        assert kept.add_round(made.id, Round(number, tuple(Table(t) for t in tables)))
        for no, keys in enumerate(marks, start=1):
            assert kept.open_table(made.id, number, no, f"t{number}{no}")
            withdrawn.append(kept.mark_absent(made.id, number, no, keys))
            assert kept.mark_absent(made.id, number, no, keys) == [], "looked at once"
            assert kept.finish_table(made.id, number, no, [1, 2])
    # 1: absent in rounds 1 and 2 (withdrawn at the second); 4: absent in round 1,
    # present in round 2: not twice in a row; 2: absent once.
    assert withdrawn == [[], [], ["1"], [], [], []]
    assert {e.key: e.withdrawn for e in kept.entrants(made.id)} == {
        "1": True,
        "2": False,
        "3": False,
        "4": False,
    }


def test_one_host_at_a_time_pairs_a_tournament_under_its_lease(database: str) -> None:
    """Two hosts' leases of one tournament on the database's clock: the holder's writes
    count; a holder whose lease ran out and was taken writes nothing (its epoch is old)."""
    from paris_tui.host.tournaments.postgres import PostgresTournaments

    tables = PostgresStore(database, pool_size=2)
    tables.open()
    try:
        kept = PostgresTournaments(tables.pool)
        made = kept.create("Leased", Plan("swiss", 2, 2), move_time=60.0, start=0.0)
        assert kept.set_state(made.id, "running")
        a = kept.lease(made.id, "host-a", seconds=-1.0)  # taken, and run out at once
        assert a is not None
        assert kept.lease(made.id, "host-a", seconds=-1.0) == a, "ours: the same epoch"
        b = kept.lease(made.id, "host-b")
        assert b is not None and b.epoch > a.epoch, "a new holder, a new epoch"
        assert kept.lease(made.id, "host-a") is None, "b's lease runs"
        rnd = Round(1, (Table(("1", "2")), Table(("3", "4"))))
        assert not kept.add_round(made.id, rnd, a), "a stale holder pairs nothing"
        assert kept.rounds(made.id) == []
        assert kept.add_round(made.id, rnd, b)
        assert not kept.open_table(made.id, 1, 1, "t-a", fence=a)
        assert kept.open_table(made.id, 1, 1, "t-b", fence=b)
        assert not kept.open_table(made.id, 1, 1, "t-b2", fence=b), "opened once"
        assert kept.table_of("t-b") == (made.id, 1, 1) and kept.table_of("t-a") is None
        kept.release("host-b")
        assert kept.lease(made.id, "host-a") is not None, "given back at a clean stop"
    finally:
        tables.close()


def test_a_host_table_is_found_by_its_id_through_an_index(tmp_path: Path) -> None:
    """After every game over the host asks which tournament's table a host table is: the
    data folder's file looks it up through an index on the host table's id, not by
    reading every table of every tournament (the hosts' database has the same index)."""
    import sqlite3

    path = tmp_path / "host" / "tournaments.sqlite"
    open_tournaments(tmp_path / "host").close()
    with sqlite3.connect(path) as db:  # a file of an older paris-tui, without the index
        db.execute("DROP INDEX tournament_tables_table")
    db.close()
    open_tournaments(tmp_path / "host").close()  # the index made again at its opening
    db = sqlite3.connect(path)
    try:
        plan = db.execute(
            "EXPLAIN QUERY PLAN SELECT tournament, round, table_no FROM tournament_tables "
            "WHERE table_id = ?",
            ("t1",),
        ).fetchall()
    finally:
        db.close()
    assert any("USING INDEX" in str(row[-1]) for row in plan), plan
