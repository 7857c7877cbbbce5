"""The statistics screen: the numbers of `paris-tui stats --json`, never a crash."""

from __future__ import annotations

import itertools
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.color import Color
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable

from paris_tui.app.app import ParisApp
from paris_tui.app.local.history import History
from paris_tui.app.look.palette import player_style
from paris_tui.app.screens.new_game import NewGameScreen
from paris_tui.app.screens.stats import StatsScreen
from paris_tui.app.widgets.score_chart import ScoreChart
from paris_tui.cli import main as cli_main

from .helpers import _plain, make_app, screen_text
from .test_history import finished


def _fill(history: History) -> None:
    history.add_record(
        finished(["Ann", "Bob", "Cy"], 3, ["human", "human", "ai:strong"]),
        mode="ai",
        local_seats=(0, 1),
    )
    history.add_record(
        finished(["Ann", "Bot"], 4, ["human", "ai:greedy"]), mode="ai", local_seats=(0,)
    )


async def _stats_screen(app: ParisApp, pilot: Pilot[object]) -> StatsScreen:
    await pilot.pause()
    app.action_statistics()
    deadline = time.monotonic() + 60
    while True:
        screen = app.screen
        if isinstance(screen, StatsScreen) and (screen.stats or screen.problem):
            break
        assert time.monotonic() < deadline, "the statistics never came"
        await pilot.pause(0.05)
    await pilot.pause(0.2)
    return screen


async def test_the_screen_shows_the_numbers_of_stats_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = History.in_data_dir(tmp_path)
    _fill(history)
    assert cli_main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    app = make_app(None, history=history)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _stats_screen(app, pilot)
        assert screen.stats == printed
        players = screen.query_one("#stats-players", DataTable)
        rows = [[_plain(c).strip() for c in players.get_row_at(i)] for i in range(2)]
        for row, entry in zip(rows, printed["players"], strict=True):
            by = entry["mean_by_source"]
            assert row == [
                entry["name"],
                str(entry["games"]),
                str(entry["wins"]),
                f"{entry['mean_score']:.1f}",
                *(f"{by[k]:.1f}" for k in ("small_tour", "grand_tour", "special_tour", "sack")),
            ]
        levels = screen.query_one("#stats-ai", DataTable)
        assert levels.row_count == len(printed["vs_ai"]) == 2
        text = screen_text(app)
        assert "2 finished games" in text
        assert "Last game" in text and "Trend" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, StatsScreen)


