"""Typed errors of the rules core. Every message says what is wrong and where.

Nothing here imports the board or the game (only :mod:`.values`, for
:data:`DecidedBy`, still importable from here, where it was first defined), so
the board and the text rules raise these errors without an import cycle;
:meth:`Illegal.explain` reads the stop names through :class:`StopNames`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from .values import DecidedBy

__all__ = [
    "BoardError",
    "DecidedBy",
    "Illegal",
    "IllegalCode",
    "IllegalMoveError",
    "ParisError",
    "RecordError",
    "RecordProblem",
    "StopNames",
    "invalid",
]

IllegalCode = Literal[
    "game_over",
    "unknown_tile",
    "not_face_up",
    "supply_empty",
    "not_full",
    "must_remove",
    "no_such_business",
]


RecordProblem = Literal[
    "invalid",  # the content breaks the format at ``where``: ``problem`` says how (English)
    "directory",  # params: path
    "not_regular",  # params: path (a FIFO, a device, ...)
    "unreadable",  # params: path, reason (the system's words)
    "too_large",  # params: limit (bytes)
    "not_utf8",  # params: offset
    "not_json",  # params: detail (the parser's words)
    "too_deep",
    "bad_name",  # params: rule (the name rule's code, core.text.NameProblem) and its params
]
"""What keeps a record file from being read, as a code (:attr:`RecordError.code`)."""


class StopNames(Protocol):
    """What :meth:`Illegal.explain` reads of a board (a :class:`~paris_tui.core.Board`):
    the display name of a stop."""

    def stop_name(self, stop: int | str) -> str: ...


class ParisError(Exception):
    """Base class of every error the rules core raises on purpose."""


class BoardError(ParisError):
    """A board file is malformed."""


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why a move is not legal, as a code and the ids it concerns (no words).

    ``code``: ``game_over``; ``unknown_tile`` (``tile`` is not a tile of the
    board; shown briefly); ``not_face_up`` (``face_up`` lists the tiles that
    are); ``supply_empty`` (C1: the seat has no business left, so it removes
    none); ``not_full`` (``stop`` has room: nothing to remove); ``must_remove``
    (``stop`` is full: the move must name whose business goes, one of
    ``seats``); ``no_such_business`` (``evict`` has no business at ``stop``).
    """

    code: IllegalCode
    tile: str | None = None
    stop: str | None = None
    seats: tuple[int, ...] = ()
    face_up: tuple[str, ...] = ()
    evict: str | None = None

    def explain(self, board: StopNames) -> str:
        """One English line for developers and logs (the app makes its own words)."""
        name = board.stop_name(self.stop) if self.stop is not None else ""
        match self.code:
            case "game_over":
                return "the game is over"
            case "unknown_tile":
                return f"{self.tile} is not a tile of this board"
            case "not_face_up":
                return f"{self.tile} is not face up this round (face up: {', '.join(self.face_up)})"
            case "supply_empty":
                return "the seat's supply is empty: nothing is opened or removed (C1)"
            case "not_full":
                return f"{name} is not full: there is nothing to remove"
            case "must_remove":
                owners = ", ".join(f"seat {p}" for p in self.seats)
                return f"{name} is full: choose whose business to remove ({owners})"
            case "no_such_business":
                return f"seat {self.evict} has no business at {name}"


class IllegalMoveError(ParisError, ValueError):
    """A move is not legal in the current position; the message says why in
    English, :attr:`illegal` as a code."""

    def __init__(self, message: str, illegal: Illegal | None = None) -> None:
        super().__init__(message)
        self.illegal = illegal


class RecordError(ParisError, ValueError):
    """A game record is unreadable or invalid.

    ``where`` names the place: a field path such as ``setup.routes[1]`` or a
    move such as ``moves[12]``; ``problem`` says what is wrong there, in
    English (the text of record-format.md's errors). ``code`` and ``params``
    say it for the words a player reads: a file that cannot be read as a
    record has its own code; any other problem is ``invalid`` at ``where``.
    """

    def __init__(
        self, where: str, problem: str, code: RecordProblem = "invalid", **params: str | int
    ) -> None:
        self.where = where
        self.problem = problem
        self.code: RecordProblem = code
        self.params: dict[str, str | int] = params
        # An "invalid" problem made by ``invalid``: the English template of ``problem``.
        self.detail: str | None = None
        super().__init__(f"{where}: {problem}" if where else problem)


def invalid(where: str, detail: str, **params: str | int) -> RecordError:
    """A record whose content breaks the format at ``where``.

    ``detail`` is the English of record-format.md with ``{placeholders}`` that
    ``params`` fill: the words of the app (``wording.record_problem``) translate
    the template, so no English is left inside a translated line.
    """
    exc = RecordError(where, detail.format(**params), "invalid", **params)
    exc.detail = detail
    return exc


def brief(value: object) -> str:
    """A short, printable, one-line rendering of a user-supplied value for a message."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
