"""Scores of several players on one chart with shared axes (the statistics screen).

A :class:`ScoreChart` is a ``textual-plotext`` plot (Textualize's plotting
widget): one line per player, all on the same x and y scale, so a player who
ended on 40 points is drawn half as high as one who ended on 80. Each line
is drawn with the player's symbol in the player's colour, so the lines are
told apart without colour too (``NO_COLOR=1``); the screen that shows the
chart writes the legend (symbol and name) and the axis titles beside it.

Only numbers and symbols go into the plot: names and words (in any
language) stay outside it, drawn by the screen as Rich text, because
plotext counts characters, not terminal cells, and would misplace a wide
one; and a name is never read as markup or terminal control.

With the ascii glyph set the plot has no frame (plotext draws its frame
with box characters) and the symbols are ASCII, so it draws only ASCII.

The y axis starts at 0 and its ticks each fall on a row of the plot
(:func:`row_ticks`), evenly apart, so a value is drawn on its label's row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import RenderResult
from textual.color import Color
from textual_plotext import PlotextPlot

from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.palette import PlayerStyle

__all__ = ["ScoreChart", "ScoreLine", "nice_ticks", "row_ticks"]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's scores: ``points`` are ``(x, score)`` pairs, in order of x."""

    look: PlayerStyle
    points: tuple[tuple[int, float], ...]

    @property
    def xs(self) -> list[int]:
        return [x for x, _ in self.points]

    @property
    def ys(self) -> list[float]:
        return [y for _, y in self.points]


_MULTIPLIERS = (1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5, 8)  # steps: these times a power of ten


def nice_ticks(low: float, high: float, most: int) -> list[int]:
    """Whole-number ticks from ``low`` (rounded down to a step) up to ``high`` or just past it.

    The step is 1, 2 or 5 times a power of ten, the smallest giving at most
    ``most`` ticks (never fewer than two ticks).
    """
    most = max(2, most)
    bottom = math.floor(low)
    span = max(1, math.ceil(high) - bottom)
    step = next(
        f * 10**p for p in range(12) for f in (1, 2, 5) if math.ceil(span / (f * 10**p)) < most
    )
    ticks = [bottom - bottom % step]
    while ticks[-1] < high or len(ticks) < 2:
        ticks.append(ticks[-1] + step)
    return ticks


def row_ticks(high: float, rows: int) -> list[int]:
    """Ticks from 0 to ``high`` or just past it that each fall on one of ``rows`` rows.

    The lowest tick is drawn on the bottom row and the highest on the top row,
    so the number of steps between ticks must divide ``rows - 1``; at least two
    rows between ticks. The step is a whole number: 1, 1.5, 2, 2.5, 3, 4, 5, 6,
    7.5 or 8 times a power of ten (15, 25, 75 are steps too). The top tick is
    the lowest that such steps reach at or above ``high``; a top at most a
    quarter higher is taken instead when it puts a tick between bottom and top.
    Of equal tops, the one with the most ticks.
    """
    gaps = rows - 1
    found: list[tuple[int, int]] = []  # (top, steps)
    for steps in range(1, gaps // 2 + 1):
        if gaps % steps == 0:
            need = max(1.0, high) / steps
            step = min(
                int(m * 10**p)
                for p in range(12)
                for m in _MULTIPLIERS
                if m * 10**p >= need and float(m * 10**p).is_integer()
            )
            found.append((step * steps, steps))
    if not found:  # too few rows for a tick between: the bottom and the top
        return [0, max(1, math.ceil(high))]
    lowest = min(top for top, _ in found)
    # The lowest top with a tick between bottom and top, unless that is much higher.
    top, steps = min(found, key=lambda f: (f[0] > lowest * 1.25, f[1] < 2, f[0], -f[1]))
    return [top * i // steps for i in range(steps + 1)]


class ScoreChart(PlotextPlot):
    """Several players' scores over x (rounds, games) on one shared scale."""

    DEFAULT_CSS = """
    ScoreChart {
        width: 1fr;
        height: 12;
    }
    """

    def __init__(self, lines: Sequence[ScoreLine]) -> None:
        super().__init__()
        self.lines = tuple(line for line in lines if line.points)
        # No colours of its own: the screen's background and text, the players' colours.
        self.set_reactive(PlotextPlot.theme, "textual-clear")

    def on_mount(self) -> None:
        super().on_mount()
        # Player colours have a shade for dark and one for light backgrounds.
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    def _ticks(self) -> tuple[list[int], list[int]]:
        """The x and y ticks for the chart's present size."""
        xs = [x for line in self.lines for x in line.xs] or [0]
        ys = [y for line in self.lines for y in line.ys]
        # The plot's rows: less the row of x values, and the frame's top and bottom.
        rows = self.size.height - 1 - (0 if current_glyphs().is_ascii else 2)
        if min(ys, default=0) < 0:  # (no score is below 0; should one be, still a chart)
            y_ticks = nice_ticks(min(ys), max([1.0, *ys]), max(2, rows // 2 + 1))
        else:
            y_ticks = row_ticks(max([1.0, *ys]), rows)
        columns = max(1, self.size.width - 6)
        low, high = min(xs), max(xs)
        x_ticks = [t for t in nice_ticks(low, high, columns // 6 + 1) if low <= t <= high]
        return x_ticks or [low], y_ticks

    def draw_lines(self) -> None:
        """Put the lines, the axes' ranges and ticks into the plot.

        Done at each render: the size, the theme and the glyph set may have changed.
        """
        plt = self.plt
        plt.clear_data()
        ascii_only = current_glyphs().is_ascii
        plt.frame(not ascii_only)
        dark = bool(self.app.current_theme.dark)
        for line in self.lines:
            colour = Color.parse(line.look.colour_for(dark)).rgb
            plt.plot(line.xs, line.ys, marker=line.look.symbol, color=colour)
        x_ticks, y_ticks = self._ticks()
        xs = [x for line in self.lines for x in line.xs] or [0]
        plt.xlim(min(xs), max(*xs, min(xs) + 1))
        plt.xticks([float(t) for t in x_ticks], [str(t) for t in x_ticks])
        plt.ylim(y_ticks[0], y_ticks[-1])
        # Without a frame a space keeps the values apart from the lines.
        labels = [f"{t} " if ascii_only else str(t) for t in y_ticks]
        plt.yticks([float(t) for t in y_ticks], labels)

    def render(self) -> RenderResult:
        self.draw_lines()
        return super().render()
