"""Quotas per person and per address, never per connection (issue 17).

Over real loopback sockets: strangers opening tables and leaving cannot fill
the host nor stop the operator's own tables; waiting tables close with their
opener; abandoned tables are archived (out of the lobby and the caps, still
replayable). The windows and keys of host/limits.py on a fake clock.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from paris_tui.core.record import load_record
from paris_tui.host.limits import NestedWindow, Quota, Window, address_key, owner_key
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig, Limits
from paris_tui.net.client import HostClient, RefusedError
from paris_tui.net.protocol import Hello, Left, Ping, Pong, Refused, Seated, Waiting, Welcome

from .helpers import MAX_STEPS, TIMEOUT, running_host

DAY = 86400.0


async def _connect(port: int) -> HostClient:
    return await HostClient.connect("127.0.0.1", port)


async def test_strangers_opening_tables_cannot_stop_the_operators_table(tmp_path: Path) -> None:
    # Issue 17: 10 connections x 9 open_table with an AI seat, each left at once.
    opened = refused = 0
    async with running_host(tmp_path) as (host, port):
        for c in range(10):
            client = await _connect(port)
            for i in range(9):
                try:
                    answer = await client.open_table(f"s{c}n{i}", ("me", "ai:random"))
                except RefusedError as exc:
                    assert exc.code == "too_many_tables" and not exc.refused.fatal
                    refused += 1
                    continue
                assert isinstance(answer, Seated)
                opened += 1
            await client.close()
        # Per address, not per connection: one address holds 4 unfinished tables.
        assert opened == Limits().tables_per_address
        assert refused == 90 - opened
        assert len(host.client_tables()) == opened
    # The operator's table starts after a restart (the host's table cap is for clients).
    async with running_host(tmp_path, ["zoe,yan"]) as (host, _port):
        zoe = [r for r in host.unfinished() if r.referee.names == ("zoe", "yan")]
        assert len(zoe) == 1 and zoe[0].opener is None
        # The strangers' tables still count against their quota after the restart.
        assert len(host.client_tables()) == opened


def test_the_operators_tables_are_never_refused_for_the_clients_cap(tmp_path: Path) -> None:
    host = Host(HostConfig(data_dir=tmp_path, limits=Limits(max_tables=1)))
    host.load()
    try:
        for i in range(3):
            host.open_table(parse_seats(f"a{i},b{i}"))
        assert len(host.unfinished()) == 3
    finally:
        host.store.unlock()


async def test_the_quota_is_per_person_and_per_address_not_per_connection(
    tmp_path: Path,
) -> None:
    limits = Limits(tables_per_owner=1, tables_per_address=2, burst=200, rate=100)
    async with running_host(tmp_path, limits=limits) as (host, port):
        a, b, c = [await _connect(port) for _ in range(3)]
        assert isinstance(await a.open_table("ann", ("me", "open")), Waiting)
        # Re-opening from the same connection replaces its own waiting table.
        assert isinstance(await a.open_table("ann", ("me", "open")), Waiting)
        assert len(host.waiting) == 1
        assert isinstance(await b.open_table("bob", ("me", "open")), Waiting)
        # A third table from the same address, on a third connection: refused.
        with pytest.raises(RefusedError) as info:
            await c.open_table("cy", ("me", "open"))
        assert info.value.code == "too_many_tables" and "address" in info.value.refused.message
        for client in (a, b, c):
            await client.close()


async def test_tables_opened_per_hour_are_counted_per_address(tmp_path: Path) -> None:
    limits = Limits(opens=Quota(50, 3, 100, 3600.0), burst=200, rate=100)
    async with running_host(tmp_path, limits=limits) as (_host, port):
        clients = [await _connect(port) for _ in range(4)]
        for i, client in enumerate(clients[:3]):
            assert isinstance(await client.open_table(f"p{i}", ("me", "open")), Waiting)
            await client.leave()
        with pytest.raises(RefusedError) as info:
            await clients[3].open_table("p3", ("me", "open"))
        assert info.value.code == "too_many_tables" and "last hour" in info.value.refused.message
        for client in clients:
            await client.close()


async def test_a_waiting_table_closes_when_its_opener_leaves(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (host, port):
        opener, guest = await _connect(port), await _connect(port)
        waiting = await opener.open_table("carol", ("me", "open", "open"))
        assert isinstance(waiting, Waiting)
        assert isinstance(await guest.sit("dave", waiting.table), Waiting)
        await opener.close()
        heard = []
        for _ in range(MAX_STEPS):
            message = await guest.receive(TIMEOUT)
            heard.append(message)
            if isinstance(message, Refused):
                break
        assert Left(waiting.table) in heard
        assert isinstance(heard[-1], Refused) and heard[-1].code == "no_such_table"
        assert not heard[-1].fatal
        assert host.waiting == {}
        # dave waits nowhere: he may open a table of his own.
        assert isinstance(await guest.open_table("dave", ("me", "open")), Waiting)
        await guest.close()


@pytest.mark.files_only(
    "ages the record files (os.utime) and reads host/archive/; in the database: "
    "test_cluster.py's test_an_abandoned_table_in_the_database_is_archived_not_served"
)
async def test_abandoned_tables_are_archived_out_of_the_lobby_and_the_caps(
    tmp_path: Path,
) -> None:
    limits = Limits(tables_per_address=1)
    async with running_host(tmp_path, limits=limits) as (host, port):
        client = await _connect(port)
        seated = await client.open_table("ann", ("me", "ai:random"))
        assert isinstance(seated, Seated)
        await client.close()
        room = host.rooms[seated.table]
        for _ in range(MAX_STEPS):  # the host notices she left
            if not room.seated:
                break
            await _tick()
        assert host.sweep() == []  # not abandoned yet
        room.touched = time.time() - 15 * DAY
        assert host.sweep() == [seated.table]
        assert seated.table not in {t.table for t in host.table_infos()}
        assert host.client_tables() == []
        archived = host.store.archived_path(seated.table)
        assert load_record(archived).players[0].name == "ann"
        # Out of the cap: the same address opens another table, with a new id.
        client = await _connect(port)
        again = await client.open_table("ann", ("me", "ai:random"), token=seated.token)
        assert isinstance(again, Seated) and again.table != seated.table
        await client.close()
    # A table untouched for long is archived when the host starts, not resumed;
    # the operator's own tables never are.
    old = time.time() - 15 * DAY
    os.utime(host.store.record_path(again.table), (old, old))
    async with running_host(tmp_path, ["zoe,yan"]) as (host, _port):
        assert again.table not in host.rooms
        assert host.store.archived_path(again.table).exists()
        assert {r.referee.names for r in host.rooms.values()} == {("zoe", "yan")}
        # No id is given twice: the new table's is past every archived one.
        assert max(int(t[1:]) for t in host.rooms) > int(again.table[1:])
        zoe = next(iter(host.rooms.values()))
        zoe.touched = old
        assert host.sweep() == []
    os.utime(host.store.record_path(zoe.id), (old, old))
    async with running_host(tmp_path) as (host, _port):
        assert zoe.id in host.rooms


async def _tick() -> None:
    await asyncio.sleep(0.01)


@pytest.mark.files_only(
    "with a database a restarted host serves only unfinished tables (Host.load: across "
    "hosts the lobby lists the leased ones; finished games are listed by list_games)"
)
async def test_finished_tables_stay_in_the_lobby_after_a_restart(tmp_path: Path) -> None:
    from .helpers import join_bot, random_player

    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann", random_player(1))
        bob = await join_bot(port, "bob", random_player(2))
        await asyncio.wait_for(asyncio.gather(ann.play_to_end(), bob.play_to_end()), 120)
        await ann.client.close()
        await bob.client.close()
    async with running_host(tmp_path) as (host, _port):
        infos = host.table_infos()
        assert [(t.table, t.finished) for t in infos] == [("t1", True)]


# --- keys and windows -------------------------------------------------------------------


def test_owner_key_is_the_name_as_people_compare_it() -> None:
    assert owner_key("Ann") == owner_key("ann") == owner_key(" ANN ")


def test_ipv6_addresses_count_per_64() -> None:
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("?") == "?"


def test_a_window_slides_and_forgets_old_keys() -> None:
    now = [0.0]
    window = Window(2, 60.0, max_keys=3, clock=lambda: now[0])
    window.add("a")
    window.add("a")
    assert not window.allows("a") and window.allows("b")
    assert window.retry_after("a") == 60.0
    now[0] = 61.0
    assert window.allows("a") and window.count("a") == 0
    for key in "bcde":
        window.add(key)
    assert len(window) == 3  # bounded: the oldest key is forgotten


def test_nested_windows_count_nothing_for_a_refusal() -> None:
    now = [0.0]
    nested = NestedWindow(Quota(1, 2, 3, 10.0), clock=lambda: now[0])
    assert nested.refusal("ann", "1.2.3.4") is None
    nested.add("ann", "1.2.3.4")
    assert nested.refusal("ann", "1.2.3.4") == "owner"
    assert nested.refusal("bob", "1.2.3.4") is None
    nested.add("bob", "1.2.3.4")
    assert nested.refusal("cy", "1.2.3.4") == "address"
    for _ in range(100):  # refused attempts are never counted
        assert nested.refusal("cy", "1.2.3.4") == "address"
    nested.add("cy", "5.6.7.8")
    assert nested.refusal("dee", "9.9.9.9") == "host"
    now[0] = 11.0
    assert nested.refusal("ann", "1.2.3.4") is None


# --- connections: the anonymous pool, the doors' apps -------------------------------------


async def _flood(port: int, addresses: int = 10, each: int = 30) -> list[asyncio.StreamWriter]:
    """``each`` silent connections from each of ``addresses`` loopback addresses."""
    writers = []
    for a in range(1, addresses + 1):
        for _ in range(each):
            try:
                _reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(f"127.0.0.{a}", 0)
                )
            except OSError:
                continue
            writers.append(writer)
    await asyncio.sleep(0.2)  # the host has seen them all
    return writers


async def test_a_flood_from_many_addresses_never_starves_ssh_players(tmp_path: Path) -> None:
    from .ssh_helpers import Terminal, connect, new_key, running_door

    async with running_door(tmp_path) as (host, door):
        writers = await _flood(host_port(host))
        try:
            limits = Limits()
            # The anonymous pool holds, the flood is refused per address or makes room.
            assert len(host._anonymous) <= limits.max_anonymous
            async with await connect(door.port, "ann", new_key(tmp_path, "ann")) as conn:
                term = await Terminal.open(conn)
                await term.wait_for("ready")
                assert term.field("seat") == "0"  # not host_full: the doors' own pool
        finally:
            for writer in writers:
                writer.transport.abort()


async def test_a_returning_player_gets_in_through_a_flood(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        first = await _connect(port)
        token = (await first.join("ann")).token
        await first.close()
        writers = await _flood(port)
        try:
            assert len(host._anonymous) == Limits().max_anonymous
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=("127.0.0.11", 0)
            )
            client = HostClient(reader, writer)
            client.send(Hello(2, "test"))
            assert isinstance(await client.receive(TIMEOUT), Welcome)
            seated = await client.join("ann", token=token)
            assert seated.seat == 0
            # Sitting, she is out of the anonymous pool: no newcomer pushes her out.
            more = await _flood(port, addresses=10, each=8)
            writers += more
            client.send(Ping(7))
            for _ in range(5):  # her seat's presence news may come first
                if await client.receive(TIMEOUT) == Pong(7):
                    break
            else:
                raise AssertionError("no pong")
            await client.close()
        finally:
            for writer in writers:
                writer.transport.abort()


def host_port(host: Host) -> int:
    assert host._server is not None
    return int(host._server.sockets[0].getsockname()[1])
