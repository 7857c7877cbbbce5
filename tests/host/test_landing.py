"""Where a join that names no table lands: a running real-time game first, then a
turn-based table (your move first), never a finished game (its login reaches the
lobby instead)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from paris_tui.net.client import HostClient, RefusedError

from .helpers import join_bot, running_host


async def test_a_finished_game_is_no_seat_for_a_join_naming_no_table(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        try:
            await asyncio.gather(ann.play_to_end(), bob.play_to_end())
            assert host.rooms["t1"].referee.is_over
        finally:
            await ann.client.close()
            await bob.client.close()
        again = await HostClient.connect("127.0.0.1", port)
        try:
            with pytest.raises(RefusedError) as refused:
                await again.join("ann", ann.seated.token)
            assert refused.value.code == "no_such_seat"
        finally:
            await again.close()
