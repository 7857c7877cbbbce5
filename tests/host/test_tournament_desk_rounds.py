"""The lobbies told where they sit when the host's rounds open a tournament's round:
the rounds' service (host/services/tournaments.py) pairs and opens round 1 and
publishes RoundOpened; each paired account's lobby connection (protocol 6, asked
as that account) gets its round_opened, and joins its seat there.

The publishing is the rounds' service's (branch trounds, in main since its merge):
this test passes on main with this branch, not on this branch alone."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from paris_tui.host.tournaments.engine import Plan
from paris_tui.net.client import HostClient
from paris_tui.net.tournaments_wire import RoundStart

from .helpers import running_host

TIMEOUT = 10.0
TOKENS = {"ann": "ann-own-token-0123456789", "bob": "bob-own-token-0123456789"}


async def test_a_round_opened_by_the_host_is_told_to_each_paired_lobby(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (host, port):
        store = host.tournaments.store
        assert store is not None
        cup = store.create("Cup", Plan("swiss", 2, 1), move_time=120, start=time.time() + 3600)
        lobbies = {}
        for name, token in TOKENS.items():
            lobby = await HostClient.connect("127.0.0.1", port)
            page = await lobby.tournament("enter", cup.id, name, token)  # makes the account
            assert page.done == "entered"
            lobbies[name] = lobby
        host.tournaments.tick(cup.start + 1)  # its start has come: round 1 paired, opened
        told = {}
        async with asyncio.timeout(TIMEOUT):  # every wait bounded, the loop too
            for name, lobby in lobbies.items():
                for _ in range(20):
                    message = await lobby.receive(TIMEOUT)
                    if isinstance(message, RoundStart):
                        told[name] = message
                        break
        assert set(told) == {"ann", "bob"}
        ann, bob = told["ann"], told["bob"]
        assert ann.table == bob.table and ann.table in host.rooms
        assert (ann.tournament, ann.name, ann.round) == (cup.id, "Cup", 1)
        assert sorted(ann.seats) == ["ann", "bob"] and ann.seats[ann.seat] == "ann"
        assert bob.seats[bob.seat] == "bob"
        seated = await lobbies["ann"].join("ann", TOKENS["ann"], ann.table)
        assert seated.table == ann.table and seated.seat == ann.seat
        for lobby in lobbies.values():
            await lobby.close()