async def test_a_corrupt_history_is_a_message_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    app = make_app(None, history=History(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _stats_screen(app, pilot)
        assert screen.problem is not None and "damaged" in screen.problem
        text = screen_text(app)
        assert "Your history cannot be read" in text
        assert "Traceback" not in text
        await pilot.press("escape")  # and the app goes on
        assert isinstance(app.screen, NewGameScreen)
    assert app.return_code in (None, 0)


async def test_a_locked_history_is_a_message_not_a_crash(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    _fill(history)
    other = sqlite3.connect(history.path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")  # another paris-tui in the middle of a write
        app = make_app(None, history=history)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _stats_screen(app, pilot)
            assert screen.problem is not None and "busy" in screen.problem
            assert "Your history cannot be read" in screen_text(app)
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_the_new_game_screen_opens_the_statistics(tmp_path: Path) -> None:
    app = make_app(None, history=History.in_data_dir(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("f2")
        deadline = time.monotonic() + 60
        while not (isinstance(app.screen, StatsScreen) and app.screen.stats is not None):
            assert time.monotonic() < deadline
            await pilot.pause(0.05)
        assert "No finished games yet" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, NewGameScreen)


async def test_the_command_palette_has_statistics(tmp_path: Path) -> None:
    from textual.command import CommandPalette

    history = History.in_data_dir(tmp_path)
    _fill(history)
    app = make_app(None, history=history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        deadline = time.monotonic() + 30
        while not isinstance(app.screen, CommandPalette):
            assert time.monotonic() < deadline
            await pilot.pause(0.05)
        await pilot.press(*"Statistics")
        await pilot.pause(0.5)
        await pilot.press("enter")
        deadline = time.monotonic() + 60
        while not (isinstance(app.screen, StatsScreen) and app.screen.stats is not None):
            assert time.monotonic() < deadline, f"no statistics ({app.screen})"
            await pilot.pause(0.05)
        assert "2 finished games" in screen_text(app)


# --- the charts: one shared scale per chart -------------------------------


def _charts(screen: StatsScreen) -> tuple[ScoreChart, ScoreChart]:
    last = screen.query_one("#stats-last").query_one(ScoreChart)
    trend = screen.query_one("#stats-trend").query_one(ScoreChart)
    return last, trend


def _series(chart: ScoreChart) -> list[tuple[str, list[float], list[float]]]:
    """What the plot holds, read back from plotext's figure: (marker, xs, ys) per line."""
    monitor = chart.plt.monitor
    series = []
    for xs, ys, markers in zip(monitor.x, monitor.y, monitor.marker, strict=True):
        assert len(set(markers)) == 1, markers  # one symbol for the whole line
        series.append((markers[0], [float(x) for x in xs], [float(y) for y in ys]))
    return series


def _drawn(chart: ScoreChart) -> list[str]:
    """The chart's rows as the screen draws them."""
    width, height = chart.size
    strips = chart.render_lines(Region(0, 0, width, height))
    return ["".join(segment.text for segment in strip) for strip in strips]


async def _scroll_to_charts(screen: StatsScreen, pilot: Pilot[object]) -> None:
    screen.query_one("#stats-box").scroll_end(animate=False)
    await pilot.pause(0.2)


async def test_the_charts_plot_the_numbers_of_stats_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = History.in_data_dir(tmp_path)
    _fill(history)
    history.add_record(
        finished(["Bob", "Ann"], 5, ["human", "human"]), mode="hotseat", local_seats=(0, 1)
    )
    assert cli_main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    app = make_app(None, history=history)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _stats_screen(app, pilot)
        assert screen.stats == printed
        last_chart, trend_chart = _charts(screen)
        # The last game: x = round (0 before the first), y = each seat's score then.
        last = printed["last_game"]
        rounds = last["round_scores"]
        assert _series(last_chart) == [
            (
                player_style(seat).symbol,
                [float(r) for r in range(len(rounds) + 2)],
                # 0 before the first round, each round's score, then the final score (R7)
                [0.0, *(float(scores[seat]) for scores in rounds), float(last["scores"][seat])],
            )
            for seat in range(len(last["names"]))
        ]
        # The trend: x = the game (oldest first), y = that name's score in it.
        games = sorted({entry["game"] for entry in printed["trend"]})
        trend = _series(trend_chart)
        assert {marker for marker, _xs, _ys in trend} == {"●", "▲"}
        legend = [_plain(s.content) for s in screen.query("#stats-trend .chart-legend")]
        for marker, xs, ys in trend:
            (label,) = [line for line in legend if line.startswith(marker)]
            name = label.split()[1]
            entries = [e for e in printed["trend"] if e["name"] == name]
            assert xs == [float(games.index(e["game"]) + 1) for e in entries]
            assert ys == [float(e["score"]) for e in entries]
            mean = next(p["mean_score"] for p in printed["players"] if p["name"] == name)
            assert label.split()[-1] == f"{mean:.1f}"
        # Each line's legend names its player by symbol and name, with the final score.
        legend = [_plain(s.content) for s in screen.query("#stats-last .chart-legend")]
        assert legend == [
            f"{player_style(seat).symbol} {name:<12} {score:>3}"
            for seat, (name, score) in enumerate(zip(last["names"], last["scores"], strict=True))
        ]


def _stats_of(finals: list[tuple[str, list[int]]], trend: list[tuple[str, int]]) -> dict[str, Any]:
    """A history's numbers (as History.stats gives them) for the given rounds and trend."""
    return {
        "games": len(trend),
        "players": [],
        "ai_levels": [],
        "vs_ai": [],
        "last_game": {
            "finished_at": "2026-01-01T00:00:00+00:00",
            "names": [name for name, _ in finals],
            "round_scores": [list(r) for r in zip(*(scores for _, scores in finals), strict=True)],
            "scores": [scores[-1] for _, scores in finals],
        },
        "trend": [
            {"game": n, "name": name, "score": score, "won": False}
            for n, (name, score) in enumerate(trend, start=1)
        ],
    }


def _height_of(rows: list[str], symbol: str, zero_row: int) -> int:
    """How many rows above the row of 0 the symbol is drawn at its highest."""
    top = min(i for i, row in enumerate(rows) if symbol in row)
    return zero_row - top


async def test_one_scale_for_every_line_40_is_half_as_high_as_80(tmp_path: Path) -> None:
    """Ann ends on 40, Bob on 80: one y range covers both, and Bob's line is drawn
    about twice as high as Ann's (per-player sparklines drew both the same height)."""
    stats = _stats_of(
        [("Ann", [10, 20, 30, 40]), ("Bob", [20, 40, 60, 80])],
        [("Ann", 40), ("Bob", 80), ("Ann", 40), ("Bob", 80)],
    )
    app = make_app(None, history=History.in_data_dir(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _stats_screen(app, pilot)
        screen.show_stats(stats)
        await pilot.pause(0.3)
        for chart in _charts(screen):
            series = _series(chart)
            assert [max(ys) for _m, _xs, ys in series] == [40.0, 80.0]
            low, high = chart.plt.monitor.ylim[0]
            assert low <= 0 and high >= 80
            rows = _drawn(chart)
            labels = [row.split("┤")[0].strip() if "┤" in row else "" for row in rows]
            # Each tick's value on a row of its own, evenly apart: 0 20 40 60 80.
            ticks = [(i, int(label)) for i, label in enumerate(labels) if label]
            assert [value for _i, value in ticks] == [80, 60, 40, 20, 0]
            assert len({b - a for (a, _), (b, _) in itertools.pairwise(ticks)}) == 1
            zero_row = labels.index("0")
            ann = _height_of(rows, "●", zero_row)
            bob = _height_of(rows, "▲", zero_row)
            assert bob > 0 and 1.6 <= bob / ann <= 2.5, (ann, bob, "\n".join(rows))


async def test_a_hostile_name_is_drawn_literally(tmp_path: Path) -> None:
    """A name that looks like markup and a wide CJK name: shown as they are, cut in cells,
    and the charts keep their shape (names never go into the plot)."""
    from .test_layout_fit import check_screen

    history = History.in_data_dir(tmp_path)
    names = ["[bold]x[/]", "王小明王小明王小明", "Cy"]
    for seed in range(2):
        record = finished(names, seed, ["human", "human", "ai:greedy"])
        history.add_record(record, mode="ai", local_seats=(0, 1))
    app = make_app(None, history=history)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _stats_screen(app, pilot)
        await _scroll_to_charts(screen, pilot)
        text = screen_text(app)
        assert "[bold]x[/]" in text
        legend = [_plain(s.content) for s in screen.query(".chart-legend")]
        assert legend[1].startswith("▲ 王小明王小… ")  # 12 cells: five characters, "…", " "
        for chart in _charts(screen):
            rows = _drawn(chart)
            assert {cell_len(row) for row in rows} == {chart.size.width}
            assert not any("王" in row or "bold" in row for row in rows)
        assert check_screen(app) == []


async def test_no_color_tells_the_lines_apart_by_symbol(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    history = History.in_data_dir(tmp_path)
    _fill(history)
    app = make_app(None, history=history)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.no_color
        screen = await _stats_screen(app, pilot)
        last, trend = _charts(screen)
        for chart, seats in ((last, 2), (trend, 2)):  # Ann and Bot; Ann and Bob
            drawn = "\n".join(_drawn(chart))
            symbols = [player_style(seat).symbol for seat in range(seats)]
            assert [marker for marker, _xs, _ys in _series(chart)] == symbols
            assert all(symbol in drawn for symbol in symbols)
        legend = [_plain(s.content) for s in screen.query(".chart-legend")]
        assert legend[0].startswith("● Ann") and legend[1].startswith("▲ Bot")


async def test_the_charts_follow_the_theme_and_the_language(tmp_path: Path) -> None:
    from paris_tui import i18n

    history = History.in_data_dir(tmp_path)
    _fill(history)
    app = make_app(None, history=history)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await _stats_screen(app, pilot)
            last, _trend = _charts(screen)
            ann = Color.parse(player_style(0).colour).rgb
            assert last.plt.monitor.color[0][0] == ann
            app.action_toggle_theme()  # light: the deeper shades
            await pilot.pause(0.3)
            assert not app.current_theme.dark
            last, _trend = _charts(screen)
            _drawn(last)
            assert last.plt.monitor.color[0][0] == Color.parse(player_style(0).light).rgb
            i18n.set_language("de")
            app.refresh_language()
            await pilot.pause(0.5)
            titles = [_plain(s.content) for s in app.screen.query(".axis-title")]
            assert titles == ["Punkte", "Runde", "Punkte", "Partie"]
    finally:
        i18n.set_language("en")
