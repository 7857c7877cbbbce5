"""JSON forms of the core's value types: moves, seat views, events, outcomes.

As python-chess gives ``Move.uci()`` and ``Move.from_uci()``, this module
gives each value a plain JSON form (``dict``/``list``/``str``/``int``/
``None``) and a strict reader that rebuilds the same value. Tiles are the
record's ``"stop/line"`` strings and a move has the record's own form
(``{"tile": "louvre/yellow"}``, with ``"evict": seat`` at a full stop), so a
move on the wire is a move in a ``paris-paris-record``.

Readers never trust their input: anything of the wrong shape or type is a
:class:`WireError` naming the field (``view.scores[2]``), never a
``KeyError`` or a ``TypeError``. They check form, not rules: whether a move
is legal is the referee's business (:meth:`paris_tui.core.Game.why_illegal`).

>>> from paris_tui.core import Game
>>> game = Game.new(["Ann", "Bob"], seed=3)
>>> move = game.legal_moves()[0]
>>> move_from_json(move_to_json(move)) == move
True
>>> view = game.view(0)
>>> view_from_json(view_to_json(view)) == view
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar, cast

from ..core import (
    BusinessOpened,
    BusinessRemoved,
    Event,
    GameOver,
    Move,
    NothingOpened,
    Options,
    Outcome,
    RoundStarted,
    ScoreEvent,
    SeatView,
    TileDiscarded,
    TourEvent,
)
from ..core.board import BOARDS
from ..core.errors import DecidedBy, ParisError
from ..core.record import json_kind

__all__ = [
    "MAX_TEXT",
    "WireError",
    "event_from_json",
    "event_to_json",
    "events_from_json",
    "events_to_json",
    "move_from_json",
    "move_to_json",
    "outcome_from_json",
    "outcome_to_json",
    "view_from_json",
    "view_to_json",
]

# No string in a view, a move or an event is longer than this (ids and tile
# names are short); a longer one is not ours.
MAX_TEXT = 200
# A list in a view holds at most the 60 tiles of the board (or 25 stops, 15 rounds).
MAX_ITEMS = 64
# Event lists: a complete game makes well under 2,000 events.
MAX_EVENTS = 5000

T = TypeVar("T")


class WireError(ParisError, ValueError):
    """A JSON value is not the wire form it should be; ``where`` names the field."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")


# --- readers of plain values -------------------------------------------------


def obj(value: object, where: str) -> dict[str, Any]:
    """``value`` as a JSON object, or a :class:`WireError`."""
    if not isinstance(value, dict):
        raise WireError(where, f"must be an object, found {json_kind(value)}")
    return cast(dict[str, Any], value)


