"""A recorded game step by step, read out: ``next`` (or Enter) and ``back``.

The record holds the whole game; what is read is each position's public
view (:meth:`~paris_tui.core.Game.view` with ``None``) and each move's
events, replayed by the core (:func:`~paris_tui.core.record.replay`).
"""

from __future__ import annotations

from ..core import Event, RoundStarted, SeatView
from ..core.record import Record, replay
from ..i18n import _
from . import say
from .commands import parse, word_for
from .inbox import Inbox
from .lines import Lines
from .queries import VIEW_QUERIES, answer, query_words

__all__ = ["ReplayReader"]

QUERIES = VIEW_QUERIES


class ReplayReader:
    """Steps through ``record``: position ``at`` is after ``at`` moves."""

    def __init__(self, record: Record, out: Lines, inbox: Inbox) -> None:
        self.record = record
        self.out = out
        self.inbox = inbox
        game = replay(record, upto=0)
        self.views: list[SeatView] = [game.view(None)]
        self.events: list[list[Event]] = []
        for move in record.moves:
            self.events.append(list(game.play(move)))
            self.views.append(game.view(None))
        self.at = 0

    @property
    def total(self) -> int:
        return len(self.record.moves)

    def _position(self) -> str:
        return _("Position after move {n} of {total}.").format(n=self.at, total=self.total)

    async def run(self) -> int:
        view = self.views[0]
        names = say.names_and([say.name(view.names, s) for s in range(view.players)])
        self.out.say(
            _("Replay of a game of {names}: {total} moves.").format(names=names, total=self.total),
            _(
                "Type {next} or press Enter for the next move, {back} to go back, {help} for more."
            ).format(next=word_for("next"), back=word_for("back"), help=word_for("help")),
        )
        self.out.say(*say.announce(view, [RoundStarted(view.round, view.starter, view.face_up)]))
        allowed = ("next", "back", "help", "quit", *QUERIES)
        while True:
            line = await self.inbox.get()
            if line is None:
                return 0
            parsed = parse(line.text, allowed)
            if not line.text.strip() or parsed.command == "next":
                self._next()
            elif parsed.command == "back":
                self._back()
            elif parsed.command == "quit":
                return 0
            elif parsed.command == "help":
                self.out.say(
                    _(
                        "{next} or Enter: the next move; {back}: one move back; {quit}: leave."
                    ).format(next=word_for("next"), back=word_for("back"), quit=word_for("quit")),
                    _(
                        "{board}, {line}, {stop}, {tiles}, {scores}, {route}, {discard}, {sack}: "
                        "the position as it is."
                    ).format(**query_words()),
                )
            elif parsed.command in QUERIES:
                self._query(parsed.command, parsed.arg)
            elif parsed.number is not None and 0 <= parsed.number <= self.total:
                self.at = parsed.number
                self.out.say(self._position(), *say.score_lines(self.views[self.at])[:1])
            else:
                self.out.say(
                    _("Type {next}, {back}, a move's number from 0 to {n}, or {help}.").format(
                        next=word_for("next"),
                        back=word_for("back"),
                        n=self.total,
                        help=word_for("help"),
                    )
                )

    def _next(self) -> None:
        if self.at >= self.total:
            self.out.say(_("That was the last move."), *say.end_lines(self.views[-1]))
            return
        before = self.views[self.at]
        self.at += 1
        self.out.say(_("Move {n} of {total}.").format(n=self.at, total=self.total))
        self.out.say(*say.announce(before, self.events[self.at - 1]))
        if self.at == self.total:
            end = self.views[-1]
            self.out.say(*say.end_lines(end), *say.route_lines(end))
            if end.players > 2:
                self.out.say(*say.sack_lines(end))

    def _back(self) -> None:
        if self.at == 0:
            self.out.say(_("This is the start of the game."))
            return
        self.at -= 1
        self.out.say(self._position(), *say.score_lines(self.views[self.at])[:1])

    def _query(self, command: str, arg: str) -> None:
        self.out.say(*answer(self.views[self.at], command, arg))
