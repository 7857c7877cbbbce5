"""A tournament round at a real host: who hears of it, who is absent, what is rated.

- the round's tables opened here are published as one ``RoundOpened`` and the
  operator's notify command runs for each paired account (none dropped for the
  command cap), with the table it sits at;
- the absence rule (docs/tournaments.md): an account that has not come when its
  table's grace runs out is marked absent, the AI plays its seat from then on, its
  place counts; absent at two tables in a row, it is withdrawn;
- an unrated tournament's games are unrated, a rated one's rated only between
  accounts that may be rated (one address: not).

Protocol bots over real TCP on loopback; both stores where the store matters.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from paris_tui.cli import main
from paris_tui.host.accounts.command import invite
from paris_tui.host.events import RoundOpened, TableEvent
from paris_tui.host.ratings.store import ranks
from paris_tui.host.server import Host, HostConfig
from paris_tui.host.services.tournaments import REAL_TIME_GRACE, grace
from paris_tui.host.tournaments.engine import Plan
from paris_tui.host.tournaments.standings import standings

from .helpers import Bot, join_bot, random_player, running_host
from .test_turns import notified, notify_script

WAIT_STEPS = 400


async def _until(check: object, what: str) -> None:
    for _ in range(WAIT_STEPS):
        if callable(check) and check():
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"never: {what}")


def _accounts(host: Host, names: tuple[str, ...]) -> tuple[dict[str, int], dict[str, str]]:
    """Each name's account id and link code (invited now)."""
    accounts = host.accounts
    assert accounts is not None
    ids: dict[str, int] = {}
    codes: dict[str, str] = {}
    for name in names:
        codes[name] = invite(accounts, name).replace("-", "")
        found = accounts.find(name)
        assert found is not None
        ids[name] = found.id
    return ids, codes


def test_the_grace_is_a_minute_at_real_time_and_the_move_time_turn_based() -> None:
    assert grace(120.0) == REAL_TIME_GRACE == 60.0
    assert grace(86400.0) == 86400.0
    assert grace(3600.0) == 3600.0  # an hour a move is turn-based
    assert grace(120.0, 5.0) == 5.0


async def test_a_round_opened_is_told_once_and_the_notify_command_runs_for_each_paired_account(
    tmp_path: Path,
) -> None:
    """Seven accounts two a table: three tables and a bye. The six paired accounts are
    more than the notify command's cap (4 at once): none is dropped."""
    command, out = notify_script(tmp_path)
    names = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
    host = Host(HostConfig(data_dir=tmp_path / "data", port=0, notify_command=command))
    host.load()
    await host.start()
    heard: list[RoundOpened] = []

    def hear(event: TableEvent) -> None:
        if isinstance(event, RoundOpened):
            heard.append(event)

    host.events.subscribe(hear)
    try:
        kept = host.tournaments.store
        assert kept is not None
        ids, _codes = _accounts(host, names)
        made = kept.create("Open", Plan("swiss", 2, 3), move_time=120.0, start=0.0)
        for i, name in enumerate(names):
            kept.enter(made.id, ids[name], name, rating=70.0 - i)
        host.tournaments.tick(time.time())
        host.tournaments.tick(time.time())  # nothing new opened: nothing told again
        await _until(lambda: len(notified(out)) >= 6, "six notifications")
        await host.turns.notifier.drain()
    finally:
        await host.close()
    assert len(heard) == 1
    told = heard[0]
    assert (told.tournament_id, told.name, told.number) == (made.id, "Open", 1)
    assert len(told.tables) == 3
    seated = {name: table_id for table_id, at in told.tables for name in at}
    assert len(seated) == 6 and len(set(seated.values())) == 3
    assert all(table_id in host.rooms for table_id in seated.values())
    for table_id, at in told.tables:
        room_names = [p.name for p in host.rooms[table_id].referee.players]
        assert list(at) == room_names, "each table's names in seat order"
    calls = notified(out)
    assert sorted(calls) == sorted([name, table_id, "round"] for name, table_id in seated.items())
    bye = set(names) - set(seated)
    assert len(bye) == 1 and not any(c[0] in bye for c in calls)


