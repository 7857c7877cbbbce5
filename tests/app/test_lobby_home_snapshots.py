"""Screenshots of the lobby as home and the rematch, at 80x24: the lobby of a named
player with the tables waiting for their move at the top ("your move (5 h)") and
whose turn it is at each running table; the end screen of a host's table with the
rematch line after the player agreed. Each against a real host in the app's loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from paris_tui.app.app import ParisApp
from paris_tui.app.online.remote import Home, JoinTarget, open_link
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.net.client import HostClient, TokenStore
from tests.host.helpers import join_bot, put_record

from .helpers import screen_text
from .test_chat_app import near_the_end
from .test_lobby import _client, _SnapApp
from .test_lobby_turns import DAY, Clock


async def _until(pilot: Pilot[Any], done: Callable[[], bool], what: str) -> None:
    """Until ``done()``, within a minute (a loaded machine plays a tour slowly)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60.0
    while not done():
        assert loop.time() < deadline, f"never happened: {what}\n{screen_text(pilot.app)}"
        await pilot.pause(0.02)


def test_lobby_with_your_move_list_80x24(snap_compare: Any, tmp_path: Path) -> None:
    """Ann's lobby: two turn-based tables wait for her move (the longest first), a
    real-time game shows whose turn it is, a finished one is hers."""

    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, _SnapApp)
        clock = Clock()
        config = HostConfig(data_dir=tmp_path / "h", port=0, ai_delay=3600.0, clock=clock)
        host = Host(config)
        host.load()
        host.open_table(parse_seats("bob,cy"), seed=2)  # t1: real time, bob's turn
        host.open_table(parse_seats("ann,dee"), seed=3, move_time=DAY)  # t2: ann's move
        _, port = await host.start()
        clock.now += 5 * 3600.0
        host.open_table(parse_seats("ann,eve"), seed=4, move_time=3 * DAY)  # t3: later
        clock.now += 2 * 3600.0
        app.host = host
        client = await _client(port)
        app.push_screen(LobbyScreen(client, "ann", poll=3600.0))
        await _until(pilot, lambda: "your move (7 h)" in screen_text(app), "the your-move list")
        await pilot.pause()

    assert snap_compare(_SnapApp(), run_before=run_before, terminal_size=(80, 24))


def test_end_screen_with_rematch_80x24(snap_compare: Any, tmp_path: Path) -> None:
    """The end of a rated game at a host: ann pressed m, bob has not yet."""
    put_record(tmp_path / "host", "t1", near_the_end().record())  # bob,ann; bob ends it
    state: dict[str, Any] = {}

    class RematchApp(ParisApp):
        async def on_unmount(self) -> None:  # type: ignore[override]
            super().on_unmount()
            bob: HostClient | None = state.get("bob")
            if bob is not None:
                await bob.close()
            await state["host"].close()

    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, ParisApp)
        host = state["host"]
        _, port = await host.start()
        tokens = TokenStore(tmp_path / "ann" / "tokens.json")
        target = JoinTarget("127.0.0.1", port, "ann")
        app.home = Home(target, tokens)
        link = await open_link(target, tokens)
        bob = await join_bot(port, "bob")
        state["bob"] = bob.client
        app._seated(link)
        await _until(pilot, lambda: app.link is not None, "ann seated")
        await bob.play_to_end()
        await _until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
        await pilot.press("space")
        await _until(pilot, lambda: "Rated game" in screen_text(app), "the rating")
        await pilot.press("m")
        await _until(pilot, lambda: "waiting for bob" in screen_text(app), "ann's word")
        await pilot.pause()

    # Both players are at 127.0.0.1: rated only where the operator allows it.
    config = HostConfig(
        data_dir=tmp_path / "host", port=0, ai_delay=0.0, rated_addresses=("127.0.0.1",)
    )
    host = Host(config)
    host.load()
    state["host"] = host
    app = RematchApp(anim=0.0, ai_delay=0.0, cursor_blink=False, deliberate_keys=False)
    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
