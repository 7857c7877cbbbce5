"""The game screen's side panels: tiles, players, score track, discard area, route, log.

Each panel renders from a :class:`SeatView` only; none of them holds game
state of its own beyond what it was last given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Self

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import RichLog, Static

from paris_tui.app.look.describe import (
    describe_events,
    line_name,
    preview_text,
    seat_label,
    shown_name,
    tile_text,
)
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.palette import LINE_COLOURS, player_style
from paris_tui.app.terminal.fit import Fit
from paris_tui.app.terminal.linebreak import EastAsianText, has_wide

from ...core import Board, Event, SeatView
from ...i18n import N_, _, current_language, ngettext

if TYPE_CHECKING:
    from paris_tui.app.look.frames import Frame
    from paris_tui.core.analysis import LeftoverPreview

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
LAPS_LEGEND = N_("↻ = laps past 45")  # under the scores once a score has gone past 45
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
    """This round's face-up tiles, numbered, with the highlighted one marked ``▶``.

    A row at 80x24 has about 25 cells: the stop's name gives way (cut with
    ``…``), never the business markers nor "full" on the right.
    """

    def compose(self) -> ComposeResult:
        for i in range(MAX_TILES):
            yield TileRow(i)

    def show(self, view: SeatView, highlighted: int | None, *, active: bool) -> None:
        # The title sits in the panel's top border: one row more for the log at 80x24.
        title = _("Tiles · round {round}/{rounds}").format(
            round=min(view.round + 1, view.rounds_total), rounds=view.rounds_total
        )
        self.border_title = Text(title, style="bold")
        for i in range(MAX_TILES):
            row = self.query_one(f"#tile-{i}", TileRow)
            if i >= len(view.face_up):
                row.display = False
                continue
            row.display = True
            self._show_row(view, row, i, active and i == highlighted)

    def update_highlight(self, view: SeatView, old: int | None, new: int | None) -> None:
        """Repaint only the two rows whose mark changed (the fast path)."""
        for i in (old, new):
            if i is None or i >= len(view.face_up):
                continue
            self._show_row(view, self.query_one(f"#tile-{i}", TileRow), i, i == new)

    @staticmethod
    def _show_row(view: SeatView, row: TileRow, i: int, selected: bool) -> None:
        board = view.board
        stop = view.face_up[i].split("/")[0]
        owners = view.businesses_at(stop)
        marks = Text("".join(player_style(p).symbol for p in owners))
        if len(owners) >= board.capacity[board.stop_index[stop]]:
            marks.append(_(" full"), style="italic")
        # Only the middle column gives way when the row is too narrow; its text is cut, not
        # wrapped, so the markers follow the name, whole.
        grid = Table.grid()
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_column(no_wrap=True)
        prefix = Text(f"{current_glyphs().marker if selected else ' '} {i + 1} ")
        name = tile_text(board, view.face_up[i])
        name.no_wrap = True
        name.overflow = "ellipsis"
        # ascii: cut with "..." (Rich would cut with "…")
        shown = Fit([name]) if current_glyphs().is_ascii else name
        grid.add_row(prefix, shown, Text(" ") + marks if marks else "")
        row.update(grid, layout=False)
        row.set_class(selected, "-selected")


def track_position(score: int) -> tuple[int, int]:
    """``(laps, space)``: where ``score`` stands on the track of spaces 0..45.

    45 is the track's last space; 46 is one lap and space 0 again, 91 one lap
    and space 45, 92 two laps and space 0.
    """
    return divmod(score, TRACK_SPACES)


def score_with_laps(score: int) -> Text:
    """``50↻1``: the score, and how many times it went past 45 round the track."""
    laps, _space = track_position(score)
    text = Text(str(score))
    if laps:
        text.append(f"{current_glyphs().laps}{laps}", style="dim")
    return text


class PlayersPanel(Static):
    """Each seat: symbol and name, score, supply; whose turn, who holds the bus; sack total.

    Names are cut (with ``…``) only as far as the panel's width needs, at
    whatever width it is drawn: a resize shows them whole again. ``scores``
    overrides the view's while the game end's tours are still being shown.
    """

    _shown_now: tuple[object, ...] | None = None  # what shows (nothing is drawn again for it)
    _shape: tuple[object, ...] | None = None  # what the panel's height depends on

    def show(
        self,
        view: SeatView,
        *,
        scores: tuple[int, ...] | None = None,
        presence: Sequence[str] | None = None,
        clock: Text | None = None,
    ) -> None:
        """``presence``: each seat's status at a host's table (``away``, ``takeover``...);
        ``clock``: a timed table's move clock (app/online/turns_view.py)."""
        shown = view.scores if scores is None else scores
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(width=1)
        table.add_column(ratio=1, no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_row(
            "",
            Text(_("Player"), style="dim"),
            # Translators: column heads: points, and businesses left in the player's supply.
            Text(_("Pts"), style="dim"),
            Text(_("Sup"), style="dim"),
        )
        for seat in range(view.players):
            turn = current_glyphs().marker if view.to_move == seat else ""
            bus = view.starter == seat and not view.is_over
            table.add_row(
                turn,
                _name_cell(
                    view.names,
                    seat,
                    bus=bus,
                    presence=presence[seat] if presence is not None else None,
                ),
                score_with_laps(shown[seat]),
                str(view.supply[seat]),
            )
        parts: list[Table | Text] = [table]
        if view.players > 2:
            in_sack = _("In the sack: {n}").format(n=view.sack_total)
            sack = Text(f"  {in_sack}", style="dim", no_wrap=True)
            parts.append(sack)
        if any(track_position(score)[0] for score in shown):
            parts.append(Text(f"  {_(LAPS_LEGEND)}", style="dim", no_wrap=True))
        if clock is not None:
            parts.append(clock)
        # Only when what shows changes, and a new layout of the screen only when the panel's
        # height may change: each player joining or leaving a host's table changes every
        # other's presence marks (a whole layout each time, in a burst of logins).
        shown_now = (
            view.names,
            view.to_move,
            view.starter,
            view.is_over,
            tuple(shown),
            tuple(view.supply),
            view.sack_total,
            None if presence is None else tuple(presence),
            clock,
            current_language(),
            current_glyphs().name,
        )
        if shown_now == self._shown_now:
            return
        shape = (len(parts), view.players, None if clock is None else clock.cell_len)
        self.update(Group(*parts), layout=shape != self._shape)
        self._shown_now, self._shape = shown_now, shape


def track_text(scores: Sequence[int], width: int, *, dark: bool = True) -> Text:
    """The scoring track 0..45 in ``width`` cells, each seat's symbol where it stands.

    Seats past 45 are listed after the track with their laps (``●↻1``). Two
    seats on one cell: the later one takes the nearest free cell (the exact
    scores are in the players panel).
    """
    glyphs = current_glyphs()
    laps = [(seat, track_position(score)[0]) for seat, score in enumerate(scores)]
    suffix = Text()
    if any(n for _seat, n in laps):
        suffix.append("  " + _("laps past 45:"))
        for seat, n in laps:
            if n:
                look = player_style(seat)
                suffix.append(" ")
                suffix.append(f"{look.symbol}{glyphs.laps}{n}", style=look.colour_for(dark))
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
            text.append(glyphs.track_space)
        else:
            look = player_style(at)
            text.append(look.symbol, style=f"bold {look.colour_for(dark)}")
    text.append("45")
    text.append_text(suffix)
    return text


# Translators: after a player's name in the players panel, longest first (space is short).
PRESENCE_MARKS = {
    "away": (N_(" (away)"), N_(" away")),
    "takeover": (N_(" (away, AI plays)"), N_(" (AI plays)"), N_(" AI")),
}


def _name_cell(names: tuple[str, ...], seat: int, *, bus: bool, presence: str | None = None) -> Fit:
    """``● Ann BUS``: the name cut by cells only as far as the column needs, BUS kept whole.

    At a host's table a seat whose player is away says so (``● Bob away``,
    ``● Bob away, AI plays`` while an AI plays for them)."""
    label = seat_label(names, seat)
    # Translators: marks the player who holds the bus (the start player); keep it short.
    tail = Text.assemble(" ", (_("BUS"), "reverse")) if bus else Text()
    marks = PRESENCE_MARKS.get(presence or "")
    tails = [tail] if marks is None else [Text(_(m), style="italic") + tail for m in marks]
    variants = [label + t for t in tails]
    for width in range(cell_len(shown_name(names[seat])) - 1, 2, -1):
        variants.append(seat_label(names, seat, width=width) + tails[-1])
    return Fit(variants)


class ScoreTrack(Static):
    """The scoring track 0..45 with each seat's symbol; laps past 45 are counted.

    Drawn at its width when Textual renders it (the first frame has it right, and a
    new width repaints it), not made beforehand at a width it does not have yet."""

    _view: SeatView | None = None
    _scores: tuple[int, ...] | None = None

    def show(self, view: SeatView, *, scores: tuple[int, ...] | None = None) -> None:
        self._view = view
        self._scores = scores
        self.refresh()

    def render(self) -> RenderResult:
        if self._view is None:
            return super().render()
        shown = self._view.scores if self._scores is None else self._scores
        width = self.size.width or 50
        return track_text(shown, width, dark=self.app.current_theme.dark)


class DiscardPanel(Static):
    """The discard area: which colours lie there (one more of that colour runs a grand tour)."""

    def show(self, view: SeatView) -> None:
        text = Text(_("Discard: "), style="bold")
        shown = False
        for line in view.board.lines:
            if line.id in view.discard:
                text.append(
                    f"[{line.letter}]", style=f"bold reverse {LINE_COLOURS.get(line.id, '')}"
                )
                text.append(" ")
                shown = True
        if not shown:
            text.append(_("empty"), style="dim")
        self.update(text)


class RoutePanel(Static):
    """The public route (2 players) and, when allowed and not hidden, the seat's own route.

    Each on one line: "Your route: Green line (G)", or tersely where that
    does not fit ("Your route: Green (G)", "Route: Green (G)").
    """

    def show(self, view: SeatView, *, reveal: bool, hidden_hint: bool) -> None:
        lines: list[Fit] = []
        board = view.board
        if reveal and view.own_route is not None:
            labels = (_("Your route: "), _("Route: "))
            lines.append(_route_line(board, view.own_route, labels))
        elif hidden_hint:
            hint = (_("Route hidden (r shows it)"), _("Route hidden (r)"))
            lines.append(Fit(Text(h, style="dim") for h in hint))
        if view.public_route is not None:
            labels = (_("Public route: "), _("Public: "))
            lines.append(_route_line(board, view.public_route, labels))
        # Shortened alike: never "Your route: Green (G)" beside "Blue line (B)".
        self.update(Group(*Fit.together(lines)) if lines else "")


def _route_line(board: Board, line: str, labels: tuple[str, str]) -> Fit:
    ln = board.lines[board.line_index[line]]
    style = f"bold {LINE_COLOURS.get(line, '')}"
    short = line_name(board, line, short=True)
    full = line_name(board, line)
    variants = [Text.assemble(labels[0], (f"{full} ({ln.letter})", style))]
    variants += [Text.assemble(label, (f"{short} ({ln.letter})", style)) for label in labels]
    return Fit(variants)


class PreviewBar(Static):
    """What the highlighted tile would do if it were left over (or the tour being shown).

    One line at 80x24, two fixed lines on taller terminals (so the map never
    moves as the highlight does); its texts fit themselves to it.
    """

    def show(
        self,
        frame: Frame | None,
        view: SeatView,
        active: int | None,
        *,
        shown: bool,
        previews: Callable[[], dict[str, LeftoverPreview]],
    ) -> None:
        """A tour's caption while its ``frame`` shows; else the ``active`` tile's
        left-over preview (asked of ``previews`` only then), or that it is off."""
        if frame is not None:
            self.update(frame.caption)
            return
        if active is None:
            self.update("")
            return
        if not shown:
            self.update(Text(_("Left-over preview off (p shows it)"), style="dim"))
            return
        preview = previews().get(view.face_up[active])
        if preview is None:
            self.update("")
            return
        self.update(preview_text(view.board, view.names, preview))


def _broken(text: Text) -> Text | EastAsianText:
    """A log line as written: Chinese broken by the East Asian rules (linebreak.py)."""
    return EastAsianText(text) if has_wide(text.plain) else text


class GameLog(RichLog):
    """Every move and every score event with its reason.

    Keeps what it was given and writes it again when its width changes, so
    a resize re-wraps every line as a fresh start at that size would.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: list[Text] = []
        self._wrapped_at = 0

    def write_entry(self, text: Text) -> None:
        self.entries.append(text)
        self.write(_broken(text))

    def rewrite(
        self,
        resumed_at: int | None,
        view: SeatView,
        events: list[Event],
        partly: list[Text],
    ) -> None:
        """The log again from the start: that the game was resumed after ``resumed_at``
        moves (if so), ``events``, then the lines ``partly`` of a tour still being shown."""
        self.clear()
        if resumed_at is not None:
            n = resumed_at
            resumed = ngettext("Resumed after {n} move.", "Resumed after {n} moves.", n)
            self.write_entry(Text(resumed.format(n=n), style="dim"))
        self.add_events(view, events)
        for line in partly:
            self.write_entry(line)

    def add_events(self, view: SeatView, events: list[Event]) -> None:
        for line in describe_events(view.board, view.names, events):
            self.write_entry(line)

    def clear(self) -> Self:
        self.entries = []
        return super().clear()

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if not self._size_known or width == self._wrapped_at:
            self._wrapped_at = width  # the first size: RichLog writes what waited, at it
            return
        self._wrapped_at = width
        at_end = self.scroll_y >= self.max_scroll_y
        entries = self.entries
        super().clear()
        self.entries = entries
        for entry in entries:
            self.write(_broken(entry), scroll_end=False)
        if at_end:
            self.scroll_end(animate=False, immediate=False, x_axis=False)
