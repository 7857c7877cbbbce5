"""Plain lines out: every sentence on lines of its own, wrapped at a space, never redrawn.

A screen reader (Orca, NVDA, JAWS through a terminal, brltty) reads what a
program appends to the terminal, line by line. So this front end writes only
text and newlines: no escape sequence of any kind (no colour, no cursor
movement, no alternate screen, no title), and never a character of the box
drawing or block ranges. A line is kept under the terminal's width, measured
in cells (a wide character counts two), where it can be: a sentence longer
than that is broken at a space (or after a Chinese full stop or comma), never
inside a word, a stop's name or a line's name; a piece that has no such
place stays whole (a screen reader reads a long line whole).

The one exception to "no escape sequence": at a hot-seat hand-off
:meth:`Lines.clear` erases the screen and the terminal's scrollback
(``ESC[H ESC[2J ESC[3J``), when the output is a terminal, so the player
before leaves no secret behind; and ``bell on`` writes a BEL when it is
one's turn.

Outside text (names) reaches a line only through the sentences of
:mod:`paris_tui.reader.say`, escaped by :func:`~paris_tui.core.text.printable`;
:func:`clean` escapes whatever is left as a last line of defence.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from rich.cells import cell_len

from ..core.text import printable
from .say import fixed_phrases

__all__ = ["CLEAR", "DEFAULT_WIDTH", "Lines", "clean", "terminal_width", "wrap"]

DEFAULT_WIDTH = 80
"""Columns assumed when the output is not a terminal (a pipe, a test's buffer)."""

CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, erase the screen, erase the scrollback (xterm's ``ED 3``)."""

_BREAK_AFTER = frozenset("。，；：、！？")  # full-width punctuation: a clause ends there

_BOX_AND_BLOCKS = range(0x2500, 0x25A0)  # box drawing (2500-257F) and block elements (2580-259F)


def clean(text: str) -> str:
    """``text`` as one safe line: controls escaped (``\\x1b``), box/block characters as ``?``."""
    text = printable(text)
    if any(ord(ch) in _BOX_AND_BLOCKS for ch in text):
        text = "".join("?" if ord(ch) in _BOX_AND_BLOCKS else ch for ch in text)
    return text


def wrap(text: str, width: int, keep: Sequence[str] = ()) -> list[str]:
    """``text`` on lines of fewer than ``width`` cells where it can be, broken only at a space
    or after a full-width stop or comma (``。``, ``，``...), never inside a phrase of ``keep``
    (stop and line names: "Gare du Nord" is never split), nor after a number (a number
    stays with the word it counts: "3 points", "2 Saint-Nicolas").

    A line is at most ``width - 1`` cells where a break allows: a terminal written to its
    last column may wrap on its own or not. A piece with no break in it wider than that (a
    long name, a Chinese clause) stays whole: a screen reader reads a long line whole, and
    a word cut in two reads as two words.
    """
    limit = max(10, width - 1)
    if cell_len(text) <= limit:
        return [text]
    protected = [False] * (len(text) + 1)
    for phrase in keep:
        if not phrase or " " not in phrase:
            continue
        start = text.find(phrase)
        while start >= 0:
            for i in range(start + 1, start + len(phrase)):
                protected[i] = True
            start = text.find(phrase, start + 1)
    pieces: list[str] = []  # each piece ends where a break is allowed
    start = 0
    for i, ch in enumerate(text):
        if ch == " " and not protected[i] and not (i and text[i - 1].isdigit()):
            pieces.append(text[start:i])
            start = i  # the space begins the next piece (dropped at a line's start)
        elif ch in _BREAK_AFTER and not protected[i + 1]:
            pieces.append(text[start : i + 1])
            start = i + 1
    pieces.append(text[start:])
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if not piece:
            continue
        if line and cell_len(line + piece) > limit:
            lines.append(line.rstrip())
            line = piece.lstrip(" ")
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return [each for each in lines if each]


def terminal_width(stream: TextIO) -> int:
    """The width of the terminal ``stream`` writes to, else ``COLUMNS``, else 80."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or DEFAULT_WIDTH
    except (OSError, ValueError, AttributeError):
        pass
    try:
        return int(os.environ.get("COLUMNS", "")) or DEFAULT_WIDTH
    except ValueError:
        return DEFAULT_WIDTH


class Lines:
    """Where the sentences go: a stream, wrapped to its width, every line flushed at once.

    ``width`` (a callable) is asked before each sentence, so a resized
    terminal wraps the next one to its new width. :attr:`said` keeps every
    sentence (for ``last`` and for tests).
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        width: Callable[[], int] | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.width = width if width is not None else (lambda: terminal_width(self.stream))
        self.said: list[str] = []
        self.names: Sequence[str] = ()  # the players' names: never broken either
        self.bell = False  # a BEL before one's turn (``bell on``)

    def say(self, *sentences: str) -> None:
        """Each sentence on a line of its own (wrapped if it must be)."""
        width = self.width()
        keep = (*fixed_phrases(), *self.names)
        out: list[str] = []
        for sentence in sentences:
            text = clean(sentence.strip())
            if not text:
                continue
            self.said.append(text)
            out.extend(wrap(text, width, keep))
        if out:
            self._write("\n".join(out) + "\n")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (BrokenPipeError, ValueError):  # the reader went away
            pass

    def is_terminal(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def clear(self) -> bool:
        """Erase the screen and the terminal's scrollback (only a terminal's: a pipe or a
        file keeps every line). True if it was done."""
        if not self.is_terminal():
            return False
        self._write(CLEAR)
        return True

    def ring(self) -> None:
        """A BEL, if ``bell on`` asked for one."""
        if self.bell:
            self._write("\a")

    def prompt(self, text: str) -> None:
        """A question on a line of its own, the answer typed on the next (a line, not a prompt
        after which the cursor waits: a screen reader reads the whole line)."""
        self.say(text)
