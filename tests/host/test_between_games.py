"""What a games site offers between games, over the real TCP protocol: a seat kept
for an invited name (and the notify command told), who is online, the finished
games with scores, places and ratings (a player's own too), provisional ratings."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from paris_tui.net.client import HostClient, RefusedError
from paris_tui.net.protocol import Presence, Seated, Waiting
from paris_tui.net.ratings_wire import PROVISIONAL_GAMES

from . import helpers
from .helpers import MAX_STEPS, TIMEOUT, Bot, join_bot, random_player, running_host
from .test_turns import FakeClock, notified, notify_script, timed_host, until


async def _lobby(port: int) -> HostClient:
    return await HostClient.connect("127.0.0.1", port)


async def _seated(client: HostClient) -> Seated:
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, Seated):
            return message
    raise AssertionError("the game never started")


async def test_an_invited_seat_waits_for_that_name_only_and_the_notify_command_hears(
    tmp_path: Path,
) -> None:
    command, out = notify_script(tmp_path)
    async with timed_host(tmp_path, FakeClock(1000.0), notify=command) as (host, port):
        ann = await _lobby(port)
        waiting = await ann.open_table("ann", ("me", "invite:Bob", "open"))
        assert isinstance(waiting, Waiting)
        table = waiting.table
        # The kept seat is free, and says for whom.
        assert [(s.name, s.status) for s in waiting.seats] == [
            ("ann", "present"),
            ("Bob", "free"),
            ("", "free"),
        ]
        await until(lambda: ["Bob", table, "invited"] in notified(out), "the notify command")
        # Someone else takes the open seat, never Bob's.
        cy = await _lobby(port)
        sat = await cy.sit("cy", table)
        assert isinstance(sat, Waiting) and sat.seat == 2
        # With only Bob's seat free, a third name is refused, in words.
        dee = await _lobby(port)
        with pytest.raises(RefusedError) as info:
            await dee.sit("dee", table)
        assert info.value.code == "no_such_seat"
        assert "kept for the players invited" in info.value.refused.message
        # Quick match's lobby list: the table has no seat open to anyone.
        listed = {t.table: t for t in await dee.tables()}
        assert listed[table].free_seats == 1
        # Bob (any case) takes his seat: the game starts.
        bob = await _lobby(port)
        started = await bob.sit("bob", table)
        if isinstance(started, Waiting):
            started = await _seated(bob)
        assert isinstance(started, Seated) and started.seat == 1
        for client in (ann, bob, cy, dee):
            await client.close()
        assert host.opening.waiting == {}


@pytest.mark.parametrize(
    ("seats", "words"),
    [
        (("me", "invite:ann"), "you sit at the table already"),
        (("me", "invite:bob", "invite:BOB"), "one seat only"),
        (("me", "invite:b\u202eob"), "the name invited"),
    ],
)
async def test_a_bad_invitation_is_refused_in_words(
    tmp_path: Path, seats: tuple[str, ...], words: str
) -> None:
    async with running_host(tmp_path) as (_, port):
        ann = await _lobby(port)
        with pytest.raises(RefusedError) as info:
            await ann.open_table("ann", seats)
        assert info.value.code == "bad_table" and words in info.value.refused.message
        await ann.close()


async def _finished_rated_game(port: int) -> tuple[Bot, Bot]:
    ann = await join_bot(port, "ann", random_player(1))
    bob = await join_bot(port, "bob", random_player(2))
    await asyncio.gather(ann.play_to_end(), bob.play_to_end())
    return ann, bob


async def test_who_is_online_lists_the_accounts_here_and_whether_they_play(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path, ["ann,bob", "cy,dee"]) as (_, port):
        ann = await join_bot(port, "ann", random_player(1))
        cy = await join_bot(port, "cy", random_player(3))
        lobby = await _lobby(port)
        online = ()
        for _ in range(MAX_STEPS):
            await lobby.tables()
            online = lobby.online
            if len(online) == 2:
                break
            await asyncio.sleep(0.05)
        assert [(o.name, o.playing) for o in online] == [("ann", True), ("cy", True)]
        await cy.client.close()
        for _ in range(MAX_STEPS):  # a list is made again every 2 s at most
            await lobby.tables()
            if [o.name for o in lobby.online] == ["ann"]:
                break
            await asyncio.sleep(0.1)
        assert [o.name for o in lobby.online] == ["ann"]
        await lobby.close()
        await ann.client.close()


async def test_an_older_protocol_is_sent_nobody_online(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_, port):
        ann = await join_bot(port, "ann", random_player(1))
        raw = await helpers.RawClient.open(port)
        raw.send(b'{"type":"hello","protocol":3,"client":"test"}\n{"type":"list_tables"}\n')
        await raw.message()  # welcome
        line = await raw.line()
        assert b'"tables"' in line and b"online" not in line
        raw.close()
        await ann.client.close()


async def test_finished_games_say_scores_places_ratings_and_filter_by_player(
    tmp_path: Path,
) -> None:
    # Every test client is at 127.0.0.1: the operator lets that address play rated games.
    async with running_host(
        tmp_path, ["ann,bob", "cy,ai:random"], rated_addresses=("127.0.0.1",)
    ) as (_, port):
        ann, bob = await _finished_rated_game(port)
        lobby = await _lobby(port)
        games: tuple[object, ...] = ()
        for _ in range(MAX_STEPS):
            games = await lobby.games()
            if games:
                break
            await asyncio.sleep(0.02)
        (game,) = await lobby.games()
        outcome = ann.view.outcome
        assert outcome is not None
        assert game.scores == tuple(outcome.scores)
        assert sorted(game.places) in ([1, 2], [1, 1])
        assert game.rated and len(game.ratings) == 2 and None not in game.ratings
        assert [g.table for g in await lobby.games(player="BOB")] == ["t1"]
        assert await lobby.games(player="cy") == ()
        # Each player's rating after one game is provisional: so say their seats.
        tables = {t.table: t for t in await lobby.tables()}
        assert [s.provisional for s in tables["t1"].seats] == [True, True]
        # ... and the game's result at the table says so too (the end screen's "?").
        result = next(
            (m.result for m in ann.received if isinstance(m, Presence) and m.result), None
        )
        for _ in range(MAX_STEPS):
            if result is not None:
                break
            message = await ann.client.receive(TIMEOUT)
            if isinstance(message, Presence):
                result = message.result
        assert result is not None and result.provisional == (True, True)
        assert PROVISIONAL_GAMES > 1
        await lobby.close()
        await ann.client.close()
        await bob.client.close()
