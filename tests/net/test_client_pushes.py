"""What the host sends unasked while a request waits for its answer (a round opened, a
friend here, the lobby's tables) reaches whoever listens for pushes, for every request
of :class:`~paris_tui.net.client.HostClient`: a scripted host on loopback sends a push
just before each answer. Every wait is bounded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from paris_tui.core import Move
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import (
    PROTOCOL_VERSION,
    AccountRequest,
    ClientMessage,
    FriendsRequest,
    GetRecord,
    HostMessage,
    Join,
    Leave,
    ListGames,
    ListTables,
    OpenTable,
    Presence,
    Watch,
    Welcome,
    decode_client,
    encode,
)
from paris_tui.net.tournaments_wire import RoundStart, TournamentsRequest

from . import wire_cases

TIMEOUT = 10.0
PUSH = RoundStart(7, "Winter Cup", 2, "t9", 1, ("bob", "ann"))


def _answers() -> dict[str, Any]:
    host = dict(wire_cases._host(PROTOCOL_VERSION))
    host.update((label, m) for side, label, m in wire_cases._new_in_6() if side == "host")
    return host


ANSWERS = _answers()

# Each request of the client, the answer the scripted host gives it (a wire case's).
Request = Callable[[HostClient], Awaitable[object]]
REQUESTS: dict[str, tuple[type[ClientMessage], str, Request]] = {
    "join": (Join, "seated first", lambda c: c.join("ann")),
    "watch": (Watch, "watching", lambda c: c.watch("t12")),
    "tables": (ListTables, "tables", lambda c: c.tables()),
    "games": (ListGames, "games", lambda c: c.games()),
    "friends": (FriendsRequest, "friends", lambda c: c.friends("ann", None)),
    "tournaments": (
        TournamentsRequest,
        "tournaments",
        lambda c: c.tournaments("ann", wire_cases.TOKEN),
    ),
    "tournament": (TournamentsRequest, "tournament", lambda c: c.tournament("show", 7)),
    "record": (GetRecord, "record", lambda c: c.record("t3")),
    "open_table": (OpenTable, "waiting", lambda c: c.open_table("ann", ("me", "open"))),
    "sit": (Join, "waiting", lambda c: c.sit("ann", "t2")),
    "account": (AccountRequest, "account", lambda c: c.account("ann", wire_cases.TOKEN)),
    "leave": (Leave, "left", lambda c: c.leave()),
}


@asynccontextmanager
async def scripted_host(
    answer: HostMessage, pushes: tuple[HostMessage, ...]
) -> AsyncIterator[tuple[int, list[ClientMessage]]]:
    """A host on loopback: welcome to hello; to every other request, ``pushes`` and then
    ``answer``. Yields its port and the requests it read."""
    asked: list[ClientMessage] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with_hello = False
        for _lines in range(10):
            line = await reader.readline()
            if not line:
                break
            message = decode_client(line)
            if not with_hello:
                writer.write(encode(Welcome(PROTOCOL_VERSION, "scripted", "en")))
                with_hello = True
            else:
                asked.append(message)
                writer.write(b"".join(encode(p) for p in pushes) + encode(answer))
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1], asked
    finally:
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize("kind", sorted(REQUESTS))
async def test_a_push_before_the_answer_reaches_the_listener(kind: str) -> None:
    sent, label, request = REQUESTS[kind]
    presence = Presence("t1", ANSWERS["seated first"].seats)
    async with scripted_host(ANSWERS[label], (PUSH, presence)) as (port, asked):
        client = await HostClient.connect("127.0.0.1", port, timeout=TIMEOUT)
        heard: list[HostMessage] = []
        client.hear = heard.append
        try:
            async with asyncio.timeout(TIMEOUT):
                answer = await request(client)
        finally:
            await client.close()
    assert answer is not None and answer != ()  # the answer itself, read
    assert [type(m) for m in asked] == [sent]
    assert heard == [PUSH, presence]  # both, in the order they came


async def test_a_friend_arrived_before_the_friends_answer_is_heard_not_taken_for_it() -> None:
    arrived = ANSWERS["friends arrived"]
    async with scripted_host(ANSWERS["friends none"], (arrived,)) as (port, _asked):
        client = await HostClient.connect("127.0.0.1", port, timeout=TIMEOUT)
        heard: list[HostMessage] = []
        client.hear = heard.append
        try:
            async with asyncio.timeout(TIMEOUT):
                info = await client.friends("ann", None)
        finally:
            await client.close()
    assert info == ANSWERS["friends none"] and heard == [arrived]


async def test_with_nobody_listening_a_push_is_kept_for_the_next_receive() -> None:
    async with scripted_host(ANSWERS["games"], (PUSH,)) as (port, _asked):
        client = await HostClient.connect("127.0.0.1", port, timeout=TIMEOUT)
        try:
            async with asyncio.timeout(TIMEOUT):
                await client.games()
                assert await client.receive() == PUSH
        finally:
            await client.close()


def test_every_request_is_covered() -> None:
    """A new request method of HostClient gets a case here."""
    skip = {"connect", "receive", "while_waiting", "send", "close", "abort", "play", "ask"}
    methods = {
        n for n in vars(HostClient) if not n.startswith("_") and callable(getattr(HostClient, n))
    }
    assert methods - skip == set(REQUESTS)
    assert Move  # (play sends a move and waits for nothing)


async def test_while_waiting_hands_a_push_to_the_listener_at_once() -> None:
    """A push that comes while the program waits for something else (a typed line) goes
    to the listener as it comes, not when the wait is over."""
    async with scripted_host(ANSWERS["games"], (PUSH,)) as (port, _asked):
        client = await HostClient.connect("127.0.0.1", port, timeout=TIMEOUT)
        heard: list[HostMessage] = []
        client.hear = heard.append
        typed: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        try:
            async with asyncio.timeout(TIMEOUT):
                waiting = asyncio.ensure_future(client.while_waiting(typed))
                client.send(ListGames(None))  # the scripted host pushes, then answers
                for _ in range(1000):
                    if heard:
                        break
                    await asyncio.sleep(0.005)
                assert heard[:1] == [PUSH] and not waiting.done()
                typed.set_result("games")
                assert await waiting == "games"
        finally:
            await client.close()
