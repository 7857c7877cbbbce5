"""The map of Paris as a grid of cells: layouts, no Textual.

A :class:`MapLayout` is the board drawn once on a character grid for a map
area of a given size: for every cell its glyph (plain and heavy), what it is
(:data:`EMPTY`, a :data:`LINE` track, a line :data:`LETTER`, a stop's
:data:`BRACKET` or business :data:`SLOT`, a stop :data:`NAME`, or a
:data:`JUNCTION` of two tracks) and which line or stop it belongs to, plus
where each stop's token and name are and where the bus and scoring labels go.
The widget (:mod:`paris_tui.app.widgets.board_map`) styles these cells per
update; tests check them here without an app::

    layout = build_layout(classic_board(), 54, 18)   # the compact layout
    print(layout_text(layout))
    label_cells(layout, board, (("opera", "+3"),))   # {(row, col): "+", ...}

Layouts (picked by the map area's size)
---------------------------------------
The first that fits wins:

* ``comfortable``: hand-made, 76 x 25 cells, full names, roomy (from 76 x 25,
  e.g. the ~80 x 30 the game screen gives it in a 120 x 40 terminal);
* ``wide``: hand-made, 78 x 16 cells, full names on the compact plan (from
  78 x 16, e.g. a wide but short area such as 80 x 18);
* ``compact``: hand-made, 54 x 16 cells, short names of 4-6 letters (from
  54 x 16, e.g. the 54 x 17 in an 80 x 24 terminal);
* ``generic``: placed from the board file's schematic ``xy``, for boards
  other than the classic one (names shortened or left out where they collide);
* ``notice``: a one-line notice when nothing fits (down to 1 x 1).

The hand-made layouts are data (:mod:`paris_tui.app.map.classic`, notation in
:class:`~paris_tui.app.map.spec.LayoutSpec`); :func:`compile_spec` draws one
and, strict, raises :class:`LayoutError` on any collision.

This module picks and builds the layouts; what a layout holds is
:mod:`~paris_tui.app.map.grid`'s, the drawing :mod:`~paris_tui.app.map.canvas`'s,
the scoring labels' spots :mod:`~paris_tui.app.map.labels`'. Their public names are
importable from here too.
``python -m paris_tui.app.map.layout`` prints them.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from paris_tui.app.look.glyphs import glyphs_for

from ...core.board import Board, classic_board
from ...i18n import _
from .canvas import Canvas
from .classic import LAYOUTS, SHORT_LIMIT, SHORT_NAMES
from .grid import (
    BRACKET,
    EMPTY,
    JUNCTION,
    LABEL_WIDTH,
    LETTER,
    LINE,
    NAME,
    SLOT,
    Cell,
    LabelSpot,
    LayoutError,
    MapLayout,
    MapOverlay,
)
from .labels import label_cells
from .spec import LayoutSpec

__all__ = [
    "BRACKET",
    "EMPTY",
    "JUNCTION",
    "LABEL_WIDTH",
    "LAYOUTS",
    "LETTER",
    "LINE",
    "NAME",
    "SHORT_LIMIT",
    "SHORT_NAMES",
    "SLOT",
    "Cell",
    "LabelSpot",
    "LayoutError",
    "LayoutSpec",
    "MapLayout",
    "MapOverlay",
    "build_layout",
    "bus_cell",
    "compile_spec",
    "generic_layout",
    "label_cells",
    "layout_text",
    "notice_layout",
    "prepare_layouts",
    "short_name",
]


# --------------------------------------------------------------------------
# Names


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def short_name(board: Board, stop: int | str, limit: int = 5) -> str:
    """A stop's short name (at most ``limit`` characters) for tight layouts."""
    index = board.stop_index[stop] if isinstance(stop, str) else stop
    sid = board.stop_ids[index]
    name = _nfc(board.stops[index].name)
    if sid in SHORT_NAMES and len(SHORT_NAMES[sid]) <= limit:
        return SHORT_NAMES[sid]
    if len(name) <= limit:
        return name
    words = [w for w in name.replace("-", " ").split() if w]
    if len(words) > 1:
        initials = "".join(w[0] for w in words[:-1])
        squeezed = (initials + words[-1])[:limit]
        if len(squeezed) >= 3:
            return squeezed
    return name[:limit]


# --------------------------------------------------------------------------
# Layouts: built once per (board, size, glyph set), styled per update


