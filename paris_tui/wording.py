"""Words for the codes the core and the host report: a name's problem, a record's, a refusal.

The core says what is wrong as a code and parameters
(:class:`~paris_tui.core.text.InvalidNameError`,
:class:`~paris_tui.core.errors.RecordError`), a host refuses a request with a
protocol code (:data:`~paris_tui.net.protocol.ErrorCode`); this module makes
the sentence a player reads, in the current language (:mod:`paris_tui.i18n`).
The command line, the app and the doors all word them here, so each problem
reads the same everywhere. In English the words are the core's own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping

from . import i18n
from .core.errors import RecordError
from .core.text import InvalidNameError, ai_seat_code, printable
from .i18n import N_, _, current_language

__all__ = [
    "AI_SEAT_WORDS",
    "in_language",
    "language_of",
    "language_of_accept",
    "name_problem",
    "record_problem",
    "refusal_reason",
    "seat_problem",
    "shown_name",
]

# What a name holds that is not text, by Unicode category (or "filler").
_CHARACTER_KINDS = {
    "Cc": N_("the name holds a control character ({char})"),
    "Cf": N_("the name holds an invisible formatting character ({char})"),
    "Cs": N_("the name holds a surrogate (not a character) ({char})"),
    "Co": N_("the name holds a private-use character ({char})"),
    "Cn": N_("the name holds an unassigned code point ({char})"),
    "Zl": N_("the name holds a line separator ({char})"),
    "Zp": N_("the name holds a paragraph separator ({char})"),
    "filler": N_("the name holds an invisible filler character ({char})"),
    "invisible": N_("the name holds a character that draws as nothing ({char})"),
}


def name_problem(exc: InvalidNameError, *, with_seat: bool = False) -> str:
    """Why a name is refused, in the current language (``seat N:`` first if asked)."""
    p = exc.params
    text = exc.problem  # every code is worded below; this is only mypy's default
    match exc.code:
        case "not_text":
            text = _("a name must be text")
        case "too_long_input":
            text = _("the name is too long ({length} characters; at most {limit} cells)").format(
                **p
            )
        case "blank":
            text = _("the name is blank")
        case "too_long":
            text = _("the name is too long ({length} characters; at most {limit})").format(**p)
        case "too_wide":
            text = _(
                "the name is too long ({cells} cells wide; at most {limit}, "
                "wide characters count two)"
            ).format(**p)
        case "nothing_visible":
            text = _("the name has nothing visible")
        case "stacked_marks":
            text = _("the name stacks {count} marks on one character; at most {limit}").format(**p)
        case "control":
            # The character by its code point and Unicode name (U+202E RIGHT-TO-LEFT OVERRIDE).
            char = f"{p['char']} {p['label']}" if p.get("label") else str(p["char"])
            template = _CHARACTER_KINDS.get(str(p["kind"]), _CHARACTER_KINDS["filler"])
            text = _(template).format(char=char)
        case "duplicate":
            if p["first"] == p["name"]:
                text = _("two seats are called {name}").format(name=p["name"])
            else:
                text = _(
                    "two seats are called {first} and {name}: names must differ in more "
                    "than capitals"
                ).format(first=p["first"], name=p["name"])
    if with_seat and exc.seat is not None:
        return seat_problem(exc.seat + 1, text)
    return text


def seat_problem(number: int, problem: str) -> str:
    """``seat 2: <problem>``: a problem of the seat counted from 1."""
    # Translators: a problem with one seat of a table (seats counted from 1).
    return _("seat {n}: {problem}").format(n=number, problem=problem)


# A record's content problems (core.errors.invalid): the English templates of
# record-format.md, worded here; tests/test_wording.py checks every template used.
_RECORD_DETAILS = frozenset(
    (
        N_("the extra keys take {size} bytes; a record keeps at most {limit}"),
        N_("missing"),
        N_("must be an object, found {found}"),
        N_("must be a list, found {found}"),
        N_("must be a string, found {found}"),
        N_('missing: a record has "format": "{format}"'),
        N_("must be {format}, found {found}"),
        N_("this program reads version {version}, found {found}"),
        N_("unknown board {found} (known: {known})"),
        N_("must hold 2 to 4 seats, holds {n}"),
        N_("missing: a record lists its moves (an empty list at the start)"),
        N_("too large (a record keeps at most {limit} bytes)"),
        N_("the extra keys cannot be written: {reason}"),
        N_('must be "human" or "ai:<level>", found {found}'),
        N_('must be "both-lines" or "tile-line", found {found}'),
        N_('must be "secret" or "all-lines", found {found}'),
        N_("the game is over after {n} moves; this move is one too many"),
        N_('missing "tile"'),
        N_("{found} is not a tile of this board"),
        N_("{found} is not face up in round {round} (face up: {tiles})"),
        N_("must be a seat number or null, found {found}"),
        N_("missing: {stop} is full, the move must say whose business is removed"),
        N_("must be absent or null: {stop} is not full"),
        N_("seat {seat} has no business at {stop}"),
        N_("nested deeper than {n} levels"),
        N_("an object with a key that is not a string"),
        N_("must be absent or null: seat {seat} has no business in supply (C1)"),
        N_("holds a number that is not finite"),
        N_("holds a value that is not JSON ({kind})"),
        N_("must be a list of stacks"),
        N_("{n} players need {expected} stacks of {size}, found {found}"),
        N_("must be a list of line ids"),
        N_("must hold one route per seat ({n}), holds {found}"),
        N_("must be null with {n} players"),
        N_("2 to 4 seats are needed, found {n}"),
        N_("must be a list of tile names"),
        N_("must hold {size} tiles, holds {n}"),
        N_("the game has {count} {kind} tile(s), the stacks hold {found}"),
        N_("{found} is not a line of this board"),
        N_("{found} is dealt twice"),
        N_("2 players need a public route line, found {found}"),
        N_("{found} is also a seat's secret route"),
        N_("must be an object"),
        N_("must be a whole number from 0 to {limit} (or null)"),
        N_("must be a list of {n} seeds (or nulls)"),
        N_("changed on disk since it was read"),
    )
)
# The JSON decoder's own messages (json.JSONDecodeError.msg, English as Python says
# them), translated in the catalogs.
_JSON_ERRORS = frozenset(
    (
        N_("Expecting value"),
        N_("Expecting property name enclosed in double quotes"),
        N_("Expecting ':' delimiter"),
        N_("Expecting ',' delimiter"),
        N_("Unterminated string starting at"),
        N_("Invalid control character at"),
        N_("Invalid \\escape"),
        N_("Invalid \\uXXXX escape"),
        N_("Extra data"),
        N_("Illegal trailing comma before end of object"),
        N_("Illegal trailing comma before end of array"),
    )
)
# What a record holds where something else belongs (core.record.json_kind, brief).
_JSON_KINDS = {
    "a boolean": N_("a boolean"),
    "a number": N_("a number"),
    "a string": N_("a string"),
    "a list": N_("a list"),
    "an object": N_("an object"),
}


def record_problem(exc: RecordError) -> str:
    """Why a record cannot be read, in the current language: ``where: what``.

    A file that cannot be read as a record is worded from its code; a record
    whose content breaks the format from the template of its detail (the
    field's rule in record-format.md), a name by the name rule's words.
    """
    p = exc.params
    match exc.code:
        case "directory":
            text = _("{path} is a directory").format(**p)
        case "not_regular":
            text = _("{path} is not a regular file").format(**p)
        case "unreadable":
            text = _("cannot read {path}: {reason}").format(**p)
        case "too_large":
            text = _("too large to be a record (over {limit} bytes)").format(**p)
        case "not_utf8":
            text = _("not UTF-8 text (bad byte at offset {offset})").format(**p)
        case "not_json" if p.get("message") in _JSON_ERRORS:
            text = _("not valid JSON: {detail} (line {line}, column {column})").format(
                detail=_(str(p["message"])), line=p["line"], column=p["column"]
            )
        case "not_json":
            text = _("not valid JSON: {detail}").format(**p)
        case "too_deep":
            text = _("not a record: JSON nested too deeply")
        case "bad_name":
            params = {k: v for k, v in p.items() if k != "rule"}
            code = p["rule"]
            text = name_problem(InvalidNameError(code, **params))  # type: ignore[arg-type]
        case "invalid" if exc.detail in _RECORD_DETAILS:
            words = {
                k: _(_JSON_KINDS[v]) if isinstance(v, str) and v in _JSON_KINDS else v
                for k, v in p.items()
            }
            text = _(exc.detail).format(**words)
        case _:
            text = exc.problem
    if not exc.where:
        return text
    # Translators: {where} is a place in a record file (file, players[1].name, moves[12]).
    return _("{where}: {problem}").format(where=exc.where, problem=text)


# A host's refusal (protocol error code) as the client words it.
_REFUSALS = {
    "not_your_turn": N_("it is not your turn"),
    "illegal": N_("that move is not legal"),
    "stale": N_("the position changed since the move was chosen"),
    "game_over": N_("the game is over"),
    "not_seated": N_("join a seat before playing"),
    "seat_taken": N_("the seat is taken"),
    "bad_token": N_("the token is not that seat's"),
    "no_such_seat": N_("no seat there is reserved for this name"),
    "no_such_table": N_("there is no such table"),
    "bad_name": N_("the host does not accept this name"),
    "bad_table": N_("the host cannot open a table with these seats"),
    "too_many_tables": N_("the host serves as many tables as it can"),
    "name_in_use": N_("someone of this name already sits at a table"),
    "not_started": N_("the game has not started yet"),
    "bad_message": N_("the host could not read a message of this paris-tui"),
    "too_large": N_("a message was too large for the host"),
    "rate_limited": N_("too many messages"),
    "unsupported_protocol": N_("this paris-tui and the host speak different protocol versions"),
    "host_full": N_("the host has too many connections"),
    "name_taken": N_("this name is an account on the host, and this terminal is not linked to it"),
    "bad_code": N_("that code is wrong, used or expired"),
    "account_locked": N_("the host's operator has locked this account"),
    "unavailable": N_("the host cannot read its accounts right now"),
    "bad_chat": N_("the host does not take this chat line"),
    "chat_limited": N_("too many chat lines: wait a moment"),
    "muted": N_("the host's operator has muted this account in the chat"),
    "no_such_tournament": N_("there is no such tournament"),
    "entries_closed": N_("this tournament takes no more entries"),
    "already_entered": N_("you are in this tournament already"),
    "not_entered": N_("you are not in this tournament"),
    "too_few_games": N_("this tournament asks for more rated games than you have played"),
    "not_allowed": N_("the host's operator has not let you do that"),
    "bad_tournament": N_("the host does not take a tournament with these settings"),
    "tournament_table": N_("a tournament's table has no rematch: the next round pairs you"),
}


# Why a move is not legal (core.errors.IllegalCode), as a refusal of the host says it.
_ILLEGAL = {
    "game_over": N_("the game is over"),
    "unknown_tile": N_("there is no such tile on this board"),
    "not_face_up": N_("that tile is not face up this round"),
    "supply_empty": N_("your supply is empty: nothing is opened or removed"),
    "not_full": N_("that stop is not full: there is nothing to remove"),
    "must_remove": N_("that stop is full: choose whose business to remove"),
    "no_such_business": N_("that player has no business at that stop"),
}


def refusal_reason(code: str, host_message: str, illegal: str | None = None) -> str:
    """Why the host refused, in the current language.

    The host words its refusals in English, often with names in them (``there
    is no table t9``): English keeps those words; any other language gets the
    client's own sentence for ``code`` (for an illegal move, for its
    ``illegal`` code), never the host's prose.
    """
    if current_language() == "en" or code not in _REFUSALS:
        return host_message
    if code == "illegal" and illegal in _ILLEGAL:
        return _(_ILLEGAL[illegal])
    return _(_REFUSALS[code])


@contextlib.contextmanager
def in_language(tag: str) -> Iterator[None]:
    """Word what is made inside in language ``tag``, then go back to the current one.

    For a process that serves several people (the host's doors): each gets
    their own language for the lines made for them. Use it around code that
    does not wait (no ``await`` inside): the language is the process's.
    """
    before = i18n.current_language()
    i18n.set_language(tag)
    try:
        yield
    finally:
        i18n.set_language(before)


def language_of(environ: Mapping[str, str]) -> str:
    """The language a session's environment asks for (what a client sent: its
    ``PARIS_TUI_LANG``, else its locale), else English; never the host's own."""
    return i18n.resolve_language(None, environ)


