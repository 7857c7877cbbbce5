"""The board: five bus lines of seven stops, loaded and validated from data (rules R1).

A :class:`Board` is immutable and holds, besides the readable names, the
integer tables the engine's hot path uses: stops, lines and tile kinds are
small integers, neighbours and small-tour distance rings are precomputed.

>>> board = classic_board()
>>> len(board.stops), len(board.lines), len(board.all_tiles)
(25, 5, 60)
>>> board.stop_name(board.stop_index["pompidou"])
'Pompidou'
>>> sorted(board.stop_ids[s] for s in board.neighbours[board.stop_index["pompidou"]])
['hotel-de-ville', 'marais', 'pont-neuf', 'saint-nicolas']
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .errors import BoardError

__all__ = ["Board", "Line", "Stop", "TileKind", "classic_board", "load_board", "parse_board"]

STOPS_PER_LINE = 7
LINE_COUNT = 5
TILE_COUNT = 60


@dataclass(frozen=True, slots=True)
class Line:
    """A bus line: its id (``"blue"``), letter (``"B"``), name and stops in tour order."""

    index: int
    id: str
    letter: str
    name: str
    stops: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Stop:
    """A bus stop: its id, display name, schematic position and the lines through it."""

    index: int
    id: str
    name: str
    xy: tuple[float, float]
    lines: tuple[int, ...]

    @property
    def is_crossing(self) -> bool:
        return len(self.lines) == 2

    @property
    def capacity(self) -> int:
        """How many businesses the stop holds (R4): 2 at a crossing, 1 elsewhere."""
        return 2 if len(self.lines) == 2 else 1


@dataclass(frozen=True, slots=True)
class TileKind:
    """One kind of tile, ``stop/line`` (R1); ``count`` tiles of it are in the game."""

    index: int
    name: str
    stop: int
    line: int
    count: int


class Board:
    """A validated board with precomputed tables. Build it with :func:`parse_board`."""

    def __init__(self, board_id: str, name: str, lines: list[Line], stops: list[Stop]) -> None:
        self.id = board_id
        self.name = name
        self.lines: tuple[Line, ...] = tuple(lines)
        self.stops: tuple[Stop, ...] = tuple(stops)
        self.stop_ids: tuple[str, ...] = tuple(s.id for s in stops)
        self.stop_index: dict[str, int] = {s.id: s.index for s in stops}
        self.line_ids: tuple[str, ...] = tuple(line.id for line in lines)
        self.line_index: dict[str, int] = {line.id: line.index for line in lines}
        self.capacity: tuple[int, ...] = tuple(s.capacity for s in stops)

        # Neighbours (R1): the stops directly before and after, on every line through.
        nbrs: list[set[int]] = [set() for _ in stops]
        for line in lines:
            for a, b in zip(line.stops, line.stops[1:], strict=False):
                nbrs[a].add(b)
                nbrs[b].add(a)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(n)) for n in nbrs)
        self.neighbour_mask: tuple[int, ...] = tuple(sum(1 << s for s in n) for n in nbrs)

        # The crossings a grand tour visits, in line order (R6).
        self.line_crossings: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in line.stops if stops[s].is_crossing) for line in lines
        )

        # Tiles (R1): one per road segment touching a stop, coloured by its line.
        kinds: list[TileKind] = []
        for stop in stops:
            for li in stop.lines:
                seq = lines[li].stops
                pos = seq.index(stop.index)
                count = (pos > 0) + (pos < len(seq) - 1)
                kinds.append(
                    TileKind(len(kinds), f"{stop.id}/{lines[li].id}", stop.index, li, count)
                )
        self.tile_kinds: tuple[TileKind, ...] = tuple(kinds)
        self.tile_index: dict[str, int] = {k.name: k.index for k in kinds}
        self.tile_stop: tuple[int, ...] = tuple(k.stop for k in kinds)
        self.tile_line: tuple[int, ...] = tuple(k.line for k in kinds)
        self.tile_names: tuple[str, ...] = tuple(k.name for k in kinds)
        self.tile_capacity: tuple[int, ...] = tuple(self.capacity[k.stop] for k in kinds)
        self.all_tiles: tuple[str, ...] = tuple(k.name for k in kinds for _ in range(k.count))
        self.all_tile_ids: tuple[int, ...] = tuple(k.index for k in kinds for _ in range(k.count))

        # Small-tour rings (R5): for a stop, the stops at distance 1, 2, ... along
        # the lines considered, nearest first. "both-lines" looks along every line
        # through the stop; "tile-line" only along the tile's own line.
        self.rings_both: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            self._rings(s.index, s.lines) for s in stops
        )
        self.rings_by_tile = tuple(self.rings_both[s] for s in self.tile_stop)
        self.rings_tile_line: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            self._rings(k.stop, (k.line,)) for k in kinds
        )

    def _rings(self, stop: int, line_ids: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        by_distance: dict[int, list[int]] = {}
        for li in line_ids:
            seq = self.lines[li].stops
            pos = seq.index(stop)
            for i, other in enumerate(seq):
                if i != pos:
                    by_distance.setdefault(abs(i - pos), []).append(other)
        return tuple(tuple(by_distance[d]) for d in sorted(by_distance))

    # Readable helpers -----------------------------------------------------

    def stop_name(self, stop: int | str) -> str:
        """The display name of a stop given by index or id."""
        index = self.stop_index[stop] if isinstance(stop, str) else stop
        return self.stops[index].name

    def tile_label(self, tile: str) -> str:
        """``"pompidou/green"`` -> ``"Pompidou (G)"``."""
        kind = self.tile_kinds[self.tile_index[tile]]
        return f"{self.stops[kind.stop].name} ({self.lines[kind.line].letter})"

    def crossings(self) -> tuple[int, ...]:
        return tuple(s.index for s in self.stops if s.is_crossing)

    def __repr__(self) -> str:
        return f"<Board {self.id!r}: {len(self.lines)} lines, {len(self.stops)} stops>"


def _expect(cond: bool, message: str) -> None:
    if not cond:
        raise BoardError(message)


def parse_board(data: Any) -> Board:
    """Validate board data (the parsed JSON of a board file) and build a :class:`Board`.

    Raises :class:`BoardError` naming what is wrong.
    """
    _expect(isinstance(data, dict), "board: expected a JSON object")
    _expect(
        data.get("format") == "paris-paris-board", "board: 'format' must be 'paris-paris-board'"
    )
    _expect(data.get("version") == 1, "board: 'version' must be 1")
    board_id = data.get("id")
    _expect(isinstance(board_id, str) and bool(board_id), "board: 'id' must be a non-empty string")
    name = data.get("name", board_id)
    _expect(isinstance(name, str), "board: 'name' must be a string")

    raw_stops = data.get("stops")
    _expect(isinstance(raw_stops, list), "board: 'stops' must be a list")
    stop_info: dict[str, tuple[str, tuple[float, float]]] = {}
    for i, raw in enumerate(raw_stops):
        where = f"board: stops[{i}]"
        _expect(isinstance(raw, dict), f"{where}: expected an object")
        sid = raw.get("id")
        _expect(isinstance(sid, str) and bool(sid), f"{where}: 'id' must be a non-empty string")
        _expect("/" not in sid, f"{where}: stop id {sid!r} must not contain '/'")
        _expect(sid not in stop_info, f"{where}: duplicate stop id {sid!r}")
        sname = raw.get("name", sid)
        _expect(isinstance(sname, str), f"{where}: 'name' must be a string")
        xy = raw.get("xy", [0, 0])
        _expect(
            isinstance(xy, list)
            and len(xy) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in xy),
            f"{where}: 'xy' must be two numbers",
        )
        stop_info[sid] = (sname, (float(xy[0]), float(xy[1])))

    raw_lines = data.get("lines")
    _expect(isinstance(raw_lines, list), "board: 'lines' must be a list")
    _expect(
        len(raw_lines) == LINE_COUNT,
        f"board: expected {LINE_COUNT} lines, found {len(raw_lines)}",
    )
    line_defs: list[tuple[str, str, str, list[str]]] = []
    seen_ids: set[str] = set()
    seen_letters: set[str] = set()
    for i, raw in enumerate(raw_lines):
        where = f"board: lines[{i}]"
        _expect(isinstance(raw, dict), f"{where}: expected an object")
        lid = raw.get("id")
        _expect(isinstance(lid, str) and bool(lid), f"{where}: 'id' must be a non-empty string")
        _expect("/" not in lid, f"{where}: line id {lid!r} must not contain '/'")
        _expect(lid not in seen_ids, f"{where}: duplicate line id {lid!r}")
        seen_ids.add(lid)
        letter = raw.get("letter")
        _expect(
            isinstance(letter, str) and len(letter) == 1,
            f"line {lid!r}: 'letter' must be one character",
        )
        _expect(letter not in seen_letters, f"line {lid!r}: letter {letter!r} is used twice")
        seen_letters.add(letter)
        lname = raw.get("name", lid)
        _expect(isinstance(lname, str), f"line {lid!r}: 'name' must be a string")
        stops = raw.get("stops")
        _expect(isinstance(stops, list), f"line {lid!r}: 'stops' must be a list")
        _expect(
            len(stops) == STOPS_PER_LINE,
            f"line {lid!r}: expected {STOPS_PER_LINE} stops, found {len(stops)}",
        )
        for s in stops:
            _expect(isinstance(s, str), f"line {lid!r}: stop ids must be strings")
            _expect(s in stop_info, f"line {lid!r}: unknown stop {s!r}")
        dup = [s for s, c in Counter(stops).items() if c > 1]
        _expect(not dup, f"line {lid!r}: stop {dup[0] if dup else ''!r} appears twice")
        line_defs.append((lid, letter, lname, stops))

    # Every pair of lines shares exactly one stop.
    for a in range(LINE_COUNT):
        for b in range(a + 1, LINE_COUNT):
            shared = set(line_defs[a][3]) & set(line_defs[b][3])
            _expect(
                len(shared) == 1,
                f"board: lines {line_defs[a][0]!r} and {line_defs[b][0]!r} must share exactly "
                f"one stop, they share {len(shared)}"
                + (f" ({', '.join(sorted(shared))})" if shared else ""),
            )

    lines_through: dict[str, list[int]] = {sid: [] for sid in stop_info}
    for li, (_, _, _, stops) in enumerate(line_defs):
        for s in stops:
            lines_through[s].append(li)
    for sid, through in lines_through.items():
        _expect(bool(through), f"board: stop {sid!r} is on no line")
        _expect(len(through) <= 2, f"board: stop {sid!r} is on {len(through)} lines (at most 2)")

    order = list(stop_info)
    index = {sid: i for i, sid in enumerate(order)}
    stops_out = [
        Stop(i, sid, stop_info[sid][0], stop_info[sid][1], tuple(lines_through[sid]))
        for i, sid in enumerate(order)
    ]
    lines_out = [
        Line(li, lid, letter, lname, tuple(index[s] for s in stops))
        for li, (lid, letter, lname, stops) in enumerate(line_defs)
    ]
    board = Board(board_id, name, lines_out, stops_out)

    for stop in board.stops:
        if stop.is_crossing:
            n = len(board.neighbours[stop.index])
            _expect(
                n in (3, 4), f"board: crossing {stop.id!r} has {n} neighbours (3 or 4 expected)"
            )
    _expect(
        len(board.all_tiles) == TILE_COUNT,
        f"board: expected {TILE_COUNT} tiles, the lines make {len(board.all_tiles)}",
    )
    return board


def load_board(path: str | Path) -> Board:
    """Read and validate a board file; every problem is a :class:`BoardError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardError(f"board file {path}: cannot read it ({exc})") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BoardError(f"board file {path}: not valid JSON ({exc})") from None
    return parse_board(data)


@cache
def classic_board() -> Board:
    """The classic board shipped with the package (``board-classic.json``)."""
    # Beside this module (not importlib.resources: its import, and zipfile's, cost the
    # first frame more than reading the file; paris-tui is never imported from a zip).
    text = (Path(__file__).parent / "data" / "board-classic.json").read_text(encoding="utf-8")
    return parse_board(json.loads(text))


BOARDS = {"classic": classic_board}
