"""A tournament's rounds played at a real host (paris_tui.host.services.tournaments).

Protocol bots (real TCP on loopback) play a Swiss tournament of five accounts, two a
table, two rounds, on both stores: the start opens round 1's tables with seats
reserved for the paired names, the last game over pairs round 2 and opens its tables,
the host is restarted before round 2 is played, and the tournament finishes after it.
The stored places are checked against each game's own result, and the pairing rules
(a bye each round, never twice to one player; no repeat) in the test's own data.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from pg import PostgresServer

from paris_tui.cli import main
from paris_tui.host.accounts.command import invite
from paris_tui.host.events import RoundOpened, TableEvent
from paris_tui.host.ratings.store import ranks
from paris_tui.host.server import Host, HostConfig
from paris_tui.host.tournaments.engine import Plan
from paris_tui.host.tournaments.pairing import Round
from paris_tui.host.tournaments.standings import standings
from paris_tui.host.tournaments.store import Tournament

from .helpers import Bot, join_bot, random_player, running_host

NAMES = ("ann", "bob", "cat", "dan", "eve")
WAIT_STEPS = 200


async def _until(check: object, what: str) -> None:
    for _ in range(WAIT_STEPS):
        if callable(check) and check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


def _rounds(host: Host, tournament: int) -> list[Round]:
    assert host.tournaments.store is not None
    return host.tournaments.store.rounds(tournament)


def _opened(host: Host, tournament: int, number: int) -> bool:
    """Whether round ``number`` is paired and every table of it is open at the host: the
    host pairs a round (written in the store) before it opens its tables, and a player
    who joins in between is told no table has a seat for them."""
    store = host.tournaments.store
    assert store is not None
    rounds = store.rounds(tournament)
    if len(rounds) < number:
        return False
    ids = store.table_ids(tournament)
    count = len(rounds[number - 1].tables)
    return all(ids.get((number, no)) in host.rooms for no in range(1, count + 1))


async def _play_round(
    host: Host, port: int, rnd_no: int, tournament: int, proof: dict[str, dict[str, str]]
) -> dict[str, int]:
    """Every paired player joins by name (a code the first time, then the token) and the
    round's games are played to their end; each player's place, from the game's own
    result as their bot saw it."""
    store = host.tournaments.store
    assert store is not None
    rnd = store.rounds(tournament)[rnd_no - 1]
    keys = store.names(tournament)
    bots: list[Bot] = []
    names: list[str] = []
    for i, key in enumerate(k for t in rnd.tables for k in t.seats):
        name = keys[key]
        bot = await join_bot(port, name, random_player(rnd_no * 10 + i), **proof[name])
        if bot.seated.token:  # given once, on the first join: kept
            proof[name] = {"token": bot.seated.token}
        bots.append(bot)
        names.append(name)
    places: dict[str, int] = {}
    try:
        views = await asyncio.gather(*(b.play_to_end() for b in bots))
    finally:
        for bot in bots:
            await bot.client.close()
    for name, view in zip(names, views, strict=True):
        outcome = view.outcome
        assert outcome is not None
        assert view.seat is not None
        places[f"{name}@{rnd_no}"] = ranks(outcome.scores, outcome.on_board)[view.seat]
    return places


async def test_a_swiss_of_five_through_the_host_with_a_restart(
    tmp_path: Path, store: str | None
) -> None:
    proof: dict[str, dict[str, str]] = {}
    async with running_host(tmp_path, database=store) as (host, port):
        accounts = host.accounts
        kept = host.tournaments.store
        assert accounts is not None and kept is not None
        ids: dict[str, int] = {}
        for name in NAMES:
            proof[name] = {"code": invite(accounts, name).replace("-", "")}
            found = accounts.find(name)
            assert found is not None
            ids[name] = found.id
        made = kept.create("Cup", Plan("swiss", 2, 2), move_time=120.0, start=time.time() + 3600)
        for i, name in enumerate(NAMES):
            kept.enter(made.id, ids[name], name, rating=50.0 - i)
        host.tournaments.tick(time.time())
        assert kept.rounds(made.id) == [], "not before its start"
        host.tournaments.tick(made.start + 1)
        first = kept.rounds(made.id)
        assert len(first) == 1 and len(first[0].tables) == 2 and len(first[0].byes) == 1
        assert not kept.unopened(made.id, 1)
        for table in first[0].tables:
            room_ids = [r.id for r in host.rooms.values()]
            names = {kept.names(made.id)[k] for k in table.seats}
            assert any(set(host.rooms[r].referee.names) == names for r in room_ids)
        seen = await _play_round(host, port, 1, made.id, proof)
        await _until(lambda: _opened(host, made.id, 2), "round 2 open")
        # The pairing is stored from a thread, its tables opened next on the host's loop.
        await _until(lambda: not kept.unopened(made.id, 2), "round 2's tables opened")
    # A restart between round 2's pairing and its games: they are played at the next host.
    async with running_host(tmp_path, database=store) as (host, port):
        kept = host.tournaments.store
        assert kept is not None
        assert kept.get(made.id) is not None
        seen |= await _play_round(host, port, 2, made.id, proof)
        await _until(
            lambda: (t := kept.get(made.id)) is not None and t.state == "finished",
            "the tournament finished",
        )
        rounds = kept.rounds(made.id)
        entrants = kept.entrants(made.id)
        by_key = kept.names(made.id)
    # The rules, in the test's own data.
    assert len(rounds) == 2 and all(r.over for r in rounds)
    byes = [b for r in rounds for b in r.byes]
    assert len(byes) == 2 and len(set(byes)) == 2, "a bye each round, never twice"
    pairs = [frozenset(t.seats) for r in rounds for t in r.tables]
    assert len(pairs) == len(set(pairs)) == 4, "no repeat"
    for rnd in rounds:
        seated = sorted([k for t in rnd.tables for k in t.seats] + list(rnd.byes))
        assert seated == sorted(str(ids[n]) for n in NAMES)
    stored: dict[str, int] = {}
    for rnd in rounds:
        for table in rnd.tables:
            assert table.places is not None
            stored |= {
                f"{by_key[k]}@{rnd.number}": p
                for k, p in zip(table.seats, table.places, strict=True)
            }
    assert stored == seen, "each table's places are its game's"
    rows = standings([e.key for e in entrants], rounds, 2)
    assert sum(r.points for r in rows) == 4 * 6 + 2 * 3


async def _play_some(
    host: Host, port: int, rnd_no: int, tournament: int, proof: dict[str, dict[str, str]]
) -> None:
    """The round's players join and play a few moves, then go (a host about to stop)."""
    store = host.tournaments.store
    assert store is not None
    rnd = store.rounds(tournament)[rnd_no - 1]
    keys = store.names(tournament)
    bots: list[Bot] = []
    for i, key in enumerate(k for t in rnd.tables for k in t.seats):
        name = keys[key]
        bot = await join_bot(port, name, random_player(rnd_no * 10 + i), **proof[name])
        if bot.seated.token:  # given once, on the first join: kept
            proof[name] = {"token": bot.seated.token}
        bots.append(bot)
    try:
        await asyncio.gather(*(b.play_until(lambda v: len(v.moves) >= 4) for b in bots))
    finally:
        for bot in bots:
            await bot.client.close()


