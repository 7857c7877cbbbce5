"""Plain lines out: every sentence on lines of its own, wrapped at a word, never redrawn.

A screen reader (Orca, NVDA, JAWS through a terminal, brltty) reads what a
program appends to the terminal, line by line. So this front end writes only
text and newlines: no escape sequence of any kind (no colour, no cursor
movement, no alternate screen, no title), and never a character of the box
drawing or block ranges. A line is kept under the terminal's width, measured
in cells (a wide character counts two): a sentence longer than that is
wrapped after a space, or between two wide characters (Chinese has no
spaces), so the terminal never wraps a word itself.

Outside text (names) reaches a line only through the sentences of
:mod:`paris_tui.reader.say`, escaped by :func:`~paris_tui.core.text.printable`;
:func:`clean` escapes whatever is left as a last line of defence.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TextIO

from rich.cells import cell_len

from ..core.text import printable

__all__ = ["DEFAULT_WIDTH", "Lines", "clean", "terminal_width", "wrap"]

DEFAULT_WIDTH = 80
"""Columns assumed when the output is not a terminal (a pipe, a test's buffer)."""

_BOX_AND_BLOCKS = range(0x2500, 0x25A0)  # box drawing (2500-257F) and block elements (2580-259F)


def clean(text: str) -> str:
    """``text`` as one safe line: controls escaped (``\\x1b``), box/block characters as ``?``."""
    text = printable(text)
    if any(ord(ch) in _BOX_AND_BLOCKS for ch in text):
        text = "".join("?" if ord(ch) in _BOX_AND_BLOCKS else ch for ch in text)
    return text


def wrap(text: str, width: int) -> list[str]:
    """``text`` on lines of fewer than ``width`` cells, each cut after a space or a wide character.

    A line is at most ``width - 1`` cells: a terminal that is written to its
    last column may wrap on its own or not, depending on the terminal. A
    "word" wider than that (a long name without spaces) is cut where it must.
    """
    limit = max(10, width - 1)
    if cell_len(text) <= limit:
        return [text]
    lines: list[str] = []
    line = ""
    used = 0
    cut = -1  # where the current line may be cut: an index into ``line``
    for ch in text:
        cells = cell_len(ch)
        if used + cells > limit:
            if ch == " ":
                lines.append(line.rstrip())
                line, used, cut = "", 0, -1
                continue
            if cut > 0:
                head, rest = line[:cut], line[cut:]
            else:
                head, rest = line, ""
            lines.append(head.rstrip())
            line = rest.lstrip()
            used = cell_len(line)
            cut = -1
        line += ch
        used += cells
        if ch == " ":
            cut = len(line)
        elif cells == 2:
            cut = len(line)  # after a wide character (CJK text has no spaces)
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

    def say(self, *sentences: str) -> None:
        """Each sentence on a line of its own (wrapped if it must be)."""
        width = self.width()
        out: list[str] = []
        for sentence in sentences:
            text = clean(sentence.strip())
            if not text:
                continue
            self.said.append(text)
            out.extend(wrap(text, width))
        if out:
            try:
                self.stream.write("\n".join(out) + "\n")
                self.stream.flush()
            except (BrokenPipeError, ValueError):  # the reader went away
                pass

    def prompt(self, text: str) -> None:
        """A question on a line of its own, the answer typed on the next (a line, not a prompt
        after which the cursor waits: a screen reader reads the whole line)."""
        self.say(text)
