"""What every player of a table agrees to: a rematch once the game is over (the
same players, a new deal, the seats' order turned by one), and, from the same
word on the wire, an agreed abort (every human seat agrees; no winner, unrated) and
a resignation while it runs
(``agree``/``agreement``, protocol 5: :mod:`paris_tui.net.endings_wire`).

The words are kept per table while the host runs (a restart forgets them: each
player says it again). Each change is told to everyone at the table who speaks
protocol 5; a rematch is opened as the operator's tables are (saved at once),
and everyone is told its table, where the seat of each name waits for it.
"""

from __future__ import annotations

import logging

from paris_tui.core.dealing import SeatSpec
from paris_tui.host.config import TableConflictError
from paris_tui.host.connection import Connection
from paris_tui.host.ports import AgreementsHost
from paris_tui.host.referee import Refusal
from paris_tui.host.room import Room
from paris_tui.net.endings_wire import ENDINGS_VERSION, Agree, Agreement, AgreeWhat

__all__ = ["Agreements", "rematch_seats"]

log = logging.getLogger("paris_tui.host")


def rematch_seats(room: Room) -> list[SeatSpec]:
    """The rematch's seats: the same players (and AI levels), the order turned by one
    (the second seat starts the deal's first round now)."""
    players = room.referee.players
    seats = [SeatSpec(p.name, p.kind) for p in players]
    return seats[1:] + seats[:1]


class Agreements:
    """Who agrees to what at each table, and what follows once everyone did."""

    def __init__(self, host: AgreementsHost) -> None:
        self.host = host
        self.agreed: dict[tuple[str, AgreeWhat], set[int]] = {}
        self.rematches: dict[str, str] = {}  # a finished table -> its rematch's

    async def agree(self, conn: Connection, message: Agree) -> None:
        """``conn``'s seat says ``message.what`` (or takes it back)."""
        room, seat = conn.room, conn.seat
        if room is None or seat is None:
            raise Refusal("not_seated", "only a player at a table agrees to its end")
        if message.what == "rematch":
            self._rematch(room, seat, message.yes)
        elif message.what == "resign":
            await self._resign(room, seat, message.yes)
        else:
            await self._abort(room, seat, message.yes)

    async def _abort(self, room: Room, seat: int, yes: bool) -> None:
        """``seat`` proposes or agrees to end the game now (``yes=False``: declines, and
        the proposal is gone for everyone). Once every human seat agreed, the game
        ends aborted: no winner, unrated, the record says so. AI seats (and seats
        the AI plays after a resignation) do not vote; moves do not cancel it."""
        if room.referee.is_over:
            raise Refusal("game_over", "the game is over: nothing to abort")
        if seat in room.resigned:
            raise Refusal("not_seated", "a player who resigned does not vote on an abort")
        key: tuple[str, AgreeWhat] = (room.id, "abort")
        if not yes:
            if self.agreed.pop(key, None):
                log.info("table %s: seat %d declined the abort", room.id, seat)
            self.tell(room, "abort", set())
            return
        agreed = self.agreed.setdefault(key, set())
        agreed.add(seat)
        voters = self._humans(room) - room.resigned
        if not voters <= agreed:
            self.tell(room, "abort", agreed)
            return
        self.agreed.pop(key, None)

        def save(room: Room) -> None:
            try:
                self.host.save_table(room)
            except OSError as exc:  # the record on disk still says it runs
                log.error("table %s: could not save the abort: %s", room.id, exc)

        if await room.abort(save):
            log.info("table %s: every player agreed, the game is aborted", room.id)
            self.tell(room, "abort", voters, room.id)

    async def _resign(self, room: Room, seat: int, yes: bool) -> None:
        """``seat`` gives the game up: the AI plays it to the end, and the ratings take
        it as a leaver (ranked last; the game unrated for everyone)."""
        if room.referee.is_over:
            raise Refusal("game_over", "the game is over: nothing to resign")
        if not yes or seat in room.resigned:
            return  # a resignation is not taken back
        room.resign(seat)
        try:
            self.host.save_table(room)
        except OSError as exc:  # the next move saves it again
            log.error("table %s: could not save the resignation: %s", room.id, exc)
        log.info("table %s: seat %d resigned, the AI plays it to the end", room.id, seat)
        self.tell(room, "resign", set(room.resigned))

    def _humans(self, room: Room) -> set[int]:
        return set(room.referee.human_seats)

    def _rematch(self, room: Room, seat: int, yes: bool) -> None:
        if room.referee.tournament is not None:  # its next round pairs the players again
            raise Refusal(
                "tournament_table", "a tournament's table has no rematch: the next round pairs you"
            )
        if not room.referee.is_over:
            raise Refusal("not_started", "the game is not over: a rematch comes after it")
        done = self.rematches.get(room.id)
        if done is not None:
            self.tell(room, "rematch", self._humans(room), done)
            return
        agreed = self.agreed.setdefault((room.id, "rematch"), set())
        if yes:
            agreed.add(seat)
        else:
            agreed.discard(seat)
        if not self._humans(room) <= agreed:
            self.tell(room, "rematch", agreed)
            return
        referee = room.referee
        try:
            new = self.host.open_table(
                rematch_seats(room),
                options=referee.view(None).options,
                move_time=self.host.table_move_time(room),
            )
        except TableConflictError as exc:
            agreed.clear()
            self.tell(room, "rematch", agreed)
            raise Refusal("name_in_use", f"{exc}: no rematch now") from None
        except OSError as exc:
            log.error("table %s: the rematch could not be saved: %s", room.id, exc)
            raise Refusal("unavailable", "the host cannot save a new table now") from None
        self.rematches[room.id] = new.id
        self.agreed.pop((room.id, "rematch"), None)
        log.info("table %s: every player agreed to a rematch: table %s", room.id, new.id)
        self.tell(room, "rematch", agreed, new.id)

    def tell(self, room: Room, what: AgreeWhat, seats: set[int], to: str | None = None) -> None:
        """Everyone at ``room`` who speaks protocol 5 hears who agrees to ``what``
        (an abort agreed by everyone: ``to`` is the table itself, the game ended)."""
        message = Agreement(room.id, what, tuple(sorted(seats)), to)
        for conn in (*room.seated.values(), *room.watchers):
            if conn.protocol >= ENDINGS_VERSION:
                conn.send(message)
