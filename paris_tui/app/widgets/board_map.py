"""The map of Paris: five bus lines, 25 stops and their businesses, as one widget.

:class:`BoardMap` draws the board of a :class:`~paris_tui.core.view.SeatView`
with the Line API (``render_line`` returning cached :class:`~textual.strip.Strip`
objects). The game screen drives it; it never reads a ``Game``::

    board_map = BoardMap()
    ...
    board_map.update_map(view, MapOverlay(face_up=stops, selected="opera"))

    def on_board_map_stop_clicked(self, message: BoardMap.StopClicked) -> None:
        ...  # message.stop is a stop id

Where everything goes is decided without Textual in :mod:`paris_tui.app.map`
(layouts picked by the widget's content size on every resize, see
:mod:`paris_tui.app.map.layout`); this widget only styles the cells.

What is drawn
-------------
* Bus lines in their colour (:mod:`paris_tui.app.look.palette`) with the line's
  letter (``B Y R P G``) written into the track between stops, so lines are
  told apart without colour too.
* A plain stop is ``(·)`` with one business slot, a crossing ``[··]`` with two;
  an empty slot is ``·``, a business is its owner's symbol (``● ▲ ■ ◆``) in the
  owner's colour. Every stop is named: full names in the comfortable and wide
  layouts, short names of 4-6 letters in the compact one (app/map/classic.py),
  each next to its own marker and farther from every other.
* Overlays (:class:`MapOverlay`): face-up stops are marked (bold, underlined,
  on a light panel), the selected stop is lit (filled with the theme's accent),
  a tour's line is drawn heavy (``━┃``) while the other lines fade, the bus is
  ``▣`` on the tour's track next to its stop, scoring labels sit beside their
  stops, the small tour's origin is marked (bold, underlined, warning tint).
  All of these stay visible with ``NO_COLOR=1``: glyphs, bold and underline
  stay, and filled highlights become reverse video.

Besides :meth:`BoardMap.update_map` and :class:`BoardMap.StopClicked`, the
widget offers :meth:`BoardMap.stop_at` (which stop is at a cell),
:meth:`BoardMap.token_region` and :meth:`BoardMap.name_region` (where a stop
is drawn) and :meth:`BoardMap.describe_stop` (the text of the hover tooltip).
Repaints are cheap: the layout is built once per size, and a selection
change rebuilds and refreshes only the rows whose content changed
(``benchmarks/map_repaint.py``).

The map is centred in the widget. Styles: component classes
``board-map--*`` (see :attr:`BoardMap.COMPONENT_CLASSES`), styled in
``styles/map.tcss`` with theme variables so dark and light themes both
work; line and player colours come from the palette, in a deeper shade
when the theme is light. Load ``styles/map.tcss`` in the app's
``CSS_PATH`` next to the screen's own stylesheet.

Legend: :func:`~paris_tui.app.map.legend.map_legend` returns a one-line
:class:`rich.text.Text` (line letters in their colours, player symbols with
names, the stop glyphs) for the game screen to place under the map.
``BoardMap(legend=True)`` draws it inside the widget instead, on the first
spare row under the map.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.color import Color
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from paris_tui.app.look.describe import shown_name
from paris_tui.app.look.glyphs import Glyphs, current_glyphs
from paris_tui.app.look.palette import line_colour, player_style
from paris_tui.app.terminal.fit import cut

from ...core.text import printable
from ...i18n import _
from ..map.layout import (
    BRACKET,
    EMPTY,
    JUNCTION,
    LETTER,
    LINE,
    NAME,
    SLOT,
    MapLayout,
    MapOverlay,
    build_layout,
    bus_cell,
    label_cells,
)
from ..map.legend import map_legend

if TYPE_CHECKING:
    from paris_tui.core.view import SeatView

__all__ = ["BoardMap", "MapOverlay", "map_legend"]


class _StopId(str):
    """A stop id that, called, stops its message's propagation (see StopClicked)."""

    _message: Message

    def __new__(cls, stop: str, message: Message) -> _StopId:
        self = super().__new__(cls, stop)
        self._message = message
        return self

    def __call__(self, stop: bool = True) -> Message:
        return Message.stop(self._message, stop)


_NO_OVERLAY: Final = MapOverlay()

