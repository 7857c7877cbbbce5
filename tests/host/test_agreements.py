"""A rematch (protocol 5, ``agree``/``agreement``): once the game is over each
player agrees; everyone hears who did; when all have, the host opens the rematch
(the same players, a new deal, the seats' order turned by one) and tells its table.
An older client's ``agree`` is an unknown message."""

from __future__ import annotations

import asyncio
from pathlib import Path

from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Agree, Agreement, HostMessage, Refused

from .helpers import TIMEOUT, RawClient, join_bot, running_host, saved

MAX_STEPS = 400


async def _next(client: HostClient, kind: type) -> HostMessage:
    for _ in range(MAX_STEPS):
        message = await client.receive(TIMEOUT)
        if isinstance(message, kind):
            return message
    raise AssertionError(f"no {kind.__name__} came")


async def test_a_rematch_when_every_player_agrees_turns_the_seats(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        try:
            # Before the end there is no rematch to agree to.
            ann.client.send(Agree("rematch"))
            refused = await _next(ann.client, Refused)
            assert isinstance(refused, Refused) and refused.code == "not_started"
            await asyncio.gather(ann.play_to_end(), bob.play_to_end())
            ann.client.send(Agree("rematch"))
            for bot in (ann, bob):
                heard = await _next(bot.client, Agreement)
                assert heard == Agreement("t1", "rematch", (0,), None)
            assert "t2" not in host.rooms
            bob.client.send(Agree("rematch"))
            for bot in (ann, bob):
                heard = await _next(bot.client, Agreement)
                assert heard == Agreement("t1", "rematch", (0, 1), "t2")
            rematch = host.rooms["t2"].referee
            assert rematch.names == ("bob", "ann") and not rematch.is_over
            assert rematch.record().setup != host.rooms["t1"].referee.record().setup
            # Each sits at the rematch by name (a join naming the table), with its token.
            seated = await ann.client.join("ann", ann.seated.token, "t2")
            assert (seated.table, seated.seat) == ("t2", 1)
            seated = await bob.client.join("bob", bob.seated.token, "t2")
            assert (seated.table, seated.seat) == ("t2", 0)
        finally:
            await ann.client.close()
            await bob.client.close()


async def test_an_older_clients_agree_is_an_unknown_message(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        old = await RawClient.open(port)
        try:
            old.send(b'{"type":"hello","protocol":4,"client":"old"}\n')
            assert b'"welcome"' in await old.line()
            old.send(b'{"type":"agree","what":"rematch"}\n')
            said = await old.line()
            assert b'"bad_message"' in said and b"agree" in said
        finally:
            old.close()


async def test_a_resignation_hands_the_seat_to_the_ai_for_good_and_ranks_it_last(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        room = host.rooms["t1"]
        try:
            ann.client.send(Agree("resign"))
            for bot in (ann, bob):
                heard = await _next(bot.client, Agreement)
                assert heard == Agreement("t1", "resign", (0,), None)
            assert room.status(0) == "takeover" and 0 in room.seated  # still connected
            assert saved(host, "t1").extra["app"]["resigned"] == [0]  # the record says so
            # Her own moves are refused now; the AI plays her seat to the end.
            ann.client.play(room.referee.view(0).legal_moves[0], room.referee.move_count)
            refused = await _next(ann.client, Refused)
            assert isinstance(refused, Refused) and refused.code == "not_your_turn"
            await bob.play_to_end()
            assert room.referee.is_over
            for _ in range(MAX_STEPS):
                if room.result is not None:
                    break
                await asyncio.sleep(0.01)
            assert room.result is not None
            assert room.result.leavers == (0,) and not room.result.rated
            assert room.result.ranks[0] == 2
        finally:
            await ann.client.close()
            await bob.client.close()
