"""The statistics screen: your history of finished games.

Shows the numbers of :meth:`paris_tui.app.local.history.History.stats`, the same
that ``paris-tui stats --json`` prints: games and wins per player name and
against each AI level with the mean score by source (small, grand, special
tours, sack) in Textual :class:`~textual.widgets.DataTable` s, and two charts
(:class:`~paris_tui.app.widgets.score_chart.ScoreChart`, a ``textual-plotext``
plot): the last game's score after each round and at the end (its last point,
after the special tours and the sack), one line per player, and the
local players' score in each of the last 30 games (the trend), one line per
name. Each chart has one scale for all its lines, so the heights compare.

The database is read in a thread worker; a damaged, locked or newer
database is one line on the screen, never a crash. Names are data: every
cell is a Rich :class:`~rich.text.Text`, never markup.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState

from paris_tui.app.local.history import History, HistoryError
from paris_tui.app.look.describe import AI_SEAT_WORDS, plain, printable, short_name, shown_name
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.palette import PlayerStyle, player_style
from paris_tui.app.terminal.fit import cut

from ...i18n import N_, _, decimal, ngettext, pgettext
from ..widgets.footer import KeysFooter
from ..widgets.score_chart import ScoreChart, ScoreLine
from .base import ParisScreen

__all__ = ["StatsScreen"]

_LEVELS = AI_SEAT_WORDS
_SOURCES = ("small_tour", "grand_tour", "special_tour", "sack")
_TREND_GAMES = 30  # the trend shows the last 30 games


def _level_name(level: str) -> str:
    name = _LEVELS.get(level)
    return _(name) if name is not None else f"ai:{level}"


def _columns() -> list[str]:
    return [
        _("games"),
        _("wins"),
        _("mean"),
        _("small"),
        _("grand"),
        _("special"),
        _("sack"),
    ]


def _short(name: str, width: int) -> str:
    """``name`` cut to ``width`` terminal cells (wide characters count two), with the
    glyph set's ellipsis if cut (``...`` in ascii)."""
    if current_glyphs().is_ascii:
        return cut(printable(name), width)
    return short_name(name, width)


def _name_cell(name: str, width: int) -> str:
    """``name`` cut to ``width`` terminal cells and padded to them."""
    short = _short(name, width)
    return short + " " * max(0, width - cell_len(short))


def _chart_parts(title: str, legend: list[Text], chart: ScoreChart, x_title: str) -> list[Widget]:
    """A chart with its heading, its legend (one line a player) and its axis titles.

    The axis titles are text drawn here, above the y axis and under the end of
    the x axis: they are words in the reader's language, and plotext would
    measure them in characters, not cells.
    """
    return [
        Static(title, classes="stats-heading"),
        Vertical(*(Static(label, classes="chart-legend") for label in legend), classes="legend"),
        # Translators: the title of the y axis of the statistics screen's charts.
        Static(pgettext("chart axis", "points"), classes="axis-title"),
        chart,
        Static(x_title, classes="axis-title x-title"),
    ]


def _number_cells(entry: dict[str, Any]) -> list[Text]:
    by = entry["mean_by_source"]
    cells = [str(entry["games"]), str(entry["wins"]), decimal(entry["mean_score"])]
    cells += [decimal(by[k]) for k in _SOURCES]
    return [Text(c, justify="right") for c in cells]


