"""An agreed abort (protocol 5, ``agree abort``): one player proposes, every other
human player agrees, and the game ends there: no winner, unrated for everyone
(reason ``aborted``), the record says so (``"aborted": true`` in its ``app``
metadata) and still replays; one still to agree, or one who declines, and the
game goes on. An older client's ``agree`` is an unknown message."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import psycopg

from paris_tui.net.client import HostClient
from paris_tui.net.games_wire import Games, ListGames
from paris_tui.net.protocol import Agree, Agreement, HostMessage, Refused

from . import helpers
from .helpers import TIMEOUT, RawClient, join_bot, running_host, saved, stored_record_file

MAX_STEPS = 400


async def _next(client: HostClient, kind: type) -> HostMessage:
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, kind):
            return message
    raise AssertionError(f"no {kind.__name__} came")


def _lose_the_count(data_dir: Path, table_id: str) -> None:
    """The ratings forget the table's game, as when the host died between its end
    and its count: ratings.sqlite gone, or its rows out of the database."""
    if helpers.DATABASE is None:
        files = list(data_dir.rglob("ratings.sqlite*"))
        assert files
        for kept in files:
            kept.unlink()
        return
    with psycopg.connect(helpers.DATABASE, autocommit=True) as conn:
        gone = conn.execute("DELETE FROM rating_games WHERE table_id = %s", (table_id,))
        assert gone.rowcount == 1
        conn.execute("DELETE FROM rating_marks WHERE table_id = %s", (table_id,))


async def test_an_abort_every_player_agrees_to_ends_the_game_unrated(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        watcher = await HostClient.connect("127.0.0.1", port)
        await watcher.watch("t1")
        room = host.rooms["t1"]
        try:
            ann.client.send(Agree("abort"))
            for client in (ann.client, bob.client, watcher):
                heard = await _next(client, Agreement)
                assert heard == Agreement("t1", "abort", (0,), None)
            # A watcher cannot vote.
            watcher.send(Agree("abort"))
            refused = await _next(watcher, Refused)
            assert isinstance(refused, Refused) and refused.code == "not_seated"
            # One still to agree: the game goes on, a move is still taken.
            assert not room.referee.is_over and "aborted" not in saved(host, "t1").extra["app"]
            bob.client.send(Agree("abort"))
            for client in (ann.client, bob.client, watcher):  # the watcher hears it too
                heard = await _next(client, Agreement)
                assert heard == Agreement("t1", "abort", (0, 1), "t1")
            assert room.referee.is_over and room.referee.to_move is None
            record = saved(host, "t1")
            assert record.extra["app"]["aborted"] is True  # the record says so
            # No move is taken after it, and there is nothing left to abort.
            ann.client.play(room.referee.view(0).legal_moves[0], room.referee.move_count)
            refused = await _next(ann.client, Refused)
            assert isinstance(refused, Refused) and refused.code == "game_over"
            for _ in range(MAX_STEPS):
                if room.result is not None:
                    break
                await asyncio.sleep(0.01)
            assert room.result is not None
            assert not room.result.rated and room.result.reason == "aborted"
            assert room.result.ranks == (1, 1) and room.result.leavers == ()
            # A client older than the agreed endings knows no reason "aborted": it is
            # told no rating rather than one it cannot read.
            assert room.result_for(4) is None and room.result_for(5) == room.result
            # The finished list says it was aborted: no places (nobody won), unrated.
            ann.client.send(ListGames())
            games = await _next(ann.client, Games)
            assert isinstance(games, Games)
            (game,) = [g for g in games.games if g.table == "t1"]
            assert game.aborted and not game.rated and game.places == ()
            # The lobby's tables say so too.
            (info,) = [i for i in await ann.client.tables() if i.table == "t1"]
            assert info.finished and info.aborted
            # Who comes to the table later, to watch or to sit again, hears it at once.
            late = await HostClient.connect("127.0.0.1", port)
            try:
                await late.watch("t1")
                assert await _next(late, Agreement) == Agreement("t1", "abort", (0, 1), "t1")
            finally:
                await late.close()
        finally:
            await ann.client.close()
            await bob.client.close()
            await watcher.close()
    # A restarted host keeps the game over (aborted): a count the ratings lost (the
    # host died before it) is made again at the start, and the finished list says so.
    _lose_the_count(tmp_path, "t1")
    async with running_host(tmp_path) as (again, port):
        client = await HostClient.connect("127.0.0.1", port)
        try:
            (game,) = [g for g in await client.games() if g.table == "t1"]
            assert game.aborted and not game.rated and game.places == ()
            if helpers.DATABASE is None:
                # The files' store serves its latest finished tables again (in the
                # lobby; with --database a finished table is read when asked for, and
                # served by no host after a restart): who comes to watch hears at once
                # that it was aborted, and no move is taken there.
                await client.watch("t1")
                assert await _next(client, Agreement) == Agreement("t1", "abort", (0, 1), "t1")
                referee = again.rooms["t1"].referee
                assert referee.aborted and referee.is_over and referee.to_move is None
        finally:
            await client.close()
    path = stored_record_file(tmp_path, "t1")
    # The record replays, by the contract's command.
    out = subprocess.run(
        [sys.executable, "-m", "paris_tui", "replay", "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)


async def test_a_declined_abort_is_gone_and_the_game_goes_on(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        room = host.rooms["t1"]
        try:
            ann.client.send(Agree("abort"))
            for bot in (ann, bob):
                heard = await _next(bot.client, Agreement)
                assert heard == Agreement("t1", "abort", (0,), None)
            bob.client.send(Agree("abort", False))
            assert await _next(ann.client, Agreement) == Agreement("t1", "abort", (), None)
            # Ann's word went with the declined proposal: Bob's yes alone is a new one.
            bob.client.send(Agree("abort"))
            assert await _next(ann.client, Agreement) == Agreement("t1", "abort", (1,), None)
            assert not room.referee.is_over
            await asyncio.gather(ann.play_to_end(), bob.play_to_end())
            assert room.referee.view(None).outcome is not None
            assert "aborted" not in saved(host, "t1").extra["app"]
            ann.client.send(Agree("abort"))
            refused = await _next(ann.client, Refused)
            assert isinstance(refused, Refused) and refused.code == "game_over"
        finally:
            await ann.client.close()
            await bob.client.close()


async def test_an_older_clients_agree_abort_is_an_unknown_message(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        old = await RawClient.open(port)
        try:
            old.send(b'{"type":"hello","protocol":4,"client":"old"}\n')
            assert b'"welcome"' in await old.line()
            old.send(b'{"type":"agree","what":"abort"}\n')
            said = await old.line()
            assert b'"bad_message"' in said and b"agree" in said
        finally:
            old.close()


async def test_an_aborted_game_stays_over_in_either_store(
    tmp_path: Path, store: str | None
) -> None:
    async with running_host(tmp_path, ["ann,bob"], database=store) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        try:
            ann.client.send(Agree("abort"))
            bob.client.send(Agree("abort"))
            for _ in range(MAX_STEPS):
                heard = await _next(ann.client, Agreement)
                if isinstance(heard, Agreement) and heard.to is not None:
                    break
            assert host.rooms["t1"].referee.is_over
        finally:
            await ann.client.close()
            await bob.client.close()
    if store is not None:  # the database counts it finished (no host serves it on)
        from paris_tui.host.store.postgres import PostgresStore

        tables = PostgresStore(store)
        tables.open()
        try:
            running, _problems = tables.load_tables(unfinished=True)
            assert "t1" not in [t for t, _ in running]
        finally:
            tables.close()
    async with running_host(tmp_path, database=store) as (again, _port):
        # Never served as a running game: kept as a finished one, or left to replay.
        for room in again.unfinished():
            assert room.id != "t1"
