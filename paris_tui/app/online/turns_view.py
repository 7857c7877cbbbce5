"""How timed tables look: the move clock's bar, the lobby's marks, time-outs.

Pure functions of what the host said (:class:`~paris_tui.net.protocol.MoveClock`,
:class:`~paris_tui.net.protocol.TableInfo`): the game screen's players panel
draws :func:`clock_text`, its log :func:`timed_out_text`, the lobby
:func:`table_turn_text`. Names are outside text: :func:`printable`, drawn as
:class:`~rich.text.Text`, never markup.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.text import Text

from paris_tui.app.look.describe import words
from paris_tui.core import printable
from paris_tui.i18n import _, ngettext
from paris_tui.net.protocol import MoveClock, TableInfo
from paris_tui.net.turns import move_time_words, waiting_for

__all__ = [
    "BAR_CELLS",
    "clock_text",
    "new_time_out",
    "real_time",
    "table_clock",
    "table_turn_text",
    "timed_out_text",
    "waiting_line",
]

BAR_CELLS = 12


def _name(names: Sequence[str], seat: int | None) -> Text:
    if seat is None or not 0 <= seat < len(names):
        return Text("?")
    return Text(printable(names[seat]), style="bold")


def clock_text(
    clock: MoveClock | None, names: Sequence[str], since_heard: float = 0.0
) -> Text | None:
    """The clock of the seat to move: a bar of the seconds left (real time), or since
    when the table waits for whom (turn-based); ``since_heard``: seconds since the
    host said it."""
    if clock is None or clock.seat is None:
        return None
    waited = clock.waited + max(0.0, since_heard)
    left = max(0.0, clock.move_time - waited)
    who = _name(names, clock.seat)
    if clock.turn_based:
        return words(
            _("  Waiting for {player} for {waited} ({left} left)"),
            style="dim",
            player=who,
            waited=move_time_words(waited),
            left=move_time_words(left),
        )
    full = round(BAR_CELLS * left / clock.move_time) if clock.move_time > 0 else 0
    style = "red" if left <= min(10.0, clock.move_time / 4) else "green"
    bar = Text("  ")
    bar.append("█" * full, style=style)
    bar.append("░" * (BAR_CELLS - full), style="dim")
    bar.append(" ")
    bar.append_text(words(_("{player}: {left}"), player=who, left=move_time_words(left)))
    return bar


def timed_out_text(clock: MoveClock | None, names: Sequence[str]) -> Text | None:
    """The log's line when a player's move time ran out (the AI played that move)."""
    if clock is None or clock.timed_out is None:
        return None
    return words(
        _("{player}'s move time ran out: the AI played that move for them."),
        style="italic",
        player=_name(names, clock.timed_out),
    )


def table_turn_text(info: TableInfo, me: str | None) -> Text | None:
    """The lobby's mark of a timed table: your move and since when, else its move time."""
    if info.move_time is None or info.finished or info.waiting:
        if info.move_time is not None and info.waiting:
            return Text(_("{time} per move").format(time=move_time_words(info.move_time)))
        return None
    seat = info.to_move
    if (
        me is not None
        and seat is not None
        and 0 <= seat < len(info.seats)
        and info.seats[seat].kind == "human"
        and info.seats[seat].name.casefold() == me.casefold()
    ):
        return Text(
            # Translators: a lobby mark, 21 cells at most: the table has waited {waited}
            # (such as "5 h") for your move.
            _("your move ({waited})").format(waited=move_time_words(info.waited or 0.0)),
            style="bold yellow",
        )
    return Text(_("{time} per move").format(time=move_time_words(info.move_time)), style="dim")


def table_clock(table: object) -> tuple[MoveClock | None, float]:
    """A host's table's clock as last told (its ``clock``, as
    :class:`~paris_tui.net.table.RemoteTable` keeps it, ``None``: not timed), and
    seconds since (its ``clock_heard``, :func:`time.monotonic`)."""
    clock = getattr(table, "clock", None)
    if not isinstance(clock, MoveClock):
        return None, 0.0
    heard = getattr(table, "clock_heard", 0.0)
    since = time.monotonic() - heard if isinstance(heard, float) else 0.0
    return clock, max(0.0, since)


def real_time(table: object) -> bool:
    """Whether ``table`` has a real-time clock running (its bar moves each second)."""
    clock, _since = table_clock(table)
    return clock is not None and not clock.turn_based and clock.seat is not None


def new_time_out(table: object, logged: set[int], names: Sequence[str]) -> Text | None:
    """The log's line of a time-out not logged yet (``logged``: the move numbers done)."""
    clock, _since = table_clock(table)
    if clock is None or clock.timed_out_move is None or clock.timed_out_move in logged:
        return None
    logged.add(clock.timed_out_move)
    return timed_out_text(clock, names)


def waiting_line(infos: Sequence[TableInfo], me: str | None) -> str | None:
    """The lobby's status when tables wait for ``me``'s move, else ``None``."""
    n = len(waiting_for(infos, me))
    if not n:
        return None
    return ngettext(
        "{n} table waits for your move: Enter on it plays.",
        "{n} tables wait for your move, the longest-waiting at the top: Enter plays.",
        n,
    ).format(n=n)