class StatsScreen(ParisScreen):
    """Your history: tables and charts, read from ``history.sqlite3``."""

    DEFAULT_CSS = """
    StatsScreen #stats-box {
        padding: 0 1;
    }
    StatsScreen #stats-title {
        text-style: bold;
        height: auto;
    }
    StatsScreen #stats-message {
        height: auto;
        margin-bottom: 1;
    }
    StatsScreen DataTable {
        height: auto;
        max-height: 8;
        margin-bottom: 1;
    }
    StatsScreen .stats-heading {
        text-style: bold;
        color: $text-muted;
        height: 1;
    }
    StatsScreen #stats-charts {
        height: auto;
    }
    StatsScreen #stats-last, StatsScreen #stats-trend {
        width: 1fr;
        height: auto;
        padding-right: 1;
    }
    StatsScreen .chart-legend {
        height: 1;
        text-wrap: nowrap;
    }
    StatsScreen .legend {
        height: auto;
    }
    StatsScreen .axis-title {
        height: 1;
        text-wrap: nowrap;
        color: $text-muted;
    }
    StatsScreen .x-title {
        text-align: right;
    }
    StatsScreen .-empty {
        display: none;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", N_("Back")),
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
    ]

    def __init__(self, history: History | None) -> None:
        super().__init__()
        self.history = history
        self.stats: dict[str, Any] | None = None
        self.problem: str | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats-box"):
            yield Static(Text(_("Statistics"), style="bold"), id="stats-title")
            yield Static(Text(_("Reading your history…"), style="dim"), id="stats-message")
            yield Static(_("Players"), classes="stats-heading -empty", id="players-heading")
            yield DataTable(
                id="stats-players", cursor_type="none", zebra_stripes=True, classes="-empty"
            )
            yield Static(_("Against the AI"), classes="stats-heading -empty", id="ai-heading")
            yield DataTable(id="stats-ai", cursor_type="none", zebra_stripes=True, classes="-empty")
            with Horizontal(id="stats-charts"):
                yield Vertical(id="stats-last")
                yield Vertical(id="stats-trend")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.run_worker(self._read, thread=True, group="stats", exit_on_error=False)
        # The legend's colours have a shade for dark and one for light backgrounds.
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._theme_changed())

    def _theme_changed(self) -> None:
        if self.stats is not None:
            self._fill_charts()

    def _read(self) -> dict[str, Any]:
        if self.history is None:
            raise HistoryError(_("no history is kept in this session"))
        return self.history.stats()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "stats":
            return
        if event.state == WorkerState.SUCCESS and isinstance(worker.result, dict):
            self.show_stats(worker.result)
        elif event.state == WorkerState.ERROR:
            error = worker.error
            detail = str(error) if isinstance(error, HistoryError) else repr(error)
            self.show_problem(detail)

    def show_problem(self, detail: str) -> None:
        """One line on the screen: the history cannot be read (the game is not affected)."""
        self.problem = detail
        message = _("Your history cannot be read: {problem}").format(problem=detail)
        self.query_one("#stats-message", Static).update(plain(message, style="bold"))

    def show_stats(self, stats: dict[str, Any]) -> None:
        self.stats = stats
        games = int(stats["games"])
        message = ngettext("{n} finished game", "{n} finished games", games).format(n=games)
        if not games:
            message = _("No finished games yet: play one and it shows here.")
        self.query_one("#stats-message", Static).update(Text(message))
        self._fill_table("#stats-players", "#players-heading", _("Player"), stats["players"])
        levels = [dict(entry, name=_level_name(entry["level"])) for entry in stats["vs_ai"]]
        self._fill_table("#stats-ai", "#ai-heading", _("AI level"), levels)
        self._fill_charts()

    def _fill_charts(self) -> None:
        assert self.stats is not None
        legends = [
            self._fill_last(self.stats.get("last_game")),
            self._fill_trend(self.stats.get("trend") or []),
        ]
        # Both legends as tall as the taller one: the two charts side by side line up.
        lines = max((n for _box, n in legends), default=0)
        for box, _n in legends:
            if box is not None:
                box.styles.height = lines

    def _fill_table(
        self, table_id: str, heading_id: str, first: str, rows: list[dict[str, Any]]
    ) -> None:
        table = self.query_one(table_id, DataTable)
        table.clear(columns=True)
        if not rows:
            return
        table.add_column(first, width=14)
        for column in _columns():
            table.add_column(Text(column, justify="right"))
        for entry in rows:
            table.add_row(Text(_short(entry["name"], 14)), *_number_cells(entry))
        table.remove_class("-empty")
        self.query_one(heading_id, Static).remove_class("-empty")

    def _fill_last(self, last: dict[str, Any] | None) -> tuple[Widget | None, int]:
        """The last game's chart; its legend and the legend's number of lines."""
        box = self.query_one("#stats-last", Vertical)
        box.remove_children()
        if not last or not last.get("round_scores"):
            return None, 0
        rounds: list[list[int]] = last["round_scores"]
        lines: list[ScoreLine] = []
        labels: list[Text] = []
        for seat, name in enumerate(last["names"]):
            look = player_style(seat)
            # From 0 before the first round: every player's line starts at the same place.
            # The last point is the final score: the end's special tours and sack (R7).
            final = float(last["scores"][seat])
            scores = [0.0] + [float(r[seat]) for r in rounds] + [final]
            lines.append(ScoreLine(look, tuple(enumerate(scores))))
            labels.append(self._legend(look, name, f"{last['scores'][seat]:>3}"))
        parts = _chart_parts(
            _("Last game: score after each round"),
            labels,
            ScoreChart(lines),
            # Translators: the title of the x axis of the last game's chart.
            pgettext("chart axis", "round"),
        )
        box.mount_all(parts)
        return parts[1], len(labels)

    def _fill_trend(self, trend: list[dict[str, Any]]) -> tuple[Widget | None, int]:
        """The trend's chart; its legend and the legend's number of lines."""
        box = self.query_one("#stats-trend", Vertical)
        box.remove_children()
        if not trend:
            return None, 0
        # x: the games, oldest first, numbered from the first one kept; the last 30 shown.
        games = sorted({int(entry["game"]) for entry in trend})
        number = {game: n for n, game in enumerate(games, start=1)}
        shown = set(games[-_TREND_GAMES:])
        by_name: dict[str, list[tuple[int, float]]] = {}
        every: dict[str, list[float]] = {}  # each name's score in every game (for the mean)
        names: dict[str, str] = {}
        for entry in trend:
            key = str(entry["name"]).casefold()
            names.setdefault(key, str(entry["name"]))
            every.setdefault(key, []).append(float(entry["score"]))
            if int(entry["game"]) in shown:
                point = (number[int(entry["game"])], float(entry["score"]))
                by_name.setdefault(key, []).append(point)
        ordered = sorted(by_name, key=lambda k: (-len(by_name[k]), k))[:4]
        lines: list[ScoreLine] = []
        labels: list[Text] = []
        for index, key in enumerate(ordered):
            look = player_style(index)
            lines.append(ScoreLine(look, tuple(by_name[key])))
            mean = sum(every[key]) / len(every[key])
            labels.append(self._legend(look, shown_name(names[key]), f"{decimal(mean):>5}"))
        parts = _chart_parts(
            _("Trend: your score in each game"),
            labels,
            ScoreChart(lines),
            # Translators: the title of the x axis of the trend chart (one game after another).
            pgettext("chart axis", "game"),
        )
        box.mount_all(parts)
        return parts[1], len(labels)

    def _legend(self, look: PlayerStyle, name: str, number: str) -> Text:
        """``● Ann      46``: the line's symbol in its colour, the name (data), a number."""
        dark = bool(self.app.current_theme.dark)
        colour = look.colour_for(dark)
        label = Text()
        label.append(look.symbol, style=f"bold {colour}")
        label.append(f" {_name_cell(name, 12)}", style=colour)
        label.append(f" {number}")
        return label

    def language_changed(self) -> None:
        """The same numbers, in the current language (composed again)."""

        async def again() -> None:
            await self.recompose()
            if self.stats is not None:
                self.show_stats(self.stats)
            elif self.problem is not None:
                self.show_problem(self.problem)

        self.call_later(again)

    def action_close(self) -> None:
        self.dismiss(None)
