"""Table chat through the host (issue 22): the rule, the limits, the mutes, the watchers'
channel, and where the lines are kept (never in the record).

Every test runs a real host on 127.0.0.1 in this process; the stores' own tests
(files and PostgreSQL) are in test_stores.py.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import CORPUS

from paris_tui.cli import main
from paris_tui.core.text import InvalidChatError, normalize_chat
from paris_tui.host.accounts.identity import DoorProof
from paris_tui.host.accounts.store import Account, digest
from paris_tui.host.limits import Window
from paris_tui.host.server import Limits
from paris_tui.host.services.chat import KEEP_LINES, ChatStore, FileChat, PostgresChat, SavedLine
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import (
    MAX_CLIENT_LINE,
    Chat,
    ChatLine,
    FriendsInfo,
    FriendsRequest,
    HostMessage,
    MutesInfo,
    MutesRequest,
    Refused,
    Seated,
    Watch,
    Watching,
    encode,
)

from .helpers import (
    HELLO,
    MAX_STEPS,
    TIMEOUT,
    Bot,
    RawClient,
    join_bot,
    running_host,
    store_args,
)


async def _next(client: HostClient, *kinds: type[HostMessage]) -> HostMessage:
    """The next message of one of ``kinds`` (presence and the like skipped; bounded)."""
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, kinds):
            return message
    raise AssertionError(f"never got {kinds}")


async def _mute(
    client: HostClient,
    muted: str,
    now: tuple[str, ...] | None = None,
    *,
    name: str | None = None,
    token: str | None = None,
) -> None:
    """Mute ``muted`` (a watcher as ``name``, proven by ``token``) and check the host's
    answer: the mutes now (default: just ``muted``)."""
    client.send(MutesRequest("add", muted, name, token))
    assert await _next(client, MutesInfo) == MutesInfo((muted,) if now is None else now)


async def _watcher(port: int, table: str = "t1") -> tuple[HostClient, Watching]:
    client = await HostClient.connect("127.0.0.1", port)
    return client, await client.watch(table)


FAST = Limits(rate=1000.0, burst=1000)  # the connection's message rate is not tested here


def _expected(text: str) -> str | None:
    try:
        return normalize_chat(text)
    except InvalidChatError:
        return None


async def test_the_hostile_corpus_through_the_host(tmp_path: Path) -> None:
    """Each hostile line a player says is refused (bad_chat, the connection stays) or
    reaches the other player and the watcher exactly as the core's rule keeps it."""
    async with running_host(tmp_path, ["ann,bob"], limits=FAST) as (host, port):
        host.chat.owners = Window(10_000, 10.0)  # this test is about the rule, not the rate
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        watcher, _ = await _watcher(port)
        said = 0
        for case in CORPUS:
            if len(encode(Chat(case.text))) > MAX_CLIENT_LINE:
                continue  # cut off for the line's size before it is read (test_protocol)
            expected = _expected(case.text)
            if case.refused and "length" not in case.label and expected is not None:
                # a name refused for its length may be a chat line; never a control character
                assert not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in case.text)
            ann.client.send(Chat(case.text))
            if expected is None:
                answer = await _next(ann.client, Refused, ChatLine)
                assert isinstance(answer, Refused) and answer.code == "bad_chat", case.label
                assert not answer.fatal
                continue
            said += 1
            for client in (ann.client, bob.client, watcher):
                line = await _next(client, ChatLine)
                assert isinstance(line, ChatLine)
                assert (line.name, line.seat, line.channel) == ("ann", 0, "table")
                assert line.text == expected and line.phrase is None, case.label
        assert said >= 10
        # Every control or bidi case of the corpus is refused.
        for case in CORPUS:
            if any(ord(c) < 32 or c in "\u202e\u2066\u200f\u200b\x7f\x9b" for c in case.text):
                assert _expected(case.text) is None, case.label
        for client in (ann.client, bob.client, watcher):
            await client.close()


