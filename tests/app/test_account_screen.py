"""Account (paris_tui/app/screens/account.py) against a real host on loopback: a player
who is a name here gets a link code for another door; another terminal types it in
the lobby and takes the name's seat (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, Input

from paris_tui.app.screens.account import AccountScreen
from paris_tui.net.client import TokenStore
from paris_tui.net.protocol import Seated

from .helpers import screen_text, widgets_text
from .lobbies import lobby_app, signed_up
from .test_lobby import UNSET, LobbyApp, _client, _until, hosting


async def test_a_code_made_in_account_links_another_terminal_in_the_lobby(
    tmp_path: Path,
) -> None:
    async with hosting(tmp_path, "ann,bob") as (host, port):
        laptop_tokens, address, _ = await signed_up(
            tmp_path / "laptop" / "tokens.json", port, "ann"
        )
        # On the laptop, where she is Ann: Account, New link code.
        async with lobby_app(port, "ann", laptop_tokens, address) as (app, pilot, _lobby):
            await _until(pilot, lambda: "move 0 of" in screen_text(app), "listed")
            await pilot.press("a")
            await _until(pilot, lambda: "You are ann" in widgets_text(app), "proven")
            assert isinstance(app.screen, AccountScreen)
            assert "join terminals 1" in widgets_text(app)
            app.screen.query_one("#account-new-code", Button).press()
            await _until(pilot, lambda: "Good once" in widgets_text(app), "a code")
            screen = app.screen
            assert isinstance(screen, AccountScreen) and screen.info is not None
            code = screen.info.code
            assert code is not None
            assert f"--name ann --code {code}" in widgets_text(app)
            await pilot.press("escape")
        # The phone: no token; the lobby's Account takes the code, Enter sits.
        phone_tokens = TokenStore(tmp_path / "phone" / "tokens.json")
        async with lobby_app(port, "ann", phone_tokens, address) as (app, pilot, _lobby):
            await _until(pilot, lambda: "move 0 of" in screen_text(app), "listed")
            await pilot.press("enter")  # without the code: told whose name it is
            await _until(pilot, lambda: "is an account" in widgets_text(app), "refused")
            assert "open Account for a link code; then press a here" in widgets_text(app)
            await pilot.press("a")
            await _until(pilot, lambda: "type a link code" in widgets_text(app), "asks for a code")
            # The host's reason is a sentence of its own (issue 19: it lacked its full stop).
            assert "nor a link code.\nTo be this name here" in widgets_text(app)
            field = app.screen.query_one("#account-code-input", Input)
            assert field.has_focus
            await pilot.press(*code.lower(), "enter")
            await _until(pilot, lambda: "next seat or table" in widgets_text(app), "kept")
            await pilot.press("tab", "enter")
            await _until(pilot, lambda: app.result is not UNSET, "seated")
        seated = app.result
        assert isinstance(seated, Seated) and seated.seat == 0 and seated.token
        assert phone_tokens.get(address, "ann") == seated.token  # its own token, kept
        assert host.accounts is not None
        account = host.accounts.find("ann")
        assert account is not None
        assert [c.door for c in host.accounts.credentials(account.id)] == ["token", "token"]


async def test_the_code_field_never_takes_in_what_it_would_draw_raw(tmp_path: Path) -> None:
    """A field draws its value as it is: a pasted ``ESC ] 52`` (set the terminal's
    clipboard) or bidi override would reach the terminal as typed (as the chat field's
    did, found by hand). A link code is letters, digits and dashes: the code field
    takes nothing else; a code as shown goes in."""
    from textual import events

    async with hosting(tmp_path, "ann,bob") as (_host, port):
        address = f"127.0.0.1:{port}"
        client = await _client(port)
        app = LobbyApp(client, "ann", tokens=TokenStore(tmp_path / "t.json"), address=address)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "move 0 of" in screen_text(app), "listed")
            await pilot.press("a")
            await _until(pilot, lambda: isinstance(app.screen, AccountScreen), "account")
            field = app.screen.query_one("#account-code-input", Input)
            for hostile in ("K7XM\u202e2QPZ", "\x1b]52;c;aGk=\x07"):
                app.post_message(events.Paste(hostile))
                await pilot.pause()
                assert field.value == "", (hostile, field.value)
            app.post_message(events.Paste("K7XM-2QPZ"))
            await pilot.pause()
            assert field.value == "K7XM-2QPZ"
        await client.close()


async def test_a_door_players_account_names_no_internal_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 17 follow-up: in an SSH or browser player's app, Account said "Account on
    127.0.0.1:PORT" and "paris-tui join 127.0.0.1:PORT ...": the app's loopback."""
    from paris_tui.app.online import remote

    monkeypatch.setattr(remote, "AT_DOOR", True)
    async with hosting(tmp_path, "ann,bob") as (_host, port):
        tokens, address, _ = await signed_up(tmp_path / "door" / "tokens.json", port, "ann")
        async with lobby_app(port, "ann", tokens, address, size=(100, 30)) as (app, pilot, _lobby):
            await _until(pilot, lambda: "move 0 of" in screen_text(app), "listed")
            await pilot.press("a")
            await _until(pilot, lambda: "You are ann" in widgets_text(app), "proven")
            app.screen.query_one("#account-new-code", Button).press()
            await _until(pilot, lambda: "Good once" in widgets_text(app), "a code")
            text = widgets_text(app)
            assert "Account on this host" in text and "--name ann --code" in text
            assert "127.0.0.1" not in text and str(port) not in text


def test_a_refusals_reason_becomes_a_sentence_in_its_script() -> None:
    from paris_tui.app.screens.account import _full_stop

    assert _full_stop("ann is an account on this host") == "ann is an account on this host."
    assert _full_stop("that code is wrong.") == "that code is wrong."
    assert _full_stop("這個名字是主機上的帳號") == "這個名字是主機上的帳號。"
