"""Friends in the lobby (issue 22): ``f`` keeps a list, a notice when a friend comes in."""

from __future__ import annotations

import asyncio
from pathlib import Path

from paris_tui.app.online.friends import FriendsScreen
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.net.client import HostClient, TokenStore

from .helpers import widgets_text
from .test_lobby import UNSET, LobbyApp, _until, hosting


async def test_f_keeps_friends_and_the_lobby_says_when_one_comes_in(tmp_path: Path) -> None:
    async with hosting(tmp_path, "ann,bob") as (_host, port):
        address = f"127.0.0.1:{port}"
        tokens = TokenStore(tmp_path / "client" / "tokens.json")
        seated = {}
        for name in ("ann", "bob"):
            client = await HostClient.connect("127.0.0.1", port)
            seated[name] = await client.join(name)
            await client.close()
        assert seated["ann"].token is not None
        tokens.put(address, "ann", seated["ann"].token)
        client = await HostClient.connect("127.0.0.1", port)
        app = LobbyApp(client, "ann", tokens=tokens, address=address)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await _until(pilot, lambda: lobby.friends.info is not None, "the friends asked")
            await pilot.press("f")
            await _until(pilot, lambda: isinstance(app.screen, FriendsScreen), "the list")
            assert "No friends yet." in widgets_text(app)
            await pilot.press(*"Bob", "enter")
            await _until(pilot, lambda: "bob  away" in widgets_text(app), "bob listed")
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is lobby, "back in the lobby")
            bob = await HostClient.connect("127.0.0.1", port)
            await bob.join("bob", seated["bob"].token)
            await _until(
                pilot,
                lambda: "bob is here." in widgets_text(app),
                "the notice",
            )
            assert lobby.friends.info is not None
            assert lobby.friends.info.friends == (("bob", True),)
            await bob.close()
            await pilot.press("q")
        await client.close()
        assert app.result is None or app.result is UNSET
        await asyncio.sleep(0)
