"""The end of a game on the game screen: the end screen over it (with the host's rating
of the game once it comes), and the game kept in the player's history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paris_tui.app.local.history import History, HistoryError
from paris_tui.app.local.session import points_by_kind
from paris_tui.app.online.chat import Mutes, chat_table

from ...core import printable
from ...i18n import _
from ...net.endings_wire import Agreement
from ...net.table import Table
from ...net.tournaments_wire import RoundStart
from .end import EndScreen
from .end_abort import AbortedScreen, abort_words

if TYPE_CHECKING:
    from .game_host import GameHost

__all__ = ["GameEnd"]


def round_at_table_words(start: RoundStart, me: str | None) -> str:
    """``Tournament Winter Cup, round 2: you sit at table t9 with bob. q (to the lobby),
    then j takes you there.`` (plain: said with markup off)."""
    key = (me or "").casefold()
    others = [
        printable(n) for i, n in enumerate(start.seats) if i != start.seat and n.casefold() != key
    ]
    return _(
        "Tournament {tournament}, round {n}: you sit at table {table} with {others}. "
        "{key} takes you there."
    ).format(
        tournament=printable(start.name),
        n=start.round,
        table=start.table,
        others=", ".join(others) or "?",
        key=_("q (to the lobby), then j"),
    )


class GameEnd:
    """The end of the game on the game screen ``screen``."""

    def __init__(self, screen: GameHost) -> None:
        self._screen = screen
        self.aborted = False
        self.follow(screen.flow.table)

    def follow(self, table: Table) -> None:
        """Hear the abort's proposals at a host's table (protocol 5), on each connection."""
        listeners = getattr(table, "agreement_listeners", None)
        if isinstance(listeners, list):
            listeners.append(self._heard)
        rounds = getattr(table, "round_listeners", None)  # a tournament's round, elsewhere
        if isinstance(rounds, list):
            rounds.append(self._round)

    def _round(self, start: RoundStart) -> None:
        """A tournament's round opened with this player at another table: said at once
        (the lobby's words; ``q`` goes there, where ``j`` takes the seat)."""
        table = self._screen.flow.table
        seats = table.local_seats
        names = table.view(None).names
        me = names[seats[0]] if seats and seats[0] < len(names) else None
        self._screen.notify(
            round_at_table_words(start, me), title=_("Tournament"), markup=False, timeout=60
        )

    def _heard(self, agreement: Agreement) -> None:
        """A proposal to abort, a decline, or the abort itself: said, or the end shown."""
        if agreement.what != "abort" or self.aborted:
            return
        screen = self._screen
        table = screen.flow.table
        if agreement.table != table.table_id:
            return
        public = table.view(None)
        seats = table.local_seats
        if agreement.to is not None:
            self.aborted = True
            screen.app.push_screen(AbortedScreen(public, getattr(table, "rated", None)))
            return
        text = abort_words(agreement, public.names, seats[0] if seats else None)
        screen.notify(text.plain, title=_("Abort"), markup=False, timeout=10)

    def show(self, *, step: float, muted: Mutes | None) -> None:
        """The end screen over the game (its tours ``step`` apart; the chat's ``muted``
        names shared), and the game kept in the history."""
        screen = self._screen
        flow = screen.flow
        public = flow.public
        screen.app.push_screen(
            EndScreen(
                public,
                flow.events,
                points_by_kind(public.players, flow.events),
                step=step,
                play_again=not flow.networked,
                rated=getattr(flow.table, "rated", None),
                chat=chat_table(flow.table),
                muted=muted,
            )
        )
        self._remember()

    def rated(self, table: Table) -> None:
        """A host's table tells how the game was rated: the end screen shows it."""
        rated = getattr(table, "rated", None)
        if rated is not None:
            for screen in self._screen.app.screen_stack:
                if isinstance(screen, EndScreen | AbortedScreen):
                    screen.set_rated(rated)

    def _remember(self) -> None:
        """Keep the finished game in the player's history (in a thread; never fatal)."""
        screen = self._screen
        history: History | None = getattr(screen.app, "history", None)
        if history is None:
            return
        game = screen.flow.remembered()
        if game is None:
            return  # a watcher's game is not theirs

        async def remember() -> None:
            try:
                await game.keep(history)
            except HistoryError as exc:
                screen.notify(
                    str(exc), title=_("History not updated"), severity="warning", markup=False
                )

        screen.run_worker(remember(), group="history", exit_on_error=False)
