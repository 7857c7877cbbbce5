"""The rounds of the host's tournaments: started on time, paired, their tables opened.

Every :data:`TICK` seconds the service looks at the open and running
tournaments of the store (:mod:`paris_tui.host.tournaments.store`):

- an open one whose start has come begins: it is running, and its first round
  is paired (:func:`~paris_tui.host.tournaments.engine.next_round`) and written;
- each table of the current round that no host table plays yet is opened, as
  the operator's ``--table`` opens one, with a seat reserved for each paired
  account's name and the tournament's move time (real-time or turn-based);
- a running one whose round is over gets its next round, or is finished;
- a table whose absence grace (:func:`grace`) has run out since it opened is
  looked at once: each paired account that never came is marked absent in the
  store and the takeover AI plays its seat from then on (until it comes); an
  account absent at two tables in a row is withdrawn (docs/tournaments.md).

The tables of a round opened here are published as one
:class:`~paris_tui.host.events.RoundOpened` (the notify command and the lobbies
tell each paired account where it sits). With several hosts, each other host
publishes the tables it finds opened at its next look, once, with ``notify``
false: its own lobbies tell their players, the notify command ran already. An
unrated tournament's tables are opened unrated (the ratings leave their games out).

It hears :class:`~paris_tui.host.events.GameOver`: a tournament table's places
(R7.3's order, players level sharing the better place) are written once, and
when that was the round's last table the next round is paired at once.
Nothing is kept in memory that the store does not have: after a restart the
next tick opens what was paired but not opened and pairs what was not paired.
With several hosts on one database one host at a time pairs and opens a
tournament's rounds: the holder of its lease (the store's ``lease``, taken and
renewed at every look, with an epoch as a table's lease has); the round and each
opened table are written only under that lease, so a host that stalled past it
writes nothing (a table it opened meanwhile is archived unplayed). A host claims
a table before it opens it too (a minute, in the store). Each host looks for the
absent players of the tables it serves, whoever paired them.

A look (:meth:`HostTournaments.step`) reads the store in a thread
(:meth:`HostTournaments.pair`), which hands the loop a :class:`DueRound` for each
current round with something to do; the loop reads nothing: it opens the tables,
publishes, and makes the writes that go with that (a table's claim and record, the
absent marked). What a look learns that stays true (every table opened, the round
told here, which tables are still to look at for the absent) spares later looks
those reads: a round handled is read again only for whether it is still current.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from paris_tui.core.dealing import SeatSpec
from paris_tui.core.text import printable
from paris_tui.host.config import TableConflictError
from paris_tui.host.events import EventBus, GameOver, RoundOpened, TableArchived, TableEvent
from paris_tui.host.peers import Table
from paris_tui.host.ratings.store import ranks
from paris_tui.host.store.files import HostStore, TableStore
from paris_tui.host.tournaments.engine import next_round
from paris_tui.host.tournaments.pairing import Round
from paris_tui.host.tournaments.store import (
    Fence,
    SQLiteTournaments,
    Tournament,
    TournamentsUnavailable,
    open_tournaments,
)
from paris_tui.net.turns import is_turn_based

__all__ = ["REAL_TIME_GRACE", "TICK", "DueRound", "HostTournaments", "TournamentsHost", "grace"]

log = logging.getLogger("paris_tui.host.tournaments")

TICK = 5.0
"""Seconds between two looks at the tournaments (a start is at most this late)."""
REAL_TIME_GRACE = 60.0
"""Seconds a paired account has to come to a real-time tournament table."""


def grace(move_time: float, real_time: float = REAL_TIME_GRACE) -> float:
    """How long after its table opened a paired account that has not come is absent: a
    minute at a real-time table, one move time at a turn-based one."""
    return move_time if is_turn_based(move_time) else real_time


@dataclass(frozen=True)
class DueRound:
    """A current round as a look read it in :meth:`HostTournaments.pair`'s thread: what
    the loop needs to open its tables, tell of them and look for the absent, so that
    :meth:`HostTournaments.open_due` reads nothing from the store."""

    tournament: Tournament
    number: int
    fence: Fence | None
    """This host's lease of the tournament; ``None``: another host opens its tables."""
    rnd: Round
    names: Mapping[str, str]
    """Each entrant's key and name."""
    waiting: tuple[int, ...] = ()
    """The tables no host table played yet, to open (with the lease)."""
    opened: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """To tell: the tables opened before this look, not over (host table, names)."""
    unchecked: tuple[tuple[int, str, float], ...] = ()
    """To look for the absent at: served here, grace run out (number, host table,
    when it opened)."""


