"""A table being served: its referee, who sits where, who watches, its AI.

A :class:`Room` holds one table's :class:`~paris_tui.host.referee.Referee`
(the only :class:`~paris_tui.core.Game`), the connections seated at it and
its watchers, the takeover clocks of away seats, and the AI that plays its AI
seats (and, with ``ai_takeover``, the seats of players who are away). It
sends each connection its own seat's view. What it needs of the host is
:class:`RoomHost`; what happens at it goes out on the host's
:class:`~paris_tui.host.events.EventBus` (:mod:`paris_tui.host.events`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Protocol

from msgspec import structs

from paris_tui.core import Event, Move
from paris_tui.core.record import Player
from paris_tui.host.ai_moves import AIMoves
from paris_tui.host.config import HostConfig
from paris_tui.host.events import (
    AIPlaysFor,
    EventBus,
    GameOver,
    MoveLost,
    MovePlayed,
    SeatLeft,
    SeatReturned,
    TableServed,
)
from paris_tui.host.peers import Peer, Table
from paris_tui.host.referee import Referee, Refusal
from paris_tui.host.store.files import TableStore
from paris_tui.net.endings_wire import ENDINGS_VERSION, Agreement
from paris_tui.net.protocol import (
    MoveClock,
    Presence,
    RatedResult,
    SeatInfo,
    SeatStatus,
    TableInfo,
    encode,
    encode_updates,
)

__all__ = ["Room", "RoomHost", "SeatRatings", "TableClocks"]

log = logging.getLogger("paris_tui.host")


class SeatRatings(Protocol):
    """The ratings a seat list shows (:class:`~paris_tui.host.ratings.service.HostRatings`)."""

    def seat_rating_of(self, player: Player, owner: int | None) -> int | None: ...

    def seat_provisional_of(self, player: Player, owner: int | None) -> bool: ...


class TableClocks(Protocol):
    """A timed table's clock (:class:`~paris_tui.host.services.turns.TurnKeeper`)."""

    def table_info(self, room: Table, info: TableInfo) -> TableInfo: ...

    def move_clock(self, room: Table) -> MoveClock | None: ...

    def turn_based(self, room: Table) -> bool: ...


class RoomHost(Protocol):
    """What a room needs of its host: settings, where moves are saved, the AI,
    the event stream, and the two services a seat list reads."""

    saves_failing: bool  # a move could not be saved, none has been since

    @property
    def config(self) -> HostConfig: ...

    @property
    def move_pool(self) -> Executor: ...

    @property
    def tables(self) -> TableStore: ...

    @property
    def ai_moves(self) -> AIMoves: ...

    @property
    def events(self) -> EventBus: ...

    @property
    def ratings(self) -> SeatRatings: ...

    @property
    def turns(self) -> TableClocks: ...


