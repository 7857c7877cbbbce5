"""A tournament's round that opens while the screen reader's player sits at another
table is said there at once, in one line, with the bell when it is on: where they sit,
and that ``quit`` goes to the lobby first (where ``sit`` takes the seat). A real host on
127.0.0.1 in this process; Ann came straight to her seat (never through the lobby)."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace
from pathlib import Path

from paris_tui.host.events import RoundOpened
from paris_tui.host.referee import APP_KEY, TOURNAMENT_KEY
from paris_tui.net.client import HostClient
from paris_tui.net.table import RemoteTable
from paris_tui.reader.inbox import Inbox, now
from paris_tui.reader.lines import Lines
from paris_tui.reader.play import Reader
from paris_tui.reader.prefs import Prefs
from tests.app.test_chat_app import near_the_end
from tests.host.helpers import join_bot, put_record, running_host

MAX_STEPS = 2000


async def _said(out: Lines, text: str) -> str:
    for _ in range(MAX_STEPS):
        for line in out.said:
            if text in line:
                return line
        await asyncio.sleep(0.005)
    raise AssertionError(f"never said {text!r}: {out.said[-8:]}")


async def test_a_round_opened_meanwhile_is_said_at_the_table_with_the_bell(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        client = await HostClient.connect("127.0.0.1", port)
        table = RemoteTable(client, await client.join("ann"))
        follow = asyncio.ensure_future(table.run())
        stream = io.StringIO()
        out = Lines(stream, width=lambda: 80)
        reader = Reader(table, out, Inbox(), prefs=Prefs(bell=True))  # the bell is on
        task = asyncio.ensure_future(reader.run())
        try:
            await _said(out, "ann")  # the game is said: the reader is at its table
            rung = len(stream.getvalue())
            host.events.publish(RoundOpened(3, "Winter Cup", 2, (("t7", ("bob", "ann")),)))
            line = await _said(out, "Winter Cup")
            assert line == (
                "Winter Cup, tournament round 2: you sit at table t7 with bob. "
                "Type sit to take your seat. quit goes to the lobby first."
            )
            assert "\a" in stream.getvalue()[rung:]
            assert table.round_start is not None and table.round_start.seat == 1
        finally:
            task.cancel()
            follow.cancel()
            await client.close()


async def test_a_tournament_tables_end_offers_no_rematch_by_ear(tmp_path: Path) -> None:
    record = near_the_end().record()  # bob,ann; bob's move ends it
    meta = dict(record.extra.get(APP_KEY) or {})
    meta[TOURNAMENT_KEY] = "Winter Cup"  # a round's table, as the host opens one
    put_record(tmp_path, "t1", replace(record, extra={**record.extra, APP_KEY: meta}))
    async with running_host(tmp_path) as (host, port):
        client = await HostClient.connect("127.0.0.1", port)
        table = RemoteTable(client, await client.join("ann"))
        assert table.tournament == "Winter Cup"
        bob = await join_bot(port, "bob")
        follow = asyncio.ensure_future(table.run())
        out = Lines(io.StringIO(), width=lambda: 80)
        inbox = Inbox()
        task = asyncio.ensure_future(Reader(table, out, inbox).run())
        try:
            await bob.play_to_end()
            await _said(out, "Type review for the strong AI's view of the moves")
            inbox.put("help", now() + 1)
            await _said(out, "help")
            inbox.put("rematch", now() + 2)
            await _said(out, "Type review, scores, help for all you can ask, or quit.")
            assert not any("rematch" in line.casefold() for line in out.said)
            assert not host.agreements.agreed
        finally:
            task.cancel()
            follow.cancel()
            await client.close()
            await bob.client.close()