@dataclass(frozen=True)
class _Seen:
    """What this host's looks learnt of a current round that stays true, so that later
    looks do not read it again: a table, once opened, stays so; a table, once over or
    looked at for the absent, is not looked at again."""

    opened: bool = False
    """Every table of the round had a host table."""
    pending: tuple[tuple[int, str, float], ...] | None = None
    """Its tables whose absent were still to be looked for, read after every table was
    opened (the list can only shrink): the store is asked again only once one of them
    is served here and its grace has run out."""
    told: frozenset[str] | None = None
    """At a host without the lease: its tables not over, read after every table was
    opened; once each is told here the round is told."""


class _Opened(Protocol):
    @property
    def id(self) -> str: ...


class _Served(Protocol):
    """A table served here, as the absence rule looks at it."""

    @property
    def owners(self) -> dict[int, int]: ...

    @property
    def seated(self) -> Mapping[int, object]: ...

    def take_over(self, seat: int) -> None: ...


class TournamentsHost(Protocol):
    """What the tournaments need of the host: where the tables are kept, and a table
    opened with named seats (the operator's ``--table``)."""

    @property
    def tables(self) -> TableStore: ...

    @property
    def store(self) -> HostStore: ...

    @property
    def rooms(self) -> Mapping[str, _Served]: ...

    def lose_table(self, table_id: str) -> object: ...

    def open_table(
        self,
        seats: Sequence[SeatSpec],
        *,
        move_time: float | None = None,
        rated: bool = True,
        tournament: str | None = None,
    ) -> _Opened: ...