async def test_a_round_another_host_opened_is_not_notified_again(tmp_path: Path) -> None:
    """A round told with ``notify`` false (another host of the database opened its tables
    and ran its own notify command) reaches the lobbies only; one told by the opening
    host runs the command for each seated account."""
    command, out = notify_script(tmp_path)
    host = Host(HostConfig(data_dir=tmp_path / "data", port=0, notify_command=command))
    host.load()
    await host.start()
    try:
        host.events.publish(RoundOpened(3, "Cup", 2, (("t7", ("ann", "bob")),), notify=False))
        host.events.publish(RoundOpened(3, "Cup", 2, (("t8", ("cat", "dan")),)))
        await _until(lambda: len(notified(out)) >= 2, "two notifications")
        await host.turns.notifier.drain()
    finally:
        await host.close()
    assert sorted(notified(out)) == [["cat", "t8", "round"], ["dan", "t8", "round"]]


def _reason(host: Host, table_id: str) -> str | None:
    """Why the ratings left the table's game out (``"rated"``: they did not); ``None``
    before it is counted."""
    ratings = host.ratings.store
    assert ratings is not None
    rows = ratings._read("SELECT result FROM rating_games WHERE table_id = ?", (table_id,))
    if not rows:
        return None
    return json.loads(rows[0][0])["reason"] or "rated"


async def _come(port: int, name: str, codes: dict[str, str], proof: dict[str, str]) -> Bot:
    """``name`` joins its seat (its link code the first time, then its token)."""
    join = {"token": proof[name]} if name in proof else {"code": codes[name]}
    bot = await join_bot(port, name, random_player(len(proof) + 7), **join)
    if bot.seated.token:
        proof[name] = bot.seated.token
    return bot


async def _play(bots: list[Bot]) -> None:
    try:
        await asyncio.gather(*(b.play_to_end() for b in bots))
    finally:
        for bot in bots:
            await bot.client.close()


