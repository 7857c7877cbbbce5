"""Secrecy by construction, proven on the bytes (issue 9).

Every byte the host sends to each connection in a full game is recorded.
The proof is differential: the same moves are played over two deals that
differ only in what a seat may not know (the other seats' routes; the order
of the face-down stacks), and the bytes that seat receives must be
identical, byte for byte, until the game end (routes) or until the stack in
question is turned face up (stacks). Whatever the host encodes, if a secret
influenced one byte sent to a seat, the two recordings would differ. The
same recordings are also searched for what must never appear: another
seat's route as a connection's own, any key of the deal, a token sent to
anyone but its owner.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path

from paris_tui.core import Game, Move, Setup
from paris_tui.core.record import Player, Record
from paris_tui.host.server import Limits
from paris_tui.net.protocol import (
    Chat,
    ChatLine,
    Join,
    Play,
    Seated,
    Update,
    Watching,
    decode_host,
    encode,
)

from .helpers import HELLO, MAX_STEPS, TIMEOUT, RawClient, put_record, running_host

NAMES = ("ann", "bob", "cy")
TOKEN = re.compile(rb'"token":"[A-Za-z0-9_-]+"')
AT = re.compile(rb'"at":[0-9]+')  # a chat line's time
HELLO4 = b'{"type":"hello","protocol":4,"client":"test"}\n'  # table chat (issue 22)
QUIET = Limits(ping_interval=600.0, idle_timeout=1200.0)


def _script(setup: Setup, seed: int, keep: tuple[Move, ...] = ()) -> tuple[Move, ...]:
    """Legal moves for a whole game of ``setup``: ``keep`` first, then random ones."""
    game = Game.from_setup(setup, NAMES)
    rng = random.Random(seed)
    moves = []
    while not game.is_over:
        move = keep[len(moves)] if len(moves) < len(keep) else rng.choice(game.legal_moves())
        game.play(move)
        moves.append(move)
    return tuple(moves)


async def _drive(
    raw: RawClient, script: tuple[Move, ...], seat: int | None, chat: bool = False
) -> None:
    """Read everything the host sends; play this seat's moves of the script (with
    ``chat``, say a line and a phrase before each of its first moves, and a watcher
    one line at the start)."""
    sent = -1
    pending = list(raw.lines)  # read while joining
    for _ in range(MAX_STEPS):
        data = pending.pop(0) if pending else await raw.line(TIMEOUT)
        assert data, "the host hung up"
        message = decode_host(data)
        if isinstance(message, Seated | Watching | Update):
            view = message.view
            if view.is_over:
                return
            count = len(view.moves)
            if chat and seat is None and isinstance(message, Watching):
                raw.send(encode(Chat("which route is ann's?")))
            if seat is not None and view.to_move == seat and sent != count:
                sent = count
                if chat and count < 6:  # within the rate limit: two lines a move
                    raw.send(encode(Chat(f"my move {count}")) + encode(Chat(phrase="your_turn")))
                raw.send(encode(Play(script[count], count)))
    raise AssertionError("the game did not end")


async def _record(
    data_dir: Path, setup: Setup, script: tuple[Move, ...], *, chat: bool = False
) -> list[list[bytes]]:
    """Play ``script`` over ``setup`` at a host; every line each connection received
    (seats 0-2, then a watcher), tokens blanked (with ``chat``: protocol 4, and the
    players and the watcher chat as they play; the chat lines' times blanked)."""
    hello = HELLO4 if chat else HELLO
    record = Record(
        tuple(Player(n) for n in NAMES),
        setup,
        extra={"app": {"seed": 1, "ai_seeds": [None, None, None]}},
    )
    put_record(data_dir, "t1", record)
    async with running_host(data_dir, limits=QUIET) as (_, port):
        clients = []
        for name in NAMES:
            raw = await RawClient.open(port)
            raw.send(hello + encode(Join(name)))
            clients.append(raw)
            while not any(b'"type":"seated"' in line for line in raw.lines):
                assert await raw.line(TIMEOUT)
        watcher = await RawClient.open(port)
        watcher.send(hello + b'{"type":"watch","table":"t1"}\n')
        await asyncio.gather(
            *(_drive(c, script, seat, chat) for seat, c in enumerate(clients)),
            _drive(watcher, script, None, chat),
        )
        for raw in (*clients, watcher):
            raw.close()
    return [
        [AT.sub(b'"at":0', TOKEN.sub(b'"token":"' + b"x" * 43 + b'"', line)) for line in raw.lines]
        for raw in (*clients, watcher)
    ]


def _first(lines: list[bytes], test: object) -> int:
    for i, line in enumerate(lines):
        message = decode_host(line)
        if isinstance(message, Update) and test(message):  # type: ignore[operator]
            return i
    raise AssertionError("never")


BASE = Game.new(list(NAMES), seed=20).setup


def _other_routes(seat: int) -> list[tuple[str, ...]]:
    """Deals for the other seats' routes in which each other seat holds, across
    BASE and these three, every line but ``seat``'s: a leak that depends on any one
    other route differs from BASE in at least one of them."""
    lines = Game.from_setup(BASE, NAMES).board.line_ids
    o1, o2 = (s for s in range(3) if s != seat)
    p, q = BASE.routes[o1], BASE.routes[o2]
    x, y = (r for r in lines if r not in BASE.routes)
    out = []
    for a, b in ((q, p), (x, y), (y, x)):
        routes = list(BASE.routes)
        routes[o1], routes[o2] = a, b
        out.append(tuple(routes))
    return out


async def test_other_routes_never_reach_a_seat_before_the_end(tmp_path: Path) -> None:
    script = _script(BASE, seed=1)
    base = await _record(tmp_path / "a", BASE, script)
    for seat in range(3):
        for n, routes in enumerate(_other_routes(seat)):
            changed = await _record(tmp_path / f"r{seat}{n}", Setup(BASE.stacks, routes), script)
            for conn in (seat, 3):  # the seat, and the watcher
                mine, theirs = base[conn], changed[conn]
                end = _first(mine, lambda m: m.view.is_over)
                assert end == _first(theirs, lambda m: m.view.is_over)
                assert mine[:end] == theirs[:end], f"connection {conn} learnt a secret route"
                # The end reveals the routes: the recordings differ there, so they could.
                assert mine[end] != theirs[end]


async def test_the_stack_order_never_reaches_anyone(tmp_path: Path) -> None:
    script = _script(BASE, seed=2)
    base = await _record(tmp_path / "a", BASE, script)
    # Round k is face up; the order of the tiles in the stacks after it is reshuffled.
    for k, shuffle in ((0, 0), (0, 1), (6, 2), (6, 3)):
        rng = random.Random(shuffle)
        future = [t for stack in BASE.stacks[k + 1 :] for t in stack]
        rng.shuffle(future)
        size = len(BASE.stacks[0])
        stacks = BASE.stacks[: k + 1] + tuple(
            tuple(future[i : i + size]) for i in range(0, len(future), size)
        )
        assert stacks != BASE.stacks
        setup = Setup(stacks, BASE.routes)
        keep = script[: (k + 1) * 3]
        changed = await _record(tmp_path / f"s{shuffle}", setup, _script(setup, seed=3, keep=keep))
        for conn in range(4):
            mine, theirs = base[conn], changed[conn]
            turned = _first(mine, lambda m, k=k: m.view.round > k)
            assert turned == _first(theirs, lambda m, k=k: m.view.round > k)
            assert mine[:turned] == theirs[:turned], f"connection {conn} learnt the stack order"
            assert mine[turned] != theirs[turned]


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


async def test_what_each_connection_receives_holds_only_its_own_secret(tmp_path: Path) -> None:
    script = _script(BASE, seed=4)
    recordings = await _record(tmp_path, BASE, script)
    for conn, lines in enumerate(recordings):
        seat = conn if conn < 3 else None
        own = BASE.routes[seat] if seat is not None else None
        tokens = 0
        for line in lines:
            data = json.loads(line)
            assert not _keys(data) & {"stacks", "routes", "setup", "public_route_secret"}
            view = data.get("view")
            if data["type"] == "seated":
                tokens += 1
            if view is None:
                continue
            assert view["own_route"] == own
            if view["outcome"] is None:
                assert view["revealed_routes"] is None
                # R8: per-seat sack counts stay hidden until the end.
                assert "sack" not in view
            for other in set(BASE.routes) - {own}:
                assert f'"own_route":"{other}"'.encode() not in line
        assert tokens == (1 if seat is not None else 0)


async def test_chat_running_carries_no_secret(tmp_path: Path) -> None:
    """Issue 22: with the players and a watcher chatting as they play, the bytes each
    connection gets still hold no other route before the end: the differential
    proof again, for seat 0 and the watcher; and the chat lines hold only what was
    said."""
    script = _script(BASE, seed=5)
    base = await _record(tmp_path / "a", BASE, script, chat=True)
    heard = [decode_host(line) for line in base[3]]
    lines = [m for m in heard if isinstance(m, ChatLine)]
    assert {m.channel for m in lines} == {"table", "watchers"} and len(lines) >= 7
    routes = _other_routes(0)[0]
    changed = await _record(tmp_path / "r", Setup(BASE.stacks, routes), script, chat=True)
    # Chat lines come when they are said, among the updates in any order: the proof
    # compares the rest byte for byte, and the chat lines as a whole.
    for conn in (0, 3):
        mine = [line for line in base[conn] if b'"type":"chat"' not in line]
        theirs = [line for line in changed[conn] if b'"type":"chat"' not in line]
        end = _first(mine, lambda m: m.view.is_over)
        assert end == _first(theirs, lambda m: m.view.is_over)
        assert mine[:end] == theirs[:end], f"connection {conn} learnt a secret route"
        said = sorted(line for line in base[conn] if b'"type":"chat"' in line)
        assert said == sorted(line for line in changed[conn] if b'"type":"chat"' in line)
    for lines_of in base:
        for line in lines_of:
            if b'"type":"chat"' in line:
                data = json.loads(line)
                assert set(data) == {
                    "type",
                    "table",
                    "name",
                    "seat",
                    "channel",
                    "text",
                    "phrase",
                    "at",
                }
                assert not any(route in line.decode() for route in BASE.routes)
