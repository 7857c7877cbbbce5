"""The host's finished games (issue 22, protocol 4): listed newest first, each sent as
its public record only once it is over; never to an older protocol."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from paris_tui.core.record import parse_record, replay
from paris_tui.net.client import HostClient, RefusedError

from .helpers import RawClient, join_bot, random_player, running_host

HELLO_V3 = b'{"type":"hello","protocol":3,"client":"test"}\n'


async def test_finished_games_are_listed_and_sent_as_their_public_record(tmp_path: Path) -> None:
    async with running_host(
        tmp_path, ["ann,bob", "cy,ai:random"], seed=4, rated_addresses=("127.0.0.1",)
    ) as (host, port):
        ann = await join_bot(port, "ann", random_player(1))
        bob = await join_bot(port, "bob", random_player(2))
        await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        lobby = await HostClient.connect("127.0.0.1", port)
        for _ in range(200):  # the count is written just after the last move
            games = await lobby.games()
            if games:
                break
            await asyncio.sleep(0.02)
        assert [(g.table, g.names, g.rated) for g in games] == [("t1", ("ann", "bob"), True)]
        sent = await lobby.record("t1")
        public = parse_record(sent.record)
        kept = host.tables.load_record("t1")
        assert kept is not None
        # The same game (players, moves, final scores), not the host's file: no seeds.
        assert public.players == kept.players and public.moves == kept.moves
        assert replay(public).outcome() == replay(kept).outcome()
        assert "app" not in sent.record and "seed" not in json.dumps(sent.record)
        # A running game's record would tell its routes: refused.
        with pytest.raises(RefusedError) as info:
            await lobby.record("t2")
        assert info.value.code == "no_such_table"
        with pytest.raises(RefusedError):
            await lobby.record("t9")
        await lobby.close()
        await ann.client.close()
        await bob.client.close()


async def test_an_older_protocol_never_gets_the_finished_games(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (_, port):
        raw = await RawClient.open(port)
        raw.send(HELLO_V3 + b'{"type":"list_games"}\n')
        messages = await raw.closed()
        assert messages[-1] is not None and getattr(messages[-1], "code", "") == "bad_message"
        raw.close()
