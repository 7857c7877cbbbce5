"""Friends in the lobby: ``f`` keeps a list, a notice when a friend comes in; the box
says in words what each Enter did (or why not), and the requests both ways."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.screen import Screen
from textual.widgets import Static

from paris_tui.app.online.friends import FriendsScreen
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import FriendsInfo, FriendsRequest

from .helpers import _plain, widgets_text
from .lobbies import lobby_app, signed_up
from .test_lobby import UNSET, _until, hosting


async def test_f_keeps_friends_and_the_lobby_says_when_one_comes_in(tmp_path: Path) -> None:
    async with hosting(tmp_path, "ann,bob") as (_host, port):
        tokens, address, seated = await signed_up(
            tmp_path / "client" / "tokens.json", port, "ann", "bob"
        )
        asking = await HostClient.connect("127.0.0.1", port)
        # bob asked for ann: her Enter makes them friends
        asking.send(FriendsRequest("bob", seated["bob"].token, "add", "ann"))
        while not isinstance(await asking.receive(5.0), FriendsInfo):
            pass
        await asking.close()
        async with lobby_app(port, "ann", tokens, address, friends=True) as (app, pilot, lobby):
            await pilot.press("f")
            await _until(pilot, lambda: isinstance(app.screen, FriendsScreen), "the list")
            assert "Asking you (type the name to accept): bob" in widgets_text(app)
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
        assert app.result is None or app.result is UNSET
        await asyncio.sleep(0)


def box_text(screen: Screen[object]) -> str:
    """The words of one screen only (the box, not the lobby's status line behind it)."""
    return "\n".join(_plain(w.content) for w in screen.query(Static))


async def test_the_friends_box_says_in_words_what_each_enter_did(tmp_path: Path) -> None:
    """A name that is no account, a request (the other's acceptance heard live), all
    said in the box itself, not only in the lobby's status line behind it."""
    async with hosting(tmp_path, "ann,bob") as (_host, port):
        tokens, address, seated = await signed_up(
            tmp_path / "client" / "tokens.json", port, "ann", "bob"
        )
        async with lobby_app(port, "ann", tokens, address, friends=True) as (app, pilot, lobby):
            await pilot.press("f")
            await _until(pilot, lambda: isinstance(app.screen, FriendsScreen), "the box")
            box = app.screen
            await pilot.press(*"cat", "enter")
            await _until(
                pilot,
                lambda: "There is no account cat on this host" in box_text(box),
                "the box says cat is nobody",
            )
            await pilot.press(*"bob", "enter")
            await _until(pilot, lambda: "You asked bob." in box_text(box), "asked, said")
            assert "Asked by you, waiting for them: bob" in box_text(box)
            bob = await HostClient.connect("127.0.0.1", port)
            bob.send(FriendsRequest("bob", seated["bob"].token, "add", "ann"))
            await _until(
                pilot,
                lambda: "bob and you are friends now" in box_text(box),
                "the acceptance, said in the box",
            )
            assert "bob  here" in box_text(box)
            await bob.close()
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is lobby, "back in the lobby")
            await pilot.press("q")
        await asyncio.sleep(0)


async def test_the_friends_field_never_takes_in_what_it_would_draw_raw(tmp_path: Path) -> None:
    """A field draws its value as it is: a pasted ``ESC ] 52`` (set the terminal's
    clipboard) or bidi override would reach the terminal as typed (as the chat field's
    did, found by hand). The friends box's name field refuses such a paste whole and
    says why it was not pasted; a plain name goes in."""
    from textual import events
    from textual.widgets import Input

    async with hosting(tmp_path, "ann,bob") as (_host, port):
        tokens, address, _ = await signed_up(tmp_path / "client" / "tokens.json", port, "ann")
        async with lobby_app(port, "ann", tokens, address, friends=True) as (app, pilot, _lobby):
            await pilot.press("f")
            await _until(pilot, lambda: isinstance(app.screen, FriendsScreen), "the box")
            box = app.screen
            field = box.query_one("#friends-input", Input)
            for hostile in ("b\u202eob", "x\x1b]52;c;aGk=\x07"):
                app.post_message(events.Paste(hostile))
                await pilot.pause()
                assert field.value == "", (hostile, field.value)
                assert "Not pasted: " in box_text(box)
            app.post_message(events.Paste("bob"))
            await pilot.pause()
            assert field.value == "bob"