def compile_spec(
    spec: LayoutSpec, board: Board, strict: bool = True, glyphs: str = "unicode"
) -> MapLayout:
    """Draw hand-made layout ``spec`` of ``board`` with glyph set ``glyphs``.

    Strict, a collision raises :class:`LayoutError`; else it is kept in
    ``problems``. In ``ascii`` the names lose their accents and the tracks are
    drawn with ASCII, cell for cell: the layout is the same.
    """
    look = glyphs_for(glyphs)
    canvas = Canvas(board, spec.width, spec.height, strict=strict)
    for sid, (r, c, _label) in spec.stops.items():
        canvas.put_token(board.stop_index[sid], r, c)
    tracks: list[tuple[int, int, list[tuple[int, int]]]] = []
    for line in board.lines:
        for k, (a, b) in enumerate(zip(line.stops, line.stops[1:], strict=False)):
            points = [canvas.anchor[a], *spec.routes.get((line.id, k), ()), canvas.anchor[b]]
            tracks.append((line.index, k, canvas.track(line.index, k, points)))
    for sid, (_r, _c, label) in spec.stops.items():
        stop = board.stop_index[sid]
        full = board.stops[stop].name
        text = look.name_of(short_name(board, stop, SHORT_LIMIT) if spec.short else full)
        row, col = canvas.label_position(stop, text, label)
        canvas.put_name(stop, row, col, text)
    lettered: set[int] = set()
    for li, k, cells in tracks:
        if (board.line_ids[li], k) not in spec.no_letter and canvas.letter(li, cells):
            lettered.add(li)
    for line in board.lines:
        if line.index not in lettered:
            own = [(k, cells) for li, k, cells in tracks if li == line.index]
            allowed = [cells for k, cells in own if (line.id, k) not in spec.no_letter]
            canvas.any_letter(line.index, allowed or [cells for _, cells in own])
    layout = canvas.freeze(spec.name, look)
    layout.problems = canvas.problems
    return layout


def generic_layout(board: Board, width: int, height: int, glyphs: str = "unicode") -> MapLayout:
    """Stops placed from the board's schematic ``xy``: whatever fits, never an error."""
    look = glyphs_for(glyphs)
    canvas = Canvas(board, width, height, strict=False)
    xs = [s.xy[0] for s in board.stops]
    ys = [s.xy[1] for s in board.stops]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    margin = 6 if width >= 40 else 2
    span_c = max(1, width - 2 * margin - 3)
    span_r = max(1, height - 3)
    for stop in sorted(board.stops, key=lambda s: (-s.is_crossing, s.index)):
        c = margin + round((stop.xy[0] - x0) / ((x1 - x0) or 1) * span_c)
        r = 1 + round((y1 - stop.xy[1]) / ((y1 - y0) or 1) * span_r)
        placed = False
        for radius in range(max(width, height)):
            for dr in range(-radius, radius + 1):
                for dc in range(-radius, radius + 1):
                    if max(abs(dr), abs(dc)) != radius:
                        continue
                    if canvas.token_free(stop.index, r + dr, c + dc):
                        canvas.put_token(stop.index, r + dr, c + dc)
                        placed = True
                        break
                if placed:
                    break
            if placed:
                break
    tracks: list[tuple[int, list[tuple[int, int]]]] = []
    for line in board.lines:
        for k, (a, b) in enumerate(zip(line.stops, line.stops[1:], strict=False)):
            if a in canvas.anchor and b in canvas.anchor:
                ra, ca = canvas.anchor[a]
                rb, cb = canvas.anchor[b]
                points = [(ra, ca)]
                dr, dc = rb - ra, cb - ca
                diag = min(abs(dr), abs(dc))
                sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
                if diag:
                    points.append((ra + sr * diag, ca + sc * diag))
                points.append((rb, cb))
                tracks.append((line.index, canvas.track(line.index, k, points)))
    for stop in board.stops:
        if stop.index not in canvas.anchor:
            continue
        full = look.name_of(stop.name)
        options = [
            full,
            look.name_of(short_name(board, stop.index)),
            look.name_of(short_name(board, stop.index, 3)),
        ]
        done = False
        for text in dict.fromkeys(options):
            for label in ("r", "l", "a", "b", "a+3", "b-3"):
                row, col = canvas.label_position(stop.index, text, label)
                if canvas.name_free(row, col - 1, len(text) + 2) or canvas.name_free(
                    row, col, len(text)
                ):
                    canvas.put_name(stop.index, row, col, text)
                    done = True
                    break
            if done:
                break
    lettered: set[int] = set()
    for li, cells in tracks:
        if canvas.letter(li, cells):
            lettered.add(li)
    for line in board.lines:
        if line.index not in lettered:
            canvas.any_letter(line.index, [cells for li, cells in tracks if li == line.index])
    return canvas.freeze("generic", look)