def field(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise WireError(f"{where}.{key}", "missing")
    return data[key]


def integer(value: object, where: str, low: int = -(2**31), high: int = 2**31) -> int:
    # bool is an int in Python and never one on the wire.
    if type(value) is not int:
        raise WireError(where, f"must be a whole number, found {json_kind(value)}")
    if not low <= value <= high:
        raise WireError(where, f"must be between {low} and {high}")
    return value


def opt_integer(value: object, where: str, low: int = -(2**31), high: int = 2**31) -> int | None:
    return None if value is None else integer(value, where, low, high)


def text(value: object, where: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise WireError(where, f"must be a string, found {json_kind(value)}")
    if len(value) > limit:
        raise WireError(where, f"longer than {limit} characters")
    return value


def opt_text(value: object, where: str, limit: int = MAX_TEXT) -> str | None:
    return None if value is None else text(value, where, limit)


def boolean(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise WireError(where, f"must be true or false, found {json_kind(value)}")
    return value


def items(
    value: object, where: str, read: Callable[[object, str], T], limit: int = MAX_ITEMS
) -> tuple[T, ...]:
    """A JSON list of at most ``limit`` items, each read by ``read``."""
    if not isinstance(value, list):
        raise WireError(where, f"must be a list, found {json_kind(value)}")
    if len(value) > limit:
        raise WireError(where, f"holds more than {limit} items")
    try:  # the common case: no item is wrong, and no item's place is spelled out
        return tuple([read(v, where) for v in value])
    except WireError:  # read again, item by item, for the error naming the item's place
        return tuple([read(v, f"{where}[{i}]") for i, v in enumerate(value)])


def _int_item(value: object, where: str) -> int:
    return integer(value, where)


def _str_item(value: object, where: str) -> str:
    return text(value, where)


_LOW, _HIGH = -(2**31), 2**31
_INT_TYPE = {int}  # bool is an int in Python and never one on the wire: type() tells them apart


def ints(value: object, where: str, limit: int = MAX_ITEMS) -> tuple[int, ...]:
    # The common case in one pass; the item by item reading names what is wrong.
    if type(value) is list and len(value) <= limit:
        if not value:
            return ()
        if set(map(type, value)) == _INT_TYPE and min(value) >= _LOW and max(value) <= _HIGH:
            return tuple(value)
    return items(value, where, _int_item, limit)


def _int_lists(value: object, where: str) -> tuple[tuple[int, ...], ...]:
    """A list of lists of whole numbers (a view's occupancy, its round scores)."""
    if type(value) is list and len(value) <= MAX_ITEMS:
        try:
            return tuple([ints(v, where) for v in value])
        except WireError:
            pass
    return items(value, where, _int_list_item)


def strs(value: object, where: str, limit: int = MAX_ITEMS) -> tuple[str, ...]:
    if (
        type(value) is list
        and len(value) <= limit
        and all(type(v) is str and len(v) <= MAX_TEXT for v in value)
    ):
        return tuple(value)
    return items(value, where, _str_item, limit)


def choice(value: object, where: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise WireError(where, f"must be one of {', '.join(allowed)}")
    return value


# --- moves ---------------------------------------------------------------------


def move_to_json(move: Move) -> dict[str, Any]:
    """The record's form of a move: ``{"tile": ...}`` plus ``"evict"`` when it removes."""
    if move.evict is None:
        return {"tile": move.tile}
    return {"tile": move.tile, "evict": move.evict}


def move_from_json(value: object, where: str = "move") -> Move:
    """A :class:`Move` from its JSON form (form only: legality is the referee's)."""
    if type(value) is dict and len(value) == 1:  # the common case: {"tile": "..."}
        tile = value.get("tile")
        if type(tile) is str and len(tile) <= 64:
            return Move(tile)
    data = obj(value, where)
    unknown = set(data) - {"tile", "evict"}
    if unknown:
        raise WireError(where, f"unknown field {sorted(unknown)[0][:40]!r}")
    tile = text(field(data, "tile", where), f"{where}.tile", limit=64)
    evict = opt_integer(data.get("evict"), f"{where}.evict", 0, 3)
    return Move(tile, evict)


def _move_item(value: object, where: str) -> Move:
    return move_from_json(value, where)


_PLAIN_MOVES: dict[str, Move] = {}  # tile -> Move(tile): a move is frozen, one serves all
_PLAIN_MOVES_MAX = 512  # bounded: a host cannot grow it by sending made-up tiles


def _moves(value: object, where: str) -> tuple[Move, ...]:
    """A list of moves; the common one, ``{"tile": ...}`` only, read in one pass."""
    if type(value) is list and len(value) <= MAX_ITEMS:
        out: list[Move] = []
        known = _PLAIN_MOVES
        try:
            for item in value:
                if type(item) is dict and len(item) == 1:
                    tile = item.get("tile")
                    if type(tile) is str and len(tile) <= 64:
                        move = known.get(tile)
                        if move is None:
                            move = Move(tile)
                            if len(known) < _PLAIN_MOVES_MAX:
                                known[tile] = move
                        out.append(move)
                        continue
                out.append(move_from_json(item, where))
            return tuple(out)
        except WireError:
            pass  # read again, item by item, for the error naming the item's place
    return items(value, where, _move_item)


# --- outcomes ------------------------------------------------------------------

_DECIDED_BY = ("score", "fewest_businesses", "shared")


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "scores": list(outcome.scores),
        "sack": list(outcome.sack),
        "on_board": list(outcome.on_board),
        "winners": list(outcome.winners),
        "decided_by": outcome.decided_by,
    }


def outcome_from_json(value: object, where: str = "outcome") -> Outcome:
    data = obj(value, where)
    decided = choice(field(data, "decided_by", where), f"{where}.decided_by", _DECIDED_BY)
    return Outcome(
        scores=ints(field(data, "scores", where), f"{where}.scores"),
        sack=ints(field(data, "sack", where), f"{where}.sack"),
        on_board=ints(field(data, "on_board", where), f"{where}.on_board"),
        winners=ints(field(data, "winners", where), f"{where}.winners"),
        decided_by=cast(DecidedBy, decided),
    )


# --- seat views ------------------------------------------------------------------


def view_to_json(view: SeatView) -> dict[str, Any]:
    """Every field of a :class:`SeatView`; the board travels as its id (``"classic"``).

    Nothing is added: the form holds exactly what the view holds, so a view
    that keeps a secret keeps it on the wire.
    """
    return {
        "board": view.board.id,
        "names": list(view.names),
        "options": {
            "small_tour": view.options.small_tour,
            "final_tours": view.options.final_tours,
        },
        "seat": view.seat,
        "round": view.round,
        "rounds_total": view.rounds_total,
        "starter": view.starter,
        "to_move": view.to_move,
        "face_up": list(view.face_up),
        "discard": list(view.discard),
        "scores": list(view.scores),
        "supply": list(view.supply),
        "occupancy": [list(o) for o in view.occupancy],
        "sack_total": view.sack_total,
        "stacks_left": view.stacks_left,
        "moves": [move_to_json(m) for m in view.moves],
        "leftovers": list(view.leftovers),
        "unseen_tiles": list(view.unseen_tiles),
        "round_scores": [list(s) for s in view.round_scores],
        "own_route": view.own_route,
        "public_route": view.public_route,
        "legal_moves": [move_to_json(m) for m in view.legal_moves],
        "outcome": None if view.outcome is None else outcome_to_json(view.outcome),
        "revealed_routes": None if view.revealed_routes is None else list(view.revealed_routes),
    }


def _int_list_item(value: object, where: str) -> tuple[int, ...]:
    return ints(value, where)


def view_from_json(value: object, where: str = "view") -> SeatView:
    """A :class:`SeatView` from its JSON form (types and sizes checked, not the rules)."""
    data = obj(value, where)

    def get(key: str) -> Any:
        return field(data, key, where)

    def at(key: str) -> str:
        return f"{where}.{key}"

    board_id = text(get("board"), at("board"), limit=32)
    if board_id not in BOARDS:
        raise WireError(at("board"), f"unknown board {board_id!r}")
    opts = obj(get("options"), at("options"))
    small = choice(
        opts.get("small_tour"), f"{where}.options.small_tour", ("both-lines", "tile-line")
    )
    final = choice(opts.get("final_tours"), f"{where}.options.final_tours", ("secret", "all-lines"))
    names = strs(get("names"), at("names"), limit=4)
    if not 2 <= len(names) <= 4:
        raise WireError(at("names"), "must name 2 to 4 seats")
    players = len(names)
    seat = opt_integer(get("seat"), at("seat"), 0, players - 1)
    outcome = get("outcome")
    revealed = get("revealed_routes")
    return SeatView(
        board=BOARDS[board_id](),
        names=names,
        options=Options(
            small_tour=cast(Literal["both-lines", "tile-line"], small),
            final_tours=cast(Literal["secret", "all-lines"], final),
        ),
        seat=seat,
        round=integer(get("round"), at("round"), 0, MAX_ITEMS),
        rounds_total=integer(get("rounds_total"), at("rounds_total"), 0, MAX_ITEMS),
        starter=integer(get("starter"), at("starter"), 0, players - 1),
        to_move=opt_integer(get("to_move"), at("to_move"), 0, players - 1),
        face_up=strs(get("face_up"), at("face_up")),
        discard=strs(get("discard"), at("discard")),
        scores=ints(get("scores"), at("scores"), limit=4),
        supply=ints(get("supply"), at("supply"), limit=4),
        occupancy=_int_lists(get("occupancy"), at("occupancy")),
        sack_total=integer(get("sack_total"), at("sack_total"), 0, 1000),
        stacks_left=integer(get("stacks_left"), at("stacks_left"), 0, MAX_ITEMS),
        moves=_moves(get("moves"), at("moves")),
        leftovers=strs(get("leftovers"), at("leftovers")),
        unseen_tiles=strs(get("unseen_tiles"), at("unseen_tiles")),
        round_scores=_int_lists(get("round_scores"), at("round_scores")),
        own_route=opt_text(get("own_route"), at("own_route"), limit=32),
        public_route=opt_text(get("public_route"), at("public_route"), limit=32),
        legal_moves=_moves(get("legal_moves"), at("legal_moves")),
        outcome=None if outcome is None else outcome_from_json(outcome, at("outcome")),
        revealed_routes=None if revealed is None else strs(revealed, at("revealed_routes")),
    )


# --- events ----------------------------------------------------------------------

_EVENT_TYPES: dict[type[Any], str] = {
    BusinessOpened: "business_opened",
    NothingOpened: "nothing_opened",
    BusinessRemoved: "business_removed",
    TourEvent: "tour",
    ScoreEvent: "score",
    TileDiscarded: "tile_discarded",
    RoundStarted: "round_started",
    GameOver: "game_over",
}


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"type": ..., <the event's fields>}``; tuples become lists."""
    data: dict[str, Any] = {"type": _EVENT_TYPES[type(event)]}
    for name in type(event).__slots__:
        value = getattr(event, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def _seat(value: object, where: str) -> int:
    return integer(value, where, 0, 3)


def event_from_json(value: object, where: str = "event") -> Event:
    data = obj(value, where)

    def get(key: str) -> Any:
        return field(data, key, where)

    def at(key: str) -> str:
        return f"{where}.{key}"

    kind = choice(get("type"), at("type"), tuple(_EVENT_TYPES.values()))
    rnd = integer(get("round"), at("round"), 0, MAX_ITEMS)
    if kind == "business_opened":
        return BusinessOpened(
            rnd,
            _seat(get("seat"), at("seat")),
            text(get("tile"), at("tile")),
            text(get("stop"), at("stop")),
        )
    if kind == "nothing_opened":
        return NothingOpened(rnd, _seat(get("seat"), at("seat")), text(get("tile"), at("tile")))
    if kind == "business_removed":
        to = choice(get("to"), at("to"), ("supply", "sack"))
        return BusinessRemoved(
            rnd,
            _seat(get("owner"), at("owner")),
            text(get("stop"), at("stop")),
            _seat(get("by"), at("by")),
            cast(Literal["supply", "sack"], to),
        )
    if kind == "tour":
        tour = choice(get("kind"), at("kind"), ("small_tour", "grand_tour", "special_tour"))
        seat = get("seat")
        return TourEvent(
            rnd,
            cast(Literal["small_tour", "grand_tour", "special_tour"], tour),
            opt_text(get("line"), at("line")),
            opt_text(get("stop"), at("stop")),
            strs(get("stops"), at("stops")),
            None if seat is None else _seat(seat, at("seat")),
        )
    if kind == "score":
        score = choice(
            get("kind"), at("kind"), ("small_tour", "grand_tour", "special_tour", "sack")
        )
        return ScoreEvent(
            rnd,
            cast(Literal["small_tour", "grand_tour", "special_tour", "sack"], score),
            _seat(get("seat"), at("seat")),
            integer(get("points"), at("points"), 0, 1000),
            opt_text(get("stop"), at("stop")),
            opt_text(get("line"), at("line")),
            integer(get("here"), at("here"), 0, 100),
            integer(get("near"), at("near"), 0, 100),
            integer(get("distance"), at("distance"), 0, 100),
            opt_text(get("origin"), at("origin")),
        )
    if kind == "tile_discarded":
        return TileDiscarded(
            rnd, text(get("tile"), at("tile")), boolean(get("grand_tour"), at("grand_tour"))
        )
    if kind == "round_started":
        return RoundStarted(
            rnd, _seat(get("starter"), at("starter")), strs(get("tiles"), at("tiles"))
        )
    return GameOver(
        rnd,
        ints(get("scores"), at("scores"), limit=4),
        ints(get("winners"), at("winners"), limit=4),
    )


def _event_item(value: object, where: str) -> Event:
    return event_from_json(value, where)


def events_to_json(events: list[Event] | tuple[Event, ...]) -> list[dict[str, Any]]:
    return [event_to_json(e) for e in events]


def events_from_json(value: object, where: str = "events") -> tuple[Event, ...]:
    return items(value, where, _event_item, limit=MAX_EVENTS)