class HostTournaments:
    """The tournaments' rounds at one host (see the module's doc)."""

    def __init__(self, host: TournamentsHost, events: EventBus | None = None) -> None:
        self.host = host
        self.store: SQLiteTournaments | None = None
        self._task: asyncio.Task[None] | None = None
        self._steps: set[asyncio.Task[None]] = set()  # a round's next, under way
        self.holder = secrets.token_hex(8)  # this host, as a claim on a table to open
        # The sets below are shared by pair()'s thread and the loop: under this lock.
        self._lock = threading.Lock()
        self._stepping = asyncio.Lock()  # one look at a time
        # The rounds this host has looked at with the lease: on its first look at one it
        # tells the players of the tables opened before (by a host that died, or by this
        # one before a restart), not yet over, where they sit.
        self._looked: set[tuple[int, int]] = set()
        # The host tables each round (tournament, round) has told this host's lobbies of.
        self._told: dict[tuple[int, int], set[str]] = {}
        # What the looks learnt of each current round that stays true (see _Seen).
        self._seen: dict[tuple[int, int], _Seen] = {}
        self.events = events
        self.real_time_grace = REAL_TIME_GRACE  # a real-time table's absence grace
        if events is not None:
            events.subscribe(self.hear)

    def open(self) -> None:
        from paris_tui.host.store.postgres import PostgresStore

        try:
            tables = self.host.tables
            if isinstance(tables, PostgresStore):
                from paris_tui.host.tournaments.postgres import PostgresTournaments

                self.store = PostgresTournaments(tables.pool)
            else:
                self.store = open_tournaments(self.host.store.root)
        except (TournamentsUnavailable, OSError) as exc:
            log.error("%s: no tournament rounds until it is repaired", exc)
            self.store = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        for step in list(self._steps):
            step.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.store is not None:
            with contextlib.suppress(TournamentsUnavailable):  # they run out anyway
                self.store.release(self.holder)
            self.store.close()
            self.store = None

    async def _run(self) -> None:
        while True:
            await self.step(time.time())
            await asyncio.sleep(TICK)

    async def step(self, now: float) -> None:
        """One look: the store read (and the rounds paired) in a thread, a large field
        takes a while; the tables opened here, on the host's loop. One look at a time:
        each sees what the one before it opened and marked."""
        async with self._stepping:
            try:
                due = await asyncio.to_thread(self.pair, now, frozenset(self.host.rooms))
                self.open_due(due, now)
            except (TournamentsUnavailable, OSError) as exc:
                log.error("tournaments: %s", exc)

    def tick(self, now: float) -> None:
        """:meth:`step` in one go, on the caller's thread."""
        self.open_due(self.pair(now, frozenset(self.host.rooms)), now)

    # --- the rounds -------------------------------------------------------------------

    def pair(self, now: float, served: frozenset[str] | None = None) -> list[DueRound]:
        """Begin the tournaments whose start has come; pair the next round of each
        running one whose round is over, or finish it. Returns what the loop needs of
        each current round with something to do (tables to open, to tell of, absent to
        look for at ``served``, the host tables served here: by default the host's
        rooms now, on the loop's thread). Any thread: the store has its own lock."""
        store = self.store
        if store is None:
            return []
        if served is None:
            served = frozenset(self.host.rooms)
        due: list[DueRound] = []
        current: set[tuple[int, int]] = set()
        for tournament in store.tournaments(("open", "running")):
            if tournament.state == "open" and tournament.start > now:
                continue
            fence = store.lease(tournament.id, self.holder)
            rnd: Round | None = None
            if fence is None:  # another host pairs and opens it; its absent are looked for
                found = store.current(tournament.id) if tournament.state == "running" else None
                if found is None or found[1]:
                    continue
                number = found[0]
            else:
                if tournament.state == "open":
                    if not store.set_state(tournament.id, "running", was=("open",)):
                        continue
                    log.info("tournament %s begins", tournament.name)
                advanced = self._advance(store, tournament, fence)
                if advanced is None:
                    continue
                number, rnd = advanced
            current.add((tournament.id, number))
            look = self._look(store, tournament, number, rnd, fence, served, now)
            if look is not None:
                due.append(look)
        with self._lock:  # what was learnt of rounds no longer current is let go
            self._seen = {k: v for k, v in self._seen.items() if k in current}
        return due

    def _advance(
        self, store: SQLiteTournaments, tournament: Tournament, fence: Fence
    ) -> tuple[int, Round | None] | None:
        """The current round's number, and the round if it was read (pairing it first
        when the last one is over), or ``None`` when the tournament is over."""
        found = store.current(tournament.id)
        if found is not None and not found[1]:
            return found[0], None
        rounds = store.rounds(tournament.id)
        if rounds and not rounds[-1].over:
            return rounds[-1].number, rounds[-1]
        rnd = next_round(tournament.plan, store.entrants(tournament.id), rounds)
        if rnd is None:
            if store.set_state(tournament.id, "finished", was=("running",)):
                log.info("tournament %s is over", tournament.name)
            return None
        if store.add_round(tournament.id, rnd, fence):
            log.info(
                "tournament %s: round %d paired, %d %s",
                tournament.name,
                rnd.number,
                len(rnd.tables),
                "table" if len(rnd.tables) == 1 else "tables",  # the log is English only
            )
            return rnd.number, rnd
        rounds = store.rounds(tournament.id)  # another host's pairing of it, if any
        if len(rounds) < rnd.number:
            return None
        return rnd.number, rounds[rnd.number - 1]

    def _look(
        self,
        store: SQLiteTournaments,
        tournament: Tournament,
        number: int,
        rnd: Round | None,
        fence: Fence | None,
        served: frozenset[str],
        now: float,
    ) -> DueRound | None:
        """Read what the loop needs of a current round (pair()'s thread), skipping what
        earlier looks learnt needs no reading: tables all opened, the round told here,
        no table served here whose grace ran out among those still to look at."""
        key = (tournament.id, number)
        with self._lock:
            seen = self._seen.get(key, _Seen())
            first = fence is not None and key not in self._looked
            if first:
                self._looked.add(key)
            told = frozenset(self._told.get(key, ()))
        # Without the lease: the tables another host opened, told until each is; with
        # it: on its first look, those opened before it, told again.
        told_all = seen.told is not None and seen.told <= told
        tell = self.events is not None and (first if fence is not None else not told_all)
        waiting: list[int] = []
        if not seen.opened:  # once every table is open it stays so
            waiting = store.unopened(tournament.id, number)
            seen = replace(seen, opened=not waiting)
        wait = grace(tournament.move_time, self.real_time_grace)

        def due(rows: Sequence[tuple[int, str, float]]) -> tuple[tuple[int, str, float], ...]:
            return tuple(r for r in rows if r[1] in served and now >= r[2] + wait)

        unchecked: tuple[tuple[int, str, float], ...] = ()
        if seen.pending is None or due(seen.pending):
            rows = store.unchecked(tournament.id, number)
            if seen.opened:  # read after every table was open: this list only shrinks
                seen = replace(seen, pending=tuple(rows))
            unchecked = due(rows)
        if fence is None:
            waiting = []
        if not (waiting or tell or unchecked):
            with self._lock:
                self._seen[key] = seen
            return None
        if rnd is None:
            rounds = store.rounds(tournament.id)
            if len(rounds) < number:
                return None
            rnd = rounds[number - 1]
        names = store.names(tournament.id)
        opened: list[tuple[str, tuple[str, ...]]] = []
        if tell:
            opened = self._open_before(store, tournament.id, number, rnd, names)
            if fence is None and seen.opened:  # told here once these are
                seen = replace(seen, told=frozenset(t for t, _ in opened))
        with self._lock:
            self._seen[key] = seen
        return DueRound(
            tournament, number, fence, rnd, names, tuple(waiting), tuple(opened), unchecked
        )

    def open_due(self, due: Sequence[DueRound], now: float | None = None) -> None:
        """Open the tables of these rounds that no host table plays yet, then look for the
        absent players of those served here whose grace ran out by ``now`` (the loop's
        thread). It reads nothing from the store: ``due`` has what it needs."""
        when = time.time() if now is None else now
        for look in due:
            self._open_tables(look, when)
        for look in due:
            self._look_for_absent(look, when)

    def _open_tables(self, look: DueRound, now: float) -> None:
        store = self.store
        if store is None:
            return
        fence = look.fence
        if fence is None:  # another host's to open: this host's lobbies hear of them
            self._tell_opened_elsewhere(look)
            return
        tournament, number, rnd = look.tournament, look.number, look.rnd
        # At this host's first look at the round with the lease, the tables opened before
        # and not over are told again (the host that opened them may have died before
        # its players heard, or they listen at this host now).
        opened_here = list(look.opened)
        for table_no in look.waiting:
            # The claim and the record are the two store writes that stay on the loop: the
            # claim just before this host's table opens (not a minute held for a look that
            # may not open it), the record just after, with the table's id, under the
            # lease's fence, with no await between them and the opening, so that a table
            # opened here is recorded or dropped at once, never played unrecorded.
            if not store.claim_table(tournament.id, number, table_no, self.holder):
                continue  # another host opens it
            table = rnd.tables[table_no - 1]
            seats = [SeatSpec(look.names[key]) for key in table.seats]
            try:
                opened = self.host.open_table(
                    seats,
                    move_time=tournament.move_time,
                    rated=tournament.rated,
                    tournament=tournament.name,
                )
            except (TableConflictError, ValueError, OSError) as exc:
                log.warning(
                    "tournament %s round %d table %d not opened yet: %s",
                    tournament.name,
                    number,
                    table_no,
                    exc,
                )
                continue
            if not store.open_table(tournament.id, number, table_no, opened.id, now, fence):
                self._drop(opened.id, tournament, number, table_no)
                continue
            opened_here.append((opened.id, tuple(s.name for s in seats)))
        with self._lock:
            self._told.setdefault((tournament.id, number), set()).update(
                table_id for table_id, _ in opened_here
            )
        if opened_here and self.events is not None:  # the players hear where they sit
            self.events.publish(
                RoundOpened(tournament.id, tournament.name, number, tuple(opened_here))
            )

    def _tell_opened_elsewhere(self, look: DueRound) -> None:
        """Publish the round's tables that another host opened, not over, not told here yet
        (``notify`` false: the opening host ran the notify command)."""
        if self.events is None:
            return
        tournament, number = look.tournament, look.number
        with self._lock:
            told = self._told.setdefault((tournament.id, number), set())
            new = [(t, names) for t, names in look.opened if t not in told]
            told.update(table_id for table_id, _ in new)
        if new:
            self.events.publish(
                RoundOpened(tournament.id, tournament.name, number, tuple(new), notify=False)
            )

    @staticmethod
    def _open_before(
        store: SQLiteTournaments,
        tournament: int,
        number: int,
        rnd: Round,
        names: Mapping[str, str],
    ) -> list[tuple[str, tuple[str, ...]]]:
        """The round's tables opened already and not over: (table id, names in seat order)."""
        found: list[tuple[str, tuple[str, ...]]] = []
        for (round_no, table_no), table_id in sorted(store.table_ids(tournament).items()):
            if round_no != number or not 1 <= table_no <= len(rnd.tables):
                continue
            table = rnd.tables[table_no - 1]
            if not table.over:
                found.append((table_id, tuple(names.get(k, k) for k in table.seats)))
        return found

    def _drop(self, table_id: str, tournament: Tournament, number: int, table_no: int) -> None:
        """A table opened here that the store did not take (this host lost the
        tournament's lease meanwhile: another host opens that table): archived, never
        played."""
        log.warning(
            "tournament %s round %d table %d: another host has it now; %s archived unplayed",
            tournament.name,
            number,
            table_no,
            table_id,
        )
        self.host.lose_table(table_id)
        try:
            self.host.tables.archive(table_id)
        except OSError as exc:
            log.error("table %s: could not archive it: %s", table_id, exc)
            return
        if self.events is not None:  # its lease given back (the cluster)
            self.events.publish(TableArchived(table_id))

    # --- the absent -------------------------------------------------------------------

    def _look_for_absent(self, look: DueRound, now: float) -> None:
        """Each table of the round served here whose grace ran out: the paired accounts
        that never came (no seat of theirs claimed, nobody in it) are marked absent, and
        the takeover AI plays for them from now on (docs/tournaments.md)."""
        store = self.store
        if store is None:
            return
        tournament, number, names = look.tournament, look.number, look.names
        wait = grace(tournament.move_time, self.real_time_grace)
        tables: list[tuple[int, str]] = [
            (table_no, table_id)
            for table_no, table_id, opened in look.unchecked
            if table_id in self.host.rooms and now >= opened + wait
        ]
        for table_no, table_id in tables:
            room = self.host.rooms[table_id]
            seats = look.rnd.tables[table_no - 1].seats
            absent = [
                seat
                for seat in range(len(seats))
                if seat not in room.owners and seat not in room.seated
            ]
            # A write that stays on the loop: who is absent is read from the room here,
            # and the AI takes their seats at once; with an await between, a player
            # coming meanwhile would be marked absent and their seat taken from them.
            withdrawn = store.mark_absent(
                tournament.id, number, table_no, [seats[s] for s in absent]
            )
            for seat in absent:
                log.info(
                    "tournament %s round %d: %s is absent, the AI plays their seat at %s",
                    tournament.name,
                    number,
                    printable(names.get(seats[seat], seats[seat])),
                    table_id,
                )
                room.take_over(seat)
            for key in withdrawn:
                log.info(
                    "tournament %s: %s absent twice in a row, withdrawn",
                    tournament.name,
                    printable(names.get(key, key)),
                )

    # --- the results ------------------------------------------------------------------

    def hear(self, event: TableEvent) -> None:
        if isinstance(event, GameOver) and self.store is not None:
            try:
                self.game_over(event.table)
            except (TournamentsUnavailable, OSError) as exc:
                log.error("tournaments: %s", exc)

    def game_over(self, table: Table) -> None:
        """Write a tournament table's places; pair the next round soon if it was the last."""
        store = self.store
        if store is None or table.referee.tournament is None:
            return  # not a tournament's table (its record says so): nothing to read
        where = store.table_of(table.id)
        if where is None:
            return
        outcome = table.referee.view(None).outcome
        if outcome is None:
            return
        tournament_id, number, table_no = where
        places = ranks(outcome.scores, outcome.on_board)
        if not store.finish_table(tournament_id, number, table_no, places):
            return
        # The round's last table (one small read, not every round's tables):
        if store.current(tournament_id) == (number, True):
            with contextlib.suppress(RuntimeError):  # no loop: the next tick does it
                task = asyncio.get_running_loop().create_task(self.step(time.time()))
                self._steps.add(task)
                task.add_done_callback(self._steps.discard)
