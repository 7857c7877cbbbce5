"""The screen reader's lobby at a real host on 127.0.0.1: the name prompt takes no command
word for a name, a player thinking at a prompt is never cut off as silent, a close says
why, the new table's seat word is the player's language's; and a watcher hears the end of
a game as one block, nothing between "The game is over." and the final scores."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from paris_tui import i18n
from paris_tui.app.online.remote import JoinTarget
from paris_tui.host.config import Limits
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Chat
from paris_tui.net.table import RemoteTable
from paris_tui.reader.inbox import Inbox, now
from paris_tui.reader.lines import Lines
from paris_tui.reader.lobby import lobby
from paris_tui.reader.play import Reader
from tests.host.helpers import TIMEOUT, join_bot, put_record, running_host

MAX_STEPS = 2000


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


async def _said(out: Lines, text: str, after: int = 0) -> int:
    """Wait until ``out`` said a line holding ``text`` (from line ``after`` on): its index."""
    for _ in range(MAX_STEPS):
        for i, line in enumerate(out.said[after:], start=after):
            if text in line:
                return i
        await asyncio.sleep(0.005)
    raise AssertionError(f"never said {text!r}: {out.said[-6:]}")


async def test_a_slow_player_at_the_lobbys_prompts_stays_connected_and_watch_is_a_command(
    tmp_path: Path,
) -> None:
    """``1``, a long think, then ``watch 1`` at the name prompt: it watches (the host's
    pings were answered meanwhile; the words were a command, not a name)."""
    quick = Limits(ping_interval=0.3, idle_timeout=1.0)
    async with running_host(tmp_path, ["ann,bob"], limits=quick) as (_host, port):
        client = await HostClient.connect("127.0.0.1", port)
        out = Lines(io.StringIO(), width=lambda: 80)
        inbox = Inbox()
        task = asyncio.ensure_future(lobby(JoinTarget("127.0.0.1", port), client, None, out, inbox))
        await _said(out, "1: table t1, ann, bob")
        await asyncio.sleep(2.5)  # longer than the host waits for a silent client
        inbox.put("1", now())
        asked = await _said(out, "Your name at this table?")
        await asyncio.sleep(2.5)
        inbox.put("watch 1", now())
        link = await asyncio.wait_for(task, TIMEOUT)
        assert link is not None, out.said
        assert not link.table.local_seats  # watching, under no name
        assert not any("closed the connection" in line for line in out.said), out.said
        assert not any("watch 1" in line for line in out.said[asked:])
        await link.close()


async def test_a_command_word_at_the_name_prompt_is_no_name(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        i18n.set_language("de")
        client = await HostClient.connect("127.0.0.1", port)
        out = Lines(io.StringIO(), width=lambda: 80)
        inbox = Inbox()
        task = asyncio.ensure_future(lobby(JoinTarget("127.0.0.1", port), client, None, out, inbox))
        await _said(out, "1: Tisch t1")
        inbox.put("neu", now())
        asked = await _said(out, "Dein Name an diesem Tisch?")
        inbox.put("hilfe", now())
        refused = await _said(out, "hilfe ist ein Befehlswort, kein Name", asked)
        inbox.put("cy", now())
        seats = await _said(out, "Die anderen Plätze", refused)
        assert "offen" in out.said[seats] and "open" not in out.said[seats], out.said[seats]
        inbox.put("beenden", now())  # not a seat: back to the list, then quit
        await _said(out, "Kein Platz", seats)
        inbox.put("beenden", now())
        assert await asyncio.wait_for(task, TIMEOUT) is None


async def test_a_close_says_why(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        client = await HostClient.connect("127.0.0.1", port)
        out = Lines(io.StringIO(), width=lambda: 80)
        inbox = Inbox()
        task = asyncio.ensure_future(lobby(JoinTarget("127.0.0.1", port), client, None, out, inbox))
        await _said(out, "1: table t1")
        client.writer.close()  # the connection goes away under the waiting lobby
        assert await asyncio.wait_for(task, TIMEOUT) is None
        closed = [line for line in out.said if "closed the connection" in line]
        assert closed and closed[-1] != "The host closed the connection.", out.said


async def test_a_watcher_hears_the_end_as_one_block(tmp_path: Path) -> None:
    from tests.app.test_chat_app import near_the_end

    put_record(tmp_path / "host", "t1", near_the_end().record())
    async with running_host(tmp_path / "host") as (_host, port):
        watcher = await HostClient.connect("127.0.0.1", port)
        table = RemoteTable(watcher, await watcher.watch("t1"))
        follow = asyncio.ensure_future(table.run())
        out = Lines(io.StringIO(), width=lambda: 80)
        inbox = Inbox()
        task = asyncio.ensure_future(Reader(table, out, inbox).run())
        await _said(out, "Waiting for bob")
        bob = await join_bot(port, "bob")
        bob._maybe_move()  # the game's last move, and a chat line in the same moment:
        bob.client.send(Chat(phrase="good_game"))  # the watcher hears both at once
        await _said(out, "bob says: Good game!")
        over = out.said.index("The game is over.")
        assert out.said[over + 1].startswith("Final scores:"), out.said[over:]
        said = out.said.index("bob says: Good game!")
        assert said > over + 2
        inbox.put("quit", now() + 1)
        await asyncio.wait_for(task, TIMEOUT)
        follow.cancel()
        await bob.client.close()
        await watcher.close()
