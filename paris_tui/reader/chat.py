"""The chat at a host's table, by ear: its lines read as they come (but the muted
writers'), ``say TEXT``, ``mute NAME``, ``unmute NAME``, and ``chat``: the chat's own
history, apart from the game's events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..app.online.chat_words import Mutes, chat_problem, chat_said, chat_table, writer
from ..core.text import InvalidChatError, InvalidNameError, normalize_chat, normalize_name
from ..i18n import _
from ..net.table import Table
from . import say
from .commands import word_for
from .lines import Lines

__all__ = ["CHAT_HISTORY", "TableChat"]

CHAT_HISTORY = 10
"""How many of the latest chat lines ``chat`` says again."""


class TableChat:
    """The chat at a host's table: its lines read as they come (but the muted writers'),
    ``say TEXT``, ``mute NAME``, ``unmute NAME``. A table without chat has none of it."""

    def __init__(self, out: Lines, post: Callable[[tuple[str, Any]], None]) -> None:
        self.out = out
        self.post = post  # puts an update for the reader (a chat line: ("chat", line))
        self.table: Table | None = None
        self.heard: list[Any] = []
        self.muted = Mutes()  # the writers not read here (mute NAME; the host keeps the list)

    def listen(self, table: Table) -> None:
        """Read ``table``'s chat from now on (a new connection's, after a reconnection)."""
        self.table = table
        remote = chat_table(table)
        if remote is not None:
            if remote.chat_mutes is not None:
                self.muted.heard(remote.chat_mutes)
            remote.mutes_listeners.append(self.muted.heard)  # the host's list, as it comes
            for line in remote.chat_lines:  # those said before this reader listened
                self.post(("chat", line))
            remote.chat_listeners.append(lambda line: self.post(("chat", line)))

    @property
    def here(self) -> bool:
        """Whether the table has a chat."""
        return chat_table(self.table) is not None

    def hear(self, line: Any, names: tuple[str, ...]) -> None:
        """A chat line came: read it, unless it was already or its writer is muted."""
        if line in self.heard:
            return
        self.heard = [*self.heard[-199:], line]  # not again after a reconnection
        if line.name not in self.muted:  # (the host sends none of an account's mutes)
            self.out.say(chat_said(line, names))

    def history(self, names: tuple[str, ...]) -> list[str]:
        """``chat``: the latest lines said at the table (not the muted writers'), in order."""
        if not self.here:
            return [_("This table has no chat.")]
        lines = [chat_said(ln, names) for ln in self.heard if ln.name not in self.muted]
        if not lines:
            return [_("Nothing has been said at this table yet.")]
        return lines[-CHAT_HISTORY:]

    def watchers(self, names: tuple[str, ...]) -> list[str]:
        """The watchers who have spoken here, as their lines name them."""
        seen: list[str] = []
        for line in self.heard:
            if line.seat is None:
                who = writer(line, names)
                if who not in seen:
                    seen.append(who)
        return seen

    def command(self, command: str | None, typed: str) -> bool:
        """``say TEXT``, ``mute NAME``, ``mute`` (the list), ``unmute NAME``: done
        here, ``True``; another command, ``False``."""
        if command == "say":
            self._say(typed)
        elif command in ("mute", "unmute"):
            self._mute(typed, on=command == "mute")
        else:
            return False
        return True

    def _mute(self, typed: str, *, on: bool) -> None:
        """``mute NAME``: NAME's lines are no longer read here, and the host keeps the
        mute with the account (it then sends none of them); ``unmute NAME``: read
        again; ``mute`` alone: who is muted."""
        remote = chat_table(self.table)
        if remote is None:
            self.out.say(_("This table has no chat."))
            return
        text = typed.strip().partition(" ")[2].strip()
        if not text and on:
            kept = list(remote.chat_mutes or ())
            folded = {n.casefold() for n in kept}
            names = [*kept, *sorted(n for n in self.muted.here if n not in folded)]
            if names:
                self.out.say(_("Muted: {names}.").format(names=say.names_and(names)))
            else:
                self.out.say(_("You have muted nobody."))
            return
        try:
            name = normalize_name(text)
        except InvalidNameError:
            self.out.say(
                _("Type {mute} and a name, or {unmute} and a name.").format(
                    mute=word_for("mute"), unmute=word_for("unmute")
                )
            )
            return
        if on:
            self.muted.mute(name)
            self.out.say(_("{name}'s lines are hidden here.").format(name=name))
        else:
            self.muted.unmute(name)
            self.out.say(_("{name}'s lines are shown again.").format(name=name))
        remote.mute(name, on=on)  # kept with the account, where the host can

    def _say(self, typed: str) -> None:
        """``say TEXT``: TEXT as typed (after the command's word) is said at the table."""
        remote = chat_table(self.table)
        text = typed.strip().partition(" ")[2].strip()
        if remote is None:
            self.out.say(_("This table has no chat."))
            return
        try:
            line = normalize_chat(text)
        except InvalidChatError as exc:
            self.out.say(chat_problem(exc))
            return
        remote.say(text=line)
