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

__all__ = ["Fit", "cut", "fits"]


def fits(text: Text, width: int) -> bool:
    """Whether every line of ``text`` fits ``width`` cells."""
    return all(cell_len(line) <= width for line in text.plain.split("\n"))


def cut(text: str, width: int | None) -> str:
    """``text`` cut to at most ``width`` cells (``None``: whole), with ``…`` if it was cut."""
    if width is None or cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    out = Text(text)
    out.truncate(width, overflow="ellipsis")
    return out.plain


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

    def choose(self, width: int, height: int | None = None) -> Text:
        """The first variant that fits ``width`` cells (and ``height`` lines, if given)."""
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
        text.no_wrap = True
        text.overflow = "ellipsis"
        yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [max(cell_len(line) for line in v.plain.split("\n")) for v in self.variants]
        return Measurement(min(widths), max(widths)).clamp(max_width=options.max_width)
