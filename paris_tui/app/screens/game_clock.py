"""A timed table's move clock on the game screen: its words for the players' panel, the
time-outs it tells in the log, and the second tick that shows it.

The tick runs only while a real-time clock runs: an idle player's app wakes for
nothing else (64 idle SSH players on one host).
"""

from __future__ import annotations

from rich.text import Text
from textual.timer import Timer

from paris_tui.app.online.turns_view import clock_text, new_time_out, real_time, table_clock
from paris_tui.app.play.turns import TurnFlow

from ...net.table import Table

__all__ = ["MoveClockTick"]


class MoveClockTick:
    """The move clock of ``flow``'s table."""

    def __init__(self, flow: TurnFlow) -> None:
        self._flow = flow
        self._timer: Timer | None = None  # a networked game's second tick
        self._time_outs: set[int] = set()  # the moves whose time-out the log told

    def start(self, timer: Timer) -> None:
        """Tick with ``timer`` (made paused), while a real-time clock runs (:meth:`running`)."""
        self._timer = timer
        self.follow()

    def text(self) -> Text | None:
        """A timed table's clock for the players panel (app/online/turns_view.py)."""
        flow = self._flow
        clock, since = table_clock(flow.table)
        return None if flow.ended else clock_text(clock, flow.public.names, since)

    def follow(self) -> None:
        """Tick while a real-time clock runs (the table's clock or the game's end changed)."""
        timer = self._timer
        if timer is None:
            return
        if self.running():
            timer.resume()
        else:
            timer.pause()

    def running(self) -> bool:
        """A real-time clock runs: it is shown again each second."""
        return real_time(self._flow.table) and not self._flow.ended

    def time_out_line(self, table: Table) -> Text | None:
        """The log's line for a player whose time ran out (the AI moved for them), once."""
        return new_time_out(table, self._time_outs, self._flow.public.names)
