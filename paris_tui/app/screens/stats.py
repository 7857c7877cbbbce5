"""The statistics screen: your history of finished games (issue 11).

Shows the numbers of :meth:`paris_tui.app.history.History.stats`, the same
that ``paris-tui stats --json`` prints: games and wins per player name and
against each AI level with the mean score by source (small, grand, special
tours, sack), the last game's score after each round and each player's
score over the games (the trend), drawn with Textual's own widgets
(:class:`~textual.widgets.DataTable`, :class:`~textual.widgets.Sparkline`).

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
from textual.widgets import DataTable, Footer, Sparkline, Static
from textual.worker import Worker, WorkerState

from ...i18n import N_, _, ngettext
from ..describe import plain, short_name
from ..glyphs import current_glyphs
from ..history import History, HistoryError
from ..palette import player_style
from .base import ParisScreen

__all__ = ["StatsScreen"]

_LEVELS = {
    "random": N_("Random AI"),
    "easy": N_("Easy AI"),
    "greedy": N_("Greedy AI"),
    "strong": N_("Strong AI"),
}
_SOURCES = ("small_tour", "grand_tour", "special_tour", "sack")


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


def _name_cell(name: str, width: int) -> str:
    """``name`` cut to ``width`` terminal cells and padded to them (wide characters count two)."""
    short = short_name(name, width)
    return short + " " * max(0, width - cell_len(short))


def _sparkline(values: list[float]) -> Widget:
    """A Sparkline giving every value the same whole number of cells (at most 30 in all).

    With the ascii glyph set the values are written out instead: a sparkline's
    block characters are drawn two cells wide by terminals in a CJK locale.
    """
    look = current_glyphs()
    if look.name == "ascii":  # the latest values that fit in 24 cells
        shown: list[str] = []
        for value in reversed(values):
            if len(" ".join([f"{value:.0f}", *shown])) > 24 - len(look.ellipsis) - 1:
                shown.insert(0, look.ellipsis)
                break
            shown.insert(0, f"{value:.0f}")
        return Static(" ".join(shown), classes="chart-numbers")
    line = Sparkline(values, summary_function=max)
    line.styles.width = len(values) * max(1, 30 // max(1, len(values))) if values else 1
    return line


def _number_cells(entry: dict[str, Any]) -> list[Text]:
    by = entry["mean_by_source"]
    cells = [str(entry["games"]), str(entry["wins"]), f"{entry['mean_score']:.1f}"]
    cells += [f"{by[k]:.1f}" for k in _SOURCES]
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
    StatsScreen .chart-row {
        height: 1;
    }
    StatsScreen .chart-label {
        width: 14;
        height: 1;
    }
    StatsScreen Sparkline {
        height: 1;
    }
    StatsScreen .chart-numbers {
        width: 1fr;
        height: 1;
        text-wrap: nowrap;
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
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._read, thread=True, group="stats", exit_on_error=False)

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
        self._fill_last(stats.get("last_game"))
        self._fill_trend(stats.get("trend") or [])

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
            table.add_row(Text(short_name(entry["name"], 14)), *_number_cells(entry))
        table.remove_class("-empty")
        self.query_one(heading_id, Static).remove_class("-empty")

    def _fill_last(self, last: dict[str, Any] | None) -> None:
        box = self.query_one("#stats-last", Vertical)
        box.remove_children()
        if not last or not last.get("round_scores"):
            return
        box.mount(Static(_("Last game: score after each round"), classes="stats-heading"))
        rounds: list[list[int]] = last["round_scores"]
        for seat, name in enumerate(last["names"]):
            style = player_style(seat)
            label = Text(f"{style.symbol} {_name_cell(name, 7)} {last['scores'][seat]:>3}")
            label.stylize(style.colour, 0, 1)
            # From 0 before the first round: every player's line starts at the same place.
            row = Horizontal(
                Static(label, classes="chart-label"),
                _sparkline([0.0] + [float(r[seat]) for r in rounds]),
                classes="chart-row",
            )
            box.mount(row)

    def _fill_trend(self, trend: list[dict[str, Any]]) -> None:
        box = self.query_one("#stats-trend", Vertical)
        box.remove_children()
        if not trend:
            return
        box.mount(Static(_("Trend: your score in each game"), classes="stats-heading"))
        by_name: dict[str, list[float]] = {}
        for entry in trend:
            key = str(entry["name"]).casefold()
            by_name.setdefault(key, []).append(float(entry["score"]))
        names = {str(e["name"]).casefold(): str(e["name"]) for e in trend}
        ordered = sorted(by_name, key=lambda k: (-len(by_name[k]), k))[:4]
        for key in ordered:
            scores = by_name[key]
            mean = sum(scores) / len(scores)
            label = Text(f"{_name_cell(names[key], 7)} {mean:>5.1f}")
            row = Horizontal(
                Static(label, classes="chart-label"),
                _sparkline(scores[-30:]),
                classes="chart-row",
            )
            box.mount(row)

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
