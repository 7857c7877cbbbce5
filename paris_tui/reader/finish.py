"""The end of a game by ear, as the reader says it: the result, the routes and the sack
in one block, then what a player may still do (``review``, the questions, ``say`` at a
host's table, ``rematch``). :class:`Finish` is a part of
:class:`~paris_tui.reader.play.Reader`, kept apart to keep each class short.
"""

from __future__ import annotations

from typing import Any

from ..i18n import _
from . import say
from .answers import Answers
from .commands import parse, word_for
from .end import remember, review
from .queries import end_help_lines, rematch_line
from .turn import CHAT, QUERIES
from .waiting import Waiting

__all__ = ["Finish"]


class Finish(Answers):
    """The game's end, for a reader that has these parts."""

    waiting: Waiting
    history: Any
    networked: bool
    review_simulations: int
    end_told: bool
    viewer: int | None
    next_table: str | None

    def handle_update(self, item: tuple[str, Any]) -> None:
        raise NotImplementedError

    def _end_block(self) -> None:
        """The result, the routes and the sack, once, as one block."""
        if self.end_told:
            return
        self.end_told = True
        public = self.table.view(None)
        lines = [*say.end_lines(public), *say.route_lines(public)]
        if public.players > 2:
            lines.extend(say.sack_lines(public))
        self.say(*lines)

    def _host_gone(self) -> bool:
        """The host's table's connection is gone (a local table has none to lose)."""
        return getattr(self.table, "closed_reason", None) is not None

    async def _end(self) -> None:
        public = self.table.view(None)
        self.viewer = None
        self._end_block()
        remember(self.history, self.table, public, tuple(self.local), networked=self.networked)
        chat = self.chat.here
        # At a host's table the players talk after the game too: say TEXT.
        rematch = bool(getattr(self.table, "rematch_allowed", False))  # no tournament's
        allowed = ("review", "quit", "help", *QUERIES, *(CHAT if chat else ()))
        allowed += ("rematch",) if rematch else ()
        prompt = [
            _("Type {review} for the strong AI's view of the moves, or {quit} to leave.").format(
                review=word_for("review"), quit=word_for("quit")
            )
        ]
        if chat:
            prompt.append(
                _("{say} and a text says it at the table, as during the game.").format(
                    say=word_for("say")
                )
            )
        if rematch:
            prompt.append(rematch_line())
        self.say(*prompt)
        while True:
            kind, item = await self.waiting.next()
            if kind == "update":
                self.handle_update(item)
                if self.next_table is not None:
                    return
                continue
            if item is None:
                return
            parsed = parse(item.text, allowed)
            if not item.text.strip():
                self.say(*prompt)
                continue
            if parsed.command == "quit":
                return
            if parsed.command == "help":
                self.say(*end_help_lines(chat=chat, rematch=rematch))
                continue
            if parsed.command in ("rematch", *CHAT) and self._host_gone():
                # The end does not join again: neither word would reach anyone.
                self.say(
                    _(
                        "The host cannot be reached: no rematch nor chat from here; {quit} leaves."
                    ).format(quit=word_for("quit"))
                )
            elif parsed.command == "rematch":
                self.table.agree("rematch")  # type: ignore[attr-defined]
            elif parsed.command == "review":
                self.say(_("Reviewing the game: this takes a few seconds."))
                seats = self.local or tuple(range(public.players))
                self.say(*await review(self.table, public, seats, self.review_simulations))
            elif self.chat.command(parsed.command, item.text):
                pass
            elif parsed.command in QUERIES:
                self._query(parsed.command, parsed.arg)
            elif item.text.strip():
                self.say(
                    _("Type {review}, {scores}, {help} for all you can ask, or {quit}.").format(
                        review=word_for("review"),
                        scores=word_for("scores"),
                        help=word_for("help"),
                        quit=word_for("quit"),
                    )
                )
