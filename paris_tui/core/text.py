"""The one rule for outside text: players' names, and file names in messages.

A name comes from the command line, the new-game screen, a record file and
(next) the network; all of them go through :func:`normalize_name` (one name)
or :func:`check_table_names` (the seats of one table), so a name the command
line refuses is refused by every other door too, with the same words.

A name is plain text: surrounding whitespace is dropped and it is put in
Unicode NFC form; it must not be blank, must fit in :data:`MAX_NAME_CELLS`
terminal cells (East Asian wide and fullwidth characters count two,
combining marks none), and must not hold any character that is not text:
control characters (C0, C1, DEL; tabs and new lines included), format
characters (bidi overrides and isolates, zero-width spaces and joiners, the
byte order mark, ...), line and paragraph separators, surrogates,
private-use and unassigned code points, the invisible Hangul fillers, and
every other character that draws as nothing: Unicode's default-ignorable code
points (variation selectors, the combining grapheme joiner, tags, ...) and the
braille blank (:func:`invisible`).
Markup such as ``[b]`` is allowed: it is text, and the app draws it as text.

>>> normalize_name("  Zoe\\u0308 ")
'Zoë'
>>> normalize_name("Ann\\x1b[2J")
Traceback (most recent call last):
...
paris_tui.core.text.InvalidNameError: the name holds a control character (U+001B)
>>> check_table_names(["Ann", "Bob", "ann"])
Traceback (most recent call last):
...
paris_tui.core.text.InvalidNameError: seat 3: two seats are called Ann and ann: ...
>>> cell_width("王小明"), cell_width("Zoë")
(6, 3)
>>> printable("save\\x1b]2;x\\x07.json")
'save\\\\x1b]2;x\\\\x07.json'

Pure Python (only :mod:`unicodedata`): the widths agree with the terminal
measure the app uses (``rich.cells.cell_len``), which a test checks.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Literal

from .errors import ParisError

__all__ = [
    "DEFAULT_IGNORABLE",
    "MAX_CHAT_BYTES",
    "MAX_CHAT_CELLS",
    "MAX_NAME_CELLS",
    "MAX_NAME_CHARS",
    "InvalidChatError",
    "InvalidNameError",
    "NameProblem",
    "ai_seat_code",
    "ai_seat_names",
    "cell_width",
    "check_table_names",
    "invisible",
    "normalize_chat",
    "normalize_name",
    "printable",
    "without_invisible",
]

MAX_NAME_CELLS = 20
"""A name fits in this many terminal cells."""

MAX_NAME_CHARS = 3 * MAX_NAME_CELLS
"""A name holds at most this many code points (after NFC): combining marks take
no cell, so the cell limit alone would let a name pile up marks without end."""

MAX_STACKED_MARKS = 3
"""Combining marks a name may put on one character (after NFC): real writing stacks
up to three (Vietnamese two, Thai a vowel and a tone); a pile of them ("Zalgo")
draws over the lines above and below the name."""

# Longer raw input is refused before it is looked at, however it would strip
# or normalise: a 1 MB "name" costs a length check, nothing more.
_MAX_RAW_CHARS = 4 * MAX_NAME_CHARS

NameProblem = Literal[
    "not_text",  # the value is not a string
    "too_long_input",  # longer than anything normalisation could bring within the rule
    "blank",
    "too_long",  # more code points than MAX_NAME_CHARS
    "too_wide",  # more cells than MAX_NAME_CELLS
    "nothing_visible",
    "stacked_marks",  # more than MAX_STACKED_MARKS combining marks on one character
    "control",  # a character of a category in _NOT_TEXT, or an invisible filler
    "duplicate",  # two seats of a table share it (ignoring case)
]
"""Why a name breaks the rule, as a code (:attr:`InvalidNameError.code`)."""

# Unicode general categories that are never part of a name (nor printed raw).
_NOT_TEXT = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a surrogate (not a character)",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_OTHER_KINDS = {
    "filler": "an invisible filler character",
    "invisible": "a character that draws as nothing",
}
# Letters that draw as nothing, used to fake blank or look-alike names.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0")

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 16.0.0;
# unchanged since 8.0): code points a renderer draws as nothing when it does not
# support them. Python's unicodedata has no such property. A name holding one draws
# exactly as the name without it ("Ann" + U+034F is "Ann"), so a name may hold none;
# most are format characters (Cf, refused anyway), the rest are marks and letters:
# the combining grapheme joiner, the Hangul fillers, the Khmer inherent vowels, the
# Mongolian free variation selectors and the variation selectors (1-256).
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # SOFT HYPHEN
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER..HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ..KHMER VOWEL INHERENT AA
    (0x180B, 0x180D),  # MONGOLIAN FREE VARIATION SELECTOR ONE..THREE
    (0x180E, 0x180E),  # MONGOLIAN VOWEL SEPARATOR
    (0x180F, 0x180F),  # MONGOLIAN FREE VARIATION SELECTOR FOUR
    (0x200B, 0x200F),  # ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),  # LEFT-TO-RIGHT EMBEDDING..RIGHT-TO-LEFT OVERRIDE
    (0x2060, 0x2064),  # WORD JOINER..INVISIBLE PLUS
    (0x2065, 0x2065),  # <reserved-2065>
    (0x2066, 0x206F),  # LEFT-TO-RIGHT ISOLATE..NOMINAL DIGIT SHAPES
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1..VARIATION SELECTOR-16
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # <reserved-FFF0>..<reserved-FFF8>
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT LETTER OVERLAP..SHORTHAND FORMAT UP STEP
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM..MUSICAL SYMBOL END PHRASE
    (0xE0000, 0xE0000),  # <reserved-E0000>
    (0xE0001, 0xE0001),  # LANGUAGE TAG
    (0xE0002, 0xE001F),  # <reserved-E0002>..<reserved-E001F>
    (0xE0020, 0xE007F),  # TAG SPACE..CANCEL TAG
    (0xE0080, 0xE00FF),  # <reserved-E0080>..<reserved-E00FF>
    (0xE0100, 0xE01EF),  # VARIATION SELECTOR-17..VARIATION SELECTOR-256
    (0xE01F0, 0xE0FFF),  # <reserved-E01F0>..<reserved-E0FFF>
)
"""Unicode 16.0.0's ``Default_Ignorable_Code_Point`` ranges (first, last), inclusive."""

