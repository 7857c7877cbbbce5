"""Typed commands: short, forgiving, in the player's language and always in English too.

A line the player types (and confirms with Enter) is read by
:func:`parse`: a number (a tile, or a numbered choice), a command word with
its argument (``line blue``, ``stop opera``, ``log 3``), or anything else,
which the caller may try as the start of a face-up tile's stop name
(:func:`match_stops`). Words are compared without case and accents
(``opera`` is ``Opéra``, ``zuruck`` is ``zurück``), and a command may be
shortened to any start that names only it (``sc`` is ``scores``).

The typed text is the player's own: it is compared, never executed, and
never written back except escaped (:func:`~paris_tui.core.text.printable`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..i18n import pgettext

__all__ = ["COMMANDS", "Parsed", "fold", "match_names", "parse", "switch", "word_for"]

COMMANDS: dict[str, str] = {
    name: name
    for name in (
        "board",
        "line",
        "stop",
        "tiles",
        "scores",
        "route",
        "discard",
        "sack",
        "last",
        "log",
        "hint",
        "help",
        "quit",
        "next",
        "back",
        "review",
        "yes",
        "no",
        "cancel",
        "watch",
        "new",
        "say",
        "mute",
        "unmute",
        "status",
        "who",
        "chat",
        "brief",
        "verbose",
        "bell",
        "open",
        "friends",
        "rematch",
        "resign",
        "abort",
        "tournaments",
        "tournament",
        "enter",
        "withdraw",
        "sit",
        "replay",
    )
}
"""Each command's id, which is also its English word (always accepted)."""


def _translated(command: str) -> str:
    """The command's word in the current language (each marked with the context ``command``)."""
    words = {
        "board": pgettext("command", "board"),
        "line": pgettext("command", "line"),
        "stop": pgettext("command", "stop"),
        "tiles": pgettext("command", "tiles"),
        "scores": pgettext("command", "scores"),
        "route": pgettext("command", "route"),
        "discard": pgettext("command", "discard"),
        "sack": pgettext("command", "sack"),
        "last": pgettext("command", "last"),
        "log": pgettext("command", "log"),
        "hint": pgettext("command", "hint"),
        "help": pgettext("command", "help"),
        "quit": pgettext("command", "quit"),
        "next": pgettext("command", "next"),
        "back": pgettext("command", "back"),
        "review": pgettext("command", "review"),
        "yes": pgettext("command", "yes"),
        "no": pgettext("command", "no"),
        "cancel": pgettext("command", "cancel"),
        "rematch": pgettext("command", "rematch"),
        "resign": pgettext("command", "resign"),
        "abort": pgettext("command", "abort"),
        "watch": pgettext("command", "watch"),
        "new": pgettext("command", "new"),
        "say": pgettext("command", "say"),
        "mute": pgettext("command", "mute"),
        "unmute": pgettext("command", "unmute"),
        "status": pgettext("command", "status"),
        "who": pgettext("command", "who"),
        "chat": pgettext("command", "chat"),
        "brief": pgettext("command", "brief"),
        "verbose": pgettext("command", "verbose"),
        "bell": pgettext("command", "bell"),
        "open": pgettext("command", "open"),
        "friends": pgettext("command", "friends"),
        "tournaments": pgettext("command", "tournaments"),
        "tournament": pgettext("command", "tournament"),
        "enter": pgettext("command", "enter"),
        "withdraw": pgettext("command", "withdraw"),
        "sit": pgettext("command", "sit"),
        "replay": pgettext("command", "replay"),
    }
    return words[command]


def word_for(command: str) -> str:
    """The command's word in the current language (what help and hints say)."""
    return _translated(command)


def fold(text: str) -> str:
    """``text`` for comparing: no case, no accents, hyphens and apostrophes as spaces, and
    German's spellings without umlauts the same as with (``plaettchen`` is ``Plättchen``:
    ``ae``, ``oe``, ``ue`` fold to the bare vowel, as ``ä``, ``ö``, ``ü`` do; ``ß`` is ``ss``)."""
    folded = _plain(text)
    for pair, vowel in (("ae", "a"), ("oe", "o"), ("ue", "u")):
        folded = folded.replace(pair, vowel)
    return folded


def _plain(text: str) -> str:
    """``text`` without case, accents, hyphens and apostrophes (an argument as typed)."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    for ch in "-'’_.,;:!?":
        bare = bare.replace(ch, " ")
    return " ".join(bare.casefold().split())


def switch(arg: str) -> bool | None:
    """``on`` or ``off`` (in the player's language too) as True or False; else None."""
    word = fold(arg)
    if word in {fold(w) for w in ("on", pgettext("switch", "on"))}:
        return True
    if word in {fold(w) for w in ("off", pgettext("switch", "off"))}:
        return False
    return None


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a typed line says: a ``number``, a ``command`` (with ``arg``), or ``text``.

    ``command`` is None for a number or for text that is no command;
    ``ambiguous`` lists the commands a too-short start could be.
    """

    text: str
    number: int | None = None
    command: str | None = None
    arg: str = ""
    ambiguous: tuple[str, ...] = ()
    exact: bool = False
    """The command was typed in full (a shortened one gives way to a stop's name)."""


def _words(allowed: Iterable[str]) -> dict[str, set[str]]:
    """Each folded word (English and the current language) -> the commands it names."""
    out: dict[str, set[str]] = {}
    for command in allowed:
        for word in (COMMANDS[command], word_for(command)):
            out.setdefault(fold(word), set()).add(command)
    return out


def parse(text: str, allowed: Sequence[str]) -> Parsed:
    """Read a typed line; only the commands in ``allowed`` are recognised."""
    text = text.strip()
    folded = fold(text)
    if not folded:
        return Parsed(text)
    if folded.isdigit() and len(folded) <= 3:
        return Parsed(text, number=int(folded))
    head, _, _rest = folded.partition(" ")
    rest = _plain(text).partition(" ")[2]  # the argument without the umlauts' folding
    words = _words(allowed)
    if head in words and len(words[head]) == 1:
        return Parsed(text, command=next(iter(words[head])), arg=rest, exact=True)
    starts = {c for word, cs in words.items() if word.startswith(head) for c in cs}
    if len(starts) == 1:
        return Parsed(text, command=next(iter(starts)), arg=rest)
    return Parsed(text, ambiguous=tuple(sorted(starts)) if len(starts) > 1 else ())


def match_names(text: str, names: Sequence[str]) -> list[int]:
    """The indexes of ``names`` that ``text`` could mean: the start of the name or of one of
    its words (``nord`` is ``Gare du Nord``), without case or accents; an exact name wins."""
    folded = fold(text)
    if not folded:
        return []
    exact = [i for i, n in enumerate(names) if fold(n) == folded]
    if exact:
        return exact
    found = []
    for i, n in enumerate(names):
        whole = fold(n)
        if whole.startswith(folded) or any(w.startswith(folded) for w in whole.split()):
            found.append(i)
    return found
