"""Protocol versions 1 to 6 on the wire: today's encoder writes the bytes they were defined by.

Every line of ``wire_versions.jsonl`` was written by the hand-written encoder
of before msgspec (``wire_cases.py`` says how); each must decode to the
message it was made from and encode again to the same bytes, in both
directions, for every message type of every version.
"""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest

from paris_tui.net.protocol import (
    ClientMessage,
    HostMessage,
    MoveClock,
    Presence,
    TableInfo,
    Tables,
    Vouch,
    Welcome,
    decode_client,
    decode_host,
    encode,
)

from .wire_cases import DATA, cases

DECODE = {"client": decode_client, "host": decode_host}
RECORDED = {
    (row["version"], row["direction"], row["label"]): row["line"].encode("ascii")
    for row in map(json.loads, DATA.read_text(encoding="ascii").splitlines())
}
CASES = {(version, direction, label): message for version, direction, label, message in cases()}


def test_every_case_has_its_recorded_line() -> None:
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("key", sorted(CASES), ids=lambda k: f"v{k[0]}-{k[1]}-{k[2]}")
def test_a_recorded_line_decodes_to_its_message_and_encodes_to_its_bytes(
    key: tuple[int, str, str],
) -> None:
    line, message = RECORDED[key], CASES[key]
    decoded = DECODE[key[1]](line)
    assert decoded == message
    assert type(decoded) is type(message)
    assert encode(message) == line
    assert encode(decoded) == line


@pytest.mark.parametrize(("direction", "union"), [("client", ClientMessage), ("host", HostMessage)])
def test_every_message_type_is_recorded(direction: str, union: Any) -> None:
    recorded = {type(message) for (_, way, _), message in CASES.items() if way == direction}
    assert recorded == set(get_args(union))


# Lines as older writers wrote them: fields a later version added are absent, and
# read as their defaults.
OLDER = [
    (
        b'{"type":"welcome","protocol":1,"server":"paris-tui 0.1.0","language":"en"}\n',
        Welcome(1, "paris-tui 0.1.0", "en", hints=False),
    ),
    (
        b'{"type":"tables","tables":[{"table":"t1","seats":[],"move_count":3,'
        b'"total_moves":30,"finished":false}]}\n',
        Tables((TableInfo("t1", (), 3, 30, False, waiting=False, free_seats=0),)),
    ),
    (
        b'{"type":"presence","table":"t1","seats":[],"clock":{"move_time":60}}\n',
        Presence("t1", (), clock=MoveClock(60.0, False, None, 0.0)),
    ),
    (
        b'{"type":"tables","tables":[{"table":"t1","seats":[],"move_count":3,"total_moves":30,'
        b'"finished":false,"waiting":false,"free_seats":0,"move_time":60,"waited":1e-05}]}\n',
        Tables((TableInfo("t1", (), 3, 30, False, move_time=60.0, waited=1e-05),)),
    ),
]


@pytest.mark.parametrize(("line", "message"), OLDER)
def test_an_older_writer_s_line_reads_as_today_s_message(line: bytes, message: object) -> None:
    assert decode_host(line) == message


def test_a_vouch_line_and_a_relay_s_vouch_are_one_form_but_for_the_type() -> None:
    vouch = Vouch("cd" * 32, "ssh", "SHA256:k", "ann", "", 60, "ef")
    line = json.loads(encode(vouch))
    assert line.pop("type") == "vouch"
    (relay,) = [m for (v, _, label), m in CASES.items() if v == 4 and label == "relay vouch"]
    nested = json.loads(encode(relay))["vouch"]
    assert "type" not in nested and set(nested) == set(line)
