"""Typed errors of the rules core. Every message says what is wrong and where."""

from __future__ import annotations

__all__ = ["BoardError", "IllegalMoveError", "ParisError", "RecordError"]


class ParisError(Exception):
    """Base class of every error the rules core raises on purpose."""


class BoardError(ParisError):
    """A board file is malformed."""


class IllegalMoveError(ParisError, ValueError):
    """A move is not legal in the current position; the message says why."""


class RecordError(ParisError, ValueError):
    """A game record is unreadable or invalid.

    ``where`` names the place: a field path such as ``setup.routes[1]`` or a
    move such as ``moves[12]``; ``problem`` says what is wrong there.
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)


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
