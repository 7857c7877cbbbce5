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
two could share.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..app.online.chat_words import CHAT_CODES, Mutes, chat_problem, chat_said, chat_table
from ..core import Event, Move, RoundStarted, SeatView
from ..core.text import InvalidChatError, InvalidNameError, normalize_chat, normalize_name
from ..i18n import _, ngettext
from ..net.protocol import ErrorCode, SeatInfo
from ..net.table import Table
from . import say
from .commands import match_names, parse, word_for
from .inbox import Inbox, Typed, is_deliberate, now
from .lines import Lines
from .queries import VIEW_QUERIES, answer, query_words

__all__ = ["QUERIES", "LocalBots", "Quit", "Reader"]

QUERIES = (*VIEW_QUERIES, "last", "log")
"""What may be asked at any moment (each answered from a view this terminal may read)."""

LAST_LINES = 8
"""How many of the latest announcements ``last`` says again."""

REVIEW_SIMULATIONS = 300
"""The search's simulations per move for ``review`` at the end (a few seconds a game)."""

THINKING_AFTER = 1.5
"""Seconds an AI may think before "Bob is thinking." is said (a quick one says nothing)."""


class Quit(Exception):
    """The player asked to leave (or the input ended)."""


@runtime_checkable
class LocalBots(Protocol):
    """A table whose AI seats are played in this process (as the game screen's)."""

    def local_bot(self, seat: int) -> Any: ...


CHAT = ("say", "mute", "unmute")
"""The chat's commands (at a host's table, issue 22)."""


