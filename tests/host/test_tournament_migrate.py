"""``host migrate`` copies a data folder's tournaments into PostgreSQL, mid-round.

A Swiss of four, two a table, two rounds, at a host on a data folder: round 1
played (bob absent at his table: the AI played his seat), round 2 paired and
opened. The folder is moved into a database with ``paris-tui host migrate``; a
host on the database plays round 2 to the end, and the tournament finishes with
every round, result, absence and id as they were.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from pg import PostgresServer

from paris_tui.cli import main
from paris_tui.host.accounts.command import invite
from paris_tui.host.services.tournaments import REAL_TIME_GRACE
from paris_tui.host.tournaments.engine import Plan

from .helpers import Bot, join_bot, random_player, running_host

NAMES = ("ann", "bob", "cat", "dan")


async def _until(check: object, what: str) -> None:
    for _ in range(400):
        if callable(check) and check():
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"never: {what}")


async def _join(port: int, names: list[str], proof: dict[str, dict[str, str]]) -> list[Bot]:
    bots: list[Bot] = []
    for i, name in enumerate(names):
        bot = await join_bot(port, name, random_player(i + 3), **proof[name])
        if bot.seated.token:
            proof[name] = {"token": bot.seated.token}
        bots.append(bot)
    return bots


async def _play(bots: list[Bot]) -> None:
    try:
        await asyncio.gather(*(b.play_to_end() for b in bots))
    finally:
        for bot in bots:
            await bot.client.close()


async def test_host_migrate_copies_the_tournaments_and_the_next_host_plays_them_on(
    tmp_path: Path, postgres: PostgresServer, capsys: object
) -> None:
    database = postgres.dsn(postgres.create_database())
    data = tmp_path / "data"
    proof: dict[str, dict[str, str]] = {}
    async with running_host(data, database=None) as (host, port):
        accounts, kept = host.accounts, host.tournaments.store
        assert accounts is not None and kept is not None
        ids: dict[str, int] = {}
        for name in NAMES:
            proof[name] = {"code": invite(accounts, name).replace("-", "")}
            found = accounts.find(name)
            assert found is not None
            ids[name] = found.id
        made = kept.create("Moved", Plan("swiss", 2, 2), move_time=120.0, start=0.0, rated=True)
        for i, name in enumerate(NAMES):
            kept.enter(made.id, ids[name], name, rating=40.0 - i)
        host.tournaments.tick(time.time())
        key_of = {n: str(ids[n]) for n in NAMES}
        name_of = {k: n for n, k in key_of.items()}
        first = kept.rounds(made.id)[0]
        came = [name_of[k] for t in first.tables for k in t.seats if name_of[k] != "bob"]
        bots = await _join(port, came, proof)
        host.tournaments.tick(time.time() + REAL_TIME_GRACE + 1)  # bob never came
        await _play(bots)
        await _until(lambda: len(kept.rounds(made.id)) == 2, "round 2 paired")
        await _until(lambda: not kept.unopened(made.id, 2), "round 2 opened")
        before = (kept.get(made.id), kept.entrants(made.id), kept.rounds(made.id))
        absences = kept.absences(made.id)
        tables_before = {
            t: kept.table_of(t)
            for t in (r.id for r in host.rooms.values())
            if kept.table_of(t) is not None
        }
    assert absences == {1: [key_of["bob"]]}
    capsys.readouterr()  # type: ignore[attr-defined]
    assert main(["host", "migrate", "--from", str(data), "--to", database]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "(and 1 tournament)" in out, out
    async with running_host(tmp_path / "other", database=database) as (host, port):
        kept = host.tournaments.store
        assert kept is not None
        assert (kept.get(made.id), kept.entrants(made.id), kept.rounds(made.id)) == before
        assert kept.absences(made.id) == absences
        assert {t: kept.table_of(t) for t in tables_before} == tables_before
        second = kept.rounds(made.id)[1]
        await _play(await _join(port, [name_of[k] for t in second.tables for k in t.seats], proof))
        await _until(
            lambda: (t := kept.get(made.id)) is not None and t.state == "finished", "finished"
        )
        assert all(r.over for r in kept.rounds(made.id))
        fresh = kept.create("Next", Plan("swiss", 2, 1), move_time=120.0, start=1e10)
        assert fresh.id > made.id, "ids go on after those moved in"
