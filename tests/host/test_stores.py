"""One store interface, two stores (issue 21): files, and PostgreSQL shared by hosts.

Each test here runs against both stores (``store``: ``None`` for the data
directory's files, else the URL of a fresh database on the throwaway server
of tests/pg.py). The whole host suite runs against PostgreSQL with
``pytest tests/host --host-store postgres``.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from pg import PostgresServer
from psycopg_pool import ConnectionPool

from paris_tui.cli import main
from paris_tui.core.record import load_record, parse_record
from paris_tui.host.accounts.postgres import PostgresAccounts
from paris_tui.host.accounts.store import (
    MAX_CREDENTIALS,
    AccountError,
    AccountStore,
    Credential,
    NameTakenError,
    digest,
    open_accounts,
)
from paris_tui.host.referee import APP_KEY, Referee, parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.host.store.files import HostStore, TableStore
from paris_tui.host.store.postgres import PostgresStore, SchemaTooNew, connect_pool, ensure_schema
from paris_tui.net.client import HostClient, RefusedError
from paris_tui.net.protocol import Presence, Refused, Update

from .helpers import TIMEOUT, join_bot, random_player, running_host


@pytest.fixture
def database(postgres: PostgresServer) -> str:
    return postgres.dsn(postgres.create_database())


# --- the table store -------------------------------------------------------------------


async def test_a_game_is_kept_move_by_move_and_resumed_by_the_next_host(
    tmp_path: Path, store: str | None
) -> None:
    async with running_host(tmp_path, ["ann,bob"], seed=5, database=store) as (host, port):
        ann = await join_bot(port, "ann", random_player(1))
        bob = await join_bot(port, "bob", random_player(2))
        await asyncio.gather(
            ann.play_until(lambda v: len(v.moves) >= 7), bob.play_until(lambda v: len(v.moves) >= 7)
        )
        made = host.rooms["t1"].referee.record()
        tokens = {"ann": ann.seated.token, "bob": bob.seated.token}
        await ann.client.close()
        await bob.client.close()
    assert len(made.moves) >= 7
    # The next host (the same folder, or the same database) resumes it at that move.
    async with running_host(tmp_path, database=store) as (again, port):
        assert again.rooms["t1"].referee.record() == made
        text = again.tables.record_text("t1")
        assert text is not None and parse_record(json.loads(text)) == made
        ann = await join_bot(port, "ann", random_player(1), token=tokens["ann"])
        bob = await join_bot(port, "bob", random_player(2), token=tokens["bob"])
        await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        final = again.rooms["t1"].referee.record()
    assert final.moves[: len(made.moves)] == made.moves
    # A finished table stays in the lobby (the latest few), and its record stays.
    async with running_host(tmp_path, database=store) as (third, _port):
        assert "t1" not in third.rooms or third.rooms["t1"].referee.is_over
        text = third.tables.record_text("t1")
        assert text is not None and parse_record(json.loads(text)) == final


def _accounts(tmp_path: Path, store: str | None) -> tuple[AccountStore, PostgresStore | None]:
    if store is None:
        return open_accounts(tmp_path), None
    tables = PostgresStore(store)
    tables.open()
    return PostgresAccounts(tables.pool), tables


def test_the_accounts_rules_hold_in_either_store(tmp_path: Path, store: str | None) -> None:
    accounts, tables = _accounts(tmp_path, store)
    try:
        ann = accounts.create("Ann", Credential("token", digest("t" * 43)))
        for other in ("ann", "\uff41nn", "\u0430nn"):
            with pytest.raises(NameTakenError):
                accounts.create(other, None)
            found = accounts.find(other)
            assert found is not None and found.id == ann.id
        assert accounts.verify(ann.id, "token", digest("t" * 43))
        assert not accounts.verify(ann.id, "ssh", digest("t" * 43))
        bob = accounts.create("bob", None)
        with pytest.raises(AccountError):  # a credential is one account's only
            accounts.add_credential(bob.id, Credential("token", digest("t" * 43)))
        for i in range(MAX_CREDENTIALS + 3):
            accounts.add_credential(bob.id, Credential("token", digest(f"token-{i:03}")))
        assert len(accounts.credentials(bob.id)) == MAX_CREDENTIALS
        assert not accounts.verify(bob.id, "token", digest("token-000"))
        code = accounts.new_code(ann.id)
        assert accounts.take_code(code, bob.id) is None
        newer = accounts.new_code(ann.id)
        assert accounts.take_code(code) is None
        taken = accounts.take_code(newer)
        assert taken is not None and taken.id == ann.id
        assert accounts.take_code(newer) is None
        assert accounts.claim_seat("t1", 0, ann.id)
        assert not accounts.claim_seat("t1", 0, bob.id)
        assert accounts.claim_seat("t1", 0, ann.id)
        assert accounts.seat_owners("t1") == {0: ann.id}
        accounts.rename(ann.id, "anna")
        assert accounts.find("ann") is None
        accounts.remove(bob.id)
        assert [a.name for a in accounts.accounts()] == ["anna"]
        assert not accounts.done("x")
        accounts.mark_done("x")
        accounts.mark_done("x")
        assert accounts.done("x")
    finally:
        accounts.close()
        if tables is not None:
            tables.close()


def test_two_hosts_claiming_one_seat_at_once_give_it_to_one(database: str) -> None:
    first, second = PostgresStore(database), PostgresStore(database)
    first.open()
    second.open()
    try:
        a, b = PostgresAccounts(first.pool), PostgresAccounts(second.pool)
        ann, bob = a.create("ann", None), b.create("bob", None)
        with pytest.raises(NameTakenError):
            b.create("\u0430nn", None)  # a look-alike, made at the other host
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(2) as pool:
            got = list(
                pool.map(lambda job: job[0].claim_seat("t9", 1, job[1]), [(a, ann.id), (b, bob.id)])
            )
        assert sorted(got) == [False, True]
    finally:
        first.close()
        second.close()


def test_two_referees_never_both_write_move_n(database: str) -> None:
    store = PostgresStore(database)
    store.open()
    try:
        one = Referee.new("t1", parse_seats("ann,bob"), seed=3)
        store.create(one)
        two = Referee.from_record("t1", store.load_record("t1") or one.record())
        # Both believe they hold t1 and make move 1, each its own.
        one.play(0, one.view(0).legal_moves[0], 0)
        two.play(0, two.view(0).legal_moves[-1], 0)
        store.append(one)
        from paris_tui.host.store.postgres import MoveConflict

        with pytest.raises(MoveConflict):
            store.append(two)
        assert store.move_count("t1") == 1
        saved = store.load_record("t1")
        assert saved is not None and saved.moves == one.record().moves
    finally:
        store.close()


def test_a_tables_notes_are_saved_and_an_archived_table_is_out_but_replays(
    tmp_path: Path, store: str | None
) -> None:
    files = HostStore(tmp_path)
    tables: TableStore = files if store is None else PostgresStore(store)
    files.lock()
    tables.open()
    try:
        ref = Referee.new(tables.new_table_id(), parse_seats("ann,bob"), seed=3)
        tables.create(ref)
        ref.play(0, ref.view(0).legal_moves[0], 0)
        tables.append(ref)
        ref.meta["opener"] = "ann"  # noted after its first write: saved again
        tables.save(ref)
        first = tables.load_record(ref.table_id)
        assert first is not None and first.extra[APP_KEY]["opener"] == "ann"
        assert len(first.moves) == 1
        tables.archive(ref.table_id)
        assert ref.table_id not in tables.table_ids()
        assert tables.load_tables() == ([], [])
        assert tables.new_table_id() != ref.table_id
        # Still a record to replay, where the log says it is.
        text = (
            files.archived_path(ref.table_id).read_text(encoding="utf-8")
            if store is None
            else tables.record_text(ref.table_id)
        )
        assert text is not None and parse_record(json.loads(text)) == first
        assert ref.table_id in tables.archived_where(ref.table_id)
    finally:
        tables.close()
        files.unlock()


def test_a_newer_schema_is_refused_with_one_line(database: str) -> None:
    pool = connect_pool(database)
    try:
        ensure_schema(pool)
        with pool.connection() as conn:
            conn.execute("UPDATE paris_schema SET version = 99")
        with pytest.raises(SchemaTooNew) as caught:
            ensure_schema(pool)
    finally:
        pool.close()
    assert "\n" not in str(caught.value) and "schema 99" in str(caught.value)
    assert "upgrade paris-tui" in str(caught.value)


def _host_argv(tmp_path: Path, database: str) -> list[str]:
    """``paris-tui host`` on ``database``, no SSH door, any free port."""
    return [
        sys.executable,
        "-m",
        "paris_tui",
        "host",
        "--data-dir",
        str(tmp_path / "d"),
        "--ssh-port",
        "off",
        "--port",
        "0",
        "--database",
        database,
    ]


def _host_start(tmp_path: Path, database: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The host's start on ``database`` (a start that ends: refused, or a traceback)."""
    return subprocess.run(
        [*_host_argv(tmp_path, database), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_database_holding_other_tables_of_those_names_is_one_line(
    database: str, tmp_path: Path
) -> None:
    """A database of another application with an ``accounts`` table of its own:
    the host made its schema around it, opened the --table there and ended in a
    traceback (column "name" does not exist). It is refused at start, one line."""
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("CREATE TABLE accounts (id serial PRIMARY KEY, email text)")
    done = _host_start(tmp_path, database, "--table", "ann,bob")
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "accounts" in lines[0] and "of its own" in lines[0], lines
    with psycopg.connect(database) as conn:  # nothing of paris-tui's was made there
        assert conn.execute("SELECT to_regclass('paris_tables')").fetchone() == (None,)


def test_the_host_says_one_line_for_a_database_it_cannot_reach(tmp_path: Path) -> None:
    bad = f"host={tmp_path} port=1 user=nobody dbname=nothing password=secret connect_timeout=1"
    done = _host_start(tmp_path, bad)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paris-tui host: cannot reach"), lines
    assert "secret" not in done.stderr


def test_the_host_says_why_the_database_refused_it(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    """A database that answers but refuses (no such database, a wrong password)
    is told in the one line, as the server said it, not as a pool's timeout."""
    missing = postgres.dsn("no_such_database") + " password=secret"
    done = _host_start(tmp_path, missing)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paris-tui host: cannot reach"), lines
    assert 'database "no_such_database" does not exist' in lines[0], lines
    assert "secret" not in done.stderr


def test_the_host_tells_the_other_hosts_the_address_it_is_given(
    database: str, tmp_path: Path
) -> None:
    """``--advertise`` is where the other hosts relay a join to (the lease row's
    address): a host bound to every network would write 127.0.0.1, which is the
    other machine itself there."""
    host = subprocess.Popen(
        [
            *_host_argv(tmp_path, database),
            "--advertise",
            "host-a.example:7337",
            "--table",
            "ann,bob",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        address = None
        for _ in range(300):  # up to 30 s on a loaded machine
            if host.poll() is not None:
                break
            with psycopg.connect(database) as conn:
                try:
                    row = conn.execute("SELECT address FROM paris_leases").fetchone()
                except psycopg.errors.UndefinedTable:  # the schema is not made yet
                    row = None
            if row is not None and row[0]:  # empty until the host listens
                address = row[0]
                break
            time.sleep(0.1)
    finally:
        host.terminate()
        _, err = host.communicate(timeout=60)
    assert address == "host-a.example:7337", err
    assert host.returncode == 0, err


def test_a_host_on_every_network_tells_its_machines_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from paris_tui.doors import command

    monkeypatch.setattr(command, "machine_addresses", lambda bind: ["192.0.2.7", "127.0.0.1"])
    assert command.advertised("0.0.0.0", 7337, None) == "192.0.2.7:7337"
    assert command.advertised("0.0.0.0", 7337, "db-b:7000") == "db-b:7000"
    assert command.advertised("127.0.0.1", 7337, None) is None  # the bound address says it
    assert command.advertised("0.0.0.0", 0, None) is None  # the port is not known yet


def test_a_missing_driver_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg_pool", None)
    host = Host(HostConfig(data_dir=tmp_path, port=0, database="postgresql://x/y"))
    from paris_tui.host.store.postgres import DriverMissing

    with pytest.raises(DriverMissing, match=r"pip install 'paris-tui\[postgres\]'"):
        host.load()
    host.store.unlock()


# --- the database goes away -------------------------------------------------------------


@pytest.fixture
def cut(postgres: PostgresServer) -> Iterator[tuple[str, list[str]]]:
    """A database and the SQL that cuts it off (``[0]``), lets it back (``[1]``),
    or ends every connection to it and lets new ones in at once (``[2]``: a
    restart). The connections are ended before the SQL returns (each backend
    waited for, up to 10 s), so the host's next statement finds them ended."""
    name = postgres.create_database()
    end = (
        "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
        f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
    )
    yield (
        postgres.dsn(name),
        [
            f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false;{end}',
            f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true',
            end,
        ],
    )
    postgres.psql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


async def _answer(client: HostClient) -> object:
    """The host's answer to a move: the first message that is not a presence."""
    for _ in range(10):
        answer = await client.receive(TIMEOUT)
        if not isinstance(answer, Presence):
            return answer
    return answer


async def test_a_database_that_goes_away_pauses_the_table_and_it_resumes(
    tmp_path: Path, postgres: PostgresServer, cut: tuple[str, list[str]]
) -> None:
    url, sql = cut
    async with running_host(tmp_path, ["ann,bob"], seed=2, database=url) as (host, port):
        host.tables.pool.timeout = 2.0  # type: ignore[attr-defined]
        ann = await HostClient.connect("127.0.0.1", port)
        seated = await ann.join("ann")
        postgres.psql(sql[0])
        move = seated.view.legal_moves[0]
        ann.play(move, 0)
        answer = await _answer(ann)
        assert isinstance(answer, Refused) and answer.code == "unavailable", answer
        assert host.rooms["t1"].referee.move_count == 0  # not told, not made
        postgres.psql(sql[1])
        # Made again once the database is back, the move is taken: the host
        # waits for a new connection (the pool tries every second at most), and
        # none that the outage ended is used.
        host.tables.pool.timeout = 5.0  # type: ignore[attr-defined]
        ann.play(move, 0)
        answer = await _answer(ann)
        assert isinstance(answer, Update) and len(answer.view.moves) == 1, answer
        assert host.tables.record_text("t1") is not None
        await ann.close()
    assert _saved_moves(url) == 1


def _saved_moves(url: str) -> int:
    """The moves of table t1 the database has, read by a store of its own."""
    store = PostgresStore(url)
    store.open()
    try:
        return store.move_count("t1")
    finally:
        store.close()


def _fill(pool: ConnectionPool) -> None:
    """The pool grown to its most connections, all idle (as a busy host's is)."""
    held = [pool.getconn() for _ in range(pool.max_size)]
    for conn in held:
        pool.putconn(conn)


def test_connections_the_database_ended_are_never_handed_out(
    postgres: PostgresServer, cut: tuple[str, list[str]]
) -> None:
    """A restart of the database ends every connection of the pool; the next
    statements, once it is back, each get a live one (none fails)."""
    url, sql = cut
    store = PostgresStore(url)
    store.open()
    try:
        _fill(store.pool)
        postgres.psql(sql[2])
        for _ in range(store.pool_size + 1):
            assert store.move_count("t1") == 0
    finally:
        store.close()


async def test_a_move_after_the_database_restarted_is_taken(
    tmp_path: Path, postgres: PostgresServer, cut: tuple[str, list[str]]
) -> None:
    """The database ended every connection and is back at once (a restart, a
    failover): the next move is saved and told, not refused for a connection
    that the restart ended."""
    url, sql = cut
    async with running_host(tmp_path, ["ann,bob"], seed=2, database=url) as (host, port):
        ann = await HostClient.connect("127.0.0.1", port)
        seated = await ann.join("ann")
        await asyncio.to_thread(_fill, host.tables.pool)  # type: ignore[attr-defined]
        postgres.psql(sql[2])
        ann.play(seated.view.legal_moves[0], 0)
        answer = await _answer(ann)
        assert isinstance(answer, Update) and len(answer.view.moves) == 1, answer
        assert host.rooms["t1"].referee.move_count == 1
        await ann.close()
    assert _saved_moves(url) == 1


# --- host migrate -----------------------------------------------------------------------


def _replay_json(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["replay", "--json", str(path)]) == 0
    return capsys.readouterr().out


async def test_migrate_moves_a_data_directory_in_and_records_replay_byte_for_byte(
    tmp_path: Path, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    async with running_host(
        data, ["ann,bob", "cy,ai:easy"], seed=4, rated_addresses=("127.0.0.1",)
    ) as (host, port):
        ann = await join_bot(port, "ann", random_player(1))
        bob = await join_bot(port, "bob", random_player(2))
        await asyncio.gather(ann.play_to_end(), bob.play_to_end())  # t1 finished
        cy = await join_bot(port, "cy", random_player(3))
        await cy.play_until(lambda v: len(v.moves) >= 4)  # t2 under way
        for bot in (ann, bob, cy):
            await bot.client.close()
        ann_id = host.accounts.find("ann").id  # type: ignore[union-attr]
    capsys.readouterr()
    assert main(["host", "migrate", "--from", str(data), "--to", database]) == 0
    out = capsys.readouterr().out
    assert "moved 2 tables and 3 accounts" in out, out
    assert "(and 2 accounts' ratings)" in out, out  # t1 was rated (issue 22)
    assert main(["host", "ratings", "--database", database, "--json"]) == 0
    rated = json.loads(capsys.readouterr().out)["ratings"]
    assert sorted((r["name"], r["games"]) for r in rated) == [("ann", 1), ("bob", 1)]
    store = PostgresStore(database)
    store.open()
    try:
        for table_id in ("t1", "t2"):
            original = data / "host" / "tables" / f"{table_id}.json"
            text = store.record_text(table_id)
            assert text is not None
            back = tmp_path / f"{table_id}.back.json"
            back.write_text(text, encoding="utf-8")
            assert json.loads(text) == json.loads(original.read_text(encoding="utf-8"))
            assert load_record(back) == load_record(original)
            assert _replay_json(back, capsys) == _replay_json(original, capsys)
        accounts = PostgresAccounts(store.pool)
        found = accounts.find("ann")
        assert found is not None and found.id == ann_id
        assert accounts.seat_owners("t1") == {0: ann_id, 1: accounts.find("bob").id}  # type: ignore[union-attr]
        fresh = accounts.create("dee", None)
        assert fresh.id > ann_id  # ids go on after those moved in
        assert int(store.new_table_id()[1:]) > 2
        assert store.seated() == [("cy", "t2")]  # its names sit at it (issue 21)
    finally:
        store.close()
    # The operator's account commands work on the database too.
    capsys.readouterr()
    assert main(["host", "accounts", "list", "--json", "--database", database]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [a["name"] for a in listed["accounts"]] == ["ann", "bob", "cy", "dee"]
    assert main(["host", "accounts", "lock", "cy", "--database", database]) == 0
    capsys.readouterr()
    main(["host", "accounts", "list", "--json", "--database", database])
    locked = {a["name"]: a["locked"] for a in json.loads(capsys.readouterr().out)["accounts"]}
    assert locked["cy"] and not locked["ann"]
    # The host on the database serves the unfinished table where it was.
    async with running_host(tmp_path / "other", database=database) as (again, port):
        assert list(again.rooms) == ["t2"]
        assert again.rooms["t2"].referee.move_count >= 4
    # Into a database that holds tables already: refused, one line.
    capsys.readouterr()
    assert main(["host", "migrate", "--from", str(data), "--to", database]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "empty" in err[0]
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT count(*) FROM paris_tables").fetchone() == (2,)


def test_every_query_is_parameterised() -> None:
    """No value is put into SQL text: the modules' SQL strings hold no ``{`` but
    constant names, and every value goes as a parameter (read from the source)."""
    import inspect

    from paris_tui.host.accounts import postgres as pgaccounts
    from paris_tui.host.store import migrate
    from paris_tui.host.store import postgres as pgstore

    for module in (pgstore, pgaccounts, migrate):
        source = inspect.getsource(module)
        for line in source.splitlines():
            if 'f"' in line and any(w in line for w in ("SELECT", "INSERT", "UPDATE", "DELETE")):
                assert any(
                    k in line
                    for k in ("{where}", "{names}", "{table}", "{marks}", "{_SEATED_LIVE}")
                ), line


def test_a_credential_names_its_account_and_locks_are_read_in_either_store(
    tmp_path: Path, store: str | None
) -> None:
    """Issue 17 follow-ups: a door asks whose a key or cookie is before it lets a
    free name in with it; the host reads who is locked (the CLI locks in another
    process) to end those accounts' open sessions."""
    accounts, tables = _accounts(tmp_path, store)
    try:
        ann = accounts.create("ann", Credential("ssh", "SHA256:ann-key"))
        bob = accounts.create("bob", Credential("browser", digest("cookie")))
        owner = accounts.owner("ssh", "SHA256:ann-key")
        assert owner is not None and (owner.id, owner.name) == (ann.id, "ann")
        owner = accounts.owner("browser", digest("cookie"))
        assert owner is not None and owner.id == bob.id
        assert accounts.owner("token", digest("cookie")) is None  # another door's
        assert accounts.owner("ssh", "SHA256:nobody") is None
        assert accounts.locked_accounts() == set()
        accounts.set_locked(bob.id, True)
        assert accounts.locked_accounts() == {bob.id}
        accounts.set_locked(bob.id, False)
        accounts.set_locked(ann.id, True)
        assert accounts.locked_accounts() == {ann.id}
    finally:
        accounts.close()
        if tables is not None:
            tables.close()


def test_who_mutes_whom_is_one_read_in_either_store(tmp_path: Path, store: str | None) -> None:
    """Issue 22: ``muting(writers, readers)`` gives each reader that hides some of the
    writers, with those it hides (none: left out), for any number of either."""
    accounts, tables = _accounts(tmp_path, store)
    try:
        ann, bob, cy, dee = (accounts.create(n, None) for n in ("ann", "bob", "cy", "dee"))
        accounts.add_chat_mute(ann.id, bob.id)
        accounts.add_chat_mute(ann.id, cy.id)
        accounts.add_chat_mute(dee.id, cy.id)
        accounts.add_chat_mute(bob.id, dee.id)
        assert accounts.muting({bob.id, cy.id}, {ann.id, bob.id, dee.id}) == {
            ann.id: {bob.id, cy.id},
            dee.id: {cy.id},
        }
        assert accounts.muting({cy.id}, [ann.id]) == {ann.id: {cy.id}}
        assert accounts.muting({ann.id}, {bob.id, cy.id, dee.id}) == {}
        assert accounts.muting(set(), {ann.id}) == {} == accounts.muting({bob.id}, ())
        many = range(10_000, 11_000)  # more than one statement's parameters
        assert accounts.muting({dee.id, *many}, {bob.id, *many}) == {bob.id: {dee.id}}
    finally:
        accounts.close()
        if tables is not None:
            tables.close()


async def test_a_lock_ends_the_accounts_open_sessions_at_a_running_host(
    tmp_path: Path, store: str | None
) -> None:
    """Issue 17 follow-up: ``host accounts lock ann`` (another process, the same store)
    did not reach Ann's open session. The host reads the locks every
    ``Limits.lock_check`` seconds and ends the locked accounts' sessions, saying why."""
    from paris_tui.host.server import Limits
    from paris_tui.net.client import HostClosedError

    limits = Limits(lock_check=0.05)
    async with running_host(tmp_path, ["ann,bob", "cy,dee"], limits=limits, database=store) as (
        host,
        port,
    ):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        cy = await join_bot(port, "cy")
        # The operator's command: its own store on the same file or database.
        operator, tables = _accounts(host.store.root, store)
        try:
            for name in ("ann", "cy"):
                account = operator.find(name)
                assert account is not None
                operator.set_locked(account.id, True)
        finally:
            operator.close()
            if tables is not None:
                tables.close()
        for bot in (ann, cy):
            told = None
            async with asyncio.timeout(TIMEOUT):
                for _ in range(50):  # bounded: presence and updates may come first
                    message = await bot.client.receive(TIMEOUT)
                    if isinstance(message, Refused):
                        told = message
                        break
                assert told is not None and told.code == "account_locked" and told.fatal, told
                assert "locked" in told.message
                with pytest.raises(HostClosedError):
                    for _ in range(50):
                        await bot.client.receive(TIMEOUT)
        room = host.rooms["t1"]
        assert set(room.seated) == {1}  # bob plays on
        assert 0 not in host.rooms["t2"].seated
        with pytest.raises(RefusedError) as again:  # and Ann cannot come back
            await join_bot(port, "ann", token=ann.seated.token)
        assert again.value.code == "account_locked"
        for bot in (ann, bob, cy):
            await bot.client.close()


def test_migrate_says_what_it_moved_in_the_operators_language_with_plurals() -> None:
    """Issue 17 follow-up: ``host migrate`` said "moved 1 tables", in English only."""
    from paris_tui.host.store.migrate import moved_line
    from paris_tui.wording import in_language

    assert moved_line(1, 1, "/d", "db") == "moved 1 table and 1 account from /d into db"
    assert moved_line(2, 0, "/d", "db") == "moved 2 tables and 0 accounts from /d into db"
    with in_language("de"):
        one, two = moved_line(1, 1, "/d", "db"), moved_line(2, 3, "/d", "db")
    assert "1 Tisch " in one and "1 Konto " in one and "/d" in one and "db" in one
    assert "2 Tische " in two and "3 Konten " in two
    with in_language("zh-TW"):
        assert "/d" in moved_line(2, 3, "/d", "db") and "moved" not in moved_line(2, 3, "/d", "db")
