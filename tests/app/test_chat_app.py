"""Table chat in the app: the chat pane draws every line literally, ``c``
says a line, F2-F7 a canned phrase (sent as its id), ``/mute`` hides a writer here
(and the host sends none of the writer's next lines);
the end screen has the same pane and keys.

A real host on 127.0.0.1 in this process; Ann is the app, Bob a bot client.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import cast

from hostile_corpus import CORPUS
from textual.app import App
from textual.pilot import Pilot

from paris_tui.app.app import ParisApp
from paris_tui.app.online.chat import ChatPane, ChatPrompt, speaking_as
from paris_tui.app.online.remote import JoinTarget, Link, LobbyStart, open_link
from paris_tui.app.screens.end import EndScreen
from paris_tui.core import Game, Move
from paris_tui.core.text import InvalidChatError, normalize_chat
from paris_tui.host.referee import Referee, parse_seats
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.protocol import Chat, ChatLine, MutesInfo, MutesRequest, Seated, Watching
from tests.host.helpers import TIMEOUT, join_bot, put_record, running_host

from .helpers import find_game, press, screen_text
from .test_layout_fit import check_screen

MAX_STEPS = 500


def make_app(link: Link) -> ParisApp:
    return ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False, deliberate_keys=False)


async def heard(client: HostClient) -> ChatLine:
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, ChatLine) and message.name == "ann":  # not bob's own echo
            return message
    raise AssertionError("no chat line came")


async def echoed(client: HostClient, text: str) -> None:
    """Until ``client`` reads its own line ``text`` back: the host has sent it to
    every reader it sends it to (one fan-out), or to none."""
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, ChatLine) and message.text == text:
            return
    raise AssertionError(f"{text!r} never came back")


async def until(pilot: Pilot[object], test: object) -> None:
    for _ in range(MAX_STEPS):
        if test():  # type: ignore[operator]
            return
        await pilot.pause(0.01)
    raise AssertionError("it never happened")


async def never_shown(
    pilot: Pilot[object], app: App[object], pane: ChatPane, writer: HostClient, text: str
) -> None:
    """``writer`` (muted) says ``text``; the host sends it to its readers, and then
    a line of ann's own (F2), read after it would have been: ``text`` never reached
    the pane nor the screen."""
    writer.send(Chat(text))
    await echoed(writer, text)
    await press(pilot, "f2")
    await until(pilot, lambda: pane.lines_heard[-1].phrase == "hello")
    await pilot.pause()
    assert text not in [line.text for line in pane.lines_heard]
    assert text not in screen_text(app)


def pane_text(pane: ChatPane) -> str:
    return "\n".join(strip.text for strip in pane.lines)


def markup_lines() -> list[str]:
    """The corpus's markup cases that are chat lines (drawn as typed, or it is a bug)."""
    out = []
    for case in CORPUS:
        if not case.label.startswith("markup"):
            continue
        try:
            out.append(normalize_chat(case.text))
        except InvalidChatError:
            continue
    return out


