"""The game screen's side panels: tiles, players, score track, discard area, route, log.

Each panel renders from a :class:`SeatView` only; none of them holds game
state of its own beyond what it was last given.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import RichLog, Static

from ...core import Board, Event, SeatView
from ..describe import describe_event, seat_label, tile_text
from ..palette import LINE_COLOURS, player_style

__all__ = [
    "DiscardPanel",
    "GameLog",
    "PlayersPanel",
    "PreviewBar",
    "RoutePanel",
    "ScoreTrack",
    "TilePanel",
    "TileRow",
]

TRACK_END = 45  # the scoring track's last space: it runs 0..45 (rules R1)
TRACK_SPACES = TRACK_END + 1  # 46 spaces; only a score above 45 goes round again
LAPS_LEGEND = "↻ = laps past 45"  # under the scores once a score has gone past 45
MAX_TILES = 5


class TileRow(Static):
    """One face-up tile; clicking it highlights it, clicking it again takes it."""

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__("", classes="tile-row", id=f"tile-{index}")
        self.index = index

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))


class TilePanel(Vertical):
    """This round's face-up tiles, numbered, with the highlighted one marked ``▶``."""

    def compose(self) -> ComposeResult:
        yield Static("", id="tiles-title")
        for i in range(MAX_TILES):
            yield TileRow(i)

    def show(self, view: SeatView, highlighted: int | None, *, active: bool) -> None:
        board = view.board
        title = f"Tiles · round {min(view.round + 1, view.rounds_total)}/{view.rounds_total}"
        self.query_one("#tiles-title", Static).update(Text(title, style="bold"))
        for i in range(MAX_TILES):
            row = self.query_one(f"#tile-{i}", TileRow)
            if i >= len(view.face_up):
                row.display = False
                continue
            row.display = True
            selected = active and i == highlighted
            text = Text("▶ " if selected else "  ")
            text.append(f"{i + 1} ")
            text.append_text(tile_text(board, view.face_up[i]))
            stop = view.face_up[i].split("/")[0]
            owners = view.businesses_at(stop)
            cap = board.capacity[board.stop_index[stop]]
            if owners:
                text.append(" " + "".join(player_style(p).symbol for p in owners))
            if len(owners) >= cap:
                text.append(" full", style="italic")
            row.update(text, layout=False)
            row.set_class(selected, "-selected")

    def update_highlight(self, view: SeatView, old: int | None, new: int | None) -> None:
        """Repaint only the two rows whose mark changed (the fast path)."""
        for i in (old, new):
            if i is None or i >= len(view.face_up):
                continue
            row = self.query_one(f"#tile-{i}", TileRow)
            selected = i == new
            text = Text("▶ " if selected else "  ")
            text.append(f"{i + 1} ")
            text.append_text(tile_text(view.board, view.face_up[i]))
            stop = view.face_up[i].split("/")[0]
            owners = view.businesses_at(stop)
            if owners:
                text.append(" " + "".join(player_style(p).symbol for p in owners))
            if len(owners) >= view.board.capacity[view.board.stop_index[stop]]:
                text.append(" full", style="italic")
            row.update(text, layout=False)
            row.set_class(selected, "-selected")


def track_position(score: int) -> tuple[int, int]:
    """``(laps, space)``: where ``score`` stands on the track of spaces 0..45.

    45 is the track's last space; 46 is one lap and space 0 again, 91 one lap
    and space 45, 92 two laps and space 0.
    """
    return divmod(score, TRACK_SPACES)


def score_with_laps(score: int) -> Text:
    """``50↻1``: the score, and how many times it went past 45 round the track."""
    laps, _ = track_position(score)
    text = Text(str(score))
    if laps:
        text.append(f"↻{laps}", style="dim")
    return text


