"""The map of Paris: five bus lines, 25 stops and their businesses, as one widget.

:class:`BoardMap` draws the board of a :class:`~paris_tui.core.view.SeatView`
with the Line API (``render_line`` returning cached :class:`~textual.strip.Strip`
objects). The game screen drives it; it never reads a ``Game``::

    board_map = BoardMap()
    ...
    board_map.update_map(view, MapOverlay(face_up=stops, selected="opera"))

    def on_board_map_stop_clicked(self, message: BoardMap.StopClicked) -> None:
        ...  # message.stop is a stop id

What is drawn
-------------
* Bus lines in their colour (:mod:`paris_tui.app.palette`) with the line's
  letter (``B Y R P G``) written into the track between stops, so lines are
  told apart without colour too.
* A plain stop is ``(·)`` with one business slot, a crossing ``[··]`` with two;
  an empty slot is ``·``, a business is its owner's symbol (``● ▲ ■ ◆``) in the
  owner's colour. Every stop is named: full names in the comfortable and wide
  layouts, 3-5 letter abbreviations in the compact one (see :data:`SHORT_NAMES`).
* Overlays (:class:`MapOverlay`): face-up stops are marked (bold, underlined,
  on a light panel), the selected stop is lit (filled with the theme's accent),
  a tour's line is drawn heavy (``━┃``) while the other lines fade, the bus is
  ``▣`` on the tour's track next to its stop, scoring labels sit beside their
  stops, the small tour's origin is marked (bold, underlined, warning tint).
  All of these stay visible with ``NO_COLOR=1``: glyphs, bold and underline
  stay, and filled highlights become reverse video.

Besides :meth:`BoardMap.update_map` and :class:`BoardMap.StopClicked`, the
widget offers :meth:`BoardMap.stop_at` (which stop is at a cell),
:meth:`BoardMap.token_region` (where a stop is drawn) and
:meth:`BoardMap.describe_stop` (the text of the hover tooltip).
Repaints are cheap: the layout is built once per size, and a selection
change rebuilds and refreshes only the rows whose content changed
(``benchmarks/map_repaint.py``).

Layouts (picked by the widget's content size on every resize)
-------------------------------------------------------------
The first that fits the widget wins:

* ``comfortable``: hand-made, 76 x 25 cells, full names, roomy (from 76 x 25,
  e.g. the ~80 x 30 the game screen gives it in a 120 x 40 terminal);
* ``wide``: hand-made, 78 x 15 cells, full names on the compact plan (from
  78 x 15, e.g. a wide but short area such as 80 x 18);
* ``compact``: hand-made, 50 x 15 cells, 3-5 letter names (from 50 x 15,
  e.g. the ~54 x 18 in an 80 x 24 terminal);
* ``generic``: placed from the board file's schematic ``xy``, for boards
  other than the classic one (names shortened or left out where they collide);
* ``notice``: a one-line notice when nothing fits (down to 1 x 1).

The map is centred in the widget. Styles: component classes
``board-map--*`` (see :attr:`BoardMap.COMPONENT_CLASSES`), styled in
``styles/map.tcss`` with theme variables so dark and light themes both
work; line and player colours come from the palette, in a deeper shade
when the theme is light. Load ``styles/map.tcss`` in the app's
``CSS_PATH`` next to the screen's own stylesheet.

Legend: :func:`map_legend` returns a one-line :class:`rich.text.Text` (line
letters in their colours, player symbols with names, the stop glyphs) for
the game screen to place under the map. ``BoardMap(legend=True)`` draws it
inside the widget instead, on the first spare row under the map.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, ClassVar, Final

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.color import Color
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from paris_tui.app.palette import line_colour, player_style
from paris_tui.core.board import Board, classic_board

if TYPE_CHECKING:
    from paris_tui.core.view import SeatView

__all__ = [
    "SHORT_NAMES",
    "BoardMap",
    "MapLayout",
    "MapOverlay",
    "build_layout",
    "layout_text",
    "map_legend",
    "short_name",
]


# --------------------------------------------------------------------------
# Overlay


@dataclass(frozen=True)
class MapOverlay:
    """What the game screen wants shown on top of the board right now."""

    face_up: tuple[str, ...] = ()  # stop ids with a face-up tile this round: all marked
    selected: str | None = None  # stop id of the highlighted tile: lit up strongly
    tour_line: str | None = None  # line id of a grand/special tour in progress: emphasised
    bus_at: str | None = None  # stop id where the bus is right now (drawn as "▣")
    scoring: tuple[tuple[str, str], ...] = ()  # (stop id, short label like "+3")
    small_tour_origin: str | None = None  # the left-over tile's stop during a small tour


# --------------------------------------------------------------------------
# Names

SHORT_NAMES: Final[Mapping[str, str]] = {
    "trocadero": "Troca",
    "etoile": "Étoil",
    "opera": "Opéra",
    "montmartre": "Montm",
    "gare-du-nord": "GNord",
    "republique": "Répu",
    "pere-lachaise": "PLach",
    "concorde": "Conc",
    "louvre": "Louvr",
    "pont-neuf": "PNeuf",
    "pompidou": "Pomp",
    "marais": "Marai",
    "bastille": "Bast",
    "gare-de-l-est": "GEst",
    "hotel-de-ville": "HdVil",
    "orsay": "Orsay",
    "invalides": "Inval",
    "tour-eiffel": "Eiff",
    "madeleine": "Madel",
    "saint-germain": "StGer",
    "quartier-latin": "QLat",
    "jardin-des-plantes": "JPlan",
    "saint-nicolas": "StNic",
    "notre-dame": "NDame",
    "luxembourg": "Luxem",
}
"""Abbreviations of the classic board's stops used in the compact layout."""


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
# Layout: a grid of cells, built once per (board, size), styled per update

