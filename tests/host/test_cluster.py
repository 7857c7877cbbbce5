"""Several hosts on one PostgreSQL database (issue 21): leases, relays, takeover, splits.

In-process hosts on loopback ports, each with a data directory of its own and
the same database (a fresh one per test on the throwaway server of tests/pg.py).
Leases are short here (:data:`LEASE`) so that a takeover takes about a second.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from msgspec import structs
from pg import PostgresServer

from paris_tui.cli import main
from paris_tui.core.record import replay_summary
from paris_tui.doors.ssh import SSHConfig, SSHDoor
from paris_tui.doors.web import COOKIE, WebDoor
from paris_tui.host.accounts.identity import DoorProof, Vouched
from paris_tui.host.accounts.store import digest
from paris_tui.host.referee import Referee, Refusal, parse_seats
from paris_tui.host.server import Connection, Host, HostConfig, TableConflictError
from paris_tui.host.store.lease import Leases
from paris_tui.host.store.postgres import (
    SCHEMA_VERSION,
    DatabaseUnavailable,
    PostgresStore,
    SeatTaken,
)
from paris_tui.net.client import HostClient, RefusedError
from paris_tui.net.protocol import (
    Chat,
    ChatLine,
    FriendsInfo,
    FriendsRequest,
    Join,
    MutesInfo,
    MutesRequest,
    Pong,
    Refused,
    Relay,
    Seated,
    Update,
    Waiting,
    Welcome,
    decode_host,
    encode,
)

from .helpers import HELLO, TIMEOUT, Bot, RawClient, first_legal, join_bot, random_player
from .ssh_helpers import Terminal, connect, new_key, stand_in

LEASE = 1.0


@pytest.fixture
def database(postgres: PostgresServer) -> str:
    return postgres.dsn(postgres.create_database())


@contextmanager
def opened(database: str) -> Iterator[PostgresStore]:
    store = PostgresStore(database)
    store.open()
    try:
        yield store
    finally:
        store.close()


@asynccontextmanager
async def cluster_host(
    folder: Path, database: str, tables: tuple[str, ...] = (), lease: float = LEASE
) -> AsyncIterator[tuple[Host, int]]:
    host = Host(
        HostConfig(data_dir=folder, port=0, ai_delay=0.0, database=database, lease_seconds=lease)
    )
    host.load()
    for i, text in enumerate(tables):
        host.open_table(parse_seats(text), seed=7 + i)
    _, port = await host.start()
    try:
        yield host, port
    finally:
        await host.close()


async def test_a_game_across_two_hosts_equals_its_replay_and_keeps_each_seat_secret(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        assert list(a.rooms) == ["t1"] and b.rooms == {}
        # The lobby is the same at either host.
        lobby = await RawClient.open(port_b)
        lobby.send(HELLO + b'{"type":"list_tables"}\n')
        await lobby.line()
        listed = decode_host(await lobby.line())
        assert [t.table for t in listed.tables] == ["t1"]  # type: ignore[attr-defined]
        lobby.writer.close()
        ann = await join_bot(port_a, "ann", random_player(1))
        bob = await join_bot(port_b, "bob", random_player(2))  # relayed to host a
        assert bob.seated.seat == 1 and b.rooms == {}
        watcher = await RawClient.open(port_b)
        watcher.send(HELLO + b'{"type":"watch","table":"t1"}\n')
        end_a, end_b = await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        for _ in range(400):
            line = await watcher.line()
            message = decode_host(line) if line else None
            if isinstance(message, Update) and message.view.is_over:
                break
        store = PostgresStore(database)
        store.open()
        try:
            record = store.load_record("t1")
        finally:
            store.close()
        assert record is not None
        summary = replay_summary(record)
        assert end_a.outcome is not None and end_a.outcome == end_b.outcome
        assert summary["final"]["scores"] == list(end_a.outcome.scores)
        assert tuple(json.loads(json.dumps(record.to_json_dict()))["moves"]) == tuple(
            {"tile": m.tile} if m.evict is None else {"tile": m.tile, "evict": m.evict}
            for m in end_b.moves
        )
        # Secrecy across hosts: bob, over the relay, saw only his own route
        # before the end; the watcher at host b, none.
        ann_route = a.rooms["t1"].referee.view(0).own_route
        for message in bob.received:
            if isinstance(message, Update) and not message.view.is_over:
                assert message.view.seat == 1 and message.view.own_route != ann_route
                assert message.view.revealed_routes is None
        for line in watcher.lines:
            message = decode_host(line)
            if isinstance(message, Update) and not message.view.is_over:
                assert message.view.own_route is None and message.view.seat is None
        for bot in (ann, bob):
            await bot.client.close()
        watcher.writer.close()


async def test_a_host_that_dies_hands_its_tables_to_another_with_every_move(
    tmp_path: Path, database: str
) -> None:
    async with cluster_host(tmp_path / "b", database) as (b, port_b):
        a = Host(
            HostConfig(
                data_dir=tmp_path / "a",
                port=0,
                ai_delay=0.0,
                database=database,
                lease_seconds=LEASE,
            )
        )
        a.load()
        a.open_table(parse_seats("ann,bob"), seed=3)
        _, port_a = await a.start()
        ann = await join_bot(port_a, "ann", random_player(1))
        bob = await join_bot(port_b, "bob", random_player(2))  # relayed to a
        await asyncio.gather(
            ann.play_until(lambda v: len(v.moves) >= 5), bob.play_until(lambda v: len(v.moves) >= 5)
        )
        made = a.rooms["t1"].referee.record().moves
        tokens = (ann.seated.token, bob.seated.token)
        # Host a "dies": its leases are not given back, its sockets just close.
        assert a.cluster is not None
        await a.cluster.stop(release=False)
        for conn in list(a.connections):
            conn.abort()
        for room in a.rooms.values():
            room.stop()
        a.rooms.clear()
        await a.close()
        loop = asyncio.get_running_loop()
        began = loop.time()
        for _ in range(100):
            if "t1" in b.rooms:
                break
            await asyncio.sleep(0.1)
        took = loop.time() - began
        assert "t1" in b.rooms and took < LEASE * 3 + 1, took
        assert b.rooms["t1"].referee.record().moves == made  # every acknowledged move
        # Both players come back at host b and finish the game.
        ann2 = await join_bot(port_b, "ann", random_player(1), token=tokens[0])
        bob2 = await join_bot(port_b, "bob", random_player(2), token=tokens[1])
        end, _ = await asyncio.gather(ann2.play_to_end(), bob2.play_to_end())
        assert end.moves[: len(made)] == made
        for bot in (ann, bob, ann2, bob2):
            await bot.client.close()


async def test_a_split_never_writes_two_moves_n(tmp_path: Path, database: str) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, _port_a),
        cluster_host(tmp_path / "b", database) as (b, _port_b),
    ):
        # Force a second referee of t1 at host b (as if it believed the lease its own).
        store = PostgresStore(database)
        store.open()
        try:
            record = store.load_record("t1")
            assert record is not None
            room_b = b.resume("t1", record)
            room_a = a.rooms["t1"]
            first = room_a.referee.view(0).legal_moves
            await room_a.play(0, first[0], 0)
            with pytest.raises(Refusal) as refused:
                await room_b.play(0, first[-1], 0)
            assert refused.value.code == "unavailable"
            assert "t1" not in b.rooms  # host b gave the table up
            assert store.move_count("t1") == 1
            saved = store.load_record("t1")
            assert saved is not None and saved.moves == (first[0],)
        finally:
            store.close()


def test_a_lease_is_one_hosts_until_it_runs_out_on_the_databases_clock(database: str) -> None:
    store = PostgresStore(database)
    store.open()
    try:
        one = Leases(store, "one", "127.0.0.1:1", seconds=0.5)
        two = Leases(store, "two", "127.0.0.1:2", seconds=0.5)
        assert one.acquire("t1") and one.acquire("t1")
        assert not two.acquire("t1")
        assert one.renew() == {"t1"}
        assert two.holders()["t1"].address == "127.0.0.1:1"
        with store.pool.connection() as conn:
            conn.execute("SELECT pg_sleep(0.6)")
        assert "t1" not in two.holders()  # run out ...
        assert one.renew() == {"t1"}  # ... but taken by nobody: one stalled, and keeps it
        assert not two.acquire("t1")
        with store.pool.connection() as conn:
            conn.execute("SELECT pg_sleep(0.6)")
        assert two.acquire("t1")  # run out: taken
        assert one.renew() == set()  # and one knows it lost it
        two.release()
        assert one.acquire("t1")
    finally:
        store.close()


def test_a_lease_is_taken_early_only_from_its_holder_once_it_went_silent(database: str) -> None:
    store = PostgresStore(database)
    store.open()
    try:
        one = Leases(store, "one", "127.0.0.1:1", seconds=30)
        two = Leases(store, "two", "127.0.0.1:2", seconds=30)
        assert one.acquire("t1")
        assert not two.take_from("t1", "one", silent=15)  # renewed just now: never taken
        assert not two.take_from("t1", "other", silent=0)  # only from the holder named
        with store.pool.connection() as conn:  # as if one's last renewal were 20 s old
            conn.execute("UPDATE paris_leases SET until = now() + interval '10 seconds'")
        assert not two.acquire("t1")  # not run out ...
        assert two.take_from("t1", "one", silent=15)  # ... but silent for half of it: taken
        assert two.holders()["t1"].address == "127.0.0.1:2"
        assert one.renew() == set()  # and one knows it lost it
        assert not one.take_from("t1", "two", silent=15)  # two renews: never taken back
    finally:
        store.close()


async def test_a_host_whose_door_is_shut_is_taken_over_early_and_never_writes_move_n(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",), lease=3.0) as (a, port_a),
        cluster_host(tmp_path / "b", database, lease=3.0) as (b, port_b),
    ):
        ann = await join_bot(port_a, "ann", random_player(1))
        bob = await join_bot(port_b, "bob", random_player(2))  # relayed to a
        await asyncio.gather(
            ann.play_until(lambda v: len(v.moves) >= 4), bob.play_until(lambda v: len(v.moves) >= 4)
        )
        room_a = a.rooms["t1"]
        made = room_a.referee.record().moves
        tokens = {"ann": ann.seated.token, "bob": bob.seated.token}
        # Host a's door shuts, yet it still renews its lease: its table stays its own.
        assert a.cluster is not None and b.cluster is not None and a._server is not None
        a._server.close()
        await a._server.wait_closed()
        for conn in list(a.connections):
            conn.abort()
        with pytest.raises(RefusedError) as refused:
            await join_bot(port_b, "bob", random_player(2), token=tokens["bob"])
        assert refused.value.code == "unavailable" and "t1" not in b.rooms
        held = b.cluster.leases.lease_of("t1")
        assert held is not None and held.holder == a.cluster.id
        # Then it renews no more either (its referee lingers, a zombie): the next join
        # at b waits until the lease went two renewals silent and takes it over (both
        # joins at once: one claim, one takeover, both seated).
        await a.cluster.stop(release=False)
        bob2, ann2 = await asyncio.gather(
            join_bot(port_b, "bob", random_player(2), token=tokens["bob"]),
            join_bot(port_b, "ann", random_player(1), token=tokens["ann"]),
        )
        room_b = b.rooms["t1"]  # taken over, with every acknowledged move
        assert a.cluster.id in b.cluster._gone  # because a's door refused b's relay
        assert room_b.referee.record().moves == made
        n = len(made)
        mover = (ann2, bob2)[room_b.referee.view(None).to_move or 0]
        await mover.play_until(lambda v: len(v.moves) > n)  # b writes move n
        # The zombie's move n is refused by the database: never two moves n.
        seat = room_a.referee.view(None).to_move or 0
        with pytest.raises(Refusal) as split:
            await room_a.play(seat, room_a.referee.view(seat).legal_moves[0], n)
        assert split.value.code == "unavailable"
        with opened(database) as store:
            saved = store.load_record("t1")
            assert saved is not None and saved.moves == room_b.referee.record().moves
            assert len(saved.moves) == n + 1
        for bot in (ann, bob, ann2, bob2):
            await bot.client.close()


async def test_a_host_restarted_at_the_address_of_one_that_died_takes_its_tables(
    tmp_path: Path, database: str
) -> None:
    async with cluster_host(tmp_path / "b", database, lease=30.0) as (b, port_b):
        assert b.cluster is not None
        with opened(database) as store:
            store.create(Referee.new("t1", parse_seats("ann,bob"), seed=1))
            # The host that was at b's address before it: its lease lives 15 s more,
            # unrenewed for half of the 30 s (b's silent is 10 s).
            Leases(store, "before", b.cluster.leases.address, seconds=15).acquire("t1")
        ann = await join_bot(port_b, "ann", random_player(1))  # never relayed to itself
        assert "t1" in b.rooms and ann.seated.table == "t1"
        await ann.client.close()


async def test_a_live_host_at_this_hosts_own_address_is_said_in_the_log(
    tmp_path: Path, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Two live hosts that give one address (``--advertise`` copied from one to
    the other): a join for the other's table was refused "cannot be reached" and
    the operator was told nothing. The log says which host and what to fix."""
    caplog.set_level(logging.WARNING, logger="paris_tui")
    async with cluster_host(tmp_path / "b", database) as (b, port_b):
        assert b.cluster is not None
        with opened(database) as store:
            store.create(Referee.new("t1", parse_seats("ann,bob"), seed=1))
            twin = Leases(store, "twin", b.cluster.leases.address, seconds=LEASE)
            assert twin.acquire("t1")
            stop = threading.Event()

            def renew() -> None:
                for _ in range(200):  # a live host: renewed every 0.1 s, at most 20 s
                    if stop.wait(0.1):
                        return
                    twin.renew()

            renewing = threading.Thread(target=renew)
            renewing.start()
            try:
                raw = await RawClient.open(port_b)
                raw.send(HELLO + encode_join("ann", "t1"))
                await raw.line()
                answer = decode_host(await raw.line(TIMEOUT))
                raw.writer.close()
            finally:
                stop.set()
                renewing.join(timeout=TIMEOUT)
        assert not isinstance(answer, Seated) and "t1" not in b.rooms
    said = [r.getMessage() for r in caplog.records if "twin" in r.getMessage()]
    assert said and "--advertise" in said[0], [r.getMessage() for r in caplog.records]


