"""Lobby set-ups several test files share, against a real host on loopback: accounts
with the first one's token kept where the lobby finds it, a lobby app of a player
(with that token: its friends and tournaments asked), and the finished-games list.
Every wait is bounded (:func:`_until`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from paris_tui.app.screens.finished_games import FinishedGamesScreen
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.app.start.resources import css_paths
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.protocol import Seated

from .helpers import screen_text

__all__ = [
    "TIMEOUT",
    "UNSET",
    "LobbyApp",
    "_until",
    "finished_games",
    "lobby_app",
    "signed_up",
]

TIMEOUT = 15.0
UNSET = object()


class LobbyApp(App[None]):
    """Shows the lobby and keeps what it dismissed with."""

    CSS_PATH = css_paths()

    def __init__(self, client: HostClient, name: str | None, **lobby: Any) -> None:
        super().__init__()
        self.client = client
        self.player = name
        self.lobby = lobby
        self.result: object = UNSET

    def on_mount(self) -> None:
        self.theme = "textual-dark"
        screen = LobbyScreen(self.client, self.player, poll=0.3, **self.lobby)
        self.push_screen(screen, self._done)

    def _done(self, result: object) -> None:
        self.result = result


async def _until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    for _ in range(5000):
        if done():
            return
        if loop.time() > deadline:
            break
        await pilot.pause(0.02)
    raise AssertionError(f"never happened: {what}\n{screen_text(pilot.app)}")


async def signed_up(
    tokens_at: Path, port: int, *names: str
) -> tuple[TokenStore, str, dict[str, Seated]]:
    """Each of ``names`` joins the host at 127.0.0.1:``port`` once (its account), the
    first one's token kept in ``tokens_at`` as ``paris-tui join`` keeps it: the tokens,
    the host's address, and how each was seated (its token)."""
    address = f"127.0.0.1:{port}"
    tokens = TokenStore(tokens_at)
    seated: dict[str, Seated] = {}
    for name in names:
        client = await HostClient.connect("127.0.0.1", port)
        seated[name] = await client.join(name)
        await client.close()
    first = seated[names[0]].token
    assert first is not None
    tokens.put(address, names[0], first)
    return tokens, address, seated


@asynccontextmanager
async def lobby_app(
    port: int,
    name: str | None,
    tokens: TokenStore | None = None,
    address: str | None = None,
    *,
    friends: bool = False,
    size: tuple[int, int] = (80, 24),
) -> AsyncIterator[tuple[LobbyApp, Pilot[None], LobbyScreen]]:
    """``name``'s lobby app (with ``tokens`` for ``address``, if given) running at
    ``size``, once its lobby shows (``friends``: and has its friends from the host); the
    app's connection is closed as the block ends."""
    client = await HostClient.connect("127.0.0.1", port)
    lobby_options = {} if tokens is None else {"tokens": tokens, "address": address}
    app = LobbyApp(client, name, **lobby_options)
    try:
        async with app.run_test(size=size) as pilot:
            await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            if friends:
                await _until(pilot, lambda: lobby.friends.info is not None, "the friends asked")
            yield app, pilot, lobby
    finally:
        await client.close()


@asynccontextmanager
async def finished_games(
    port: int, name: str, *, size: tuple[int, int] = (80, 24)
) -> AsyncIterator[tuple[LobbyApp, Pilot[None], FinishedGamesScreen]]:
    """``name``'s lobby app with the host's finished games listed (``g``)."""
    async with lobby_app(port, name, size=size) as (app, pilot, _lobby):
        await _until(pilot, lambda: "g finished games" in screen_text(app), "the keys")
        await pilot.press("g")
        await _until(pilot, lambda: "Your games first" in screen_text(app), "the list")
        screen = app.screen
        assert isinstance(screen, FinishedGamesScreen)
        yield app, pilot, screen
