"""The host protocol's messages: a typed union each way, and their one-line JSON form.

A connection carries UTF-8 lines, one JSON object per line, each with a
``"type"``. The client speaks first (:class:`Hello`, naming the protocol
version it speaks); ``docs/protocol.md`` is the contract for other clients.
This module holds the messages as frozen dataclasses and the strict readers
that turn a line into one (:func:`decode_client`, :func:`decode_host`); it
does no input or output and knows no rules beyond the shape of the values.

>>> line = encode(Play(Move("louvre/yellow"), move_count=3))
>>> line
b'{"type":"play","move":{"tile":"louvre/yellow"},"move_count":3}\\n'
>>> decode_client(line)
Play(move=Move(tile='louvre/yellow', evict=None), move_count=3)
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

from ..core import Event, IllegalCode, Move, SeatView
from ..core.text import InvalidChatError, InvalidNameError, normalize_chat, normalize_name
from .games_wire import (
    FinishedGame,
    Games,
    GetRecord,
    ListGames,
    RecordSent,
    decode_games_client,
    decode_games_host,
    games_to_json,
)
from .ratings_wire import (
    Leader,
    RatedResult,
    leader_from_json,
    leader_to_json,
    result_from_json,
    result_to_json,
)
from .wire import (
    WireError,
    boolean,
    choice,
    events_from_json,
    events_to_json,
    field,
    integer,
    items,
    move_from_json,
    move_to_json,
    obj,
    opt_integer,
    opt_text,
    text,
    view_from_json,
    view_to_json,
)

__all__ = [
    "ACCOUNT_ACTIONS",
    "CHAT_CHANNELS",
    "CHAT_PHRASES",
    "ERROR_CODES",
    "FATAL_CODES",
    "FRIENDS_ACTIONS",
    "MAX_CLIENT_LINE",
    "MAX_HOST_LINE",
    "MAX_MUTES",
    "MUTES_ACTIONS",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "AccountInfo",
    "AccountRequest",
    "Bye",
    "ByeReason",
    "Chat",
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
    "SeatInfo",
    "SeatStatus",
    "Seated",
    "TableInfo",
    "Tables",
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

PROTOCOL_VERSION = 4
"""The version this code speaks by default (a client's :class:`Hello`)."""
PROTOCOL_VERSIONS: tuple[int, ...] = (1, 2, 3, 4)
"""Every version a host speaks. Version 2 is version 1 plus tables with free
seats: :class:`OpenTable`, :class:`Leave`, :class:`Waiting`, :class:`Left`,
the ``free`` seat status and the error codes marked below; a version-1
connection never sees any of them (nor a table that waits for players).
Version 3 is version 2 plus accounts: a ``code`` in :class:`Join` and
:class:`OpenTable`, a ``token`` in :class:`OpenTable`, :class:`AccountRequest`
and :class:`AccountInfo`, and the error codes marked below (an older
connection gets ``seat_taken`` or ``bad_token`` for them).
Version 4 is version 3 plus the host's finished games (:mod:`.games_wire`):
:class:`ListGames`, :class:`GetRecord`, :class:`Games`, :class:`RecordSent`; table
chat and friends (issue 22): :class:`Chat`,
:class:`ChatLine`, :class:`MutesRequest`, :class:`MutesInfo` (a player's mutes),
:class:`FriendsRequest`, :class:`FriendsInfo` and the error
codes ``bad_chat``, ``chat_limited``, ``muted``; an older connection is sent no
chat."""
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
    # the connection misbehaved (fatal: the host closes it)
    "bad_message",
    "too_large",
    "rate_limited",
    "unsupported_protocol",
    "host_full",
]
ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)
ILLEGAL_CODES: tuple[str, ...] = get_args(IllegalCode)
# After these the host closes the connection.
FATAL_CODES = frozenset(
    {"bad_message", "too_large", "rate_limited", "unsupported_protocol", "host_full", "bad_token"}
)

SeatStatus = Literal["present", "away", "takeover", "ai", "free"]
SEAT_STATUSES: tuple[str, ...] = get_args(SeatStatus)
ByeReason = Literal["shutdown", "replaced", "idle"]
BYE_REASONS: tuple[str, ...] = get_args(ByeReason)

_TABLE_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_CODE = re.compile(r"[A-Za-z0-9 _.-]{1,32}")
_KEY = re.compile(r"[A-Za-z0-9+/=@._ :-]{1,3000}")
_LANGUAGE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}")