async def test_a_relay_to_a_host_that_is_gone_is_refused_not_hung(
    tmp_path: Path, database: str
) -> None:
    async with cluster_host(tmp_path / "b", database) as (_b, port_b):
        store = PostgresStore(database)
        store.open()
        try:
            from paris_tui.host.referee import Referee

            ref = Referee.new("t1", parse_seats("ann,bob"), seed=1)
            store.create(ref)
            Leases(store, "elsewhere", "127.0.0.1:1", seconds=30).acquire("t1")
        finally:
            store.close()
        raw = await RawClient.open(port_b)
        raw.send(HELLO + encode_join("ann", "t1"))
        await raw.line()
        answer = decode_host(await raw.line(TIMEOUT))
        assert "cannot be reached" in getattr(answer, "message", ""), answer
        assert not isinstance(answer, Seated)
        raw.writer.close()


def encode_join(name: str, table: str) -> bytes:
    from paris_tui.net.protocol import Join

    return encode(Join(name, table=table))


# --- real processes, kill -9, and a client given several addresses ------------------------


async def _join_when_back(port: int, name: str, token: str | None, seed: int) -> tuple[Bot, float]:
    """Join at ``port`` again and again until the table is served (bounded)."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    for _ in range(100):
        try:
            return await join_bot(port, name, random_player(seed), token=token), loop.time() - began
        except RefusedError as exc:
            assert exc.code in ("unavailable", "seat_taken"), exc  # protocol 1 says seat_taken
            await asyncio.sleep(0.1)
    raise AssertionError("the table was never served again")


async def test_kill_9_of_the_referees_host_and_the_game_goes_on_at_another(
    tmp_path: Path, database: str
) -> None:
    from .test_process import HostProcess

    a = await HostProcess.start(
        tmp_path / "a",
        "--database",
        database,
        "--table",
        "ann,bob",
        "--seed",
        "3",
        "--ai-delay",
        "0",
    )
    b = await HostProcess.start(tmp_path / "b", "--database", database)
    try:
        port_a, port_b = await a.port(), await b.port()
        ann = await join_bot(port_a, "ann", random_player(1))
        bob = await join_bot(port_b, "bob", random_player(2))  # relayed to a
        await asyncio.gather(
            ann.play_until(lambda v: len(v.moves) >= 6), bob.play_until(lambda v: len(v.moves) >= 6)
        )
        made = ann.view.moves
        a.proc.kill()  # kill -9
        await a.wait()
        (bob2, waited), (ann2, _) = await asyncio.gather(
            _join_when_back(port_b, "bob", bob.seated.token, 2),
            _join_when_back(port_b, "ann", ann.seated.token, 1),
        )
        assert waited < 8.0, waited  # a lease of 3 s, then the next join takes it
        assert bob2.view.moves[: len(made)] == made  # every acknowledged move
        end, _ = await asyncio.gather(bob2.play_to_end(), ann2.play_to_end())
        assert end.outcome is not None
        for bot in (ann, bob, ann2, bob2):
            await bot.client.close()
    finally:
        for proc in (a.proc, b.proc):
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


async def test_join_given_several_addresses_uses_one_that_answers(
    tmp_path: Path, database: str
) -> None:
    from paris_tui.app.online.remote import JoinTarget, Link

    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)),
        cluster_host(tmp_path / "b", database) as (_b, port_b),
    ):
        target = JoinTarget("127.0.0.1", 1, "bob", others=(("127.0.0.1", port_b),))
        link = await Link.open(target, None)
        assert link.table.view(None).names == ("ann", "bob") and link.table.table_id == "t1"
        assert link.target.address == "127.0.0.1:1"  # its tokens stay the server's first
        assert target.at(1).endpoint == ("127.0.0.1", port_b)
        assert target.at(2).endpoint == ("127.0.0.1", 1)
        await link.close()


async def test_a_dropped_link_tries_the_next_address_first_not_the_one_that_dropped(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paris_tui.app.online import remote
    from paris_tui.app.online.remote import JoinTarget, Link

    dialled: list[tuple[str, int]] = []
    connect_at = remote._connect_at

    async def spy(target: JoinTarget, timeout: float) -> HostClient:
        dialled.append(target.endpoint)
        return await connect_at(target, timeout)

    monkeypatch.setattr(remote, "_connect_at", spy)
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (_a, port_a),
        cluster_host(tmp_path / "b", database) as (_b, port_b),
    ):
        first, second = ("127.0.0.1", port_a), ("127.0.0.1", port_b)
        target = JoinTarget(*first, "bob", others=(second, ("127.0.0.1", 1)))
        link = await Link.open(target, None)
        await link.rejoin(attempt=1)  # after a drop at a: b first
        await link.rejoin(attempt=1)  # after a drop at b: the third (nothing there), then a
        assert dialled == [first, second, ("127.0.0.1", 1), first], dialled
        assert link.dialed == 0 and link.table.table_id == "t1"
        await link.close()


async def test_hostile_clients_at_one_host_do_not_disturb_a_game_across_hosts(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (_a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        ann = await join_bot(port_a, "ann", random_player(1))
        bob = await join_bot(port_b, "bob", random_player(2))  # relayed by b
        hostile = []
        for i in range(12):
            raw = await RawClient.open(port_b)
            if i % 3 == 0:
                raw.send(b"not json\n")
            elif i % 3 == 1:
                raw.send(HELLO + b'{"type":"watch","table":"t1"}\n' + b"x" * 200_000 + b"\n")
            else:  # a relayed watcher that never reads, and a join for a name not its own
                raw.send(HELLO + encode_join("ann", "t1"))
            hostile.append(raw)
        await asyncio.gather(
            ann.play_until(lambda v: len(v.moves) >= 8), bob.play_until(lambda v: len(v.moves) >= 8)
        )
        assert ann.view.moves[:8] == bob.view.moves[:8]
        for raw in hostile:
            raw.writer.close()
        for bot in (ann, bob):
            await bot.client.close()
        assert b.rooms == {}


# --- issue 21's rest: waiting tables, names, relayed addresses, archives ------------------


async def _client(port: int) -> HostClient:
    return await HostClient.connect("127.0.0.1", port)


async def _next(client: HostClient, kind: type[Any], *, refusals: bool = False) -> Any:
    for _ in range(50):
        message = await client.receive(TIMEOUT)
        if isinstance(message, kind):
            return message
        assert refusals or not isinstance(message, Refused), message
    raise AssertionError(f"no {kind.__name__} came")


async def test_a_table_waiting_at_one_host_is_listed_and_joined_at_another(
    tmp_path: Path, database: str
) -> None:
    store = PostgresStore(database)
    store.open()
    try:  # a table waiting at a host killed -9: its row stays, with no lease
        store.put_waiting("t77", "dead", '[["zoe", "human", "present"], ["", "human", "free"]]')
    finally:
        store.close()
    async with (
        cluster_host(tmp_path / "a", database) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        assert b.cluster is not None and b.cluster.waiting_infos() == []  # a starting host
        with b.cluster.store.one() as conn:  # ... removed the dead host's row
            assert conn.execute("SELECT count(*) FROM paris_waiting").fetchone() == (0,)
        carol = await _client(port_a)
        waiting = await carol.open_table("carol", ("me", "open"))
        assert isinstance(waiting, Waiting) and waiting.table in a.waiting
        lobby = await _client(port_b)
        listed = {t.table: t for t in await lobby.tables()}
        shown = listed[waiting.table]
        assert shown.waiting and shown.free_seats == 1
        assert [(s.name, s.status) for s in shown.seats] == [("carol", "present"), ("", "free")]
        # dave, at host b, takes the free seat: relayed to host a, where the game starts.
        dave = await _client(port_b)
        seated = await dave.sit("dave", waiting.table)
        assert isinstance(seated, Seated) and seated.seat == 1
        assert isinstance(await _next(carol, Seated), Seated)
        assert waiting.table in a.rooms and b.rooms == {} and b.waiting == {}
        listed = {t.table: t for t in await lobby.tables()}
        assert not listed[waiting.table].waiting  # a game now, read from the database
        # A table that closes (its opener left) leaves every lobby.
        erin = await _client(port_a)
        other = await erin.open_table("erin", ("me", "open"))
        assert other.table in {t.table for t in await lobby.tables()}
        await erin.close()
        for _ in range(200):
            if other.table not in {t.table for t in await lobby.tables()}:
                break
            await asyncio.sleep(0.01)
        assert other.table not in {t.table for t in await lobby.tables()}
        # A join at b for it now is answered as for any table that is not there.
        late = await _client(port_b)
        with pytest.raises(RefusedError) as info:
            await late.sit("fred", other.table)
        assert info.value.refused.code == "no_such_table"
        for client in (carol, lobby, dave, late):
            await client.close()


async def test_a_name_sits_at_one_unfinished_table_across_every_host(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (_a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        ann = await _client(port_b)
        with pytest.raises(RefusedError) as info:
            await ann.open_table("ANN", ("me", "open"))
        assert info.value.refused.code == "name_in_use"
        assert "t1" in info.value.refused.message
        # A name waiting at a table of host a cannot open or wait at one of host b.
        carol = await _client(port_a)
        waiting = await carol.open_table("carol", ("me", "open"))
        with pytest.raises(RefusedError) as info:
            await ann.open_table("Carol", ("me", "open"))
        assert info.value.refused.code == "name_in_use"
        assert waiting.table in info.value.refused.message
        # The operator's tables too.
        with pytest.raises(TableConflictError):
            b.open_table(parse_seats("zed,bob"))
        assert b.rooms == {} and b.waiting == {}
        # Anyone else opens at b as ever.
        assert isinstance(await ann.open_table("dora", ("me", "open")), Waiting)
        for client in (ann, carol):
            await client.close()


async def test_two_hosts_that_seat_one_name_at_the_same_instant_cannot_both(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21: a name sits at one unfinished table across hosts, as a guarantee.
    The race made deterministic: whatever host b read of the other hosts' tables
    was read just before host a wrote (b's reads see nothing); the database still
    refuses b the name, for the operator's table, an opened one and a taken seat."""
    async with (
        cluster_host(tmp_path / "a", database) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        assert b.cluster is not None
        for read in ("unfinished_players", "waiting_elsewhere"):
            monkeypatch.setattr(b.cluster.store, read, lambda *args: [], raising=False)
        first = a.open_table(parse_seats("zoe,yan"))
        with pytest.raises(TableConflictError) as conflict:
            b.open_table(parse_seats("xia,ZOE"))
        assert conflict.value.table_id == first.id and conflict.value.names == ("zoe",)
        assert b.rooms == {}
        # A name waiting at host a's table opens none at host b ...
        pat = await _client(port_a)
        waiting = await pat.open_table("pat", ("me", "open"))
        other = await _client(port_b)
        with pytest.raises(RefusedError) as info:
            await other.open_table("Pat", ("me", "open"))
        assert info.value.refused.code == "name_in_use"
        assert f"pat already waits at table {waiting.table}" in info.value.refused.message
        # ... nor takes a seat there (a look-alike either: the Cyrillic "а").
        rex = await _client(port_b)
        at_b = await rex.open_table("rex", ("me", "open"))
        for name in ("PAT", "p\u0430t"):
            with pytest.raises(RefusedError) as info:
                await other.sit(name, at_b.table)
            assert info.value.refused.code == "name_in_use", name
        assert b.waiting[at_b.table].free_seats == 1
        # Its seat left (the table closed), the name sits at host b's table.
        await pat.close()
        for _ in range(200):
            if ("pat", waiting.table) not in b.cluster.store.seated():
                break
            await asyncio.sleep(0.01)
        seated = await other.sit("pat", at_b.table)
        assert isinstance(seated, Seated)
        assert {("pat", at_b.table), ("rex", at_b.table)} <= set(b.cluster.store.seated())
        for client in (other, rex):
            await client.close()


def test_a_names_seat_in_the_database_is_a_lock_and_lapses_with_its_table(
    database: str,
) -> None:
    """PostgresStore.seat: two hosts seating names at the same instant (a barrier)
    give each name to one table; a row lapses when its table ends, is archived,
    or waited at a host whose lease ran out; the name's own table gives way."""
    stores = [PostgresStore(database), PostgresStore(database)]
    for store in stores:
        store.open()
    try:
        leases = [Leases(store, f"h{i}", "", 30.0) for i, store in enumerate(stores)]
        names = [f"n{i}" for i in range(12)]
        barrier = threading.Barrier(2, timeout=TIMEOUT)
        won: dict[str, list[str]] = {name: [] for name in names}
        lost: list[tuple[str, str, bool]] = []
        failed: list[BaseException] = []

        def seat(i: int) -> None:
            table = f"t{900 + i}"
            try:
                assert leases[i].acquire(table)
                for name in names:  # one name at a time, both hosts at once
                    barrier.wait()
                    try:
                        stores[i].seat(table, f"h{i}", [name])
                    except SeatTaken as exc:
                        lost.append((exc.name, exc.table_id, exc.started))
                    else:
                        won[name].append(table)
            except BaseException as exc:  # said by the test's thread
                failed.append(exc)
                barrier.abort()

        threads = [threading.Thread(target=seat, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT)
        assert failed == []
        assert all(len(tables) == 1 for tables in won.values()), won
        assert sorted(lost) == sorted((n, t[0], False) for n, t in won.items())
        store = stores[0]
        # All or none: one name taken refuses the whole table's.
        assert leases[0].acquire("t1")
        with pytest.raises(SeatTaken):
            store.seat("t1", "h0", ["ivy", "N3"])
        assert ("ivy", "t1") not in store.seated()
        # A game under way holds its names; ended or archived, it frees them.
        for number, name in ((2, "ivy"), (3, "jo")):
            referee = Referee.new(f"t{number}", parse_seats(f"{name},ai:easy"), seed=number)
            store.create(referee)
            store.seat(referee.table_id, "h0", [name])
            with pytest.raises(SeatTaken) as taken:
                store.seat("t1", "h0", [name.upper()])
            assert taken.value.started and taken.value.table_id == referee.table_id
        with store.one() as conn:
            conn.execute("UPDATE paris_tables SET finished = true WHERE table_id = 't2'")
        store.archive("t3")
        assert ("jo", "t3") not in store.seated()
        store.seat("t1", "h0", ["ivy", "jo"])
        # A waiting table's host whose lease ran out holds no name; the name's own
        # table (the one it leaves) gives way too.
        stores[1].seat("t901", "h1", ["kim"])
        store.seat("t900", "h0", ["lou"])
        for name in ("kim", "lou"):
            with pytest.raises(SeatTaken):
                store.seat("t1", "h0", [name])
        leases[1].release()
        store.seat("t1", "h0", ["kim"])
        store.seat("t1", "h0", ["lou"], replace=["t900"])
        assert {n for n, t in store.seated() if t == "t1"} == {"ivy", "jo", "kim", "lou"}
        store.drop_waiting(stale=True)  # a starting host's sweep: the dead rows go
        assert not any(t == "t901" for _n, t in store.seated())
        store.unseat("t1", keep=["ivy"])
        assert [n for n, t in store.seated() if t == "t1"] == ["ivy"]
    finally:
        for store in stores:
            store.close()


def test_a_database_of_schema_5_seats_the_names_of_its_unfinished_tables(database: str) -> None:
    """Moving forward from schema 5: paris_seated is made and filled from the
    unfinished real-time tables (turn-based ones hold no name: a name sits at
    several of them)."""
    store = PostgresStore(database)
    store.open()
    try:
        for number, seats in ((1, "ann,bob"), (2, "cy,ai:easy"), (3, "dee,ed")):
            referee = Referee.new(f"t{number}", parse_seats(seats), seed=number)
            if number == 3:
                referee.meta["move_time"] = 86400.0  # turn-based
            store.create(referee)
        with store.tx() as conn:
            conn.execute("UPDATE paris_tables SET finished = true WHERE table_id = 't2'")
            conn.execute("DROP TABLE paris_seated")
            conn.execute("UPDATE paris_schema SET version = 5")
    finally:
        store.close()
    store = PostgresStore(database)
    store.open()
    try:
        with store.one() as conn:
            assert conn.execute("SELECT version FROM paris_schema").fetchone() == (SCHEMA_VERSION,)
        assert store.seated() == [("ann", "t1"), ("bob", "t1")]
    finally:
        store.close()


async def _said(client: HostClient, *kinds: type[Any]) -> Any:
    """The next chat line or refusal (``kinds``), presence and updates skipped (bounded)."""
    for _ in range(50):
        message = await client.receive(TIMEOUT)
        if isinstance(message, kinds):
            return message
    raise AssertionError(f"never got {kinds}")


async def test_chat_at_a_table_refereed_by_another_host(
    tmp_path: Path, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player at host b chats at host a's table over the relay: the lines reach
    the players and watchers of both hosts, the watchers' channel stays theirs,
    the rate is the account's and the address's (not the relay's), and the
    operator's mute holds at every host."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (_a, port_a),
        cluster_host(tmp_path / "b", database) as (_b, port_b),
    ):
        ann = await join_bot(port_a, "ann")
        bob = await join_bot(port_b, "bob")  # relayed to a
        near = await _client(port_a)
        await near.watch("t1")
        far = await _client(port_b)
        await far.watch("t1")  # relayed to a too
        bob.client.send(Chat("hello from b"))
        for client in (ann.client, bob.client, near, far):
            line = await _said(client, ChatLine, Refused)
            assert isinstance(line, ChatLine), line
            assert (line.name, line.seat, line.text) == ("bob", 1, "hello from b")
        far.send(Chat("bob will lose"))
        for client in (near, far):  # the watchers' channel: watchers only
            line = await _said(client, ChatLine)
            assert (line.seat, line.channel, line.text) == (None, "watchers", "bob will lose")
        ann.client.send(Chat(phrase="good_luck"))
        for client in (ann.client, bob.client):  # the next line they hear is ann's
            assert (await _said(client, ChatLine)).phrase == "good_luck"
        # The rate is bob's account's, whichever host his connections come through.
        for i in range(4):
            bob.client.send(Chat(f"line {i}"))
            assert isinstance(await _said(bob.client, ChatLine, Refused), ChatLine)
        again = await join_bot(port_a, "bob", token=bob.seated.token)  # directly at a
        again.client.send(Chat("one too many"))
        refused = await _said(again.client, Refused)
        assert refused.code == "chat_limited", refused
        # Anonymous watchers share their address's lines, relayed or not.
        for i in range(4):
            (near if i % 2 else far).send(Chat(f"w {i}"))
            assert isinstance(await _said(near if i % 2 else far, ChatLine, Refused), ChatLine)
        far.send(Chat("w 5"))
        refused = await _said(far, Refused)
        assert refused.code == "chat_limited", refused
        # The operator mutes ann (the database): refused at a, and over the relay.
        assert main(["host", "accounts", "mute", "ann", "--database", database]) == 0
        capsys.readouterr()
        ann.client.send(Chat("you are all terrible"))
        assert (await _said(ann.client, Refused)).code == "muted"
        relayed = await join_bot(port_b, "ann", token=ann.seated.token)
        relayed.client.send(Chat("from b, then"))
        assert (await _said(relayed.client, Refused)).code == "muted"
        for client in (ann.client, bob.client, again.client, relayed.client, near, far):
            await client.close()


async def test_a_table_that_comes_back_to_a_host_shows_the_chat_said_elsewhere(
    tmp_path: Path, database: str
) -> None:
    """Host a referees t1, then host b (a's lease lost), then a again: a newcomer
    at a reads the lines said while b had the table (a's copy of the recent
    lines was of before)."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        assert a.cluster is not None and b.cluster is not None

        async def move(old: Host, new: Host) -> None:
            assert old.cluster is not None and new.cluster is not None
            old.cluster.lose("t1")
            old.cluster.leases.release("t1")
            assert new.cluster.acquire("t1")
            await new.cluster.take("t1")
            assert "t1" in new.rooms and "t1" not in old.rooms

        ann = await join_bot(port_a, "ann")
        ann.client.send(Chat("said at a"))
        assert (await _said(ann.client, ChatLine)).text == "said at a"
        await move(a, b)
        await ann.client.close()
        ann = await join_bot(port_b, "ann", token=ann.seated.token)
        ann.client.send(Chat("said at b"))
        for _ in range(2):  # the line of a (history), then its own
            said = await _said(ann.client, ChatLine)
        assert said.text == "said at b"
        await move(b, a)
        await ann.client.close()
        watcher = await _client(port_a)
        await watcher.watch("t1")
        heard = [(await _said(watcher, ChatLine)).text for _ in range(2)]
        assert heard == ["said at a", "said at b"]
        await watcher.close()


async def _friends_info(client: HostClient, arrived: str | None = None) -> FriendsInfo:
    """The next FriendsInfo (``arrived``: the next that says so), bounded in time."""
    async with asyncio.timeout(TIMEOUT):
        while True:
            info = await _said(client, FriendsInfo, Refused)
            assert isinstance(info, FriendsInfo), info
            if arrived is None or info.arrived == arrived:
                return info


async def test_friends_are_here_at_any_host_of_the_database(tmp_path: Path, database: str) -> None:
    """Ann's lobby at host a listens for bob and cy: bob sitting at host b's own
    table is here for a, and told when he comes; cy at a's table relayed from b
    is told at once; both are here for a lobby at b too."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,cy",)) as (_a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        b.open_table(parse_seats("bob,dee"))
        ann = await join_bot(port_a, "ann")
        bob = await join_bot(port_b, "bob")
        cy = await join_bot(port_a, "cy")
        tokens = {"ann": ann.seated.token, "bob": bob.seated.token, "cy": cy.seated.token}
        for name, bot in (("bob", bob), ("cy", cy)):  # friends both ways: they ask too
            bot.client.send(FriendsRequest(name, tokens[name], "add", "ann"))
            await _friends_info(bot.client)
            await bot.client.close()
        lobby = await _client(port_a)
        for friend in ("bob", "cy"):
            lobby.send(FriendsRequest("ann", tokens["ann"], "add", friend))
            await _friends_info(lobby)
        lobby.send(FriendsRequest("ann", tokens["ann"], "show"))
        assert (await _friends_info(lobby)).friends == (("bob", False), ("cy", False))
        bob = await join_bot(port_b, "bob", token=tokens["bob"])  # b's own table
        told = await _friends_info(lobby, arrived="bob")
        assert told.friends == (("bob", True), ("cy", False))
        cy = await join_bot(port_b, "cy", token=tokens["cy"])  # relayed to a
        told = await _friends_info(lobby, arrived="cy")
        assert told.friends == (("bob", True), ("cy", True))
        other = await _client(port_b)  # ann's lobby at host b (cy's row comes from a)
        for _ in range(100):
            other.send(FriendsRequest("ann", tokens["ann"], "show"))
            shown = (await _friends_info(other)).friends
            if shown == (("bob", True), ("cy", True)):
                break
            await asyncio.sleep(0.02)
        assert shown == (("bob", True), ("cy", True))
        for client in (ann.client, bob.client, cy.client, lobby, other):
            await client.close()


async def test_a_referee_counts_a_relayed_player_at_the_players_own_address(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        admit = b._admit

        def from_far(conn: Connection) -> bool:  # bob is somewhere else on the net
            conn.address, conn.address_key = "198.51.100.7", "198.51.100.7"
            return admit(conn)

        monkeypatch.setattr(b, "_admit", from_far)
        bob = await join_bot(port_b, "bob")  # relayed by b to a
        assert bob.seated.seat == 1 and b.rooms == {}
        room = a.rooms["t1"]
        assert room.seated[1].address == "198.51.100.7"
        assert a._per_address["198.51.100.7"] == 1
        # A relay message from anything but a peer host (no proof, a proof for
        # another connection) is refused and the connection cut off.
        for proof in ("0" * 64, a.cluster.relay_proof("127.0.0.1:1", "203.0.113.9")):  # type: ignore[union-attr]
            raw = await RawClient.open(port_a)
            raw.send(HELLO + encode(Relay("203.0.113.9", proof or "")))
            heard = await raw.closed()
            assert isinstance(heard[-1], Refused) and heard[-1].code == "bad_message"
            assert heard[-1].fatal
        assert "203.0.113.9" not in a._per_address
        # With the proof for its own connection, a peer moves it to the person's address.
        raw = await RawClient.open(port_a)
        ip, port = raw.writer.get_extra_info("sockname")[:2]
        proof = a.cluster.relay_proof(f"{ip}:{port}", "203.0.113.9")  # type: ignore[union-attr]
        raw.send(HELLO + encode(Relay("203.0.113.9", proof or "")) + b'{"type":"ping"}\n')
        assert isinstance(await raw.message(), Welcome)
        assert isinstance(await raw.message(), Pong)
        assert a._per_address["203.0.113.9"] == 1
        # ... once only: a second relay message on it is refused.
        raw.send(encode(Relay("203.0.113.10", proof or "")))
        heard = await raw.closed()
        assert isinstance(heard[-1], Refused) and heard[-1].code == "bad_message"
        for _ in range(200):
            if "203.0.113.9" not in a._per_address:
                break
            await asyncio.sleep(0.01)
        assert "203.0.113.9" not in a._per_address
        await bob.client.close()


async def test_an_abandoned_table_in_the_database_is_archived_not_served(
    tmp_path: Path, database: str
) -> None:
    store = PostgresStore(database)
    store.open()
    try:
        async with cluster_host(tmp_path / "a", database) as (a, port_a):
            client = await _client(port_a)
            seated = await client.open_table("ann", ("me", "ai:random"))
            assert isinstance(seated, Seated)
            await client.close()
            room = a.rooms[seated.table]
            for _ in range(500):
                if not room.seated:
                    break
                await asyncio.sleep(0.01)
            room.touched = time.time() - 15 * 86400
            assert a.sweep() == [seated.table]
            assert seated.table not in a.rooms and a.client_tables() == []
            assert store.is_archived(seated.table)
            lobby = await _client(port_a)
            assert seated.table not in {t.table for t in await lobby.tables()}
            await lobby.close()
        # Still a record to replay; no host takes it over or serves it.
        record = store.load_record(seated.table)
        assert record is not None and record.players[0].name == "ann"
        replay_summary(record)
        assert seated.table not in Leases(store, "x", "", 1.0).unheld()
        # A table untouched for long is archived as a host starts, not resumed.
        again = "t90"
        store.put_record(again, json.loads(store.record_text(seated.table) or "{}"))
        with store.tx() as conn:
            conn.execute(
                "UPDATE paris_tables SET touched = now() - interval '15 days' WHERE table_id = %s",
                (again,),
            )
        async with cluster_host(tmp_path / "b", database) as (b, _port_b):
            assert again not in b.rooms and store.is_archived(again)
            assert again not in b.cluster.leases.holders()  # type: ignore[union-attr]
    finally:
        store.close()


async def test_a_database_outage_is_one_line_in_the_log_not_one_per_move(
    tmp_path: Path, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a):
        ann = await join_bot(port_a, "ann")
        bob = await join_bot(port_a, "bob")
        append = a.tables.append

        def away(ref: Any) -> None:
            raise DatabaseUnavailable("the database failed: it is away")

        a.tables.append = away  # type: ignore[method-assign]
        caplog.set_level(logging.INFO, logger="paris_tui.host")
        for _ in range(3):
            bot = ann if ann.view.seat == ann.view.to_move else bob
            bot.client.play(first_legal(bot.view), len(bot.view.moves))
            message = await _next(bot.client, Refused, refusals=True)
            assert message.code == "unavailable"
        a.tables.append = append  # type: ignore[method-assign]
        bot = ann if ann.view.seat == ann.view.to_move else bob
        bot.client.play(first_legal(bot.view), len(bot.view.moves))
        assert isinstance(await _next(bot.client, Update), Update)
        lines = [r.getMessage() for r in caplog.records if "could not save" in r.getMessage()]
        assert len(lines) == 1, lines
        assert any("saved again" in r.getMessage() for r in caplog.records)
        for b in (ann, bob):
            await b.client.close()


async def test_a_table_taken_while_the_leases_renew_is_kept_and_a_lease_never_idles(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = PostgresStore(database)
    store.open()
    try:
        # A long lease: the ticks are this test's own steps.
        async with cluster_host(tmp_path / "a", database, lease=30.0) as (a, port_a):
            cluster = a.cluster
            assert cluster is not None and a.rooms == {}
            ref = Referee.new("t1", parse_seats("ann,bob"), seed=3)
            store.create(ref)  # a table whose host is gone: no lease
            heartbeat = cluster.heartbeat
            assert heartbeat is not None
            heartbeat.alive = lambda: False  # the renewals are this test's own steps
            renew = heartbeat.leases.renew

            def slow_renew() -> set[str]:
                held = renew()
                time.sleep(0.5)  # ann's join takes t1 meanwhile
                return held

            monkeypatch.setattr(heartbeat.leases, "renew", slow_renew)
            beat = asyncio.create_task(asyncio.to_thread(heartbeat.beat))
            await asyncio.sleep(0.1)
            ann = await join_bot(port_a, "ann", table="t1")
            assert "t1" in a.rooms
            await beat
            await cluster.step()
            assert "t1" in a.rooms and a.rooms["t1"].seated  # not dropped as lost
            # A lease held with no table served here (its room gone) is served again
            # at the next step, not left to answer "try again" for ever.
            monkeypatch.setattr(heartbeat.leases, "renew", renew)
            a.rooms.pop("t1").stop()
            heartbeat.beat()
            await cluster.step()
            assert "t1" in a.rooms
            await ann.client.close()
    finally:
        store.close()


# --- a door's ticket at one host, a table at another (issue 21, found by playing) ----------

SSH_ANN = DoorProof("ssh", "SHA256:ann-key", "ann", "ssh-ed25519 ann@home")


async def test_a_doors_ticket_at_one_host_proves_its_person_at_another_hosts_table(
    tmp_path: Path, database: str
) -> None:
    """An SSH login as ann at host b for t1, refereed by host a, was refused
    ``bad_token``: b relayed the join with its ticket, which lives only in b's memory."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        assert a.accounts is not None and list(a.rooms) == ["t1"]
        ticket = b.issue_ticket(SSH_ANN)
        # ann's app at b's door: relayed to a, which seats her on b's word for the key.
        door = await _client(port_b)
        seated = await door.join("ann", token=ticket, table="t1")
        assert seated.seat == 0 and seated.token is None and b.rooms == {}
        account = a.accounts.find("ann")
        assert account is not None
        assert [(c.door, c.digest, c.label) for c in a.accounts.credentials(account.id)] == [
            ("ssh", "SHA256:ann-key", "ssh-ed25519 ann@home")
        ]
        assert not len(a.tickets)  # nothing of b's tickets was copied to a
        # ... nor did the ticket cross: a was vouched for a stand-in made for this relay.
        vouched = a.rooms["t1"].seated[0].vouched
        assert vouched is not None and vouched.proof == SSH_ANN
        assert vouched.ticket != digest(ticket)
        # The ticket is no secret a knows: given to a directly, it is a wrong token.
        stranger = await _client(port_a)
        with pytest.raises(RefusedError) as info:
            await stranger.join("ann", token=ticket)
        assert info.value.code == "bad_token"
        await stranger.close()
        # On the same relayed connection, the ticket keeps proving ann (an account request).
        info_ann = await door.account("ann", ticket)
        assert info_ann.name == "ann" and dict(info_ann.doors)["ssh"] == 1
        # ... and it is ann's only: bob's seat is not hers to take with it.
        with pytest.raises(RefusedError) as info:
            await door.join("bob", token=ticket, table="t1")
        assert info.value.code == "name_taken"
        await door.close()
        # A browser tab at b (a cookie's ticket, for whatever name is typed): bob.
        cookie = DoorProof("browser", digest("c" * 43), None, "browser")
        tab_ticket = b.issue_ticket(cookie)
        tab = await _client(port_b)
        assert (await tab.join("bob", token=tab_ticket)).seat == 1  # found by name, relayed
        await tab.close()
        bob = a.accounts.find("bob")
        assert bob is not None
        assert [c.door for c in a.accounts.credentials(bob.id)] == ["browser"]
        # Good while b's door session lasts (a reconnect), then revoked at b: no proof.
        again = await _client(port_b)
        assert (await again.join("bob", token=tab_ticket, table="t1")).seat == 1
        await again.close()
        b.revoke_ticket(tab_ticket)
        late = await _client(port_b)
        with pytest.raises(RefusedError) as info:
            await late.join("bob", token=tab_ticket, table="t1")
        assert info.value.code == "bad_token"
        await late.close()


async def test_a_door_at_one_host_takes_a_seat_at_a_table_waiting_at_another(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database) as (a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        carol = await _client(port_a)
        waiting = await carol.open_table("carol", ("me", "open"))
        assert isinstance(waiting, Waiting)
        ticket = b.issue_ticket(DoorProof("ssh", "SHA256:dave-key", "dave", "ssh-ed25519"))
        dave = await _client(port_b)
        # A watch first (relayed to a, and refused there): the ticket comes only later,
        # over the relay that is already there, and b vouches for it then.
        with pytest.raises(RefusedError) as info:
            await dave.watch(waiting.table)
        assert info.value.code == "not_started"
        seated = await dave.sit("dave", waiting.table, token=ticket)
        assert isinstance(seated, Seated) and seated.seat == 1 and seated.token is None
        assert isinstance(await _next(carol, Seated), Seated)
        assert waiting.table in a.rooms and b.rooms == {}
        assert a.accounts is not None
        account = a.accounts.find("dave")
        assert account is not None
        assert [c.door for c in a.accounts.credentials(account.id)] == ["ssh"]
        for client in (carol, dave):
            await client.close()


async def test_a_vouch_for_a_door_is_taken_only_from_a_peer_for_its_own_connection(
    tmp_path: Path, database: str
) -> None:
    async with cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a):
        cluster = a.cluster
        assert cluster is not None
        stand_in = "s" * 43
        vouched = Vouched(digest(stand_in), SSH_ANN, time.monotonic() + 60)
        join = encode(Join("ann", stand_in, "t1"))

        async def relayed(vouch_for: str | None, forged: bool = False) -> RawClient:
            raw = await RawClient.open(port_a)
            ip, port = raw.writer.get_extra_info("sockname")[:2]
            source = f"{ip}:{port}"
            proof = cluster.relay_proof(source, "door") or ""
            vouch = cluster.vouch(vouch_for or source, vouched)
            if vouch is not None and forged:  # another credential than the one proven
                vouch = structs.replace(vouch, credential="SHA256:mallory")
            raw.send(HELLO + encode(Relay("door", proof, vouch)) + join)
            return raw

        # A vouch proven for another connection, or altered on the way: cut off.
        for raw in (await relayed("127.0.0.1:1"), await relayed("", forged=True)):
            heard = await raw.closed()
            assert isinstance(heard[-1], Refused) and heard[-1].code == "bad_message"
            assert heard[-1].fatal
        # From no peer at all (no relay proof): cut off before any vouch counts.
        raw = await RawClient.open(port_a)
        vouch = cluster.vouch("127.0.0.1:1", vouched)
        raw.send(HELLO + encode(Relay("door", "0" * 64, vouch)) + join)
        heard = await raw.closed()
        assert isinstance(heard[-1], Refused) and heard[-1].code == "bad_message"
        assert a.accounts is not None and a.accounts.find("ann") is None
        assert a.rooms["t1"].seated == {}
        # A vouch line of its own, from no relay: cut off.
        raw = await RawClient.open(port_a)
        raw.send(HELLO + encode(cluster.vouch("127.0.0.1:1", vouched)))  # type: ignore[arg-type]
        heard = await raw.closed()
        assert isinstance(heard[-1], Refused) and heard[-1].code == "bad_message"
        # A peer's vouch for its own connection: ann sits, her account the key's.
        raw = await relayed(None)
        assert isinstance(await raw.message(), Welcome)
        seated = await raw.message()
        assert isinstance(seated, Seated) and seated.seat == 0 and seated.token is None
        account = a.accounts.find("ann")
        assert account is not None
        assert [c.door for c in a.accounts.credentials(account.id)] == ["ssh"]
        # ... once: a second word on that connection, even proven for it, is cut off.
        ip, port = raw.writer.get_extra_info("sockname")[:2]
        raw.send(encode(cluster.vouch(f"{ip}:{port}", vouched)))  # type: ignore[arg-type]
        heard = await raw.closed()
        assert isinstance(heard[-1], Refused) and heard[-1].code == "bad_message"


async def test_an_ssh_login_at_one_host_sits_at_a_table_refereed_by_another(
    tmp_path: Path, database: str
) -> None:
    """The bug as played: ``ssh -p <b's door> ann@...`` for a table refereed at a."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, _port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        door = SSHDoor(b, SSHConfig(port=0, command=stand_in, hangup_grace=2.0), app_port=port_b)
        await door.start()
        try:
            key = new_key(tmp_path, "ann")
            async with await connect(door.port, "ann", key) as conn:
                term = await Terminal.open(conn)
                assert "name=ann seat=0 ticket=yes" in await term.wait_for("ready")
                assert b.rooms == {} and a.rooms["t1"].seated[0].address == "door"
                term.process.stdin.write(b"q")
                assert await term.finish() == 3
            assert a.accounts is not None
            account = a.accounts.find("ann")
            assert account is not None
            credentials = a.accounts.credentials(account.id)
            assert [(c.door, c.digest) for c in credentials] == [
                ("ssh", str(key.get_fingerprint("sha256")))
            ]
        finally:
            await door.close()


# A browser tab's app at host b (textual-serve's protocol): joins bob with its ticket
# over b's private socket and shows the seat it got, or the refusal's code.
WEB_STAND_IN = """
import asyncio, os, sys
from paris_tui.host.child import DOOR_SOCKET_ENV, TICKET_ENV, die_with_parent
from paris_tui.net.client import HostClient, RefusedError

die_with_parent()
out = sys.stdout.buffer
out.write(b"__GANGLION__\\n")
out.flush()


async def main():
    path = os.environ[DOOR_SOCKET_ENV]
    client = await HostClient.connect("127.0.0.1", int(sys.argv[1]), path=path)
    try:
        said = "seat=%d" % (await client.join("bob", token=os.environ.get(TICKET_ENV))).seat
    except RefusedError as exc:
        said = "refused=" + exc.code
    text = (said + " done").encode()
    out.write(b"D" + len(text).to_bytes(4, "big") + text)
    out.flush()
    data = b" "
    while data and b'"quit"' not in data:
        data = os.read(0, 4096)
    await client.close()


asyncio.run(main())
"""


async def test_a_browser_tab_at_one_host_sits_at_a_table_refereed_by_another(
    tmp_path: Path, database: str
) -> None:
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, _port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        app = [sys.executable, "-c", WEB_STAND_IN, str(port_b)]
        door = WebDoor(
            host=b, host_port=port_b, data_dir=b.store.root, port=0, command=lambda _d: app
        )
        _, door.port = await door.start()
        cookie = "k" * 43
        try:
            async with aiohttp.ClientSession() as http:
                url = f"http://127.0.0.1:{door.port}/ws?width=80&height=24"
                ws = await http.ws_connect(url, headers={"Cookie": f"{COOKIE}={cookie}"})
                seen = b""
                async with asyncio.timeout(TIMEOUT):
                    while b"done" not in seen:
                        message = await ws.receive()
                        assert message.type == aiohttp.WSMsgType.BINARY, message
                        seen += message.data
                assert b"seat=1 done" in seen, seen
                assert b.rooms == {} and a.rooms["t1"].seated[1].address == "door"
                await ws.close()
        finally:
            await door.close()
        assert a.accounts is not None
        account = a.accounts.find("bob")
        assert account is not None
        assert [(c.door, c.digest) for c in a.accounts.credentials(account.id)] == [
            ("browser", digest(cookie))
        ]


async def test_a_doors_word_goes_on_when_a_relayed_connection_is_relayed_again(
    tmp_path: Path, database: str
) -> None:
    """b relays a door's app to a (a watch), a relays it on to c (a watch refused),
    and only then does the app send its ticket: the word reaches c from a."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, _port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
        cluster_host(tmp_path / "c", database) as (c, port_c),
    ):
        carol = await _client(port_c)
        waiting = await carol.open_table("carol", ("me", "open"))
        assert isinstance(waiting, Waiting) and waiting.table in c.waiting
        ticket = b.issue_ticket(DoorProof("ssh", "SHA256:dave-key", "dave", "ssh-ed25519"))
        dave = await _client(port_b)
        assert (await dave.watch("t1")).table == "t1"  # b -> a
        with pytest.raises(RefusedError) as info:
            await dave.watch(waiting.table)  # a -> c
        assert info.value.code == "not_started"
        seated = await dave.sit("dave", waiting.table, token=ticket)
        assert isinstance(seated, Seated) and seated.seat == 1 and seated.token is None
        assert waiting.table in c.rooms and a.rooms.keys() == {"t1"} and b.rooms == {}
        assert c.accounts is not None
        account = c.accounts.find("dave")
        assert account is not None
        assert [c.door for c in c.accounts.credentials(account.id)] == ["ssh"]
        for client in (carol, dave):
            await client.close()


async def _texts_until(client: HostClient, last: str) -> list[str]:
    """The chat lines' texts ``client`` reads up to ``last`` (others skipped; bounded)."""
    heard: list[str] = []
    for _ in range(50):
        line = await _said(client, ChatLine)
        heard.append(line.text or line.phrase or "")
        if heard[-1] == last:
            return heard
    raise AssertionError(f"never heard {last!r}: {heard}")


async def test_a_mute_made_at_one_host_holds_at_every_host_and_over_the_relay(
    tmp_path: Path, database: str
) -> None:
    """Issue 22: the mutes are the database's, and each line asks it who mutes its
    writer. Ann (seated at a's t1) mutes cy at host a: cy's lines at b's t2 no longer
    reach ann's watcher there. Ann mutes bob from her watcher at host b: bob's
    lines said over the relay from b to a's t1 reach neither her seat at a nor her
    watcher of t1 relayed from b; others hear them all."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a),
        cluster_host(tmp_path / "b", database, ("cy,dee",)) as (b, port_b),
    ):
        assert "t1" in a.rooms and "t2" in b.rooms
        ann = await join_bot(port_a, "ann")
        bob = await join_bot(port_b, "bob")  # relayed to a
        cy = await join_bot(port_b, "cy")
        dee = await join_bot(port_b, "dee")
        token = ann.seated.token
        assert token is not None
        ann_at_b = await _client(port_b)  # ann watches b's t2 as ann
        await ann_at_b.watch("t2", name="ann", token=token)
        ann_t1_via_b = await _client(port_b)  # and a's t1, relayed from b, as ann
        await ann_t1_via_b.watch("t1", name="ann", token=token)
        anon = await _client(port_b)
        await anon.watch("t2")
        # A mute made at a holds at b.
        ann.client.send(MutesRequest("add", "cy"))
        assert await _said(ann.client, MutesInfo) == MutesInfo(("cy",))
        cy.client.send(Chat("cy at b"))
        assert await _texts_until(cy.client, "cy at b") == ["cy at b"]
        dee.client.send(Chat("dee at b"))
        assert await _texts_until(ann_at_b, "dee at b") == ["dee at b"]
        assert await _texts_until(anon, "dee at b") == ["cy at b", "dee at b"]
        # A mute made at b holds for lines relayed from b to a, at a and through b.
        ann_at_b.send(MutesRequest("add", "bob", "ann", token))
        assert await _said(ann_at_b, MutesInfo) == MutesInfo(("bob", "cy"))
        bob.client.send(Chat("bob via b"))
        assert await _texts_until(bob.client, "bob via b") == ["bob via b"]
        ann.client.send(Chat("ann at a"))
        assert await _texts_until(ann.client, "ann at a") == ["ann at a"]
        assert await _texts_until(ann_t1_via_b, "ann at a") == ["ann at a"]
        assert await _texts_until(bob.client, "ann at a") == ["ann at a"]
        # The history of a join at either host leaves the muted lines out too.
        again = await join_bot(port_b, "ann", token=token)  # ann's seat, relayed from b
        assert await _texts_until(again.client, "ann at a") == ["ann at a"]
        late = await _client(port_a)
        await late.watch("t2", name="ann", token=token)  # relayed from a to b
        assert await _texts_until(late, "dee at b") == ["dee at b"]
        for client in (ann.client, bob.client, cy.client, dee.client, again.client):
            await client.close()
        for client in (ann_at_b, ann_t1_via_b, anon, late):
            await client.close()


async def test_an_ssh_watcher_relayed_to_the_referee_watches_and_chats_as_its_login(
    tmp_path: Path, database: str
) -> None:
    """Issue 22: a door's ticket in a watch is vouched for over the relay, as a join's:
    an SSH login at host b watching a's table under its name is proven at a (the
    ticket itself stays at b), and its chat line is the name's."""
    async with (
        cluster_host(tmp_path / "a", database, ("ann,bob",)) as (_a, port_a),
        cluster_host(tmp_path / "b", database) as (b, port_b),
    ):
        ann = await join_bot(port_a, "ann")
        ticket = b.issue_ticket(DoorProof("ssh", digest("z" * 43), "zoe"))
        zoe = await _client(port_b)
        await zoe.watch("t1", name="zoe", token=ticket)
        zoe.send(Chat("hi from b's door", name="zoe", token=ticket))
        line = await _said(zoe, ChatLine, Refused)
        assert isinstance(line, ChatLine), line
        assert (line.name, line.seat, line.channel) == ("zoe", None, "watchers")
        other = b.issue_ticket(DoorProof("ssh", digest("y" * 43), "zoe"))  # not zoe's key
        refused = await _client(port_b)
        with pytest.raises(RefusedError) as exc:
            await refused.watch("t1", name="zoe", token=other)
        assert exc.value.code == "name_taken"
        for client in (ann.client, zoe, refused):
            await client.close()


async def test_a_friends_step_after_the_host_stopped_them_is_quiet(
    tmp_path: Path, database: str
) -> None:
    """A host's close stops the friends (their presence rows go), then shuts its I/O
    pool, then the cluster: a cluster tick in between ran the friends' step on the shut
    pool ('a cluster task failed', seen in CI). After the stop a step does nothing."""
    async with cluster_host(tmp_path / "a", database, ("ann,bob",)) as (a, port_a):
        ann = await join_bot(port_a, "ann")
        bob = await join_bot(port_a, "bob")
        token = ann.seated.token
        lobby = await _client(port_a)
        lobby.send(FriendsRequest("ann", token, "add", "bob"))
        await _friends_info(lobby)
        bob.client.send(FriendsRequest("bob", bob.seated.token, "add", "ann"))  # friends now
        await _friends_info(bob.client)
        await bob.client.close()
        lobby.send(FriendsRequest("ann", token, "show"))
        assert [f for f, _here in (await _friends_info(lobby)).friends] == ["bob"]
        await a.friends.step()  # a listener with a friend: the step reads the database
        a.friends.stop()
        a.io_pool.shutdown(wait=True)
        await a.friends.step()
        for client in (ann.client, lobby):
            await client.close()
