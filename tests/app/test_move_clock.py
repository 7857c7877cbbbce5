"""The move clock at a host's table: its bar, since when, and a time-out said."""

from __future__ import annotations

import re
import time

import pytest

from paris_tui.app.online.turns_view import clock_text, timed_out_text
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screenshots import build_session
from paris_tui.app.widgets.panels import GameLog
from paris_tui.net.protocol import MoveClock

from .helpers import all_text
from .test_remote_screen import PushedTable, table_screen


class TimedTable(PushedTable):
    clock: MoveClock | None = None
    clock_heard = 0.0

    def tell(self, clock: MoveClock) -> None:
        self.clock, self.clock_heard = clock, time.monotonic()
        for listener in self.listeners:
            listener.table_presence(self)


def test_the_clock_is_a_bar_in_real_time_and_a_wait_when_turn_based() -> None:
    names = ("Ann", "[b]Bob[/b]")
    bar = clock_text(MoveClock(40.0, False, 1, 10.0), names)
    assert bar is not None
    assert bar.plain == "  █████████░░░ [b]Bob[/b]: 30 s"  # the name as typed, never markup
    late = clock_text(MoveClock(40.0, False, 0, 10.0), names, since_heard=25.0)
    assert late is not None and late.plain == "  ██░░░░░░░░░░ Ann: 5 s"
    wait = clock_text(MoveClock(86400.0, True, 1, 5 * 3600.0), names)
    assert wait is not None and wait.plain == "  Waiting for [b]Bob[/b] for 5 h (19 h left)"
    assert clock_text(None, names) is None
    assert clock_text(MoveClock(30.0, False, None, 0.0), names) is None  # the game is over
    out = timed_out_text(MoveClock(30.0, False, 0, 0.0, 1, 8), names)
    assert out is not None
    assert out.plain == "[b]Bob[/b]'s move time ran out: the AI played that move for them."


async def test_the_players_panel_shows_the_clock_and_the_log_a_time_out() -> None:
    session = build_session("Ann,Bob", 3, 0)
    table = TimedTable(session, 1)
    async with table_screen(table) as (app, pilot, game):
        table.tell(MoveClock(60.0, False, 0, 30.0))
        await pilot.pause()
        assert "██████░░░░░░ Ann: 30 s" in all_text(app)
        table.push()  # Ann's move, made by the host's AI: her time ran out
        table.tell(MoveClock(60.0, False, 1, 0.0, 0, 0))
        table.tell(MoveClock(60.0, False, 1, 1.0, 0, 0))  # told again: logged once
        await pilot.pause()
        entries = [e.plain for e in game.query_one(GameLog).entries]
        said = [e for e in entries if "move time ran out" in e]
        assert said == ["Ann's move time ran out: the AI played that move for them."]
        assert re.search(r"█{11,12}░? Bob: 5\d s", all_text(app))  # his clock runs now


async def test_the_clock_ticks_each_second_only_while_a_real_time_clock_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An idle player's app wakes for nothing: no clock, or a turn-based one,
    and the second's tick is paused."""
    ticks: list[float] = []
    tick = GameScreen._tick_clock

    def counted(screen: GameScreen) -> None:
        ticks.append(time.monotonic())
        tick(screen)

    monkeypatch.setattr(GameScreen, "_tick_clock", counted)
    session = build_session("Ann,Bob", 3, 0)
    table = TimedTable(session, 1)
    async with table_screen(table) as (app, pilot, _game):
        await pilot.pause(1.3)
        assert ticks == []  # not timed
        table.tell(MoveClock(60.0, False, 0, 0.0))
        await pilot.pause(1.3)
        assert ticks  # a real-time clock: its bar moves each second
        assert re.search(r"Ann: 5\d s", all_text(app))
        table.tell(MoveClock(86400.0, True, 0, 0.0))
        await pilot.pause()
        counted_before = len(ticks)
        await pilot.pause(1.3)
        assert len(ticks) == counted_before  # turn-based: nothing to tick
