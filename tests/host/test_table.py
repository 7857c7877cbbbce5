"""One interface for the game screen: a local table and a remote one behave alike."""

from __future__ import annotations

import asyncio
from pathlib import Path

from paris_tui.core import Event, SeatView
from paris_tui.host.local import LocalTable
from paris_tui.host.referee import Referee, parse_seats
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import ErrorCode
from paris_tui.net.table import RemoteTable, Table, public_view

from .helpers import TIMEOUT, running_host


class Listener:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.refusals: list[str] = []
        self.closed: str | None = None
        self.changed = asyncio.Event()

    def table_changed(self, table: Table, events: tuple[Event, ...]) -> None:
        self.events.extend(events)
        self.changed.set()

    def table_refused(self, table: Table, code: ErrorCode, message: str) -> None:
        self.refusals.append(code)
        self.changed.set()

    def table_presence(self, table: Table) -> None:
        self.changed.set()

    def table_closed(self, table: Table, reason: str) -> None:
        self.closed = reason
        self.changed.set()


def _local_game(seed: int) -> tuple[list[SeatView], list[Event], list[str]]:
    table = LocalTable(Referee.new("t1", parse_seats("ann,bob"), seed=seed))
    listener = Listener()
    table.add_listener(listener)
    assert table.local_seats == (0, 1)
    table.submit(1, table.view(0).legal_moves[0], 0)  # not Bob's turn
    views = [table.view(0)]
    while not table.view(None).is_over:
        seat = table.view(None).to_move
        assert seat is not None
        view = table.view(seat)
        table.submit(seat, view.legal_moves[0], table.move_count)
        views.append(table.view(0))
    return views, listener.events, listener.refusals


async def test_a_remote_table_follows_the_same_game_as_a_local_one(tmp_path: Path) -> None:
    local_views, local_events, local_refusals = _local_game(seed=8)
    async with running_host(tmp_path, ["ann,bob"], seed=8) as (_, port):
        tables: list[RemoteTable] = []
        listeners: list[Listener] = []
        for name in ("ann", "bob"):
            client = await HostClient.connect("127.0.0.1", port)
            table = RemoteTable(client, await client.join(name))
            listener = Listener()
            table.add_listener(listener)
            tables.append(table)
            listeners.append(listener)
        runs = [asyncio.create_task(t.run()) for t in tables]
        ann, bob = tables
        assert ann.local_seats == (0,) and bob.local_seats == (1,)
        bob.submit(1, ann.view(0).legal_moves[0], 0)  # not Bob's turn
        # Two connections are not ordered between them: had Ann's first move reached
        # the host before Bob's, his would be refused as stale. Wait for his refusal.
        async with asyncio.timeout(TIMEOUT):
            while not listeners[1].refusals:
                listeners[1].changed.clear()
                await listeners[1].changed.wait()
        views = [ann.view(0)]
        for _ in range(200):
            if ann.view(None).is_over:
                break
            for table, listener in zip(tables, listeners, strict=True):
                seat = table.local_seats[0]
                view = table.view(seat)
                if view.my_turn:
                    listener.changed.clear()
                    table.submit(seat, view.legal_moves[0], table.move_count)
                    async with asyncio.timeout(TIMEOUT):
                        while table.move_count == len(view.moves):
                            await listener.changed.wait()
                            listener.changed.clear()
            if views[-1] != ann.view(0):
                views.append(ann.view(0))
        # Ann's updates may arrive after Bob's move: wait for her to see the end.
        async with asyncio.timeout(TIMEOUT):
            while not ann.view(0).is_over:
                listeners[0].changed.clear()
                await listeners[0].changed.wait()
        if views[-1] != ann.view(0):
            views.append(ann.view(0))
        assert ann.view(None) == public_view(bob.view(1))
        for table in tables:
            await table.close()
        await asyncio.gather(*runs)
    assert listeners[1].refusals == local_refusals == ["not_your_turn"]
    assert list(ann.events) == local_events == listeners[0].events
    # Every state Ann saw locally she saw remotely, ending at the same end.
    assert views[-1] == local_views[-1]
    assert set(views) <= set(local_views)
    assert listeners[0].closed is not None
