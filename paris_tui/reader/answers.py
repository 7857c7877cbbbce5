"""What a player may ask at any moment of a game by ear, and type between turns: the
questions (``board``, ``status``, ``who``, ``chat`` ...), the settings (``brief``,
``verbose``, ``bell``) and ``help``. :class:`Answers` is a part of
:class:`~paris_tui.reader.play.Reader`, kept apart to keep each class short.
"""

from __future__ import annotations

from ..core import SeatView
from ..i18n import _
from ..net.table import Table
from . import say
from .chat import TableChat
from .commands import parse, switch, word_for
from .inbox import Typed
from .lines import Lines
from .news import News
from .prefs import Prefs
from .queries import answer, help_lines, who_lines
from .turn import CHAT, QUERIES, ambiguous
from .waiting import Quit

__all__ = ["Answers"]


class Answers:
    """The questions' answers, for a reader that has these parts."""

    table: Table
    out: Lines
    news: News
    chat: TableChat
    prefs: Prefs
    public: SeatView

    @property
    def local(self) -> tuple[int, ...]:
        return self.table.local_seats

    def view(self) -> SeatView:
        raise NotImplementedError

    def say(self, *lines: str) -> None:
        self.out.say(*lines)

    def _between_turns(self, line: Typed) -> None:
        parsed = parse(line.text, (*QUERIES, "help", "quit", "hint", "resign", "abort", *CHAT))
        seat = self.public.to_move
        who = say.name(self.public.names, seat) if seat is not None else ""
        if not line.text.strip():
            if seat is not None:  # an empty Enter: what is awaited, again
                self.say(_("Waiting for {player} to choose a tile.").format(player=who))
            return
        if parsed.command == "quit":
            raise Quit
        if self.chat.command(parsed.command, line.text):
            return
        if parsed.command == "help":
            self._help(turn=False)
        elif parsed.command == "resign":
            self._resign()
        elif parsed.command == "abort":
            self._abort(parsed.arg)
        elif parsed.command == "hint":
            self.say(_("A hint is for your own turn."))
        elif parsed.command in QUERIES:
            self._query(parsed.command, parsed.arg)
        elif parsed.ambiguous:
            self.say(ambiguous(parsed.ambiguous))
        else:
            self.say(
                _("It is {player}'s turn, not yours: type {help} for what you can ask.").format(
                    player=who, help=word_for("help")
                )
            )

    def _resign(self) -> None:
        """Give the game up at a host's table (the AI plays the seat to the end)."""
        agree = getattr(self.table, "agree", None)
        if getattr(self.table, "agree_allowed", False) and callable(agree):
            agree("resign")
        else:
            self.say(_("Only a player at a host's table can resign."))

    def _abort(self, arg: str) -> None:
        """``abort``: propose ending the game now, unrated, or agree to the proposal;
        ``abort no``: decline it (a host's table; every human player must agree)."""
        agree = getattr(self.table, "agree", None)
        if not (getattr(self.table, "agree_allowed", False) and callable(agree)):
            self.say(_("Only a player at a host's table can propose an abort."))
            return
        no = arg.strip().casefold() in {"no", word_for("no").casefold()}
        agree("abort", not no)

    # --- questions --------------------------------------------------------------------

    def _query(self, command: str, arg: str) -> None:
        view = self.view()
        if command == "last":
            self.news.say_last()
        elif command == "log":
            self.news.say_log(view, arg)
        elif command == "status":
            self.say(say.status_line(view))
        elif command == "who":
            self.say(*who_lines(view, self.table.seats, self.local, self.chat.watchers(view.names)))
        elif command == "chat":
            self.say(*self.chat.history(view.names))
        elif command in ("brief", "verbose", "bell"):
            self._setting(command, arg)
        else:
            self.say(*answer(view, command, arg))

    def _setting(self, command: str, arg: str) -> None:
        """``brief``, ``verbose``, ``bell on``, ``bell off``: said, and kept in the settings."""
        if command == "bell":
            on = switch(arg) if arg else None
            if on is None:
                state = _("on") if self.prefs.bell else _("off")
                self.say(
                    _("The bell is {state}. Type {bell} on or {bell} off.").format(
                        state=state, bell=word_for("bell")
                    )
                )
                return
            self.prefs.bell = self.out.bell = on
            if on:
                self.say(_("Bell on: a bell rings when it is your turn."))
            else:
                self.say(_("Bell off."))
        else:
            self.prefs.brief = self.news.brief = command == "brief"
            if self.prefs.brief:
                self.say(_("Brief: a grand or special tour is read in one line."))
            else:
                self.say(_("Verbose: a grand or special tour is read stop by stop."))
        if not self.prefs.save():
            self.say(_("The setting holds for this game only: the settings cannot be written."))

    @property
    def hints_allowed(self) -> bool:
        """Whether ``hint`` is answered with a hint here (help offers it only then)."""
        return True

    def _help(self, *, turn: bool) -> None:
        self.say(*help_lines(turn=turn, chat=self.chat.here, hints=self.hints_allowed))