# cell kinds
_EMPTY: Final = 0
_LINE: Final = 1  # ref = line index
_LETTER: Final = 2  # ref = line index
_BRACKET: Final = 3  # ref = stop index
_SLOT: Final = 4  # ref = stop index, aux = slot number
_NAME: Final = 5  # ref = stop index
_JUNCTION: Final = 6  # two lines cross off a stop; ref = line index (first)

_N, _S, _E, _W = (-1, 0), (1, 0), (0, 1), (0, -1)
_NE, _NW, _SE, _SW = (-1, 1), (-1, -1), (1, 1), (1, -1)
_Dir = tuple[int, int]

_GLYPHS: Final[dict[frozenset[_Dir], tuple[str, str]]] = {
    frozenset((_E, _W)): ("─", "━"),
    frozenset((_N, _S)): ("│", "┃"),
    frozenset((_S, _E)): ("╭", "┏"),
    frozenset((_S, _W)): ("╮", "┓"),
    frozenset((_N, _E)): ("╰", "┗"),
    frozenset((_N, _W)): ("╯", "┛"),
    frozenset((_NE, _SW)): ("╱", "╱"),
    frozenset((_NW, _SE)): ("╲", "╲"),
}


def _glyph(a: _Dir, b: _Dir) -> tuple[str, str]:
    key = frozenset((a, b))
    if key in _GLYPHS:
        return _GLYPHS[key]
    diagonal = a if a[0] and a[1] else b
    if diagonal[0] and diagonal[1]:
        return ("╲", "╲") if diagonal in (_NW, _SE) else ("╱", "╱")
    return ("┼", "╋")


@dataclass(frozen=True)
class _Spec:
    """A hand-made layout of the classic board.

    ``stops`` maps a stop id to (row, column, label): row and column of the
    stop's first slot (where its lines attach), and where its name goes: ``r``
    right, ``l`` left, ``a`` above, ``b`` below, optionally followed by a signed
    column shift (``"a+2"``), and for ``r``/``l`` also a row shift after a comma
    (``"r,1"``). ``routes`` gives bend points of the track from a line's stop k
    to stop k+1 (key ``(line id, k)``); without them a track is straight, a 45°
    diagonal, or an L going along the row first.
    """

    name: str
    width: int
    height: int
    stops: Mapping[str, tuple[int, int, str]]
    routes: Mapping[tuple[str, int], tuple[tuple[int, int], ...]] = field(default_factory=dict)
    short: bool = False
    no_letter: frozenset[tuple[str, int]] = frozenset()


class LayoutError(ValueError):
    """A hand-made layout does not fit together (overlapping cells)."""


