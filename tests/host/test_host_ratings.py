"""A host rates its finished games (issue 22): played over the wire, kept across restarts.

The main game runs against both stores (the data folder's SQLite, and the
hosts' PostgreSQL database of tests/pg.py); the unrated cases on files.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from paris_tui.cli import main
from paris_tui.core import SeatView
from paris_tui.host.ratings.store import MU, SIGMA, ranks, shown
from paris_tui.host.referee import Referee, parse_seats
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Presence, RatedResult

from .helpers import (
    MAX_STEPS,
    Bot,
    join_bot,
    put_record,
    random_player,
    running_host,
    store_args,
    stored_accounts,
)


async def rated_result(bot: Bot) -> RatedResult:
    """Play on until a presence message carries the game's result."""
    for _ in range(MAX_STEPS):
        message = await bot.step()
        if isinstance(message, Presence) and message.result is not None:
            return message.result
    raise AssertionError("no result came")


def places_of(view: SeatView, leavers: tuple[int, ...] = ()) -> list[int]:
    assert view.outcome is not None
    return ranks(view.outcome.scores, view.outcome.on_board, leavers)


async def test_a_game_between_accounts_is_rated_once_and_kept(
    tmp_path: Path, store: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both bots are at 127.0.0.1: the operator lets that address's seats play rated.
    async with running_host(
        tmp_path, ["ann,bob"], seed=4, database=store, rated_addresses=("127.0.0.1",)
    ) as (host, port):
        ann = await join_bot(port, "ann", random_player(1))
        bob = await join_bot(port, "bob", random_player(2))
        views = await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        results = await asyncio.gather(rated_result(ann), rated_result(bob))
        places = places_of(views[0])
        model = PlackettLuce()
        expected = model.rate([[model.rating()], [model.rating()]], ranks=places)
        after = tuple(round(shown(t[0].mu, t[0].sigma) * 10) for t in expected)
        assert results[0] == results[1]
        # After one game each rating is provisional (shown as "?", docs/ratings.md).
        provisional = (True, True)
        assert results[0] == RatedResult(True, None, tuple(places), (), (0, 0), after, provisional)
        # The lobby: each seat's rating beside its name, and the leaderboard.
        lobby = await HostClient.connect("127.0.0.1", port)
        tables = await lobby.tables()
        assert [s.rating for s in tables[0].seats] == list(after)
        assert sorted((r.name, r.rating, r.games) for r in lobby.leaderboard) == sorted(
            [("ann", after[0], 1), ("bob", after[1], 1)]
        )
        await lobby.close()
        await ann.client.close()
        await bob.client.close()
        assert host.ratings.store is not None
        held = host.ratings.store.ratings(list(host.rooms["t1"].owners.values()))
        assert sorted(r.games for r in held.values()) == [1, 1]
    # The next host (the same folder or database) finds the game counted: not again.
    async with running_host(tmp_path, database=store) as (again, port):
        assert again.ratings.store is not None
        assert again.ratings.store.ratings(list(held)) == held
        if store is None:  # files: the finished table is served, its result kept
            assert again.rooms["t1"].result == results[0]
    # The operator's leaderboard, from the folder or the database.
    where = ["--data-dir", str(tmp_path)] if store is None else ["--database", store]
    assert main(["host", "ratings", *where, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["rating"] == "ordinal (mu - 3 sigma)"
    by_name = {row["name"]: row for row in printed["ratings"]}
    assert sorted(by_name) == ["ann", "bob"]
    for seat, name in enumerate(("ann", "bob")):
        assert round(by_name[name]["rating"] * 10) == after[seat]
        assert by_name[name]["games"] == 1
        assert by_name[name]["mu"] == pytest.approx(expected[seat][0].mu)
    assert [row["rank"] for row in printed["ratings"]] == [1, 2]
    assert main(["host", "ratings", *where]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "mu - 3 sigma" in lines[0] and len(lines) == 3


async def test_a_takeover_seat_makes_the_game_unrated_and_its_leaver_last(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path, ["ann,bob"], seed=2, ai_takeover=0.05) as (host, port):
        # Bob joins (an account), then leaves for good: the takeover AI ends his game.
        bob = await join_bot(port, "bob", random_player(2))
        await bob.client.close()
        ann = await join_bot(port, "ann", random_player(1))
        view = await ann.play_to_end()
        result = await rated_result(ann)
        assert (result.rated, result.reason, result.leavers) == (False, "leaver", (1,))
        assert result.ranks == tuple(places_of(view, (1,)))
        assert result.ranks[1] == 2 and result.after == (None, None)
        assert host.ratings.store is not None and host.ratings.store.leaderboard() == []


async def test_an_ai_seat_makes_the_game_unrated(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,ai:random"], seed=2) as (host, port):
        ann = await join_bot(port, "ann", random_player(1))
        await ann.play_to_end()
        result = await rated_result(ann)
        assert (result.rated, result.reason) == (False, "ai_seat")
        assert host.ratings.store is not None and host.ratings.store.leaderboard() == []


def finished_record(seed: int) -> Referee:
    referee = Referee.new("t1", parse_seats("ann,bob"), seed=seed)
    for _ in range(1000):
        if referee.is_over:
            return referee
        seat = referee.to_move
        assert seat is not None
        referee.play(seat, referee.view(seat).legal_moves[0], referee.move_count)
    raise AssertionError("the game did not end")


async def test_a_finish_not_counted_before_a_crash_is_counted_at_the_next_start(
    tmp_path: Path,
) -> None:
    # The host died between the last move's save and its count: the record is
    # finished, the ratings know nothing of it.
    referee = finished_record(6)
    put_record(tmp_path, "t1", referee.record())  # the folder's file, or the database's rows
    with stored_accounts(tmp_path) as accounts:
        ids = [accounts.create(name, None).id for name in ("ann", "bob")]
        for seat, account in enumerate(ids):
            accounts.claim_seat("t1", seat, account)
    places = places_of(referee.view(None))
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=places)
    for _ in range(2):  # counted at the first start, found counted at the second
        async with running_host(tmp_path) as (host, _):
            assert host.ratings.store is not None
            held = host.ratings.store.ratings(ids)
            assert [(held[a].mu, held[a].sigma, held[a].games) for a in ids] == pytest.approx(
                [(t[0].mu, t[0].sigma, 1) for t in expected]
            )
            if host.cluster is None:  # files: the finished table is served, its result kept
                result = host.rooms["t1"].result
                assert result is not None and result.rated and list(result.ranks) == places
    assert (expected[0][0].mu, expected[0][0].sigma) != (MU, SIGMA)


def test_host_ratings_of_a_folder_without_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["host", "ratings", "--data-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ratings"] == []
    assert main(["host", "ratings", "--data-dir", str(tmp_path / "nowhere")]) == 1
    assert "is not a folder" in capsys.readouterr().err


async def test_ratings_survive_kill_9_and_a_restart_counts_nothing_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import signal

    from .test_process import HostProcess

    table = ["--table", "ann,bob", "--seed", "3", "--rated-address", "127.0.0.1"]
    first = await HostProcess.start(tmp_path, *table)
    port = await first.port()
    ann = await join_bot(port, "ann", random_player(1))
    bob = await join_bot(port, "bob", random_player(2))
    await asyncio.gather(ann.play_to_end(), bob.play_to_end())
    result = await rated_result(ann)  # told only once it is committed
    assert result.rated
    first.proc.send_signal(signal.SIGKILL)
    assert await first.wait() == -signal.SIGKILL

    def board() -> list[tuple[str, int, int]]:
        assert main(["host", "ratings", *store_args(tmp_path), "--json"]) == 0
        rows = json.loads(capsys.readouterr().out)["ratings"]
        return sorted((r["name"], round(r["rating"] * 10), r["games"]) for r in rows)

    counted = board()
    assert counted == sorted([("ann", result.after[0], 1), ("bob", result.after[1], 1)])
    # The same command again: the finished table is found counted, nothing moves.
    second = await HostProcess.start(tmp_path, *table)
    await second.port()
    second.proc.send_signal(signal.SIGKILL)
    assert await second.wait() == -signal.SIGKILL
    assert board() == counted
