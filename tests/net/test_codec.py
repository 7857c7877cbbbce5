"""msgspec's part: a line is written byte for byte as Python's json wrote it, the core's
values' forms have the core's fields and the wire's bounds, a refusal says why."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paris_tui.core import ScoreEvent
from paris_tui.net.protocol import ProtocolError, decode_client
from paris_tui.net.wire import EVENT_FORMS, ViewForm, WireError, event_from_json, json_bytes

# Any character, lone surrogates (JSON's "\ud800") and DEL included.
TEXT = st.text(st.characters(exclude_categories=()), max_size=12)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e-05, 3.2e-05, 1e-07, 1e16, -1.5e-10, 0.0001, 86400.0, -0.0])
    | TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=16,
)


def _python(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode("ascii")


@settings(max_examples=500, deadline=None)
@given(JSON)
def test_a_value_is_written_as_python_s_json_writes_it(value: Any) -> None:
    assert json_bytes(value) == _python(value)


def test_characters_past_ascii_and_del_are_escaped_as_python_escapes_them() -> None:
    for text in ("é", "\x7f", "\x1b[2J", "\u2028", "王", "\U0001f642", "a\ud800b", '"\\/'):
        assert json_bytes(text) == _python(text), text


def test_each_event_form_has_its_core_event_s_fields_in_order() -> None:
    for form, core in EVENT_FORMS.items():
        assert form.__struct_fields__ == tuple(f.name for f in dataclasses.fields(core))


def test_the_view_form_has_the_seat_view_s_fields_in_order() -> None:
    from paris_tui.core import SeatView

    assert ViewForm.__struct_fields__ == tuple(f.name for f in dataclasses.fields(SeatView))


SCORE = {
    "type": "score",
    "round": 3,
    "kind": "sack",
    "seat": 1,
    "points": 6,
    "stop": None,
    "line": None,
    "here": 2,
    "near": 0,
    "distance": 0,
    "origin": None,
}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("round", 65),
        ("seat", 4),
        ("points", 1001),
        ("here", 101),
        ("stop", "x" * 201),
        ("kind", "tour"),
        ("origin", 3),
        ("near", None),
    ],
)
def test_an_event_s_field_outside_the_wire_s_bounds_is_refused(key: str, value: object) -> None:
    assert event_from_json(SCORE) == ScoreEvent(3, "sack", 1, 6, None, None, 2)
    with pytest.raises(WireError) as info:
        event_from_json({**SCORE, key: value})
    assert info.value.where == f"event.{key}"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"[1]\n", "a message is a JSON object"),
        (b'{"type":"fly"}\n', "unknown message type 'fly'"),
        (b"{}\n", "message.type: missing"),
        (b'{"type":3}\n', "type: must be a string, found a number"),
        (b'{"type":"join"}\n', "join.name: missing"),
        (b'{"type":"ping","nonce":NaN}\n', "not JSON: NaN is not JSON"),
        (b"\xff\n", "a line must be UTF-8 text"),
        (b'{"type":"play","move":{"tile":"a","spare":1},"move_count":1}\n', "play.move:"),
        (b'{"type":"chat"}\n', "chat: needs a text or a phrase, one of the two"),
    ],
)
def test_a_refused_line_is_told_why_in_one_short_line(line: bytes, message: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(line)
    assert info.value.code == "bad_message"
    assert info.value.message.startswith(message)
    assert len(info.value.message) <= 300 and "\n" not in info.value.message


@pytest.mark.parametrize("label", ["seated tournament", "watching tournament"])
@pytest.mark.parametrize("bad", ["Cup\u202e", "Cup\u0007", "", " "])
def test_a_tournaments_name_in_seated_or_watching_is_held_to_the_name_rule(
    label: str, bad: str
) -> None:
    """(protocol 6) The tournament a table is a round of is outside text: checked."""
    from paris_tui.net.protocol import decode_host

    from .wire_cases import DATA

    rows = [json.loads(r) for r in DATA.read_text(encoding="ascii").splitlines()]
    (row,) = [r for r in rows if r["label"] == label]
    message = json.loads(row["line"])
    decode_host(json.dumps(message).encode())  # as recorded: read
    message["tournament"] = bad
    with pytest.raises(ProtocolError):
        decode_host(json.dumps(message).encode())
