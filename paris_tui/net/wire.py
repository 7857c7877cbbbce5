"""The wire's vocabulary: msgspec's base structs, the fields of messages, the core's values.

Every message of the protocol is a frozen :mod:`msgspec` struct, declared
once: its fields, in the order they are written, each with a type that says
what a reader takes (``Annotated`` sizes and ranges: :data:`Seat`,
:data:`TableId`, :data:`Text`). msgspec reads and checks a line in one pass,
in C, and writes the struct back; this module holds the base structs
(:class:`Form`, :class:`Message`), the field types they share, and the one
line codec (:func:`json_bytes`, byte for byte what Python's ``json`` wrote
before msgspec: ASCII only, compact).

The core's values have JSON forms of their own (plain JSON values; a tuple
where the value has one, which every encoder writes as an array), as python-chess gives
``Move.uci()`` and ``Move.from_uci()``: tiles are the record's ``"stop/line"``
strings and a move has the record's form (``{"tile": "louvre/yellow"}``, with
``"evict": seat`` at a full stop), so a move on the wire is a move in a
``paris-paris-record``; a seat view is its fields with the board as its id;
an event is ``{"type": ..., <its fields>}``. msgspec reads each as a form
(:class:`MoveForm`, :class:`ViewForm`, one struct per event), which is then
made the core's value. A field of a message says :data:`WireMove`,
:data:`WireView` or :data:`WireEvents`: the core's type to its callers (and
mypy), the form to msgspec; :meth:`Message._checked` and
:meth:`Message._form` turn one into the other.

Readers never trust their input: anything of the wrong shape, type or size
is a :class:`WireError` naming the field (``view.scores[2]``), never a
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

import dataclasses
import functools
import json
import operator
import re
from collections.abc import Callable
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    Self,
    TypeAlias,
    TypeVar,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

import msgspec
import msgspec.inspect
from msgspec import Meta
from msgspec.structs import asdict, astuple, fields, replace

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
from ..core.errors import ParisError

__all__ = [
    "MAX_TEXT",
    "Form",
    "Message",
    "WireError",
    "event_from_json",
    "event_to_json",
    "events_from_json",
    "events_to_json",
    "json_bytes",
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


_AT = re.compile(r"(?P<problem>.*?)(?: - at `\$(?P<path>[^`]*)`)?", re.DOTALL)
_FIELD = re.compile(r"Object (?P<what>missing required|contains unknown) field `(?P<key>.*)`")


def wire_error(exc: msgspec.ValidationError, where: str) -> WireError:
    """msgspec's word for a value it refused, as a :class:`WireError` whose ``where``
    starts at ``where`` (``view`` and msgspec's ``$.scores[2]``: ``view.scores[2]``)."""
    found = _AT.fullmatch(str(exc))
    assert found is not None  # the pattern matches any text
    where += found["path"] or ""
    problem = found["problem"]
    key = _FIELD.fullmatch(problem)
    if key is not None and key["what"] == "missing required":
        where, problem = f"{where}.{key['key']}", "missing"
    elif key is not None:
        problem = f"unknown field {key['key'][:40]!r}"
    return WireError(where, problem[:200])


def one_of(words: tuple[str, ...]) -> Meta:
    """The constraint of a string that is one of ``words``."""
    return Meta(pattern=rf"\A(?:{'|'.join(map(re.escape, words))})\Z")


def sent(default: T) -> T:
    """A field's default that is written all the same: a :class:`Form` leaves out of
    its line each other field whose value is its default (msgspec's ``omit_defaults``),
    but never one whose default comes from a factory."""
    return msgspec.field(default_factory=lambda: default)


class Form(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A JSON object of these fields, in this order; a field whose value is its
    default is left out, unless its default is :func:`sent`. A field a reader does
    not know is ignored (a version may gain fields).

    Python's garbage collector does not track these (``gc=False``): a form holds
    values, never itself, so it is in no reference cycle; not tracking the many a
    line makes spares the collector's passes over them (a fifth of the time an
    update line takes to read and write)."""


class Message(Form, tag_field="type", frozen=True):
    """A message: one line, a JSON object whose ``"type"`` is the struct's ``tag``."""

    def _checked(self) -> Self:
        """The message as decoded, made whole: the core's values made from the forms
        msgspec read (:data:`WireView` and the others), and what a type cannot say
        checked (raises :class:`WireError`). A message whose reader knows more
        (the core's rules for outside text, one field or another) says it here."""
        plan = _plan(type(self))
        if not plan:
            return self
        return replace(self, **{name: read(getattr(self, name)) for name, read, _ in plan})

    def _form(self) -> msgspec.Struct:
        """What msgspec writes for this message: itself, with the core's values as
        their JSON forms."""
        plan = _plan(type(self))
        if not plan:
            return self
        return replace(self, **{name: write(getattr(self, name)) for name, _, write in plan})


# --- the fields of messages -----------------------------------------------------------

Int = Annotated[int, Meta(ge=-(2**31), le=2**31)]
"""A whole number (bool is an int in Python and never one on the wire)."""
Seat = Annotated[int, Meta(ge=0, le=3)]
Count = Annotated[int, Meta(ge=0, le=MAX_ITEMS)]
Text = Annotated[str, Meta(max_length=MAX_TEXT)]
Word = Annotated[str, Meta(max_length=32)]
Texts = Annotated[tuple[Text, ...], Meta(max_length=MAX_ITEMS)]
Ints = Annotated[tuple[Int, ...], Meta(max_length=MAX_ITEMS)]
Name = Annotated[str, Meta(max_length=1000)]
"""A name as sent: the core's name rule decides (the host applies it); this bounds the work."""
TableId = Annotated[str, Meta(pattern=r"\A[a-z0-9][a-z0-9-]{0,31}\Z")]
Token = Annotated[str, Meta(pattern=r"\A[A-Za-z0-9_-]{16,64}\Z")]
"""An account's secret (or a door's ticket)."""
Code = Annotated[str, Meta(pattern=r"\A[A-Za-z0-9 _.-]{1,32}\Z")]
"""A link code as typed (the host normalises it): letters, digits, dashes, spaces."""
Seconds = Annotated[float, Meta(ge=0, le=10 * 365 * 86400)]
"""A duration: a JSON number (a whole one too), never NaN or infinite (JSON has neither)."""


# --- the core's values: their forms ---------------------------------------------------


class MoveForm(Form, forbid_unknown_fields=True, frozen=True):
    """A move: its ``tile``, and ``evict`` (written only at a full stop); a key the
    record's form of a move has not is refused."""

    tile: Annotated[str, Meta(max_length=64)]
    evict: Seat | None = None


class OutcomeForm(Form, frozen=True):
    scores: Ints
    sack: Ints
    on_board: Ints
    winners: Ints
    decided_by: Literal["score", "fewest_businesses", "shared"]


class OptionsForm(Form, frozen=True):
    small_tour: Literal["both-lines", "tile-line"]
    final_tours: Literal["secret", "all-lines"]


Moves = Annotated[tuple[MoveForm, ...], Meta(max_length=MAX_ITEMS)]
IntLists = Annotated[tuple[Ints, ...], Meta(max_length=MAX_ITEMS)]
Scores = Annotated[tuple[Int, ...], Meta(max_length=4)]


class ViewForm(Form, frozen=True):
    """A :class:`~paris_tui.core.SeatView`'s fields, the board as its id; every field
    is written (``null`` too). Nothing is added: the form holds exactly what the
    view holds, so a view that keeps a secret keeps it on the wire."""

    board: Word
    names: Annotated[tuple[Text, ...], Meta(min_length=2, max_length=4)]
    options: OptionsForm
    seat: Seat | None
    round: Count
    rounds_total: Count
    starter: Seat
    to_move: Seat | None
    face_up: Texts
    discard: Texts
    scores: Scores
    supply: Scores
    occupancy: IntLists
    sack_total: Annotated[int, Meta(ge=0, le=1000)]
    stacks_left: Count
    moves: Moves
    leftovers: Texts
    unseen_tiles: Texts
    round_scores: IntLists
    own_route: Word | None
    public_route: Word | None
    legal_moves: Moves
    outcome: OutcomeForm | None
    revealed_routes: Texts | None


class _EventForm(Form, tag_field="type", frozen=True):
    """An event: ``"type"`` and the core's event's fields, in its order, all written.
    Each event's form is made of the core's event (:func:`_event_form`)."""


_EVENT_TAGS: dict[type[Any], str] = {
    BusinessOpened: "business_opened",
    NothingOpened: "nothing_opened",
    BusinessRemoved: "business_removed",
    TourEvent: "tour",
    ScoreEvent: "score",
    TileDiscarded: "tile_discarded",
    RoundStarted: "round_started",
    GameOver: "game_over",
}
Points = Annotated[int, Meta(ge=0, le=100)]
_EVENT_FIELDS: dict[str, Any] = {
    "round": Count,
    **dict.fromkeys(("seat", "owner", "by", "starter"), Seat),
    **dict.fromkeys(("tile", "stop", "line", "origin"), Text),
    **dict.fromkeys(("stops", "tiles"), Texts),
    **dict.fromkeys(("scores", "winners"), Scores),
    "points": Annotated[int, Meta(ge=0, le=1000)],
    **dict.fromkeys(("here", "near", "distance"), Points),
    "grand_tour": bool,
}
"""What the wire takes in an event's field, by its name (a literal field takes what
the core's type says)."""


def _event_form(event: type[Any]) -> type[_EventForm]:
    """The form of one of the core's events: its fields, in its order, each of the
    type :data:`_EVENT_FIELDS` names (``None`` too where the core's type allows it),
    every one of them required."""
    hints = get_type_hints(event)
    kinds = []
    for name in (f.name for f in dataclasses.fields(event)):
        hint = hints[name]
        kind = hint if get_origin(hint) is Literal else _EVENT_FIELDS[name]
        kinds.append((name, kind | None if type(None) in get_args(hint) else kind))
    form = msgspec.defstruct(
        f"{event.__name__}Form", kinds, bases=(_EventForm,), tag=_EVENT_TAGS[event], frozen=True
    )
    return cast(type[_EventForm], form)


EVENT_FORMS: dict[type[_EventForm], type[Any]] = {_event_form(e): e for e in _EVENT_TAGS}
"""Each event's form and the core's event it reads as (the same fields, in order)."""
EventForm: Any = functools.reduce(operator.or_, EVENT_FORMS)  # their union
EventForms: Any = Annotated[tuple[EventForm, ...], Meta(max_length=MAX_EVENTS)]

if TYPE_CHECKING:  # to callers (and to mypy), a message's field holds the core's value
    WireMove: TypeAlias = Move
    WireView: TypeAlias = SeatView
    WireEvents: TypeAlias = tuple[Event, ...]
else:  # to msgspec, its form: what it reads and checks
    WireMove = MoveForm
    WireView = ViewForm
    WireEvents = EventForms


# --- forms to values ----------------------------------------------------------------

_PLAIN_MOVES: dict[str, Move] = {}  # tile -> Move(tile): a move is frozen, one serves all
_PLAIN_MOVES_MAX = 512  # bounded: a host cannot grow it by sending made-up tiles


def _move(form: MoveForm) -> Move:
    if form.evict is not None:
        return Move(form.tile, form.evict)
    move = _PLAIN_MOVES.get(form.tile)
    if move is None:
        move = Move(form.tile)
        if len(_PLAIN_MOVES) < _PLAIN_MOVES_MAX:
            _PLAIN_MOVES[form.tile] = move
    return move


def _outcome(form: OutcomeForm) -> Outcome:
    return Outcome(*astuple(form))


def _view(form: ViewForm, where: str = "view") -> SeatView:
    board = BOARDS.get(form.board)
    if board is None:
        raise WireError(f"{where}.board", f"unknown board {form.board!r}")
    players = len(form.names)
    for key in ("seat", "starter", "to_move"):
        seat = getattr(form, key)
        if seat is not None and seat >= players:
            raise WireError(f"{where}.{key}", f"must be between 0 and {players - 1}")
    values = asdict(form)
    values["board"] = board()
    values["options"] = Options(form.options.small_tour, form.options.final_tours)
    values["moves"] = tuple([_move(m) for m in form.moves])
    values["legal_moves"] = tuple([_move(m) for m in form.legal_moves])
    values["outcome"] = None if form.outcome is None else _outcome(form.outcome)
    return SeatView(**values)


def _events(forms: tuple[_EventForm, ...]) -> tuple[Event, ...]:
    return tuple([EVENT_FORMS[type(form)](*astuple(form)) for form in forms])


# --- values to their JSON forms -----------------------------------------------------


def move_to_json(move: Move) -> dict[str, Any]:
    """The record's form of a move: ``{"tile": ...}`` plus ``"evict"`` when it removes."""
    if move.evict is None:
        return {"tile": move.tile}
    return {"tile": move.tile, "evict": move.evict}


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return {name: getattr(outcome, name) for name in OutcomeForm.__struct_fields__}


_VIEW_FIELDS = ViewForm.__struct_fields__


def view_to_json(view: SeatView) -> dict[str, Any]:
    """Every field of a :class:`SeatView`, in its order (:class:`ViewForm`'s); the
    board travels as its id (``"classic"``), a move in the record's form."""
    data = {name: getattr(view, name) for name in _VIEW_FIELDS}
    data["board"] = view.board.id
    data["options"] = {
        "small_tour": view.options.small_tour,
        "final_tours": view.options.final_tours,
    }
    data["moves"] = [move_to_json(m) for m in view.moves]
    data["legal_moves"] = [move_to_json(m) for m in view.legal_moves]
    if view.outcome is not None:
        data["outcome"] = outcome_to_json(view.outcome)
    return data


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"type": ..., <the event's fields>}``."""
    data: dict[str, Any] = {"type": _EVENT_TAGS[type(event)]}
    for name in type(event).__slots__:
        data[name] = getattr(event, name)
    return data


def events_to_json(events: list[Event] | tuple[Event, ...]) -> list[dict[str, Any]]:
    return [event_to_json(e) for e in events]


# --- a message's fields that hold the core's values -----------------------------------

_CORE_FIELDS: tuple[tuple[Any, Callable[[Any], Any], Callable[[Any], Any]], ...] = (
    (MoveForm, _move, move_to_json),
    (ViewForm, _view, view_to_json),
    (EventForms, _events, events_to_json),
)
"""Each form a message's field may be declared as (:data:`WireMove` and the others),
how its value is made of it and how the value is written."""
_Plan = tuple[tuple[str, Callable[[Any], Any], Callable[[Any], Any]], ...]
_PLANS: dict[type[msgspec.Struct], _Plan] = {}


def _plan(cls: type[msgspec.Struct]) -> _Plan:
    """``cls``'s fields that hold the core's values: (name, read, write) of each."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = tuple(
            (field.name, read, write)
            for field in fields(cls)
            for form, read, write in _CORE_FIELDS
            if field.type is form
        )
        _PLANS[cls] = plan
    return plan


# --- readers: a JSON value (already parsed) as the core's value -------------------------


def _convert(value: object, form: Any, where: str) -> Any:
    try:
        return msgspec.convert(value, form)
    except msgspec.ValidationError as exc:
        raise wire_error(exc, where) from None


def move_from_json(value: object, where: str = "move") -> Move:
    """A :class:`Move` from its JSON form (form only: legality is the referee's)."""
    return _move(_convert(value, MoveForm, where))


def outcome_from_json(value: object, where: str = "outcome") -> Outcome:
    return _outcome(_convert(value, OutcomeForm, where))


def view_from_json(value: object, where: str = "view") -> SeatView:
    """A :class:`SeatView` from its JSON form (types and sizes checked, not the rules)."""
    return _view(_convert(value, ViewForm, where), where)


def event_from_json(value: object, where: str = "event") -> Event:
    return _events((_convert(value, EventForm, where),))[0]


def events_from_json(value: object, where: str = "events") -> tuple[Event, ...]:
    return _events(_convert(value, EventForms, where))


# --- one line of JSON -----------------------------------------------------------------

_ENCODER = msgspec.json.Encoder()
_NOT_ASCII = re.compile(rb"[\x7f-\xff]+")
# msgspec writes a float below 1e-4 as 0.00001 or 1e-7, Python's json as 1e-05, 1e-07
# (and 1e16 as 1e16, not 1e+16): the same number, other bytes. A line where this
# could be is written by Python's json (an "e" after a digit in a string too: rare).
_EXPONENT = re.compile(rb"e(?<=[0-9]e)[-0-9]")


def _escaped(run: re.Match[bytes]) -> bytes:
    # Python's json escapes DEL and every character past ASCII as \u00e9 (a pair of
    # surrogates past U+FFFF); a run of them holds no quote and no backslash.
    return json.dumps(run.group().decode("utf-8"))[1:-1].encode("ascii")


def json_bytes(value: Any) -> bytes:
    """``value`` (a struct, or plain JSON values) as compact JSON in ASCII, so that
    no byte of it is a terminal control: byte for byte what
    ``json.dumps(value, separators=(",", ":"), ensure_ascii=True)`` writes."""
    try:
        text = _ENCODER.encode(value)
    except UnicodeEncodeError:  # a lone surrogate, which JSON escapes and UTF-8 cannot hold
        return _python_json(value)
    if _may_hold_floats(type(value)) and (b"0.0000" in text or _EXPONENT.search(text)):
        return _python_json(value)
    if not text.isascii() or b"\x7f" in text:
        text = _NOT_ASCII.sub(_escaped, text)
    return text


def _python_json(value: Any) -> bytes:
    plain = msgspec.to_builtins(value)
    return json.dumps(plain, separators=(",", ":"), ensure_ascii=True).encode("ascii")


_FLOATS: dict[type[Any], bool] = {}


def _may_hold_floats(cls: type[Any]) -> bool:
    """Whether a value of ``cls`` may hold a float: a struct whose fields' types say
    so (or say any JSON value), or anything that is no struct."""
    found = _FLOATS.get(cls)
    if found is None:
        found = not issubclass(cls, msgspec.Struct) or _floats(msgspec.inspect.type_info(cls))
        _FLOATS[cls] = found
    return found


def _floats(kind: msgspec.inspect.Type) -> bool:
    inspect = msgspec.inspect
    if isinstance(kind, inspect.FloatType | inspect.AnyType | inspect.CustomType):
        return True
    if isinstance(kind, inspect.StructType | inspect.DataclassType):
        return any(_floats(f.type) for f in kind.fields)
    if isinstance(kind, inspect.UnionType):
        return any(_floats(k) for k in kind.types)
    if isinstance(kind, inspect.TupleType):
        return any(_floats(k) for k in kind.item_types)
    if isinstance(kind, inspect.ListType | inspect.VarTupleType):
        return _floats(kind.item_type)
    if isinstance(kind, inspect.DictType):
        return _floats(kind.value_type)
    return isinstance(kind, inspect.Metadata) and _floats(kind.type)