def language_of_accept(header: str) -> str:
    """The language of ours a browser prefers (its ``Accept-Language`` header), else English.

    ``de-CH,de;q=0.9,en;q=0.8`` -> ``de``; ``zh-TW,zh;q=0.9`` -> ``zh-TW``;
    weights are honoured, a language we lack is passed over.
    """
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate(header[:1000].split(",")[:50]):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                continue
        language = i18n.normalize_language(tag) if tag and tag != "*" else None
        if language is not None and weight > 0:
            choices.append((-weight, i, language))
    return min(choices)[2] if choices else i18n.DEFAULT_LANGUAGE


# An AI seat by its level, in the player's language ("Starke KI").
AI_SEAT_WORDS = {
    "random": N_("Random AI"),
    "easy": N_("Easy AI"),
    "greedy": N_("Greedy AI"),
    "strong": N_("Strong AI"),
    "expert": N_("Expert AI"),
}


def shown_name(name: str) -> str:
    """A seat's name as drawn: printable, and an AI seat's code (``Strong AI 2``, see
    :func:`core.ai_seat_names`) in the player's language (``Starke KI 2``)."""
    code = ai_seat_code(name)
    if code is None or code[0] not in AI_SEAT_WORDS:
        return printable(name)
    level, n = code
    words = _(AI_SEAT_WORDS[level])
    return words if n == 1 else f"{words} {n}"
