"""The hostile-client suite (issue 17): every door of ONE host (the protocol port,
SSH, the browser door) attacked at once, while a real table is played beside it.

The table's move round-trip (a move sent until both players have its update) is
measured before, during and after the attack and printed; the only timing
assertion is a generous bound (the game keeps working). Bounded in count and
time: a few dozen hostile connections, well under 30 s on 2 cores.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import signal
import statistics
import sys
import time
from collections.abc import Awaitable
from dataclasses import replace
from pathlib import Path

import aiohttp

from paris_tui.doors.ssh import SSHConfig, SSHDoor
from paris_tui.doors.web import WebDoor
from paris_tui.net.protocol import Update

from .helpers import HELLO, Bot, RawClient, join_bot, running_host
from .ssh_helpers import Terminal, connect, new_key, stand_in
from .test_web_limits import HUGE_APP, REPORT_APP

BOUND = 10.0  # seconds: a round-trip slower than this is a broken game, not a slow one
MOVES_EACH = 4  # round-trips measured per phase


async def _round_trip(ann: Bot, bob: Bot) -> float:
    """One move by whoever is to move; seconds until both players have its update."""
    mover, other = (ann, bob) if ann.view.my_turn else (bob, ann)
    count = len(mover.view.moves)
    started = time.perf_counter()
    mover.client.play(mover.view.legal_moves[0], count)
    mover.sent_at = count
    for bot in (mover, other):
        async with asyncio.timeout(BOUND):
            while len(bot.view.moves) <= count:
                message = await bot.client.receive(BOUND)
                if isinstance(message, Update):
                    bot.view = message.view
    return time.perf_counter() - started


async def _phase(ann: Bot, bob: Bot) -> list[float]:
    return [await _round_trip(ann, bob) for _ in range(MOVES_EACH)]


async def _quietly(job: Awaitable[object]) -> None:
    with contextlib.suppress(Exception):
        await job


# --- the attacks, one per door --------------------------------------------------------


async def _protocol_attack(port: int) -> None:
    writers = []
    for a in range(2, 6):  # silent connections from four addresses
        for _ in range(10):
            with contextlib.suppress(OSError):
                _r, w = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(f"127.0.0.{a}", 0)
                )
                writers.append(w)
    junk = [
        HELLO + b"{not json\n",
        HELLO + b'{"type":"join","name":"' + b"x" * 5000 + b'"}\n',
        HELLO + b'{"type":"list_tables"}\n' * 500,  # a flood: cut off for its rate
        b"x" * (1 << 17),  # a line over the limit
        HELLO + b'{"type":"open_table","name":"m","seats":["me","ai:random"]}\n' * 20,
        HELLO + b'{"type":"join","name":"ann","token":"' + b"A" * 43 + b'"}\n',
        *(  # names that draw as another's
            HELLO
            + json.dumps({"type": "open_table", "name": n, "seats": ["me", "ai:random"]}).encode()
            + b"\n"
            for n in INVISIBLE_NAMES
        ),
    ]
    raws = [await RawClient.open(port) for _ in junk]
    for raw, data in zip(raws, junk, strict=True):
        raw.send(data)
    await asyncio.gather(*(_quietly(raw.closed(timeout=5.0)) for raw in raws))
    await asyncio.sleep(0.5)
    for raw in raws:
        raw.close()
    for w in writers:
        w.transport.abort()


async def _ssh_attack(door: SSHDoor, keys: Path) -> None:
    async def huge(i: int) -> None:
        async with await connect(door.port, f"h{i}", new_key(keys, f"h{i}")) as conn:
            term = await Terminal.open(conn, size=(4096, 4096))
            await term.wait_for("ready")
            term.process.stdin.write(b"x" * (1 << 20))
            term.process.change_terminal_size(8192, 8192)
            await asyncio.sleep(0.5)
            with contextlib.suppress(TimeoutError):  # single keys, one packet each
                async with asyncio.timeout(1.0):
                    while True:
                        term.process.stdin.write(b"a")
                        await term.process.stdin.drain()

    async def silent() -> None:
        _r, w = await asyncio.open_connection("127.0.0.1", door.port)
        await asyncio.sleep(1.0)
        w.transport.abort()

    await asyncio.gather(
        *(_quietly(huge(i)) for i in range(3)), *(_quietly(silent()) for _ in range(5))
    )


async def _web_attack(port: int) -> None:
    url = f"http://127.0.0.1:{port}/ws"
    async with aiohttp.ClientSession() as http:

        async def rebinding() -> None:
            headers = {"Host": "evil.example", "Origin": "http://evil.example"}
            await http.ws_connect(url, headers=headers)

        async def huge_then_gone() -> None:
            ws = await http.ws_connect(url + "?width=8192&height=8192", max_msg_size=0)
            await ws.send_json(["resize", {"width": 8192, "height": 8192}])
            await ws.receive(timeout=5.0)
            assert ws._response.connection is not None
            ws._response.connection.transport.abort()  # type: ignore[union-attr]

        async def oversized() -> None:
            ws = await http.ws_connect(url)
            await ws.send_str('["stdin","' + "x" * (1 << 20) + '"]')
            await ws.receive(timeout=5.0)

        async def flood() -> None:  # frames of 60,000 keys, then single keys: paced
            ws = await http.ws_connect(url)
            await ws.receive(timeout=5.0)
            for _ in range(8):
                await ws.send_json(["stdin", "a" * 60000])
            for _ in range(500):
                await ws.send_json(["stdin", "a"])
            await ws.close()

        await asyncio.gather(
            *(_quietly(rebinding()) for _ in range(3)),
            *(_quietly(huge_then_gone()) for _ in range(2)),
            _quietly(oversized()),
            _quietly(flood()),
            _quietly(http.get(f"http://127.0.0.1:{port}/static/")),
        )


async def test_every_door_attacked_at_once_while_a_table_plays(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ssh = SSHDoor(
            host, replace(SSHConfig(port=0, command=stand_in, hangup_grace=1.0)), app_port=port
        )
        await ssh.start()
        # Tabs' apps by turns: one whose screen is huge and never ends, one that answers.
        apps = itertools.cycle(
            [[sys.executable, "-c", HUGE_APP], [sys.executable, "-c", REPORT_APP]]
        )
        web = WebDoor(
            host=host,
            host_port=port,
            data_dir=host.store.root,
            port=0,
            max_sessions=4,
            command=lambda _d: next(apps),
        )
        _, web.port = await web.start()
        try:
            ann = await join_bot(port, "ann")
            bob = await join_bot(port, "bob")
            before = await _phase(ann, bob)
            attack = asyncio.gather(
                _protocol_attack(port), _ssh_attack(ssh, tmp_path), _web_attack(web.port)
            )
            during = await _phase(ann, bob)
            async with asyncio.timeout(60):
                await attack
            after = await _phase(ann, bob)
            # Everything the attack took is given back.
            async with asyncio.timeout(20):
                while web.sessions or len(host.connections) > 2:
                    await asyncio.sleep(0.05)
            assert len(host.connections) == 2  # ann and bob
            assert host._anonymous == {}
            # A new player still gets in by every door.
            async with await connect(ssh.port, "cy", new_key(tmp_path, "cy")) as conn:
                term = await Terminal.open(conn)
                await term.wait_for("ready")
            await ann.client.close()
            await bob.client.close()
        finally:
            await web.close()
            await ssh.close()
    for name, times in (("before", before), ("during", during), ("after", after)):
        ms = [t * 1000 for t in times]
        print(
            f"move round-trip {name:6}: median {statistics.median(ms):6.1f} ms, "
            f"max {max(ms):6.1f} ms ({len(ms)} moves)"
        )
    assert max(before + during + after) < BOUND


# --- names that draw exactly as another's, over the protocol ---------------------------

INVISIBLE_NAMES = (
    "Ann\u034f",  # combining grapheme joiner
    "ann\ufe0f",  # variation selector 16
    "a\ufe00nn",  # variation selector 1
    "ann\U000e0100",  # variation selector 17
    "ann\u180b",  # Mongolian free variation selector
    "ann\u17b4",  # Khmer inherent vowel
    "ann\u2800",  # braille blank
    "ann\U000e0061",  # a tag letter
)
WRITING = ("Nguyễn", "สมชาย", "अनिता", "王小明", "さくら")


async def test_names_with_invisible_marks_are_refused_over_the_protocol(tmp_path: Path) -> None:
    from paris_tui.host.limits import Quota
    from paris_tui.host.server import Limits
    from paris_tui.net.client import HostClient, RefusedError

    limits = Limits(
        max_tables=20,
        tables_per_address=20,
        opens=Quota(per_owner=3, per_address=20, total=100, seconds=3600.0),
    )
    async with running_host(tmp_path, limits=limits) as (host, port):
        client = await HostClient.connect("127.0.0.1", port)
        try:
            for name in INVISIBLE_NAMES:
                try:
                    await client.open_table(name, ("me", "ai:random"))
                except RefusedError as exc:
                    assert exc.refused.code == "bad_name", ascii(name)
                    assert not exc.refused.fatal
                else:
                    raise AssertionError(f"{name!a} was seated")
            assert host.accounts is not None and host.accounts.find("ann") is None
        finally:
            await client.close()
        for name in WRITING:  # real writing still makes a table, with its account
            writer = await HostClient.connect("127.0.0.1", port)
            try:
                await writer.open_table(name, ("me", "ai:random"))
            finally:
                await writer.close()
            assert host.accounts.find(name) is not None, name


# --- a chat line too long for the chat rule ---------------------------------------------


async def test_a_chat_line_over_1920_characters_is_bad_chat_not_a_disconnect(
    tmp_path: Path,
) -> None:
    from paris_tui.net.chat_wire import Chat, ChatLine
    from paris_tui.net.protocol import Refused

    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        for text in ("x" * 1921, "é" * 600, "x" * 4000):  # each fits in a client's line
            ann.client.send(Chat(text))
            for _ in range(50):
                message = await ann.client.receive(5.0)
                if isinstance(message, Refused):
                    break
            assert isinstance(message, Refused), message
            assert (message.code, message.fatal) == ("bad_chat", False), message
        ann.client.send(Chat("still here"))  # the connection is still open
        for _ in range(50):
            message = await ann.client.receive(5.0)
            if isinstance(message, ChatLine):
                break
        assert isinstance(message, ChatLine) and message.text == "still here"
        await ann.client.close()


# --- what the operator is told at start-up ------------------------------------------------


async def _host_lines(tmp_path: Path, *extra: str) -> str:
    """``paris-tui host --table ...``'s start-up lines (up to the last: how to reach it)."""
    proc = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--ssh-port", "off"],
        *["--data-dir", str(tmp_path), *extra],
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    out = []
    try:
        async with asyncio.timeout(30):
            while True:
                line = (await proc.stdout.readline()).decode()
                assert line, f"the host exited: {(await proc.stderr.read()).decode()}"
                out.append(line)
                if line.startswith("Only this machine"):
                    break
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            assert await proc.wait() == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return "".join(out)


async def test_host_table_without_invite_says_the_first_to_log_in_takes_the_seat(
    tmp_path: Path,
) -> None:
    said = await _host_lines(tmp_path / "open", "--table", "zoe,yan,ai:easy")
    assert (
        "Not claimed yet: zoe, yan: the first to log in with each name takes its seat"
        in " ".join(said.split())
    ), said
    assert "--invite gives each seat a one-time code" in said
    invited = await _host_lines(tmp_path / "invited", "--table", "zoe,yan,ai:easy", "--invite")
    assert "Not claimed yet" not in invited and "invitation code" in invited
