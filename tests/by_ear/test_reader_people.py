"""The screen reader's lobby between games, against a real host on loopback: an
invitation said after the list (its number takes the kept seat), ``who`` (friends
first), ``games`` and ``games NAME`` (scores, the winner, rated or not), ``player
NAME`` (a page as lines, a provisional rating without a number), in English and
German."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from paris_tui import i18n
from paris_tui.app.online.remote import JoinTarget
from paris_tui.host.accounts.store import open_accounts
from paris_tui.host.ratings.store import open_ratings
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.protocol import Online
from paris_tui.reader.inbox import Inbox
from paris_tui.reader.lines import Lines
from paris_tui.reader.lobby import lobby
from paris_tui.reader.people import lobby_command, who_line


@asynccontextmanager
async def hosting(tmp_path: Path, *tables: str) -> AsyncIterator[tuple[Host, int]]:
    host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=0.0))
    host.load()
    for i, seats in enumerate(tables):
        host.open_table(parse_seats(seats), seed=7 + i)
    _, port = await host.start()
    try:
        yield host, port
    finally:
        await host.close()


TIMEOUT = 15.0


async def _until_said(out: Lines, text: str) -> str:
    for _ in range(750):
        said = "\n".join(out.said)
        if text in said:
            return said
        await asyncio.sleep(0.02)
    raise AssertionError(f"never said: {text}\n" + "\n".join(out.said[-30:]))


def _seed(data_dir: Path) -> None:
    root = data_dir / "host"
    accounts = open_accounts(root)
    ids = {name: accounts.create(name, None).id for name in ("eve", "fay")}
    accounts.close()
    ratings = open_ratings(root)
    ratings.finish(
        "r1:x",
        "r1",
        ["human"] * 2,
        {0: ids["eve"], 1: ids["fay"]},
        [30, 20],
        [1, 1],
        ["eve", "fay"],
    )
    ratings.close()


def test_who_says_friends_first_and_a_provisional_rating_without_a_number() -> None:
    online = [Online("bob", True, 123, 9), Online("cy", False, -31, 1), Online("dee")]
    assert who_line(online, ["DEE"], "ann") == (
        "Online, 3 players: dee (a friend, in the lobby); bob (at a table, rating 12.3); "
        "cy (in the lobby, rating provisional)."
    )
    assert who_line([Online("ann")], [], "Ann") == (
        "Nobody else with an account is online here now."
    )


def test_the_lobby_words_are_read_in_either_language() -> None:
    assert lobby_command("who") == ("who", "")
    assert lobby_command("Games Bob") == ("games", "Bob")
    assert lobby_command("player  Zoë ") == ("player", "Zoë")
    assert lobby_command("3") is None and lobby_command("watch 1") is None


async def test_who_games_a_page_and_an_invitation_by_ear(tmp_path: Path) -> None:
    _seed(tmp_path / "host-data")
    async with hosting(tmp_path, "cy,ai:random") as (_, port):
        cy = await HostClient.connect("127.0.0.1", port)
        await cy.join("cy")  # online, at a table
        tokens = TokenStore(tmp_path / "tokens.json")
        ann = await HostClient.connect("127.0.0.1", port)
        await ann.open_table("gus", ("me", "invite:bob", "open"))
        out = Lines(io.StringIO(), width=lambda: 200)
        inbox = Inbox()
        client = await HostClient.connect("127.0.0.1", port)
        target = JoinTarget("127.0.0.1", port, "bob")
        task = asyncio.create_task(lobby(target, client, tokens, out, inbox))
        said = await _until_said(out, "gus invites you to table t2: type 1 to take your seat.")
        assert "a seat kept for bob" in said
        inbox.put("who")
        said = await _until_said(out, "Online, ")
        assert "cy (at a table" in said
        inbox.put("games")
        said = await _until_said(out, "The newest finished games, 1 of 1:")
        assert "r1, " in said and "eve 30 (won), fay 20; rated." in said
        inbox.put("games cy")
        await _until_said(out, "No finished games of cy here.")
        inbox.put("player eve")
        said = await _until_said(out, "eve: 1 finished game, 1 won.")
        assert "Rating: provisional, 1 rated game of the 5 that give a number." in said
        count = len(out.said)
        inbox.put("1")  # the number the invitation said (invitations come first)
        await _until_said(out, "You sit at table t2")
        assert "waiting for 1 more player" in "\n".join(out.said[count:])
        task.cancel()
        for other in (cy, ann, client):
            other.abort()
        await asyncio.gather(task, return_exceptions=True)


async def test_the_page_in_german(tmp_path: Path) -> None:
    _seed(tmp_path / "host-data")
    try:
        i18n.set_language("de")
        async with hosting(tmp_path) as (_, port):
            out = Lines(io.StringIO(), width=lambda: 200)
            inbox = Inbox()
            client = await HostClient.connect("127.0.0.1", port)
            task = asyncio.create_task(
                lobby(JoinTarget("127.0.0.1", port, "dee"), client, None, out, inbox)
            )
            await _until_said(out, "Tisch")
            inbox.put("spieler fay")
            said = await _until_said(out, "fay: 1 beendetes Spiel, 0 gewonnen.")
            assert "vorläufig" in said
            task.cancel()
            client.abort()
            await asyncio.gather(task, return_exceptions=True)
    finally:
        i18n.set_language("en")


async def test_new_with_invite_keeps_a_seat_for_that_name(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (_, port):
        out = Lines(io.StringIO(), width=lambda: 200)
        inbox = Inbox()
        client = await HostClient.connect("127.0.0.1", port)
        task = asyncio.create_task(
            lobby(JoinTarget("127.0.0.1", port, "gus"), client, None, out, inbox)
        )
        await _until_said(out, "No table is open")
        inbox.put("new")
        await _until_said(out, "Or invite:NAME for a seat kept for that player")
        inbox.put("invite:Bob")
        await _until_said(out, "You sit at table t1; waiting for 1 more player.")
        lister = await HostClient.connect("127.0.0.1", port)
        (table,) = await lister.tables()
        assert [(s.name, s.status) for s in table.seats] == [("gus", "present"), ("Bob", "free")]
        task.cancel()
        for other in (client, lister):
            other.abort()
        await asyncio.gather(task, return_exceptions=True)
