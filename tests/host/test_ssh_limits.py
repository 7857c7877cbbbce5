"""The SSH door's limits: window sizes clamped to a real terminal's, keys
taken at a person's pace (a 3.9 MiB write does not balloon the app), and logins
refused by the session cap write nothing.

The stand-in app of ssh_helpers (it reports its size and echoes keys); loopback
only, every wait bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from paris_tui.doors.pacing import (
    EVENTS_BURST,
    EVENTS_RATE,
    NOTICE_SECONDS,
    NOTICE_WAIT,
    PASTE_END,
    PASTE_START,
)
from paris_tui.doors.ssh import INPUT_BURST, INPUT_RATE, MAX_COLUMNS, MAX_ROWS, player_dir
from paris_tui.host.sshlib import asyncssh

from .ssh_helpers import Terminal, connect, new_key, running_door


@contextlib.asynccontextmanager
async def _ann_ready(tmp_path: Path, **options: Any) -> AsyncIterator[tuple[Terminal, int]]:
    """ann's SSH session at a door (``options``: :meth:`Terminal.open`'s), its stand-in
    app ready: the terminal, and where its output stood then (what comes after is the
    app's answer to the test's input)."""
    async with (
        running_door(tmp_path) as (_host, door),
        await connect(door.port, "ann", new_key(tmp_path, "ann")) as conn,
    ):
        term = await Terminal.open(conn, **options)
        await term.wait_for("ready")
        yield term, len(term.output)


async def _send(stdin: asyncssh.SSHWriter[bytes], chunks: Iterable[bytes], pause: float) -> None:
    """Each chunk written (its own SSH packet), then ``pause`` seconds."""
    for chunk in chunks:
        stdin.write(chunk)
        await stdin.drain()
        await asyncio.sleep(pause)


async def test_a_huge_window_is_clamped(tmp_path: Path) -> None:
    async with _ann_ready(tmp_path, size=(4096, 4096)) as (term, _start):
        assert term.field("size") == f"{MAX_COLUMNS}x{MAX_ROWS}"
        term.process.change_terminal_size(120, 40)
        await term.wait_for("size=120x40")
        term.process.change_terminal_size(8192, 8192)
        await term.wait_for(f"size={MAX_COLUMNS}x{MAX_ROWS}\r\n")


async def test_a_huge_paste_reaches_the_app_at_a_persons_pace(tmp_path: Path) -> None:
    async with _ann_ready(tmp_path) as (term, start):
        term.process.stdin.write(b"x" * (3900 * 1024))  # 3.9 MiB, no "q"
        words = "input came faster than anyone types; the rest was dropped"
        await term.wait_for(words)  # the session is told, in words, on its bottom row
        await asyncio.sleep(2.0)
        got = len(_keys_given(term, start))
        # Packets of 16 KiB: each larger than the burst, so every one is dropped whole;
        # and the door reads the flood no faster than its budget could take it.
        assert got <= INPUT_BURST + 3 * INPUT_RATE, got
        print(f"of 3.9 MiB pasted, the app was given {got / 1024:.0f} KiB in 2 s")
        assert bytes(term.output).decode("utf-8", "replace").count(words) == 1


async def _read_for(term: Terminal, seconds: float) -> None:
    """What the session shows in the next ``seconds``, into ``term.output``."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while chunk := await term.process.stdout.read(65536):
                term.output += chunk


def _keys_given(term: Terminal, start: int) -> bytes:
    """The keys the stand-in app was given since ``start`` (it echoes them in hex)."""
    text = bytes(term.output[start:]).decode("ascii", "replace")
    return b"".join(bytes.fromhex(p.split("\r\n")[0]) for p in text.split("key=")[1:])


async def test_a_flood_of_single_keys_reaches_the_app_at_a_persons_pace(tmp_path: Path) -> None:
    """One key a packet, as fast as the connection goes for 2 s: the bytes are few, the
    key events many; the app gets a burst and then a typist's pace, told in German."""
    async with _ann_ready(tmp_path, env={"PARIS_TUI_LANG": "de"}) as (term, start):
        loop = asyncio.get_running_loop()
        began = loop.time()
        sent = 0
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2.0):
                while True:  # each write its own SSH packet
                    term.process.stdin.write(b"a")
                    sent += 1
                    await term.process.stdin.drain()
                    await asyncio.sleep(0)
        took = loop.time() - began
        await _read_for(term, 1.0 + NOTICE_WAIT)  # the notice waits for a pause in the app's
        got = _keys_given(term, start).count(b"a")
        since = loop.time() - began  # the door goes on reading the backlog, at its pace
        print(f"of {sent} keys sent in {took:.2f} s, the app was given {got} in {since:.1f} s")
        assert sent > got and got <= EVENTS_BURST + EVENTS_RATE * since, (sent, got)
        words = "Eingaben kamen schneller, als jemand tippt; der Rest wurde verworfen"
        assert words in bytes(term.output).decode("utf-8", "replace")