class PlayersPanel(Static):
    """Each seat: symbol and name, score, supply; whose turn, who holds the bus; sack total."""

    def show(self, view: SeatView, *, compact: bool = False) -> None:
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(width=1)
        table.add_column(ratio=1, no_wrap=True)
        table.add_column(justify="right")
        table.add_column(justify="right")
        table.add_row(
            "", Text("Player", style="dim"), Text("Pts", style="dim"), Text("Sup", style="dim")
        )
        width = 8 if compact else 14
        for seat in range(view.players):
            turn = "▶" if view.to_move == seat else ""
            name = seat_label(view.names, seat, width=width)
            if view.starter == seat and not view.is_over:
                name.append(" BUS", style="reverse")
            table.add_row(turn, name, score_with_laps(view.scores[seat]), str(view.supply[seat]))
        if view.players > 2:
            table.add_row("", Text(f"In the sack: {view.sack_total}", style="dim"), "", "")
        if any(track_position(score)[0] for score in view.scores):
            self.update(Group(table, Text(LAPS_LEGEND, style="dim")))
        else:
            self.update(table)


def track_text(scores: Sequence[int], width: int, *, dark: bool = True) -> Text:
    """The scoring track 0..45 in ``width`` cells, each seat's symbol where it stands.

    Seats past 45 are listed after the track with their laps (``●↻1``). Two
    seats on one cell: the later one takes the nearest free cell (the exact
    scores are in the players panel).
    """
    laps = [(seat, track_position(score)[0]) for seat, score in enumerate(scores)]
    suffix = Text()
    if any(n for _, n in laps):
        suffix.append("  laps past 45:")
        for seat, n in laps:
            if n:
                look = player_style(seat)
                suffix.append(" ")
                suffix.append(f"{look.symbol}↻{n}", style=look.colour_for(dark))
    cells = max(10, width - 3 - suffix.cell_len)
    row: list[int | None] = [None] * cells
    for seat, score in enumerate(scores):
        want = round(track_position(score)[1] * (cells - 1) / TRACK_END)
        for step in range(cells):
            free = [c for c in (want - step, want + step) if 0 <= c < cells and row[c] is None]
            if free:
                row[free[0]] = seat
                break
    text = Text("0")
    for at in row:
        if at is None:
            text.append("·")
        else:
            look = player_style(at)
            text.append(look.symbol, style=f"bold {look.colour_for(dark)}")
    text.append("45")
    text.append_text(suffix)
    return text


class ScoreTrack(Static):
    """The scoring track 0..45 with each seat's symbol; laps past 45 are counted."""

    _view: SeatView | None = None

    def on_resize(self) -> None:
        if self._view is not None:
            self.show(self._view)

    def show(self, view: SeatView) -> None:
        self._view = view
        width = self.size.width or 50
        self.update(track_text(view.scores, width, dark=self.app.current_theme.dark))


class DiscardPanel(Static):
    """The discard area: which colours lie there (one more of that colour runs a grand tour)."""

    def show(self, view: SeatView) -> None:
        text = Text("Discard: ", style="bold")
        shown = False
        for line in view.board.lines:
            if line.id in view.discard:
                text.append(
                    f"[{line.letter}]", style=f"bold reverse {LINE_COLOURS.get(line.id, '')}"
                )
                text.append(" ")
                shown = True
        if not shown:
            text.append("empty", style="dim")
        self.update(text)


class RoutePanel(Static):
    """The public route (2 players) and, when allowed and not hidden, the seat's own route."""

    def show(self, view: SeatView, *, reveal: bool, hidden_hint: bool) -> None:
        text = Text()
        board = view.board
        if reveal and view.own_route is not None:
            text.append("Your route: ")
            text.append_text(_route_words(board, view.own_route))
        elif hidden_hint:
            text.append("Route hidden (r shows it)", style="dim")
        if view.public_route is not None:
            if text:
                text.append("\n")
            text.append("Public route: ")
            text.append_text(_route_words(board, view.public_route))
        self.update(text)


def _route_words(board: Board, line: str) -> Text:
    ln = board.lines[board.line_index[line]]
    return Text(f"{ln.name} ({ln.letter})", style=f"bold {LINE_COLOURS.get(line, '')}")


class PreviewBar(Static):
    """What the highlighted tile would do if it were left over."""


class GameLog(RichLog):
    """Every move and every score event with its reason."""

    def add_events(self, view: SeatView, events: list[Event]) -> None:
        for event in events:
            line = describe_event(view.board, view.names, event)
            if line is not None:
                self.write(line)
