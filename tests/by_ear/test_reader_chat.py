"""Table chat by ear: lines are read as they come, ``say TEXT`` says one.

A real host on 127.0.0.1 in this process; Ann is the screen reader mode, Bob a bot.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Chat, ChatLine
from paris_tui.net.table import RemoteTable
from paris_tui.reader.inbox import Inbox, now
from paris_tui.reader.lines import Lines
from paris_tui.reader.play import Reader
from tests.host.helpers import TIMEOUT, join_bot, running_host

MAX_STEPS = 2000


class Ear:
    """The screen reader at ``table``: what it says (``out``), what it is typed
    (``inbox``), and a wait for a line it says."""

    def __init__(self, table: RemoteTable) -> None:
        self.table = table
        self.follow = asyncio.ensure_future(table.run())
        self.out = Lines(io.StringIO(), width=lambda: 80)
        self.inbox = Inbox()
        self.task = asyncio.ensure_future(Reader(table, self.out, self.inbox).run())

    async def said(self, text: str) -> None:
        for _ in range(MAX_STEPS):
            if any(text in line for line in self.out.said):
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"never said {text!r}: {self.out.said[-5:]}")

    async def quit(self, at: float) -> None:
        self.inbox.put("quit", at)
        await asyncio.wait_for(self.task, TIMEOUT)
        self.follow.cancel()


async def test_the_reader_reads_chat_as_it_comes_and_says_a_line(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        client = await HostClient.connect("127.0.0.1", port)
        table = RemoteTable(client, await client.join("ann"))
        bob = await join_bot(port, "bob")
        ear = Ear(table)
        inbox, said = ear.inbox, ear.said
        bob.client.send(Chat("[b]hi[/b] \u738b"))
        await said("bob says: [b]hi[/b] \u738b")
        bob.client.send(Chat(phrase="good_luck"))
        await said("bob says: Good luck!")
        inbox.put("say gl [i]hf[/i]", now() + 1)
        for _ in range(MAX_STEPS):
            message = await bob.client.receive(TIMEOUT)
            if isinstance(message, ChatLine) and message.name == "ann":
                assert message.text == "gl [i]hf[/i]"  # as typed: case and marks kept
                break
        await said("ann says: gl [i]hf[/i]")
        inbox.put("say \u202eevil", now() + 2)  # not sent: the core's rule, worded here
        await said("The line holds a character that is not text (U+202E).")
        await ear.quit(now() + 3)
        await bob.client.close()
        await client.close()


async def test_the_reader_chats_at_the_end_of_the_game(tmp_path: Path) -> None:
    """After the game the table talks; the reader reads the lines and
    ``say TEXT`` says one there too."""
    from tests.app.test_chat_app import near_the_end
    from tests.host.helpers import put_record

    put_record(tmp_path / "host", "t1", near_the_end().record())
    async with running_host(tmp_path / "host") as (_host, port):
        client = await HostClient.connect("127.0.0.1", port)
        table = RemoteTable(client, await client.join("ann"))
        bob = await join_bot(port, "bob")
        ear = Ear(table)
        inbox, said = ear.inbox, ear.said
        await bob.play_to_end()  # bob's move ends the game
        await said("as during the game")
        bob.client.send(Chat(phrase="good_game"))
        await said("bob says: Good game!")
        inbox.put("say gg [b]bob", now() + 1)
        for _ in range(MAX_STEPS):
            message = await bob.client.receive(TIMEOUT)
            if isinstance(message, ChatLine) and message.name == "ann":
                assert message.text == "gg [b]bob"
                break
        await said("ann says: gg [b]bob")
        await ear.quit(now() + 2)
        await bob.client.close()
        await client.close()


async def test_the_reader_mutes_and_unmutes_a_writer_kept_with_the_account(
    tmp_path: Path,
) -> None:
    """``mute NAME`` as the chat pane's ``/mute``: the writer's lines are no
    longer read (the host keeps the mute with the account and sends none of them),
    ``mute`` alone says who is muted, ``unmute NAME`` reads them again; ``help``
    says so."""
    async with running_host(tmp_path, ["ann,bob,cy"]) as (host, port):
        client = await HostClient.connect("127.0.0.1", port)
        table = RemoteTable(client, await client.join("ann"))
        bob = await join_bot(port, "bob")
        cy = await join_bot(port, "cy")
        ear = Ear(table)
        out, inbox, said = ear.out, ear.inbox, ear.said
        inbox.put("help", now() + 1)
        await said("mute alone: who is muted.")
        inbox.put("mute", now() + 2)
        await said("You have muted nobody.")
        inbox.put("mute Bob", now() + 3)
        await said("Bob's lines are hidden here.")
        assert host.accounts is not None
        ann = host.accounts.find("ann")
        assert ann is not None
        for _ in range(MAX_STEPS):  # kept with the account, and the host's list came back
            if table.chat_mutes == ("bob",):
                break
            await asyncio.sleep(0.005)
        assert [a.name for a in host.accounts.chat_mutes(ann.id)] == ["bob"]
        bob.client.send(Chat("a secret"))
        for _ in range(MAX_STEPS):  # bob's own line back: the host has sent it (or not)
            message = await bob.client.receive(TIMEOUT)
            if isinstance(message, ChatLine) and message.text == "a secret":
                break
        cy.client.send(Chat("after"))
        await said("cy says: after")
        assert not any("a secret" in line for line in out.said)
        assert not any(line.text == "a secret" for line in table.chat_lines)  # never sent
        inbox.put("mute", now() + 4)
        await said("Muted: bob.")
        inbox.put("unmute bob", now() + 5)
        await said("bob's lines are shown again.")
        for _ in range(MAX_STEPS):
            if table.chat_mutes == ():
                break
            await asyncio.sleep(0.005)
        bob.client.send(Chat("again"))
        await said("bob says: again")
        inbox.put("mute a\u202eb", now() + 6)  # not a name: said how
        await said("Type mute and a name, or unmute and a name.")
        await ear.quit(now() + 7)
        for c in (bob.client, cy.client, client):
            await c.close()


async def test_a_shortened_mute_on_ones_own_turn_mutes(tmp_path: Path) -> None:
    """``mut bob`` and ``unm bob`` typed on one's own turn, where no stop's name starts
    so, are the chat's ``mute`` and ``unmute`` (as between turns), not a question
    about the board that nobody can answer (the reader stopped on them)."""
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        client = await HostClient.connect("127.0.0.1", port)
        table = RemoteTable(client, await client.join("ann"))
        bob = await join_bot(port, "bob")
        ear = Ear(table)
        await ear.said("Your turn, ann")
        ear.inbox.put("mut bob", now() + 1)
        await ear.said("bob's lines are hidden here.")
        ear.inbox.put("unm bob", now() + 2)
        await ear.said("bob's lines are shown again.")
        assert not ear.task.done()  # the reader goes on with the turn
        await ear.quit(now() + 3)
        await bob.client.close()
        await client.close()
