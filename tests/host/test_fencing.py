"""One referee per table, always (several hosts on one real PostgreSQL, tests/pg.py).

A host that stalls longer than its lease, a database that goes away for
seconds, a join that reads the database while its table moves: none of them
may give a table two referees. Every move written is fenced by the lease's
epoch (host/store/lease.py), a host back from an outage renews its own leases
before anyone takes another's (host/services/cluster.py), a join checks the
lease after its last wait (host/hall.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pg import PostgresServer

from paris_tui.host.referee import Referee, parse_seats
from paris_tui.host.store.lease import Leases
from paris_tui.host.store.postgres import SCHEMA_VERSION, MoveConflict
from paris_tui.net.client import HostClosedError, RefusedError
from paris_tui.net.protocol import Refused, Update

from .helpers import TIMEOUT, Bot, first_legal, join_bot, random_player
from .test_cluster import LEASE, cluster_host, opened


@pytest.fixture
def database(postgres: PostgresServer) -> str:
    return postgres.dsn(postgres.create_database())


async def _until(check: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        await asyncio.sleep(0.02)


@contextlib.contextmanager
def _table_taken_during_proof(a: Any, database: str, holder: str, address: str) -> Iterator[None]:
    """While host ``a`` proves a joining player's account, table t1's lease runs out and
    ``holder`` takes it with a new epoch (a's lease ran out unseen: a stall, an outage);
    ``a``'s own proof afterwards."""
    prove = a.gate.prove

    def prove_while_taken(*args: Any) -> Any:
        with opened(database) as store:
            with store.pool.connection() as conn:
                conn.execute("UPDATE paris_leases SET until = now() WHERE table_id = 't1'")
            assert Leases(store, holder, address, LEASE).acquire("t1")
        return prove(*args)

    a.gate.prove = prove_while_taken
    try:
        yield
    finally:
        a.gate.prove = prove


def _mover(*bots: Bot) -> Bot:
    return next(b for b in bots if b.view.seat == b.view.to_move)


async def test_a_stalled_referee_acknowledges_no_move_once_another_host_took_its_table(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        ann = await join_bot(port_a, "ann", random_player(1))
        bob = await join_bot(port_a, "bob", random_player(2))
        await asyncio.gather(
            ann.play_until(lambda v: len(v.moves) >= 3), bob.play_until(lambda v: len(v.moves) >= 3)
        )
        n = len(ann.view.moves)
        assert a.cluster is not None and b.cluster is not None
        # Host a stops (SIGSTOP, in-process): no more renewals, and the move the
        # player to move sends now is heard, but its write waits until a goes on.
        await a.cluster.stop(release=False)
        go_on, heard = threading.Event(), threading.Event()
        write = a.tables.append

        def stopped(ref: Any) -> None:
            heard.set()
            go_on.wait(TIMEOUT)
            write(ref)

        a.tables.append = stopped  # type: ignore[method-assign]
        mover = _mover(ann, bob)
        other = bob if mover is ann else ann
        mover.client.play(first_legal(mover.view), n)
        await _until(heard.is_set, TIMEOUT, "the move heard")
        # Once a's lease ran out, the other player comes back through host b,
        # which takes the table over.
        await asyncio.sleep(LEASE + 0.3)
        name = "bob" if other is bob else "ann"
        back = await join_bot(port_b, name, token=other.seated.token)
        assert "t1" in b.rooms and b.rooms["t1"].referee.move_count == n
        # Host a goes on: its buffered move is refused by the database, never told.
        # (Its connections are told bye: they come back through any host.)
        go_on.set()
        for _ in range(20):
            try:
                message = await mover.client.receive(TIMEOUT)
            except HostClosedError:
                break
            assert not isinstance(message, Update), "a move acknowledged without the lease"
            if isinstance(message, Refused):
                assert message.code == "unavailable"
                break
        await _until(lambda: "t1" not in a.rooms, TIMEOUT, "host a dropping the table")
        with opened(database) as store:
            assert store.move_count("t1") == n
        # The table goes on at b, its one referee.
        again = await join_bot(port_b, "bob" if name == "ann" else "ann", token=mover.seated.token)
        assert b.rooms["t1"].seated.keys() == {0, 1}
        for bot in (ann, bob, back, again):
            await bot.client.close()


async def test_a_stopped_host_is_taken_over_when_its_lease_runs_out_though_joins_wait(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, _port_a),
        cluster_host(tmp_path / "b", database) as (b, _port_b),
    ):
        assert a.cluster is not None
        await a.cluster.stop(release=False)  # a stops: no renewal from now on
        stopped = time.monotonic()
        # Meanwhile every I/O thread of b waits (joins whose account writes wait
        # for the accounts' lock that the stopped host holds).
        go_on = threading.Event()
        busy = [b.io_pool.submit(go_on.wait, TIMEOUT) for _ in range(8)]
        try:
            await _until(lambda: "t1" in b.rooms, LEASE + 2.0, "host b taking t1 over")
        finally:
            go_on.set()
        assert time.monotonic() - stopped < LEASE + 1.0
        for job in busy:
            job.result()


async def test_a_database_outage_of_8_s_moves_no_table_to_another_host(
    tmp_path: Path, postgres: PostgresServer, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database, ("cat,dan",)) as (b, port_b),
        cluster_host(tmp_path / "c", database, ("eve,fay",)) as (c, port_c),
    ):
        hosts = {"t1": a, "t2": b, "t3": c}
        ports = {"t1": port_a, "t2": port_b, "t3": port_c}
        names = {"t1": ("ann", "bob"), "t2": ("cat", "dan"), "t3": ("eve", "fay")}
        bots = {
            t: [await join_bot(ports[t], n, random_player(i)) for i, n in enumerate(names[t])]
            for t in hosts
        }
        for pair in bots.values():
            await asyncio.gather(*(p.play_until(lambda v: len(v.moves) >= 2) for p in pair))
        rooms = {t: host.rooms[t] for t, host in hosts.items()}
        await asyncio.to_thread(postgres.stop)
        try:
            await asyncio.sleep(8.0)
        finally:
            await asyncio.to_thread(postgres.start)
        back = time.monotonic()
        # Every host's first renewal keeps its own tables, and nobody takes another's.
        await asyncio.sleep(4 * LEASE)
        for t, host in hosts.items():
            assert host.rooms.get(t) is rooms[t], f"{t} changed referee"
            for other in hosts.values():
                if other is not host:
                    assert t not in other.rooms, f"{t} taken by another host"
        # And every table moves again, at its own referee, its players still seated.
        for pair in bots.values():
            n = len(pair[0].view.moves)
            await asyncio.gather(
                *(p.play_until(lambda v, n=n: len(v.moves) >= n + 2) for p in pair)
            )
        assert time.monotonic() - back < 4 * LEASE + 3 * TIMEOUT
        for t, host in hosts.items():
            assert host.rooms.get(t) is rooms[t]
            with opened(database) as store:
                record = store.load_record(t)
            assert record is not None and record.moves == rooms[t].referee.record().moves
        for pair in bots.values():
            for bot in pair:
                await bot.client.close()