async def test_a_screen_readers_session_is_told_of_dropped_input_in_a_line_of_its_own(
    tmp_path: Path,
) -> None:
    """Play by ear has no cursor movement and no redrawing: the door's notice of dropped
    input is a plain line of its own there, not written over the bottom row (where the
    next line the app wrote ran into it: "whoris-tui: input came ..."), and no repaint
    is forced (a plain-lines app has nothing to repaint)."""
    async with _ann_ready(tmp_path, env={"PARIS_TUI_SCREEN_READER": "1"}) as (term, start):
        term.process.stdin.write(b"x" * (64 * 1024))  # no "q"
        words = "paris-tui: input came faster than anyone types; the rest was dropped"
        await term.wait_for(words)
        await _read_for(term, NOTICE_SECONDS + 1.0)  # when the repaint would come
        text = bytes(term.output[start:]).decode("utf-8", "replace")
        assert f"\r\n{words}\r\n" in text, text[-300:]
        assert "\x1b" not in text, text[-300:]  # no cursor movement, no reverse video
        assert "size=" not in text  # the app was not resized for a repaint


async def test_a_pasted_chat_line_goes_through_whole(tmp_path: Path) -> None:
    """A bracketed paste of the longest text the chat rule reads (1,920 characters,
    two bytes each) is one key event: the app gets all of it, at once, unannounced."""
    async with _ann_ready(tmp_path) as (term, start):
        paste = PASTE_START + ("é" * 1920).encode() + PASTE_END
        term.process.stdin.write(paste)
        await asyncio.sleep(0.5)
        term.process.stdin.write(b"q")
        assert await term.finish() == 3
        assert _keys_given(term, start) == paste
        assert b"faster than anyone" not in term.output


async def test_the_rest_of_a_paste_cut_off_never_reaches_the_app_as_keys(tmp_path: Path) -> None:
    """A paste over the burst is cut off (the app is given the paste's end); what the
    client sends of that paste afterwards, once the budget has refilled, is still the
    paste: dropped to the client's own paste end, never typed as keys (in the game a
    "1" and an Enter take a tile, a "q" leaves the table). Keys after it are keys."""
    async with _ann_ready(tmp_path) as (term, start):
        stdin = term.process.stdin
        first = PASTE_START + b"1\r" * 3000  # 6 KB: within the burst
        await _send(stdin, (first, b"2\r" * 3000), 0.3)  # then 6 KB more: over what is left
        await asyncio.sleep(3.0)  # the budget refills
        await _send(stdin, (b"3\r" * 50, b"4\r" + PASTE_END, b"k"), 0.5)
        stdin.write(b"q")
        assert await term.finish() == 3
        given = _keys_given(term, start)
        assert given == first + PASTE_END + b"k", given[len(first) :]


async def test_an_escape_inside_a_paste_never_reaches_the_app(tmp_path: Path) -> None:
    """The app's terminal parser (Textual's) reads an ESC inside a bracketed paste as
    the start of a key: the next characters of the paste then reach the app as keys
    (found by hand in a local join: a paste holding ESC opened the lobby's friends box
    with its "f"). A paste is text: the door drops the ESCs inside it, so over SSH and
    in a browser the rest is the paste."""
    async with _ann_ready(tmp_path) as (term, start):
        stdin = term.process.stdin
        chunks = (
            PASTE_START + b"red \x1b[31mtext\x1b\x1b1\r" + PASTE_END + b"\x1b[A",
            PASTE_START + b"split \x1b",  # a paste the next chunk goes on with
            b"[2J end" + PASTE_END,
        )
        await _send(stdin, chunks, 0.3)
        stdin.write(b"q")
        assert await term.finish() == 3
        given = _keys_given(term, start)
        assert given == (
            PASTE_START
            + b"red [31mtext1\r"
            + PASTE_END
            + b"\x1b[A"  # a key stays a key
            + PASTE_START
            + b"split [2J end"
            + PASTE_END
        ), given