class ProtocolError(ValueError):
    """A line that is not a valid message; ``code`` is the refusal to send back."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        self.code = code
        self.message = message
        self.line = b""  # the start of the line (a client says which service sent it)
        super().__init__(message)


# --- values inside messages ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as everyone at the table sees it.

    ``status``: ``present`` (a human connected), ``away`` (a human not
    connected), ``takeover`` (away, and an AI plays for them until they
    return), ``ai`` (an AI seat), ``free`` (protocol 2: a seat of a table
    that waits for players, held by nobody yet; its ``name`` is ``""``).
    """

    name: str
    kind: str
    status: SeatStatus
    rating: int | None = None  # the account's shown rating in tenths (net/ratings_wire.py)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table in the host's list: who sits there and how far the game is.

    ``waiting`` (protocol 2): the table waits for players to fill its
    ``free_seats``; its game starts when the last one is taken (until then
    ``move_count`` and ``total_moves`` are 0)."""

    table: str
    seats: tuple[SeatInfo, ...]
    move_count: int
    total_moves: int
    finished: bool
    waiting: bool = False
    free_seats: int = 0
    # A timed table (issue 22, additive; sent only when set): seconds per move, the
    # seat to move and how long (seconds) the table has waited for that seat.
    move_time: float | None = None
    to_move: int | None = None
    waited: float | None = None


@dataclass(frozen=True, slots=True)
class MoveClock:
    """The move clock of a timed table (issue 22), in a :class:`Presence`: ``seat`` is
    to move and has had ``waited`` of its ``move_time`` seconds when this was sent;
    ``turn_based`` for hours or days per move. ``timed_out``: the seat whose time
    ran out at move ``timed_out_move`` (the AI played that move for it), if any."""

    move_time: float
    turn_based: bool
    seat: int | None
    waited: float
    timed_out: int | None = None
    timed_out_move: int | None = None


# --- client to host ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """The first line of every connection: the protocol it speaks, who it is, its language."""

    protocol: int
    client: str
    language: str = "en"


@dataclass(frozen=True, slots=True)
class Join:
    """Take the seat reserved for ``name`` (at ``table``, or the one table where it sits).

    ``token`` is the account's secret from the first join (or a door's ticket);
    ``None`` on the first. ``code`` (protocol 3): a link code of the account,
    which links this client to it (the answer carries a new token to keep).
    """

    name: str
    token: str | None = None
    table: str | None = None
    code: str | None = None


@dataclass(frozen=True, slots=True)
class Watch:
    """Watch ``table``: its public view, no seat. Protocol 4 (additive): ``name`` and
    ``token`` watch under that account, proven as in a join (its chat lines are the
    account's, and the host sends it no line of a writer the account mutes)."""

    table: str
    name: str | None = None
    token: str | None = None


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Protocol 2: open a table whose seats are ``seats``, in order: ``"me"`` (the
    sender's seat, taken by ``name``), ``"open"`` (a free seat anyone may join)
    or ``"ai:<level>"``. Answered by :class:`Waiting` while seats are free, by
    :class:`Seated` once the game starts (at once when no seat is ``open``)."""

    name: str
    seats: tuple[str, ...]
    small_tour: str = "both-lines"
    final_tours: str = "secret"
    token: str | None = None  # protocol 3: the account's token (as in a join)
    code: str | None = None  # protocol 3: a link code (as in a join)
    move_time: float | None = None  # issue 22: seconds per move (additive)


@dataclass(frozen=True, slots=True)
class Leave:
    """Protocol 2: leave the seat held or the table watched (a waiting table's seat
    becomes free again). Answered by :class:`Left`."""


@dataclass(frozen=True, slots=True)
class ListTables:
    """Ask for the host's tables (answered by :class:`Tables`)."""


@dataclass(frozen=True, slots=True)
class Play:
    """Make ``move`` for the joined seat; ``move_count`` is how many moves the client has seen."""

    move: Move
    move_count: int


@dataclass(frozen=True, slots=True)
class Ping:
    """Either side: are you there? Answered by a :class:`Pong` with the same ``nonce``."""

    nonce: int = 0


@dataclass(frozen=True, slots=True)
class Pong:
    nonce: int = 0


ACCOUNT_ACTIONS = ("show", "code", "add_key")


@dataclass(frozen=True, slots=True)
class AccountRequest:
    """Protocol 3: about the account ``name`` (proven by ``token``, as in a join):
    ``show`` it, make a new link ``code`` for another door, or ``add_key`` (an
    OpenSSH public key line in ``key``). Answered by :class:`AccountInfo`."""

    name: str
    token: str | None
    action: str = "show"
    key: str | None = None


@dataclass(frozen=True, slots=True)
class Relay:
    """Host to host (issue 21), right after the hello: a peer host on the same
    database relays this connection for a person at ``address``. ``proof`` is
    the peer's HMAC over the relay's own source and ``address`` with the
    database's relay secret (:mod:`paris_tui.host.services.cluster`); from anything else
    it is refused and the connection cut off."""

    address: str
    proof: str
    vouch: Vouch | None = None


@dataclass(frozen=True, slots=True)
class Vouch:
    """In a :class:`Relay`: what the relaying host's door proved of the person
    whose app sends ``token``s that hash to ``ticket`` (the SHA-256 of the door's
    ticket, never the ticket): a credential of ``door`` (its ``credential``
    digest and ``label``), for the name that folds to ``name`` (SSH) or any
    name (``None``: a browser), good for ``seconds`` more at most. ``proof`` is
    the relaying host's HMAC over all of it and the relay's own source, with
    the database's relay secret (:mod:`paris_tui.host.services.cluster`).

    Also a line of its own (``{"type":"vouch",...}``), host to host, once, on
    a relayed connection whose relay line had none: the app sent its ticket
    only later (after a ``watch`` that was refused, say)."""

    ticket: str
    door: str
    credential: str
    name: str | None
    label: str
    seconds: int
    proof: str


# --- table chat (protocol 4, issue 22) -----------------------------------------------

CHAT_PHRASES = ("hello", "good_luck", "your_turn", "well_played", "thanks", "good_game")
"""The canned phrases' ids: a phrase is sent as its id and each reader words it in
their own language."""
ChatChannel = Literal["table", "watchers"]
CHAT_CHANNELS: tuple[str, ...] = get_args(ChatChannel)


@dataclass(frozen=True, slots=True)
class Chat:
    """Protocol 4: say a line at the table this connection sits at or watches: a
    ``text`` (the core's chat rule, :func:`~paris_tui.core.text.normalize_chat`)
    or a canned ``phrase`` id (:data:`CHAT_PHRASES`), one of the two. A watcher
    may speak as an account (``name`` and its ``token``, proven as in a join);
    without them a watcher speaks as an anonymous watcher."""

    text: str | None = None
    phrase: str | None = None
    name: str | None = None
    token: str | None = None


FRIENDS_ACTIONS = ("show", "add", "remove")


@dataclass(frozen=True, slots=True)
class FriendsRequest:
    """Protocol 4 (``"type": "friends"``): the account ``name`` (proven by ``token``,
    as in a join) asks to be told when its friends are here: ``show`` the list,
    ``add`` or ``remove`` ``friend`` (an account's name). From then on this
    connection gets a :class:`FriendsInfo` with ``arrived`` whenever a friend
    comes in at any door. Answered by :class:`FriendsInfo`."""

    name: str
    token: str | None
    action: str = "show"
    friend: str | None = None


# Issue 22, table chat: a player's mutes, kept with the account (``"type": "mutes"``).
MUTES_ACTIONS = ("show", "add", "remove")
MAX_MUTES = 100
"""Writers one account may keep muted."""


@dataclass(frozen=True, slots=True)
class MutesRequest:
    """Protocol 4 (``"type": "mutes"``): show the writers this account hides in
    every table's chat, or ``add`` or ``remove`` one (``muted``, an account's
    name). A seated connection is its seat's account; a watcher names one with
    ``name`` and ``token``, proven as in a join. Answered by :class:`MutesInfo`
    (a name that is no account, or a full list, leaves the list as it is)."""

    action: str = "show"
    muted: str | None = None
    name: str | None = None
    token: str | None = None


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
    | Chat
    | FriendsRequest
    | MutesRequest
    | Vouch
)


# --- host to client -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Welcome:
    """The answer to :class:`Hello`: the version the host speaks and the language it uses.

    ``hints``: the host lets its players ask for a hint on their turn (``paris-tui
    host --hints``); each client works it out from its own seat's view. Absent
    (an older host): no hints.
    """

    protocol: int
    server: str
    language: str
    hints: bool = False


@dataclass(frozen=True, slots=True)
class Seated:
    """You sit at ``table`` in ``seat``. ``token`` is given once, on the first join: keep it."""

    table: str
    seat: int
    token: str | None
    view: SeatView
    events: tuple[Event, ...]
    seats: tuple[SeatInfo, ...]


@dataclass(frozen=True, slots=True)
class Watching:
    """You watch ``table``: the public view and every event so far."""

    table: str
    view: SeatView
    events: tuple[Event, ...]
    seats: tuple[SeatInfo, ...]


@dataclass(frozen=True, slots=True)
class Update:
    """A move was made: the new view for your seat and the events it caused."""

    table: str
    view: SeatView
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Presence:
    """Someone arrived, left, or an AI took over or handed back a seat."""

    table: str
    seats: tuple[SeatInfo, ...]
    result: RatedResult | None = None  # once the game is over: how it was rated
    clock: MoveClock | None = None  # a timed table's clock (issue 22, additive)


@dataclass(frozen=True, slots=True)
class Waiting:
    """Protocol 2: you hold ``seat`` at ``table``, which waits for its free seats to be
    taken. Sent again to everyone there whenever a seat is taken or freed; the
    game starts (a :class:`Seated` to each, with its token) when none is free."""

    table: str
    seat: int
    seats: tuple[SeatInfo, ...]


@dataclass(frozen=True, slots=True)
class Left:
    """Protocol 2: the answer to :class:`Leave`: the table left (``None``: none)."""

    table: str | None


@dataclass(frozen=True, slots=True)
class AccountInfo:
    """Protocol 3: the answer to :class:`AccountRequest`: the account's name, how many
    credentials of each door it has (``ssh``, ``token``, ``browser``), and a new
    link ``code`` with the seconds it stays good (``None`` unless one was asked)."""

    name: str
    doors: tuple[tuple[str, int], ...]
    code: str | None = None
    expires: int | None = None


@dataclass(frozen=True, slots=True)
class Refused:
    """A request refused (``"type": "error"`` on the wire); ``fatal``: the host hangs up."""

    code: ErrorCode
    message: str
    fatal: bool = False
    illegal: IllegalCode | None = None  # with code "illegal": why, as the core's code


@dataclass(frozen=True, slots=True)
class Tables:
    tables: tuple[TableInfo, ...]
    leaderboard: tuple[Leader, ...] = ()  # the host's best ratings (net/ratings_wire.py)


@dataclass(frozen=True, slots=True)
class Bye:
    """The host closes the connection: it shuts down, your seat was taken by your
    own newer connection (``replaced``), or you were silent too long (``idle``)."""

    reason: ByeReason


@dataclass(frozen=True, slots=True)
class ChatLine:
    """Protocol 4 (``"type": "chat"``): a line said at ``table`` by ``name`` (``""``:
    an anonymous watcher) from ``seat`` (``None``: a watcher), on ``channel``:
    ``table`` (everyone there) or ``watchers`` (a watcher's line while the game
    runs: only watchers get it). ``text`` or ``phrase`` (an id), one of the two;
    ``at``: when, in Unix seconds. Also sent after ``seated`` and ``watching``: the
    table's recent lines that the connection may read."""

    table: str
    name: str
    seat: int | None
    channel: ChatChannel
    text: str | None
    phrase: str | None
    at: int


@dataclass(frozen=True, slots=True)
class FriendsInfo:
    """Protocol 4 (``"type": "friends"``): the account's friends (``(name, here)``
    pairs, ``here``: connected now at some door), and ``arrived``: the friend who
    just came in (``None`` in the answer to a request)."""

    name: str
    friends: tuple[tuple[str, bool], ...]
    arrived: str | None = None


@dataclass(frozen=True, slots=True)
class MutesInfo:
    """Protocol 4 (``"type": "mutes"``): the writers the account hides in every
    table's chat (accounts' names, as they are now): the answer to a
    :class:`MutesRequest`, and sent after ``seated`` when the list is not empty."""

    names: tuple[str, ...]


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
    | ChatLine
    | FriendsInfo
    | MutesInfo
)