async def test_a_join_racing_a_takeover_is_never_seated_in_a_dead_copy(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, _port_b),
    ):
        assert a.cluster is not None and b.cluster is not None
        with (
            _table_taken_during_proof(a, database, b.cluster.id, "elsewhere:1"),
            pytest.raises(RefusedError) as refused,
        ):
            await join_bot(port_a, "ann", random_player(1))
        assert refused.value.code == "unavailable"
        assert not a.rooms.get("t1", None) or not a.rooms["t1"].seated  # nobody in a copy


async def test_a_move_is_written_only_under_the_lease_epoch_its_host_took(
    tmp_path: Path, database: str
) -> None:
    with opened(database) as store:
        one = Leases(store, "one", "127.0.0.1:1", seconds=30)
        two = Leases(store, "two", "127.0.0.1:2", seconds=30)
        ref = Referee.new("t1", parse_seats("ann,bob"), seed=3)
        store.create(ref)
        assert one.acquire("t1")
        store.fencing = one
        first = ref.view(0).legal_moves[0]
        ref.play(0, first, 0)
        store.append(ref)  # one holds the lease: written
        epoch = one.epoch_of("t1")
        with store.pool.connection() as conn:  # one's lease runs out, two takes it
            conn.execute("UPDATE paris_leases SET until = now()")
        assert two.acquire("t1") and two.epoch_of("t1") != epoch
        ref.play(1, ref.view(1).legal_moves[0], 1)
        with pytest.raises(MoveConflict):
            store.append(ref)  # one's epoch is over: refused, nothing written
        assert store.move_count("t1") == 1
        store.fencing = two
        store.append(ref)  # two's: written
        assert store.move_count("t1") == 2
        taken = two.epoch_of("t1")
        assert two.acquire("t1") and two.epoch_of("t1") == taken  # its own: same epoch
        assert not one.holds("t1") and two.holds("t1")


