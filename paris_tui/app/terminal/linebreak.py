"""Line breaking for East Asian text: where a line of Chinese may end.

Rich and Textual break lines at spaces and fold a longer run of characters
wherever the width ends, so a Chinese line could start with ``；`` or ``，``,
split ``讓你得 1`` from ``分`` or ``（B Y R P`` from ``G），``. Here the rules of
East Asian line breaking (the Japanese kinsoku and the Chinese rules alike, as
in UAX #14):

- a line may end between two wide (CJK) characters, or between a wide
  character and a narrow one, and at a space;
- no line starts with closing punctuation (``，。、；：？！）」』】》…`` and their
  ASCII kin), no line ends with opening punctuation (``（「『【《`` ...);
- a number stays with its unit (``1 分``, ``{n} 家``: no break after the digits);
- a short run of letters in parentheses (``（B Y R P G）``) is not split, nor is a
  word of Latin letters;
- a run that fits no line is folded where it must, never before closing
  punctuation.

:func:`break_offsets` finds where a text's lines end at a width;
:class:`EastAsianText` is a Rich renderable that draws a :class:`~rich.text.Text`
broken so (text with no wide character is left to Rich); :func:`wrap_paragraphs`
breaks the paragraphs of a Markdown document (the help) with hard line breaks.
"""

from __future__ import annotations

import re
import unicodedata

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

__all__ = ["EastAsianText", "break_offsets", "has_wide", "wrap_lines", "wrap_paragraphs"]

# No line starts with these (closing brackets and quotes, stops, commas, ...).
NO_START = frozenset("，。、；：？！）」』】》〉］｝〕…‥·・ー～％,.;:!?)]}%")
# No line ends with these (opening brackets and quotes).
NO_END = frozenset("（「『【《〈［｛〔([{")
# A short group in fullwidth parentheses holding no wide character: never split.
_LETTER_GROUP = re.compile(r"（[^（）\u2e80-\uffff]{1,20}）")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def has_wide(text: str) -> bool:
    """Whether ``text`` holds a wide (East Asian) character: the rules apply to it."""
    return any(_wide(ch) for ch in text)


def _protected(text: str) -> set[int]:
    """Indices before which no break may come: inside a letter group."""
    out: set[int] = set()
    for match in _LETTER_GROUP.finditer(text):
        out.update(range(match.start() + 1, match.end()))
    return out


def _may_break_before(text: str, i: int, protected: set[int]) -> bool:
    """May a line end just before ``text[i]`` (spaces before it are dropped at the end)?"""
    if i <= 0 or i >= len(text) or i in protected:
        return False
    cur, prev = text[i], text[i - 1]
    if cur == " " or cur in NO_START:
        return False
    if prev == " ":
        j = i - 1
        while j > 0 and text[j - 1] == " ":
            j -= 1
        if j == 0:
            return False
        before = text[j - 1]
        # "1 分": a number stays with its unit.
        return before not in NO_END and not (before.isdigit() and _wide(cur))
    if prev in NO_END:
        return False
    if not (_wide(prev) or _wide(cur)):
        return False  # inside a word of narrow characters
    return not (prev.isdigit() and _wide(cur))


def break_offsets(text: str, width: int) -> list[int]:
    """The offsets in ``text`` (one line, no new line) where its lines end at ``width`` cells."""
    width = max(width, 1)
    protected = _protected(text)
    offsets: list[int] = []
    start, used, last_break = 0, 0, -1
    i = 0
    while i < len(text):
        if i > start and _may_break_before(text, i, protected):
            last_break = i
        cells = cell_len(text[i])
        # Spaces at the end of a line take no room: they are dropped there.
        if text[i] != " " and used + cells > width and i > start:
            if last_break > start:
                cut_at = last_break
            else:
                cut_at = i
                # Folded where it must: never before closing punctuation.
                while cut_at - 1 > start and text[cut_at] in NO_START:
                    cut_at -= 1
            offsets.append(cut_at)
            start = cut_at
            while start < len(text) and text[start] == " ":
                start += 1
            used, last_break = 0, -1
            i = start
            continue
        used += cells
        i += 1
    return offsets


def wrap_lines(text: Text, width: int) -> list[Text]:
    """``text`` broken into lines of at most ``width`` cells by the rules above (styles kept)."""
    lines: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        offsets = break_offsets(paragraph.plain, width)
        for line in paragraph.divide(offsets) if offsets else [paragraph]:
            line.rstrip()  # the spaces a line ends at
            lines.append(line)
    return lines


class EastAsianText:
    """``text`` drawn with the East Asian line-breaking rules where it holds wide characters."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not has_wide(self.text.plain):
            yield self.text
            return
        for line in wrap_lines(self.text, options.max_width):
            line.no_wrap = True
            line.end = "\n"
            yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)


def wrap_paragraphs(markdown: str, width: int) -> str:
    """The paragraphs of ``markdown`` that hold wide characters, broken at ``width`` cells
    with hard line breaks (a backslash at a line's end); headings, tables, lists and
    code are left as they are."""
    out: list[str] = []
    for block in markdown.split("\n\n"):
        first = block.lstrip()
        kept = first.startswith(("#", "|", "- ", "* ", "```", ">"))
        if kept or not has_wide(block):
            out.append(block)
            continue
        flat = " ".join(line.strip() for line in block.splitlines())
        # Widths as drawn: the markers of **bold** and `code` take no cell on screen.
        shown = flat.replace("**", "").replace("`", "")
        offsets = break_offsets(shown, width)
        out.append(" \\\n".join(_cut_marked(flat, offsets)))
    return "\n\n".join(out)


def _cut_marked(flat: str, offsets: list[int]) -> list[str]:
    """``flat`` cut at ``offsets`` counted without its ``**`` and backquote markers."""
    pieces: list[str] = []
    shown_index, start = 0, 0
    targets = iter(offsets)
    target = next(targets, None)
    i = 0
    while i < len(flat) and target is not None:
        if flat.startswith("**", i):
            i += 2
            continue
        if flat[i] == "`":
            i += 1
            continue
        if shown_index == target:
            pieces.append(flat[start:i].rstrip())
            while i < len(flat) and flat[i] == " ":
                i += 1
            start = i
            target = next(targets, None)
            continue
        shown_index += 1
        i += 1
    pieces.append(flat[start:].strip())
    return pieces
