"""Where a look at the tournaments reads the store, and what it reads again.

A look (:meth:`~paris_tui.host.services.tournaments.HostTournaments.step`) reads
the store in ``pair()``'s thread: on the host's loop it only opens tables, tells
the lobbies and writes what goes with that (a table's claim and its record, the
absent). A round already handled (every table opened, told at a host that did not
open them, no absent player left to look for here) is not read again at later
looks: only whether it is still the current round. Two looks at once run one after
the other, so the second sees what the first did.

The store is wrapped in a recorder that notes the thread of each call; real hosts
on loopback, both stores where one host is enough, PostgreSQL for two.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pg import PostgresServer

from paris_tui.host.events import RoundOpened
from paris_tui.host.server import Host
from paris_tui.host.services.tournaments import REAL_TIME_GRACE
from paris_tui.host.tournaments.store import SQLiteTournaments

from .helpers import running_host
from .test_tournament_rounds import NAMES, _entered, _two_hosts

# The store's calls that write (or take a lease): the loop may make the ones that go
# with opening a table and marking the absent. Every other call is a read.
WRITES = frozenset(
    {
        "lease",
        "release",
        "set_state",
        "add_round",
        "claim_table",
        "open_table",
        "mark_absent",
        "finish_table",
        "close",
    }
)
# A look at a round it has handled reads no more than this: which tournaments are
# open or running, and (one small read) whether the round is still the current one.
STILL_CURRENT = frozenset({"tournaments", "current"})


class _Recorder:
    """A tournaments store with each public call noted: (method, thread)."""

    def __init__(self, store: SQLiteTournaments) -> None:
        self.store = store
        self.calls: list[tuple[str, threading.Thread]] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.store, name)
        if name.startswith("_") or not callable(found):
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, threading.current_thread()))
            return found(*args, **kwargs)

        return call

    def reads(self) -> list[str]:
        """The reads made since the last call, on any thread."""
        return [n for n, _t in self._taken()]

    def split(self, loop: threading.Thread) -> tuple[list[str], list[str]]:
        """The reads made since the last call: on ``loop``'s thread, on any other."""
        taken = self._taken()
        return [n for n, t in taken if t is loop], [n for n, t in taken if t is not loop]

    def _taken(self) -> list[tuple[str, threading.Thread]]:
        taken = [(n, t) for n, t in self.calls if n not in WRITES]
        self.calls.clear()
        return taken


def _recorded(host: Host) -> _Recorder:
    """The host's tournaments store, recorded from now on."""
    store = host.tournaments.store
    assert store is not None and not isinstance(store, _Recorder)
    recorder = _Recorder(store)
    host.tournaments.store = recorder  # type: ignore[assignment]
    return recorder


async def _no_timer(host: Host) -> None:
    """Stop the service's own look every 5 s: only the test's looks run."""
    task = host.tournaments._task
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        host.tournaments._task = None


def _heard(host: Host) -> Callable[[], list[RoundOpened]]:
    heard: list[RoundOpened] = []
    host.events.subscribe(lambda e: heard.append(e) if isinstance(e, RoundOpened) else None)
    return lambda: heard


async def test_a_look_at_the_lease_host_reads_the_store_off_the_loop(
    tmp_path: Path, store: str | None
) -> None:
    """Round 1 paired and both its tables opened, a look within the grace, a look after
    it (nobody came: all four absent): every read in pair()'s thread, none on the loop."""
    async with running_host(tmp_path, database=store) as (host, _port):
        await _no_timer(host)
        made = _entered(host, "Cup", 120.0, NAMES[:4])
        recorder = _recorded(host)
        loop = threading.current_thread()
        now = time.time()
        await host.tournaments.step(now)
        assert len(host.rooms) == 2, "round 1's two tables opened"
        await host.tournaments.step(now + 30)
        await host.tournaments.step(now + REAL_TIME_GRACE + 1)
        on_loop, elsewhere = recorder.split(loop)
        absent = recorder.store.absences(made.id)
        host.tournaments.store = recorder.store
    assert len(absent.get(1, [])) == 4, "the absent looked for"
    assert {"rounds", "names", "unopened", "unchecked"} <= set(elsewhere), "read in the thread"
    assert on_loop == [], "no read on the host's loop"


async def test_a_handled_round_is_not_read_again_at_the_lease_host(
    tmp_path: Path, store: str | None
) -> None:
    """Once its tables are opened (and seen so) and no grace has run out, a look only
    asks whether the round is still current: neither its tables nor the names again."""
    async with running_host(tmp_path, database=store) as (host, _port):
        await _no_timer(host)
        made = _entered(host, "Cup", 120.0, NAMES[:4])
        recorder = _recorded(host)
        now = time.time()
        await host.tournaments.step(now)  # paired, opened
        await host.tournaments.step(now + 5)  # seen all opened
        recorder.reads()
        for later in (10, 15, 20):
            await host.tournaments.step(now + later)
        again = recorder.reads()
        await host.tournaments.step(now + REAL_TIME_GRACE + 1)  # the grace: read, marked
        after = recorder.reads()
        absent = recorder.store.absences(made.id)
        host.tournaments.store = recorder.store
    assert set(again) <= STILL_CURRENT, f"read again: {sorted(set(again) - STILL_CURRENT)}"
    assert "unchecked" in after and len(absent.get(1, [])) == 4, "the grace still looked at"