async def test_logins_that_only_look_at_the_lobby_leave_no_folder(tmp_path: Path) -> None:
    """30 logins with names that hold no seat (the lobby): each app's folder under
    ``players/`` goes with it, as it wrote nothing; a player's folder that holds
    something stays."""
    async with running_door(tmp_path) as (host, door):
        key = new_key(tmp_path, "k")
        for i in range(30):
            async with await connect(door.port, f"look{i}", key) as conn:
                term = await Terminal.open(conn)
                await term.wait_for("ready")
                term.process.stdin.write(b"q")
                assert await term.finish() == 3
        kept = player_dir(host.store.root, "ann")
        (kept / "settings.json").write_text("{}")
        async with await connect(door.port, "ann", new_key(tmp_path, "ann")) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready")
            term.process.stdin.write(b"q")
            assert await term.finish() == 3
        folders = sorted((host.store.root / "players").iterdir())
        assert folders == [kept], folders


def test_key_events_count_keys_sequences_and_pastes() -> None:
    from paris_tui.doors.pacing import InputBudget, key_events

    assert key_events(b"abc") == (3, False)
    assert key_events("é王".encode()) == (2, False)
    assert key_events(b"\x1b[A\x1bOP\x1bx\x1b[<35;10;20M") == (4, False)  # keys, mouse
    assert key_events(PASTE_START + b"x" * 100 + PASTE_END + b"y") == (2, False)
    assert key_events(PASTE_START + b"x" * 100) == (1, True)
    assert key_events(b"x" * 50, in_paste=True) == (0, True)
    assert key_events(b"xx" + PASTE_END + b"ab", in_paste=True) == (2, False)
    # A paste the app began and the budget cut off is closed for it.
    budget = InputBudget(0.0, bytes_burst=100)
    assert budget.take(PASTE_START + b"x" * 50, 0.0) == PASTE_START + b"x" * 50
    assert budget.take(b"x" * 80, 0.0) == PASTE_END
    assert budget.dropped_once and not budget.dropped_once
    assert budget.take(b"x" * 20, 0.0) == b""  # the rest of the client's paste
    assert budget.take(b"x" + PASTE_END + b"k", 0.0) == b"k"  # a key again
    # The client's paste end split between two chunks is still its end.
    budget = InputBudget(0.0, bytes_burst=100)
    assert budget.take(PASTE_START + b"x" * 200, 0.0) == b""
    assert budget.take(b"x" + PASTE_END[:3], 10.0) == b""
    assert budget.take(PASTE_END[3:] + b"k", 10.0) == b"k"
    # The ESCs inside a paste are dropped; a paste end split between chunks waits whole.
    paced = InputBudget(0.0)
    assert paced.take(PASTE_START + b"a\x1bb" + PASTE_END[:3], 0.0) == PASTE_START + b"ab"
    assert paced.take(PASTE_END[3:] + b"\x1b[A", 0.0) == PASTE_END + b"\x1b[A"
    # A dropped chunk that ends its paste leaves nothing to skip.
    assert budget.take(PASTE_START + b"x" * 200 + PASTE_END, 20.0) == b""
    assert budget.take(b"k", 20.0) == b"k"


async def test_one_address_takes_only_its_share_of_the_ssh_sessions(tmp_path: Path) -> None:
    """By default 4 SSH players from one address: the fifth is told why; another
    address still gets in."""
    async with running_door(tmp_path) as (_host, door), contextlib.AsyncExitStack() as stack:
        assert door.config.max_per_address == 4
        for i in range(4):
            conn = await stack.enter_async_context(
                await connect(door.port, f"p{i}", new_key(tmp_path, f"p{i}"))
            )
            await (await Terminal.open(conn)).wait_for("ready")
        async with await connect(door.port, "p4", new_key(tmp_path, "p4")) as conn:
            fifth = await Terminal.open(conn)
            assert await fifth.finish() == 1
            # Why: its address's share, not a full host (found by hand: the fifth was
            # told "the host has too many players over SSH" while the host had room).
            said = bytes(fifth.output).decode("utf-8", "replace")
            assert "4 SSH players from your address are here already" in said, said
            assert "the host has too many players" not in said
        key = new_key(tmp_path, "q")
        async with await connect(door.port, "q", key, local_addr=("127.0.0.2", 0)) as conn:
            await (await Terminal.open(conn)).wait_for("ready")
