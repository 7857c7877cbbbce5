"""A tournament's table offers no rematch (its next round pairs the players): the host
opens a round's table as the tournament's (kept in its record, so after a restart too),
says so in the seated and watching it sends (``tournament``, protocol 6), and refuses an
``agree rematch`` there with ``tournament_table``. Protocol bots on loopback."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest
from pg import PostgresServer

from paris_tui.host.accounts.command import invite
from paris_tui.host.server import Host, HostConfig
from paris_tui.host.tournaments.engine import Plan
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Agree, Agreement, HostMessage, Refused
from paris_tui.net.table import RemoteTable
from paris_tui.net.tournaments_wire import RoundStart
from paris_tui.wording import in_language, refusal_reason

from .helpers import TIMEOUT, join_bot, running_host

MAX_STEPS = 400


async def _next(client: HostClient, kind: type, timeout: float = TIMEOUT) -> HostMessage:
    for _ in range(MAX_STEPS):
        message = await client.receive(timeout)
        if isinstance(message, kind):
            return message
    raise AssertionError(f"no {kind.__name__} came")


async def test_a_tournament_table_says_so_and_refuses_a_rematch(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (host, port):
        accounts, kept = host.accounts, host.tournaments.store
        assert accounts is not None and kept is not None
        made = kept.create("Winter Cup", Plan("swiss", 2, 2), move_time=120.0, start=0.0)
        proof: dict[str, str] = {}
        for name in ("ann", "bob"):
            proof[name] = invite(accounts, name).replace("-", "")
            found = accounts.find(name)
            assert found is not None
            kept.enter(made.id, found.id, name, rating=0.0)
        host.tournaments.tick(time.time())  # round 1 paired, its table opened
        table_id = kept.table_ids(made.id)[(1, 1)]
        assert host.rooms[table_id].referee.tournament == "Winter Cup"
        ann = await join_bot(port, "ann", code=proof["ann"])
        bob = await join_bot(port, "bob", code=proof["bob"])
        watcher = await HostClient.connect("127.0.0.1", port)
        try:
            assert ann.seated.table == table_id
            assert ann.seated.tournament == bob.seated.tournament == "Winter Cup"
            assert not RemoteTable(ann.client, ann.seated).rematch_allowed
            watching = await watcher.watch(table_id)
            assert watching.tournament == "Winter Cup"
            await asyncio.gather(*(b.play_until(lambda v: len(v.moves) >= 4) for b in (ann, bob)))
        finally:
            await watcher.close()
            await ann.client.close()
            await bob.client.close()
    tokens = {b.seated.seat: b.seated.token for b in (ann, bob)}
    # The next host knows it from the table's record: its players, back at the table
    # after the restart, are told so and offered no rematch at its end.
    async with running_host(tmp_path) as (host, port):
        ann = await join_bot(port, "ann", token=tokens[ann.seated.seat], table=table_id)
        bob = await join_bot(port, "bob", token=tokens[bob.seated.seat], table=table_id)
        try:
            assert ann.seated.tournament == bob.seated.tournament == "Winter Cup"
            assert not RemoteTable(ann.client, ann.seated).rematch_allowed
            await asyncio.gather(ann.play_to_end(), bob.play_to_end())
            ann.client.send(Agree("rematch"))
            refused = await _next(ann.client, Refused)
            assert isinstance(refused, Refused) and refused.code == "tournament_table"
            assert not refused.fatal
            assert refusal_reason(refused.code, refused.message) == (
                "a tournament's table has no rematch: the next round pairs you"
            )
            with in_language("de"):  # each client in its own words
                assert refusal_reason(refused.code, refused.message) == (
                    "an einem Turniertisch gibt es keine Revanche: die nächste Runde bringt "
                    "neue Paarungen"
                )
            assert not any(isinstance(m, Agreement) for m in bob.received)
        finally:
            await ann.client.close()
            await bob.client.close()
    # Once the game is over, a restart leaves its players its result where both stores
    # keep it: the finished games' list and the tournament's page (round 1 played at
    # this table, the places). The table itself is served again from the data
    # directory's files only (the latest finished ones stay in that host's lobby);
    # with --database no host serves a finished table after a restart, as several
    # hosts would each serve a copy of it: its record is read when asked for (the
    # list, the replay), and so no rematch of it can be agreed there either.
    async with running_host(tmp_path) as (host, port):
        client = await HostClient.connect("127.0.0.1", port)
        try:
            games = await client.games(player="ann")
            (game,) = [g for g in games if g.table == table_id]
            assert sorted(game.names) == ["ann", "bob"] and sorted(game.places) in ([1, 2], [1, 1])
            page = await client.tournament("show", made.id)
            (first,) = [r for r in page.rounds if r.number == 1]
            (played,) = first.tables
            assert played.table == table_id and played.places is not None
            assert sorted(played.seats) == ["ann", "bob"]
        finally:
            await client.close()


async def test_a_table_of_no_tournament_says_none_and_offers_the_rematch(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        try:
            assert ann.seated.tournament is None
            assert RemoteTable(ann.client, ann.seated).rematch_allowed
        finally:
            await ann.client.close()


async def test_the_log_says_one_table_in_the_singular(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_host(tmp_path) as (host, _port):
        accounts, kept = host.accounts, host.tournaments.store
        assert accounts is not None and kept is not None
        made = kept.create("Duo", Plan("swiss", 2, 1), move_time=120.0, start=0.0)
        for name in ("ann", "bob"):
            invite(accounts, name)
            found = accounts.find(name)
            assert found is not None
            kept.enter(made.id, found.id, name, rating=0.0)
        with caplog.at_level(logging.INFO, logger="paris_tui"):
            host.tournaments.tick(time.time())
    said = [r.getMessage() for r in caplog.records if "paired" in r.getMessage()]
    assert said == ["tournament Duo: round 1 paired, 1 table"]


async def test_the_host_that_takes_a_round_over_tells_its_players_where_they_sit(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """Host a pairs round 1 and opens its tables, then stops (its lease given up, as at
    its death once the lease runs out) before ann, who listens at host b, heard where
    she sits: b, taking the tournament over, tells her from the store, once."""
    database = postgres.dsn(postgres.create_database())
    hosts: list[Host] = []
    for folder in ("a", "b"):
        host = Host(HostConfig(data_dir=tmp_path / folder, port=0, database=database))
        host.load()
        await host.start()
        hosts.append(host)
    a, b = hosts
    clients: list[HostClient] = []
    try:
        accounts, kept = a.accounts, a.tournaments.store
        assert accounts is not None and kept is not None
        made = kept.create("Relay", Plan("swiss", 2, 2), move_time=86400.0, start=0.0)
        codes: dict[str, str] = {}
        for i, name in enumerate(("ann", "bob", "cat", "dan")):
            codes[name] = invite(accounts, name).replace("-", "")
            found = accounts.find(name)
            assert found is not None
            kept.enter(made.id, found.id, name, rating=10.0 - i)
        a.tournaments.tick(time.time())  # a pairs round 1 and opens both its tables
        assert not kept.unopened(made.id, 1) and len(a.rooms) == 2
        ann_table = next(r.id for r in a.rooms.values() if "ann" in r.referee.names)
        # ann's token (her first seat, by her link code), then her lobby at host b.
        port_a, port_b = (h._server.sockets[0].getsockname()[1] for h in hosts)  # type: ignore[union-attr]
        first = await HostClient.connect("127.0.0.1", port_a)
        clients.append(first)
        token = (await first.join("ann", table=ann_table, code=codes["ann"])).token
        assert token is not None
        await first.close()
        lobby = await HostClient.connect("127.0.0.1", port_b)
        clients.append(lobby)
        await lobby.tournaments("ann", token)  # it listens as ann from now on
        await a.tournaments.close()  # a stops: its lease given up, its tables stay
        b.tournaments.tick(time.time())  # b takes the tournament over
        told = await _next(lobby, RoundStart)
        assert isinstance(told, RoundStart)
        assert (told.name, told.round, told.table) == ("Relay", 1, ann_table)
        assert told.seats[told.seat] == "ann"
        b.tournaments.tick(time.time())  # its next look tells nobody again
        with pytest.raises(TimeoutError):
            await _next(lobby, RoundStart, timeout=1.0)
    finally:
        for client in clients:
            await client.close()
        for host in hosts:
            await host.close()
