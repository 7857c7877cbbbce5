"""Table chat's words, for every front end (the game screen, the screen reader mode).

A canned phrase travels as its id (:data:`~paris_tui.net.protocol.CHAT_PHRASES`);
each reader sees it in their own language here. A line's text is the writer's
own, checked by the core's chat rule on the host and again on arrival
(:func:`~paris_tui.core.text.normalize_chat`), and is never formatted into
markup: the game screen draws it as Rich ``Text``, the reader says it as a
plain line.
"""

from __future__ import annotations

from paris_tui.core.text import InvalidChatError
from paris_tui.i18n import N_, _
from paris_tui.net.protocol import ChatLine
from paris_tui.net.table import RemoteTable

__all__ = [
    "CHAT_CODES",
    "PHRASE_WORDS",
    "Mutes",
    "chat_problem",
    "chat_said",
    "chat_table",
    "phrase_words",
    "speaking_as",
    "writer",
]

PHRASE_WORDS = {
    "hello": N_("Hello!"),
    "good_luck": N_("Good luck!"),
    "your_turn": N_("Your turn."),
    "well_played": N_("Well played!"),
    "thanks": N_("Thanks!"),
    "good_game": N_("Good game!"),
}
"""Each canned phrase's words (translated where drawn: each reader's language)."""
CHAT_CODES = frozenset({"bad_chat", "chat_limited", "muted"})
"""Refusals that only a chat line gets."""


class Mutes:
    """The writers hidden on this terminal (the chat pane's, the screen reader's): the
    account's list as the host keeps it, and the names muted here in this run that
    the host did not keep (a watcher with no account, a name that is no account).
    Names are compared casefolded. The host itself sends no line of a writer the
    account mutes; this is what a terminal hides besides (and at once)."""

    def __init__(self) -> None:
        self.kept: set[str] = set()
        self.here: set[str] = set()

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str) or not name:
            return False
        key = name.casefold()
        return key in self.kept or key in self.here

    def names(self) -> set[str]:
        return self.kept | self.here

    def mute(self, name: str) -> None:
        self.here.add(name.casefold())

    def unmute(self, name: str) -> None:
        self.here.discard(name.casefold())
        self.kept.discard(name.casefold())

    def heard(self, names: tuple[str, ...]) -> None:
        """The host's list (its answer, or sent after ``seated``)."""
        self.kept = {n.casefold() for n in names}
        self.here -= self.kept


def chat_table(table: object) -> RemoteTable | None:
    """``table`` if it is a host's table whose host speaks chat, else ``None``."""
    if isinstance(table, RemoteTable) and table.chat_allowed:
        return table
    return None


def phrase_words(phrase: str) -> str:
    """A canned phrase in the current language (an unknown id as itself)."""
    words = PHRASE_WORDS.get(phrase)
    return _(words) if words is not None else phrase


def writer(line: ChatLine, names: tuple[str, ...] = ()) -> str:
    """Who said ``line``: the seat's name, ``Zoe (watching)``, or ``A watcher``."""
    if line.seat is not None:
        return names[line.seat] if line.seat < len(names) else line.name
    if line.name:
        return _("{name} (watching)").format(name=line.name)
    return _("A watcher")


def speaking_as(table: RemoteTable, *, over: bool) -> str | None:
    """How a watcher's lines show, said in the chat prompt (a seat's: ``None``, they
    show under the seat's name). A name is an account: a watcher whose name
    nothing proves (no token, no door's key) chats as "A watcher"."""
    if table.local_seats:
        return None
    name, token = table.chat_as if table.chat_as is not None else (None, None)
    if name is not None and token is not None:
        if over:
            return _("You watch as {name}: your lines show under that name.").format(name=name)
        return _(
            "You watch as {name}: until the game ends, your lines reach the watchers only."
        ).format(name=name)
    return _(
        "You watch without an account: your lines show as “A watcher”. "
        "To chat under a name, sit at a table once under it."
    )


def chat_said(line: ChatLine, names: tuple[str, ...] = ()) -> str:
    """The line as one plain sentence: ``Ann says: Thanks!`` (the screen reader's)."""
    said = phrase_words(line.phrase) if line.phrase is not None else (line.text or "")
    if line.channel == "watchers":
        return _("{writer} says to the watchers: {text}").format(
            writer=writer(line, names), text=said
        )
    return _("{writer} says: {text}").format(writer=writer(line, names), text=said)


def chat_problem(exc: InvalidChatError) -> str:
    """Why a line is not sent, in the current language."""
    match exc.code:
        case "blank":
            return _("The line is empty.")
        case "control":
            return _("The line holds a character that is not text ({char}).").format(
                char=exc.params.get("char", "?")
            )
        case _:
            return _("The line is too long.")
