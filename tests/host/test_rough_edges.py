"""The rough edges a group of friends met (issue 17): what ``join`` says when the
address is another service or nobody, ``join HOST`` alone, the host's start-up
lines about who can connect, plural forms of the browser door's refusal."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from paris_tui.app.online.remote import JoinError, JoinTarget, connect, parse_address
from paris_tui.doors.command import _join_address, _reach_lines, machine_addresses
from paris_tui.doors.web import WebDoor


def test_join_host_alone_means_the_default_port() -> None:
    assert parse_address("gameserver") == ("gameserver", 7337)
    assert parse_address("[::1]") == ("::1", 7337)
    assert parse_address("gameserver:1") == ("gameserver", 1)
    with pytest.raises(ValueError):
        parse_address("7337")  # a port alone is not a host


@asynccontextmanager
async def _service(first_words: bytes, *, wait_for_a_line: bool) -> AsyncIterator[int]:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if wait_for_a_line:
            await reader.readline()
        writer.write(first_words)
        await writer.drain()
        await asyncio.sleep(0.5)
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()


@pytest.mark.parametrize(
    ("words", "wait", "service"),
    [
        (b"SSH-2.0-AsyncSSH_2.14\r\n", False, "an SSH server"),
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", True, "a web server"),
    ],
)
async def test_join_to_another_service_says_which_answered(
    words: bytes, wait: bool, service: str
) -> None:
    async with _service(words, wait_for_a_line=wait) as port:
        with pytest.raises(JoinError) as info:
            await connect(JoinTarget("127.0.0.1", port), timeout=5.0)
    message = info.value.message
    assert service in message and "not a paris-tui host" in message
    assert "not JSON" not in message and info.value.status == 3


async def test_join_to_a_host_that_is_down_says_so_plainly() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(JoinError) as info:
        await connect(JoinTarget("127.0.0.1", port), timeout=5.0)
    assert "nothing answers on that port" in info.value.message
    assert "Connect call failed" not in info.value.message


def test_the_start_up_lines_say_who_can_connect() -> None:
    (line,) = _reach_lines("127.0.0.1")
    assert "Only this machine can connect" in line and "--bind 0.0.0.0" in line
    assert "<this host>" not in _join_address("0.0.0.0", 7337)
    everyone = machine_addresses("0.0.0.0")
    assert everyone[-1] == "127.0.0.1"
    assert _join_address("0.0.0.0", 7337) == f"{everyone[0]}:7337"


def test_the_browser_doors_refusal_has_plural_forms(tmp_path: Path) -> None:
    one = WebDoor(host_port=1, data_dir=tmp_path, max_sessions=1)
    assert "1 browser player is here already" in one.full_message()
    many = WebDoor(host_port=1, data_dir=tmp_path, max_sessions=3)
    assert "3 browser players are here already" in many.full_message()


def test_the_german_reconnect_lines_fit_where_the_english_ones_do() -> None:
    from rich.cells import cell_len

    from paris_tui.i18n import _
    from paris_tui.wording import in_language

    for line in (
        "Connection lost: joining again (try {n})…",
        "The host stopped: joining again (try {n})…",
    ):
        english = cell_len(line.format(n=12))
        with in_language("de"):
            german = _(line).format(n=12)
        assert german != line.format(n=12)
        assert cell_len(german) <= english, german
