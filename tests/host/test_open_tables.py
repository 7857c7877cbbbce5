"""Tables opened from a client, with free seats that others join (protocol 2, issue 9).

Over real loopback sockets: open, list, fill, play; leaving and closing; what a
version-1 connection sees; hostile opens refused without disturbing another
table. Every wait is bounded (helpers.TIMEOUT, MAX_STEPS).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from hostile_corpus import REFUSED

from paris_tui.core.record import replay_summary
from paris_tui.host.limits import Quota
from paris_tui.host.server import Limits
from paris_tui.host.store.files import HostStore
from paris_tui.net.client import HostClient, HostClosedError, RefusedError
from paris_tui.net.protocol import PROTOCOL_VERSION, Refused, Seated, Tables, Waiting, Welcome

from .helpers import (
    HELLO,
    MAX_STEPS,
    TIMEOUT,
    Bot,
    RawClient,
    join_bot,
    random_player,
    running_host,
    saved,
    stored_table_ids,
)

HELLO_2 = b'{"type":"hello","protocol":2,"client":"test"}\n'


async def _connect(port: int) -> HostClient:
    client = await HostClient.connect("127.0.0.1", port)
    assert client.welcome is not None and client.welcome.protocol == PROTOCOL_VERSION
    return client


async def _next_waiting(client: HostClient) -> Waiting:
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, Waiting):
            return message
        assert not isinstance(message, Refused), message
    raise AssertionError("no waiting message came")


async def _next_seated(client: HostClient) -> Seated:
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, Seated):
            return message
        assert not isinstance(message, Refused), message
    raise AssertionError("the game never started")


async def _refused(coro: object) -> RefusedError:
    with pytest.raises(RefusedError) as info:
        await coro  # type: ignore[misc]
    assert not info.value.refused.fatal, info.value
    assert info.value.refused.message.isprintable()
    return info.value


async def test_open_list_fill_and_play(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        carol = await _connect(port)
        waiting = await carol.open_table("Carol", ("me", "open", "open", "ai:greedy"))
        assert isinstance(waiting, Waiting)
        assert (waiting.table, waiting.seat) == ("t2", 0)
        assert [(s.name, s.kind, s.status) for s in waiting.seats] == [
            ("Carol", "human", "present"),
            ("", "human", "free"),
            ("", "human", "free"),
            ("Greedy AI", "ai:greedy", "ai"),
        ]
        # Listed with its free seats; nothing of it on disk before its game starts.
        dave = await _connect(port)
        listed = {t.table: t for t in await dave.tables()}
        assert set(listed) == {"t1", "t2"}
        assert listed["t2"].waiting and listed["t2"].free_seats == 2
        assert not listed["t1"].waiting and listed["t1"].free_seats == 0
        assert not host.store.record_path("t2").exists()
        # A name already at the table is refused, ignoring case; so is a name seated
        # at an unfinished table elsewhere.
        assert (await _refused(dave.sit("CAROL", "t2"))).code == "name_in_use"
        assert (await _refused(dave.sit("Greedy AI", "t2"))).code == "name_in_use"
        assert (await _refused(dave.sit("ann", "t2"))).code == "name_in_use"
        assert (await _refused(dave.sit("Dave\x1b[2J", "t2"))).code == "bad_name"
        # Dave takes a free seat: both hear of it.
        joined = await dave.sit("Dave", "t2")
        assert isinstance(joined, Waiting) and joined.seat == 1
        assert [s.status for s in joined.seats] == ["present", "present", "free", "ai"]
        assert (await _next_waiting(carol)).seats == joined.seats
        # A watcher cannot watch a game that has not begun.
        eve = await _connect(port)
        assert (await _refused(eve.watch("t2"))).code == "not_started"
        # The last free seat starts the game: everyone is seated, each with a token.
        seated_eve = await eve.sit("Eve", "t2")
        assert isinstance(seated_eve, Seated)
        seated_carol, seated_dave = await _next_seated(carol), await _next_seated(dave)
        seated = [seated_carol, seated_dave, seated_eve]
        assert [s.seat for s in seated] == [0, 1, 2]
        tokens = {s.token for s in seated}
        assert None not in tokens and len(tokens) == 3
        assert [s.name for s in seated_eve.seats] == ["Carol", "Dave", "Eve", "Greedy AI"]
        assert [s.status for s in seated_eve.seats] == ["present", "present", "present", "ai"]
        for s in seated:
            assert s.view.own_route is not None and s.view.seat == s.seat
        assert "t2" not in host.waiting and "t2" in host.rooms
        # The game plays: the humans and the AI, through the same referee.
        bots = [
            Bot(client, s, random_player(i))
            for i, (client, s) in enumerate(zip((carol, dave, eve), seated, strict=True))
        ]
        await asyncio.gather(*(b.play_until(lambda v: len(v.moves) >= 8) for b in bots))
        listed = {t.table: t for t in await (await _connect(port)).tables()}
        assert not listed["t2"].waiting and listed["t2"].move_count >= 8
        # Saved: an ordinary paris-paris-record, and the owners of the seats.
        record = saved(host, "t2")
    assert [p.name for p in record.players] == ["Carol", "Dave", "Eve", "Greedy AI"]
    assert [p.kind for p in record.players] == ["human", "human", "human", "ai:greedy"]
    assert len(record.moves) >= 8
    assert not replay_summary(record)["finished"]
    # A restart resumes it; Carol comes back with her token.
    async with running_host(tmp_path) as (host, port):
        assert "t2" in host.rooms
        carol = await _connect(port)
        again = await carol.join("carol", token=seated_carol.token)
        assert (again.table, again.seat) == ("t2", 0) and again.token is None
        await carol.close()


async def test_a_table_of_me_and_ai_starts_at_once(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (host, port):
        zoe = await _connect(port)
        seated = await zoe.open_table("Zoë", ("ai:random", "me"), small_tour="tile-line")
        assert isinstance(seated, Seated) and seated.seat == 1 and seated.token
        assert seated.view.options.small_tour == "tile-line"
        bot = Bot(zoe, seated, random_player(5))
        end = await bot.play_to_end()
        assert end.outcome is not None
        record = saved(host, seated.table)
        assert replay_summary(record)["final"]["scores"] == list(end.outcome.scores)


async def test_leaving_frees_the_seat_and_an_empty_table_closes(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (host, port):
        carol = await _connect(port)
        waiting = await carol.open_table("carol", ("open", "me", "open"))
        assert isinstance(waiting, Waiting) and waiting.seat == 1
        dave = await _connect(port)
        assert isinstance(await dave.sit("dave", waiting.table), Waiting)
        await _next_waiting(carol)
        # Dave's connection drops: his seat is free again.
        await dave.close()
        freed = await _next_waiting(carol)
        assert [s.status for s in freed.seats] == ["free", "present", "free"]
        # Frank takes a seat and leaves by asking; the seat is free again.
        frank = await _connect(port)
        assert isinstance(await frank.sit("frank", waiting.table), Waiting)
        await _next_waiting(carol)
        assert await frank.leave() == waiting.table
        assert [s.status for s in (await _next_waiting(carol)).seats].count("free") == 2
        # Carol leaves too: nobody waits there, the table is gone (and nothing on disk).
        assert await carol.leave() == waiting.table
        assert host.waiting == {}
        assert [t.table for t in await frank.tables()] == []
        assert (await _refused(frank.sit("frank", waiting.table))).code == "no_such_table"
        assert not host.store.record_path(waiting.table).exists()
        assert await frank.leave() is None
        # A new table never takes the closed one's id (a client may still name it).
        again = await frank.open_table("frank", ("me", "open"))
        assert again.table != waiting.table


async def test_a_host_restart_drops_waiting_tables_cleanly(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        carol = await _connect(port)
        waiting = await carol.open_table("carol", ("me", "open"))
        assert isinstance(waiting, Waiting) and waiting.table == "t2"
    with pytest.raises(HostClosedError):  # told: bye shutdown
        await carol.receive(TIMEOUT)
    assert stored_table_ids(tmp_path) == ["t1"]  # nothing written of the waiting t2
    async with running_host(tmp_path) as (host, port):
        assert list(host.rooms) == ["t1"] and host.waiting == {}
        carol = await _connect(port)
        assert [t.table for t in await carol.tables()] == ["t1"]
        again = await carol.open_table("carol", ("me", "open"))
        # Files: no record was ever written under t2, so it is free again; a database's
        # sequence never gives an id twice (a client may still name the closed t2).
        assert again.table == ("t2" if isinstance(host.tables, HostStore) else "t3")
        await carol.close()


async def test_a_version_1_connection_never_sees_a_waiting_table(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_, port):
        carol = await _connect(port)
        await carol.open_table("carol", ("me", "open"))
        old = await RawClient.open(port)
        old.send(HELLO + b'{"type":"list_tables"}\n{"type":"join","name":"dave","table":"t2"}\n')
        welcome = await old.message()
        assert isinstance(welcome, Welcome) and welcome.protocol == 1
        tables = await old.message()
        assert isinstance(tables, Tables) and [t.table for t in tables.tables] == ["t1"]
        line = await old.line()
        assert json.loads(line)["code"] == "no_such_table"
        seen = b"".join(old.lines)
        assert b'"free"' not in seen and b'"waiting":true' not in seen and b"carol" not in seen
        # open_table is not a message of protocol 1.
        old.send(b'{"type":"open_table","name":"dave","seats":["me","open"]}\n')
        closing = await old.closed()
        assert isinstance(closing[-1], Refused) and closing[-1].code == "bad_message"
        old.close()


async def test_hostile_opens_are_refused_and_other_tables_play_on(tmp_path: Path) -> None:
    limits = Limits(
        max_tables=6,
        tables_per_address=10,
        opens=Quota(per_owner=3, per_address=10, total=100, seconds=3600.0),
        burst=100,
        rate=50,
    )
    async with running_host(tmp_path, ["ann,bob"], limits=limits) as (host, port):
        ann = await join_bot(port, "ann", random_player(1))
        bob = await join_bot(port, "bob", random_player(2))
        game = asyncio.gather(ann.play_to_end(), bob.play_to_end())
        mallory = await _connect(port)
        for case in REFUSED:
            if len(case.text) <= 500:
                error = await _refused(mallory.open_table(case.text, ("me", "open")))
                assert error.code == "bad_name", case.label
        for seats in (
            ("me",),
            ("me", "open", "open", "open", "open"),
            ("open", "open"),
            ("me", "me"),
            ("me", "ai:bogus"),
            ("me", "human"),
            ("me", "ai:\x1b[2J"),
        ):
            error = await _refused(mallory.open_table("mallory", seats))
            assert error.code == "bad_table", seats
        error = await _refused(mallory.open_table("mallory", ("me", "open"), final_tours="all"))
        assert error.code == "bad_table"
        assert host.waiting == {}
        # One person opens a few tables, each leaving the one before: then no more.
        for _ in range(3):
            assert isinstance(await mallory.open_table("mallory", ("me", "open")), Waiting)
        assert len(host.waiting) == 1
        error = await _refused(mallory.open_table("mallory", ("me", "open")))
        assert error.code == "too_many_tables"
        # Many connections: the host's table limit holds (6 waiting tables; t1 is the
        # operator's and counts in no client's cap).
        others = [await _connect(port) for _ in range(6)]
        opened = 0
        for i, other in enumerate(others):
            try:
                await other.open_table(f"m{i}", ("me", "open", "open"))
                opened += 1
            except RefusedError as exc:
                assert exc.code == "too_many_tables" and not exc.refused.fatal
        assert opened == 5 and len(host.waiting) == 6
        # A thousand opens in one burst: cut off for flooding; its table closes with it.
        raw = await RawClient.open(port)
        raw.send(HELLO_2 + b'{"type":"open_table","name":"flood","seats":["me","open"]}\n' * 1000)
        messages = await raw.closed()
        assert isinstance(messages[-1], Refused) and messages[-1].fatal
        assert messages[-1].code == "rate_limited"
        raw.close()
        # A thousand seats: not a message at all.
        raw = await RawClient.open(port)
        seats = b'"open",' * 1000
        raw.send(HELLO_2 + b'{"type":"open_table","name":"x","seats":[' + seats + b'"me"]}\n')
        messages = await raw.closed()
        assert isinstance(messages[-1], Refused) and messages[-1].code in (
            "too_large",
            "bad_message",
        )
        raw.close()
        for _ in range(MAX_STEPS):
            if "flood" not in {s.name for t in host.waiting.values() for s in t.slots}:
                break
            await asyncio.sleep(0.01)
        assert len(host.waiting) == 6
        # Ann and Bob were never disturbed.
        ends = await asyncio.wait_for(game, 120)
        assert ends[0].outcome is not None and ends[0].outcome == ends[1].outcome
