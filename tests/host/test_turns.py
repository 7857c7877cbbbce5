"""Timed tables (issue 22): move clocks, turn-based tables, the notify command, the cap.

Every clock here is the test's own (:class:`FakeClock`, ``HostConfig.clock``):
a turn-based table is played over days of simulated time without sleeping,
and :meth:`~paris_tui.host.services.turns.TurnKeeper.expire_due` is what the host's
timers call when a move time has run out.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import CORPUS, REFUSED, SHOWN
from pg import PostgresServer

from paris_tui.host.accounts.postgres import PostgresAccounts
from paris_tui.host.accounts.store import open_accounts
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig, Limits, Room
from paris_tui.host.services.turns import AccountsTurnStore, Notifier, Turn
from paris_tui.host.store.postgres import PostgresStore
from paris_tui.net.client import HostClient, RefusedError
from paris_tui.net.endings_wire import Agree, Agreement
from paris_tui.net.protocol import HostMessage, Presence, Seated, Update
from paris_tui.net.turns import waiting_for

from . import helpers
from .helpers import TIMEOUT, join_bot

DAY = 86400.0
HOUR = 3600.0
T0 = 1_800_000_000.0


class FakeClock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def notify_script(tmp_path: Path) -> tuple[str, Path]:
    """A notify command that appends its arguments (after its own) as JSON to a file."""
    out = tmp_path / "notified.jsonl"
    script = tmp_path / "notify.py"
    script.write_text(
        "import json, sys\n"
        "with open(sys.argv[1], 'a', encoding='utf-8') as f:\n"
        "    f.write(json.dumps(sys.argv[2:]) + '\\n')\n",
        encoding="utf-8",
    )
    # Paths with a space stay one word each (shlex quoting), as an operator writes them.
    import shlex

    return (
        f"{shlex.quote(sys.executable)} -I -S {shlex.quote(str(script))} {shlex.quote(str(out))}",
        out,
    )


def notified(out: Path) -> list[list[str]]:
    if not out.exists():
        return []
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


@asynccontextmanager
async def timed_host(
    data_dir: Path,
    clock: FakeClock,
    *,
    database: str | None = None,
    notify: str | None = None,
    limits: Limits | None = None,
    ai_takeover: float | None = None,
    tables: tuple[tuple[str, float], ...] = (),
) -> AsyncIterator[tuple[Host, int]]:
    host = Host(
        HostConfig(
            data_dir=data_dir,
            port=0,
            ai_delay=0.0,
            ai_takeover=ai_takeover,
            limits=limits or Limits(),
            database=database or helpers.DATABASE,  # --host-store postgres: the database
            clock=clock,
            notify_command=notify,
        )
    )
    host.load()
    for i, (seats, move_time) in enumerate(tables):
        host.open_table(parse_seats(seats), seed=7 + i, move_time=move_time)
    _, port = await host.start()
    try:
        yield host, port
    finally:
        await host.turns.notifier.drain()
        await host.close()


async def until(check: Callable[[], bool], what: str) -> None:
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def read_until(client: HostClient, check: Callable[[HostMessage], bool]) -> HostMessage:
    for _ in range(200):
        message = await client.receive(TIMEOUT)
        if check(message):
            return message
    raise AssertionError("the message never came")


async def play_first(client: HostClient, room: Room, seat: int) -> None:
    """``seat`` (connected as ``client``) makes its first legal move."""
    ref = room.referee
    assert ref.to_move == seat
    count = ref.move_count
    client.play(ref.view(seat).legal_moves[0], count)
    await read_until(client, lambda m: isinstance(m, Update) and len(m.view.moves) > count)


async def test_a_turn_based_table_waits_over_days_for_players_who_come_and_go(
    tmp_path: Path, store: str | None
) -> None:
    clock = FakeClock()
    command, out = notify_script(tmp_path)
    config: dict[str, Any] = {"database": store, "notify": command, "ai_takeover": 0.0}
    async with timed_host(tmp_path, clock, tables=(("ann,bob", DAY),), **config) as (host, port):
        room = host.rooms["t1"]
        ann = await HostClient.connect("127.0.0.1", port)
        bob = await HostClient.connect("127.0.0.1", port)
        seated_ann = await ann.join("ann")
        seated_bob = await bob.join("bob")
        assert isinstance(seated_ann, Seated) and isinstance(seated_bob, Seated)
        assert room.referee.to_move == 0
        await play_first(ann, room, 0)
        turn = host.turns.turn("t1")
        assert turn is not None and (turn.seat, turn.move_no, turn.since) == (1, 1, T0)
        # Bob goes while it is his move: the table waits (no takeover, even with
        # --ai-takeover 0), and the operator's command hears it is his turn.
        await bob.close()
        await until(lambda: 1 not in room.seated, "bob gone")
        await asyncio.sleep(0.05)  # a takeover timer of 0 s would have fired by now
        assert room.status(1) == "away"
        await host.turns.notifier.drain()
        # (Ann was told first: the table opened with nobody there, her move.)
        assert notified(out) == [["ann", "t1", "your-turn"], ["bob", "t1", "your-turn"]]
        # Five hours on: still his move, the lobby says since when.
        clock.advance(5 * HOUR)
        assert await host.turns.expire_due() == []
        infos = await ann.tables()
        (info,) = [t for t in infos if t.table == "t1"]
        assert (info.move_time, info.to_move, info.waited) == (DAY, 1, 5 * HOUR)
        assert [t.table for t in waiting_for(infos, "bob")] == ["t1"]
        assert waiting_for(infos, "ann") == []
        # A day on, his move time is out: the AI plays that one move for him, and says so.
        clock.advance(DAY)
        assert await host.turns.expire_due() == ["t1"]
        assert room.referee.move_count == 2
        presence = await read_until(
            ann,
            lambda m: isinstance(m, Presence) and m.clock is not None and m.clock.timed_out == 1,
        )
        assert isinstance(presence, Presence) and presence.clock is not None
        after = room.referee.to_move  # (R3: not always the other seat)
        assert after is not None
        assert (presence.clock.timed_out_move, presence.clock.seat) == (1, after)
        assert room.referee.players[1].kind == "human"  # his seat is still his
        # Ann goes too (told, if the table now waits for her), and the host stops.
        await ann.close()
        await until(lambda: 0 not in room.seated, "ann gone")
    names = ("ann", "bob")
    moved_at = T0 + 5 * HOUR + DAY
    # The next host (the same folder or database) goes on with the same clock.
    clock.advance(3 * HOUR)
    async with timed_host(tmp_path, clock, **config) as (again, port):
        turn = again.turns.turn("t1")
        assert turn is not None and (turn.seat, turn.move_no, turn.since) == (after, 2, moved_at)
        assert turn.notified  # told once, not again after the restart
        room = again.rooms["t1"]
        assert again.turns.waited(room) == 3 * HOUR
        player = await HostClient.connect("127.0.0.1", port)
        tokens = (seated_ann.token, seated_bob.token)
        await player.join(names[after], tokens[after])  # no table named: the one waiting for them
        await play_first(player, room, after)
        third = room.referee.to_move
        assert third is not None
        await player.close()
        await until(lambda: after not in room.seated, "gone again")
        await again.turns.notifier.drain()
    assert notified(out) == [
        ["ann", "t1", "your-turn"],
        ["bob", "t1", "your-turn"],
        [names[after], "t1", "your-turn"],
        [names[third], "t1", "your-turn"],
    ]


async def test_a_real_time_move_time_plays_the_ai_and_shows_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    async with timed_host(tmp_path, clock, tables=(("ann,bob", 30.0),)) as (host, port):
        ann = await HostClient.connect("127.0.0.1", port)
        await ann.join("ann")
        presence = await read_until(ann, lambda m: isinstance(m, Presence))
        assert isinstance(presence, Presence) and presence.clock is not None
        assert (presence.clock.move_time, presence.clock.turn_based) == (30.0, False)
        assert (presence.clock.seat, presence.clock.waited) == (0, 0.0)
        clock.advance(29.0)
        assert await host.turns.expire_due() == []
        clock.advance(1.0)
        assert await host.turns.expire_due() == ["t1"]
        update = await read_until(ann, lambda m: isinstance(m, Update))
        assert isinstance(update, Update) and len(update.view.moves) == 1
        told = await read_until(ann, lambda m: isinstance(m, Presence))
        assert isinstance(told, Presence) and told.clock is not None
        assert (told.clock.timed_out, told.clock.timed_out_move, told.clock.seat) == (0, 0, 1)
        # A real-time table still hands an away player's seat to --ai-takeover: not here
        # (none given); bob's clock runs from the AI's move.
        assert host.turns.turn("t1") is not None
        assert host.turns.turn("t1").seat == 1  # type: ignore[union-attr]
        await ann.close()


async def test_the_cap_on_turn_based_tables_per_account(tmp_path: Path) -> None:
    clock = FakeClock()
    limits = Limits(turn_tables_per_account=2, tables_per_owner=1)
    async with timed_host(tmp_path, clock, limits=limits) as (host, port):
        ann = await HostClient.connect("127.0.0.1", port)
        token = None
        for _ in range(2):  # more than tables_per_owner: turn-based ones have their own cap
            seated = await ann.open_table("ann", ("me", "ai:random"), move_time=DAY, token=token)
            assert isinstance(seated, Seated)
            token = seated.token or token
        with pytest.raises(RefusedError) as refused:
            await ann.open_table("ann", ("me", "ai:random"), move_time=2 * DAY, token=token)
        assert refused.value.code == "too_many_tables"
        assert "2 turn-based tables already, 2 at most" in str(refused.value)
        # A real-time table is still hers to open while both wait for her.
        seated = await ann.open_table("ann", ("me", "ai:random"), move_time=60.0, token=token)
        assert isinstance(seated, Seated)
        with pytest.raises(RefusedError) as bad:
            await ann.open_table("ann", ("me", "ai:random"), move_time=1.0, token=token)
        assert bad.value.code == "bad_table"
        await ann.close()
    assert len(host.rooms) == 3


async def test_the_notify_command_gets_each_hostile_name_as_one_argument(tmp_path: Path) -> None:
    command, out = notify_script(tmp_path)
    notifier = Notifier(command, max_running=len(CORPUS))
    # Account names are the name rule's (the shown form); each is one argument, as is.
    names = [case.shown for case in SHOWN if case.shown is not None]
    for name in names:
        assert notifier.notify(name, "t9", "your-turn")
    await notifier.drain()
    got = notified(out)
    assert sorted(map(tuple, got)) == sorted((name, "t9", "your-turn") for name in names)
    # Even text the name rule refuses (no account has it) never breaks the host:
    # at most one line logged for it, and nothing run with a split argument.
    out.unlink()
    for case in REFUSED:
        notifier.notify(case.text, "t9", "your-turn")
    await notifier.drain()
    assert all(len(argv) == 3 for argv in notified(out))


async def test_the_notify_command_is_bounded_and_its_failures_are_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n", encoding="utf-8")
    notifier = Notifier(f"{sys.executable} {slow}", timeout=0.2, max_running=1)
    assert notifier.notify("ann", "t1", "your-turn")
    assert not notifier.notify("bob", "t1", "your-turn")  # one runs already: dropped
    await notifier.drain()
    missing = Notifier(str(tmp_path / "no-such-command"))
    assert missing.notify("ann", "t1", "game-over")
    await missing.drain()
    failing = Notifier(f"{sys.executable} -c 'raise SystemExit(3)'")
    assert failing.notify("ann", "t1", "game-over")
    await failing.drain()
    lines = [r.getMessage() for r in caplog.records if r.name == "paris_tui.host.services.turns"]
    assert any("killed after" in line for line in lines)
    assert any("already running" in line for line in lines)
    assert any("exited with 3" in line for line in lines)
    assert any("notify command failed" in line for line in lines)
    assert all("\n" not in line for line in lines)
    assert not Notifier(None).notify("ann", "t1", "your-turn")


async def test_a_turn_clock_goes_on_at_the_host_that_takes_the_table_over(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """With --database, a dead host's turn-based table keeps its clock at the next host."""
    database = postgres.dsn(postgres.create_database())
    clock = FakeClock()

    def config(folder: str) -> HostConfig:
        return HostConfig(
            data_dir=tmp_path / folder,
            port=0,
            ai_delay=0.0,
            database=database,
            lease_seconds=1.0,
            clock=clock,
        )

    b = Host(config("b"))
    b.load()
    await b.start()
    try:
        a = Host(config("a"))
        a.load()
        a.open_table(parse_seats("ann,bob"), seed=3, move_time=DAY)
        await a.start()
        began = a.turns.turn("t1")
        assert began is not None and began.since == T0
        clock.advance(20 * HOUR)
        # Host a "dies": its lease is not given back (as test_cluster's).
        assert a.cluster is not None
        await a.cluster.stop(release=False)
        for room in a.rooms.values():
            room.stop()
        a.rooms.clear()
        await a.close()
        await until(lambda: "t1" in b.rooms, "host b takes t1")  # (within ~3 leases)
        room = b.rooms["t1"]
        assert b.turns.turn("t1") == began  # the same turn, since the same moment
        assert b.turns.waited(room) == 20 * HOUR
        clock.advance(4 * HOUR)
        assert await b.turns.expire_due() == ["t1"]
        assert room.referee.move_count == 1
    finally:
        await b.close()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--table", "ann,bob", "--move-time", "soon"], "--move-time: 'soon' is no move time"),
        (["--table", "ann,bob", "--move-time", "2"], "--move-time: a move time is 5 seconds"),
        (["--move-time", "1d"], "--move-time is for the seats of --table"),
        (["--notify-command", "'unclosed"], "--notify-command: No closing quotation"),
        (["--notify-command", "  "], "--notify-command: no command"),
        (["--max-turn-tables", "0"], "--max-turn-tables"),
    ],
)
def test_the_host_options_of_timed_tables_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    from paris_tui.cli import main

    assert main(["host", "--data-dir", str(tmp_path), "--ssh-port", "off", *args]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "host").exists()


