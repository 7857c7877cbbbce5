"""A table in this process: the referee itself behind the :class:`~paris_tui.net.table.Table`
interface (boardgame.io's ``LocalMaster``), for a game on one terminal.

Every human seat is local (hot-seat). The AI seats are not played here:
the caller runs them (as the app's game screen does today) and submits
their moves like any other seat's.
"""

from __future__ import annotations

from ..core import Event, Move, SeatView
from ..net.protocol import SeatInfo
from ..net.table import Table, TableListener
from ..wording import refusal_reason
from .referee import Referee, Refusal

__all__ = ["LocalTable"]


class LocalTable:
    """:class:`~paris_tui.net.table.Table` over a :class:`Referee` in this process."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self._listeners: list[TableListener] = []

    @property
    def table_id(self) -> str:
        return self.referee.table_id

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(
            SeatInfo(p.name, p.kind, "ai" if p.is_ai else "present") for p in self.referee.players
        )

    @property
    def local_seats(self) -> tuple[int, ...]:
        return self.referee.human_seats

    def view(self, seat: int | None) -> SeatView:
        return self.referee.view(seat)

    @property
    def events(self) -> tuple[Event, ...]:
        return self.referee.events

    @property
    def move_count(self) -> int:
        return self.referee.move_count

    def submit(self, seat: int, move: Move, move_count: int) -> None:
        try:
            events = tuple(self.referee.submit(seat, move, move_count))
        except Refusal as exc:
            for listener in list(self._listeners):
                words = refusal_reason(exc.code, exc.message, exc.illegal)
                listener.table_refused(self, exc.code, words)
            return
        for listener in list(self._listeners):
            listener.table_changed(self, events)

    def add_listener(self, listener: TableListener) -> None:
        self._listeners.append(listener)


def _check(table: LocalTable) -> Table:  # mypy: LocalTable is a Table
    return table
