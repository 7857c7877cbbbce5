"""The game by ear: a front end on a :class:`~paris_tui.net.table.Table` that speaks in lines.

:class:`Reader` is the screen reader's counterpart of the game screen
(``paris_tui.app.screens.game``) on the same interface: it submits moves
with :meth:`Table.submit`, learns what happened as the table's listener,
and reads only :class:`~paris_tui.core.SeatView` s (R8): the seat whose turn
it is once its hand-off is passed, the one seat of a networked player or of
a player against AI, else the public view. It holds no rules: the table's
referee checks every move, the core words nothing, :mod:`.say` makes the
sentences.

The turn flow (whose turn, the hot-seat hand-off, a local AI's move in a
thread, waiting for another terminal's seat, the end) is the game screen's,
without its drawing; see the module's notes at :class:`Reader` for what the
two could share. Its parts: :mod:`.waiting` (the next update or line),
:mod:`.news` (the events and presence read out, ``last``, ``log``),
:mod:`.turn` (what a line typed on a turn takes), :mod:`.hint`, :mod:`.end`
(the history, ``review``), :mod:`.finish` (the end said, and what comes after), and
:class:`TableChat` here (a host's table chat).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

from ..app.online.chat_words import CHAT_CODES
from ..core import Event, Move, RoundStarted, SeatView, printable
from ..i18n import _, ngettext
from ..net.protocol import ErrorCode
from ..net.table import Table
from ..net.tournaments_wire import RoundStart
from . import say
from .chat import TableChat
from .commands import Parsed, parse, word_for
from .end import REVIEW_SIMULATIONS
from .finish import Finish
from .hint import Hints
from .inbox import Inbox, Typed, is_deliberate, now
from .lines import Lines
from .news import News
from .prefs import Prefs
from .rematch import agreement_line
from .tournaments import seat_line
from .turn import CHAT, QUERIES, TurnInput
from .waiting import Quit, Waiting, typed_or_quit

__all__ = ["QUERIES", "LocalBots", "Quit", "Reader", "TableChat"]

THINKING_AFTER = 1.5
"""Seconds an AI may think before "Bob is thinking." is said (a quick one says nothing)."""


@runtime_checkable
class LocalBots(Protocol):
    """A table whose AI seats are played in this process (as the game screen's)."""

    def local_bot(self, seat: int) -> Any: ...


class Reader(Finish):
    """One game, read out, from the current position to the end (or ``quit``).

    The decisions of :meth:`run` (hand-off if another human of this keyboard
    moves next, a local bot if the table has one, else wait) are those of the
    game screen's turn flow (:mod:`paris_tui.app.play.turns`); the takeover's
    destinations are the core's (:func:`~paris_tui.core.analysis.eviction_destinations`).
    """

    def __init__(
        self,
        table: Table,
        out: Lines,
        inbox: Inbox,
        *,
        ai_delay: float = 0.0,
        history: Any = None,
        follow: Callable[[Reader], Awaitable[None]] | None = None,
        quit_words: str | None = None,
        review_simulations: int = REVIEW_SIMULATIONS,
        prefs: Prefs | None = None,
    ) -> None:
        self.table = table
        self.prefs = prefs if prefs is not None else Prefs()
        out.bell = self.prefs.bell
        self.review_simulations = review_simulations
        self.out = out
        self.ai_delay = ai_delay
        self.history = history
        self.follow = follow
        self.quit_words = quit_words
        self.networked = not isinstance(table, LocalBots)
        self.waiting = Waiting(inbox, out)
        self.updates = self.waiting.updates  # the table's updates, for this reader to read
        self.news = News(out, len(table.events), table.seats)
        self.news.brief = self.prefs.brief
        self.end_told = False  # the end's block (scores, winner, routes) was said
        self.turn_input = TurnInput(out)
        self.hints = Hints(out, lambda: self.table.move_count)
        self.public: SeatView = table.view(None)
        self.viewer: int | None = None
        self.last_human: int | None = None
        self.routes_told: set[int] = set()
        self.waiting_said: int | None = None
        self.gone = False
        self.aborted = False  # every player agreed to abort (a host's table): it ends here
        self.connection: str | None = None  # why the table cannot be reached, while so
        table.add_listener(self)
        self.chat = TableChat(out, self.updates.put_nowait)
        self.chat.listen(table)
        self.next_table: str | None = None  # the rematch's, once every player agreed
        self._hear_agreements(table)

    def _hear_agreements(self, table: Table) -> None:
        """A host's table's rematch and resignations (protocol 5) come as updates."""
        listeners = getattr(table, "agreement_listeners", None)
        if isinstance(listeners, list):
            listeners.append(lambda said: self.updates.put_nowait(("agreement", said)))
        rounds = getattr(table, "round_listeners", None)  # a tournament's round, elsewhere
        if isinstance(rounds, list):
            rounds.append(self._round_opened)

    def _round_opened(self, start: RoundStart) -> None:
        """A tournament's round seats the player at another table: said at once in one
        line (the bell first, when on), the lobby's words and the way there."""
        names = self.public.names
        me = names[self.local[0]] if self.local and self.local[0] < len(names) else None
        self.out.ring()
        line = say.sentences(
            seat_line(start, me), _("{quit} goes to the lobby first.").format(quit=word_for("quit"))
        )
        kept = self.out.names
        self.out.names = (*kept, printable(start.name), *(printable(n) for n in start.seats))
        try:
            self.out.say(line)
        finally:
            self.out.names = kept

    # --- the table's listener ---------------------------------------------------------

    def table_changed(self, table: Table, events: tuple[Event, ...]) -> None:
        self.updates.put_nowait(("changed", table))

    def table_refused(self, table: Table, code: ErrorCode, message: str) -> None:
        self.updates.put_nowait(("not_said" if code in CHAT_CODES else "refused", message))

    def table_presence(self, table: Table) -> None:
        self.updates.put_nowait(("presence", table))

    def table_closed(self, table: Table, reason: str) -> None:
        self.updates.put_nowait(("closed", reason))

    def rebind(self, table: Table) -> None:
        """The same game on a new connection: what happened meanwhile is announced next."""
        self.table = table
        table.add_listener(self)
        self.chat.listen(table)
        self._hear_agreements(table)
        self.set_connection(None)
        self.updates.put_nowait(("changed", table))
        self.updates.put_nowait(("presence", table))
        self.updates.put_nowait(("status", table))  # where it stands, after what was missed

    def handle_update(self, item: tuple[str, Any]) -> None:
        kind, value = item
        if kind == "changed":
            table: Table = value
            before = self.public
            self.public = table.view(None)
            self.news.told(before, self.public, table.events)
            if self.public.is_over:
                self._end_block()  # right after "The game is over.", nothing between
        elif kind == "refused":
            self.say(_("Move refused: {reason}.").format(reason=str(value).rstrip(".")))
        elif kind == "presence":
            self.news.presence(value.seats, self.local, self.public.names)
        elif kind == "chat":
            self.chat.hear(value, self.public.names)
        elif kind == "not_said":
            self.say(_("Not said: {reason}.").format(reason=str(value).rstrip(".")))
        elif kind == "status":
            if not self.public.is_over:
                self.say(say.status_line(self.public))
        elif kind == "closed":
            pass  # the link (if any) says so and reconnects; see follow
        elif kind == "gone":
            self.gone = True
        elif kind == "agreement":
            self.say(agreement_line(value, self.public.names))
            if value.what == "rematch" and value.to is not None:
                self.next_table = value.to
            if value.what == "abort" and value.to is not None:
                self.aborted = self.gone = True  # said: the game is over, unrated

    # --- what may be read ---------------------------------------------------------------

    @property
    def local(self) -> tuple[int, ...]:
        return self.table.local_seats

    @property
    def hot_seat(self) -> bool:
        return len(self.local) > 1

    def view(self) -> SeatView:
        """The view this terminal may read now: the viewer's, else the public one."""
        if self.viewer is not None and self.viewer in self.local:
            return self.table.view(self.viewer)
        return self.table.view(None)

    def say(self, *lines: str) -> None:
        self.out.say(*lines)

    async def ask_yes_no(self, question: str) -> bool:
        """Ask ``question``; the next ``yes`` or ``no`` typed answers it (False at the end of
        input). The game's own lines wait meanwhile."""
        return await self.waiting.ask_yes_no(question)

    def set_connection(self, problem: str | None) -> None:
        """The table cannot be reached (``problem``), or can again (None): no move is sent
        meanwhile."""
        if problem is None and self.connection is not None:
            self.say(_("The connection is back."))
        self.connection = problem

    # --- the game -----------------------------------------------------------------------

    async def run(self) -> int:
        """Play to the end (0), or until ``quit`` or the end of input (0 too)."""
        follow = None
        if self.follow is not None:
            follow = asyncio.ensure_future(self.follow(self))
        try:
            self._intro()
            while True:
                for item in self.waiting.pending():  # every update not told yet
                    self.handle_update(item)
                if self.gone and not self.table.view(None).is_over:
                    if not self.aborted:
                        self.say(_("The table is gone for this terminal."))
                    return 0
                public = self.table.view(None)
                self.public = public
                if public.is_over:
                    await self._end()
                    return 0
                seat = public.to_move
                assert seat is not None
                if seat in self.local:
                    if self.hot_seat and self.last_human != seat:
                        await self._handoff(seat)
                    await self._turn(seat)
                elif isinstance(self.table, LocalBots):
                    await self._ai_turn(seat, self.table)
                else:
                    await self._wait_for(seat)
        except Quit:
            if self.quit_words:
                self.say(self.quit_words)
            return 0
        finally:
            self.waiting.close()
            self.hints.cancel()
            if follow is not None and not follow.done():
                follow.cancel()

    def _intro(self) -> None:
        view = self.table.view(None)
        names = say.names_and([say.name(view.names, s) for s in range(view.players)])
        self.say(_("Paris Paris, by ear. Players: {names}.").format(names=names))
        self.out.names = [say.name(view.names, s) for s in range(view.players)]
        if view.moves:
            n = len(view.moves)
            self.say(ngettext("Resumed after {n} move.", "Resumed after {n} moves.", n).format(n=n))
        if len(self.local) == 1:
            self.viewer = self.local[0]
        if not self.local:
            self.say(_("You are watching: you see what everyone at the table sees."))
        if view.moves and not view.is_over:
            self.say(say.status_line(view))
        self.news.away(self.local, self.public.names)
        self.say(
            _("Type {help} for the commands, {quit} to leave.").format(
                help=word_for("help"), quit=word_for("quit")
            )
        )
        if view.is_over:
            return
        if not view.moves or view.face_up:
            self.say(*say.announce(view, [RoundStarted(view.round, view.starter, view.face_up)]))

    # --- hot-seat hand-off --------------------------------------------------------------

    async def _handoff(self, seat: int) -> None:
        """Nothing secret until the player whose turn it is presses a deliberate Enter."""
        self.viewer = None
        who = say.name(self.public.names, seat)
        # Nothing of the player before stays on the screen or in its scrollback (a
        # screen reader's review cursor reads both); the events are said again by `last`.
        # Before the first turn nothing secret was shown: the welcome stays.
        if self.routes_told:
            self.out.clear()
        self.out.ring()
        prompt = _("Pass to {player}. {player}, press Enter when only you are listening.").format(
            player=who
        )
        self.say(prompt)
        self.waiting.drop_typed_ahead()
        since = now()
        warned = False
        previous: Typed | None = None
        while True:
            kind, item = await self.waiting.next()
            if kind == "update":
                if self._interrupted(item):
                    self.say(prompt)
                continue
            line = typed_or_quit(item)
            deliberate = is_deliberate(line, previous, since)
            previous = line
            if not deliberate:
                if not warned:
                    warned = True
                    self.say(_("Too soon: wait a moment, then press Enter."))
                continue
            parsed = parse(line.text, ("quit", "help", *QUERIES))
            if parsed.command == "quit":
                raise Quit
            if not line.text.strip():
                break
            if parsed.command == "help":
                self._help(turn=False)
                continue
            if parsed.command in QUERIES and parsed.command != "route":
                self._query(parsed.command, parsed.arg)  # public: nobody's turn is shown yet
                continue
            self.say(_("Press Enter to start {player}'s turn.").format(player=who))
        self.last_human = seat

    # --- a human turn ------------------------------------------------------------------

    async def _turn(self, seat: int) -> None:
        self.viewer = seat
        self.last_human = seat
        began = now()
        view = self.table.view(seat)
        if not self.hot_seat:
            self.out.ring()
        self.say(*say.turn_lines(view, yours=True))
        if seat not in self.routes_told:
            self.routes_told.add(seat)
            self.say(*say.route_lines(view)[:1])
        choices: list[Move] | None = None  # a takeover's choices, while asked
        count = self.table.move_count
        while True:
            kind, item = await self.waiting.next()
            if kind == "update":
                interrupted = self._interrupted(item)
                if self.table.move_count != count or self.table.view(None).is_over:
                    return
                if item[0] == "gone" or self.gone:
                    return
                if interrupted and item[0] != "changed":
                    self._ask_again(seat, choices, whole=False)
                continue
            line = typed_or_quit(item)
            if not line.text.strip():
                if line.time >= began:
                    self._ask_again(seat, choices, whole=True)  # an empty Enter: the question again
                continue
            if line.time < began:  # a move typed before the turn is not taken; a quit is
                if parse(line.text, ("quit",)).command == "quit":
                    raise Quit
                if line.text.strip():
                    self.say(_("That was typed before your turn began; type it again."))
                continue
            view = self.table.view(seat)
            move, choices = self.turn_command(line.text, view, choices)
            if move is not None and self.connection is not None:
                self.say(_("The connection is lost: type your move again once it is back."))
                continue
            if move is not None:
                self.hints.cancel()
                self.table.submit(seat, move, count)
                if await self._answer(count):
                    if self.hot_seat:
                        self.viewer = None
                    return
                choices = None

    def _interrupted(self, item: tuple[str, Any]) -> bool:
        """Tell ``item``; True if a line was said for it (a question asked before is then
        asked again: it is no longer the last thing heard)."""
        said = len(self.out.said)
        self.handle_update(item)
        return len(self.out.said) > said

    def _ask_again(self, seat: int, choices: list[Move] | None, *, whole: bool) -> None:
        """The turn's question again: the takeover's choice while it is asked, else whose
        turn it is (``whole``: with the tiles)."""
        if choices is not None and self.turn_input.asked:
            self.say(*self.turn_input.asked)
            return
        lines = say.turn_lines(self.table.view(seat), yours=True)
        self.say(*(lines if whole else lines[:1]))

    async def _answer(self, count: int) -> bool:
        """Wait for the table's answer to a move: True once it was made, False if refused."""
        while True:
            kind, item = await self.waiting.next()
            if kind == "update":
                self.handle_update(item)
                if item[0] == "refused":
                    return False
                if self.table.move_count != count or item[0] == "gone" or self.gone:
                    return True
                continue
            line = typed_or_quit(item)
            parsed = parse(line.text, (*QUERIES, "quit", "help", *CHAT))
            if parsed.command == "quit":
                raise Quit
            if self.chat.command(parsed.command, line.text):
                pass
            elif parsed.command in QUERIES:
                self._query(parsed.command, parsed.arg)
            elif line.text.strip():
                self.say(_("Your move is on its way."))

    def turn_command(
        self, text: str, view: SeatView, choices: list[Move] | None
    ) -> tuple[Move | None, list[Move] | None]:
        """A line typed on a turn: a move to submit, or an answer (and the choices still open)."""
        move, choices, word = self.turn_input.read(text, view, choices)
        if word is not None:
            self._turn_word(word, text, view)
        return move, choices

    def _turn_word(self, word: Parsed, text: str, view: SeatView) -> None:
        """A command word typed on a turn. A chat's comes here typed in full, or
        shortened where no face-up tile's stop starts so (:class:`~.turn.TurnInput`
        has looked): ``mut bob`` mutes, as between turns."""
        if self.chat.command(word.command, text):
            return
        command = word.command
        if command == "quit":
            raise Quit
        if command == "hint":
            self.hints.ask(view, allowed=self.hints_allowed)
        elif command == "help":
            self._help(turn=True)
        elif command == "cancel":
            self.say(_("Nothing to cancel: choose a tile."))
        elif command == "abort":
            self._abort(word.arg)
        else:
            assert command is not None
            self._query(command, word.arg)

    @property
    def hints_allowed(self) -> bool:
        return not self.networked or bool(getattr(self.table, "hints_allowed", False))

    # --- an AI's turn, another terminal's turn ---------------------------------------------

    async def _ai_turn(self, seat: int, bots: LocalBots) -> None:
        count = self.table.move_count
        view = self.table.view(seat)
        try:
            bot = bots.local_bot(seat)
        except (ImportError, ValueError) as exc:
            self.say(_("AI unavailable: {problem}").format(problem=exc))
            raise Quit from None
        task: asyncio.Future[Move] = asyncio.ensure_future(asyncio.to_thread(bot.choose, view))
        timer: asyncio.Future[None] = asyncio.ensure_future(asyncio.sleep(THINKING_AFTER))
        try:
            while not task.done():
                kind, item = await self.waiting.next(task, timer)
                if kind == "task" and item is timer:
                    self.say(
                        _("{player} is thinking.").format(player=say.name(self.public.names, seat))
                    )
                    timer = asyncio.ensure_future(asyncio.sleep(3600))
                elif kind == "update":
                    self.handle_update(item)
                elif kind == "line":
                    self._between_turns(typed_or_quit(item))
            move = task.result()
            if self.ai_delay > 0:
                pause: asyncio.Future[None] = asyncio.ensure_future(asyncio.sleep(self.ai_delay))
                while not pause.done():
                    kind, item = await self.waiting.next(pause)
                    if kind == "line":
                        self._between_turns(typed_or_quit(item))
                    elif kind == "update":
                        self.handle_update(item)
        finally:
            timer.cancel()
        if self.table.move_count == count:
            self.table.submit(seat, move, count)

    async def _wait_for(self, seat: int) -> None:
        count = self.table.move_count
        if self.waiting_said != count:
            self.waiting_said = count
            self.say(
                _("Waiting for {player} to choose a tile.").format(
                    player=say.name(self.public.names, seat)
                )
            )
        while True:
            kind, item = await self.waiting.next()
            if kind == "update":
                self.handle_update(item)
                if self.table.move_count != count or self.gone:
                    return
                continue
            self._between_turns(typed_or_quit(item))
