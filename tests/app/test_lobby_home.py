"""The lobby is home: every session at a host has the host's lobby beneath its table.
``q`` at a table (seated or watching) and on the end screen goes back to the lobby,
the seat kept (Enter on its table sits there again); only the lobby's q quits. A
login lands at a running real-time game, else in the lobby: never at a finished game.

A real :class:`~paris_tui.host.server.Host` in the test's loop, each app driven by
keys (Pilot); every wait is bounded."""

from __future__ import annotations

import asyncio
from pathlib import Path

from paris_tui.app.app import ParisApp
from paris_tui.app.online.remote import Home, JoinTarget, Link, LobbyStart, landing, open_link
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.net.client import TokenStore
from tests.host.helpers import join_bot, running_host

from .helpers import find_game, press, screen_text


def _app(
    port: int,
    name: str | None,
    tokens: TokenStore,
    *,
    link: Link | None = None,
    lobby: LobbyStart | None = None,
) -> ParisApp:
    home = Home(JoinTarget("127.0.0.1", port, name), tokens)
    return ParisApp(
        link=link,
        lobby=lobby,
        home=home,
        anim=0.0,
        ai_delay=0.0,
        cursor_blink=False,
        deliberate_keys=False,
    )


async def _until(done: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not done():  # type: ignore[operator]
        assert loop.time() < deadline, f"never happened: {what}"
        await asyncio.sleep(0.02)


def _lobby(app: ParisApp) -> LobbyScreen | None:
    return app.screen if isinstance(app.screen, LobbyScreen) else None


async def test_q_at_a_table_goes_to_the_lobby_and_the_seat_is_kept(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=6) as (host, port):
        tokens = TokenStore(tmp_path / "tokens.json")
        link = await open_link(JoinTarget("127.0.0.1", port, "ann"), tokens)
        app = _app(port, "ann", tokens, link=link)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(lambda: find_game(app) is not None, "the game screen")
            await _until(lambda: "Lobby" in screen_text(app), "q Lobby in the footer")
            room = host.rooms["t1"]
            await _until(lambda: 0 in room.seated, "ann seated")
            # The palette has it too (and Resign, at a host's running table).
            titles = [c.title for c in app.get_system_commands(app.screen)]
            assert "Lobby" in titles and "Resign" in titles and "Quit" in titles
            await press(pilot, "q")
            await _until(lambda: _lobby(app) is not None, "the lobby")
            assert app.is_running and find_game(app) is None
            await _until(lambda: 0 not in room.seated, "ann away")
            assert room.owners.get(0) is not None  # the seat is still ann's account's
            await _until(lambda: "t1" in screen_text(app), "the table listed")
            assert "Back in the lobby" in screen_text(app)
            await press(pilot, "enter")  # her table: she sits there again
            await _until(lambda: find_game(app) is not None, "the game screen again")
            await _until(lambda: 0 in room.seated, "ann seated again")
            assert app.link is not None and app.link.table.local_seats == (0,)
            await press(pilot, "q")
            await _until(lambda: _lobby(app) is not None, "the lobby again")
            await press(pilot, "q")  # the lobby's own q ends the session
            await _until(lambda: not app.is_running, "the app quit")


async def test_the_end_screens_and_a_watchers_q_go_to_the_lobby(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=6) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        try:
            await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        finally:
            await ann.client.close()
            await bob.client.close()
        assert host.rooms["t1"].referee.is_over
        tokens = TokenStore(tmp_path / "tokens.json")
        link = await open_link(JoinTarget("127.0.0.1", port, None, watch="t1"), tokens)
        app = _app(port, "zed", tokens, link=link)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(lambda: isinstance(app.screen, EndScreen), "the end screen")
            await _until(lambda: "Lobby" in screen_text(app), "q Lobby in the footer")
            await press(pilot, "q")
            await _until(lambda: _lobby(app) is not None, "the lobby")
            assert app.is_running
            await _until(lambda: "t1" in screen_text(app), "the table listed")
            await press(pilot, "w")  # watch it again, then q: the lobby again
            await _until(lambda: isinstance(app.screen, EndScreen), "the end screen again")
            await press(pilot, "q")
            await _until(lambda: _lobby(app) is not None, "the lobby again")


async def test_a_login_after_a_finished_game_lands_in_the_lobby(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=6) as (_host, port):
        target = JoinTarget("127.0.0.1", port, "ann")
        tokens = TokenStore(tmp_path / "tokens.json")
        landed = await landing(target, tokens)
        assert isinstance(landed, Link) and landed.table.local_seats == (0,)
        await landed.close()
        ann = await join_bot(port, "ann", token=landed.token)
        bob = await join_bot(port, "bob")
        try:
            await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        finally:
            await ann.client.close()
            await bob.client.close()
        landed = await landing(target, tokens)
        assert isinstance(landed, LobbyStart)
        landed.client.abort()