async def test_chat_is_drawn_literally_said_by_keys_and_muted_here(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=3) as (host, port):
        host.chat.owners.limit = 100  # this test says more than five lines in ten seconds
        tokens = TokenStore(tmp_path / "ann" / "tokens.json")
        link = await open_link(JoinTarget("127.0.0.1", port, "ann"), tokens)
        bob = await join_bot(port, "bob")
        app = make_app(link)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            game = find_game(app)
            assert game is not None
            pane = game.query_one(ChatPane)
            assert not pane.display or not pane.has_class("-shown")  # nothing said yet
            hostile = markup_lines()
            assert "[@click=app.quit]go" in hostile and "[red]x[/]" in hostile
            for text in hostile:
                bob.client.send(Chat(text))
            await until(pilot, lambda: len(pane.lines_heard) == len(hostile))
            await pilot.pause()
            assert pane.display and app.is_running  # no click action ran
            drawn = pane_text(pane)
            for text in hostile:
                assert text in drawn.replace("\n", ""), text
            # c opens the prompt; Enter says the line, as typed.
            await press(pilot, "c")
            await until(pilot, lambda: isinstance(app.screen, ChatPrompt))
            await pilot.press(*"gl [b]hf")
            await press(pilot, "enter")
            line = await heard(bob.client)
            assert (line.name, line.seat, line.text) == ("ann", 0, "gl [b]hf")
            assert isinstance(app.screen, ChatPrompt)  # still in the chat: Escape leaves it
            await press(pilot, "escape")
            # F6 says "thanks" as its id; each reader words it.
            await until(pilot, lambda: app.screen is game)
            await press(pilot, "f6")
            line = await heard(bob.client)
            assert line.phrase == "thanks" and line.text is None
            await until(pilot, lambda: "Thanks!" in pane_text(pane))
            assert "● ann: gl [b]hf" in pane_text(pane).replace("\n", "")
            # /mute bob hides his lines on this terminal at once (those heard before),
            # and the host, keeping it with the account, sends none of his next ones.
            await press(pilot, "c")
            await until(pilot, lambda: isinstance(app.screen, ChatPrompt))
            await pilot.press(*"/mute bob")
            await press(pilot, "enter")
            await until(pilot, lambda: "hidden here" in pane_text(pane))
            await press(pilot, "escape")
            assert "[red]x[/]" not in pane_text(pane)
            await until(pilot, lambda: app.link.table.chat_mutes == ("bob",))  # type: ignore[union-attr]
            await never_shown(pilot, app, pane, bob.client, "can you read me")
            # Unmuted, and another screen on top (help here, the end screen at the end):
            # a line heard meanwhile comes as a notice, as plain text.
            await press(pilot, "c")
            await until(pilot, lambda: isinstance(app.screen, ChatPrompt))
            await pilot.press(*"/unmute bob")
            await press(pilot, "enter")
            await until(pilot, lambda: "[red]x[/]" in pane_text(pane))
            await press(pilot, "escape")
            notices: list[str] = []
            game.notify = lambda message, **_: notices.append(str(message))  # type: ignore[method-assign,assignment]
            await press(pilot, "question_mark")
            await until(pilot, lambda: app.screen is not game)
            bob.client.send(Chat("[@click=app.quit]over here"))
            await until(pilot, lambda: bool(notices))
            assert notices == ["▲ bob: [@click=app.quit]over here"] and app.is_running
        await bob.client.close()
        await asyncio.sleep(0)


def near_the_end(names: str = "bob,ann") -> Referee:
    """Table t1 one move before its end, that move the first seat's (bob's: a bot)."""
    for seed in range(1, 60):
        referee = Referee.new("t1", parse_seats(names), seed=seed)
        moves: list[tuple[int, Move]] = []
        while not referee.is_over:
            seat = referee.to_move
            assert seat is not None
            move = referee.view(seat).legal_moves[0]
            referee.play(seat, move, referee.move_count)
            moves.append((seat, move))
        if moves[-1][0] != 0:
            continue
        referee = Referee.new("t1", parse_seats(names), seed=seed)
        for seat, move in moves[:-1]:
            referee.play(seat, move, referee.move_count)
        return referee
    raise AssertionError("no seed ends on the first seat's move")


