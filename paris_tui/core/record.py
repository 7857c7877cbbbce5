"""The game record: save file, replay file and exchange format (``record-format.md``).

A record is the set-up plus the moves; the game state is always derived from
it by replaying it through the engine, so a save can never disagree with the
rules. This module imports the engine and is never imported by it (as PGN
sits beside python-chess's board).

Reading is strict and never guesses: every problem is a :class:`RecordError`
naming the field (``setup.routes[1]``) or the move (``moves[12]``).

>>> from paris_tui.core import Game
>>> game = Game.new(["Ann", "Bob", "Cy"], seed=1)
>>> for _ in range(5):
...     game.play(game.legal_moves()[0])  # doctest: +ELLIPSIS
[...]
>>> record = Record.from_game(game)
>>> again = replay(parse_record(json.loads(dumps_record(record))))
>>> again.scores == game.scores and again.moves == game.moves
True
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .board import BOARDS, Board
from .errors import RecordError, brief, invalid
from .game import Game
from .text import InvalidNameError, check_table_names, printable
from .values import Move, Options, Setup

if TYPE_CHECKING:
    from .events import Event

__all__ = [
    "FORMAT",
    "MAX_EXTRA_BYTES",
    "MAX_EXTRA_DEPTH",
    "MAX_RECORD_BYTES",
    "VERSION",
    "Player",
    "Record",
    "check_extra",
    "dumps_record",
    "json_kind",
    "load_record",
    "parse_record",
    "read_record_text",
    "replay",
    "replay_summary",
    "replay_with_events",
    "save_record",
    "write_text_atomic",
]

FORMAT = "paris-paris-record"
VERSION = 1
# A complete record is about 10 KB; anything this large is not a record.
MAX_RECORD_BYTES = 4 * 1024 * 1024
# Extra top-level keys (a UI's metadata, a comment) are kept and written back
# with every save: bounded, so a record that loads can always be saved again
# (no RecursionError on a deeply nested key, no megabytes rewritten each move).
MAX_EXTRA_DEPTH = 32
MAX_EXTRA_BYTES = 64 * 1024
# An AI level is a short plain word; which levels exist is the app's business.
_AI_KIND = re.compile(r"ai:[A-Za-z0-9_-]{1,32}")
_KNOWN_KEYS = ("format", "version", "board", "players", "options", "setup", "moves")


@dataclass(frozen=True, slots=True)
class Player:
    """A seat of a record: a free-text name and ``"human"`` or ``"ai:<level>"``."""

    name: str
    kind: str = "human"

    @property
    def is_ai(self) -> bool:
        return self.kind.startswith("ai:")

    @property
    def ai_level(self) -> str | None:
        return self.kind[3:] if self.is_ai else None


@dataclass(frozen=True, slots=True)
class Record:
    """A parsed, valid game record. ``extra`` keeps unknown top-level keys."""

    players: tuple[Player, ...]
    setup: Setup
    moves: tuple[Move, ...] = ()
    options: Options = field(default_factory=Options)
    board: str = "classic"
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_game(
        cls,
        game: Game,
        players: tuple[Player, ...] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> Record:
        """The record of ``game`` so far (seats named after ``game.names`` by default)."""
        if players is None:
            players = tuple(Player(name) for name in game.names)
        return cls(
            players=players,
            setup=game.setup,
            moves=tuple(game.moves),
            options=game.options,
            board=game.board.id,
            extra=dict(extra or {}),
        )

    def with_moves(self, moves: tuple[Move, ...]) -> Record:
        return replace(self, moves=moves)

    def to_json_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "board": self.board,
            "players": [{"name": p.name, "kind": p.kind} for p in self.players],
            "options": {
                "small_tour": self.options.small_tour,
                "final_tours": self.options.final_tours,
            },
            "setup": {
                "stacks": [list(s) for s in self.setup.stacks],
                "routes": list(self.setup.routes),
                "public_route": self.setup.public_route,
            },
            "moves": [
                {"tile": m.tile} if m.evict is None else {"tile": m.tile, "evict": m.evict}
                for m in self.moves
            ],
        }
        for key, value in self.extra.items():
            if key not in data:
                data[key] = value
        return data


# --- extra keys -------------------------------------------------------------


def _check_extra_value(key: str, value: Any) -> None:
    """Depth and numbers of one extra key's value, walked without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_EXTRA_BYTES:  # each value takes a byte at least once written
            raise invalid(
                key, "too large (a record keeps at most {limit} bytes)", limit=MAX_EXTRA_BYTES
            )
        if isinstance(item, dict | list):
            if depth >= MAX_EXTRA_DEPTH and item:
                raise invalid(key, "nested deeper than {n} levels", n=MAX_EXTRA_DEPTH)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
            if isinstance(item, dict) and not all(isinstance(k, str) for k in item):
                raise invalid(key, "an object with a key that is not a string")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise invalid(key, "holds a number that is not finite")
        elif item is not None and not isinstance(item, str | int):
            raise invalid(key, "holds a value that is not JSON ({kind})", kind=type(item).__name__)