# Not default-ignorable, yet drawn as nothing: the braille pattern with no dots.
_BLANK_LOOKING = frozenset("\u2800")


def invisible(ch: str) -> bool:
    """Whether the character draws as nothing: default-ignorable (:data:`DEFAULT_IGNORABLE`)
    or blank-looking (the braille blank, U+2800). No name holds one."""
    code = ord(ch)
    if code < 0xAD:
        return False
    return ch in _BLANK_LOOKING or any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def without_invisible(text: str) -> str:
    """``text`` with every character :func:`invisible` says draws as nothing removed."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if not invisible(ch))


_ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Mc", "Me", "Cf", "Cc"})
# Code point ranges whose width Python's Unicode tables (14.0 in 3.11) do not
# give as terminals (and Rich) measure them today: Hangul conjoining vowels and
# final consonants join the syllable before them (no cell); emoji skin-tone
# modifiers colour the emoji before them (no cell); the I Ching and Tai Xuan
# Jing symbols and counting rods became East Asian wide in Unicode 16.
_ZERO_WIDTH_RANGES = ((0x1160, 0x11FF), (0xD7B0, 0xD7FF), (0x1F3FB, 0x1F3FF))
_WIDE_RANGES = (
    (0x2630, 0x2637),
    (0x268A, 0x268F),
    (0x4DC0, 0x4DFF),
    (0x1D300, 0x1D356),
    (0x1D360, 0x1D376),
)
_VS16 = "\ufe0f"  # emoji presentation: a narrow symbol followed by it takes two cells


class InvalidNameError(ParisError, ValueError):
    """A name breaks the rule: :attr:`code` and :attr:`params` say what is wrong
    (the app words it); :attr:`problem` says it in English.

    :attr:`seat` is the seat's index (from 0) when the name was checked as one
    of a table's; the message then starts with ``seat N:`` (counted from 1).
    A character is named by its code point (``U+001B``), never echoed raw.
    """

    def __init__(self, code: NameProblem, seat: int | None = None, **params: str | int) -> None:
        self.code: NameProblem = code
        self.params: dict[str, str | int] = params
        self.seat = seat
        problem = self.problem
        super().__init__(problem if seat is None else f"seat {seat + 1}: {problem}")

    def at_seat(self, seat: int) -> InvalidNameError:
        """The same problem, found in the name of seat ``seat`` (from 0)."""
        return InvalidNameError(self.code, seat, **self.params)

    @property
    def problem(self) -> str:
        """What is wrong, in English (developers, logs; players read the app's words).

        ``params`` by code: ``too_long_input``: ``length``, ``limit`` (cells);
        ``too_long``: ``length``, ``limit``; ``too_wide``: ``cells``, ``limit``;
        ``stacked_marks``: ``count``, ``limit`` (marks on one character);
        ``control``: ``kind`` (a key of the categories: ``Cc``, ``Cf``, ...,
        ``filler`` or ``invisible``), ``char`` (``U+001B``) and ``label`` (its Unicode name,
        maybe empty); ``duplicate``: ``name``, ``first`` (the seat's name it
        clashes with).
        """
        p = self.params
        match self.code:
            case "not_text":
                return "a name must be text"
            case "too_long_input":
                return (
                    f"the name is too long ({p['length']} characters; at most {p['limit']} cells)"
                )
            case "blank":
                return "the name is blank"
            case "too_long":
                return f"the name is too long ({p['length']} characters; at most {p['limit']})"
            case "too_wide":
                return (
                    f"the name is too long ({p['cells']} cells wide; at most {p['limit']}, "
                    "wide characters count two)"
                )
            case "nothing_visible":
                return "the name has nothing visible"
            case "stacked_marks":
                return f"the name stacks {p['count']} marks on one character; at most {p['limit']}"
            case "control":
                if p["kind"] == "Cc" and not p["label"]:
                    return f"the name holds a control character ({p['char']})"
                what = _NOT_TEXT.get(str(p["kind"]), _OTHER_KINDS.get(str(p["kind"]), ""))
                described = f"{p['char']} {p['label']}" if p["label"] else str(p["char"])
                return f"the name holds {what} ({described})"
            case "duplicate":
                if p["first"] == p["name"]:
                    return f"two seats are called {p['name']}"
                return (
                    f"two seats are called {p['first']} and {p['name']}: names must differ in "
                    "more than capitals"
                )


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def _char_width(ch: str) -> int:
    if ch.isascii():
        return 1 if " " <= ch < "\x7f" else 0
    if unicodedata.category(ch) in _ZERO_WIDTH_CATEGORIES:
        return 0
    code = ord(ch)
    if any(low <= code <= high for low, high in _ZERO_WIDTH_RANGES):
        return 0
    if unicodedata.east_asian_width(ch) in "WF":
        return 2
    return 2 if any(low <= code <= high for low, high in _WIDE_RANGES) else 1


def cell_width(text: str) -> int:
    """How many terminal cells ``text`` takes on one line.

    East Asian wide and fullwidth characters take two cells; combining marks,
    control and format characters none; an emoji presentation selector
    (U+FE0F) widens the narrow symbol before it to two.
    """
    if text.isascii():
        return sum(1 for ch in text if " " <= ch < "\x7f")
    total = 0
    last = 0  # the width of the last character that took cells, until a VS16 uses it
    for ch in text:
        if ch == _VS16:
            total += last == 1
            last = 0
            continue
        width = _char_width(ch)
        if width:
            last = width
            total += width
    return total


def _bad_character(text: str) -> InvalidNameError | None:
    """Why ``text`` is not plain text (the first offending character), or None."""
    if text.isascii():
        for ch in text:
            if not " " <= ch < "\x7f":
                return InvalidNameError("control", kind="Cc", char=_code(ch), label="")
        return None
    for ch in text:
        category = unicodedata.category(ch)
        kind = category if category in _NOT_TEXT else "filler" if ch in _INVISIBLE else None
        if kind is not None:
            label = unicodedata.name(ch, "")
            return InvalidNameError("control", kind=kind, char=_code(ch), label=label)
    return None


def normalize_name(text: str) -> str:
    """The name ``text`` as it is kept and shown.

    Raises :class:`InvalidNameError` saying what is wrong if it breaks the rule.
    """
    if not isinstance(text, str):
        raise InvalidNameError("not_text")
    if len(text) > _MAX_RAW_CHARS:
        raise InvalidNameError("too_long_input", length=len(text), limit=MAX_NAME_CELLS)
    why = _bad_character(text)  # before stripping: a trailing new line is refused too
    if why is not None:
        raise why
    if not text.isascii():
        for ch in text:
            if invisible(ch):
                label = unicodedata.name(ch, "")
                raise InvalidNameError("control", kind="invisible", char=_code(ch), label=label)
    name = unicodedata.normalize("NFC", text.strip())
    if not name:
        raise InvalidNameError("blank")
    if len(name) > MAX_NAME_CHARS:
        raise InvalidNameError("too_long", length=len(name), limit=MAX_NAME_CHARS)
    width = cell_width(name)
    if width > MAX_NAME_CELLS:
        raise InvalidNameError("too_wide", cells=width, limit=MAX_NAME_CELLS)
    if width == 0:
        raise InvalidNameError("nothing_visible")
    stacked = _most_stacked(name)
    if stacked > MAX_STACKED_MARKS:
        raise InvalidNameError("stacked_marks", count=stacked, limit=MAX_STACKED_MARKS)
    return name


def _most_stacked(text: str) -> int:
    """The most combining marks (categories Mn, Me) in a row in ``text``."""
    if text.isascii():
        return 0
    most = run = 0
    for ch in text:
        if unicodedata.category(ch) in ("Mn", "Me"):
            run += 1
            most = max(most, run)
        else:
            run = 0
    return most


def check_table_names(names: Iterable[str]) -> tuple[str, ...]:
    """The seats' names of one table, each normalised, all different (ignoring case).

    A problem raises :class:`InvalidNameError` with :attr:`~InvalidNameError.seat` set.
    """
    out: list[str] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(names):
        try:
            name = normalize_name(raw)
        except InvalidNameError as exc:
            raise exc.at_seat(i) from None
        key = name.casefold()
        if key in seen:
            raise InvalidNameError("duplicate", i, name=name, first=out[seen[key]])
        seen[key] = i
        out.append(name)
    return tuple(out)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` safe on one terminal line: every character that is not text escaped.

    Control, format, separator, surrogate, private-use and unassigned
    characters become ``\\x1b``, ``\\u202e``, ``\\udc80``, ...; everything else
    (backslashes, accents, wide characters) is kept as it is. For file names
    and other outside text in one-line messages.
    """
    if text.isprintable():  # nothing to escape (fast path; isprintable is stricter)
        return text
    return "".join(_escape(ch) if unicodedata.category(ch) in _NOT_TEXT else ch for ch in text)


# An AI seat's name is a code, the same for every language: its level and, when two
# seats share a level, a number ("Strong AI", "Strong AI 2"). The app words it where
# it is drawn ("Starke KI 2"); a record and a seat's view keep the code.
_AI_SEAT = re.compile(r"(?P<level>[A-Z][a-z]+) AI(?: (?P<n>[2-9]))?")


def ai_seat_names(raw: Iterable[tuple[str, str]]) -> list[str]:
    """The seats' names, given ``(name, kind)`` pairs: an AI seat (``kind``
    ``"ai:<level>"``) is named by its code, whatever name it was given
    (``Strong AI``, ``Strong AI 2``), apart from every other seat's name, ignoring
    case; a human seat keeps its name (checked by the caller)."""
    seats = list(raw)
    taken: set[str] = set()
    for name, kind in seats:
        if name and not kind.startswith("ai:"):
            with contextlib.suppress(InvalidNameError):  # reported by the caller, with its seat
                taken.add(normalize_name(name).casefold())
    names: list[str] = []
    for name, kind in seats:
        if not kind.startswith("ai:"):
            names.append(name)
            continue
        base = f"{kind[3:].capitalize()} AI"
        candidate, n = base, 2
        while candidate.casefold() in taken:
            candidate = f"{base} {n}"
            n += 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


def ai_seat_code(name: str) -> tuple[str, int] | None:
    """``("strong", 2)`` for the AI seat code ``Strong AI 2`` (1 without a number), else None."""
    match = _AI_SEAT.fullmatch(name)
    if match is None:
        return None
    return match["level"].lower(), int(match["n"] or 1)


# --- chat lines: what a player may say at a table, checked by one rule everywhere ---------

MAX_CHAT_CELLS = 160
"""A chat line fits in this many terminal cells (two lines of an 80-column log)."""

MAX_CHAT_BYTES = 480
"""A chat line is at most this many bytes of UTF-8 (after NFC): marks take no
cell, so the cell limit alone would let a line pile up combining marks."""

ChatProblem = Literal["not_text", "too_long_input", "blank", "too_long", "too_wide", "control"]
"""Why a chat line breaks the rule (:attr:`InvalidChatError.code`)."""


class InvalidChatError(ParisError, ValueError):
    """A chat line breaks the rule: :attr:`code` and :attr:`params` say what is wrong
    (the app words it from the code); the message says it in English, naming a
    refused character by its code point, never echoing it."""

    def __init__(self, code: ChatProblem, **params: str | int) -> None:
        self.code: ChatProblem = code
        self.params: dict[str, str | int] = params
        p = params
        match code:
            case "not_text":
                problem = "a chat line must be text"
            case "too_long_input" | "too_long":
                problem = f"the line is too long ({p['length']} bytes; at most {p['limit']})"
            case "blank":
                problem = "the line is blank"
            case "too_wide":
                problem = f"the line is too long ({p['cells']} cells; at most {p['limit']})"
            case "control":
                what = _NOT_TEXT.get(str(p["kind"]), "an invisible filler character")
                problem = f"the line holds {what} ({p['char']})"
        super().__init__(problem)


def normalize_chat(text: object) -> str:
    """The chat line ``text`` as it is kept, sent and shown (NFC, stripped).

    The name rule's characters (no control, format, bidi, separator, private-use
    or unassigned character; a tab or new line is refused too), at most
    :data:`MAX_CHAT_CELLS` cells and :data:`MAX_CHAT_BYTES` bytes. Markup such as
    ``[b]`` is text: the app draws it as typed. Raises :class:`InvalidChatError`.

    >>> normalize_chat("  good game [b]all[/b] ")
    'good game [b]all[/b]'
    >>> normalize_chat("gg\u202e")
    Traceback (most recent call last):
    ...
    paris_tui.core.text.InvalidChatError: the line holds an invisible formatting character (U+202E)
    """
    if not isinstance(text, str):
        raise InvalidChatError("not_text")
    if len(text) > 4 * MAX_CHAT_BYTES:
        raise InvalidChatError("too_long_input", length=len(text), limit=MAX_CHAT_BYTES)
    why = _bad_character(text)
    if why is not None:
        raise InvalidChatError("control", kind=why.params["kind"], char=why.params["char"])
    line = unicodedata.normalize("NFC", text.strip())
    if not line or cell_width(line) == 0:
        raise InvalidChatError("blank")
    size = len(line.encode("utf-8"))
    if size > MAX_CHAT_BYTES:
        raise InvalidChatError("too_long", length=size, limit=MAX_CHAT_BYTES)
    width = cell_width(line)
    if width > MAX_CHAT_CELLS:
        raise InvalidChatError("too_wide", cells=width, limit=MAX_CHAT_CELLS)
    return line