def notice_layout(width: int, height: int, text: str) -> MapLayout:
    """No map, just ``text`` (the widget centres it); holds no grid, whatever the size."""
    canvas = Canvas(classic_board(), 0, 0, strict=False)
    layout = canvas.freeze("notice")
    layout.notice = text
    return layout


def _is_classic(board: Board) -> bool:
    classic = classic_board()
    return board is classic or (
        board.stop_ids == classic.stop_ids
        and [(ln.id, ln.stops) for ln in board.lines] == [(ln.id, ln.stops) for ln in classic.lines]
    )


@lru_cache(maxsize=32)
def _compiled(spec_name: str, board: Board, glyphs: str) -> MapLayout:
    spec = next(s for s in LAYOUTS if s.name == spec_name)
    return compile_spec(spec, board, glyphs=glyphs)


def prepare_layouts() -> int:
    """Draw every hand-made layout of the classic board in every glyph set, now: what
    :func:`build_layout` then finds drawn. A door's fork server (doors/zygote.py) calls
    it once, so that no forked app draws them again (a tenth of its time to its first
    frame). Returns how many layouts were drawn."""
    from paris_tui.app.look.glyphs import GLYPH_SETS

    board = classic_board()
    for spec in LAYOUTS:
        for glyphs in GLYPH_SETS:
            _compiled(spec.name, board, glyphs)
    return len(LAYOUTS) * len(GLYPH_SETS)


def _needs(need: tuple[int, int], have: tuple[int, int], glyphs: str) -> str:
    times = glyphs_for(glyphs).times
    return _("Map needs {need} cells (have {have})").format(
        need=f"{need[0]}{times}{need[1]}", have=f"{have[0]}{times}{have[1]}"
    )


def build_layout(board: Board, width: int, height: int, glyphs: str = "unicode") -> MapLayout:
    """The layout for a map area of ``width`` x ``height`` cells (never raises).

    ``glyphs`` is the set it is drawn with (:data:`~paris_tui.app.look.glyphs.GLYPH_SETS`).
    A map that does not fit is a notice in the current language.
    """
    width, height = max(width, 0), max(height, 0)
    need = _too_small(board, width, height)
    if need is not None:
        return notice_layout(width, height, _needs(need, (width, height), glyphs))
    return _build_layout(board, width, height, glyphs)


def _too_small(board: Board, width: int, height: int) -> tuple[int, int] | None:
    """The size a map needs when ``width`` x ``height`` holds none of its layouts."""
    if _is_classic(board):
        if any(spec.width <= width and spec.height <= height for spec in LAYOUTS):
            return None
        smallest = LAYOUTS[-1]
        if width < smallest.width or height < smallest.height:
            return (smallest.width, smallest.height)
    if width < 24 or height < 8:
        return (24, 8)
    return None


@lru_cache(maxsize=32)
def _build_layout(board: Board, width: int, height: int, glyphs: str) -> MapLayout:
    if _is_classic(board):
        for spec in LAYOUTS:
            if spec.width <= width and spec.height <= height:
                try:
                    return _compiled(spec.name, board, glyphs)
                except LayoutError:  # pragma: no cover - the layouts are tested
                    break
    return generic_layout(board, width, height, glyphs)


def layout_text(layout: MapLayout) -> str:
    """The layout's static drawing as plain text (for checking hand layouts)."""
    if layout.notice:
        return layout.notice
    return "\n".join("".join(row).rstrip() for row in layout.glyph)


def bus_cell(
    layout: MapLayout, board: Board, stop: str | None, line: int | None
) -> tuple[int, int] | None:
    """Where the bus is drawn at ``stop``: on ``line``'s track next to it if there is one."""
    if stop not in board.stop_index or layout.notice:
        return None
    index = board.stop_index[stop]
    spot = layout.bus_on_line.get((index, -1 if line is None else line))
    return spot or layout.bus_spot.get(index)


if __name__ == "__main__":  # pragma: no cover - print the hand layouts
    for spec in LAYOUTS:
        drawn = compile_spec(spec, classic_board(), strict=False)
        print(f"{spec.name} {spec.width}x{spec.height}")
        print("\n".join(f"{i:2d}|{''.join(row)}|" for i, row in enumerate(drawn.glyph)))
        for problem in drawn.problems:
            print("  !", problem)
