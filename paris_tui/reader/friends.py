"""The screen reader's friends, in the host's lobby: ``friends`` reads the list and the
requests both ways; ``friends NAME`` asks that account (or accepts its request; a
friend's name, or one asked, removes them) and says what happened, in words.

Friends are two accounts that both asked: only they are told when the other is
here (docs/security.md).
"""

from __future__ import annotations

import contextlib

from paris_tui.app.online.friends_words import done_words, friends_sentences, refused_words

from ..core.text import InvalidNameError, normalize_name, printable
from ..i18n import _
from ..net.client import HostClient, HostClosedError, TokenStore
from ..net.protocol import FriendsInfo, FriendsRequest, ProtocolError, Refused
from ..wording import name_problem
from .commands import word_for
from .lines import Lines

__all__ = ["ReaderFriends"]

TIMEOUT = 10.0
MAX_SKIPPED = 200  # other messages (a table list's answer, presence) before the answer


class ReaderFriends:
    """One lobby's friends: the last list the host sent, and the requests."""

    def __init__(
        self,
        client: HostClient,
        tokens: TokenStore | None,
        address: str,
        ticket: str | None,
    ) -> None:
        self.client = client
        self.tokens = tokens
        self.address = address
        self.ticket = ticket
        self.info: FriendsInfo | None = None

    def _token(self, name: str) -> str | None:
        kept = None
        if self.tokens is not None:
            with contextlib.suppress(OSError):
                kept = self.tokens.get(self.address, name)
        return kept or self.ticket

    async def command(self, name: str, arg: str, out: Lines) -> bool:
        """``friends`` (``arg`` empty) or ``friends NAME`` as ``name``; ``False``: the
        host closed the connection."""
        welcome = self.client.welcome
        if welcome is None or welcome.protocol < 4:
            out.say(_("This host keeps no friends, or you are not known here yet."))
            return True
        friend: str | None = None
        action = "show"
        if arg.strip():
            try:
                friend = normalize_name(arg)
            except InvalidNameError as exc:
                out.say(name_problem(exc))
                return True
            known = self.info
            mine = [] if known is None else [n for n, _h in known.friends] + list(known.asked)
            have = any(n.casefold() == friend.casefold() for n in mine)
            action = "remove" if have else "add"
        self.client.send(FriendsRequest(name, self._token(name), action, friend))
        try:
            for _skipped in range(MAX_SKIPPED):
                message = await self.client.receive(TIMEOUT)
                if isinstance(message, Refused):
                    if friend is not None:
                        out.say(refused_words(message, friend))
                    else:
                        out.say(_("This host keeps no friends, or you are not known here yet."))
                    return True
                if isinstance(message, FriendsInfo) and message.arrived is not None:
                    out.say(_("{name} is here.").format(name=printable(message.arrived)))
                elif isinstance(message, FriendsInfo):
                    self._heard(name, message, out, answer=friend is None)
                    return True
                elif self.client.hear is not None:
                    self.client.hear(message)  # a round opened meanwhile, say
        except (HostClosedError, ProtocolError, OSError, TimeoutError):
            out.say(_("The host closed the connection."))
            return False
        return True

    def _heard(self, name: str, info: FriendsInfo, out: Lines, *, answer: bool) -> None:
        self.info = info
        if info.token is not None and self.tokens is not None:
            with contextlib.suppress(OSError):
                self.tokens.put(self.address, name, info.token)
        done = done_words(info)
        if info.done == "asking":  # the reader's way to accept
            done = _("{name} asks to be your friend: {friends} {name} accepts.").format(
                name=printable(info.friend or ""), friends=word_for("friends")
            )
        if done is not None:
            out.say(done)
        if answer or done is None:
            out.say(*friends_sentences(info))