def test_a_database_of_schema_7_gets_the_lease_epochs(database: str) -> None:
    with opened(database) as store, store.pool.connection() as conn:
        conn.execute("ALTER TABLE paris_leases DROP COLUMN epoch")
        conn.execute("DROP SEQUENCE paris_lease_epochs")
        conn.execute("UPDATE paris_schema SET version = 7")
        conn.execute(
            "INSERT INTO paris_leases (table_id, holder, until) VALUES ('t9', 'old', now())"
        )
    with opened(database) as store:
        with store.pool.connection() as conn:
            row = conn.execute("SELECT version FROM paris_schema").fetchone()
            assert row is not None and row[0] == SCHEMA_VERSION
            lease = conn.execute("SELECT epoch FROM paris_leases").fetchone()
            assert lease is not None and lease[0] == 0
        assert Leases(store, "new", "x:1").acquire("t9")


async def test_a_finished_table_gives_its_lease_back(tmp_path: Path, database: str) -> None:
    async with cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a):
        assert a.cluster is not None
        ann = await join_bot(port_a, "ann", random_player(1))
        bob = await join_bot(port_a, "bob", random_player(2))
        await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        await _until(lambda: a.cluster is not None and not a.cluster.leases.epochs, TIMEOUT, "")
        await asyncio.sleep(2 * a.cluster.tick)
        with opened(database) as store, store.pool.connection() as conn:
            assert conn.execute("SELECT count(*) FROM paris_leases").fetchone() == (0,)
        for bot in (ann, bob):
            await bot.client.close()


# --- the smaller points: the reader's addresses, waiting joins, the benchmark ---------------


def test_join_by_ear_takes_several_addresses_as_the_app_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paris_tui.app.online import remote
    from paris_tui.reader.launch import run_join

    targets: list[remote.JoinTarget] = []

    async def open_link(target: remote.JoinTarget, *args: Any) -> Any:
        targets.append(target)
        raise remote.JoinError("no host here", 1)

    monkeypatch.setattr(remote, "open_link", open_link)
    status = run_join(
        "127.0.0.1:7402, [::1]:7403",
        name="ann",
        table=None,
        watch=None,
        data_dir=tmp_path,
    )
    assert status == 1 and "no host here" in capsys.readouterr().err
    assert [(t.host, t.port, t.others) for t in targets] == [("127.0.0.1", 7402, (("::1", 7403),))]
    assert run_join("127.0.0.1:7402,nope:x", name="ann", table=None, watch=None, data_dir=None) == 2


async def test_joins_waiting_for_a_takeover_are_not_anonymous_connections_meanwhile(
    tmp_path: Path, database: str
) -> None:
    from paris_tui.host.config import Limits
    from paris_tui.host.server import Host, HostConfig

    async with cluster_host(tmp_path / "a", database, ("ann,bob",), lease=3.0) as (a, port_a):
        ann = await join_bot(port_a, "ann", random_player(1))
        bob = await join_bot(port_a, "bob", random_player(2))
        tokens = {"ann": ann.seated.token, "bob": bob.seated.token}
        b = Host(
            HostConfig(
                data_dir=tmp_path / "b",
                port=0,
                ai_delay=0.0,
                database=database,
                lease_seconds=3.0,
                limits=Limits(anonymous_per_address=1),  # one joining at a time from here
            )
        )
        b.load()
        _, port_b = await b.start()
        try:
            # Host a dies: its door shuts, its leases are renewed no more.
            assert a.cluster is not None and b.cluster is not None and a._server is not None
            await a.cluster.stop(release=False)
            a._server.close()
            await a._server.wait_closed()
            for conn in list(a.connections):
                conn.abort()
            first = asyncio.create_task(join_bot(port_b, "ann", token=tokens["ann"]))
            await _until(lambda: "t1" in b.cluster._claims, TIMEOUT, "ann's join waiting")
            # bob, from the same address, while ann's join waits for the takeover
            second = await join_bot(port_b, "bob", token=tokens["bob"])
            seated = await first
            assert {seated.seated.seat, second.seated.seat} == {0, 1} and "t1" in b.rooms
            assert not b.admission.anonymous  # both sit: proven
            for bot in (ann, bob, seated, second):
                await bot.client.close()
        finally:
            await b.close()