async def test_the_end_screen_has_the_table_chat_and_fits_80x24(tmp_path: Path) -> None:
    """After the game the players talk ("gg") on the end screen: the lines
    said during the game are there, new ones are drawn as typed (the hostile corpus's
    markup), ``c`` and F2-F7 say lines, ``/mute`` hides a writer; no notice is needed."""
    put_record(tmp_path / "host", "t1", near_the_end().record())
    # Both players are at 127.0.0.1: rated only where the operator allows it.
    async with running_host(tmp_path / "host", rated_addresses=("127.0.0.1",)) as (host, port):
        host.chat.owners.limit = 100  # this test says more than five lines in ten seconds
        tokens = TokenStore(tmp_path / "ann" / "tokens.json")
        link = await open_link(JoinTarget("127.0.0.1", port, "ann"), tokens)
        bob = await join_bot(port, "bob")
        app = make_app(link)
        notices: list[str] = []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            game = find_game(app)
            assert game is not None
            game.notify = lambda message, **_: notices.append(str(message))  # type: ignore[method-assign,assignment]
            bob.client.send(Chat("gl hf"))
            await until(pilot, lambda: bool(game.query_one(ChatPane).lines_heard))
            await bob.play_to_end()  # bob's move ends the game
            await until(
                pilot, lambda: isinstance(app.screen, EndScreen) and app.screen.query("#end-chat")
            )
            end = app.screen
            assert isinstance(end, EndScreen)
            pane = end.query_one(ChatPane)
            await until(pilot, lambda: "gl hf" in pane_text(pane))  # the game's talk
            hostile = markup_lines()
            for text in hostile:
                bob.client.send(Chat(text))
            bob.client.send(Chat("gg [b]ann"))
            await until(pilot, lambda: "gg [b]ann" in pane_text(pane) and end.rated is not None)
            await pilot.pause()
            assert app.is_running and app.screen is end  # no click action ran
            await press(pilot, "enter")  # a hidden Quit button does not end the session
            await pilot.pause()
            assert app.is_running and app.screen is end
            drawn = pane_text(pane).replace("\n", "")
            for text in hostile:
                assert text in drawn, text
            # 80x24: the whole result, the chat's last line and its key.
            rows = screen_text(app).split("\n")
            assert rows[0].strip() == "Game over"
            assert any("wins" in r or "share" in r for r in rows), rows
            assert any("Final scores" in r for r in rows) and any("Rated game" in r for r in rows)
            assert any(r.strip() == "● bob: gg [b]ann" for r in rows), rows
            assert "c Chat" in rows[-1]
            problems = check_screen(app)  # nothing runs past, is cut or hidden
            assert not problems, "\n".join(map(str, problems))
            # c says a line as typed; F7 says "good game" as its id.
            await press(pilot, "c")
            await until(pilot, lambda: isinstance(app.screen, ChatPrompt))
            await pilot.press(*"gg [i]bob")
            await press(pilot, "enter")
            line = await heard(bob.client)
            said = (line.name, line.seat, line.channel, line.text)
            assert said == ("ann", 1, "table", "gg [i]bob")
            await press(pilot, "escape")
            await until(pilot, lambda: app.screen is end)
            await press(pilot, "f7")
            line = await heard(bob.client)
            assert line.phrase == "good_game" and line.text is None
            await until(pilot, lambda: "▲ ann: Good game!" in pane_text(pane))
            # /mute bob hides his lines here, on the game screen's list too.
            await press(pilot, "c")
            await until(pilot, lambda: isinstance(app.screen, ChatPrompt))
            await pilot.press(*"/mute bob")
            await press(pilot, "enter")
            await until(pilot, lambda: "hidden here" in pane_text(pane))
            await press(pilot, "escape")
            assert "gg [b]ann" not in pane_text(pane)
            assert "BOB" in game.query_one(ChatPane).muted
            accounts = host.accounts
            assert accounts is not None
            ann = accounts.find("ann")
            assert ann is not None
            await until(pilot, lambda: [a.name for a in accounts.chat_mutes(ann.id)] == ["bob"])
            await never_shown(pilot, app, pane, bob.client, "can you read me")
        assert notices == []  # every line was drawn in the end screen's pane
        await bob.client.close()
        await asyncio.sleep(0)


async def test_mutes_are_the_accounts_the_host_keeps_them(tmp_path: Path) -> None:
    """A player's mutes are kept with the account. Ann muted Bob at another
    door: her app hides his lines from the start; ``/unmute bob`` here is kept too."""
    async with running_host(tmp_path / "host", ["ann,bob"], seed=3) as (host, port):
        bob = await join_bot(port, "bob")
        other_door = await join_bot(port, "ann")
        other_door.client.send(MutesRequest("add", "bob"))
        for _ in range(MAX_STEPS):
            answer = await other_door.client.receive(TIMEOUT)
            if isinstance(answer, MutesInfo):
                break
        assert answer == MutesInfo(("bob",))
        token = other_door.seated.token
        assert token is not None
        await other_door.client.close()
        tokens = TokenStore(tmp_path / "ann" / "tokens.json")
        tokens.put(f"127.0.0.1:{port}", "ann", token)
        link = await open_link(JoinTarget("127.0.0.1", port, "ann"), tokens)
        app = make_app(link)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            game = find_game(app)
            assert game is not None
            pane = game.query_one(ChatPane)
            bob.client.send(Chat("psst ann"))  # the host sends it to bob, not to ann
            await echoed(bob.client, "psst ann")
            await press(pilot, "f2")  # ann's own line, read after bob's would have been
            await until(pilot, lambda: bool(pane.lines_heard))
            await pilot.pause()
            assert "bob" in pane.muted and [line.phrase for line in pane.lines_heard] == ["hello"]
            await press(pilot, "c")
            await until(pilot, lambda: isinstance(app.screen, ChatPrompt))
            await pilot.press(*"/unmute bob")
            await press(pilot, "enter")
            accounts = host.accounts
            assert accounts is not None
            ann = accounts.find("ann")
            assert ann is not None
            await until(pilot, lambda: accounts.chat_mutes(ann.id) == [])
            bob.client.send(Chat("now you can"))
            await until(pilot, lambda: "now you can" in pane_text(pane))
        await bob.client.close()
        await asyncio.sleep(0)