def check_extra(extra: Mapping[str, Any]) -> None:
    """Refuse extra keys nested deeper than :data:`MAX_EXTRA_DEPTH` levels or larger
    than :data:`MAX_EXTRA_BYTES` once written (a :class:`RecordError` naming the key)."""
    if not extra:
        return
    for key, value in extra.items():
        _check_extra_value(printable(key if len(key) <= 40 else key[:37] + "..."), value)
    try:
        size = len(json.dumps(dict(extra), ensure_ascii=False).encode("utf-8", "surrogatepass"))
    except ValueError as exc:  # an int too long to write as decimal digits
        raise invalid(
            "record", "the extra keys cannot be written: {reason}", reason=str(exc)
        ) from None
    if size > MAX_EXTRA_BYTES:
        raise invalid(
            "record",
            "the extra keys take {size} bytes; a record keeps at most {limit}",
            size=size,
            limit=MAX_EXTRA_BYTES,
        )


# --- writing --------------------------------------------------------------


def dumps_record(record: Record) -> str:
    """The record as UTF-8 JSON text: one key per line, one stack or move per line.

    Extra keys beyond the bounds a reader accepts raise :class:`RecordError`
    (never ``RecursionError``): what is written can always be read back.
    """
    check_extra(record.extra)
    data = record.to_json_dict()

    def compact(value: Any) -> str:
        text = json.dumps(value, ensure_ascii=False)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # A lone surrogate (JSON allows "\ud800"): keep it, escaped.
            text = json.dumps(value)
        return text

    parts: list[str] = []
    for key, value in data.items():
        if key == "setup":
            stacks = ",\n      ".join(compact(s) for s in value["stacks"])
            text = (
                '{\n    "stacks": [\n      ' + stacks + "\n    ],\n"
                f'    "routes": {compact(value["routes"])},\n'
                f'    "public_route": {compact(value["public_route"])}\n  }}'
            )
        elif key in ("moves", "players") and value:
            text = "[\n    " + ",\n    ".join(compact(v) for v in value) + "\n  ]"
        else:
            text = compact(value)
        parts.append(f"  {compact(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def save_record(record: Record, path: str | Path) -> None:
    """Write the record atomically: a temporary file in the same folder, then rename.

    A crash or a kill at any moment leaves either the old file or the new one.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, dumps_record(record))


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file of mode 0600 in the same
    folder, flushed to disk, then renamed over ``path``. A crash or a kill at any
    moment leaves either the old file or the new one (records, seat owners, tokens)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# --- reading --------------------------------------------------------------


def json_kind(value: Any) -> str:
    """What a JSON value is, in words for an error message ("a list", "null", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in JSON")


def read_record_text(text: str) -> Any:
    """Parse record JSON text; a :class:`RecordError` if it is not JSON."""
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise RecordError("file", "not a record: JSON nested too deeply", "too_deep") from None
    except json.JSONDecodeError as exc:
        detail = f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
        raise RecordError(
            "file",
            f"not valid JSON: {detail}",
            "not_json",
            detail=detail,
            message=exc.msg,
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except ValueError as exc:
        raise RecordError("file", f"not valid JSON: {exc}", "not_json", detail=str(exc)) from None


def _unreadable(name: str, exc: OSError) -> RecordError:
    reason = str(exc.strerror or exc)
    return RecordError(
        "file", f"cannot read {name}: {reason}", "unreadable", path=name, reason=reason
    )


def _read_regular_file(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file; a :class:`RecordError` for anything else.

    Opened without blocking and checked on the open descriptor: a FIFO with no
    writer, a device or a directory is refused at once, never waited on.
    """
    name = printable(str(path))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise RecordError("file", f"{name} is a directory", "directory", path=name) from None
    except OSError as exc:
        raise _unreadable(name, exc) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise RecordError("file", f"{name} is a directory", "directory", path=name)
        if not stat.S_ISREG(mode):
            raise RecordError("file", f"{name} is not a regular file", "not_regular", path=name)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            return handle.read(limit)
    except OSError as exc:
        raise _unreadable(name, exc) from None
    finally:
        if fd >= 0:
            os.close(fd)


def load_record(path: str | Path) -> Record:
    """Read, parse and validate a record file. Every problem is a :class:`RecordError`.

    Only a regular file is read (a FIFO, a device or a directory is refused at once).
    """
    path = Path(path)
    raw = _read_regular_file(path, MAX_RECORD_BYTES + 1)
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(
            "file",
            f"too large to be a record (over {MAX_RECORD_BYTES} bytes)",
            "too_large",
            limit=MAX_RECORD_BYTES,
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(
            "file", f"not UTF-8 text (bad byte at offset {exc.start})", "not_utf8", offset=exc.start
        ) from None
    return parse_record(read_record_text(text))


# A key the record lacks (``dict.get(key, _ABSENT)``): "missing", not "found null".
_ABSENT: Any = object()


def _missing(value: Any, where: str) -> None:
    if value is _ABSENT:
        raise invalid(where, "missing")


def _obj(value: Any, where: str) -> dict[str, Any]:
    _missing(value, where)
    if not isinstance(value, dict):
        raise invalid(where, "must be an object, found {found}", found=json_kind(value))
    return value


def _list(value: Any, where: str) -> list[Any]:
    _missing(value, where)
    if not isinstance(value, list):
        raise invalid(where, "must be a list, found {found}", found=json_kind(value))
    return value


def _str(value: Any, where: str) -> str:
    _missing(value, where)
    if not isinstance(value, str):
        raise invalid(where, "must be a string, found {found}", found=json_kind(value))
    return value


def parse_record(data: Any) -> Record:
    """Validate parsed JSON as a record, replaying its moves; return the :class:`Record`."""
    top = _obj(data, "record")
    if "format" not in top:
        raise invalid("format", 'missing: a record has "format": "{format}"', format=FORMAT)
    if top["format"] != FORMAT:
        raise invalid(
            "format",
            "must be {format}, found {found}",
            format=repr(FORMAT),
            found=brief(top["format"]),
        )
    version = top.get("version")
    if type(version) is not int or version != VERSION:
        raise invalid(
            "version",
            "this program reads version {version}, found {found}",
            version=VERSION,
            found=brief(version),
        )
    board_id = _str(top.get("board", _ABSENT), "board")
    if board_id not in BOARDS:
        raise invalid(
            "board",
            "unknown board {found} (known: {known})",
            found=brief(board_id),
            known="classic",
        )
    board: Board = BOARDS[board_id]()

    raw_players = _list(top.get("players", _ABSENT), "players")
    if not 2 <= len(raw_players) <= 4:
        raise invalid("players", "must hold 2 to 4 seats, holds {n}", n=len(raw_players))
    raw_names: list[str] = []
    kinds: list[str] = []
    for i, raw in enumerate(raw_players):
        obj = _obj(raw, f"players[{i}]")
        raw_names.append(_str(obj.get("name", _ABSENT), f"players[{i}].name"))
        kind = _str(obj.get("kind", _ABSENT), f"players[{i}].kind")
        if kind != "human" and not _AI_KIND.fullmatch(kind):
            raise invalid(
                f"players[{i}].kind",
                'must be "human" or "ai:<level>", found {found}',
                found=brief(kind),
            )
        kinds.append(kind)
    try:
        names = check_table_names(raw_names)
    except InvalidNameError as exc:
        where = f"players[{exc.seat}].name"
        raise RecordError(where, exc.problem, "bad_name", rule=exc.code, **exc.params) from None
    players = [Player(name, kind) for name, kind in zip(names, kinds, strict=True)]

    raw_options = top.get("options")
    options = Options()
    if raw_options is not None:
        opts = _obj(raw_options, "options")
        small = opts.get("small_tour", "both-lines")
        if small not in ("both-lines", "tile-line"):
            raise invalid(
                "options.small_tour",
                'must be "both-lines" or "tile-line", found {found}',
                found=brief(small),
            )
        final = opts.get("final_tours", "secret")
        if final not in ("secret", "all-lines"):
            raise invalid(
                "options.final_tours",
                'must be "secret" or "all-lines", found {found}',
                found=brief(final),
            )
        options = Options(small_tour=small, final_tours=final)

    raw_setup = _obj(top.get("setup", _ABSENT), "setup")
    stacks = _list(raw_setup.get("stacks", _ABSENT), "setup.stacks")
    for i, stack in enumerate(stacks):
        _list(stack, f"setup.stacks[{i}]")
    routes = _list(raw_setup.get("routes", _ABSENT), "setup.routes")
    public = raw_setup.get("public_route")
    if public is not None:
        _str(public, "setup.public_route")
    setup = Setup(
        stacks=tuple(tuple(s) for s in stacks),
        routes=tuple(routes),
        public_route=public,
    )
    game = Game.from_setup(setup, tuple(p.name for p in players), options=options, board=board)

    if "moves" not in top:
        raise invalid("moves", "missing: a record lists its moves (an empty list at the start)")
    raw_moves = _list(top["moves"], "moves")
    moves = _replay_moves(game, raw_moves)
    extra = {k: v for k, v in top.items() if k not in _KNOWN_KEYS}
    check_extra(extra)
    return Record(tuple(players), game.setup, moves, options, board_id, extra)


def _replay_moves(game: Game, raw_moves: list[Any]) -> tuple[Move, ...]:
    """Check and make every move on ``game``; return them as :class:`Move` values."""
    board = game.board
    out: list[Move] = []
    for i, raw in enumerate(raw_moves):
        where = f"moves[{i}]"
        if game.is_over:
            raise invalid(
                where,
                "the game is over after {n} moves; this move is one too many",
                n=game.total_moves,
            )
        obj = _obj(raw, where)
        if "tile" not in obj:
            raise invalid(where, 'missing "tile"')
        tile = obj["tile"]
        if not isinstance(tile, str):
            raise invalid(f"{where}.tile", "must be a string, found {found}", found=json_kind(tile))
        if tile not in board.tile_index:
            raise invalid(f"{where}.tile", "{found} is not a tile of this board", found=brief(tile))
        if tile not in game.face_up:
            raise invalid(
                f"{where}.tile",
                "{found} is not face up in round {round} (face up: {tiles})",
                found=brief(tile),
                round=game.round,
                tiles=", ".join(game.face_up),
            )
        evict = obj.get("evict")
        if evict is not None and type(evict) is not int:
            raise invalid(
                f"{where}.evict",
                "must be a seat number or null, found {found}",
                found=json_kind(evict),
            )
        stop = board.tile_kinds[board.tile_index[tile]].stop
        owners = game.businesses_at(stop)
        stop_name = board.stops[stop].name
        seat = game.to_move
        required = game.supply[seat] > 0 and len(owners) >= board.capacity[stop]
        if required and evict is None:
            raise invalid(
                f"{where}.evict",
                "missing: {stop} is full, the move must say whose business is removed",
                stop=stop_name,
            )
        if not required and evict is not None:
            if game.supply[seat] == 0:
                raise invalid(
                    f"{where}.evict",
                    "must be absent or null: seat {seat} has no business in supply (C1)",
                    seat=seat,
                )
            raise invalid(
                f"{where}.evict", "must be absent or null: {stop} is not full", stop=stop_name
            )
        if evict is not None and evict not in owners:
            raise invalid(
                f"{where}.evict",
                "seat {seat} has no business at {stop}",
                seat=evict,
                stop=stop_name,
            )
        move = Move(tile, evict)
        game.apply(move)
        out.append(move)
    return tuple(out)


# --- replaying --------------------------------------------------------------


def replay(record: Record, upto: int | None = None) -> Game:
    """The game a (valid) record describes, after its first ``upto`` moves (all by default)."""
    game = Game.from_setup(
        record.setup,
        tuple(p.name for p in record.players),
        options=record.options,
        board=BOARDS[record.board](),
    )
    moves = record.moves if upto is None else record.moves[:upto]
    for move in moves:
        game.play(move)
    return game


def replay_with_events(record: Record) -> tuple[Game, list[Event]]:
    """The game a (valid) record describes, played to its end, and every event its
    moves made, in order (what a resumed game shows again in its log)."""
    game = replay(record, upto=0)
    events: list[Event] = []
    for move in record.moves:
        events.extend(game.play(move))
    return game, events


def replay_summary(record: Record) -> dict[str, Any]:
    """The ``paris-tui replay FILE --json`` object of ``record-format.md``."""
    game = replay(record)
    outcome = game.outcome()
    final: dict[str, Any] | None = None
    if outcome is not None:
        final = {
            "scores": list(outcome.scores),
            "sack": list(outcome.sack),
            "on_board": list(outcome.on_board),
            "winners": list(outcome.winners),
        }
    return {
        "players": game.players,
        "rounds": [
            {"round": r, "scores": list(scores)} for r, scores in enumerate(game.round_scores)
        ],
        "finished": outcome is not None,
        "final": final,
    }
