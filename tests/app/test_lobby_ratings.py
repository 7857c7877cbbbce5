"""The lobby shows ratings (issue 22): beside each name, and the leaderboard on ``l``."""

from __future__ import annotations

from pathlib import Path

from paris_tui.app.screens.leaderboard import LeaderboardScreen, rating_text
from paris_tui.host.accounts import open_accounts
from paris_tui.host.ratings import open_ratings

from .helpers import screen_text
from .test_lobby import LobbyApp, _client, _until, hosting


def test_a_rating_is_written_with_one_decimal() -> None:
    assert [rating_text(t) for t in (0, 7, 123, -4, -123)] == [
        "0.0",
        "0.7",
        "12.3",
        "-0.4",
        "-12.3",
    ]


def seed_ratings(data_dir: Path) -> dict[str, str]:
    """Three accounts with a rated game each: their shown ratings, as the lobby writes them."""
    root = data_dir / "host"
    accounts = open_accounts(root)
    ids = {name: accounts.create(name, None).id for name in ("ann", "bob", "Dee")}
    accounts.close()
    ratings = open_ratings(root)
    result = ratings.finish(
        "t0:x",
        "t0",
        ["human"] * 3,
        {0: ids["ann"], 1: ids["bob"], 2: ids["Dee"]},
        [9, 4, 7],
        [1, 1, 1],
    )
    ratings.close()
    assert result.rated
    return {
        name: rating_text(round((after or 0.0) * 10))
        for name, after in zip(("ann", "bob", "Dee"), result.after, strict=True)
    }


async def test_the_lobby_shows_ratings_and_the_leaderboard(tmp_path: Path) -> None:
    shown = seed_ratings(tmp_path / "host-data")
    async with hosting(tmp_path, "ann,bob") as (_, port):
        client = await _client(port)
        app = LobbyApp(client, "Cy")
        async with app.run_test(size=(80, 24)) as pilot:
            want = f"ann {shown['ann']} (away), bob {shown['bob']} (away)"
            await _until(pilot, lambda: want in screen_text(app), "ratings beside the names")
            assert "You are Cy.  l the leaderboard (3 rated players)" in screen_text(app)
            await pilot.press("l")
            await _until(
                pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the leaderboard"
            )
            text = screen_text(app)
            assert "mu − 3σ" in text
            # Best first: ann won, Dee came second, bob last.
            rows = [line for line in text.splitlines() if any(n in line for n in shown)]
            assert [next(n for n in ("ann", "Dee", "bob") if n in r) for r in rows] == [
                "ann",
                "Dee",
                "bob",
            ]
            assert shown["ann"] in rows[0] and "1 game" in rows[0]
            await pilot.press("escape")
            await _until(pilot, lambda: not isinstance(app.screen, LeaderboardScreen), "closed")
        await client.close()


async def test_a_host_without_rated_games_says_so(tmp_path: Path) -> None:
    async with hosting(tmp_path, "ann,bob") as (_, port):
        client = await _client(port)
        app = LobbyApp(client, "Cy")
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "ann (away)" in screen_text(app), "the table")
            assert "leaderboard" not in screen_text(app)  # the key is said once it shows some
            await pilot.press("l")
            await _until(pilot, lambda: "No rated games yet." in screen_text(app), "empty board")
        await client.close()