class Reader:
    """One game, read out, from the current position to the end (or ``quit``).

    Notes for sharing with the game screen (not done here, on purpose): the
    decisions of :meth:`run` (hand-off if another human of this keyboard
    moves next, a local bot if the table has one, else wait) are the game
    screen's ``advance``; the takeover's destinations (:meth:`_destinations`)
    are its ``_destinations``; both could move to one Textual-free turn flow.
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
    ) -> None:
        self.table = table
        self.review_simulations = review_simulations
        self.out = out
        self.inbox = inbox
        self.ai_delay = ai_delay
        self.history = history
        self.follow = follow
        self.quit_words = quit_words
        self.networked = not isinstance(table, LocalBots)
        self.updates: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.seats: tuple[SeatInfo, ...] = table.seats
        self.known = len(table.events)  # the table's events announced so far
        self.public: SeatView = table.view(None)
        self.viewer: int | None = None
        self.last_human: int | None = None
        self.routes_told: set[int] = set()
        self.log: dict[int, list[str]] = {}  # round (from 1) -> its announcements
        self.recent: list[str] = []
        self.waiting_said: int | None = None
        self.gone = False
        self._in_task: asyncio.Task[Typed | None] | None = None
        self._up_task: asyncio.Task[tuple[str, Any]] | None = None
        self._hint: asyncio.Task[Any] | None = None
        self._question: asyncio.Future[bool] | None = None
        self.connection: str | None = None  # why the table cannot be reached, while so
        table.add_listener(self)
        self.chat_heard: list[Any] = []
        self.muted = Mutes()  # the writers not read here (mute NAME; the host keeps the list)
        self._hear_chat(table)

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
        self._hear_chat(table)
        self.set_connection(None)
        self.updates.put_nowait(("changed", table))
        self.updates.put_nowait(("presence", table))

    # --- table chat (issue 22): lines read as they come, ``say TEXT`` ------------------

    def _hear_chat(self, table: Table) -> None:
        remote = chat_table(table)
        if remote is not None:
            if remote.chat_mutes is not None:
                self.muted.heard(remote.chat_mutes)
            remote.mutes_listeners.append(self.muted.heard)  # the host's list, as it comes
            for line in remote.chat_lines:  # those said before this reader listened
                self.updates.put_nowait(("chat", line))
            remote.chat_listeners.append(lambda line: self.updates.put_nowait(("chat", line)))

    def _chat_command(self, command: str | None, typed: str) -> bool:
        """``say TEXT``, ``mute NAME``, ``mute`` (the list), ``unmute NAME``: done
        here, ``True``; another command, ``False``."""
        if command == "say":
            self._say_chat(typed)
        elif command in ("mute", "unmute"):
            self._mute_chat(typed, on=command == "mute")
        else:
            return False
        return True

    def _mute_chat(self, typed: str, *, on: bool) -> None:
        """``mute NAME``: NAME's lines are no longer read here, and the host keeps the
        mute with the account (it then sends none of them); ``unmute NAME``: read
        again; ``mute`` alone: who is muted."""
        remote = chat_table(self.table)
        if remote is None:
            self.say(_("This table has no chat."))
            return
        text = typed.strip().partition(" ")[2].strip()
        if not text and on:
            kept = list(remote.chat_mutes or ())
            folded = {n.casefold() for n in kept}
            names = [*kept, *sorted(n for n in self.muted.here if n not in folded)]
            if names:
                self.say(_("Muted: {names}.").format(names=say.names_and(names)))
            else:
                self.say(_("You have muted nobody."))
            return
        try:
            name = normalize_name(text)
        except InvalidNameError:
            self.say(
                _("Type {mute} and a name, or {unmute} and a name.").format(
                    mute=word_for("mute"), unmute=word_for("unmute")
                )
            )
            return
        if on:
            self.muted.mute(name)
            self.say(_("{name}'s lines are hidden here.").format(name=name))
        else:
            self.muted.unmute(name)
            self.say(_("{name}'s lines are shown again.").format(name=name))
        remote.mute(name, on=on)  # kept with the account, where the host can

    def _say_chat(self, typed: str) -> None:
        """``say TEXT``: TEXT as typed (after the command's word) is said at the table."""
        remote = chat_table(self.table)
        text = typed.strip().partition(" ")[2].strip()
        if remote is None:
            self.say(_("This table has no chat."))
            return
        try:
            line = normalize_chat(text)
        except InvalidChatError as exc:
            self.say(chat_problem(exc))
            return
        remote.say(text=line)

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

    def _announce(self, lines: Sequence[str], round_: int) -> None:
        for line in lines:
            self.log.setdefault(round_, []).append(line)
        self.recent.extend(lines)
        del self.recent[:-LAST_LINES]
        self.say(*lines)

    # --- waiting for a line, an update, or a task ----------------------------------------

    async def wait_any(self, *tasks: asyncio.Future[Any]) -> tuple[str, Any]:
        """The next thing that happens: ``("update", item)``, ``("line", Typed)`` (``None`` when
        the input ended) or ``("task", task)``. Updates come first."""
        while True:
            if self._up_task is None:
                self._up_task = asyncio.ensure_future(self.updates.get())
            if self._in_task is None:
                self._in_task = asyncio.ensure_future(self.inbox.get())
            waiting: set[asyncio.Future[Any]] = {self._up_task, self._in_task, *tasks}
            done, _pending = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if self._up_task in done:
                item = self._up_task.result()
                self._up_task = None
                return "update", item
            for task in tasks:
                if task in done:
                    return "task", task
            line = self._in_task.result()
            self._in_task = None
            if line is None and self._question is not None and not self._question.done():
                self._question.set_result(False)
            if line is not None and self._answered(line):
                continue  # the answer to a yes-or-no question (the connection's)
            return "line", line

    async def ask_yes_no(self, question: str) -> bool:
        """Ask ``question``; the next ``yes`` or ``no`` typed answers it (False at the end of
        input). The game's own lines wait meanwhile."""
        loop = asyncio.get_running_loop()
        self._question = loop.create_future()
        self.say(
            question,
            _("Type {yes} or {no}.").format(yes=word_for("yes"), no=word_for("no")),
        )
        try:
            return bool(await self._question)
        finally:
            self._question = None

    def _answered(self, line: Typed) -> bool:
        question = self._question
        if question is None or question.done():
            return False
        parsed = parse(line.text, ("yes", "no", "quit"))
        if parsed.command == "yes":
            question.set_result(True)
        elif parsed.command in ("no", "quit"):
            question.set_result(False)
        else:
            self.say(_("Type {yes} or {no}.").format(yes=word_for("yes"), no=word_for("no")))
        return True

    def set_connection(self, problem: str | None) -> None:
        """The table cannot be reached (``problem``), or can again (None): no move is sent
        meanwhile."""
        if problem is None and self.connection is not None:
            self.say(_("The connection is back."))
        self.connection = problem

    def _drop_typed_ahead(self) -> None:
        self.inbox.flush()
        if self._in_task is not None and self._in_task.done():
            if self._in_task.result() is None:
                return  # the end of input is kept
            self._in_task = None

    def handle_update(self, item: tuple[str, Any]) -> None:
        kind, value = item
        if kind == "changed":
            table: Table = value
            events = table.events
            new = events[self.known :]
            self.known = len(events)
            before = self.public
            self.public = table.view(None)
            if new:
                self._say_events(before, new)
        elif kind == "refused":
            self.say(_("Move refused: {reason}.").format(reason=str(value).rstrip(".")))
        elif kind == "presence":
            self._presence(value.seats)
        elif kind == "chat" and value not in self.chat_heard:
            self.chat_heard = [*self.chat_heard[-199:], value]  # not again after a reconnection
            if value.name not in self.muted:  # (the host sends none of an account's mutes)
                self.say(chat_said(value, self.public.names))
        elif kind == "not_said":
            self.say(_("Not said: {reason}.").format(reason=str(value).rstrip(".")))
        elif kind == "closed":
            pass  # the link (if any) says so and reconnects; see follow
        elif kind == "gone":
            self.gone = True

    def _say_events(self, before: SeatView, events: Sequence[Event]) -> None:
        """Announce one update's events, each under the round it belongs to."""
        chunk: list[Event] = []
        round_ = before.round + 1
        for event in events:
            if isinstance(event, RoundStarted):
                if chunk:
                    self._announce(say.announce(self.public, chunk), round_)
                chunk = []
                round_ = event.round + 1
            chunk.append(event)
        if chunk:
            self._announce(say.announce(self.public, chunk), round_)

    def _presence(self, seats: tuple[SeatInfo, ...]) -> None:
        old = self.seats
        self.seats = seats
        for seat, info in enumerate(seats):
            was = old[seat].status if seat < len(old) else None
            if was == info.status or seat in self.local:
                continue
            if info.status != "present" or was is not None:
                self._presence_line(seat, info.status)

    def _presence_line(self, seat: int, status: str) -> None:
        who = say.name(self.public.names, seat)
        if status == "away":
            self.say(_("{player} is away.").format(player=who))
        elif status == "takeover":
            self.say(_("{player} is away: an AI plays for them.").format(player=who))
        elif status == "present":
            self.say(_("{player} is back.").format(player=who))

    # --- the game -----------------------------------------------------------------------

    async def run(self) -> int:
        """Play to the end (0), or until ``quit`` or the end of input (0 too)."""
        follow = None
        if self.follow is not None:
            follow = asyncio.ensure_future(self.follow(self))
        try:
            self._intro()
            while True:
                await self._drain()
                if self.gone and not self.table.view(None).is_over:
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
            self._farewell()
            return 0
        finally:
            for task in (self._in_task, self._up_task, self._hint, follow):
                if task is not None and not task.done():
                    task.cancel()

    async def _drain(self) -> None:
        """Announce every update that came and is not told yet."""
        if self._up_task is not None and self._up_task.done():
            item = self._up_task.result()
            self._up_task = None
            self.handle_update(item)
        while not self.updates.empty():
            self.handle_update(self.updates.get_nowait())

    def _intro(self) -> None:
        view = self.table.view(None)
        names = say.names_and([say.name(view.names, s) for s in range(view.players)])
        self.say(_("Paris Paris, by ear. Players: {names}.").format(names=names))
        if view.moves:
            n = len(view.moves)
            self.say(ngettext("Resumed after {n} move.", "Resumed after {n} moves.", n).format(n=n))
        if len(self.local) == 1:
            self.viewer = self.local[0]
        if not self.local:
            self.say(_("You are watching: you see what everyone at the table sees."))
        for seat, info in enumerate(self.seats):
            if seat not in self.local and info.status in ("away", "takeover"):
                self._presence_line(seat, info.status)
        self.say(
            _("Type {help} for the commands, {quit} to leave.").format(
                help=word_for("help"), quit=word_for("quit")
            )
        )
        if view.is_over:
            return
        if not view.moves or view.face_up:
            self.say(*say.announce(view, [RoundStarted(view.round, view.starter, view.face_up)]))

    def _farewell(self) -> None:
        if self.quit_words:
            self.say(self.quit_words)

    # --- hot-seat hand-off --------------------------------------------------------------

    async def _handoff(self, seat: int) -> None:
        """Nothing secret until the player whose turn it is presses a deliberate Enter."""
        self.viewer = None
        who = say.name(self.public.names, seat)
        self.say(
            _("Pass to {player}. {player}, press Enter when only you are listening.").format(
                player=who
            )
        )
        self._drop_typed_ahead()
        since = now()
        warned = False
        previous: Typed | None = None
        while True:
            kind, item = await self.wait_any()
            if kind == "update":
                self.handle_update(item)
                continue
            line = self._line(item)
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

    def _line(self, item: Typed | None) -> Typed:
        if item is None:
            raise Quit
        return item

    # --- a human turn ------------------------------------------------------------------

    async def _turn(self, seat: int) -> None:
        self.viewer = seat
        self.last_human = seat
        began = now()
        view = self.table.view(seat)
        self.say(*say.turn_lines(view, yours=True))
        if seat not in self.routes_told:
            self.routes_told.add(seat)
            self.say(*say.route_lines(view)[:1])
        choices: list[Move] | None = None  # a takeover's choices, while asked
        count = self.table.move_count
        while True:
            kind, item = await self.wait_any()
            if kind == "update":
                self.handle_update(item)
                if self.table.move_count != count or self.table.view(None).is_over:
                    return
                if item[0] == "gone":
                    return
                continue
            line = self._line(item)
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
                self._cancel_hint()
                self.table.submit(seat, move, count)
                if await self._answer(count):
                    if self.hot_seat:
                        self.viewer = None
                    return
                choices = None

    async def _answer(self, count: int) -> bool:
        """Wait for the table's answer to a move: True once it was made, False if refused."""
        while True:
            kind, item = await self.wait_any()
            if kind == "update":
                self.handle_update(item)
                if item[0] == "refused":
                    return False
                if self.table.move_count != count or item[0] == "gone":
                    return True
                continue
            line = self._line(item)
            parsed = parse(line.text, (*QUERIES, "quit", "help", *CHAT))
            if parsed.command == "quit":
                raise Quit
            if self._chat_command(parsed.command, line.text):
                pass
            elif parsed.command in QUERIES:
                self._query(parsed.command, parsed.arg)
            elif line.text.strip():
                self.say(_("Your move is on its way."))

    def turn_command(
        self, text: str, view: SeatView, choices: list[Move] | None
    ) -> tuple[Move | None, list[Move] | None]:
        """A line typed on a turn: a move to submit, or an answer (and the choices still open)."""
        allowed = (*QUERIES, "hint", "help", "quit", "cancel", *CHAT)
        parsed = parse(text, allowed)
        if not text.strip():
            return None, choices
        if parsed.command in CHAT and parsed.exact:  # typed in full: never a stop's start
            self._chat_command(parsed.command, text)
            return None, choices
        if choices is not None:
            if parsed.number is not None:
                if 1 <= parsed.number <= len(choices):
                    return choices[parsed.number - 1], None
                self.say(
                    _("Type a number from 1 to {n}, or {cancel}.").format(
                        n=len(choices), cancel=word_for("cancel")
                    )
                )
                return None, choices
            if parsed.command == "cancel":
                self.say(_("Choose a tile again."))
                return None, None
        if parsed.number is not None:
            if 1 <= parsed.number <= len(view.face_up):
                return self._take(view, parsed.number - 1)
            self.say(self._what_would(view))
            return None, choices
        if parsed.command is not None and parsed.exact:
            return self._turn_word(parsed.command, parsed.arg, view, choices)
        stops = [t.split("/", 1)[0] for t in view.face_up]
        shown = [say.stop_name(view.board, s) for s in stops]
        found = match_names(text, shown)
        tiles = {view.face_up[i] for i in found}
        commands = parsed.ambiguous or ((parsed.command,) if parsed.command else ())
        if tiles and commands:
            # "q" could be quit or Quartier Latin: a move cannot be taken back, so ask.
            self.say(
                _("That could be {commands} or the tile {tiles}: type more of it.").format(
                    commands=say.names_and([word_for(c) for c in commands]),
                    tiles=say.names_and([shown[i] for i in found]),
                )
            )
            return None, choices
        if len(tiles) == 1:
            return self._take(view, found[0])
        if len(tiles) > 1:
            options = _("; ").join(say.tile_line(view, i).rstrip(".") for i in found)
            self.say(_("More than one tile fits: {tiles}. Type its number.").format(tiles=options))
            return None, choices
        if parsed.command is not None:
            return self._turn_word(parsed.command, parsed.arg, view, choices)
        if parsed.ambiguous:
            self.say(self._ambiguous(parsed.ambiguous))
            return None, choices
        self.say(self._what_would(view))
        return None, choices

    def _turn_word(
        self, command: str, arg: str, view: SeatView, choices: list[Move] | None
    ) -> tuple[Move | None, list[Move] | None]:
        if command == "quit":
            raise Quit
        if command == "hint":
            self._ask_hint(view)
        elif command == "help":
            self._help(turn=True)
        elif command == "cancel":
            self.say(_("Nothing to cancel: choose a tile."))
        else:
            self._query(command, arg)
        return None, choices

    def _take(self, view: SeatView, index: int) -> tuple[Move | None, list[Move] | None]:
        tile = view.face_up[index]
        moves = [m for m in view.legal_moves if m.tile == tile]
        if not moves:
            self.say(_("That tile cannot be taken now."))
            return None, None
        if len(moves) == 1:
            return moves[0], None
        stop = say.stop_name(view.board, tile.split("/", 1)[0])
        going = self._destinations(view, moves)
        options = []
        for n, move in enumerate(moves, start=1):
            assert move.evict is not None
            owner = say.name(view.names, move.evict)
            if going.get(move.evict) == "sack":
                text = _("{n}: remove {player}'s business, it goes into the sack")
            else:
                text = _("{n}: remove {player}'s business, it goes back to {player}'s supply")
            options.append(text.format(n=n, player=owner))
        self.say(
            _("{stop} is full. Whose business do you remove?").format(stop=stop),
            _("; ").join(options) + ".",
            _("Type the number, or {cancel}.").format(cancel=word_for("cancel")),
        )
        return None, moves

    @staticmethod
    def _destinations(view: SeatView, moves: list[Move]) -> dict[int, str]:
        """Where each removed business would go, as the core says (R4): the game screen's
        ``_destinations`` (to share)."""
        from ..core import BusinessRemoved
        from ..core.sampling import Determinizer

        base = Determinizer(view).base
        out: dict[int, str] = {}
        for move in moves:
            assert move.evict is not None
            probe = base.copy()
            for event in probe.play(move):
                if isinstance(event, BusinessRemoved):
                    out[move.evict] = event.to
        return out

    def _what_would(self, view: SeatView) -> str:
        n = len(view.face_up)
        return _(
            "Type a tile's number from 1 to {n} or the start of its stop's name, "
            "{tiles} to hear them, or {help}."
        ).format(n=n, tiles=word_for("tiles"), help=word_for("help"))

    def _ambiguous(self, commands: Sequence[str]) -> str:
        return _("That could be {commands}: type more of it.").format(
            commands=say.names_and([word_for(c) for c in commands])
        )

    # --- the hint -----------------------------------------------------------------------

    @property
    def hints_allowed(self) -> bool:
        return not self.networked or bool(getattr(self.table, "hints_allowed", False))

    def _ask_hint(self, view: SeatView) -> None:
        if not self.hints_allowed:
            self.say(_("This host does not allow hints."))
            return
        if self._hint is not None and not self._hint.done():
            self.say(_("The hint is still being worked out."))
            return
        self.say(_("Working out a hint."))
        self._hint = asyncio.ensure_future(self._work_out_hint(view))

    def _cancel_hint(self) -> None:
        if self._hint is not None and not self._hint.done():
            self._hint.cancel()
        self._hint = None

    async def _work_out_hint(self, view: SeatView) -> None:
        from ..ai.hint import HintCancelled, hint

        stop = False
        count = self.table.move_count

        def cancelled() -> bool:
            return stop

        try:
            result = await asyncio.to_thread(hint, view, cancelled=cancelled)
        except asyncio.CancelledError:
            stop = True
            raise
        except (HintCancelled, ValueError):
            return
        if self.table.move_count != count:
            return
        from paris_tui.app.look.hint_words import margin_text, reason_text

        best = view.face_up.index(result.best.tile)
        lines = [
            _("Hint: take {tile}, expected final margin {margin}.").format(
                tile=say.tile_line(view, best).rstrip("."),
                margin=margin_text(result.for_move(result.best).margin),
            ),
            _("Why: {reason}.").format(
                reason=reason_text(view.board, view.names, result.seat, result.reason)
            ),
        ]
        others = [
            _("{n} {margin}").format(
                n=view.face_up.index(m.move.tile) + 1, margin=margin_text(m.margin)
            )
            for m in result.moves
            if m.move != result.best
        ]
        if others:
            lines.append(_("The other tiles: {tiles}.").format(tiles=_("; ").join(others)))
        self.say(*lines)

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
                kind, item = await self.wait_any(task, timer)
                if kind == "task" and item is timer:
                    self.say(
                        _("{player} is thinking.").format(player=say.name(self.public.names, seat))
                    )
                    timer = asyncio.ensure_future(asyncio.sleep(3600))
                elif kind == "update":
                    self.handle_update(item)
                elif kind == "line":
                    self._between_turns(self._line(item))
            move = task.result()
            if self.ai_delay > 0:
                pause: asyncio.Future[None] = asyncio.ensure_future(asyncio.sleep(self.ai_delay))
                while not pause.done():
                    kind, item = await self.wait_any(pause)
                    if kind == "line":
                        self._between_turns(self._line(item))
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
            kind, item = await self.wait_any()
            if kind == "update":
                self.handle_update(item)
                if self.table.move_count != count or self.gone:
                    return
                continue
            self._between_turns(self._line(item))

    def _between_turns(self, line: Typed) -> None:
        parsed = parse(line.text, (*QUERIES, "help", "quit", "hint", *CHAT))
        if not line.text.strip():
            return
        if parsed.command == "quit":
            raise Quit
        if self._chat_command(parsed.command, line.text):
            return
        if parsed.command == "help":
            self._help(turn=False)
        elif parsed.command == "hint":
            self.say(_("A hint is for your own turn."))
        elif parsed.command in QUERIES:
            self._query(parsed.command, parsed.arg)
        elif parsed.ambiguous:
            self.say(self._ambiguous(parsed.ambiguous))
        else:
            self.say(
                _("It is not your turn: type {help} for what you can ask.").format(
                    help=word_for("help")
                )
            )

    # --- questions --------------------------------------------------------------------

    def _query(self, command: str, arg: str) -> None:
        view = self.view()
        if command == "last":
            self.say(*(self.recent or [_("Nothing has happened yet.")]))
        elif command == "log":
            self._log_query(view, arg)
        else:
            self.say(*answer(view, command, arg))

    def _log_query(self, view: SeatView, arg: str) -> None:
        current = min(view.round + 1, view.rounds_total)
        digits = arg.strip()
        if not digits.isdigit() or not 1 <= int(digits) <= current:
            self.say(
                _("Type {log} and a round's number from 1 to {n}.").format(
                    log=word_for("log"), n=current
                )
            )
            return
        lines = self.log.get(int(digits))
        if not lines:
            self.say(_("Nothing was said in round {n} at this terminal.").format(n=digits))
            return
        self.say(*lines)

    def _help(self, *, turn: bool) -> None:
        w = word_for
        lines = []
        if turn:
            lines.append(
                _("On your turn: a tile's number, or the start of its stop's name, takes it.")
            )
        lines.append(
            _(
                "{board}, {line} and a line's name, {stop} and a stop's name, {tiles}, {scores}, "
                "{route}, {discard}, {sack}: the game as it is now."
            ).format(**query_words())
        )
        lines.append(
            _(
                "{last}: the latest events again; {log} and a number: that round again; "
                "{hint}: a suggestion on your turn; {quit}: leave."
            ).format(last=w("last"), log=w("log"), hint=w("hint"), quit=w("quit"))
        )
        if chat_table(self.table) is not None:
            lines.append(
                _("{say} and a text: say it at the table; everyone there reads it.").format(
                    say=w("say")
                )
            )
            lines.append(
                _(
                    "{mute} and a name: that player's lines are no longer read to you "
                    "(kept with your account); {unmute} and a name: read again; "
                    "{mute} alone: who is muted."
                ).format(mute=w("mute"), unmute=w("unmute"))
            )
        lines.append(_("Words may be shortened; English words work in every language."))
        self.say(*lines)

    # --- the end ------------------------------------------------------------------------

    async def _end(self) -> None:
        public = self.table.view(None)
        self.viewer = None
        self.say(*say.end_lines(public))
        self.say(*say.route_lines(public))
        if public.players > 2:
            self.say(*say.sack_lines(public))
        self._remember(public)
        chat = chat_table(self.table) is not None
        # At a host's table the players talk after the game too (issue 22): say TEXT.
        allowed = ("review", "quit", "help", *QUERIES, *(CHAT if chat else ()))
        self.say(
            _("Type {review} for the strong AI's view of the moves, or {quit} to leave.").format(
                review=word_for("review"), quit=word_for("quit")
            )
        )
        if chat:
            self.say(
                _("{say} and a text says it at the table, as during the game.").format(
                    say=word_for("say")
                )
            )
        while True:
            kind, item = await self.wait_any()
            if kind == "update":
                self.handle_update(item)
                continue
            if item is None:
                return
            parsed = parse(item.text, allowed)
            if parsed.command == "quit":
                return
            if parsed.command == "review":
                await self._review(public)
            elif self._chat_command(parsed.command, item.text):
                pass
            elif parsed.command in QUERIES:
                self._query(parsed.command, parsed.arg)
            elif item.text.strip():
                self.say(
                    _("Type {review}, {scores}, or {quit}.").format(
                        review=word_for("review"), scores=word_for("scores"), quit=word_for("quit")
                    )
                )

    def _remember(self, public: SeatView) -> None:
        history = self.history
        local = tuple(self.local)
        if history is None or not local:
            return
        kinds = [info.kind for info in self.table.seats]
        mode = (
            "network"
            if self.networked
            else "ai"
            if any(k != "human" for k in kinds)
            else ("hot-seat")
        )
        with contextlib.suppress(Exception):
            history.add(public, list(self.table.events), kinds, mode=mode, local_seats=local)

    async def _review(self, public: SeatView) -> None:
        from ..ai.review import review
        from ..core.record import Player, Record
        from ..core.sampling import Determinizer

        self.say(_("Reviewing the game: this takes a few seconds."))
        game = Determinizer(public).base
        kinds = [info.kind for info in self.table.seats]
        players = tuple(Player(n, k) for n, k in zip(public.names, kinds, strict=True))
        record = Record.from_game(game, players)
        seats = self.local or tuple(range(public.players))
        reviews = await asyncio.to_thread(
            review, record, seats=seats, simulations=self.review_simulations
        )
        self.say(*review_lines(public, reviews, seats))


def review_lines(view: SeatView, reviews: Sequence[Any], seats: Sequence[int]) -> list[str]:
    """Per seat: the mean loss, and its three costliest moves against the strong AI's choice."""
    out: list[str] = []
    for seat in seats:
        mine = [r for r in reviews if r.seat == seat]
        if not mine:
            continue
        mean = sum(r.loss for r in mine) / len(mine)
        out.append(
            _(
                "{player}: a mean loss of {loss} points a move against the strong AI's choice."
            ).format(player=say.name(view.names, seat), loss=f"{mean:.1f}")
        )
        worst = sorted((r for r in mine if r.loss > 0.05), key=lambda r: -r.loss)[:3]
        for r in worst:
            out.append(
                _(
                    "Move {n}: {player} took {played}; the AI preferred {best}; about {loss} "
                    "points lost."
                ).format(
                    n=r.index + 1,
                    player=say.name(view.names, seat),
                    played=_move_name(view, r.played),
                    best=_move_name(view, r.best),
                    loss=f"{r.loss:.1f}",
                )
            )
    return out


def _move_name(view: SeatView, move: Move) -> str:
    """``Opéra, Blue line``, with whose business it removes when it removes one."""
    tile = say.tile_name(view.board, move.tile)
    if move.evict is None:
        return tile
    return _("{tile}, removing {player}'s business").format(
        tile=tile, player=say.name(view.names, move.evict)
    )
