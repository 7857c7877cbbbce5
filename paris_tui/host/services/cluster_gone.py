"""Hosts found gone (their door refuses connections): their tables taken at once.

The cluster's part that takes a dead host's tables before their leases run
out (:class:`~paris_tui.host.services.cluster.Cluster` is a :class:`GoneHosts`):
a host whose door refused a relay's dial, or whose door refuses the dial made
when a relay to it ended, is *gone*; its tables are taken as soon as their
leases went two renewals without one (:meth:`GoneHosts._claim_from_gone`), by
the joins that come for them and by a sweep of all of them.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from concurrent.futures import ThreadPoolExecutor

from paris_tui.core.record import Record
from paris_tui.host.ports import ClusterHost, Resumed
from paris_tui.host.referee import Refusal
from paris_tui.host.store.lease import Leases
from paris_tui.host.store.postgres import PostgresStore

__all__ = ["GoneHosts"]

log = logging.getLogger("paris_tui.host.cluster")

SWEEP_CHUNK = 4  # a gone host's tables taken per trip to a takeover thread


class GoneHosts:
    """Finding hosts gone, and taking their tables."""

    host: ClusterHost
    store: PostgresStore
    leases: Leases
    io: ThreadPoolExecutor
    tick: float
    silent: float
    _gone: dict[str, float]  # host (lease holder) -> when its door refused us
    _probing: set[str]  # hosts whose door is being dialled (a relay ended)
    _sweeping: set[str]  # gone hosts whose tables are being taken
    _claims: dict[str, asyncio.Future[None]]  # gone hosts' tables being claimed
    _taken: dict[str, float]  # table -> when its lease was last taken here
    _taking: dict[str, asyncio.Event]  # tables being taken over here: set when done

    async def take(self, table_id: str, *, finished: bool = True) -> None:
        raise NotImplementedError

    def _probe(self, holder: str, address: str) -> None:
        """Dial ``holder``'s door once (a relay to it just ended): refused, its
        process is gone, and its tables are taken now (:meth:`_sweep`), not when
        its players' joins come back one by one (about 0.7 s after a kill -9 on
        a loaded machine, before the first one did)."""
        if holder in self._probing or self._is_gone(holder):
            return
        self._probing.add(holder)
        future = asyncio.ensure_future(self._probe_door(holder, address))
        future.add_done_callback(lambda done: self._probing.discard(holder))
        future.add_done_callback(_log_failure)

    async def _probe_door(self, holder: str, address: str) -> None:
        host, _, port = address.rpartition(":")
        try:
            async with asyncio.timeout(self.leases.seconds):
                _, writer = await asyncio.open_connection(host.strip("[]"), int(port))
            writer.close()  # its door answers: alive (it dropped a table, or a player left)
            return
        except ConnectionRefusedError:
            pass
        except (OSError, TimeoutError, ValueError):  # no answer: its lease will say
            return
        if not self._is_gone(holder):
            self._gone[holder] = time.monotonic()
            log.warning("host %s at %s refuses connections: gone", holder, address)
            self._sweep(holder)

    def _sweep(self, holder: str) -> None:
        """Take every table of ``holder`` (gone: its door refuses) as soon as its
        leases went silent (:meth:`_claim_from_gone`), two at a time (the
        takeovers' threads), in a random order: each host that found it gone
        takes its share, and a table a join is taking already is not taken twice."""
        if holder in self._sweeping:
            return
        self._sweeping.add(holder)
        future = asyncio.ensure_future(self._sweep_tables(holder))
        future.add_done_callback(lambda done: self._sweeping.discard(holder))
        future.add_done_callback(_log_failure)

    async def _sweep_tables(self, holder: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            tables = await loop.run_in_executor(self.io, self.leases.tables_of, holder)
            random.shuffle(tables)
            # Its leases were renewed together: they go silent together (the first says when).
            while tables and self._is_gone(holder):
                wait = await loop.run_in_executor(
                    self.io, self.leases.silent_in, tables[-1], holder, self.silent
                )
                if wait is None:  # that one is taken already
                    tables.pop()
                elif wait <= 0:
                    break
                else:
                    await asyncio.sleep(wait + 0.01)
        except (OSError, RuntimeError) as exc:
            log.error("the tables of host %s: %s", holder, exc)
            return

        async def worker() -> None:
            while tables and self._is_gone(holder):
                chunk = [tables.pop() for _ in range(min(SWEEP_CHUNK, len(tables)))]
                await self._take_chunk(chunk, holder)

        await asyncio.gather(worker(), worker())

    async def _take_chunk(self, chunk: list[str], holder: str) -> None:
        """Take ``chunk`` (tables of the gone ``holder``) over in one trip to a
        takeover thread (:meth:`_grab`), not four (the lease, the moves, the
        replay, the resume): each trip waits for the event loop, which serves
        every rejoining player meanwhile (one table a trip, each host's
        takeovers came 25 to 30 ms apart on a loaded machine)."""
        loop = asyncio.get_running_loop()
        chunk = [t for t in chunk if t not in self.host.rooms and t not in self._taking]
        if not chunk:
            return
        events = {table: asyncio.Event() for table in chunk}
        self._taking.update(events)  # a join for one of them waits for this take
        try:
            grabbed = await loop.run_in_executor(self.io, self._grab, chunk, holder)
            for table_id, began, record, prepared in grabbed:
                self._taken[table_id] = began  # (committed: see _take_lease)
                if table_id in self.host.rooms:
                    continue
                room = self.host.resume(table_id, record, prepared)
                room.start()
                log.info("took over table %s at move %d", table_id, room.referee.move_count)
        finally:
            for table_id, event in events.items():
                self._taking.pop(table_id, None)
                event.set()

    def _grab(self, chunk: list[str], holder: str) -> list[tuple[str, float, Record, Resumed]]:
        """(In a takeover thread.) Each table's lease taken from ``holder`` (once
        silent), and when that began; its moves read and replayed, its seats'
        owners read."""
        grabbed = []
        for table_id in chunk:
            try:
                if not self.leases.take_from(table_id, holder, self.silent):
                    continue  # another host's now, or its holder renewed
                began = time.monotonic()  # committed (see _take_lease)
                record = self.store.load_record(table_id)
                if record is None:
                    continue
                grabbed.append((table_id, began, record, self.host.prepare(table_id, record)))
            except (OSError, ValueError) as exc:
                log.error("table %s: cannot take it over: %s", table_id, exc)
        return grabbed

    def _take_lease(self, table: str, holder: str) -> tuple[float, bool]:
        """(In a takeover thread.) When the take was committed, and whether it
        took the lease: a renewal begun after that holds the table, one begun
        before may not have seen it. Timed here, after the statement, not
        before the thread's queue or the statement: a renewal begun meanwhile
        dropped tables just taken (seen under load, taken again a tick later)."""
        got = self.leases.take_from(table, holder, self.silent)
        return time.monotonic(), got

    def _is_gone(self, holder: str) -> bool:
        """Whether ``holder``'s door refused a connection within the last lease."""
        seen = self._gone.get(holder)
        if seen is None:
            return False
        if time.monotonic() - seen > self.leases.seconds:
            del self._gone[holder]
            return False
        return True

    async def _take_from_gone(self, table: str, holder: str) -> bool:
        """:meth:`_claim_from_gone`, once for all the joins for ``table`` here at a time
        (the others wait for the same claim: no read of theirs)."""
        pending = self._claims.get(table)
        if pending is None:
            pending = asyncio.ensure_future(self._claim_from_gone(table, holder))
            self._claims[table] = pending
            pending.add_done_callback(lambda done: self._claimed(table, done))
        await asyncio.shield(pending)  # a join that gives up does not end the others' claim
        if table not in self.host.rooms:
            raise Refusal("unavailable", f"table {table} is moving to another host: try again")
        return False  # served here: the join goes on here

    def _claimed(self, table: str, done: asyncio.Future[None]) -> None:
        self._claims.pop(table, None)
        if not done.cancelled():
            done.exception()  # seen here even if every join waiting for it is gone

    async def _claim_from_gone(self, table: str, holder: str) -> None:
        """Referee ``table`` here if its host ``holder`` is gone (its door refused
        us), as soon as its lease went :attr:`silent` (two renewals) without a
        renewal: a kill -9 is taken over in about a third of a lease, not a lease
        and a tick. The join waits here for that moment (at most :attr:`silent`)
        instead of being told to try again: the players of a host that died do
        not come back again and again, each time a dial, a hello and two reads.
        Raises ``Refusal`` when the holder renewed (it is not gone after all:
        dialled again next time) or the database did not answer."""
        loop = asyncio.get_running_loop()
        pool = self.io
        deadline = time.monotonic() + self.silent + self.tick
        while True:
            try:
                began, got = await loop.run_in_executor(pool, self._take_lease, table, holder)
                wait = (
                    None
                    if got
                    else await loop.run_in_executor(
                        pool, self.leases.silent_in, table, holder, self.silent
                    )
                )
            except OSError as exc:
                log.error("table %s: %s", table, exc)
                raise Refusal(
                    "unavailable", "the host cannot reach its database: try again"
                ) from None
            if got:
                self._taken[table] = began
                await self.take(table)
                break
            if wait is None:  # not the gone host's any more: ours (being taken), or another's
                pending = self._taking.get(table)
                if pending is not None:
                    await pending.wait()
                break
            if time.monotonic() + wait > deadline:  # renewed: not gone after all
                self._gone.pop(holder, None)
                raise Refusal("unavailable", "the table's host cannot be reached: try again")
            await asyncio.sleep(wait + 0.01)


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a cluster task failed", exc_info=task.exception())
