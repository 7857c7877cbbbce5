"""Protocol messages: one line each, exact round trips, and hostile lines refused cleanly."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paris_tui.core import Game, Move
from paris_tui.net.protocol import (
    ERROR_CODES,
    FATAL_CODES,
    MAX_CLIENT_LINE,
    Bye,
    Hello,
    Join,
    Leave,
    Left,
    ListTables,
    OpenTable,
    Ping,
    Play,
    Pong,
    Presence,
    ProtocolError,
    Refused,
    Relay,
    Seated,
    SeatInfo,
    TableInfo,
    Tables,
    Update,
    Vouch,
    Waiting,
    Watch,
    Watching,
    Welcome,
    decode_client,
    decode_host,
    encode,
    refusal,
)

TOKEN = "A" * 43


def _host_messages() -> list[object]:
    game = Game.new(["Ann", "Bob", "Cy"], seed=4)
    events = tuple(game.play(game.legal_moves()[0]))
    seats = (
        SeatInfo("Ann", "human", "present"),
        SeatInfo("Bob", "human", "away"),
        SeatInfo("Cy", "ai:greedy", "ai"),
    )
    free = (
        SeatInfo("Zoë", "human", "present"),
        SeatInfo("", "human", "free"),
        SeatInfo("Greedy AI", "ai:greedy", "ai"),
        SeatInfo("", "human", "free"),
    )
    return [
        Welcome(1, "paris-tui 0.1.0", "en"),
        Seated("t1", 1, TOKEN, game.view(1), events, seats),
        Seated("t1", 1, None, game.view(1), (), seats),
        Watching("t12", game.view(None), events, seats),
        Update("t1", game.view(2), events),
        Presence("t1", seats),
        Refused("illegal", "no", False),
        Refused("illegal", "no", False, "not_face_up"),
        Tables((TableInfo("t1", seats, 1, 45, False),)),
        Tables(
            (
                TableInfo("t1", seats, 1, 45, False),
                TableInfo("t2", free, 0, 0, False, waiting=True, free_seats=2),
            )
        ),
        Waiting("t2", 0, free),
        Left("t2"),
        Left(None),
        Bye("shutdown"),
        Ping(3),
        Pong(4),
    ]


CLIENT = [
    Hello(1, "paris-tui 0.1.0", "fr-CA"),
    Join("Ann", None, None),
    Join("Zoë", TOKEN, "t3"),
    Watch("t1"),
    ListTables(),
    Play(Move("louvre/yellow", 1), 12),
    OpenTable("Zoë", ("me", "open", "ai:greedy"), "tile-line", "all-lines"),
    OpenTable("Ann", ("open", "me")),
    Leave(),
    Ping(1),
    Pong(2),
    Relay("203.0.113.9", "ab" * 32),
    Relay("door", "ab" * 32, Vouch("cd" * 32, "ssh", "SHA256:k", "zoë", "ssh-ed25519 z", 60, "ef")),
    Relay("door", "ab" * 32, Vouch("cd" * 32, "browser", "00" * 32, None, "browser", 1, "ef")),
    Vouch("cd" * 32, "ssh", "SHA256:k", "ann", "", 43_200, "ef"),
]


@pytest.mark.parametrize("message", CLIENT, ids=lambda m: type(m).__name__)
def test_client_messages_round_trip(message: object) -> None:
    line = encode(message)  # type: ignore[arg-type]
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode_client(line) == message


@pytest.mark.parametrize("message", _host_messages(), ids=lambda m: type(m).__name__)
def test_host_messages_round_trip(message: object) -> None:
    line = encode(message)  # type: ignore[arg-type]
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert line.isascii()  # no byte of a line can be a terminal control
    assert decode_host(line) == message


def test_a_version_1_host_s_table_list_reads_as_no_table_waiting() -> None:
    line = (
        b'{"type":"tables","tables":[{"table":"t1","seats":[{"name":"Ann","kind":"human",'
        b'"status":"away"},{"name":"Bob","kind":"human","status":"present"}],'
        b'"move_count":3,"total_moves":30,"finished":false}]}\n'
    )
    message = decode_host(line)
    assert isinstance(message, Tables)
    (info,) = message.tables
    assert (info.waiting, info.free_seats, info.move_count) == (False, 0, 3)


def test_fatal_codes_are_codes() -> None:
    assert set(FATAL_CODES) <= set(ERROR_CODES)
    assert refusal("too_large", "x").fatal and not refusal("illegal", "x").fatal


def test_non_ascii_text_is_escaped_on_the_wire() -> None:
    line = encode(Join("王小明\u202e", None, None))
    assert line.isascii() and b"\\u202e" in line


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"hello\n", "bad_message"),
        (b"\xff\xfe\n", "bad_message"),
        (b"[1,2]\n", "bad_message"),
        (b'{"type":"fly"}\n', "bad_message"),
        (b"{}\n", "bad_message"),
        (b'{"type":"play","move":{"tile":"a"},"move_count":NaN}\n', "bad_message"),
        (b'{"type":"play","move":{"tile":"a"},"move_count":' + b"9" * 5000 + b"}\n", "too_large"),
        (b'{"type":"play","move":{"tile":"a"},"move_count":' + b"9" * 4000 + b"}\n", "bad_message"),
        (b"[" * 3000 + b"]" * 3000 + b"\n", "too_large"),
        (b"[" * 2000 + b"]" * 2000 + b"\n", "bad_message"),
        (b'{"type":"join","name":"' + b"x" * 1001 + b'"}\n', "bad_message"),
        (b'{"type":"join","name":"Ann","token":"short"}\n', "bad_message"),
        (b'{"type":"join","name":"Ann","table":"../etc"}\n', "bad_message"),
        (b'{"type":"hello","protocol":1,"client":"x","language":"\\u001b[2J"}\n', "bad_message"),
        (b'{"type":"hello","protocol":true,"client":"x"}\n', "bad_message"),
        (b" " * (MAX_CLIENT_LINE + 1), "too_large"),
        (
            b'{"type":"open_table","name":"Ann","seats":["me"' + b',"open"' * 8 + b"]}\n",
            "bad_message",
        ),
        (b'{"type":"open_table","name":"Ann","seats":"me,open"}\n', "bad_message"),
        (b'{"type":"open_table","name":"Ann","seats":["me",3]}\n', "bad_message"),
        (b'{"type":"open_table","seats":["me","open"]}\n', "bad_message"),
        (
            b'{"type":"open_table","name":"Ann","seats":["me","' + b"x" * 40 + b'"]}\n',
            "bad_message",
        ),
    ],
)
def test_bad_client_lines_are_refused_with_a_code(line: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(line)
    assert info.value.code == code


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_decode_or_raise_protocol_error(line: bytes) -> None:
    for decode in (decode_client, decode_host):
        with contextlib.suppress(ProtocolError):
            decode(line)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            ["type", "name", "token", "table", "move", "move_count", "protocol", "seats"]
        ),
        st.none()
        | st.integers()
        | st.text(max_size=20)
        | st.sampled_from(
            ["hello", "join", "play", "watch", "list_tables", "ping", "open_table", "leave"]
        )
        | st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3)
        | st.lists(st.text(max_size=6) | st.sampled_from(["me", "open", "ai:greedy"]), max_size=9),
        max_size=5,
    )
)
def test_structured_garbage_raises_only_protocol_error(data: dict[str, object]) -> None:
    line = json.dumps(data).encode() + b"\n"
    with contextlib.suppress(ProtocolError):
        decode_client(line)


def test_a_relays_vouch_for_another_door_or_of_the_wrong_shape_is_refused() -> None:
    base = {"type": "relay", "address": "door", "proof": "ab"}
    good = {"ticket": "cd", "door": "ssh", "credential": "k", "label": "", "seconds": 5}
    for vouch in (
        {**good, "proof": "ef", "door": "token"},  # a token is proven where it is sent
        {**good, "proof": "ef", "seconds": -1},
        {**good, "proof": "ef", "seconds": 86_401},
        {**good, "proof": "ef", "name": "n" * 401},
        good,  # no proof
        "ssh",
    ):
        with pytest.raises(ProtocolError) as info:
            decode_client(json.dumps({**base, "vouch": vouch}).encode())
        assert info.value.code == "bad_message"