def test_a_turn_clock_is_written_only_under_its_tables_lease(database: str) -> None:
    from paris_tui.host.accounts.postgres import PostgresAccounts
    from paris_tui.host.services.turns import AccountsTurnStore, ClockFenced, Turn

    with opened(database) as store:
        one = Leases(store, "one", "127.0.0.1:1", seconds=30)
        two = Leases(store, "two", "127.0.0.1:2", seconds=30)
        assert one.acquire("t1")
        store.fencing = one
        clocks = AccountsTurnStore(PostgresAccounts(store.pool))
        clocks.fence = store.fence
        clocks.put_turn(Turn("t1", 0, 3, 100.0))  # the referee's clock: written
        with store.pool.connection() as conn:  # one stalls, two takes the table
            conn.execute("UPDATE paris_leases SET until = now()")
        assert two.acquire("t1")
        with pytest.raises(ClockFenced):
            clocks.put_turn(Turn("t1", 1, 4, 200.0))
        with pytest.raises(ClockFenced):
            clocks.forget_turn("t1")
        assert clocks.turns()["t1"] == Turn("t1", 0, 3, 100.0)  # one's stale clock: refused
        store.fencing = two
        clocks.put_turn(Turn("t1", 1, 4, 200.0))
        assert clocks.turns()["t1"].seat == 1


# --- a table that moved: its connections are told where, and go there ----------------------


async def test_a_table_moved_by_a_stall_sends_its_player_to_the_new_referee_directly(
    tmp_path: Path, database: str
) -> None:
    from paris_tui.app.online.remote import JoinTarget, Link
    from paris_tui.net.client import TokenStore

    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        assert a.cluster is not None and b.cluster is not None
        # ann's client knows only host a: a plain bye would bring it back there.
        tokens = TokenStore(tmp_path / "tokens.json")
        link = await Link.open(JoinTarget("127.0.0.1", port_a, "ann"), tokens)
        bob = await join_bot(port_a, "bob", random_player(2))
        link.delays = (0.05,) * 40
        backs: list[Any] = []
        following = asyncio.create_task(
            link.follow(lambda reason, n: None, backs.append, lambda problem: _no())
        )
        # Host a stalls (no renewals, no ticks); once its lease ran out host b
        # takes the table at its tick.
        await _stall(a.cluster)
        await _until(lambda: "t1" in b.rooms, LEASE + 3.0, "host b taking t1 over")
        # The player to move moves at a: its write is refused by the fence, and
        # a drops the table, telling its connections where it went.
        view = link.table.view(0)
        n = len(view.moves)
        if view.my_turn:
            link.table.submit(0, first_legal(view), n)
        else:
            bob.client.play(first_legal(bob.view), n)
        await _until(lambda: bool(backs), 3 * TIMEOUT, "ann back at the table")
        assert link.table.client.endpoint == ("127.0.0.1", port_b)  # straight to b
        assert b.rooms["t1"].seated.keys() == {0}
        # And she plays on there.
        back = await join_bot(port_b, "bob", random_player(2), token=bob.seated.token)
        mover = link.table.view(0)
        count = len(mover.moves)
        if mover.my_turn:
            link.table.submit(0, first_legal(mover), count)
        else:
            back.client.play(first_legal(back.view), count)
        await _until(lambda: link.table.move_count > count, TIMEOUT, "a move at b")
        with opened(database) as store:
            assert store.move_count("t1") == count + 1
        await link.close()
        following.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await following
        for bot in (bob, back):
            await bot.client.close()


async def _no() -> bool:
    return False


async def _stall(cluster: Any) -> None:
    """The host stalls as a SIGSTOP would have it: no renewal, no tick (its
    threads are kept, as a stopped process keeps them)."""
    cluster._task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await cluster._task
    cluster._task = None
    await asyncio.to_thread(cluster.heartbeat.stop)
    cluster.heartbeat = None


def test_a_bye_may_say_where_the_table_went_and_an_older_bye_still_reads() -> None:
    from paris_tui.net.protocol import Bye, decode_host, encode

    moved = Bye("shutdown", "10.0.0.2:7338")
    assert encode(moved) == b'{"type":"bye","reason":"shutdown","address":"10.0.0.2:7338"}\n'
    assert decode_host(encode(moved)) == moved
    assert decode_host(b'{"type":"bye","reason":"shutdown"}\n') == Bye("shutdown")
    assert encode(Bye("idle")) == b'{"type":"bye","reason":"idle"}\n'