class Room:
    """A table being served: its referee, who sits where, who watches, its AI."""

    def __init__(
        self, host: RoomHost, referee: Referee, owners: dict[int, int], problem: str | None = None
    ) -> None:
        self.host = host
        self.referee = referee
        self.id = referee.table_id
        self.owners = owners  # seat -> account id, for the seats already claimed
        self.seats_problem = problem  # the owners could not be read: no seat is given
        self.seated: dict[int, Peer] = {}
        self.watchers: set[Peer] = set()
        self.takeover: set[int] = set()
        # Seats whose players resigned: the AI plays them to the end, never handed back
        # (kept in the record's meta, so a restart knows).
        resigned = referee.meta.get("resigned")
        self.resigned = (
            {s for s in resigned if s in range(4)} if isinstance(resigned, list) else set()
        )
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._ai_task: asyncio.Task[None] | None = None
        self._ai_job: tuple[int, int] | None = None
        self.moving = asyncio.Lock()  # held while a move is made, saved and sent
        self.owners_saving = asyncio.Lock()
        # Opened by a client: the opener's owner key (kept in the record's meta, so
        # a restart still counts it) and address key (this run only: an address is
        # nobody's business in a record that is handed round for replays).
        opener = referee.meta.get("opener")
        self.opener: str | None = opener if isinstance(opener, str) else None
        self.opener_address: str | None = None
        self.touched = time.time()  # the last move or arrival (wall clock: survives restarts)
        self.result: RatedResult | None = None  # how the finished game was rated (ratings/)

    # --- who is here ----------------------------------------------------------------

    def status(self, seat: int) -> SeatStatus:
        if self.referee.is_ai(seat):
            return "ai"
        if seat in self.seated and seat not in self.resigned:
            return "present"
        return "takeover" if seat in self.takeover else "away"

    def seat_infos(self) -> tuple[SeatInfo, ...]:
        ratings = self.host.ratings  # the account's rating (ratings/)
        return tuple(
            SeatInfo(
                p.name,
                p.kind,
                self.status(i),
                ratings.seat_rating_of(p, self.owners.get(i)),
                ratings.seat_provisional_of(p, self.owners.get(i)),
            )
            for i, p in enumerate(self.referee.players)
        )

    def info(self) -> TableInfo:
        ref = self.referee
        info = TableInfo(self.id, self.seat_infos(), ref.move_count, ref.total_moves, ref.is_over)
        if not ref.is_over:  # whose turn, for the lobby (a timed table's clock says it too)
            info = structs.replace(info, to_move=ref.to_move)
        elif ref.aborted:
            info = structs.replace(info, aborted=True)
        return self.host.turns.table_info(self, info)

    def start(self) -> None:
        """Begin serving: away seats' takeover clocks run, the AI moves if it is its turn."""
        for seat in self.referee.human_seats:
            if seat not in self.seated:
                self._start_clock(seat)
        self.host.events.publish(TableServed(self))
        self.kick()

    def arrive(self, seat: int, conn: Peer) -> None:
        """``conn`` sits in ``seat``: a takeover ends, the player's own moves count again.

        The caller announces it (:meth:`broadcast_presence`) once the newcomer has
        been told where it sits."""
        self.seated[seat] = conn
        self.touched = time.time()
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if seat in self.takeover and seat not in self.resigned:
            self.takeover.discard(seat)
            log.info("table %s: seat %d is back, the AI hands it back", self.id, seat)
            self.host.events.publish(SeatReturned(self.id, seat))
        if self._ai_job is not None and self._ai_job[0] == seat:
            self._cancel_ai()

    def depart(self, conn: Peer) -> None:
        """``conn`` leaves (hung up, cut off, or joined elsewhere)."""
        self.watchers.discard(conn)
        seat = conn.seat
        if seat is not None and self.seated.get(seat) is conn:
            del self.seated[seat]
            self._start_clock(seat)
            self.host.events.publish(SeatLeft(self, seat))
            self.broadcast_presence()

    def _start_clock(self, seat: int) -> None:
        delay = self.host.config.ai_takeover
        if delay is None or self.referee.is_over or seat in self._timers:
            return
        if self.host.turns.turn_based(self):
            return  # a turn-based table waits for its players (services/turns.py)
        loop = asyncio.get_running_loop()
        self._timers[seat] = loop.call_later(delay, self._take_over, seat)

    def resign(self, seat: int) -> None:
        """``seat``'s player gives the game up: the AI plays the seat to the end."""
        self.resigned.add(seat)
        self.referee.meta["resigned"] = sorted(self.resigned)
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._take_over(seat)

    def take_over(self, seat: int) -> None:
        """The takeover AI plays ``seat`` from now on, until its player sits there (a
        tournament's absent player: services/tournaments.py)."""
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._take_over(seat)

    def _take_over(self, seat: int) -> None:
        self._timers.pop(seat, None)
        if (seat in self.seated and seat not in self.resigned) or self.referee.is_over:
            return
        self.takeover.add(seat)
        log.info("table %s: seat %d away, the AI plays for it", self.id, seat)
        self.broadcast_presence()
        self.kick()

    # --- sending ----------------------------------------------------------------------

    def result_for(self, protocol: int) -> RatedResult | None:
        """How the game was rated, as a client of ``protocol`` reads it: an older one
        than the agreed endings' knows no reason ``aborted`` (it is told nothing)."""
        result = self.result
        if result is not None and result.reason == "aborted" and protocol < ENDINGS_VERSION:
            return None
        return result

    def tell_aborted(self, conn: Peer) -> None:
        """A newcomer to an aborted game (protocol 5) hears that it was aborted, as
        those at the table did when every player agreed."""
        ref = self.referee
        if ref.aborted and conn.protocol >= ENDINGS_VERSION:
            voters = tuple(s for s in ref.human_seats if s not in self.resigned)
            conn.send(Agreement(self.id, "abort", voters, self.id))

    def broadcast_presence(self) -> None:
        clock = self.host.turns.move_clock(self)
        data = encode(Presence(self.id, self.seat_infos(), self.result, clock))
        old = data
        if self.result_for(0) is not self.result:
            old = encode(Presence(self.id, self.seat_infos(), None, clock))
        for conn in (*self.seated.values(), *self.watchers):
            conn.send_bytes(data if conn.protocol >= ENDINGS_VERSION else old)

    def broadcast_update(self, events: Sequence[Event]) -> None:
        """Each seated connection gets its own seat's view; watchers the public one."""
        ref = self.referee
        seated = list(self.seated.items())
        public, views = ref.views(seat for seat, _ in seated)
        lines, public_line = encode_updates(self.id, public, views, tuple(events))
        for seat, conn in seated:
            conn.send_bytes(lines[seat])
        for conn in list(self.watchers):
            conn.send_bytes(public_line)

    # --- moves ------------------------------------------------------------------------

    async def play(self, seat: int, move: Move, move_count: int) -> None:
        """Submit to the referee (raises :class:`Refusal`), save, then tell everyone.

        One move at a time per table: the record is written (in an I/O thread,
        so no table waits for another's disk) before anyone hears of the move,
        so a move a player has seen is a move on disk.
        """
        ref = self.referee
        async with self.moving:
            events = ref.play(seat, move, move_count)
            self.touched = time.time()
            loop = asyncio.get_running_loop()
            try:
                await loop.run_in_executor(self.host.move_pool, self.host.tables.append, ref)
            except OSError as exc:
                ref.save_error = f"could not save table {self.id}: {exc.strerror or exc}"
                if not self.host.saves_failing:  # once per outage, not once per move
                    self.host.saves_failing = True
                    log.error("%s: moves wait until it takes them again", ref.save_error)
                if self.host.config.database is not None:
                    # A move is told only once it is in the database: this one is
                    # taken back and refused; the table waits for the database.
                    self._take_back()
                    if type(exc).__name__ == "MoveConflict":
                        self.host.events.publish(MoveLost(self.id))  # another host has it now
                    raise Refusal("unavailable", "the host cannot save the move now") from None
            else:
                ref.save_error = None
                if self.host.saves_failing:
                    self.host.saves_failing = False
                    log.info("moves are saved again (table %s)", self.id)
            self.broadcast_update(events)
            if ref.is_over:
                await self._game_over()  # (the chat's lines for the players sent first)
            self.host.events.publish(MovePlayed(self))
        self.kick()

    async def abort(self, save: Callable[[Room], None]) -> bool:
        """Every human player agreed: the game ends here, no winner, unrated. The
        record says so (``"aborted": true`` in its ``app`` metadata), ``save``d
        before anyone hears of it. ``False``: the game was over already."""
        ref = self.referee
        async with self.moving:
            if ref.is_over:
                return False
            ref.meta["aborted"] = True
            self.touched = time.time()
            self._cancel_ai()
            save(self)
            await self._game_over()
        self.broadcast_presence()
        return True

    def _take_back(self) -> None:
        """Undo the referee's last move (it could not be saved)."""
        old = self.referee
        record = old.record()
        self.referee = Referee.from_record(self.id, record.with_moves(record.moves[:-1]))
        self.referee.save_error = old.save_error
        self._cancel_ai()

    async def _game_over(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self.takeover.clear()
        log.info("table %s: game over", self.id)
        await self.host.events.deliver(GameOver(self))

    def kick(self) -> None:
        """Start the AI if the seat to move is an AI seat or taken over."""
        ref = self.referee
        seat = ref.to_move
        if seat is None:
            return
        job = (seat, ref.move_count)
        if self._ai_job == job:
            return
        self._cancel_ai()
        if ref.is_ai(seat) or seat in self.takeover:
            self._ai_job = job
            self._ai_task = asyncio.get_running_loop().create_task(self._ai_turn(*job))

    def _cancel_ai(self) -> None:
        if self._ai_task is not None and not self._ai_task.done():
            self._ai_task.cancel()
        self._ai_task = None
        self._ai_job = None

    async def _ai_turn(self, seat: int, count: int) -> None:
        ref = self.referee
        loop = asyncio.get_running_loop()
        started = loop.time()
        view = ref.view(seat)
        bot = ref.bot(seat, self.host.ai_moves.budget)
        try:
            move = await self.host.ai_moves.choose(bot, view)  # queued, budget shared (ai_moves)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "table %s: the AI of seat %d failed; it plays a legal move", self.id, seat
            )
            move = view.legal_moves[0]
        delay = self.host.config.ai_delay - (loop.time() - started)
        if delay > 0:
            await asyncio.sleep(delay)
        if self._ai_job != (seat, count):
            return
        self._ai_job = None
        self._ai_task = None
        if not (ref.is_ai(seat) or seat in self.takeover):
            return
        if not ref.is_ai(seat):  # the takeover AI's move: the game is no longer rated
            await self.host.events.deliver(AIPlaysFor(self.id, seat))
            if self._ai_job is not None or seat not in self.takeover:
                return
        try:
            await self.play(seat, move, count)
        except Refusal as exc:  # a player's own move came first
            log.info("table %s: the AI's move was refused: %s", self.id, exc)

    def stop(self) -> None:
        """No more AI moves or takeovers (the host is closing)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._cancel_ai()
