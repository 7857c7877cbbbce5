"""Snapshots of the lobby between games (update with --snapshot-update, then look):
the lobby at 80x24 with who is online (a friend first) and an invitation, and a
player's page with the rating over time and recent games."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.app.screens.player_page import PlayerScreen
from paris_tui.app.start.resources import css_paths
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.protocol import FinishedGame, FriendsInfo, FriendsRequest

from .helpers import screen_text

SnapCompare = Any


class LobbyWithPeople(App[None]):
    """A host on loopback in the app's own loop: bob and cy play at t1, dee waits at
    t2 with a seat kept for Eve; Eve (a friend of cy's) in the lobby."""

    CSS_PATH = css_paths()

    def __init__(self, data_dir: Path) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.host: Host | None = None
        self.others: list[HostClient] = []

    async def on_mount(self) -> None:
        self.theme = "textual-dark"
        host = Host(HostConfig(data_dir=self.data_dir, port=0, ai_delay=0.0))
        host.load()
        host.open_table(parse_seats("bob,cy"), seed=7)
        host.open_table(parse_seats("eve,ai:random"), seed=8)
        _, port = await host.start()
        self.host = host
        address = f"127.0.0.1:{port}"
        cy_token: str | None = None
        for name in ("bob", "cy"):
            client = await HostClient.connect("127.0.0.1", port)
            joined = await client.join(name)
            cy_token = joined.token
            self.others.append(client)
        eve = await HostClient.connect("127.0.0.1", port)
        seated = await eve.join("eve")
        eve.abort()
        assert seated.token is not None
        tokens = TokenStore(self.data_dir / "tokens.json")
        tokens.put(address, "eve", seated.token)
        friend = await HostClient.connect("127.0.0.1", port)
        # Friends only when both asked: eve asks cy, cy asks eve.
        for asker, token, asked in (("eve", seated.token, "cy"), ("cy", cy_token, "eve")):
            friend.send(FriendsRequest(asker, token, "add", asked))
            while not isinstance(await friend.receive(10.0), FriendsInfo):
                pass
        friend.abort()
        dee = await HostClient.connect("127.0.0.1", port)
        await dee.open_table("dee", ("me", "invite:eve"))
        self.others.append(dee)
        client = await HostClient.connect("127.0.0.1", port)
        self.others.append(client)
        lobby = LobbyScreen(client, "eve", poll=0.3, tokens=tokens, address=address)
        await self.push_screen(lobby)

    async def on_unmount(self) -> None:
        for client in self.others:
            client.abort()
        if self.host is not None:
            await self.host.close()


async def _until(pilot: Pilot[Any], *texts: str) -> None:
    for _ in range(500):
        if all(t in screen_text(pilot.app) for t in texts):
            await pilot.pause(0.1)
            return
        await asyncio.sleep(0.02)
    raise AssertionError(screen_text(pilot.app))


def test_lobby_with_who_is_online_and_an_invitation_80x24(
    snap_compare: SnapCompare, tmp_path: Path
) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        await _until(pilot, "★ cy", "dee invites you", "You are eve.")

    app = LobbyWithPeople(tmp_path)
    assert snap_compare(app, run_before=ready, terminal_size=(80, 24))


class PageApp(App[None]):
    CSS_PATH = css_paths()

    async def on_mount(self) -> None:
        self.theme = "textual-dark"
        page = PlayerScreen("ann", lambda table: None)
        await self.push_screen(page)
        base = 1_796_000_000  # 2026-11-30, seconds since the epoch
        ratings = (31, 48, 40, 66, 83, 79, 102)
        games = []
        for i, rating in enumerate(ratings):
            won = i % 3 != 2
            games.append(
                FinishedGame(
                    f"t{i + 1}",
                    ("ann", "bob", "Zoë"),
                    base + 3600 * i,
                    True,
                    (41, 30, 27) if won else (28, 40, 33),
                    (1, 2, 3) if won else (3, 1, 2),
                    (rating, 20 - i, 5 + i),
                )
            )
        games.append(
            FinishedGame("t9", ("ann", "Strong AI"), base + 3600 * 8, False, (35, 44), (2, 1))
        )
        page.show(tuple(reversed(games)))


def test_a_players_page_80x24(snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        assert snap_compare(PageApp(), terminal_size=(80, 24))
    finally:
        monkeypatch.undo()
        time.tzset()
