"""What happens next at this terminal: an update from the table, a line typed, or a task
done; and the yes-or-no questions asked meanwhile.

The table's listener puts its updates on :attr:`Waiting.updates` (``("changed",
table)``, ``("refused", message)``, ...); the lines come from the :class:`~.inbox.Inbox`.
:meth:`Waiting.next` gives whichever comes first, updates before lines, and keeps
the answers to a pending :meth:`Waiting.ask_yes_no` for itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

from ..i18n import _
from .commands import parse, word_for
from .inbox import Inbox, Typed
from .lines import Lines

__all__ = ["Quit", "Waiting", "typed_or_quit"]


class Quit(Exception):
    """The player asked to leave (or the input ended)."""


def typed_or_quit(item: Typed | None) -> Typed:
    """A line typed; the end of input (None) is a :class:`Quit`."""
    if item is None:
        raise Quit
    return item


class Waiting:
    """The updates that came and the lines typed, one at a time, as they happen."""

    def __init__(self, inbox: Inbox, out: Lines) -> None:
        self.inbox = inbox
        self.out = out
        self.updates: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._in_task: asyncio.Task[Typed | None] | None = None
        self._up_task: asyncio.Task[tuple[str, Any]] | None = None
        self._question: asyncio.Future[bool] | None = None

    async def next(self, *tasks: asyncio.Future[Any]) -> tuple[str, Any]:
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

    def pending(self) -> Iterator[tuple[str, Any]]:
        """Every update that came and was not given yet, in order."""
        if self._up_task is not None and self._up_task.done():
            item = self._up_task.result()
            self._up_task = None
            yield item
        while not self.updates.empty():
            yield self.updates.get_nowait()

    async def ask_yes_no(self, question: str) -> bool:
        """Ask ``question``; the next ``yes`` or ``no`` typed answers it (False at the end of
        input). The game's own lines wait meanwhile."""
        loop = asyncio.get_running_loop()
        self._question = loop.create_future()
        self.out.say(
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
            self.out.say(_("Type {yes} or {no}.").format(yes=word_for("yes"), no=word_for("no")))
        return True

    def drop_typed_ahead(self) -> None:
        """Forget the lines typed so far (but not the end of input)."""
        self.inbox.flush()
        if self._in_task is not None and self._in_task.done():
            if self._in_task.result() is None:
                return  # the end of input is kept
            self._in_task = None

    def close(self) -> None:
        """Stop waiting for a line or an update."""
        for task in (self._in_task, self._up_task):
            if task is not None and not task.done():
                task.cancel()