def test_a_watcher_from_the_lobby_chats_under_its_name_and_the_prompt_says_how() -> None:
    """An SSH login that watches from the lobby chats as its name (the door's
    ticket proves it), and the prompt says so; a watcher nothing proves is told that
    its lines show as "A watcher"."""
    game = Game.new(["ann", "bob"], seed=1)
    watching = Watching("t1", game.view(None), (), ())
    client = cast(HostClient, SimpleNamespace(welcome=None, endpoint=("127.0.0.1", 2222)))
    start = LobbyStart(JoinTarget("127.0.0.1", 2222, "zoe"), client, None, ticket="k" * 43)
    link = start.link(watching, "zoe")
    assert link.table.chat_as == ("zoe", "k" * 43) and link.target.watch == "t1"
    assert speaking_as(link.table, over=False) == (
        "You watch as zoe: until the game ends, your lines reach the watchers only."
    )
    assert (
        speaking_as(link.table, over=True) == "You watch as zoe: your lines show under that name."
    )
    nobody = LobbyStart(JoinTarget("127.0.0.1", 2222), client, None).link(watching, None)
    said = speaking_as(nobody.table, over=True)
    assert said is not None and said.startswith("You watch without an account")
    seated = Seated("t1", 0, None, game.view(0), (), ())
    assert speaking_as(start.link(seated, "ann").table, over=False) is None


async def test_a_mute_note_stays_when_the_hosts_list_comes_back() -> None:
    """The host's answer to a /mute (its list of mutes) redraws the pane: the note that
    /mute wrote must stay (it was wiped when the answer came before the player read it)."""
    from textual.app import App, ComposeResult

    class PaneApp(App[None]):
        def compose(self) -> ComposeResult:
            yield ChatPane()

    async with PaneApp().run_test(size=(60, 12)) as pilot:
        pane = pilot.app.query_one(ChatPane)
        pane.hear(ChatLine("t1", "bob", 1, "table", "hi ann", None, 0))
        assert pane.command("/mute bob")
        pane.mutes_heard(("bob",))  # the host's list, as it comes back
        await pilot.pause()
        text = pane_text(pane)
        assert "bob's lines are hidden here." in text and "hi ann" not in text
        assert pane.command("/unmute bob")
        pane.mutes_heard(())
        await pilot.pause()
        text = pane_text(pane)
        assert "hi ann" in text and "hidden here" in text and "shown again" in text


async def test_the_chat_field_never_takes_in_what_it_would_draw_raw(tmp_path: Path) -> None:
    """An input field draws its value as it is. Found by hand: a paste into the chat
    prompt showed its bidi override raw (a terminal that reorders turns the rest of
    the row around), and an ``ESC ] 52`` (set the clipboard) or other control would
    reach the terminal the same way before the line could be refused. Such a paste
    (or key) is refused whole, the prompt says why, and the field is unchanged; plain
    text, markup included, goes in as before."""
    from textual import events
    from textual.widgets import Input, Static

    async with running_host(tmp_path / "host", ["ann,bob"], seed=3) as (_host, port):
        tokens = TokenStore(tmp_path / "ann" / "tokens.json")
        link = await open_link(JoinTarget("127.0.0.1", port, "ann"), tokens)
        bob = await join_bot(port, "bob")
        app = make_app(link)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert find_game(app) is not None
            await press(pilot, "c")
            await until(pilot, lambda: isinstance(app.screen, ChatPrompt))
            field = app.screen.query_one("#chat-input", Input)
            for hostile in ("hi \u202eevil", "x\x1b]52;c;aGk=\x07y", "a\x00b"):
                app.post_message(events.Paste(hostile))
                await pilot.pause()
                assert field.value == "", (hostile, field.value)
                problem = str(app.screen.query_one("#chat-problem", Static).render())
                assert "not text" in problem, problem
            app.post_message(events.Paste("gl [b]hf"))
            await pilot.pause()
            assert field.value == "gl [b]hf"
        await bob.client.close()