async def test_a_look_at_another_host_reads_off_the_loop_and_a_told_round_not_again(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """Host a holds the lease, pairs round 1 and opens its tables; host b's look tells
    its lobbies of them, reading in pair()'s thread only; b's later looks, every
    table told, read only whether the round is still current."""
    async with _two_hosts(tmp_path, postgres) as (a, b):
        for host in (a, b):
            await _no_timer(host)
        heard = _heard(b)
        made = _entered(a, "Fast", 120.0, NAMES[:4])
        now = time.time()
        await a.tournaments.step(now)
        assert len(a.rooms) == 2 and not b.rooms
        recorder = _recorded(b)
        loop = threading.current_thread()
        await b.tournaments.step(now)
        on_loop, first = recorder.split(loop)
        told = [t for e in heard() for t, _names in e.tables]
        for later in (5, 10, 15):
            await b.tournaments.step(now + later)
        again = recorder.reads()
        opened = set(recorder.store.table_ids(made.id).values())
        b.tournaments.store = recorder.store
    assert sorted(told) == sorted(opened) and not any(e.notify for e in heard())
    assert {"rounds", "names", "table_ids"} <= set(first), "read in the thread"
    assert on_loop == [], "no read on the host's loop"
    assert len(heard()) == 1, "told once"
    assert set(again) <= STILL_CURRENT, f"read again: {sorted(set(again) - STILL_CURRENT)}"


async def test_a_host_without_the_lease_looks_for_the_absent_at_the_tables_it_serves(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """Host b pairs round 1 and opens its tables, then its lease runs out and host a takes
    the tournament; b still serves the tables: when their grace runs out b marks the
    absent, reading in pair()'s thread only."""
    async with _two_hosts(tmp_path, postgres) as (a, b):
        for host in (a, b):
            await _no_timer(host)
        made = _entered(a, "Fast", 120.0, NAMES[:4])
        kept = a.tournaments.store
        assert kept is not None
        now = time.time()
        await b.tournaments.step(now)
        assert len(b.rooms) == 2 and not a.rooms
        with kept._tx() as db:  # b's lease runs out ...
            db.execute("UPDATE tournament_leases SET until = now() - interval '1 second'")
        await a.tournaments.step(now)  # ... and a takes the tournament over
        recorder = _recorded(b)
        loop = threading.current_thread()
        await b.tournaments.step(now + 30)
        assert kept.absences(made.id) == {}, "not within the grace"
        await b.tournaments.step(now + REAL_TIME_GRACE + 1)
        on_loop, _elsewhere = recorder.split(loop)
        absent = kept.absences(made.id)
        leased = kept._read("SELECT holder FROM tournament_leases")
        b.tournaments.store = recorder.store
    assert leased == [(a.tournaments.holder,)], "a holds the lease"
    assert len(absent.get(1, [])) == 4, "b looked for the absent at its tables"
    assert on_loop == [], "no read on the host's loop"


async def test_two_looks_at_once_mark_each_absent_player_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A look of the timer and one after a game over at the same moment: one after the
    other, so the second sees what the first marked (each absent player said once)."""
    async with running_host(tmp_path) as (host, _port):
        await _no_timer(host)
        made = _entered(host, "Cup", 120.0, NAMES[:4])
        now = time.time()
        await host.tournaments.step(now)
        await host.tournaments.step(now + 5)
        later = now + REAL_TIME_GRACE + 1
        with caplog.at_level(logging.INFO, logger="paris_tui.host.tournaments"):
            await asyncio.gather(host.tournaments.step(later), host.tournaments.step(later))
        kept = host.tournaments.store
        assert kept is not None
        absent = kept.absences(made.id)
    said = [r.getMessage() for r in caplog.records if "is absent" in r.getMessage()]
    assert len(absent.get(1, [])) == 4
    assert len(said) == 4, said


async def test_the_end_of_a_game_that_is_no_tournament_s_reads_nothing(
    tmp_path: Path, store: str | None
) -> None:
    """Every game over is heard by the tournaments: a table no tournament opened (its
    record says so) is not looked up in the tournaments' store at all."""
    from paris_tui.host.referee import parse_seats

    async with running_host(tmp_path, database=store) as (host, _port):
        await _no_timer(host)
        recorder = _recorded(host)
        room = host.open_table(parse_seats("ai:random,ai:random"), seed=3)
        deadline = time.monotonic() + 20.0
        while not room.referee.is_over:
            assert time.monotonic() < deadline, "the AI game did not end"
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)  # the game over heard
        calls = [name for name, _thread in recorder.calls]
        host.tournaments.store = recorder.store
    assert calls == [], f"read at a game over: {calls}"
