"""Text that fits its width in terminal cells: the first variant that fits, never a cut number.

A panel at 80x24 has about 25 cells; a name can have 20. Rather than let the
terminal cut a line wherever it ends ("Ann +2, Bob +5, Cy…"), a :class:`Fit`
is given several wordings, from the fullest to the tersest, and shows the
first one whose every line fits the width it is drawn at, measured in cells
(:func:`rich.cells.cell_len`). Being a Rich renderable, it is chosen again
at every width: a resize re-fits it with no code of the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from paris_tui.app.look.glyphs import current_glyphs

__all__ = ["Fit", "cut", "cut_text", "fits"]


def fits(text: Text, width: int) -> bool:
    """Whether every line of ``text`` fits ``width`` cells."""
    return all(cell_len(line) <= width for line in text.plain.split("\n"))


def cut(text: str, width: int | None) -> str:
    """``text`` cut to at most ``width`` cells (``None``: whole), with ``…`` if it was cut.

    The ellipsis is the glyph set's (``...`` in ``ascii``).
    """
    if width is None or cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    return cut_text(Text(text), width).plain


def cut_text(text: Text, width: int) -> Text:
    """A copy of ``text`` with each line cut to at most ``width`` cells, marked with an ellipsis.

    The ellipsis is the glyph set's: ``…`` (one cell), or ``...`` in ``ascii``
    (dropped when the width holds no more than it).
    """
    width = max(width, 0)
    if "\n" not in text.plain:
        return _cut_line(text, width)
    lines = text.split("\n", allow_blank=True)
    out = Text("\n").join(_cut_line(line, width) for line in lines)
    out.no_wrap, out.overflow = text.no_wrap, text.overflow
    out.justify, out.end = text.justify, text.end
    return out


def _cut_line(line: Text, width: int) -> Text:
    line = line.copy()
    if line.cell_len <= width:
        return line
    ellipsis = current_glyphs().ellipsis
    if ellipsis == "…":
        line.truncate(width, overflow="ellipsis")
        return line
    room = width - cell_len(ellipsis)
    if room <= 0:
        line.truncate(width, overflow="crop")
        return line
    line.truncate(room, overflow="crop")
    line.rstrip()
    line.append(ellipsis)
    return line


class Fit:
    """The first of ``variants`` that fits where it is drawn (the last one otherwise).

    Where it is drawn is the width, and the height when the widget has a fixed
    one (a variant of two lines is skipped in a one-line bar).

    The last variant should be short enough for the narrowest layout (80x24);
    if even it does not fit, it is cut at the end with ``…``.
    """

    def __init__(self, variants: Iterable[Text]) -> None:
        self.variants = tuple(variants)
        if not self.variants:
            self.variants = (Text(),)
        self._group: tuple[Fit, ...] = ()

    @classmethod
    def together(cls, fits: Iterable[Fit]) -> list[Fit]:
        """``fits`` shortened alike: lines shown one above the other (the end screen's
        special tours) all take the same wording, the first in which each of them fits,
        rather than one line cut short between two full ones."""
        group = tuple(fits)
        for fit in group:
            fit._group = group
        return list(group)

    def _fits_at(self, index: int, width: int, height: int | None) -> bool:
        variant = self.variants[min(index, len(self.variants) - 1)]
        if height is not None and len(variant.plain.split("\n")) > height:
            return False
        return fits(variant, width)

    def choose(self, width: int, height: int | None = None) -> Text:
        """The first variant that fits ``width`` cells (and ``height`` lines, if given)."""
        if self._group:
            longest = max(len(fit.variants) for fit in self._group)
            for index in range(longest):
                if all(fit._fits_at(index, width, height) for fit in self._group):
                    return self.variants[min(index, len(self.variants) - 1)]
            return self.variants[-1]
        for variant in self.variants:
            if height is not None and len(variant.plain.split("\n")) > height:
                continue
            if fits(variant, width):
                return variant
        return self.variants[-1]

    @property
    def plain(self) -> str:
        """The fullest wording (what a wide terminal shows)."""
        return self.variants[0].plain

    def __str__(self) -> str:
        return self.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.choose(options.max_width, options.height).copy()
        if current_glyphs().ellipsis != "…" and not fits(text, options.max_width):
            text = cut_text(text, options.max_width)  # Rich would cut with "…"
        text.no_wrap = True
        text.overflow = "ellipsis"
        yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [max(cell_len(line) for line in v.plain.split("\n")) for v in self.variants]
        return Measurement(min(widths), max(widths)).clamp(max_width=options.max_width)