async def test_lengths_are_bounded_in_cells_and_bytes(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        host.chat.owners = Window(10_000, 10.0)
        ann = await join_bot(port, "ann")
        for text, ok in (
            ("x" * 160, True),
            ("x" * 161, False),
            ("王" * 80, True),  # 160 cells, 240 bytes
            ("王" * 81, False),  # 162 cells
            ("e\u0301" * 150, True),  # NFC: é, 150 cells, 300 bytes
            ("a" + "\u0301" * 300, False),  # 601 bytes of marks on one letter
            ("   ", False),
        ):
            ann.client.send(Chat(text))
            answer = await _next(ann.client, Refused, ChatLine)
            assert isinstance(answer, ChatLine if ok else Refused), text[:10]
            if isinstance(answer, Refused):
                assert answer.code == "bad_chat"
        await ann.client.close()


async def test_lines_are_rate_limited_per_account_and_per_address(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        for i in range(5):
            ann.client.send(Chat(f"line {i}"))
            assert isinstance(await _next(ann.client, Refused, ChatLine), ChatLine)
        ann.client.send(Chat("one too many"))
        refused = await _next(ann.client, Refused, ChatLine)
        assert isinstance(refused, Refused) and refused.code == "chat_limited"
        assert not refused.fatal and "say the next in" in refused.message
        # Per account, not per connection: ann again on a new connection is still ann.
        again = await join_bot(port, "ann", token=ann.seated.token)
        again.client.send(Chat("from my other terminal"))
        refused = await _next(again.client, Refused)  # after the five lines of its history
        assert isinstance(refused, Refused) and refused.code == "chat_limited"
        # Bob, from the same address, has his own five.
        bob.client.send(Chat("hello"))
        assert isinstance(await _next(bob.client, Refused, ChatLine), ChatLine)
        # Anonymous watchers share their address's five, across connections.
        w1, _ = await _watcher(port)
        w2, _ = await _watcher(port)
        for i in range(5):
            (w1 if i % 2 else w2).send(Chat(f"w {i}"))
        heard = []
        for _ in range(MAX_STEPS):  # w1 hears all five (after the table's recent lines)
            line = await _next(w1, ChatLine, Refused)
            assert isinstance(line, ChatLine)
            if line.seat is None:
                heard.append(line.text)
            if len(heard) == 5:
                break
        assert sorted(heard) == [f"w {i}" for i in range(5)]  # two connections: any order
        w2.send(Chat("w 5"))
        refused = await _next(w2, Refused)
        assert isinstance(refused, Refused) and refused.code == "chat_limited"
        for client in (again.client, bob.client, w1, w2):
            await client.close()


async def test_watchers_have_their_own_channel_while_the_game_runs(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        watcher, _ = await _watcher(port)
        watcher.send(Chat("ann will lose"))
        line = await _next(watcher, ChatLine)
        assert isinstance(line, ChatLine)
        assert (line.name, line.seat, line.channel) == ("", None, "watchers")
        ann.client.send(Chat(phrase="good_luck"))
        for client in (ann.client, bob.client, watcher):
            said = await _next(client, ChatLine)
            assert isinstance(said, ChatLine) and said.phrase == "good_luck"
        await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        for bot in (ann, bob):  # nothing of the watchers' channel while the game ran
            assert not [m for m in bot.received if isinstance(m, ChatLine) and m.seat is None]
        # At the end, the players get the watchers' lines they were not sent.
        for bot in (ann, bob):
            revealed = await _next(bot.client, ChatLine)
            assert isinstance(revealed, ChatLine) and revealed.text == "ann will lose"
        # After the game, a watcher's line is the table's, and a returning player reads all.
        watcher.send(Chat("well played both"))
        late = await _next(bob.client, ChatLine)
        assert isinstance(late, ChatLine) and late.channel == "table"
        for client in (ann.client, bob.client, watcher):
            await client.close()


async def test_an_older_client_gets_no_chat_and_cannot_send_it(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        old = await RawClient.open(port)
        old.send(HELLO + b'{"type":"watch","table":"t1"}\n')
        assert b'"welcome"' in await old.line()
        assert b'"watching"' in await old.line()
        ann.client.send(Chat("hi"))
        assert isinstance(await _next(ann.client, ChatLine), ChatLine)
        old.send(b'{"type":"ping","nonce":7}\n')
        before = [await old.line()]
        while b'"pong"' not in before[-1] and len(before) < 10:
            before.append(await old.line())  # presence, maybe
        assert b'"pong"' in before[-1]
        assert not any(b'"chat"' in line for line in before)  # the chat line never came
        old.send(encode(Chat("me too")))
        assert b'"bad_message"' in await old.line()
        old.close()
        await ann.client.close()
        assert host.connections is not None


async def test_operator_mute_and_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        # While the host serves, the operator mutes ann (the store is shared).
        where = store_args(tmp_path)  # the same folder or database
        assert main(["host", "accounts", "mute", "ANN", *where]) == 0
        assert "muted" in capsys.readouterr().out
        ann.client.send(Chat("you are all terrible"))
        refused = await _next(ann.client, Refused, ChatLine)
        assert isinstance(refused, Refused) and refused.code == "muted" and not refused.fatal
        bob.client.send(Chat(phrase="thanks"))
        assert isinstance(await _next(bob.client, ChatLine, Refused), ChatLine)
        assert main(["host", "accounts", "list", "--json", *where]) == 0
        listed = {a["name"]: a["muted"] for a in json.loads(capsys.readouterr().out)["accounts"]}
        assert listed == {"ann": True, "bob": False}
        assert main(["host", "accounts", "unmute", "ann", *where]) == 0
        ann.client.send(Chat("sorry"))
        assert isinstance(await _next(ann.client, Refused, ChatLine), ChatLine)
        assert host.accounts is not None
        for client in (ann.client, bob.client):
            await client.close()


async def test_a_watcher_speaks_as_a_proven_account_or_as_nobody(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        watcher, _ = await _watcher(port)
        assert ann.seated.token is not None
        watcher.send(Chat("mine", name="ann", token=ann.seated.token))
        line = await _next(watcher, ChatLine, Refused)
        assert isinstance(line, ChatLine) and (line.name, line.seat) == ("ann", None)
        watcher.send(Chat("as ann", name="ann"))  # no proof
        refused = await _next(watcher, Refused, ChatLine)
        assert isinstance(refused, Refused) and refused.code == "name_taken"
        await ann.client.close()
        await watcher.close()


async def test_an_ssh_watcher_chats_under_the_login_name_which_becomes_an_account(
    tmp_path: Path,
) -> None:
    """Issue 22: a name is an account. An SSH login (a key the door verified) that only
    watches has no account yet; its first line makes the account with that key, as a
    first seat would, and the line is the name's. A name nothing proves is no one's:
    refused, and an anonymous line stays "A watcher"."""
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        await join_bot(port, "ann")
        assert host.accounts is not None and host.accounts.find("zoe") is None
        key = digest("z" * 43)
        ticket = host.issue_ticket(DoorProof("ssh", key, "zoe"))
        watcher, _ = await _watcher(port)
        watcher.send(Chat("hi from ssh", name="zoe", token=ticket))
        line = await _next(watcher, ChatLine, Refused)
        assert isinstance(line, ChatLine), line
        assert (line.name, line.seat, line.channel) == ("zoe", None, "watchers")
        zoe = host.accounts.find("zoe")
        assert zoe is not None and host.accounts.verify(zoe.id, "ssh", key)
        # Another key logging in as zoe is not zoe.
        other = host.issue_ticket(DoorProof("ssh", digest("y" * 43), "zoe"))
        watcher.send(Chat("me too", name="zoe", token=other))
        refused = await _next(watcher, Refused, ChatLine)
        assert isinstance(refused, Refused) and refused.code == "name_taken"
        # A name nobody has, and nothing proves: refused, saying so; no account made.
        watcher.send(Chat("hello", name="yve", token="t" * 43))
        refused = await _next(watcher, Refused, ChatLine)
        assert isinstance(refused, Refused) and refused.code == "name_taken"
        assert "no account" in refused.message and host.accounts.find("yve") is None
        await watcher.close()


@pytest.mark.files_only(
    "reads the chat's sidecar file and replays the record's file; "
    "test_both_stores_keep_chat_and_the_operators_mute_across_a_restart is its PostgreSQL twin"
)
async def test_chat_is_kept_beside_the_record_and_shown_again_after_a_restart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        await ann.play_until(lambda v: len(v.moves) >= 1)
        ann.client.send(Chat("route blue? [b]no[/b]"))
        await _next(ann.client, ChatLine)
        bob.client.send(Chat(phrase="your_turn"))
        await _next(bob.client, ChatLine)
        record_text = host.tables.record_text("t1")
        tokens = (ann.seated.token, bob.seated.token)
        await ann.client.close()
        await bob.client.close()
    path = tmp_path / "host" / "tables" / "t1.chat.jsonl"
    assert [json.loads(r)["text"] for r in path.read_text().splitlines()] == [
        "route blue? [b]no[/b]",
        None,
    ]
    assert record_text is not None and "route blue" not in record_text
    assert "paris_chat" not in record_text and "chat" not in json.loads(record_text)
    # replay --json: the record's numbers only.
    assert main(["replay", "--json", str(tmp_path / "host" / "tables" / "t1.json")]) == 0
    out = capsys.readouterr().out
    assert "route blue" not in out and "your_turn" not in out and "chat" not in out
    # A new host on the same folder shows the lines again to whoever sits or watches.
    async with running_host(tmp_path) as (_again, port):
        client = await HostClient.connect("127.0.0.1", port)
        assert isinstance(await client.join("ann", tokens[0]), Seated)
        first = await _next(client, ChatLine)
        second = await _next(client, ChatLine)
        assert isinstance(first, ChatLine) and first.text == "route blue? [b]no[/b]"
        assert isinstance(second, ChatLine) and second.phrase == "your_turn"
        await client.close()


def test_the_sidecar_stays_bounded_and_skips_a_torn_line(tmp_path: Path) -> None:

    chat = FileChat(tmp_path, max_bytes=8192)
    for i in range(120):  # about 11 KB of lines
        chat.add("t1", SavedLine(i, "ann", 0, "table", f"line {i}", None, 1))
    path = tmp_path / "t1.chat.jsonl"
    assert path.stat().st_size <= 8192 + 200
    with path.open("ab") as f:
        f.write(b'{"at":1,"name":"x","seat":0,"chann')  # a kill -9 mid-line
    kept = chat.recent("t1")
    assert len(kept) <= KEEP_LINES and kept[-1].text == "line 119"
    chat.add("t1", SavedLine(300, "ann", 0, "table", "after", None, 1))
    assert chat.recent("t1")[-1].text == "after"
    # A hand-edited line with an escape sequence is not a line.
    with path.open("ab") as f:
        f.write(b'\n{"at":1,"name":"x","seat":0,"channel":"table","text":"\\u001b[2J"}\n')
    assert chat.recent("t1")[-1].text == "after"


# --- both stores (files and PostgreSQL) ---------------------------------------------------


async def test_both_stores_keep_chat_and_the_operators_mute_across_a_restart(
    tmp_path: Path, store: str | None
) -> None:
    async with running_host(tmp_path, ["ann,bob"], database=store) as (host, port):
        assert isinstance(host.chat.store, FileChat if store is None else PostgresChat)
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        ann.client.send(Chat("王 [red]x[/]"))
        await _next(ann.client, ChatLine)
        watcher, _ = await _watcher(port)
        watcher.send(Chat("psst"))
        await _next(watcher, ChatLine)
        assert host.accounts is not None
        account = host.accounts.find("bob")
        assert account is not None
        host.accounts.set_muted(account.id, True)
        tokens = (ann.seated.token, bob.seated.token)
        for client in (ann.client, bob.client, watcher):
            await client.close()
        record = host.tables.record_text("t1")
    assert record is not None and "psst" not in record and "[red]" not in record
    async with running_host(tmp_path, database=store) as (again, port):
        kept = again.chat.store.recent("t1")
        assert [(k.name, k.channel, k.text) for k in kept] == [
            ("ann", "table", "王 [red]x[/]"),
            ("", "watchers", "psst"),
        ]
        client = await HostClient.connect("127.0.0.1", port)
        await client.join("bob", tokens[1])
        line = await _next(client, ChatLine)  # the players' line; not yet the watcher's
        assert isinstance(line, ChatLine) and line.text == "王 [red]x[/]"
        client.send(Chat("still muted?"))
        refused = await _next(client, Refused, ChatLine)
        assert isinstance(refused, Refused) and refused.code == "muted"
        watcher, _ = await _watcher(port)
        both = [await _next(watcher, ChatLine), await _next(watcher, ChatLine)]
        assert [b.text for b in both if isinstance(b, ChatLine)] == ["王 [red]x[/]", "psst"]
        await client.close()
        await watcher.close()


# --- the wire ---------------------------------------------------------------------------


def test_chat_messages_round_trip_and_a_hostile_host_line_is_refused() -> None:
    from paris_tui.net.protocol import ProtocolError, decode_client, decode_host

    for message in (Chat("hi [b]"), Chat(phrase="good_game"), Chat("x", name="zoe", token=None)):
        assert decode_client(encode(message)) == message
    line = ChatLine("t1", "ann", 0, "table", "王 [red]x[/]", None, 12)
    assert decode_host(encode(line)) == line
    for asked in (MutesRequest(), MutesRequest("add", "bob", "zoe", "t" * 43)):
        assert decode_client(encode(asked)) == asked
    assert decode_host(encode(MutesInfo(("bob", "王")))) == MutesInfo(("bob", "王"))
    with pytest.raises(ProtocolError):  # a name the host sends is checked by the name rule
        decode_host(b'{"type":"mutes","names":["a\\u202eb"]}\n')
    assert b"\\u738b" in encode(line)  # ASCII on the wire
    for bad in (
        b'{"type":"chat"}\n',  # neither
        b'{"type":"chat","text":"a","phrase":"thanks"}\n',  # both
        b'{"type":"chat","phrase":"you_suck"}\n',  # no such phrase
    ):
        with pytest.raises(ProtocolError):
            decode_client(bad)
    # What a host says is outside text to the client: checked by the core's rules again.
    for text, name in (("\x1b[2J", "ann"), ("hi", "a\u202eb"), ("\u2066x", "")):
        said = {"type": "chat", "table": "t1", "name": name, "seat": None}
        said |= {"channel": "table", "text": text, "phrase": None, "at": 1}
        with pytest.raises(ProtocolError):
            decode_host(json.dumps(said).encode() + b"\n")


# --- friends: "tell me when NAME is here" -------------------------------------------------


async def _friends(client: HostClient) -> FriendsInfo:
    answer = await _next(client, FriendsInfo, Refused)
    assert isinstance(answer, FriendsInfo), answer
    return answer


async def test_friends_are_kept_with_the_accounts_and_told_when_one_comes_in(
    tmp_path: Path, store: str | None
) -> None:
    async with running_host(tmp_path, ["ann,bob", "cy,dee"], database=store) as (_host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        cy = await join_bot(port, "cy")
        for name, bot in (("bob", bob), ("cy", cy)):  # friends both ways: they ask too
            bot.client.send(FriendsRequest(name, bot.seated.token, "add", "ann"))
            await _friends(bot.client)
        await bob.client.close()
        lobby = await HostClient.connect("127.0.0.1", port)  # Ann's lobby, another door
        lobby.send(FriendsRequest("ann", ann.seated.token, "add", "BOB"))
        info = await _friends(lobby)
        assert info.friends == (("bob", False),) and info.asking == ("cy",)
        assert (info.done, info.friend) == ("friends", "bob")
        lobby.send(FriendsRequest("ann", ann.seated.token, "add", "cy"))
        assert (await _friends(lobby)).friends == (("bob", False), ("cy", True))
        lobby.send(FriendsRequest("ann", ann.seated.token, "add", "nobody"))
        refused = await _next(lobby, Refused)
        assert isinstance(refused, Refused) and refused.code == "no_such_seat"
        lobby.send(FriendsRequest("ann", None, "show"))  # no proof: nothing is shown
        refused = await _next(lobby, Refused)
        assert isinstance(refused, Refused) and refused.code == "name_taken"
        # Bob comes back (any door): Ann's lobby is told; Cy, already here, is not news.
        bob = await join_bot(port, "bob", token=bob.seated.token)
        told = await _friends(lobby)
        assert told.arrived == "bob" and told.friends == (("bob", True), ("cy", True))
        ann_token, cy_token = ann.seated.token, cy.seated.token
        for client in (ann.client, bob.client, cy.client, lobby):
            await client.close()
    async with running_host(tmp_path, database=store) as (_again, port):
        ann = await join_bot(port, "ann", token=ann_token)
        ann.client.send(FriendsRequest("ann", ann_token, "remove", "bob"))
        assert (await _friends(ann.client)).friends == (("cy", False),)  # kept across a restart
        cy = await join_bot(port, "cy", token=cy_token)
        told = await _friends(ann.client)
        assert told.arrived == "cy"
        await ann.client.close()
        await cy.client.close()


# --- a player's mutes, kept with the account ------------------------------------------------


async def test_a_players_mutes_are_kept_with_the_account_across_a_restart(
    tmp_path: Path, store: str | None
) -> None:
    """Issue 22: ``/mute NAME`` is kept in the accounts store (SQLite or PostgreSQL): the
    host answers with the list, sends it after ``seated`` at any table and after a
    restart; a name that is no account, oneself, or an anonymous watcher change nothing."""
    async with running_host(tmp_path, ["ann,bob", "cy,dee"], database=store) as (_host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        cy = await join_bot(port, "cy")
        await _mute(ann.client, "BOB", ("bob",))
        for who in ("cy", "nobody", "ann", "a\u202eb"):
            ann.client.send(MutesRequest("add", who))
            await _next(ann.client, MutesInfo)
        ann.client.send(MutesRequest("show"))
        assert await _next(ann.client, MutesInfo) == MutesInfo(("bob", "cy"))
        ann.client.send(MutesRequest("remove", "cy"))
        assert await _next(ann.client, MutesInfo) == MutesInfo(("bob",))
        watcher, _ = await _watcher(port)  # no account: an empty list, nothing kept
        await _mute(watcher, "bob", ())
        watcher.send(MutesRequest("show", None, "ann", ann.seated.token))  # proven: Ann's
        assert await _next(watcher, MutesInfo) == MutesInfo(("bob",))
        token = ann.seated.token
        for client in (ann.client, bob.client, cy.client, watcher):
            await client.close()
    async with running_host(tmp_path, database=store) as (_again, port):
        client = await HostClient.connect("127.0.0.1", port)
        assert isinstance(await client.join("ann", token), Seated)
        assert await _next(client, MutesInfo) == MutesInfo(("bob",))
        await client.close()


# --- the host filters: a muted writer's lines never reach the muting account ---------------


async def _lines_until(client: HostClient, last: str) -> list[str]:
    """The texts of the chat lines ``client`` reads up to the one saying ``last``
    (presence, updates and the like skipped; bounded)."""
    heard: list[str] = []
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, ChatLine):
            heard.append(message.text or message.phrase or "")
            if heard[-1] == last:
                return heard
    raise AssertionError(f"never heard {last!r}: {heard}")


async def test_the_host_sends_no_line_of_a_muted_writer_to_the_muting_account(
    tmp_path: Path, store: str | None
) -> None:
    """Issue 22: filtering is the host's. Once ann mutes bob, none of bob's lines
    reach any of ann's connections: her seat, a watcher that watches as ann, her
    seat again after a reconnection (the history sent on the join), whatever
    client reads them; others (bob, an anonymous watcher) still get them. A
    watcher's line muted the same way is not sent to ann at the game's end."""
    async with running_host(tmp_path, ["ann,bob", "cy,dee"], database=store) as (_host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        cy = await join_bot(port, "cy")  # an account, to watch t1 under its name
        assert ann.seated.token is not None and cy.seated.token is not None
        await _mute(ann.client, "bob")
        anon, _ = await _watcher(port)
        as_ann = await HostClient.connect("127.0.0.1", port)
        await as_ann.watch("t1", name="ann", token=ann.seated.token)
        assert await _next(as_ann, MutesInfo) == MutesInfo(("bob",))  # sent after watching
        bob.client.send(Chat("from bob"))
        assert await _lines_until(bob.client, "from bob") == ["from bob"]  # said and sent
        ann.client.send(Chat("from ann"))
        assert await _lines_until(ann.client, "from ann") == ["from ann"]
        assert await _lines_until(as_ann, "from ann") == ["from ann"]
        assert await _lines_until(anon, "from ann") == ["from bob", "from ann"]
        assert await _lines_until(bob.client, "from ann") == ["from ann"]
        # The history of a join (a resume) leaves bob's lines out too; the list first.
        await ann.client.close()
        again = await join_bot(port, "ann", token=ann.seated.token)
        assert await _next(again.client, MutesInfo, ChatLine) == MutesInfo(("bob",))
        assert await _lines_until(again.client, "from ann") == ["from ann"]
        late = await HostClient.connect("127.0.0.1", port)  # and a watch's history
        await late.watch("t1", name="ann", token=ann.seated.token)
        assert await _lines_until(late, "from ann") == ["from ann"]
        await late.close()
        # A watcher's line (the watchers' channel): cy watches t1 as cy, ann mutes cy
        # from her watcher; the anonymous watcher hears cy, ann's watcher does not.
        cy_watch = await HostClient.connect("127.0.0.1", port)
        await cy_watch.watch("t1", name="cy", token=cy.seated.token)
        await _mute(as_ann, "cy", ("bob", "cy"), name="ann", token=ann.seated.token)
        cy_watch.send(Chat("psst", name="cy", token=cy.seated.token))
        assert (await _lines_until(cy_watch, "psst"))[-1] == "psst"
        anon.send(Chat("anon"))
        assert await _lines_until(as_ann, "anon") == ["anon"]
        assert await _lines_until(anon, "anon") == ["psst", "anon"]
        # The game's end: the players get the watchers' lines, ann none of cy's.
        bob.received.clear()
        await asyncio.gather(again.play_to_end(), bob.play_to_end())
        assert await _lines_until(bob.client, "anon") == ["psst", "anon"]
        assert await _lines_until(again.client, "anon") == ["anon"]
        # Unmuted: bob's lines reach ann again.
        again.client.send(MutesRequest("remove", "bob"))
        assert await _next(again.client, MutesInfo) == MutesInfo(("cy",))
        bob.client.send(Chat("back"))
        assert await _lines_until(again.client, "back") == ["back"]
        for client in (again.client, bob.client, cy.client, anon, as_ann, cy_watch):
            await client.close()


async def test_a_watch_under_a_name_is_proven_as_a_join(tmp_path: Path) -> None:
    """``watch`` with ``name`` (protocol 4): the account's token, or a door's ticket
    for a name that is nobody's yet; a wrong token, a name nothing proves, or an
    account's name without its proof are refused, as a join's."""
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        assert ann.seated.token is not None
        for name, token, code in (
            ("ann", "x" * 43, "bad_token"),
            ("ann", None, "name_taken"),
            ("yve", None, "name_taken"),
            ("a\u202eb", None, "bad_name"),
        ):
            client = await HostClient.connect("127.0.0.1", port)
            client.send(Watch("t1", name, token))
            refused = await _next(client, Refused, Watching)
            assert isinstance(refused, Refused) and refused.code == code, (name, refused)
            await client.close()
        assert host.accounts is not None and host.accounts.find("yve") is None
        ticket = host.issue_ticket(DoorProof("ssh", digest("z" * 43), "zoe"))
        zoe = await HostClient.connect("127.0.0.1", port)
        assert isinstance(await zoe.watch("t1", name="zoe", token=ticket), Watching)
        await zoe.close()
        await ann.client.close()


async def test_join_watch_with_a_name_watches_under_the_account(tmp_path: Path) -> None:
    """Issue 22: ``paris-tui join --watch t1 --name ann`` (a :class:`Link` to watch,
    with a name): the watch carries the token kept for the name, the host proves it
    as a join's, and the watcher reads the chat as ann (her mutes hold, her lines are
    hers); a name without its token, or with a wrong one, is refused (exit 4)."""
    from paris_tui.app.online.remote import EXIT_REFUSED, JoinError, JoinTarget, open_link
    from paris_tui.net.client import TokenStore

    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        assert ann.seated.token is not None
        await _mute(ann.client, "bob")
        target = JoinTarget("127.0.0.1", port, "ann", watch="t1")
        empty = TokenStore(tmp_path / "none" / "tokens.json")
        with pytest.raises(JoinError) as refused:
            await open_link(target, empty)
        assert refused.value.status == EXIT_REFUSED and refused.value.code == "name_taken"
        wrong = TokenStore(tmp_path / "wrong" / "tokens.json")
        wrong.put(target.address, "ann", "w" * 43)
        with pytest.raises(JoinError) as refused:
            await open_link(target, wrong)
        assert refused.value.code == "bad_token"
        tokens = TokenStore(tmp_path / "ann" / "tokens.json")
        tokens.put(target.address, "ann", ann.seated.token)
        link = await open_link(target, tokens)
        assert link.table.local_seats == () and link.table.table_id == "t1"  # watching
        assert link.table.chat_as == ("ann", ann.seated.token)
        account = host.accounts.find("ann") if host.accounts is not None else None
        assert account is not None
        watchers = host.rooms["t1"].watchers
        assert [host.chat.reader_account(c) for c in watchers] == [account.id]
        bob.client.send(Chat("not for ann"))  # muted by ann: not sent to her watcher
        await _next(bob.client, ChatLine)
        link.table.say(text="ann watching")  # under her name, as her account
        line = await _next(link.table.client, ChatLine)
        assert isinstance(line, ChatLine)
        assert (line.name, line.seat, line.text) == ("ann", None, "ann watching")
        await link.close()
        for client in (ann.client, bob.client):
            await client.close()


# --- who a line reaches: those there once it is kept ---------------------------------------


class HeldChat:
    """The host's chat store, but each line's keeping waits until the test lets it go
    (``kept`` set; bounded): ``keeping`` tells it started."""

    def __init__(self, inner: ChatStore) -> None:
        self.inner = inner
        self.keeping = threading.Event()
        self.kept = threading.Event()

    def add(self, table_id: str, line: SavedLine) -> None:
        self.keeping.set()
        self.kept.wait(TIMEOUT)
        self.inner.add(table_id, line)

    def recent(self, table_id: str, limit: int = KEEP_LINES) -> list[SavedLine]:
        return self.inner.recent(table_id, limit)


async def _watch_as(port: int, name: str, bot: Bot, mutes: tuple[str, ...]) -> HostClient:
    """A watcher of t1 as ``bot``'s account ``name``, once its history was sent (its
    list of mutes, sent with it, is ``mutes``)."""
    client = await HostClient.connect("127.0.0.1", port)
    await client.watch("t1", name=name, token=bot.seated.token)
    assert await _next(client, MutesInfo) == MutesInfo(mutes)
    return client


async def test_a_line_reaches_the_watchers_who_came_while_it_was_kept(
    tmp_path: Path, store: str | None
) -> None:
    """A watcher who comes while a line is being kept reads a history without it: the
    line is sent to it once kept, unless its account mutes the writer (asked then)."""
    async with running_host(tmp_path, ["ann,bob", "cy,dee"], database=store) as (host, port):
        ann, bob, cy, dee = [await join_bot(port, n) for n in ("ann", "bob", "cy", "dee")]
        await _mute(cy.client, "ann")
        await _mute(dee.client, "cy")
        held = HeldChat(host.chat.store)
        host.chat.store = held
        ann.client.send(Chat("while kept"))
        assert await asyncio.to_thread(held.keeping.wait, TIMEOUT)
        anon, _ = await _watcher(port)  # the history: nothing yet
        as_cy = await _watch_as(port, "cy", cy, ("ann",))
        as_dee = await _watch_as(port, "dee", dee, ("cy",))
        held.kept.set()
        bob.client.send(Chat("after"))
        assert await _lines_until(anon, "after") == ["while kept", "after"]
        assert await _lines_until(as_dee, "after") == ["while kept", "after"]
        assert await _lines_until(as_cy, "after") == ["after"]  # cy mutes ann
        for client in (ann.client, bob.client, cy.client, dee.client, anon, as_cy, as_dee):
            await client.close()


async def test_a_line_said_while_a_history_is_read_comes_once_in_it(
    tmp_path: Path, store: str | None
) -> None:
    """A watcher there before a line, whose history is still being read (its account's
    mutes) when the line is kept, reads it once, in the history, not twice."""
    async with running_host(tmp_path, ["ann,bob", "cy,dee"], database=store) as (host, port):
        ann, bob, cy, dee = [await join_bot(port, n) for n in ("ann", "bob", "cy", "dee")]
        await _mute(cy.client, "dee")
        accounts = host.accounts
        assert accounts is not None
        reading, read = threading.Event(), threading.Event()
        chat_mutes = accounts.chat_mutes

        def held_mutes(account_id: int) -> list[Account]:
            reading.set()
            read.wait(TIMEOUT)
            return chat_mutes(account_id)

        accounts.chat_mutes = held_mutes  # type: ignore[method-assign]
        as_cy = await HostClient.connect("127.0.0.1", port)
        await as_cy.watch("t1", name="cy", token=cy.seated.token)
        assert await asyncio.to_thread(reading.wait, TIMEOUT)  # its history waits
        ann.client.send(Chat("while read"))
        assert await _lines_until(ann.client, "while read") == ["while read"]
        read.set()
        bob.client.send(Chat("after"))
        heard: list[object] = []  # the list of mutes, then the history's lines, then the new
        while "after" not in heard and len(heard) < MAX_STEPS:
            message = await as_cy.receive(TIMEOUT)
            if isinstance(message, MutesInfo):
                heard.append(message)
            elif isinstance(message, ChatLine):
                heard.append(message.text)
        assert heard == [MutesInfo(("dee",)), "while read", "after"]
        for client in (ann.client, bob.client, cy.client, dee.client, as_cy):
            await client.close()


def _counted(reads: list[str], name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method``, which first notes its ``name`` in ``reads``."""

    def counted(*args: object) -> Any:
        reads.append(name)
        return method(*args)

    return counted


async def test_the_games_end_reads_every_players_mutes_at_once(
    tmp_path: Path, store: str | None
) -> None:
    """At the game's end each player gets the watchers' lines but for the writers it
    mutes, and the host asks the accounts store once for all the players."""
    async with running_host(tmp_path, ["ann,bob", "cy,dee"], database=store) as (host, port):
        ann, bob, cy, dee = [await join_bot(port, n) for n in ("ann", "bob", "cy", "dee")]
        await _mute(ann.client, "cy")
        await _mute(bob.client, "dee")
        await _mute(cy.client, "dee")  # (a list: sent with the watch)
        await _mute(dee.client, "cy")
        as_cy = await _watch_as(port, "cy", cy, ("dee",))
        as_dee = await _watch_as(port, "dee", dee, ("cy",))
        anon, _ = await _watcher(port)
        as_cy.send(Chat("from cy", name="cy", token=cy.seated.token))
        as_dee.send(Chat("from dee", name="dee", token=dee.seated.token))
        anon.send(Chat("anon"))
        assert await _lines_until(anon, "anon") == ["from cy", "from dee", "anon"]
        accounts = host.accounts
        assert accounts is not None
        reads: list[str] = []
        for method in ("muting", "chat_mutes", "is_muted"):
            setattr(accounts, method, _counted(reads, method, getattr(accounts, method)))
        ann.received.clear()
        bob.received.clear()
        await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        assert await _lines_until(ann.client, "anon") == ["from dee", "anon"]
        assert await _lines_until(bob.client, "anon") == ["from cy", "anon"]
        assert reads == ["muting"]  # one read, for both players
        for client in (ann.client, bob.client, cy.client, dee.client, as_cy, as_dee, anon):
            await client.close()