@dataclass
class MapLayout:
    """A board drawn on a character grid: static glyphs plus what each cell shows."""

    name: str
    width: int
    height: int
    glyph: list[list[str]]
    heavy: list[list[str]]
    kind: list[list[int]]
    ref: list[list[int]]
    aux: list[list[int]]
    stop_cells: dict[int, list[tuple[int, int]]]  # token cells per stop (for hits)
    name_cells: dict[int, tuple[int, int, int]]  # stop -> (row, col, length)
    bus_spot: dict[int, tuple[int, int]]
    bus_on_line: dict[tuple[int, int], tuple[int, int]]  # (stop, line) -> track cell next to it
    score_spot: dict[int, tuple[int, int]]
    hits: dict[tuple[int, int], int]
    notice: str = ""
    problems: list[str] = field(default_factory=list)
    row_stops: list[tuple[int, ...]] = field(default_factory=list)  # stops drawn in each row
    row_lines: list[tuple[int, ...]] = field(default_factory=list)  # lines drawn in each row

    def __post_init__(self) -> None:
        for y in range(self.height):
            stops: set[int] = set()
            lines: set[int] = set()
            for x in range(self.width):
                kind = self.kind[y][x]
                if kind in (_BRACKET, _SLOT, _NAME):
                    stops.add(self.ref[y][x])
                elif kind in (_LINE, _LETTER):
                    lines.add(self.ref[y][x])
                elif kind == _JUNCTION:
                    lines.update((self.ref[y][x], self.aux[y][x]))
            self.row_stops.append(tuple(sorted(stops)))
            self.row_lines.append(tuple(sorted(lines)))