# stop states (overlays), strongest last
_NORMAL, _FACE, _ORIGIN, _SELECTED = 0, 1, 2, 3
# how a line's track is drawn
_TRACK_PLAIN, _TRACK_TOUR, _TRACK_DIM = 0, 1, 2
# style keys besides the cell kinds
_BASE, _BUS, _SCORE, _NOTICE, _LEGEND = 0, 10, 11, 12, 13


class BoardMap(Widget):
    """The board as a transit map; see the module docstring. Not focusable."""

    DEFAULT_CSS = """
    BoardMap {
        width: 1fr;
        height: 1fr;
    }
    BoardMap > .board-map--face-up { text-style: bold underline; }
    BoardMap > .board-map--selected { text-style: bold reverse; }
    BoardMap > .board-map--origin { text-style: bold underline; }
    BoardMap > .board-map--bus { text-style: bold reverse; }
    BoardMap > .board-map--score { text-style: bold reverse; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board-map--name",  # a stop's name
        "board-map--crossing-name",  # the name of a crossing
        "board-map--stop",  # the ( ) of a plain stop
        "board-map--crossing",  # the [ ] of a crossing
        "board-map--slot",  # an empty business slot "·"
        "board-map--business",  # added to a business symbol (drawn in the owner's colour)
        "board-map--letter",  # added to a line letter on its track (drawn in the line colour)
        "board-map--face-up",  # a stop with a face-up tile
        "board-map--selected",  # the highlighted stop
        "board-map--origin",  # the small tour's origin
        "board-map--bus",  # the bus
        "board-map--score",  # a scoring label
        "board-map--notice",  # the "map needs more room" notice
        "board-map--legend",  # the legend row (legend=True)
    }

    can_focus = False

    class StopClicked(Message):
        """The user clicked a stop (its token or its name) with the mouse.

        ``stop`` is the stop id. It shadows :meth:`Message.stop`, which Textual
        and handlers call to stop bubbling, so it is a ``str`` that can still be
        called that way: ``message.stop == "opera"`` and ``message.stop()`` both work.
        """

        def __init__(self, stop: str) -> None:
            super().__init__()
            self.stop = _StopId(stop, self)  # type: ignore[method-assign]

    def __init__(
        self,
        view: SeatView | None = None,
        overlay: MapOverlay | None = None,
        *,
        legend: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._view: SeatView | None = view
        self._overlay: MapOverlay = overlay or MapOverlay()
        self._legend = legend
        self._strips: list[Strip] | None = None
        self._strips_size: tuple[int, int] = (0, 0)  # the size _strips were drawn at
        self._styles: dict[tuple[int, ...], Style] = {}
        # map row -> (signature of what it shows, its strip); valid for one frame
        self._rows: dict[int, tuple[tuple[object, ...], Strip]] = {}
        self._rows_frame: tuple[int, int, int] | None = None
        self._dark: bool | None = None
        self._glyphs: Glyphs | None = None  # the set the cached rows were drawn with

    # public API -----------------------------------------------------------

    @property
    def view(self) -> SeatView | None:
        return self._view

    @property
    def overlay(self) -> MapOverlay:
        return self._overlay

    @property
    def layout_name(self) -> str:
        """``comfortable``, ``wide``, ``compact``, ``generic``, ``notice``; ``""`` with no view."""
        layout = self.map_layout
        return layout.name if layout else ""

    @property
    def map_layout(self) -> MapLayout | None:
        """The layout drawn at the current size (None with no view yet)."""
        placed = self._placement()
        return None if placed is None else placed[0]

    @property
    def map_offset(self) -> tuple[int, int]:
        """Where the layout's top-left cell is drawn in the widget, as (x, y)."""
        placed = self._placement()
        return (0, 0) if placed is None else (placed[1], placed[2])

    def update_map(self, view: SeatView, overlay: MapOverlay = _NO_OVERLAY) -> None:
        """Show ``view``'s board with ``overlay`` on top (cheap: re-styles the cells)."""
        same_board = self._view is not None and self._view.board is view.board
        self._view = view
        self._overlay = overlay
        old = self._strips
        width, height = self.size
        if not (same_board and old is not None and self.is_mounted and len(old) == height):
            self._strips = None
            self.refresh()
            return
        new = self._strips = self.render_all()
        self._strips_size = (width, height)
        changed = [y for y in range(height) if new[y] is not old[y]]
        if len(changed) == height:
            self.refresh()
        elif changed:
            self.refresh(*(Region(0, y, width, 1) for y in changed))

    # Textual hooks --------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._rows.clear()
        self._strips = None

    def on_resize(self, event: events.Resize) -> None:
        # Textual sends a widget its first size after the first layout, by when the
        # first frame has drawn it at that size: drawing it again would be for nothing.
        if self._strips is not None and self._strips_size == tuple(self.size):
            return
        self._rows.clear()
        self._strips = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        strips = self._strips
        if (
            strips is None
            or self._strips_size != tuple(self.size)
            or self._glyphs is not current_glyphs()
        ):
            strips = self._strips = self.render_all()
            self._strips_size = (self.size.width, self.size.height)
        if 0 <= y < len(strips):
            return strips[y]
        return Strip.blank(self.size.width, self.rich_style)

    def on_click(self, event: events.Click) -> None:
        stop = self.stop_at(event.x, event.y)
        if stop is not None:
            event.stop()
            self.post_message(self.StopClicked(stop))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        stop = self.stop_at(event.x, event.y)
        tip = self.describe_stop(stop) if stop is not None else None
        content = None if tip is None else Content(printable(tip))  # never markup
        if content != self.tooltip:
            self.tooltip = content

    # helpers --------------------------------------------------------------

    def stop_at(self, x: int, y: int) -> str | None:
        """The id of the stop drawn at widget offset (x, y) (token or name), if any."""
        placed = self._placement()
        if placed is None or self._view is None:
            return None
        layout, ox, oy = placed
        index = layout.hits.get((y - oy, x - ox))
        return None if index is None else self._view.board.stop_ids[index]

    def token_region(self, stop: str) -> Region | None:
        """Where the stop's token (``(·)`` or ``[··]``) is drawn, in widget coordinates."""
        placed = self._placement()
        if placed is None or self._view is None or stop not in self._view.board.stop_index:
            return None
        layout, ox, oy = placed
        cells = layout.stop_cells.get(self._view.board.stop_index[stop])
        if not cells:
            return None
        (row, first), (_, last) = cells[0], cells[-1]
        return Region(ox + first, oy + row, last - first + 1, 1)

    def name_region(self, stop: str) -> Region | None:
        """Where the stop's name is drawn, in widget coordinates."""
        placed = self._placement()
        if placed is None or self._view is None or stop not in self._view.board.stop_index:
            return None
        layout, ox, oy = placed
        cell = layout.name_cells.get(self._view.board.stop_index[stop])
        if cell is None:
            return None
        row, col, length = cell
        return Region(ox + col, oy + row, length, 1)

    def describe_stop(self, stop: str) -> str:
        """One line about a stop: name, kind, lines and businesses (the hover tooltip)."""
        assert self._view is not None
        board = self._view.board
        index = board.stop_index[stop]
        owners = self._view.occupancy[index]
        lines = " ".join(board.lines[li].letter for li in board.stops[index].lines)
        look = current_glyphs()
        held = ", ".join(
            f"{look.player(p)} {shown_name(self._view.names[p])}"
            for p in owners
            if 0 <= p < len(self._view.names)
        )
        name = look.name_of(board.stops[index].name)
        if board.stops[index].is_crossing:
            # Translators: the map's tooltip on a crossing: its name, its lines' letters
            # ("B R"), and who has a business there ("● Ann, ▲ Bob") or "empty".
            text = _("{name} (crossing, line {lines}): {held}")
        else:
            # Translators: the map's tooltip on a stop (see "crossing").
            text = _("{name} (stop, line {lines}): {held}")
        return text.format(name=name, lines=lines, held=held or _("empty"))

    def _placement(self) -> tuple[MapLayout, int, int] | None:
        """The layout for the current size and where its top-left corner goes."""
        if self._view is None:
            return None
        width, height = self.size
        layout = build_layout(self._view.board, width, height, current_glyphs().name)
        if layout.notice:
            return layout, 0, 0
        spare = height - layout.height
        oy = (spare - (2 if self._legend_fits(layout) else 0)) // 2
        return layout, (width - layout.width) // 2, max(0, oy)

    def _legend_fits(self, layout: MapLayout) -> bool:
        return self._legend and self.size.height - layout.height >= 2

    def _is_dark(self) -> bool:
        try:
            return bool(self.app.current_theme.dark)
        except Exception:  # no app yet: assume a dark theme
            return True

    def _style(self, key: tuple[int, ...]) -> Style:
        style = self._styles.get(key)
        if style is None:
            style = self._make_style(key)
            self._styles[key] = style
        return style

    def _component(self, name: str, partial: bool = False) -> Style:
        return self.get_component_rich_style(name, partial=partial)

    def _make_style(self, key: tuple[int, ...]) -> Style:
        base = self.rich_style
        kind = key[0]
        assert self._view is not None
        board = self._view.board
        dark = self._dark if self._dark is not None else True
        state = {_FACE: "board-map--face-up", _SELECTED: "board-map--selected"}
        state[_ORIGIN] = "board-map--origin"
        if kind in (LINE, LETTER, JUNCTION):
            line, mode = key[1], key[2]
            colour = line_colour(board.line_ids[line], dark, line)
            if mode == _TRACK_DIM:
                background = self.background_colors[1]
                colour = background.blend(Color.parse(colour), 0.45).hex
            style = base + Style(color=colour, bold=mode == _TRACK_TOUR)
            if kind == LETTER:
                style += self._component("board-map--letter", partial=True)
            return style
        if kind == BRACKET:
            crossing, st = key[1], key[2]
            style = base + self._component("board-map--crossing" if crossing else "board-map--stop")
            if st in state:
                style += self._component(state[st])
            return style
        if kind == SLOT:
            seat, st = key[1], key[2]
            if seat < 0:
                style = base + self._component("board-map--slot")
            else:
                look = player_style(seat)
                style = (
                    base
                    + self._component("board-map--business", partial=True)
                    + Style(color=look.colour_for(dark), bold=True)
                )
            if st in state:
                fill = self._component(state[st]).bgcolor
                if st == _SELECTED:
                    style += Style(underline=True)
                elif fill is not None:
                    style += Style(bgcolor=fill)
            return style
        if kind == NAME:
            crossing, st = key[1], key[2]
            style = base + self._component(
                "board-map--crossing-name" if crossing else "board-map--name"
            )
            if st in state:
                style += self._component(state[st])
            return style
        if kind == _BUS:
            line = key[1]
            style = base + self._component("board-map--bus")
            if line >= 0 and not self.app.no_color:
                body = Color.parse(line_colour(board.line_ids[line], dark, line))
                style += Style.from_color(body.get_contrast_text().rich_color, body.rich_color)
            return style
        if kind == _SCORE:
            return base + self._component("board-map--score")
        if kind == _NOTICE:
            return base + self._component("board-map--notice")
        if kind == _LEGEND:
            return base + self._component("board-map--legend")
        return base

    def render_all(self) -> list[Strip]:
        """Render every row of the widget (what ``render_line`` serves from its cache).

        A map row whose inputs (stop states, owners, track modes, overlay cells)
        did not change since the last call is reused as the same ``Strip``.
        """
        width, height = self.size
        base = self.rich_style
        blank = Strip.blank(width, base)
        if width <= 0 or height <= 0:
            return [blank] * max(height, 0)
        view = self._view
        if view is None:
            return [blank] * height
        dark = self._is_dark()
        if dark != self._dark:
            self._dark = dark
            self._styles.clear()
            self._rows.clear()
        look = current_glyphs()
        if look is not self._glyphs:
            self._glyphs = look
            self._rows.clear()
        placed = self._placement()
        assert placed is not None
        layout, ox, oy = placed
        if layout.notice:
            strips = [blank] * height
            text = cut(layout.notice, width)
            pad = (width - cell_len(text)) // 2
            strips[height // 2] = Strip(
                [
                    Segment(" " * pad, base),
                    Segment(text, self._style((_NOTICE,))),
                    Segment(" " * (width - pad - cell_len(text)), base),
                ],
                width,
            )
            return strips

        frame = (id(layout), width, ox)
        if self._rows_frame != frame:
            self._rows.clear()
            self._rows_frame = frame
        strips = [blank] * height
        left = Segment(" " * ox, base) if ox > 0 else None
        right_pad = width - ox - layout.width
        right = Segment(" " * right_pad, base) if right_pad > 0 else None
        for y, signature, segments in self._render_rows(layout, view, self._overlay, look):
            if segments is None:
                strips[oy + y] = self._rows[y][1]
                continue
            if left:
                segments.insert(0, left)
            if right:
                segments.append(right)
            strip = Strip(segments, width)
            self._rows[y] = (signature, strip)
            strips[oy + y] = strip
        if self._legend_fits(layout):
            legend = map_legend(view, dark=dark, width=width)
            under = self._style((_LEGEND,))
            pad = max(0, (width - legend.cell_len) // 2)
            segs = [Segment(" " * pad, base)] if pad else []
            segs += [
                Segment(seg.text, under + seg.style if seg.style else under)
                for seg in legend.render(self.app.console)
                if seg.text != "\n"
            ]
            strips[oy + layout.height + 1] = Strip(segs).adjust_cell_length(width, base)
        return strips

    def _render_rows(
        self, layout: MapLayout, view: SeatView, overlay: MapOverlay, look: Glyphs
    ) -> list[tuple[int, tuple[object, ...], list[Segment] | None]]:
        """Each map row: (row, signature, segments or None when the cached row still holds)."""
        board = view.board
        index = board.stop_index
        states: dict[int, int] = {}
        for sid in overlay.face_up:
            if sid in index:
                states[index[sid]] = _FACE
        if overlay.small_tour_origin in index:
            states[index[overlay.small_tour_origin]] = _ORIGIN
        if overlay.selected in index:
            states[index[overlay.selected]] = _SELECTED
        tour = board.line_index.get(overlay.tour_line) if overlay.tour_line else None
        occupancy = view.occupancy
        crossing = [1 if s.is_crossing else 0 for s in board.stops]

        # overlay cells: (row, col) -> (text, style key)
        labels = label_cells(layout, board, overlay.scoring)
        extra: dict[tuple[int, int], tuple[str, tuple[int, ...]]] = {
            cell: (ch, (_SCORE,)) for cell, ch in labels.items()
        }
        bus = bus_cell(layout, board, overlay.bus_at, tour)
        if bus is not None:
            extra[bus] = (look.bus, (_BUS, -1 if tour is None else tour))
        extra_rows: dict[int, list[tuple[int, str, tuple[int, ...]]]] = {}
        for (r, c), (ch, key) in sorted(extra.items()):
            extra_rows.setdefault(r, []).append((c, ch, key))

        track_mode = [
            _TRACK_PLAIN if tour is None else (_TRACK_TOUR if li == tour else _TRACK_DIM)
            for li in range(len(board.lines))
        ]
        style = self._style
        cached = self._rows
        out: list[tuple[int, tuple[object, ...], list[Segment] | None]] = []
        for y in range(layout.height):
            row_stops = layout.row_stops[y]
            signature: tuple[object, ...] = (
                tuple(states.get(s, _NORMAL) for s in row_stops),
                tuple(occupancy[s] for s in row_stops),
                tuple(track_mode[li] for li in layout.row_lines[y]),
                tuple(extra_rows.get(y, ())),
            )
            if y in cached and cached[y][0] == signature:
                out.append((y, signature, None))
                continue
            glyph_row = layout.glyph[y]
            heavy_row = layout.heavy[y]
            kind_row = layout.kind[y]
            ref_row = layout.ref[y]
            aux_row = layout.aux[y]
            segments: list[Segment] = []
            run: list[str] = []
            run_key: tuple[int, ...] = (_BASE,)
            for x in range(layout.width):
                kind = kind_row[x]
                if (y, x) in extra:
                    ch, key = extra[(y, x)]
                elif kind == EMPTY:
                    ch, key = " ", (_BASE,)
                elif kind in (LINE, JUNCTION):
                    line = ref_row[x]
                    mode = track_mode[line]
                    if kind == JUNCTION and track_mode[aux_row[x]] == _TRACK_TOUR:
                        line, mode = aux_row[x], _TRACK_TOUR
                    ch = heavy_row[x] if mode == _TRACK_TOUR else glyph_row[x]
                    key = (LINE, line, mode)
                elif kind == LETTER:
                    line = ref_row[x]
                    ch, key = glyph_row[x], (LETTER, line, track_mode[line])
                elif kind == SLOT:
                    stop = ref_row[x]
                    owners = occupancy[stop]
                    slot = aux_row[x]
                    if slot < len(owners):
                        seat = owners[slot]
                        ch = look.player(seat)
                    else:
                        seat, ch = -1, look.slot
                    key = (SLOT, seat, states.get(stop, _NORMAL))
                else:  # bracket or name
                    stop = ref_row[x]
                    ch = glyph_row[x]
                    key = (kind, crossing[stop], states.get(stop, _NORMAL))
                if key != run_key:
                    if run:
                        segments.append(Segment("".join(run), style(run_key)))
                    run = [ch]
                    run_key = key
                else:
                    run.append(ch)
            if run:
                segments.append(Segment("".join(run), style(run_key)))
            out.append((y, signature, segments))
        return out