async def test_host_table_move_time_is_kept_in_the_tables_record(tmp_path: Path) -> None:
    from paris_tui.core import Options
    from paris_tui.core.record import load_record
    from paris_tui.doors.command import _run_host

    stop = asyncio.Event()
    stop.set()  # serve, print how to join, and stop at once
    config = HostConfig(data_dir=tmp_path, port=0, ai_delay=0.0)
    status = await _run_host(
        config, [parse_seats("ann,bob")], 1, Options(), stop, move_time=3 * DAY
    )
    assert status == 0
    record = load_record(tmp_path / "host" / "tables" / "t1.json")
    assert record.extra["app"]["move_time"] == 3 * DAY


async def test_a_game_played_out_by_time_outs_ends_and_the_absent_player_hears_once(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    command, out = notify_script(tmp_path)
    tables = (("ann,ai:greedy", DAY),)
    async with timed_host(tmp_path, clock, notify=command, tables=tables) as (host, _port):
        room = host.rooms["t1"]
        notifier = host.turns.notifier
        for _ in range(4000):
            if room.referee.is_over and notifier.running == 0:
                break
            turn = host.turns.turn("t1")
            # Each day runs out once the last notice's command is done: at most 4 run at
            # once, and a fifth is not run (Notifier.max_running). Without the wait the
            # game outran the commands whenever the moves were saved fast (a database).
            if (
                notifier.running == 0
                and turn is not None
                and (turn.seat, turn.move_no) == (0, room.referee.move_count)
            ):
                clock.advance(DAY)
                assert await host.turns.expire_due() == ["t1"]
            else:
                await asyncio.sleep(0.005)  # the AI seat's own move, or the command
        assert room.referee.is_over and notifier.running == 0
        assert room.referee.players[0].kind == "human"  # her seat to the end, not the AI's
        assert host.turns.turn("t1") is None
    said = notified(out)
    assert said[-1] == ["ann", "t1", "game-over"]
    assert said[:-1] and all(line == ["ann", "t1", "your-turn"] for line in said[:-1])
    # A restart tells nobody again of a game that is over.
    async with timed_host(tmp_path, clock, notify=command):
        pass
    assert notified(out) == said


async def test_a_move_time_that_ran_out_while_the_host_was_down_is_played_at_start(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with timed_host(tmp_path, clock, tables=(("ann,bob", 30.0),)) as (host, _port):
        assert host.turns.turn("t1") is not None
    clock.advance(45.0)
    async with timed_host(tmp_path, clock) as (again, _port):
        room = again.rooms["t1"]
        # No expire_due here: the host's own timer finds the time out and plays.
        await until(lambda: room.referee.move_count == 1, "the AI's move for ann")
        assert again.turns.timed_out["t1"] == (0, 0)


async def test_a_join_naming_no_table_sits_where_your_move_has_waited_longest(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    tables = (("cy,ann", DAY), ("ann,bob", DAY))  # t1 waits for cy, t2 for ann
    async with timed_host(tmp_path, clock, tables=tables) as (host, port):
        clock.advance(HOUR)
        host.open_table(parse_seats("ann,dee"), seed=9, move_time=DAY)  # t3: for ann, later
        assert [host.turns.turn(t).seat for t in ("t1", "t2", "t3")] == [0, 0, 0]  # type: ignore[union-attr]
        ann = await HostClient.connect("127.0.0.1", port)
        seated = await ann.join("ann")
        assert seated.table == "t2"
        await ann.close()


async def test_a_move_the_ai_played_on_a_time_out_makes_the_game_unrated(tmp_path: Path) -> None:
    """Issue 22: a game counts when every seat was a person to the end; the AI's move
    on a time-out is the takeover AI's, so the game is not rated (host/ratings/service.py), and
    the player, who has not left, is not ranked as a leaver."""
    clock = FakeClock()
    async with timed_host(tmp_path, clock, tables=(("ann,bob", DAY),)) as (host, _port):
        store = host.ratings.store
        assert store is not None
        clock.advance(DAY)
        assert await host.turns.expire_due() == ["t1"]
        await until(lambda: host.rooms["t1"].referee.move_count == 1, "the AI's move for ann")
        await until(lambda: store.marks("t1") == {0: "returned"}, "the marks")


def kept_clocks(data_dir: Path, database: str | None) -> dict[str, Turn]:
    """The turn clocks the store keeps (read apart from any host): the data
    directory's accounts.sqlite, or ``database``'s ``turn_clocks``."""
    if database is None:
        accounts = open_accounts(data_dir / "host")
        try:
            return AccountsTurnStore(accounts).turns()
        finally:
            accounts.close()
    tables = PostgresStore(database)
    tables.open()
    try:
        return AccountsTurnStore(PostgresAccounts(tables.pool)).turns()
    finally:
        tables.close()


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_timed_game_played_to_its_end_leaves_no_clock_and_no_error(
    tmp_path: Path, store: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    """The last move ends the game and the table's turn clock goes with it, on both
    stores. With --database the game over gives the table's lease back, and a clock's
    row is written only under the lease: the clock must go before the lease does."""
    clock = FakeClock()
    tables = (("ann,ai:greedy", DAY),)
    with caplog.at_level(logging.ERROR, logger="paris_tui"):
        async with timed_host(tmp_path, clock, database=store, tables=tables) as (host, port):
            ann = await join_bot(port, "ann")
            try:
                assert set(kept_clocks(tmp_path, store)) == {"t1"}  # it runs: a clock
                await ann.play_to_end()
                # (the last update is told before the game over is heard)
                await until(lambda: host.turns.turn("t1") is None, "the clock stopped")
            finally:
                await ann.client.close()
    assert kept_clocks(tmp_path, store) == {}
    assert errors(caplog) == []


async def test_an_aborted_timed_game_waits_for_nobody_and_keeps_no_clock(
    tmp_path: Path, store: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    """Every player agreed to abort a turn-based game: it ended with no move, and the
    lobby, the players' presence and the store say it waits for nobody's move."""
    clock = FakeClock()
    tables = (("ann,bob", DAY),)
    with caplog.at_level(logging.ERROR, logger="paris_tui"):
        async with timed_host(tmp_path, clock, database=store, tables=tables) as (host, port):
            ann = await join_bot(port, "ann")
            bob = await join_bot(port, "bob")
            lobby = await HostClient.connect("127.0.0.1", port)
            try:
                (running,) = await lobby.tables()
                assert running.to_move == 0 and running.waited == 0.0
                ann.client.send(Agree("abort"))
                bob.client.send(Agree("abort"))
                # The presence the abort sends comes before the word that it was agreed.
                said: Presence | None = None
                for _ in range(200):
                    message = await ann.client.receive(TIMEOUT)
                    if isinstance(message, Presence):
                        said = message
                    if isinstance(message, Agreement) and message.to == "t1":
                        break
                assert said is not None and said.clock is not None
                assert (said.clock.seat, said.clock.waited) == (None, 0.0)
                clock.advance(2 * DAY)  # the move time runs out: no AI moves at a game over
                assert await host.turns.expire_due() == []
                (info,) = await lobby.tables()
                assert info.finished and info.aborted
                assert (info.to_move, info.waited) == (None, None)
            finally:
                await lobby.close()
                await ann.client.close()
                await bob.client.close()
    assert kept_clocks(tmp_path, store) == {}
    assert errors(caplog) == []


async def test_a_clock_an_older_host_left_at_a_finished_table_goes_at_the_start(
    tmp_path: Path, store: str | None
) -> None:
    """An older version gave a finished game's lease back before it forgot the game's
    turn clock, and its row stayed (with --database): the next host to start drops the
    clocks of the tables it finds finished."""
    clock = FakeClock()
    tables = (("ann,ai:greedy", DAY),)
    async with timed_host(tmp_path, clock, database=store, tables=tables) as (host, port):
        ann = await join_bot(port, "ann")
        try:
            await ann.play_to_end()
            await until(lambda: host.turns.turn("t1") is None, "the clock stopped")
        finally:
            await ann.client.close()
    left = Turn("t1", 0, 39, T0)
    if store is None:
        accounts = open_accounts(tmp_path / "host")
        try:
            AccountsTurnStore(accounts).put_turn(left)
        finally:
            accounts.close()
    else:
        tables_db = PostgresStore(store)
        tables_db.open()
        try:
            AccountsTurnStore(PostgresAccounts(tables_db.pool)).put_turn(left)
        finally:
            tables_db.close()
    assert kept_clocks(tmp_path, store) == {"t1": left}
    async with timed_host(tmp_path, clock, database=store) as (again, _port):
        assert again.turns.turn("t1") is None
    assert kept_clocks(tmp_path, store) == {}
