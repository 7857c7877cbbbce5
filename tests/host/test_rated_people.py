"""Ratings between different people, over the TCP protocol: two accounts played from
one address (one script) leave the game unrated, and the result says why; the
operator's ``--rated-address`` lets one address's seats count; ``host ratings
--pairs`` lists the pairs of accounts that keep meeting with one always losing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from paris_tui.cli import main
from paris_tui.host.accounts.identity import DoorProof, Tickets
from paris_tui.host.accounts.store import open_accounts
from paris_tui.host.ratings.people import People
from paris_tui.host.ratings.store import open_ratings

from .helpers import join_bot, random_player, running_host
from .test_host_ratings import rated_result


async def _play(port: int, seed: int = 1) -> Any:
    ann = await join_bot(port, "ann", random_player(seed))
    bob = await join_bot(port, "bob", random_player(seed + 1))
    await asyncio.gather(ann.play_to_end(), bob.play_to_end())
    results = await asyncio.gather(rated_result(ann), rated_result(bob))
    await ann.client.close()
    await bob.client.close()
    return results[0]


async def test_two_accounts_from_one_address_play_an_unrated_game(
    tmp_path: Path, store: str | None
) -> None:
    async with running_host(tmp_path, ["ann,bob"], seed=4, database=store) as (host, port):
        result = await _play(port)
        assert (result.rated, result.reason) == (False, "same_person")
        assert result.after == (None, None)
        assert host.ratings.store is not None and host.ratings.store.leaderboard() == []
        assert [g.rated for g in host.ratings.store.games()] == [False]


async def test_the_operator_lets_an_address_s_seats_play_rated_games(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"], seed=4, rated_addresses=("127.0.0.1",)) as (
        _host,
        port,
    ):
        result = await _play(port)
        assert (result.rated, result.reason) == (True, None)


def test_the_operator_lists_pairs_that_keep_meeting_with_one_always_losing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "host"
    root.mkdir()
    ratings = open_ratings(root)
    for i in range(6):  # tim loses every one of six games to vic
        ratings.finish(
            f"g{i}", f"t{i}", ["human", "human"], {0: 1, 1: 2}, [30, 10], [0, 0], ["vic", "tim"]
        )
    for i in range(6):  # ann and bob: each wins some
        scores = [30, 10] if i % 2 else [10, 30]
        ratings.finish(
            f"h{i}", f"u{i}", ["human", "human"], {0: 3, 1: 4}, scores, [0, 0], ["ann", "bob"]
        )
    ratings.close()
    open_accounts(root).close()  # the data directory's accounts, as a host leaves them
    assert main(["host", "ratings", "--data-dir", str(tmp_path), "--pairs", "--json"]) == 0
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    assert pairs == [{"winner": "vic", "loser": "tim", "games": 6, "won": 6}]
    assert main(["host", "ratings", "--data-dir", str(tmp_path), "--pairs"]) == 0
    out = capsys.readouterr().out
    assert "vic" in out and "tim" in out and "ann" not in out


def test_a_door_s_seat_is_at_the_address_the_door_saw() -> None:
    """A door's app connects from the door (address ``door``): its seat's address is
    the one the door saw, carried by its ticket; an allowed address is not noted."""
    tickets = Tickets()
    ticket = tickets.issue(DoorProof("ssh", "SHA256:x", "ann", "key", "203.0.113.5"))
    conn = SimpleNamespace(address="door", ticket=ticket, vouched=None)
    assert People(tickets).address(conn) == "203.0.113.5"  # type: ignore[arg-type]
    assert People(tickets, ["203.0.113.5"]).address(conn) is None  # type: ignore[arg-type]
    plain = SimpleNamespace(address="2001:db8::1", ticket=None, vouched=None)
    assert People(tickets).address(plain) == "2001:db8::/64"  # type: ignore[arg-type]
