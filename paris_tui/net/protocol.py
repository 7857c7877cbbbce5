"""The host protocol's messages: a typed union each way, and their one-line JSON form.

A connection carries UTF-8 lines, one JSON object per line, each with a
``"type"``. The client speaks first (:class:`Hello`, naming the protocol
version it speaks); ``docs/protocol.md`` is the contract for other clients.
Each message is declared once, as a frozen msgspec struct whose ``tag`` is
its ``"type"`` (:class:`~paris_tui.net.wire.Message`): its fields in the order
they are written, each with the type and size a reader takes. msgspec reads
a line into the union of one direction (:data:`ClientMessage`,
:data:`HostMessage`) and checks it in one pass (:func:`decode_client`,
:func:`decode_host`), and writes a message back (:func:`encode`). This module
does no input or output and knows no rules beyond the shape of the values.

>>> from paris_tui.core import Move
>>> line = encode(Play(Move("louvre/yellow"), move_count=3))
>>> line
b'{"type":"play","move":{"tile":"louvre/yellow"},"move_count":3}\\n'
>>> decode_client(line)
Play(move=Move(tile='louvre/yellow', evict=None), move_count=3)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self, TypeAlias, cast, get_args

import msgspec
from msgspec import Meta
from msgspec.structs import asdict, replace

from ..core import Event, IllegalCode, SeatView
from ..core.record import json_kind
from .chat_wire import (
    CHAT_CHANNELS,
    CHAT_PHRASES,
    FRIENDS_ACTIONS,
    FRIENDS_DONE,
    MAX_MUTES,
    MUTES_ACTIONS,
    Chat,
    ChatChannel,
    ChatLine,
    FriendsInfo,
    FriendsRequest,
    MutesInfo,
    MutesRequest,
)
from .endings_wire import Agree, Agreement
from .games_wire import MAX_ONLINE, FinishedGame, Games, GetRecord, ListGames, Online, RecordSent
from .ratings_wire import Leader, RatedResult, check_result, result_form
from .tournaments_wire import (
    RoundStart,
    TournamentList,
    TournamentPage,
    TournamentsRequest,
    tournament_name,
)
from .wire import (
    Code,
    Form,
    Int,
    Message,
    Name,
    Seat,
    Seconds,
    TableId,
    Text,
    Token,
    WireError,
    WireEvents,
    WireMove,
    WireView,
    Word,
    events_to_json,
    json_bytes,
    move_to_json,
    one_of,
    sent,
    view_to_json,
    wire_error,
)

__all__ = [
    "ACCOUNT_ACTIONS",
    "CHAT_CHANNELS",
    "CHAT_PHRASES",
    "ERROR_CODES",
    "FATAL_CODES",
    "FRIENDS_ACTIONS",
    "FRIENDS_DONE",
    "MAX_CLIENT_LINE",
    "MAX_HOST_LINE",
    "MAX_MUTES",
    "MUTES_ACTIONS",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "AccountInfo",
    "AccountRequest",
    "Agree",
    "Agreement",
    "Bye",
    "ByeReason",
    "Chat",
    "ChatChannel",
    "ChatLine",
    "ClientMessage",
    "ErrorCode",
    "FinishedGame",
    "FriendsInfo",
    "FriendsRequest",
    "Games",
    "GetRecord",
    "Hello",
    "HostMessage",
    "Join",
    "Leader",
    "Leave",
    "Left",
    "ListGames",
    "ListTables",
    "MoveClock",
    "MutesInfo",
    "MutesRequest",
    "Online",
    "OpenTable",
    "Ping",
    "Play",
    "Pong",
    "Presence",
    "ProtocolError",
    "RatedResult",
    "RecordSent",
    "Refused",
    "Relay",
    "RoundStart",
    "SeatInfo",
    "SeatStatus",
    "Seated",
    "TableInfo",
    "Tables",
    "TournamentList",
    "TournamentPage",
    "TournamentsRequest",
    "Update",
    "Vouch",
    "Waiting",
    "Watch",
    "Watching",
    "Welcome",
    "decode_client",
    "decode_host",
    "encode",
    "encode_updates",
    "refusal",
    "to_json",
]

PROTOCOL_VERSION = 6
"""The version this code speaks by default (a client's :class:`Hello`)."""
PROTOCOL_VERSIONS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
"""Every version a host speaks. Version 2 is version 1 plus tables with free
seats: :class:`OpenTable`, :class:`Leave`, :class:`Waiting`, :class:`Left`,
the ``free`` seat status and the error codes marked below; a version-1
connection never sees any of them (nor a table that waits for players).
Version 3 is version 2 plus accounts: a ``code`` in :class:`Join` and
:class:`OpenTable`, a ``token`` in :class:`OpenTable`, :class:`AccountRequest`
and :class:`AccountInfo`, and the error codes marked below (an older
connection gets ``seat_taken`` or ``bad_token`` for them).
Version 4 is version 3 plus the host's finished games (:mod:`.games_wire`):
:class:`ListGames`, :class:`GetRecord`, :class:`Games`, :class:`RecordSent`;
table chat and friends (:mod:`.chat_wire`): :class:`Chat`, :class:`ChatLine`,
:class:`MutesRequest`, :class:`MutesInfo` (a player's mutes),
:class:`FriendsRequest`, :class:`FriendsInfo` and the error codes
``bad_chat``, ``chat_limited``, ``muted``; an older connection is sent no
chat. Version 5 is version 4 plus a game's agreed endings and its rematch
(:mod:`.endings_wire`): :class:`Agree`, :class:`Agreement`. Version 6 is version
5 plus the host's tournaments (:mod:`.tournaments_wire`):
:class:`TournamentsRequest`, :class:`TournamentList`, :class:`TournamentPage`,
:class:`RoundStart` and the error codes marked below."""
# A client's line, newline included: its longest message (a join) is under 400 bytes.
MAX_CLIENT_LINE = 4096
# A host's line: a ``seated`` with a whole game's events is about 30 KB.
MAX_HOST_LINE = 4 * 1024 * 1024

ErrorCode = Literal[
    # a move refused by the referee; the game is intact
    "not_your_turn",
    "illegal",
    "stale",
    "game_over",
    "not_seated",
    # a seat or table request refused
    "seat_taken",
    "bad_token",
    "no_such_seat",
    "no_such_table",
    "bad_name",
    # protocol 2: opening a table, taking a free seat
    "bad_table",
    "too_many_tables",
    "name_in_use",
    "not_started",
    # protocol 3: accounts
    "name_taken",
    "bad_code",
    "account_locked",
    "unavailable",
    # protocol 4: table chat
    "bad_chat",
    "chat_limited",
    "muted",
    # protocol 6: tournaments
    "no_such_tournament",
    "entries_closed",
    "already_entered",
    "not_entered",
    "too_few_games",
    "not_allowed",
    "bad_tournament",
    "tournament_table",
    # the connection misbehaved (fatal: the host closes it)
    "bad_message",
    "too_large",
    "rate_limited",
    "unsupported_protocol",
    "host_full",
]
ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)
# After these the host closes the connection.
FATAL_CODES = frozenset(
    {"bad_message", "too_large", "rate_limited", "unsupported_protocol", "host_full", "bad_token"}
)