async def test_a_first_join_refused_after_its_account_was_made_can_join_again(
    tmp_path: Path, database: str
) -> None:
    from paris_tui.app.online.remote import JoinError, JoinTarget, Link
    from paris_tui.net.client import TokenStore

    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, _port_b),
    ):
        assert a.cluster is not None and b.cluster is not None
        tokens = TokenStore(tmp_path / "tokens.json")
        target = JoinTarget("127.0.0.1", port_a, "ann")
        # While ann's very first join reads the accounts, the table goes to b.
        with (
            _table_taken_during_proof(a, database, b.cluster.id, b.cluster.leases.address),
            pytest.raises(JoinError) as refused,
        ):
            await Link.open(target, tokens)
        assert refused.value.code == "unavailable"  # ann's account was made meanwhile
        await _until(lambda: "t1" in b.rooms, LEASE + 3.0, "host b refereeing t1")
        # Her next try (the same data directory) proves the account her first made.
        link = await Link.open(target, tokens)
        assert b.rooms["t1"].seated.keys() == {0}
        assert tokens.get(target.address, "ann") == link.token is not None
        await link.close()


async def test_tables_opened_before_the_host_listens_are_renewed_meanwhile(
    tmp_path: Path, database: str
) -> None:
    from paris_tui.host.server import Host, HostConfig

    async with cluster_host(tmp_path / "b", database) as (b, _port_b):
        config = HostConfig(data_dir=tmp_path / "a", port=0, ai_delay=0.0, database=database)
        a = Host(replace(config, lease_seconds=LEASE))
        a.load()
        try:
            # The operator's --table tables are opened before the host listens; on a
            # busy machine opening many of them took longer than a lease.
            a.open_table(parse_seats("ann,bob"), seed=3)
            await asyncio.sleep(2 * LEASE + 0.5)
            assert "t1" not in b.rooms, "a live host's table taken while it started"
            await a.start()
            await asyncio.sleep(2 * LEASE)
            assert "t1" in a.rooms and "t1" not in b.rooms
        finally:
            await a.close()


async def test_a_client_that_brings_its_own_token_to_a_first_join_is_never_locked_out(
    tmp_path: Path, database: str
) -> None:
    """Its first join made the account, and then the client heard nothing of it
    (its host killed before the seat was said; here: refused, the refusal's token
    not kept): the token it brought proves that account at the next try."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, _port_b),
    ):
        assert a.cluster is not None and b.cluster is not None
        mine = "a-secret-of-anns-own-making-0123456789"
        with (
            _table_taken_during_proof(a, database, b.cluster.id, b.cluster.leases.address),
            pytest.raises(RefusedError) as refused,
        ):
            await join_bot(port_a, "ann", token=mine)
        assert refused.value.code == "unavailable"
        await _until(lambda: "t1" in b.rooms, LEASE + 3.0, "host b refereeing t1")
        await _until(lambda: "t1" not in a.rooms, LEASE + 3.0, "host a dropping t1")
        ann = await join_bot(port_a, "ann", token=mine)  # relayed to b
        assert ann.seated.seat == 0 and b.rooms["t1"].seated.keys() == {0}
        with pytest.raises(RefusedError) as other:  # anyone else: the name is ann's
            await join_bot(port_a, "ann", token="somebody-elses-token-0123456789")
        assert other.value.code == "bad_token"
        await ann.client.close()


async def test_a_dead_hosts_tables_are_all_taken_once_a_relay_to_it_ends(
    tmp_path: Path, database: str
) -> None:
    """bob, relayed from b to a, loses his relay when a dies: b dials a's door,
    finds it shut, and takes every table of a's as soon as its leases went
    silent, without waiting for joins (or for the leases to run out)."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob", "cat,dan"), lease=3.0) as (a, _port_a),
        cluster_host(tmp_path / "b", database, lease=3.0) as (b, port_b),
    ):
        assert a.cluster is not None and b.cluster is not None and a._server is not None
        bob = await join_bot(port_b, "bob", random_player(2))  # relayed to a
        assert "t1" in a.rooms and "t1" not in b.rooms
        # a dies (kill -9): no more renewals, its door shut, its connections cut.
        await a.cluster.stop(release=False)
        a._server.close()
        await a._server.wait_closed()
        died = time.monotonic()
        for conn in list(a.connections):
            conn.abort()
        await _until(lambda: {"t1", "t2"} <= b.rooms.keys(), 3.0 + 2.0, "b taking a's tables")
        # Taken when silent (two renewals, 1.2 s here), not when run out (3 s and a tick).
        assert time.monotonic() - died < 2.5
        await bob.client.close()