@pytest.mark.parametrize("players", [2, 3])
async def test_a_four_round_swiss_of_six_with_a_withdrawal_and_a_restart_mid_round(
    tmp_path: Path,
    players: int,
    store: str | None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's whole tournament, on SQLite and PostgreSQL: six accounts, four Swiss
    rounds, two and three a table; fay withdraws during round 2 (five are left: a bye
    each round at two a table, two at three), the host restarts in the middle of round
    3; the final standings are counted by hand from each game's own result."""
    names = ("ann", "bob", "cat", "dan", "eve", "fay")
    proof: dict[str, dict[str, str]] = {}
    seen: dict[str, int] = {}
    async with running_host(tmp_path, database=store) as (host, port):
        accounts, kept = host.accounts, host.tournaments.store
        assert accounts is not None and kept is not None
        ids: dict[str, int] = {}
        for name in names:
            proof[name] = {"code": invite(accounts, name).replace("-", "")}
            found = accounts.find(name)
            assert found is not None
            ids[name] = found.id
        made = kept.create("Six", Plan("swiss", players, 4), move_time=120.0, start=0.0)
        for i, name in enumerate(names):
            kept.enter(made.id, ids[name], name, rating=60.0 - i)
        host.tournaments.tick(time.time())
        seen |= await _play_round(host, port, 1, made.id, proof)
        await _until(lambda: _opened(host, made.id, 2), "round 2 open")
        assert kept.withdraw(made.id, ids["fay"])  # before round 2 ends: out of round 3
        seen |= await _play_round(host, port, 2, made.id, proof)
        await _until(lambda: _opened(host, made.id, 3), "round 3 open")
        await _play_some(host, port, 3, made.id, proof)
    async with running_host(tmp_path, database=store) as (host, port):  # restart in round 3
        kept = host.tournaments.store
        assert kept is not None
        seen |= await _play_round(host, port, 3, made.id, proof)
        await _until(lambda: _opened(host, made.id, 4), "round 4 open")
        seen |= await _play_round(host, port, 4, made.id, proof)
        await _until(
            lambda: (t := kept.get(made.id)) is not None and t.state == "finished",
            "the tournament finished",
        )
        rounds, entrants = kept.rounds(made.id), kept.entrants(made.id)
        by_key = kept.names(made.id)
    assert len(rounds) == 4 and all(r.over for r in rounds)
    # In the test's own data: who sat where, the byes, the points.
    for rnd in rounds:
        seated = sorted(by_key[k] for t in rnd.tables for k in t.seats) + sorted(
            by_key[k] for k in rnd.byes
        )
        playing = names if rnd.number <= 2 else names[:5]
        assert sorted(seated) == sorted(playing)
    byes = [by_key[k] for r in rounds for k in r.byes]
    if players == 2:
        assert not rounds[0].byes and not rounds[1].byes
        assert len(byes) == 2 and len(set(byes)) == 2 and "fay" not in byes
    else:  # six at three: two tables; five: one table of three, two byes
        assert not rounds[0].byes and not rounds[1].byes
        assert len(byes) == 4 and len(set(byes)) == 4, "nobody a second bye while one had none"
    if players == 2:  # six players, four rounds, two a table: no repeat is needed
        pairs = [frozenset(t.seats) for r in rounds for t in r.tables]
        assert len(pairs) == len(set(pairs))
    top = {2: [6.0, 0.0], 3: [6.0, 3.0, 0.0]}[players]
    by_hand: dict[str, float] = dict.fromkeys(names, 0.0)
    for rnd in rounds:
        for key in rnd.byes:
            by_hand[by_key[key]] += 3.0
        for table in rnd.tables:
            got = [seen[f"{by_key[k]}@{rnd.number}"] for k in table.seats]
            assert table.places == tuple(got), "the stored places are the games'"
            for key, place in zip(table.seats, got, strict=True):
                level = got.count(place)
                by_hand[by_key[key]] += sum(top[place - 1 : place - 1 + level]) / level
    rows = standings([e.key for e in entrants], rounds, players)
    assert {by_key[r.key]: r.points for r in rows} == by_hand
    # Buchholz by hand: over one's tables, the others' final points (their mean at
    # three a table); a bye adds nothing. The order: points, then the tie-breaks.
    buchholz: dict[str, float] = dict.fromkeys(names, 0.0)
    for rnd in rounds:
        for table in rnd.tables:
            for key in table.seats:
                others = [by_hand[by_key[k]] for k in table.seats if k != key]
                buchholz[by_key[key]] += sum(others) / len(others)
    assert {by_key[r.key]: r.buchholz for r in rows} == pytest.approx(buchholz)
    order = [by_key[r.key] for r in rows]
    assert [by_hand[n] for n in order] == sorted(by_hand.values(), reverse=True)
    # The operator's view of it: the same standings, and fay marked withdrawn.
    monkeypatch.delenv("PARIS_TUI_DATABASE", raising=False)
    capsys.readouterr()
    where = ["--data-dir", str(tmp_path)]
    if store is not None:
        where = ["--database", store]
    assert main(["host", "tournament", "standings", "six", "--json", *where]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["state"] == "finished" and len(shown["rounds"]) == 4
    assert {r["name"]: r["points"] for r in shown["standings"]} == by_hand
    assert [r["name"] for r in shown["standings"] if r["withdrawn"]] == ["fay"]
    assert main(["host", "tournament", "standings", "six", *where]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Six: 4 rounds paired" and len(lines) == 7
    assert lines[1].startswith("  1. ") and " points (" in lines[1]


@contextlib.asynccontextmanager
async def _two_hosts(
    tmp_path: Path, postgres: PostgresServer, heard: list[tuple[int, RoundOpened]] | None = None
) -> AsyncIterator[tuple[Host, Host]]:
    """Hosts a and b on one new database, started; each round they tell is kept in
    ``heard`` with the host's index (0 for a)."""
    database = postgres.dsn(postgres.create_database())
    hosts: list[Host] = []
    try:
        for i, folder in enumerate(("a", "b")):
            host = Host(HostConfig(data_dir=tmp_path / folder, port=0, database=database))
            host.load()
            await host.start()
            hosts.append(host)

            def hear(event: TableEvent, i: int = i) -> None:
                if heard is not None and isinstance(event, RoundOpened):
                    heard.append((i, event))

            host.events.subscribe(hear)
        yield hosts[0], hosts[1]
    finally:
        for host in hosts:
            await host.close()


def _entered(host: Host, name: str, move_time: float, names: Sequence[str]) -> Tournament:
    """A Swiss tournament of three rounds, two a table, started, with ``names`` entered
    (their accounts made), the first the best rated."""
    accounts, kept = host.accounts, host.tournaments.store
    assert accounts is not None and kept is not None
    made = kept.create(name, Plan("swiss", 2, 3), move_time=move_time, start=0.0)
    for i, entrant in enumerate(names):
        invite(accounts, entrant)
        found = accounts.find(entrant)
        assert found is not None
        kept.enter(made.id, found.id, entrant, rating=10.0 - i)
    return made


async def test_two_hosts_of_one_database_open_each_table_once(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """Two hosts on one database look at a turn-based tournament one after the other (no
    name lock across hosts for turn-based tables): the round is paired once and each
    table opened by one of them. (The claim that keeps two hosts opening one table at
    the same moment is tested on the store: test_tournament_store.py.)"""
    async with _two_hosts(tmp_path, postgres) as (a, b):
        kept = a.tournaments.store
        assert kept is not None and b.tournaments.store is not None
        made = _entered(a, "Slow", 86400.0, NAMES[:4])
        due_a = a.tournaments.pair(time.time())
        due_b = b.tournaments.pair(time.time())
        assert [d.number for d in due_a] == [d.number for d in due_b] == [1], "paired once"
        a.tournaments.open_due(due_a)
        b.tournaments.open_due(due_b)
        opened = [r.id for h in (a, b) for r in h.rooms.values()]
        assert len(opened) == 2 == len(set(opened))
        assert not kept.unopened(made.id, 1)
        assert kept.claim_table(made.id, 1, 1, "ghost") is False, "open tables are not claimed"


async def test_a_knockout_of_four_plays_its_semifinals_and_final_at_the_host(
    tmp_path: Path,
) -> None:
    proof: dict[str, dict[str, str]] = {}
    seen: dict[str, int] = {}
    async with running_host(tmp_path) as (host, port):
        accounts, kept = host.accounts, host.tournaments.store
        assert accounts is not None and kept is not None
        made = kept.create("KO", Plan("knockout", 2, 0), move_time=120.0, start=0.0)
        for i, name in enumerate(NAMES[:4]):
            proof[name] = {"code": invite(accounts, name).replace("-", "")}
            found = accounts.find(name)
            assert found is not None
            kept.enter(made.id, found.id, name, rating=40.0 - i)
        host.tournaments.tick(time.time())
        by_key = kept.names(made.id)
        semis = kept.rounds(made.id)[0]
        assert [sorted(by_key[k] for k in t.seats) for t in semis.tables] == [
            ["ann", "dan"],
            ["bob", "cat"],
        ], "seeded: the best against the worst"
        seen |= await _play_round(host, port, 1, made.id, proof)
        await _until(lambda: _opened(host, made.id, 2), "the final open")
        final = kept.rounds(made.id)[1]
        finalists = {by_key[k] for k in final.tables[0].seats}
        winners = {n.split("@")[0] for n, p in seen.items() if p == 1}
        assert finalists == winners or len(winners) > 2  # a shared first: the better seed
        seen |= await _play_round(host, port, 2, made.id, proof)
        await _until(
            lambda: (t := kept.get(made.id)) is not None and t.state == "finished",
            "the tournament finished",
        )
        rounds, entrants = kept.rounds(made.id), kept.entrants(made.id)
    rows = standings([e.key for e in entrants], rounds, 2, knockout=True)
    top = [by_key[r.key] for r in rows[:2]]
    assert set(top) == finalists
    assert seen[f"{top[0]}@2"] <= seen[f"{top[1]}@2"]


async def test_two_hosts_pairing_at_the_same_moment_write_one_round_and_open_each_table_once(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """Two hosts of one database look at a real-time tournament at the same moment, again
    and again (each pairing in a thread of its own, at once): one of them holds the
    tournament's lease, so one round is written, each of its tables opened once, and
    one host tells the round opened (its notify command); the other tells its own
    lobbies."""
    heard: list[tuple[int, RoundOpened]] = []
    async with _two_hosts(tmp_path, postgres, heard) as (a, b):
        kept = a.tournaments.store
        assert kept is not None
        made = _entered(a, "Fast", 120.0, (*NAMES, "fay"))
        now = time.time()
        for _ in range(3):
            await asyncio.gather(a.tournaments.step(now), b.tournaments.step(now))
        rounds = kept.rounds(made.id)
        opened = [r.id for h in (a, b) for r in h.rooms.values()]
        told = [t for _i, event in heard if event.notify for t, _names in event.tables]
        by_whom = {i for i, event in heard if event.notify}
        echoed = [t for _i, event in heard if not event.notify for t, _names in event.tables]
        assert not kept.unopened(made.id, 1)
    assert len(rounds) == 1 and len(rounds[0].tables) == 3, "one round written"
    assert len(opened) == 3 == len(set(opened)), "each table opened once"
    assert sorted(told) == sorted(opened) and len(by_whom) == 1, "told once, by one host"
    assert sorted(echoed) == sorted(opened), "the other host's lobbies hear it once"


async def test_the_lobbies_of_a_host_that_did_not_open_the_round_hear_it_too(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """Two hosts of one database: the one holding the tournament's lease opens round 1's
    tables and tells them (its notify command runs for them); the other host's next look
    tells its own lobbies where each paired account sits, once, without running the
    notify command a second time."""
    heard: list[tuple[int, RoundOpened]] = []
    async with _two_hosts(tmp_path, postgres, heard) as (a, b):
        kept = a.tournaments.store
        assert kept is not None
        made = _entered(a, "Fast", 120.0, NAMES[:4])
        now = time.time()
        await a.tournaments.step(now)  # a takes the lease, pairs, opens, tells
        for _ in range(2):
            await b.tournaments.step(now)
            await a.tournaments.step(now)
        opened = {r.id for r in a.rooms.values()}
        keys = kept.names(made.id)
        paired = {
            table_id: tuple(keys[k] for k in kept.rounds(made.id)[0].tables[no - 1].seats)
            for (_round, no), table_id in kept.table_ids(made.id).items()
        }
    assert len(opened) == 2 and not b.rooms, "a opened both tables"
    by_host = {i: [e for j, e in heard if j == i] for i in (0, 1)}
    for i in (0, 1):
        told = {t: names for e in by_host[i] for t, names in e.tables}
        assert told == paired, f"host {'ab'[i]} told every table once, with its seats"
        assert sum(len(e.tables) for e in by_host[i]) == 2, "each table told once a host"
        assert all(e.number == 1 and e.name == "Fast" for e in by_host[i])
    assert all(e.notify for e in by_host[0]), "the opening host runs the notify command"
    assert not any(e.notify for e in by_host[1]), "the other host does not run it again"


@pytest.mark.parametrize("move_time", [120.0, 86400.0], ids=["real-time", "turn-based"])
async def test_a_host_that_stalls_past_its_lease_while_opening_a_table_leaves_it_to_the_other(
    tmp_path: Path, postgres: PostgresServer, move_time: float
) -> None:
    """Host a pairs round 1 and opens its first table; while it does, it stalls past its
    lease and its claim (they are made to run out here), and host b takes the
    tournament over: at a turn-based table (no name lock across hosts) b opens that
    table at once; at a real-time one its first try meets the names still seated at a's
    table. Host a's record of its table is refused (its lease's epoch is old): its table
    is archived unplayed (its names free), and the round's table is played at b's table
    only (b's next look opens it if it could not yet)."""
    async with _two_hosts(tmp_path, postgres) as (a, b):
        kept = a.tournaments.store
        assert kept is not None
        made = _entered(a, "Stall", move_time, NAMES[:2])
        opening = a.open_table
        stalled: list[str] = []

        def open_then_stall(*args: object, **kwargs: object) -> object:
            room = opening(*args, **kwargs)  # type: ignore[arg-type]
            stalled.append(room.id)
            with kept._tx() as db:  # the stall: a's lease and claim run out ...
                db.execute("UPDATE tournament_leases SET until = now() - interval '1 second'")
                db.execute("UPDATE tournament_tables SET claim_until = 0")
            b.tournaments.tick(time.time())  # ... and b takes the tournament over
            return room

        a.open_table = open_then_stall  # type: ignore[method-assign]
        a.tournaments.tick(time.time())
        assert len(b.rooms) == (1 if move_time > 3600 else 0), "b's first try"
        b.tournaments.tick(time.time())  # b's next look: a's table archived, b opens it
        recorded = kept.rounds(made.id)[0]
        where = kept._read(
            "SELECT table_id FROM tournament_tables WHERE tournament = ?", (made.id,)
        )
        assert len(stalled) == 1 and stalled[0] not in a.rooms, "a dropped its table"
        assert [r.id for r in b.rooms.values()] == [where[0][0]], "b's table plays it"
        from paris_tui.host.store.postgres import PostgresStore

        assert isinstance(a.tables, PostgresStore) and a.tables.is_archived(stalled[0])
    assert len(recorded.tables) == 1