# --- writing ------------------------------------------------------------------------


def _seat_info(info: SeatInfo) -> dict[str, Any]:
    if info.rating is not None:
        return {"name": info.name, "kind": info.kind, "status": info.status, "rating": info.rating}
    return {"name": info.name, "kind": info.kind, "status": info.status}


def _table_info_json(t: TableInfo) -> dict[str, Any]:
    data: dict[str, Any] = {
        "table": t.table,
        "seats": [_seat_info(s) for s in t.seats],
        "move_count": t.move_count,
        "total_moves": t.total_moves,
        "finished": t.finished,
        "waiting": t.waiting,
        "free_seats": t.free_seats,
    }
    for key in ("move_time", "to_move", "waited"):  # a timed table's (issue 22)
        if getattr(t, key) is not None:
            data[key] = getattr(t, key)
    return data


def _clock_json(clock: MoveClock) -> dict[str, Any]:
    return {
        "move_time": clock.move_time,
        "turn_based": clock.turn_based,
        "seat": clock.seat,
        "waited": clock.waited,
        "timed_out": clock.timed_out,
        "timed_out_move": clock.timed_out_move,
    }


def _seconds(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise WireError(where, "is not a number of seconds")
    if not 0 <= value <= 10 * 365 * 86400:
        raise WireError(where, "is out of range")
    return float(value)


def _opt_seconds(value: object, where: str) -> float | None:
    return None if value is None else _seconds(value, where)


def _opt_seat(value: object, where: str) -> int | None:
    return None if value is None else integer(value, where, 0, 3)


def _clock_item(value: object, where: str) -> MoveClock:
    data = obj(value, where)
    return MoveClock(
        _seconds(field(data, "move_time", where), f"{where}.move_time"),
        boolean(data.get("turn_based", False), f"{where}.turn_based"),
        _opt_seat(data.get("seat"), f"{where}.seat"),
        _seconds(data.get("waited", 0), f"{where}.waited"),
        _opt_seat(data.get("timed_out"), f"{where}.timed_out"),
        None
        if data.get("timed_out_move") is None
        else integer(data.get("timed_out_move"), f"{where}.timed_out_move", 0, 10_000),
    )


def to_json(message: ClientMessage | HostMessage) -> dict[str, Any]:
    """The JSON object of a message."""
    if isinstance(message, ListGames | GetRecord | Games | RecordSent):
        return games_to_json(message)
    match message:
        case Hello():
            return {
                "type": "hello",
                "protocol": message.protocol,
                "client": message.client,
                "language": message.language,
            }
        case Join():
            join: dict[str, Any] = {
                "type": "join",
                "name": message.name,
                "token": message.token,
                "table": message.table,
            }
            if message.code is not None:
                join["code"] = message.code
            return join
        case Watch():
            watch: dict[str, Any] = {"type": "watch", "table": message.table}
            for key in ("name", "token"):
                if getattr(message, key) is not None:
                    watch[key] = getattr(message, key)
            return watch
        case ListTables():
            return {"type": "list_tables"}
        case OpenTable():
            opened: dict[str, Any] = {
                "type": "open_table",
                "name": message.name,
                "seats": list(message.seats),
                "small_tour": message.small_tour,
                "final_tours": message.final_tours,
            }
            if message.token is not None:
                opened["token"] = message.token
            if message.code is not None:
                opened["code"] = message.code
            if message.move_time is not None:
                opened["move_time"] = message.move_time
            return opened
        case AccountRequest():
            request: dict[str, Any] = {
                "type": "account",
                "name": message.name,
                "token": message.token,
                "action": message.action,
            }
            if message.key is not None:
                request["key"] = message.key
            return request
        case Leave():
            return {"type": "leave"}
        case Relay():
            relay: dict[str, Any] = {
                "type": "relay",
                "address": message.address,
                "proof": message.proof,
            }
            if message.vouch is not None:
                relay["vouch"] = _vouch_json(message.vouch)
            return relay
        case Vouch():
            return {"type": "vouch", **_vouch_json(message)}
        case Chat():
            chat: dict[str, Any] = {"type": "chat"}
            for key in ("text", "phrase", "name", "token"):
                if getattr(message, key) is not None:
                    chat[key] = getattr(message, key)
            return chat
        case FriendsRequest():
            asked: dict[str, Any] = {
                "type": "friends",
                "name": message.name,
                "token": message.token,
                "action": message.action,
            }
            if message.friend is not None:
                asked["friend"] = message.friend
            return asked
        case FriendsInfo():
            return {
                "type": "friends",
                "name": message.name,
                "friends": [{"name": n, "here": here} for n, here in message.friends],
                "arrived": message.arrived,
            }
        case MutesRequest():
            mutes: dict[str, Any] = {"type": "mutes", "action": message.action}
            for key in ("muted", "name", "token"):
                if getattr(message, key) is not None:
                    mutes[key] = getattr(message, key)
            return mutes
        case MutesInfo():
            return {"type": "mutes", "names": list(message.names)}
        case ChatLine():
            return {
                "type": "chat",
                "table": message.table,
                "name": message.name,
                "seat": message.seat,
                "channel": message.channel,
                "text": message.text,
                "phrase": message.phrase,
                "at": message.at,
            }
        case Play():
            return {
                "type": "play",
                "move": move_to_json(message.move),
                "move_count": message.move_count,
            }
        case Ping():
            return {"type": "ping", "nonce": message.nonce}
        case Pong():
            return {"type": "pong", "nonce": message.nonce}
        case Welcome():
            return {
                "type": "welcome",
                "protocol": message.protocol,
                "server": message.server,
                "language": message.language,
                "hints": message.hints,
            }
        case Seated():
            return {
                "type": "seated",
                "table": message.table,
                "seat": message.seat,
                "token": message.token,
                "view": view_to_json(message.view),
                "events": events_to_json(message.events),
                "seats": [_seat_info(s) for s in message.seats],
            }
        case Watching():
            return {
                "type": "watching",
                "table": message.table,
                "view": view_to_json(message.view),
                "events": events_to_json(message.events),
                "seats": [_seat_info(s) for s in message.seats],
            }
        case Update():
            return {
                "type": "update",
                "table": message.table,
                "view": view_to_json(message.view),
                "events": events_to_json(message.events),
            }
        case Presence():
            presence: dict[str, Any] = {
                "type": "presence",
                "table": message.table,
                "seats": [_seat_info(s) for s in message.seats],
            }
            if message.result is not None:
                presence["result"] = result_to_json(message.result)
            if message.clock is not None:
                presence["clock"] = _clock_json(message.clock)
            return presence
        case Refused():
            error: dict[str, Any] = {
                "type": "error",
                "code": message.code,
                "message": message.message,
                "fatal": message.fatal,
            }
            if message.illegal is not None:
                error["illegal"] = message.illegal
            return error
        case Tables():
            return {
                "type": "tables",
                "tables": [_table_info_json(t) for t in message.tables],
                **(
                    {"leaderboard": [leader_to_json(r) for r in message.leaderboard]}
                    if message.leaderboard
                    else {}
                ),
            }
        case Bye():
            return {"type": "bye", "reason": message.reason}
        case Waiting():
            return {
                "type": "waiting",
                "table": message.table,
                "seat": message.seat,
                "seats": [_seat_info(s) for s in message.seats],
            }
        case Left():
            return {"type": "left", "table": message.table}
        case AccountInfo():
            return {
                "type": "account",
                "name": message.name,
                "doors": dict(message.doors),
                "code": message.code,
                "expires": message.expires,
            }
    raise TypeError(f"not a protocol message: {type(message).__name__}")  # pragma: no cover


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
    head = (
        '{"type":"update","table":'
        + _text(table)
        + ',"view":'
        + json.dumps(shared, separators=(",", ":"), ensure_ascii=True)[:-1]
    )
    tail = ('},"events":' + _text(events_to_json(events)) + "}\n").encode("ascii")

    def line(view: SeatView) -> bytes:
        own = (
            f',"seat":{_text(view.seat)},"own_route":{_text(view.own_route)}'
            f',"legal_moves":{_text([move_to_json(m) for m in view.legal_moves])}'
        )
        return (head + own).encode("ascii") + tail

    return {seat: line(view) for seat, view in views.items()}, line(public)


_SEAT_FIELDS = ("seat", "own_route", "legal_moves")


def _text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def dumps(data: dict[str, Any]) -> bytes:
    """One line: compact JSON, ASCII only (so no byte of it is a terminal control), newline."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


def encode(message: ClientMessage | HostMessage) -> bytes:
    """The message as one line of bytes, newline included."""
    return dumps(to_json(message))


# --- reading ------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_line(line: bytes, limit: int) -> dict[str, Any]:
    """A line's JSON object, or a :class:`ProtocolError` (never another exception)."""
    if len(line) > limit:
        raise ProtocolError("too_large", f"a line is limited to {limit} bytes")
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


def _table_id(value: object, where: str) -> str:
    table = text(value, where, limit=32)
    if not _TABLE_ID.fullmatch(table):
        raise WireError(where, "is not a table id")
    return table


def _opt_table_id(value: object, where: str) -> str | None:
    return None if value is None else _table_id(value, where)


def _token(value: object, where: str) -> str | None:
    if value is None:
        return None
    token = text(value, where, limit=64)
    if not _TOKEN.fullmatch(token):
        raise WireError(where, "is not a seat token")
    return token


def _code(value: object, where: str) -> str | None:
    # A link code as typed (normalised by the host): letters, digits, dashes, spaces.
    if value is None:
        return None
    code = text(value, where, limit=32)
    if not _CODE.fullmatch(code):
        raise WireError(where, "is not a link code")
    return code


def _seat_word(value: object, where: str) -> str:
    # "me", "open" or "ai:<level>": the host says which words it takes (bad_table).
    return text(value, where, limit=32)


def _vouch_json(v: Vouch) -> dict[str, Any]:
    return {
        "ticket": v.ticket,
        "door": v.door,
        "credential": v.credential,
        "name": v.name,
        "label": v.label,
        "seconds": v.seconds,
        "proof": v.proof,
    }


VOUCH_DOORS = ("ssh", "browser")
"""The doors whose proof a peer host may vouch for (a token is proven where it is sent)."""


def _vouch(value: object) -> Vouch:
    data = obj(value, "vouch")
    return Vouch(
        text(field(data, "ticket", "vouch"), "vouch.ticket", limit=64),
        choice(field(data, "door", "vouch"), "vouch.door", VOUCH_DOORS),
        text(field(data, "credential", "vouch"), "vouch.credential", limit=100),
        opt_text(data.get("name"), "vouch.name", limit=400),
        text(data.get("label", ""), "vouch.label", limit=100),
        integer(field(data, "seconds", "vouch"), "vouch.seconds", 0, 86_400),
        text(field(data, "proof", "vouch"), "vouch.proof", limit=100),
    )


def decode_client(line: bytes) -> ClientMessage:
    """A client's line as a message. Raises :class:`ProtocolError` (``bad_message``,
    ``too_large``). Names are checked for type and size only: the host applies
    the core's name rule."""
    data = parse_line(line, MAX_CLIENT_LINE)
    try:
        kind = text(field(data, "type", "message"), "type", limit=32)
        if kind == "hello":
            language = text(data.get("language", "en"), "language", limit=35)
            if not _LANGUAGE.fullmatch(language):
                raise WireError("language", "is not a language tag such as en or fr-CA")
            return Hello(
                integer(field(data, "protocol", kind), "protocol", 0, 2**16),
                text(field(data, "client", kind), "client", limit=100),
                language,
            )
        if kind == "join":
            return Join(
                # The core's name rule decides (the host applies it); this bounds the work.
                text(field(data, "name", kind), "name", limit=1000),
                _token(data.get("token"), "token"),
                _opt_table_id(data.get("table"), "table"),
                _code(data.get("code"), "code"),
            )
        if kind == "watch":
            return Watch(
                _table_id(field(data, "table", kind), "table"),
                opt_text(data.get("name"), "name", limit=1000),
                _token(data.get("token"), "token"),
            )
        if kind == "list_tables":
            return ListTables()
        if kind == "open_table":
            return OpenTable(
                text(field(data, "name", kind), "name", limit=1000),
                items(field(data, "seats", kind), "seats", _seat_word, limit=8),
                text(data.get("small_tour", "both-lines"), "small_tour", limit=32),
                text(data.get("final_tours", "secret"), "final_tours", limit=32),
                _token(data.get("token"), "token"),
                _code(data.get("code"), "code"),
                _opt_seconds(data.get("move_time"), "move_time"),
            )
        if kind == "account":
            key = data.get("key")
            if key is not None:
                key = text(key, "key", limit=3000)
                if not _KEY.fullmatch(key):
                    raise WireError("key", "is not an OpenSSH public key line")
            return AccountRequest(
                text(field(data, "name", kind), "name", limit=1000),
                _token(data.get("token"), "token"),
                choice(data.get("action", "show"), "action", ACCOUNT_ACTIONS),
                key,
            )
        if kind == "leave":
            return Leave()
        if kind == "relay":
            vouch = data.get("vouch")
            return Relay(
                text(field(data, "address", kind), "address", limit=100),
                text(field(data, "proof", kind), "proof", limit=100),
                None if vouch is None else _vouch(vouch),
            )
        games = decode_games_client(kind, data, _table_id)
        if games is not None:
            return games
        if kind == "chat":
            return _chat(data)
        if kind == "friends":
            friend = data.get("friend")
            return FriendsRequest(
                text(field(data, "name", kind), "name", limit=1000),
                _token(data.get("token"), "token"),
                choice(data.get("action", "show"), "action", FRIENDS_ACTIONS),
                None if friend is None else text(friend, "friend", limit=1000),
            )
        if kind == "mutes":
            return MutesRequest(
                choice(data.get("action", "show"), "action", MUTES_ACTIONS),
                opt_text(data.get("muted"), "muted", limit=1000),
                opt_text(data.get("name"), "name", limit=1000),
                _token(data.get("token"), "token"),
            )
        if kind == "vouch":
            return _vouch(data)
        if kind == "play":
            return Play(
                move_from_json(field(data, "move", kind)),
                integer(field(data, "move_count", kind), "move_count", 0, 10_000),
            )
        if kind == "ping":
            return Ping(integer(data.get("nonce", 0), "nonce"))
        if kind == "pong":
            return Pong(integer(data.get("nonce", 0), "nonce"))
    except WireError as exc:
        raise ProtocolError("bad_message", str(exc)) from None
    raise ProtocolError("bad_message", f"unknown message type {kind[:32]!r}")


def _chat(data: dict[str, Any]) -> Chat:
    # Sizes and types only (the host applies the core's chat rule and says why).
    said = opt_text(data.get("text"), "text", limit=4 * 480)
    phrase = data.get("phrase")
    if phrase is not None:
        phrase = choice(phrase, "phrase", CHAT_PHRASES)
    if (said is None) == (phrase is None):
        raise WireError("chat", "needs a text or a phrase, one of the two")
    name = opt_text(data.get("name"), "name", limit=1000)
    return Chat(said, phrase, name, _token(data.get("token"), "token"))


def _chat_line(data: dict[str, Any]) -> ChatLine:
    # What a host says is outside text too: the core's rules, again, here.
    phrase = data.get("phrase")
    said = data.get("text")
    try:
        if phrase is not None:
            phrase = choice(phrase, "phrase", CHAT_PHRASES)
            said = None
        else:
            said = normalize_chat(text(field(data, "text", "chat"), "text", limit=4 * 480))
        name = text(field(data, "name", "chat"), "name", limit=1000)
        if name:
            name = normalize_name(name)
    except (InvalidChatError, InvalidNameError) as exc:
        raise WireError("chat", f"breaks the rule of outside text: {exc}") from None
    seat = data.get("seat")
    return ChatLine(
        _table_id(field(data, "table", "chat"), "table"),
        name,
        None if seat is None else integer(seat, "seat", 0, 3),
        cast(ChatChannel, choice(field(data, "channel", "chat"), "channel", CHAT_CHANNELS)),
        said,
        phrase,
        integer(data.get("at", 0), "at", 0, 2**62),
    )


def _host_name(value: object, where: str) -> str:
    # A name a host sends is outside text to the client: the core's name rule again.
    try:
        return normalize_name(text(value, where, limit=1000))
    except InvalidNameError as exc:
        raise WireError(where, f"breaks the name rule: {exc}") from None


def _friend_item(value: object, where: str) -> tuple[str, bool]:
    data = obj(value, where)
    return (
        _host_name(field(data, "name", where), f"{where}.name"),
        boolean(field(data, "here", where), f"{where}.here"),
    )


def _friends(data: dict[str, Any]) -> FriendsInfo:
    arrived = data.get("arrived")
    return FriendsInfo(
        _host_name(field(data, "name", "friends"), "name"),
        items(field(data, "friends", "friends"), "friends", _friend_item, limit=100),
        None if arrived is None else _host_name(arrived, "arrived"),
    )


def _seat_info_item(value: object, where: str) -> SeatInfo:
    data = obj(value, where)
    return SeatInfo(
        text(field(data, "name", where), f"{where}.name"),
        text(field(data, "kind", where), f"{where}.kind", limit=32),
        cast(SeatStatus, choice(field(data, "status", where), f"{where}.status", SEAT_STATUSES)),
        opt_integer(data.get("rating"), f"{where}.rating", -100_000, 100_000),
    )


def _seats(value: object, where: str = "seats") -> tuple[SeatInfo, ...]:
    return items(value, where, _seat_info_item, limit=4)


def _table_info_item(value: object, where: str) -> TableInfo:
    data = obj(value, where)
    return TableInfo(
        _table_id(field(data, "table", where), f"{where}.table"),
        _seats(field(data, "seats", where), f"{where}.seats"),
        integer(field(data, "move_count", where), f"{where}.move_count", 0, 10_000),
        integer(field(data, "total_moves", where), f"{where}.total_moves", 0, 10_000),
        boolean(field(data, "finished", where), f"{where}.finished"),
        # Protocol 2's fields; a version-1 host sends neither.
        boolean(data.get("waiting", False), f"{where}.waiting"),
        integer(data.get("free_seats", 0), f"{where}.free_seats", 0, 4),
        # A timed table's (issue 22): absent for the others.
        _opt_seconds(data.get("move_time"), f"{where}.move_time"),
        _opt_seat(data.get("to_move"), f"{where}.to_move"),
        _opt_seconds(data.get("waited"), f"{where}.waited"),
    )


def decode_host(line: bytes) -> HostMessage:
    """A host's line as a message. Raises :class:`ProtocolError` (a client shows one
    line and hangs up; it never crashes on what a host sends)."""
    data = parse_line(line, MAX_HOST_LINE)
    try:
        kind = text(field(data, "type", "message"), "type", limit=32)
        if kind == "welcome":
            return Welcome(
                integer(field(data, "protocol", kind), "protocol", 0, 2**16),
                text(field(data, "server", kind), "server"),
                text(field(data, "language", kind), "language", limit=35),
                boolean(data.get("hints", False), "hints"),
            )
        if kind == "seated":
            return Seated(
                _table_id(field(data, "table", kind), "table"),
                integer(field(data, "seat", kind), "seat", 0, 3),
                _token(data.get("token"), "token"),
                view_from_json(field(data, "view", kind)),
                events_from_json(field(data, "events", kind)),
                _seats(field(data, "seats", kind)),
            )
        if kind == "watching":
            return Watching(
                _table_id(field(data, "table", kind), "table"),
                view_from_json(field(data, "view", kind)),
                events_from_json(field(data, "events", kind)),
                _seats(field(data, "seats", kind)),
            )
        if kind == "update":
            return Update(
                _table_id(field(data, "table", kind), "table"),
                view_from_json(field(data, "view", kind)),
                events_from_json(field(data, "events", kind)),
            )
        if kind == "presence":
            result = data.get("result")
            clock = data.get("clock")
            return Presence(
                _table_id(field(data, "table", kind), "table"),
                _seats(field(data, "seats", kind)),
                None if result is None else result_from_json(result),
                None if clock is None else _clock_item(clock, "clock"),
            )
        if kind == "error":
            code = choice(field(data, "code", kind), "code", ERROR_CODES)
            illegal = data.get("illegal")
            if illegal is not None:
                illegal = cast(IllegalCode, choice(illegal, "illegal", ILLEGAL_CODES))
            return Refused(
                cast(ErrorCode, code),
                text(field(data, "message", kind), "message", limit=500),
                boolean(data.get("fatal", False), "fatal"),
                illegal,
            )
        if kind == "tables":
            return Tables(
                items(field(data, "tables", kind), "tables", _table_info_item, limit=10_000),
                items(data.get("leaderboard", []), "leaderboard", leader_from_json, limit=100),
            )
        if kind == "bye":
            return Bye(cast(ByeReason, choice(field(data, "reason", kind), "reason", BYE_REASONS)))
        if kind == "waiting":
            return Waiting(
                _table_id(field(data, "table", kind), "table"),
                integer(field(data, "seat", kind), "seat", 0, 3),
                _seats(field(data, "seats", kind)),
            )
        if kind == "left":
            return Left(_opt_table_id(data.get("table"), "table"))
        games = decode_games_host(kind, data, _table_id)
        if games is not None:
            return games
        if kind == "account":
            doors = obj(field(data, "doors", kind), "doors")
            expires = data.get("expires")
            return AccountInfo(
                text(field(data, "name", kind), "name"),
                tuple(
                    (choice(door, "doors", ("ssh", "token", "browser")), integer(n, "doors", 0, 99))
                    for door, n in sorted(doors.items())
                ),
                _code(data.get("code"), "code"),
                None if expires is None else integer(expires, "expires", 0, 10**7),
            )
        if kind == "chat":
            return _chat_line(data)
        if kind == "friends":
            return _friends(data)
        if kind == "mutes":
            return MutesInfo(items(field(data, "names", kind), "names", _host_name, MAX_MUTES))
        if kind == "ping":
            return Ping(integer(data.get("nonce", 0), "nonce"))
        if kind == "pong":
            return Pong(integer(data.get("nonce", 0), "nonce"))
    except WireError as exc:
        raise ProtocolError("bad_message", str(exc)) from None
    raise ProtocolError("bad_message", f"unknown message type {kind[:32]!r}")


def refusal(code: ErrorCode, message: str, illegal: IllegalCode | None = None) -> Refused:
    """A :class:`Refused` whose ``fatal`` flag follows :data:`FATAL_CODES`."""
    return Refused(code, message, code in FATAL_CODES, illegal)