async def test_an_absent_player_is_played_by_the_ai_scores_its_place_and_goes_after_two(
    tmp_path: Path,
    store: str | None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = ("ann", "bob", "cat", "dan")
    proof: dict[str, str] = {}
    async with running_host(tmp_path, database=store) as (host, port):
        kept = host.tournaments.store
        assert kept is not None
        ids, codes = _accounts(host, names)
        made = kept.create("Absent", Plan("swiss", 2, 3), move_time=120.0, start=0.0, rated=True)
        for i, name in enumerate(names):
            kept.enter(made.id, ids[name], name, rating=40.0 - i)
        key_of = {name: str(ids[name]) for name in names}
        name_of = {k: n for n, k in key_of.items()}
        for number in (1, 2):
            if number == 1:
                host.tournaments.tick(time.time())
            else:
                await _until(lambda: len(kept.rounds(made.id)) == 2, "round 2 paired")
            rnd = kept.rounds(made.id)[number - 1]
            tables = [[name_of[k] for k in t.seats] for t in rnd.tables]
            dans = next(t for t in tables if "dan" in t)
            others = next(t for t in tables if "dan" not in t)
            # Everyone comes but dan; within the grace nobody is absent yet.
            bots = [await _come(port, n, codes, proof) for n in others]
            mate = [n for n in dans if n != "dan"]
            dan_bots = [await _come(port, n, codes, proof) for n in mate]
            host.tournaments.tick(time.time() + 30)
            assert kept.absences(made.id).get(number) is None, "not before the grace ends"
            host.tournaments.tick(time.time() + REAL_TIME_GRACE + 1)
            absent = kept.absences(made.id)
            assert [name_of[k] for k in absent[number]] == ["dan"]
            dan_table = next(
                r
                for r in host.rooms.values()
                if r.referee.seat_of("dan") is not None and not r.referee.is_over
            )
            seat = dan_table.referee.seat_of("dan")
            assert seat is not None and seat in dan_table.takeover, "the AI plays dan's seat"
            await _play(bots + dan_bots)
            await _until(
                lambda n=number: len(kept.rounds(made.id)) > n or kept.rounds(made.id)[n - 1].over,
                f"round {number} over",
            )
            # dan's place is the place his seat reached.
            done = kept.rounds(made.id)[number - 1]
            table = next(t for t in done.tables if key_of["dan"] in t.seats)
            outcome = dan_table.referee.view(None).outcome
            assert outcome is not None and table.places is not None
            assert list(table.places) == ranks(outcome.scores, outcome.on_board)
            # ... and the game is unrated (a rated tournament): the AI played his seat.
            await _until(lambda t=dan_table.id: _reason(host, t) is not None, "dan's game counted")
            assert _reason(host, dan_table.id) == "leaver"
        await _until(lambda: len(kept.rounds(made.id)) == 3, "round 3 paired")
        entrants = {name_of[e.key]: e.withdrawn for e in kept.entrants(made.id)}
        rounds = kept.rounds(made.id)
    assert entrants == {"ann": False, "bob": False, "cat": False, "dan": True}, "two in a row"
    # The operator sees it: each round's absent, dan withdrawn.
    monkeypatch.delenv("PARIS_TUI_DATABASE", raising=False)
    capsys.readouterr()
    where = ["--database", store] if store is not None else ["--data-dir", str(tmp_path)]
    assert main(["host", "tournament", "standings", "absent", "--json", *where]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [r["absent"] for r in shown["rounds"]] == [["dan"], ["dan"], []]
    assert [r["name"] for r in shown["standings"] if r["withdrawn"]] == ["dan"]
    third = rounds[2]
    assert key_of["dan"] not in {k for t in third.tables for k in t.seats} | set(third.byes)
    assert len(third.byes) == 1
    # dan's points are his places' (absent, his seat played): in the standings as any.
    rows = {name_of[r.key]: r.points for r in standings(list(key_of.values()), rounds[:2], 2)}
    by_hand = 0.0
    for rnd in rounds[:2]:
        for t in rnd.tables:
            if key_of["dan"] in t.seats:
                assert t.places is not None
                mine = t.places[t.seats.index(key_of["dan"])]
                by_hand += {1: 6.0, 2: 0.0}[mine] if t.places.count(mine) == 1 else 3.0
    assert rows["dan"] == by_hand


async def test_a_player_who_came_is_not_absent_and_one_who_comes_late_takes_the_seat_back(
    tmp_path: Path,
) -> None:
    names = ("ann", "bob")
    proof: dict[str, str] = {}
    async with running_host(tmp_path) as (host, port):
        kept = host.tournaments.store
        assert kept is not None
        ids, codes = _accounts(host, names)
        made = kept.create("Late", Plan("swiss", 2, 1), move_time=120.0, start=0.0)
        for i, name in enumerate(names):
            kept.enter(made.id, ids[name], name, rating=10.0 - i)
        host.tournaments.tick(time.time())
        ann = await _come(port, "ann", codes, proof)
        await ann.client.close()  # came, and went: she was there, not absent
        await asyncio.sleep(0.05)
        host.tournaments.tick(time.time() + REAL_TIME_GRACE + 1)
        assert [k for ks in kept.absences(made.id).values() for k in ks] == [str(ids["bob"])]
        room = next(iter(host.rooms.values()))
        bob_seat = room.referee.seat_of("bob")
        assert bob_seat is not None and bob_seat in room.takeover
        bob = await _come(port, "bob", codes, proof)  # late: his seat is his again
        assert bob_seat not in room.takeover
        ann = await _come(port, "ann", codes, proof)
        await _play([ann, bob])
        await _until(
            lambda: (t := kept.get(made.id)) is not None and t.state == "finished", "finished"
        )
        assert kept.absences(made.id) == {1: [str(ids["bob"])]}, "still marked absent"


@pytest.mark.parametrize(
    ("rated", "addresses", "reason"),
    [
        (True, ("127.0.0.1",), None),
        (False, ("127.0.0.1",), "unrated"),
        (True, (), "same_person"),
    ],
    ids=["rated", "unrated", "rated-one-address"],
)
async def test_a_tournament_game_is_rated_only_in_a_rated_tournament_between_those_who_may_be(
    tmp_path: Path, rated: bool, addresses: tuple[str, ...], reason: str | None
) -> None:
    names = ("ann", "bob")
    proof: dict[str, str] = {}
    async with running_host(tmp_path, rated_addresses=addresses) as (host, port):
        kept, ratings = host.tournaments.store, host.ratings.store
        assert kept is not None and ratings is not None
        ids, codes = _accounts(host, names)
        made = kept.create("R", Plan("swiss", 2, 1), move_time=120.0, start=0.0, rated=rated)
        for i, name in enumerate(names):
            kept.enter(made.id, ids[name], name, rating=10.0 - i)
        host.tournaments.tick(time.time())
        room = next(iter(host.rooms.values()))
        assert room.referee.unrated is (not rated), "the table's flag, in its record"
        bots = [await _come(port, n, codes, proof) for n in names]
        views = await asyncio.gather(*(b.play_to_end() for b in bots))
        await _until(lambda: bool(ratings._read("SELECT 1 FROM rating_games")), "counted")
        await _until(lambda: room.result is not None or reason == "unrated", "told")
        results = [json.loads(r[0]) for r in ratings._read("SELECT result FROM rating_games")]
        moved = ratings.ratings([ids[n] for n in names])
        for bot in bots:
            await bot.client.close()
    assert len(results) == 1
    assert results[0]["rated"] is (reason is None) and results[0]["reason"] == reason
    assert all(v.outcome is not None for v in views)
    if reason is None:
        assert sorted(moved) == sorted(ids.values()), "both ratings moved"
        assert room.result is not None and room.result.rated
    else:
        assert moved == {}, "nobody's rating moved"
    if reason == "unrated":
        assert room.result is None, "no client is told a reason its protocol lacks"


async def test_at_a_turn_based_tournament_the_grace_is_a_move_time_and_survives_a_restart(
    tmp_path: Path, store: str | None
) -> None:
    """Two hours a move: a turn-based table. ann comes, bob does not; the host restarts;
    an hour later nobody is absent yet, past the move time bob is (and only bob: ann's
    seat is hers, kept in the store across the restart)."""
    names = ("ann", "bob")
    proof: dict[str, str] = {}
    move_time = 7200.0
    async with running_host(tmp_path, database=store) as (host, port):
        kept = host.tournaments.store
        assert kept is not None
        ids, codes = _accounts(host, names)
        made = kept.create("Slow", Plan("swiss", 2, 1), move_time=move_time, start=0.0)
        for i, name in enumerate(names):
            kept.enter(made.id, ids[name], name, rating=10.0 - i)
        opened = time.time()
        host.tournaments.tick(opened)
        ann = await _come(port, "ann", codes, proof)
        await ann.client.close()
    async with running_host(tmp_path, database=store) as (host, _port):
        kept = host.tournaments.store
        assert kept is not None
        host.tournaments.tick(opened + 3600)
        assert kept.absences(made.id) == {}, "within the move time"
        host.tournaments.tick(opened + move_time + 1)
        assert kept.absences(made.id) == {1: [str(ids["bob"])]}
        room = next(iter(host.rooms.values()))
        bob_seat = room.referee.seat_of("bob")
        assert bob_seat is not None and bob_seat in room.takeover
        assert room.referee.seat_of("ann") not in room.takeover