class _Canvas:
    def __init__(self, board: Board, width: int, height: int, strict: bool) -> None:
        self.board = board
        self.width = width
        self.height = height
        self.strict = strict
        self.glyph = [[" "] * width for _ in range(height)]
        self.heavy = [[" "] * width for _ in range(height)]
        self.kind = [[_EMPTY] * width for _ in range(height)]
        self.ref = [[-1] * width for _ in range(height)]
        self.aux = [[0] * width for _ in range(height)]
        self.stop_cells: dict[int, list[tuple[int, int]]] = {}
        self.name_cells: dict[int, tuple[int, int, int]] = {}
        self.anchor: dict[int, tuple[int, int]] = {}
        self.hits: dict[tuple[int, int], int] = {}
        self.problems: list[str] = []

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width

    def fail(self, problem: str) -> None:
        if self.strict:
            raise LayoutError(problem)
        self.problems.append(problem)

    # tokens ---------------------------------------------------------------

    def token_span(self, stop: int, r: int, c: int) -> list[tuple[int, int]]:
        cap = self.board.capacity[stop]
        return [(r, x) for x in range(c - 1, c + cap + 1)]

    def token_free(self, stop: int, r: int, c: int) -> bool:
        return all(
            self.inside(y, x) and self.kind[y][x] == _EMPTY for y, x in self.token_span(stop, r, c)
        )

    def put_token(self, stop: int, r: int, c: int) -> None:
        cap = self.board.capacity[stop]
        cells = self.token_span(stop, r, c)
        for y, x in cells:
            if not self.inside(y, x) or self.kind[y][x] != _EMPTY:
                self.fail(f"stop {self.board.stop_ids[stop]} overlaps at row {y}, col {x}")
                return
        left, right = ("[", "]") if cap == 2 else ("(", ")")
        for i, (y, x) in enumerate(cells):
            if i == 0 or i == len(cells) - 1:
                self.set(y, x, _BRACKET, stop, 0, left if i == 0 else right)
            else:
                self.set(y, x, _SLOT, stop, i - 1, "·")
            self.hits[(y, x)] = stop
        self.stop_cells[stop] = cells
        self.anchor[stop] = (r, c)

    def set(
        self, r: int, c: int, kind: int, ref: int, aux: int, glyph: str, heavy: str = ""
    ) -> None:
        self.kind[r][c] = kind
        self.ref[r][c] = ref
        self.aux[r][c] = aux
        self.glyph[r][c] = glyph
        self.heavy[r][c] = heavy or glyph

    # tracks ---------------------------------------------------------------

    def track(self, line: int, k: int, points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """Draw line ``line``'s track through ``points``; returns its free cells in order."""
        path: list[tuple[int, int]] = [points[0]]
        for (r0, c0), (r1, c1) in pairwise(points):
            dr, dc = r1 - r0, c1 - c0
            if dr and dc and abs(dr) != abs(dc):
                # an L: along the row first, then the column
                corner = (r0, c1)
                legs = [((r0, c0), corner), (corner, (r1, c1))]
            else:
                legs = [((r0, c0), (r1, c1))]
            for (a0, b0), (a1, b1) in legs:
                sr = (a1 > a0) - (a1 < a0)
                sc = (b1 > b0) - (b1 < b0)
                y, x = a0, b0
                while (y, x) != (a1, b1):
                    y, x = y + sr, x + sc
                    path.append((y, x))
        lid = self.board.line_ids[line]
        free: list[tuple[int, int]] = []
        for i in range(1, len(path) - 1):
            y, x = path[i]
            if not self.inside(y, x):
                self.fail(f"line {lid} track {k} leaves the grid at row {y}, col {x}")
                continue
            kind = self.kind[y][x]
            if kind in (_BRACKET, _SLOT):
                if self.hits.get((y, x)) not in (self.stop_at(path[0]), self.stop_at(path[-1])):
                    self.fail(f"line {lid} track {k} runs through a stop at row {y}, col {x}")
                continue
            prev, nxt = path[i - 1], path[i + 1]
            a = (prev[0] - y, prev[1] - x)
            b = (nxt[0] - y, nxt[1] - x)
            glyph, heavy = _glyph(a, b)
            if kind == _LINE:
                if self.ref[y][x] == line:
                    self.fail(f"line {lid} track {k} runs over itself at row {y}, col {x}")
                    continue
                old = self.glyph[y][x]
                if {old, glyph} == {"─", "│"}:
                    self.set(y, x, _JUNCTION, self.ref[y][x], line, "┼", "╋")
                elif {old, glyph} == {"╱", "╲"}:
                    self.set(y, x, _JUNCTION, self.ref[y][x], line, "╳", "╳")
                else:
                    self.fail(f"lines {lid} and another overlap at row {y}, col {x}")
                continue
            if kind != _EMPTY:
                self.fail(f"line {lid} track {k} runs over text at row {y}, col {x}")
                continue
            self.set(y, x, _LINE, line, 0, glyph, heavy)
            free.append((y, x))
        return free

    def stop_at(self, point: tuple[int, int]) -> int:
        return self.hits.get(point, -1)

    def letter(self, line: int, cells: list[tuple[int, int]]) -> None:
        """Write the line's letter into the middle of a track (keeps a track cell each side)."""
        if len(cells) < 4:
            return
        mid = len(cells) // 2
        order = sorted(range(1, len(cells) - 1), key=lambda i: (abs(i - mid), i))
        for i in order:
            y, x = cells[i]
            if self.glyph[y][x] in ("─", "│"):
                letter = self.board.lines[line].letter
                self.set(y, x, _LETTER, line, 0, letter)
                return

    # names ----------------------------------------------------------------

    def name_free(self, r: int, c: int, n: int) -> bool:
        if not (0 <= r < self.height and c >= 0 and c + n <= self.width):
            return False
        return all(self.kind[r][x] == _EMPTY for x in range(c, c + n))

    def put_name(self, stop: int, r: int, c: int, text: str) -> None:
        if not self.name_free(r, c, len(text)):
            self.fail(f"name {text!r} of {self.board.stop_ids[stop]} collides at row {r}, col {c}")
            return
        for i, ch in enumerate(text):
            self.set(r, c + i, _NAME, stop, i, ch)
            self.hits[(r, c + i)] = stop
        self.name_cells[stop] = (r, c, len(text))

    def label_position(self, stop: int, text: str, label: str) -> tuple[int, int]:
        r, c = self.anchor[stop]
        cap = self.board.capacity[stop]
        t0, t1 = c - 1, c + cap  # token's first and last cell
        side, rest = label[0], label[1:]
        drow = 0
        if "," in rest:
            rest, row_shift = rest.split(",", 1)
            drow = int(row_shift)
        shift = int(rest) if rest else 0
        n = len(text)
        if side == "r":
            return r + drow, t1 + 2 + shift
        if side == "l":
            return r + drow, t0 - 1 - n + shift
        centre = (t0 + t1 + 1) // 2
        row = r - 1 if side == "a" else r + 1
        return row + drow, centre - n // 2 + shift

    # finishing ------------------------------------------------------------

    def spots(
        self,
    ) -> tuple[
        dict[int, tuple[int, int]],
        dict[tuple[int, int], tuple[int, int]],
        dict[int, tuple[int, int]],
    ]:
        bus: dict[int, tuple[int, int]] = {}
        on_line: dict[tuple[int, int], tuple[int, int]] = {}
        score: dict[int, tuple[int, int]] = {}
        for stop, cells in self.stop_cells.items():
            (r, t0), (_, t1) = cells[0], cells[-1]
            _, c = self.anchor[stop]
            # the first track cell of each line next to the token (left, right, then around)
            around = [(r, t0 - 1), (r, t1 + 1)]
            around += [(r + dr, x) for dr in (-1, 1) for x in range(t0 - 1, t1 + 2)]
            for y, x in around:
                if self.inside(y, x) and self.kind[y][x] in (_LINE, _LETTER):
                    on_line.setdefault((stop, self.ref[y][x]), (y, x))
            for y, x in ((r, t0 - 1), (r, t1 + 1), (r - 1, c), (r + 1, c)):
                if self.inside(y, x) and self.kind[y][x] in (_EMPTY, _LINE, _LETTER):
                    bus[stop] = (y, x)
                    break
            else:
                bus[stop] = (r, t0)
            candidates: list[tuple[int, int]] = []
            if stop in self.name_cells:
                nr, nc, n = self.name_cells[stop]
                candidates += [(nr, nc + n + 1), (nr, nc - 4)]
            candidates += [(r, t1 + 2), (r, t0 - 4), (r - 1, t0), (r + 1, t0)]
            for y, x in candidates:
                if self.inside(y, x) and self.name_free(y, x, 3):
                    score[stop] = (y, x)
                    break
            else:
                score[stop] = self.name_cells.get(stop, (r, t0, 0))[:2]
        return bus, on_line, score

    def freeze(self, name: str) -> MapLayout:
        bus, on_line, score = self.spots()
        return MapLayout(
            name=name,
            width=self.width,
            height=self.height,
            glyph=self.glyph,
            heavy=self.heavy,
            kind=self.kind,
            ref=self.ref,
            aux=self.aux,
            stop_cells=self.stop_cells,
            name_cells=self.name_cells,
            bus_spot=bus,
            bus_on_line=on_line,
            score_spot=score,
            hits=self.hits,
        )


def _compile_spec(spec: _Spec, board: Board, strict: bool = True) -> MapLayout:
    canvas = _Canvas(board, spec.width, spec.height, strict=strict)
    for sid, (r, c, _label) in spec.stops.items():
        canvas.put_token(board.stop_index[sid], r, c)
    tracks: list[tuple[int, int, list[tuple[int, int]]]] = []
    for line in board.lines:
        for k, (a, b) in enumerate(zip(line.stops, line.stops[1:], strict=False)):
            points = [canvas.anchor[a], *spec.routes.get((line.id, k), ()), canvas.anchor[b]]
            tracks.append((line.index, k, canvas.track(line.index, k, points)))
    for sid, (_r, _c, label) in spec.stops.items():
        stop = board.stop_index[sid]
        text = short_name(board, stop) if spec.short else _nfc(board.stops[stop].name)
        row, col = canvas.label_position(stop, text, label)
        canvas.put_name(stop, row, col, text)
    for li, k, cells in tracks:
        if (board.line_ids[li], k) not in spec.no_letter:
            canvas.letter(li, cells)
    layout = canvas.freeze(spec.name)
    layout.problems = canvas.problems
    return layout


def _generic_layout(board: Board, width: int, height: int) -> MapLayout:
    """Stops placed from the board's schematic ``xy``: whatever fits, never an error."""
    canvas = _Canvas(board, width, height, strict=False)
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
        for a, b in zip(line.stops, line.stops[1:], strict=False):
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
                tracks.append((line.index, canvas.track(line.index, 0, points)))
    for stop in board.stops:
        if stop.index not in canvas.anchor:
            continue
        full = _nfc(stop.name)
        options = [full, short_name(board, stop.index), short_name(board, stop.index, 3)]
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
    for li, cells in tracks:
        canvas.letter(li, cells)
    return canvas.freeze("generic")


def _notice_layout(width: int, height: int, text: str) -> MapLayout:
    """No map, just ``text`` (the widget centres it); holds no grid, whatever the size."""
    canvas = _Canvas(classic_board(), 0, 0, strict=False)
    layout = canvas.freeze("notice")
    layout.notice = text
    return layout


# --------------------------------------------------------------------------
# The hand-made layouts of the classic board (see _Spec for the notation)

_COMFORTABLE = _Spec(
    name="comfortable",
    width=76,
    height=25,
    stops={
        # blue, along the top
        "trocadero": (5, 2, "b+2"),
        "etoile": (5, 12, "a"),
        "opera": (5, 27, "a"),
        "montmartre": (1, 40, "a"),
        "gare-du-nord": (1, 54, "r"),
        "republique": (7, 60, "r"),
        "pere-lachaise": (10, 66, "b+3"),
        # yellow, across the middle
        "concorde": (10, 21, "b-6"),
        "louvre": (10, 28, "a"),
        "pont-neuf": (10, 34, "b"),
        "pompidou": (10, 40, "a+5"),
        "marais": (10, 48, "b"),
        # red, from the north-east down and across
        "gare-de-l-est": (4, 68, "a"),
        "bastille": (14, 60, "r"),
        "hotel-de-ville": (14, 40, "b+8"),
        "orsay": (14, 30, "a"),
        "invalides": (14, 21, "b-8"),
        "tour-eiffel": (14, 4, "a+1"),
        # pink, from Opéra round the south-west
        "madeleine": (7, 24, "r"),
        "saint-germain": (20, 27, "b"),
        "quartier-latin": (20, 40, "a+8"),
        "jardin-des-plantes": (22, 54, "b"),
        # green, straight down the middle
        "saint-nicolas": (4, 40, "r"),
        "notre-dame": (17, 40, "r"),
        "luxembourg": (23, 37, "b"),
    },
    routes={
        ("blue", 2): ((5, 32), (1, 36)),
        ("blue", 5): ((10, 63),),
        ("yellow", 0): ((10, 17),),
        ("yellow", 5): ((10, 56),),
        ("red", 0): ((4, 63),),
        ("pink", 0): ((7, 25),),
        ("pink", 1): ((7, 23), (10, 20)),
        ("pink", 5): ((20, 52),),
    },
)

_COMPACT = _Spec(
    name="compact",
    width=50,
    height=15,
    short=True,
    stops={
        "trocadero": (1, 1, "a+1"),
        "etoile": (1, 8, "a"),
        "opera": (1, 19, "a"),
        "montmartre": (1, 28, "a-1"),
        "gare-du-nord": (1, 35, "a+1"),
        "republique": (3, 42, "r"),
        "pere-lachaise": (6, 45, "b+1"),
        "concorde": (5, 15, "b-5"),
        "louvre": (5, 20, "b"),
        "pont-neuf": (5, 24, "a"),
        "pompidou": (5, 28, "a+3"),
        "marais": (5, 35, "b"),
        "gare-de-l-est": (1, 47, "a"),
        "bastille": (8, 42, "r"),
        "hotel-de-ville": (8, 28, "b+3"),
        "orsay": (8, 21, "a"),
        "invalides": (8, 15, "b-6"),
        "tour-eiffel": (8, 2, "b"),
        "madeleine": (3, 17, "l"),
        "saint-germain": (12, 19, "b"),
        "quartier-latin": (12, 28, "b+3"),
        "jardin-des-plantes": (12, 38, "r"),
        "saint-nicolas": (3, 28, "r"),
        "notre-dame": (10, 28, "r"),
        "luxembourg": (14, 26, "l"),
    },
    routes={
        ("blue", 4): ((1, 40),),
        ("blue", 5): ((5, 44),),
        ("yellow", 0): ((5, 8),),
        ("yellow", 5): ((5, 39),),
        ("red", 0): ((1, 44),),
        ("pink", 0): ((3, 17),),
    },
    no_letter=frozenset({("red", 1)}),
)

_WIDE = _Spec(
    name="wide",
    width=78,
    height=15,
    stops={
        "trocadero": (1, 4, "a"),
        "etoile": (1, 13, "a"),
        "opera": (1, 28, "a"),
        "montmartre": (1, 42, "a"),
        "gare-du-nord": (1, 57, "a"),
        "gare-de-l-est": (1, 73, "a-2"),
        "madeleine": (3, 26, "l"),
        "saint-nicolas": (3, 42, "r"),
        "republique": (3, 63, "r"),
        "pere-lachaise": (5, 70, "b+1"),
        "concorde": (5, 24, "b-7"),
        "louvre": (5, 31, "b"),
        "pont-neuf": (5, 37, "a-1"),
        "pompidou": (5, 42, "a+5"),
        "marais": (5, 52, "b"),
        "tour-eiffel": (8, 3, "b+2"),
        "invalides": (8, 24, "b-8"),
        "orsay": (8, 33, "a"),
        "hotel-de-ville": (8, 42, "b+8"),
        "bastille": (8, 63, "r"),
        "notre-dame": (10, 42, "r"),
        "saint-germain": (12, 28, "b"),
        "quartier-latin": (12, 42, "b+8"),
        "jardin-des-plantes": (12, 56, "r"),
        "luxembourg": (14, 40, "l"),
    },
    routes={
        ("blue", 4): ((1, 61),),
        ("blue", 5): ((5, 65),),
        ("yellow", 0): ((5, 13),),
        ("yellow", 5): ((5, 60),),
        ("red", 0): ((1, 65),),
        ("pink", 0): ((3, 26),),
    },
    no_letter=frozenset({("red", 1)}),
)

LAYOUTS: Final[tuple[_Spec, ...]] = (_COMFORTABLE, _WIDE, _COMPACT)


def _is_classic(board: Board) -> bool:
    classic = classic_board()
    return board is classic or (
        board.stop_ids == classic.stop_ids
        and [(ln.id, ln.stops) for ln in board.lines] == [(ln.id, ln.stops) for ln in classic.lines]
    )


@lru_cache(maxsize=32)
def _compiled(spec_name: str, board: Board) -> MapLayout:
    spec = next(s for s in LAYOUTS if s.name == spec_name)
    return _compile_spec(spec, board)


@lru_cache(maxsize=32)
def build_layout(board: Board, width: int, height: int) -> MapLayout:
    """The layout for a map area of ``width`` x ``height`` cells (never raises)."""
    width, height = max(width, 0), max(height, 0)
    if _is_classic(board):
        for spec in LAYOUTS:
            if spec.width <= width and spec.height <= height:
                try:
                    return _compiled(spec.name, board)
                except LayoutError:  # pragma: no cover - the layouts are tested
                    break
        smallest = LAYOUTS[-1]
        if width < smallest.width or height < smallest.height:
            return _notice_layout(
                width,
                height,
                f"Map needs {smallest.width}×{smallest.height} cells (have {width}×{height})",
            )
    if width < 24 or height < 8:
        return _notice_layout(width, height, f"Map needs 24×8 cells (have {width}×{height})")
    return _generic_layout(board, width, height)


def layout_text(layout: MapLayout) -> str:
    """The layout's static drawing as plain text (for checking hand layouts)."""
    if layout.notice:
        return layout.notice
    return "\n".join("".join(row).rstrip() for row in layout.glyph)


# --------------------------------------------------------------------------
# Legend


def map_legend(
    view: SeatView, *, dark: bool = True, glyphs: bool = True, width: int | None = None
) -> Text:
    """One line for under the map: line letters in colour, player symbols with names.

    ``dark`` picks the palette shades for a dark or light theme
    (``app.current_theme.dark``); ``glyphs`` adds the key to the stop glyphs.
    With ``width``, detail is dropped until the line fits (glyph key, then line
    names, then player names), and what still does not fit is cut with "…".
    """
    variants = [
        (True, True, glyphs),
        (True, True, False),
        (False, True, False),
        (False, False, False),
    ]
    text = Text()
    for line_names, player_names, key in variants:
        text = _legend(view, dark, line_names, player_names, key)
        if width is None or text.cell_len <= width:
            break
    if width is not None:
        text.truncate(width, overflow="ellipsis")
    return text


def _legend(view: SeatView, dark: bool, line_names: bool, player_names: bool, key: bool) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    for line in view.board.lines:
        colour = line_colour(line.id, dark, line.index)
        text.append(f" {line.letter} ", Style(color=colour, bold=True, reverse=True))
        if line_names:
            text.append(f"{line.name.removesuffix(' line')} ", Style(color=colour))
        else:
            text.append(" ")
    for seat, name in enumerate(view.names):
        look = player_style(seat)
        text.append(("  " if player_names else " ") if seat else "  ")
        text.append(look.symbol, Style(color=look.colour_for(dark), bold=True))
        if player_names:
            text.append(f" {name}")
    if key:
        text.append("   (·) stop  [··] crossing", Style(dim=True))
    return text


# --------------------------------------------------------------------------
# The widget


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
        self._styles: dict[tuple[int, ...], Style] = {}
        # map row -> (signature of what it shows, its strip); valid for one frame
        self._rows: dict[int, tuple[tuple[object, ...], Strip]] = {}
        self._rows_frame: tuple[int, int, int] | None = None
        self._dark: bool | None = None

    # public API -----------------------------------------------------------

    @property
    def view(self) -> SeatView | None:
        return self._view

    @property
    def overlay(self) -> MapOverlay:
        return self._overlay

    @property
    def layout_name(self) -> str:
        """``comfortable``, ``compact``, ``generic``, ``notice``; ``""`` with no view yet."""
        layout = self._current_layout()
        return layout.name if layout else ""

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
        self._rows.clear()
        self._strips = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        strips = self._strips
        if strips is None or len(strips) != self.size.height:
            strips = self._strips = self.render_all()
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
        if tip != self.tooltip:
            self.tooltip = tip

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

    def describe_stop(self, stop: str) -> str:
        """One line about a stop: name, kind, lines and businesses (the hover tooltip)."""
        assert self._view is not None
        board = self._view.board
        index = board.stop_index[stop]
        owners = self._view.occupancy[index]
        kind = "crossing" if board.stops[index].is_crossing else "stop"
        lines = " ".join(board.lines[li].letter for li in board.stops[index].lines)
        held = ", ".join(
            f"{player_style(p).symbol} {self._view.names[p]}"
            for p in owners
            if 0 <= p < len(self._view.names)
        )
        return f"{board.stops[index].name} ({kind}, line {lines}): {held or 'empty'}"

    def _current_layout(self) -> MapLayout | None:
        placed = self._placement()
        return None if placed is None else placed[0]

    def _placement(self) -> tuple[MapLayout, int, int] | None:
        """The layout for the current size and where its top-left corner goes."""
        if self._view is None:
            return None
        width, height = self.size
        layout = build_layout(self._view.board, width, height)
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
        if kind in (_LINE, _LETTER, _JUNCTION):
            line, mode = key[1], key[2]
            colour = line_colour(board.line_ids[line], dark, line)
            if mode == _TRACK_DIM:
                background = self.background_colors[1]
                colour = background.blend(Color.parse(colour), 0.45).hex
            style = base + Style(color=colour, bold=mode == _TRACK_TOUR)
            if kind == _LETTER:
                style += self._component("board-map--letter", partial=True)
            return style
        if kind == _BRACKET:
            crossing, st = key[1], key[2]
            style = base + self._component("board-map--crossing" if crossing else "board-map--stop")
            if st in state:
                style += self._component(state[st])
            return style
        if kind == _SLOT:
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
        if kind == _NAME:
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
        placed = self._placement()
        assert placed is not None
        layout, ox, oy = placed
        if layout.notice:
            strips = [blank] * height
            text = layout.notice[:width]
            pad = (width - len(text)) // 2
            strips[height // 2] = Strip(
                [
                    Segment(" " * pad, base),
                    Segment(text, self._style((_NOTICE,))),
                    Segment(" " * (width - pad - len(text)), base),
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
        for y, signature, segments in self._render_rows(layout, view, self._overlay):
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
        self, layout: MapLayout, view: SeatView, overlay: MapOverlay
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
        extra: dict[tuple[int, int], tuple[str, tuple[int, ...]]] = {}
        for sid, label in overlay.scoring:
            if sid in index and label:
                r, c = layout.score_spot[index[sid]]
                for i, ch in enumerate(label[: max(0, layout.width - c)]):
                    extra[(r, c + i)] = (ch, (_SCORE,))
        if overlay.bus_at in index:
            bus_stop = index[overlay.bus_at]
            spot = layout.bus_on_line.get((bus_stop, -1 if tour is None else tour))
            r, c = spot or layout.bus_spot[bus_stop]
            extra[(r, c)] = ("▣", (_BUS, -1 if tour is None else tour))
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
                elif kind == _EMPTY:
                    ch, key = " ", (_BASE,)
                elif kind in (_LINE, _JUNCTION):
                    line = ref_row[x]
                    mode = track_mode[line]
                    if kind == _JUNCTION and track_mode[aux_row[x]] == _TRACK_TOUR:
                        line, mode = aux_row[x], _TRACK_TOUR
                    ch = heavy_row[x] if mode == _TRACK_TOUR else glyph_row[x]
                    key = (_LINE, line, mode)
                elif kind == _LETTER:
                    line = ref_row[x]
                    ch, key = glyph_row[x], (_LETTER, line, track_mode[line])
                elif kind == _SLOT:
                    stop = ref_row[x]
                    owners = occupancy[stop]
                    slot = aux_row[x]
                    if slot < len(owners):
                        seat = owners[slot]
                        ch = player_style(seat).symbol
                    else:
                        seat, ch = -1, "·"
                    key = (_SLOT, seat, states.get(stop, _NORMAL))
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


if __name__ == "__main__":  # pragma: no cover - print the hand layouts
    for spec in LAYOUTS:
        drawn = _compile_spec(spec, classic_board(), strict=False)
        print(f"{spec.name} {spec.width}x{spec.height}")
        print("\n".join(f"{i:2d}|{''.join(row)}|" for i, row in enumerate(drawn.glyph)))
        for problem in drawn.problems:
            print("  !", problem)