SeatStatus = Literal["present", "away", "takeover", "ai", "free"]
SEAT_STATUSES: tuple[str, ...] = get_args(SeatStatus)
ByeReason = Literal["shutdown", "replaced", "idle"]
ACCOUNT_ACTIONS = ("show", "code", "add_key")
VOUCH_DOORS = ("ssh", "browser")
"""The doors whose proof a peer host may vouch for (a token is proven where it is sent)."""


class ProtocolError(ValueError):
    """A line that is not a valid message; ``code`` is the refusal to send back."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        self.code = code
        self.message = message
        self.line = b""  # the start of the line (a client says which service sent it)
        super().__init__(message)


MoveCount = Annotated[int, Meta(ge=0, le=10_000)]
Digest = Annotated[str, Meta(max_length=100)]  # an address, a hex HMAC, a credential's digest


# --- values inside messages ---------------------------------------------------------


class SeatInfo(Form, frozen=True):
    """A seat as everyone at the table sees it.

    ``status``: ``present`` (a human connected), ``away`` (a human not
    connected), ``takeover`` (away, and an AI plays for them until they
    return), ``ai`` (an AI seat), ``free`` (protocol 2: a seat of a table
    that waits for players, held by nobody yet; its ``name`` is ``""``).
    """

    name: Text
    kind: Word
    status: SeatStatus
    # The account's shown rating in tenths (net/ratings_wire.py), written when it has one.
    rating: Annotated[int, Meta(ge=-100_000, le=100_000)] | None = None
    # Fewer rated games than ratings_wire.PROVISIONAL_GAMES: shown as "?" (additive).
    provisional: bool = False


Seats = Annotated[tuple[SeatInfo, ...], Meta(max_length=4)]


class TableInfo(Form, frozen=True):
    """A table in the host's list: who sits there and how far the game is.

    ``waiting`` (protocol 2): the table waits for players to fill its
    ``free_seats``; its game starts when the last one is taken (until then
    ``move_count`` and ``total_moves`` are 0). A version-1 host sends neither
    (read as their defaults)."""

    table: TableId
    seats: Seats
    move_count: MoveCount
    total_moves: MoveCount
    finished: bool
    waiting: bool = sent(False)
    free_seats: Annotated[int, Meta(ge=0, le=4)] = sent(0)
    # A timed table's, written only when set (additive): seconds per move, the seat
    # to move and how long (seconds) the table has waited for that seat.
    move_time: Seconds | None = None
    to_move: Seat | None = None
    waited: Seconds | None = None
    # Additive (protocol 5), written only when true: a finished game every player
    # agreed to abort (no winner, unrated).
    aborted: bool = False


class MoveClock(Form, omit_defaults=False, frozen=True):
    """The move clock of a timed table, in a :class:`Presence`: ``seat`` is to move
    and has had ``waited`` of its ``move_time`` seconds when this was sent;
    ``turn_based`` for hours or days per move. ``timed_out``: the seat whose time
    ran out at move ``timed_out_move`` (the AI played that move for it), if any.
    Every field is written."""

    move_time: Seconds
    turn_based: bool = False
    seat: Seat | None = None
    waited: Seconds = 0.0
    timed_out: Seat | None = None
    timed_out_move: MoveCount | None = None


# --- client to host ----------------------------------------------------------------


class Hello(Message, tag="hello", omit_defaults=False, frozen=True):
    """The first line of every connection: the protocol it speaks, who it is, its language."""

    protocol: Annotated[int, Meta(ge=0, le=2**16)]
    client: Annotated[str, Meta(max_length=100)]
    # A language tag such as en or fr-CA.
    language: Annotated[str, Meta(pattern=r"\A[a-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}\Z")] = "en"


class Join(Message, tag="join", frozen=True):
    """Take the seat reserved for ``name`` (at ``table``, or the one table where it sits).

    ``token`` is the account's secret from the first join (or a door's ticket);
    ``None`` on the first. ``code`` (protocol 3): a link code of the account,
    which links this client to it (the answer carries a new token to keep).
    """

    name: Name
    token: Token | None = sent(None)
    table: TableId | None = sent(None)
    code: Code | None = None


class Watch(Message, tag="watch", frozen=True):
    """Watch ``table``: its public view, no seat. Protocol 4 (additive): ``name`` and
    ``token`` watch under that account, proven as in a join (its chat lines are the
    account's, and the host sends it no line of a writer the account mutes)."""

    table: TableId
    name: Name | None = None
    token: Token | None = None


class OpenTable(Message, tag="open_table", frozen=True):
    """Protocol 2: open a table whose seats are ``seats``, in order: ``"me"`` (the
    sender's seat, taken by ``name``), ``"open"`` (a free seat anyone may join)
    or ``"ai:<level>"``. Answered by :class:`Waiting` while seats are free, by
    :class:`Seated` once the game starts (at once when no seat is ``open``).
    The host says which seat words and variants it takes (``bad_table``)."""

    name: Name
    seats: Annotated[tuple[Word, ...], Meta(max_length=8)]
    small_tour: Word = sent("both-lines")
    final_tours: Word = sent("secret")
    token: Token | None = None  # protocol 3: the account's token (as in a join)
    code: Code | None = None  # protocol 3: a link code (as in a join)
    move_time: Seconds | None = None  # seconds per move (additive): a timed table


class Leave(Message, tag="leave", frozen=True):
    """Protocol 2: leave the seat held or the table watched (a waiting table's seat
    becomes free again). Answered by :class:`Left`."""


class ListTables(Message, tag="list_tables", frozen=True):
    """Ask for the host's tables (answered by :class:`Tables`)."""


class Play(Message, tag="play", frozen=True):
    """Make ``move`` for the joined seat; ``move_count`` is how many moves the client has seen."""

    move: WireMove
    move_count: MoveCount


class Ping(Message, tag="ping", omit_defaults=False, frozen=True):
    """Either side: are you there? Answered by a :class:`Pong` with the same ``nonce``."""

    nonce: Int = 0


class Pong(Message, tag="pong", omit_defaults=False, frozen=True):
    nonce: Int = 0


class AccountRequest(Message, tag="account", frozen=True):
    """Protocol 3: about the account ``name`` (proven by ``token``, as in a join):
    ``show`` it, make a new link ``code`` for another door, or ``add_key`` (an
    OpenSSH public key line in ``key``). Answered by :class:`AccountInfo`."""

    name: Name
    token: Token | None = sent(None)
    action: Annotated[str, one_of(ACCOUNT_ACTIONS)] = sent("show")
    key: Annotated[str, Meta(pattern=r"\A[A-Za-z0-9+/=@._ :-]{1,3000}\Z")] | None = None


class Relay(Message, tag="relay", frozen=True):
    """Host to host, right after the hello: a peer host on the same database relays
    this connection for a person at ``address``. ``proof`` is the peer's HMAC over
    the relay's own source and ``address`` with the database's relay secret
    (:mod:`paris_tui.host.services.relay`); from anything else it is refused and the
    connection cut off. ``vouch`` is written as a vouch line's fields, without
    its ``"type"``."""

    address: Digest
    proof: Digest
    vouch: Vouch | None = None

    def _form(self) -> msgspec.Struct:
        if self.vouch is None:
            return self
        vouch = asdict(self.vouch)
        if not self.vouch.address:  # the bytes of before: an address is additive
            del vouch["address"]
        return replace(self, vouch=vouch)


class Vouch(Message, tag="vouch", frozen=True):
    """In a :class:`Relay`: what the relaying host's door proved of the person
    whose app sends ``token``s that hash to ``ticket`` (the SHA-256 of the door's
    ticket, never the ticket): a credential of ``door`` (its ``credential``
    digest and ``label``), for the name that folds to ``name`` (SSH) or any
    name (``None``: a browser), good for ``seconds`` more at most, seen by
    its door at ``address`` (an IP address; ``""``: not known), which the
    referee notes for ratings between different people. ``proof`` is the
    relaying host's HMAC over all of it and the relay's own source, with the
    database's relay secret (:mod:`paris_tui.host.services.relay`).

    Also a line of its own (``{"type":"vouch",...}``), host to host, once, on
    a relayed connection whose relay line had none: the app sent its ticket
    only later (after a ``watch`` that was refused, say)."""

    ticket: Annotated[str, Meta(max_length=64)]
    door: Annotated[str, one_of(VOUCH_DOORS)]
    credential: Digest
    name: Annotated[str, Meta(max_length=400)] | None
    label: Digest
    seconds: Annotated[int, Meta(ge=0, le=86_400)]
    proof: Digest
    address: Digest = ""


ClientMessage = (
    Hello
    | Join
    | Watch
    | ListTables
    | Play
    | Ping
    | Pong
    | OpenTable
    | Leave
    | AccountRequest
    | Relay
    | ListGames  # protocol 4 (games_wire.py)
    | GetRecord
    | Chat  # protocol 4 (chat_wire.py)
    | FriendsRequest
    | MutesRequest
    | Vouch
    | Agree  # protocol 5 (endings_wire.py)
    | TournamentsRequest  # protocol 6 (tournaments_wire.py)
)


# --- host to client -----------------------------------------------------------------


class Welcome(Message, tag="welcome", frozen=True):
    """The answer to :class:`Hello`: the version the host speaks and the language it uses.

    ``hints``: the host lets its players ask for a hint on their turn (``paris-tui
    host --hints``); each client works it out from its own seat's view. Absent
    (an older host): no hints.
    """

    protocol: Annotated[int, Meta(ge=0, le=2**16)]
    server: Text
    language: Annotated[str, Meta(max_length=35)]
    hints: bool = sent(False)


class Seated(Message, tag="seated", frozen=True):
    """You sit at ``table`` in ``seat``. ``token`` is given once, on the first join: keep it.
    ``tournament`` (protocol 6): the tournament whose round the table is (no rematch)."""

    table: TableId
    seat: Seat
    token: Token | None
    view: WireView
    events: WireEvents
    seats: Seats
    tournament: Name | None = None

    def _checked(self) -> Self:
        checked = super()._checked()
        if self.tournament is None:
            return checked
        return replace(checked, tournament=tournament_name(self.tournament))


class Watching(Message, tag="watching", frozen=True):
    """You watch ``table``: the public view and every event so far (``tournament`` as in
    :class:`Seated`)."""

    table: TableId
    view: WireView
    events: WireEvents
    seats: Seats
    tournament: Name | None = None

    def _checked(self) -> Self:
        checked = super()._checked()
        if self.tournament is None:
            return checked
        return replace(checked, tournament=tournament_name(self.tournament))


class Update(Message, tag="update", frozen=True):
    """A move was made: the new view for your seat and the events it caused."""

    table: TableId
    view: WireView
    events: WireEvents


class Presence(Message, tag="presence", frozen=True):
    """Someone arrived, left, or an AI took over or handed back a seat."""

    table: TableId
    seats: Seats
    result: RatedResult | None = None  # once the game is over: how it was rated
    clock: MoveClock | None = None  # a timed table's clock (additive)

    def _checked(self) -> Self:
        if self.result is not None:
            check_result(self.result)
        return self

    def _form(self) -> msgspec.Struct:
        form = super()._form()
        if self.result is None or self.result.provisional:
            return form
        return replace(form, result=result_form(self.result))  # the bytes of before


class Waiting(Message, tag="waiting", frozen=True):
    """Protocol 2: you hold ``seat`` at ``table``, which waits for its free seats to be
    taken. Sent again to everyone there whenever a seat is taken or freed; the
    game starts (a :class:`Seated` to each, with its token) when none is free."""

    table: TableId
    seat: Seat
    seats: Seats


class Left(Message, tag="left", frozen=True):
    """Protocol 2: the answer to :class:`Leave`: the table left (``None``: none)."""

    table: TableId | None = sent(None)


if TYPE_CHECKING:  # to callers: (door, count) pairs, in the doors' order
    Doors: TypeAlias = tuple[tuple[str, int], ...]
else:  # on the wire: {"ssh": n, "token": n, "browser": n}
    Doors = dict[Literal["ssh", "token", "browser"], Annotated[int, Meta(ge=0, le=99)]]


class AccountInfo(Message, tag="account", frozen=True):
    """Protocol 3: the answer to :class:`AccountRequest`: the account's name, how many
    credentials of each door it has (``ssh``, ``token``, ``browser``), and a new
    link ``code`` with the seconds it stays good (``None`` unless one was asked)."""

    name: Text
    doors: Doors
    code: Code | None = sent(None)
    expires: Annotated[int, Meta(ge=0, le=10**7)] | None = sent(None)

    def _checked(self) -> Self:
        return replace(self, doors=tuple(sorted(cast("dict[str, int]", self.doors).items())))

    def _form(self) -> msgspec.Struct:
        return replace(self, doors=dict(self.doors))


class Refused(Message, tag="error", frozen=True):
    """A request refused (``"type": "error"`` on the wire); ``fatal``: the host hangs up."""

    code: ErrorCode
    message: Annotated[str, Meta(max_length=500)]
    fatal: bool = sent(False)
    illegal: IllegalCode | None = None  # with code "illegal": why, as the core's code
    # Protocol 3: a join refused after it made the account of its name (the seat
    # went elsewhere meanwhile): that account's token, to keep as a seated's.
    token: Token | None = None


class Tables(Message, tag="tables", frozen=True):
    tables: Annotated[tuple[TableInfo, ...], Meta(max_length=10_000)]
    # The host's best ratings (net/ratings_wire.py), written when there are any.
    leaderboard: Annotated[tuple[Leader, ...], Meta(max_length=100)] = ()
    # The accounts at this host now (net/games_wire.py's Online), written when any are.
    online: Annotated[tuple[Online, ...], Meta(max_length=MAX_ONLINE)] = ()


class Bye(Message, tag="bye", frozen=True):
    """The host closes the connection: it shuts down, your seat was taken by your
    own newer connection (``replaced``), or you were silent too long (``idle``).

    ``address`` (any version: a reader ignores a field it does not know): the
    table went to another host of the same database, which referees it now, at
    this ``HOST:PORT``; join it there, without trying any other host first."""

    reason: ByeReason
    address: Annotated[str, Meta(max_length=300)] | None = None


HostMessage = (
    Welcome
    | Seated
    | Watching
    | Update
    | Presence
    | Refused
    | Tables
    | Bye
    | Ping
    | Pong
    | Waiting
    | Left
    | AccountInfo
    | Games  # protocol 4 (games_wire.py)
    | RecordSent
    | ChatLine  # protocol 4 (chat_wire.py)
    | FriendsInfo
    | MutesInfo
    | Agreement  # protocol 5 (endings_wire.py)
    | TournamentList  # protocol 6 (tournaments_wire.py)
    | TournamentPage
    | RoundStart
)


def refusal(
    code: ErrorCode, message: str, illegal: IllegalCode | None = None, token: str | None = None
) -> Refused:
    """A :class:`Refused` whose ``fatal`` flag follows :data:`FATAL_CODES`."""
    return Refused(code, message, code in FATAL_CODES, illegal, token)


# --- writing ------------------------------------------------------------------------


def encode(message: ClientMessage | HostMessage) -> bytes:
    """The message as one line of bytes, newline included: compact JSON, ASCII only
    (so no byte of it is a terminal control)."""
    return json_bytes(message._form()) + b"\n"


def to_json(message: ClientMessage | HostMessage) -> dict[str, Any]:
    """The JSON object of a message."""
    return cast(dict[str, Any], msgspec.to_builtins(message._form()))


def encode_updates(
    table: str, public: SeatView, views: dict[int, SeatView], events: tuple[Event, ...]
) -> tuple[dict[int, bytes], bytes]:
    """The :class:`Update` line for each seat in ``views`` and for watchers, the
    public part of the view and the events encoded once.

    Each seat's line decodes to ``Update(table, views[seat], events)`` and the
    watchers' to ``Update(table, public, events)``, provided each seat's view
    differs from ``public`` only in ``seat``, ``own_route`` and ``legal_moves``
    (as :meth:`paris_tui.host.referee.Referee.views` builds them; a test holds
    both equal to the one-by-one encoding). The three fields come last in the
    view object.
    """
    shared = view_to_json(public)
    for key in _SEAT_FIELDS:
        del shared[key]
    head = b'{"type":"update","table":' + json_bytes(table) + b',"view":' + json_bytes(shared)[:-1]
    tail = b'},"events":' + json_bytes(events_to_json(events)) + b"}\n"

    def line(view: SeatView) -> bytes:
        legal = json_bytes([move_to_json(m) for m in view.legal_moves])
        own = b',"seat":%b,"own_route":%b,"legal_moves":%b' % (
            json_bytes(view.seat),
            json_bytes(view.own_route),
            legal,
        )
        return head + own + tail

    return {seat: line(view) for seat, view in views.items()}, line(public)


_SEAT_FIELDS = ("seat", "own_route", "legal_moves")


# --- reading ------------------------------------------------------------------------

_CLIENT = msgspec.json.Decoder(ClientMessage)
_HOST = msgspec.json.Decoder(HostMessage)
_TAGS: dict[Any, dict[str, type[Message]]] = {
    union: {cls.__struct_config__.tag: cls for cls in get_args(union)}
    for union in (ClientMessage, HostMessage)
}


def decode_client(line: bytes) -> ClientMessage:
    """A client's line as a message. Raises :class:`ProtocolError` (``bad_message``,
    ``too_large``). Names are checked for type and size only: the host applies
    the core's name rule."""
    return cast(ClientMessage, _decode(_CLIENT, line, MAX_CLIENT_LINE))


def decode_host(line: bytes) -> HostMessage:
    """A host's line as a message. Raises :class:`ProtocolError` (a client shows one
    line and hangs up; it never crashes on what a host sends)."""
    return cast(HostMessage, _decode(_HOST, line, MAX_HOST_LINE))


def _decode(decoder: msgspec.json.Decoder[Any], line: bytes, limit: int) -> Message:
    if len(line) > limit:
        raise ProtocolError("too_large", f"a line is limited to {limit} bytes")
    try:
        message: Message = decoder.decode(line)
    except (msgspec.DecodeError, RecursionError):  # (a ValidationError is a DecodeError)
        message = _decode_again(decoder.type, line)
    try:
        return message._checked()
    except WireError as exc:
        raise ProtocolError("bad_message", str(exc)) from None


def _decode_again(union: Any, line: bytes) -> Message:
    """A line msgspec refused, read again by Python's json: it says why in the words
    a reader has always said it, and it takes the one line msgspec does not, a
    string with a lone surrogate (``"\\ud800"``: a name the host refuses by its rule)."""
    data = _parse_line(line)
    kind = data.get("type")
    if kind is None and "type" not in data:
        raise ProtocolError("bad_message", "message.type: missing")
    if not isinstance(kind, str) or len(kind) > 32:
        problem = "longer than 32 characters" if isinstance(kind, str) else "must be a string"
        found = "" if isinstance(kind, str) else f", found {json_kind(kind)}"
        raise ProtocolError("bad_message", f"type: {problem}{found}")
    cls = _TAGS[union].get(kind)
    if cls is None:
        raise ProtocolError("bad_message", f"unknown message type {kind[:32]!r}")
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError as exc:
        raise ProtocolError("bad_message", str(wire_error(exc, kind))) from None
    except RecursionError:
        raise ProtocolError("bad_message", "JSON nested too deeply") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _parse_line(line: bytes) -> dict[str, Any]:
    """A line's JSON object, or a :class:`ProtocolError` (never another exception)."""
    try:
        data = json.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError:
        raise ProtocolError("bad_message", "a line must be UTF-8 text") from None
    except RecursionError:
        raise ProtocolError("bad_message", "JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, huge integers, NaN
        raise ProtocolError("bad_message", f"not JSON: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    return cast(dict[str, Any], data)
