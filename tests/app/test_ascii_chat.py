"""The ascii glyph set at a host's table (played over SSH in a zh_TW terminal):
the chat pane's rule beside the log, the end screen's rule over its chat and the rated
game's line are drawn in ASCII too, as everything else is (a CJK terminal draws ``▏``,
``▔`` and ``→`` two cells wide)."""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from paris_tui.app.look.glyphs import set_glyphs
from paris_tui.app.online.chat import ChatPane
from paris_tui.app.online.remote import JoinTarget, open_link
from paris_tui.app.screens.end import EndScreen
from paris_tui.net.client import TokenStore
from paris_tui.net.protocol import Chat
from tests.host.helpers import join_bot, put_record, running_host

from .helpers import find_game, screen_text
from .test_chat_app import make_app, near_the_end, until


@pytest.fixture(autouse=True)
def ascii_glyphs() -> Iterator[None]:
    set_glyphs("ascii")
    yield
    set_glyphs("unicode")


def non_ascii(text: str) -> list[str]:
    """The characters drawn that are not ASCII, letters aside: words are not glyphs
    (the rating's "mu - 3σ" keeps its letter, as "Größe" does; paris_tui.app.look.glyphs)."""
    return sorted(
        {ch for ch in text if not ch.isascii() and not unicodedata.category(ch).startswith("L")}
    )


async def test_the_chat_and_the_rated_end_are_drawn_in_ascii(tmp_path: Path) -> None:
    put_record(tmp_path / "host", "t1", near_the_end().record())
    # Both players are at 127.0.0.1: rated only where the operator allows it.
    async with running_host(tmp_path / "host", rated_addresses=("127.0.0.1",)) as (_host, port):
        tokens = TokenStore(tmp_path / "ann" / "tokens.json")
        link = await open_link(JoinTarget("127.0.0.1", port, "ann"), tokens)
        bob = await join_bot(port, "bob")
        app = make_app(link)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            game = find_game(app)
            assert game is not None
            bob.client.send(Chat("gl hf"))
            await until(pilot, lambda: "gl hf" in screen_text(app))
            assert game.query_one(ChatPane).has_class("-shown")
            assert non_ascii(screen_text(app)) == []  # the pane's rule beside the log
            await bob.play_to_end()
            await until(
                pilot,
                lambda: isinstance(app.screen, EndScreen) and app.screen.rated is not None,
            )
            await until(pilot, lambda: "Rated game" in screen_text(app))
            await pilot.pause()
            text = screen_text(app)
            assert "gl hf" in text  # the end screen's chat, under its rule
            assert "(provisional)" in text  # two new accounts: no number yet, in words
            assert non_ascii(text) == []
        await bob.client.close()
        await asyncio.sleep(0)


async def test_the_lobbys_form_and_boxes_are_drawn_in_ascii(tmp_path: Path) -> None:
    """The new table's choices (``◀ open seat ▶``) and the account's box, in ascii."""
    from paris_tui.app.screens.account import AccountScreen
    from paris_tui.app.screens.lobby import LobbyScreen, NewTableScreen

    from .test_join import _lobby_app

    async with running_host(tmp_path / "host") as (_host, port):
        app, _tokens = await _lobby_app(port, "dan", tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await pilot.pause()
            text = screen_text(app)
            assert "< open seat >" in text
            assert non_ascii(text) == []
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, AccountScreen))
            await pilot.pause()
            assert non_ascii(screen_text(app)) == []
