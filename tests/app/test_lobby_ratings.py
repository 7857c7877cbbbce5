"""The lobby shows ratings (issue 22): beside each name, the leaderboard on ``l``, and the
host's finished games on ``g`` (yours first), each opening in the replay viewer."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from paris_tui.app.screens.finished_games import FinishedGamesScreen, HostReplayScreen
from paris_tui.app.screens.leaderboard import LeaderboardScreen, rating_text
from paris_tui.app.start.resources import css_paths
from paris_tui.host.accounts.store import open_accounts
from paris_tui.host.ratings.store import open_ratings
from paris_tui.host.referee import Referee, parse_seats

from .helpers import screen_text
from .lobbies import finished_games
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
            # One rated game each: provisional, a "?" in place of the number.
            want = "ann ? (away), bob ? (away)"
            await _until(pilot, lambda: want in screen_text(app), "ratings beside the names")
            assert shown["bob"].startswith("-")  # the number a first loss gives: not shown
            assert "You are Cy.  g finished games  l leaderboard (3 rated players)" in screen_text(
                app
            )
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
            assert " ? " in rows[0] and "1 game" in rows[0]
            assert shown["bob"] not in text
            await pilot.press("escape")
            await _until(pilot, lambda: not isinstance(app.screen, LeaderboardScreen), "closed")
        await client.close()


async def test_a_host_without_rated_games_says_so(tmp_path: Path) -> None:
    async with hosting(tmp_path, "ann,bob") as (_, port):
        client = await _client(port)
        app = LobbyApp(client, "Cy")
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "ann (away)" in screen_text(app), "the table")
            text = screen_text(app)
            assert "You are Cy.  g finished games  l leaderboard" in text
            assert "leaderboard (" not in text
            await pilot.press("l")
            await _until(pilot, lambda: "No rated games yet." in screen_text(app), "empty board")
        await client.close()


def put_finished(tables: Path, table_id: str, seats: str, seed: int) -> int:
    """A finished game's record in the host's folder (counted at the host's start)."""
    referee = Referee.new(table_id, parse_seats(seats), seed=seed)
    while not referee.is_over:
        seat = referee.to_move
        assert seat is not None
        referee.play(seat, referee.view(seat).legal_moves[0], referee.move_count)
    tables.mkdir(parents=True, exist_ok=True)
    (tables / f"{table_id}.json").write_text(referee.record_text(), encoding="utf-8")
    return referee.move_count


async def test_g_lists_the_finished_games_yours_first_and_replays_one(tmp_path: Path) -> None:
    tables = tmp_path / "host-data" / "host" / "tables"
    moves = put_finished(tables, "t1", "Cy,Dee", 3)
    put_finished(tables, "t2", "ann,bob", 4)
    async with (
        hosting(tmp_path) as (_, port),
        finished_games(port, "cy") as (app, pilot, screen),
    ):
        # Cy's game first, though the other ended later; neither was rated.
        assert [g.table for g in screen.games] == ["t1", "t2"]
        text = screen_text(app)
        # Each row: the players with their scores, the winner starred, unrated.
        rows = [line for line in text.splitlines() if "unrated" in line]
        assert [r.split()[1] for r in rows] == ["t1", "t2"]
        for row, game in zip(rows, screen.games, strict=True):
            assert game.scores and all(str(score) in row for score in game.scores)
            assert "★" in row
        await pilot.press("enter")
        await _until(pilot, lambda: isinstance(app.screen, HostReplayScreen), "the replay")
        want = f"Replay: move {moves} of {moves}"
        await _until(pilot, lambda: want in screen_text(app), "the last position")
        assert "t1.json" in screen_text(app) and "Game over" in screen_text(app)
        await pilot.press("escape")
        await _until(pilot, lambda: isinstance(app.screen, FinishedGamesScreen), "back")
        await pilot.press("escape")
        await _until(pilot, lambda: "Players" in screen_text(app), "the lobby again")


async def test_the_keys_line_fits_80_columns_with_a_long_name_in_german(tmp_path: Path) -> None:
    from paris_tui import i18n

    from .test_layout_fit import check_screen

    seed_ratings(tmp_path / "host-data")
    name = "Bartholomäus" + "x" * 8  # 20 cells, the longest name
    try:
        i18n.set_language("de")
        async with hosting(tmp_path, "ann,bob") as (_, port):
            client = await _client(port)
            app = LobbyApp(client, name)
            async with app.run_test(size=(80, 24)) as pilot:
                await _until(pilot, lambda: "Rangliste (3" in screen_text(app), "the keys")
                await pilot.pause()
                problems = check_screen(app)
                assert not problems, "\n".join(map(str, problems))
            await client.close()
    finally:
        i18n.set_language("en")


async def test_hostile_names_are_drawn_as_text_in_the_leaderboard_and_the_games(
    tmp_path: Path,
) -> None:
    from hostile_corpus import SHOWN

    cases = [c for c in SHOWN if "[" in c.text][:3]
    names = [c.text for c in cases]
    root = tmp_path / "host-data" / "host"
    accounts = open_accounts(root)
    ids = [accounts.create(name, None).id for name in names]
    accounts.close()
    ratings = open_ratings(root)
    ratings.finish("t0:x", "t0", ["human"] * 3, dict(enumerate(ids)), [9, 4, 7], [1, 1, 1])
    ratings.close()
    put_finished(root / "tables", "t1", ",".join(names), 5)
    async with hosting(tmp_path) as (_, port):
        client = await _client(port)
        app = LobbyApp(client, "Cy")
        async with app.run_test(size=(120, 30)) as pilot:
            await _until(pilot, lambda: "rated players" in screen_text(app), "the board")
            await pilot.press("l")
            await _until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "board")
            await pilot.pause()
            text = screen_text(app)
            for case in cases:
                assert case.shown in text, case.label
            await pilot.press("escape", "g")
            await _until(pilot, lambda: "Your games first" in screen_text(app), "the games")
            text = screen_text(app)
            for case in cases:
                assert case.shown in text, case.label
        await client.close()


async def test_b_shows_the_expert_ais_belief_about_each_route(tmp_path: Path) -> None:
    from paris_tui.ai.expert import FittedBelief
    from paris_tui.core.record import load_record, replay
    from paris_tui.core.sampling import Determinizer

    tables = tmp_path / "tables"
    put_finished(tables, "t1", "Ann,Bob,Cy", 3)
    record = load_record(tables / "t1.json")
    screen = HostReplayScreen(record, "t1")
    app = EndlessApp(screen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen.action_go(12)
        await pilot.press("b")
        await pilot.pause()
        text = screen_text(app)
        assert "The expert AI believes (routes):" in text
        # The numbers are the belief's own, from the spectator's view after 12 moves.
        expected = FittedBelief().weights(Determinizer(replay(record, 12).view(None)))
        assert screen.weights_at(12) == expected and set(expected) == {0, 1, 2}
        board = replay(record).view(None).board
        for seat, name in enumerate(("Ann", "Bob", "Cy")):
            route, weight = max(expected[seat].items(), key=lambda item: item[1])
            letter = board.lines[board.line_index[route]].letter
            assert f"{name}: {letter} {round(weight * 100)}%" in text
        held = replay(record).view(None).revealed_routes
        assert held is not None
        assert f"(holds {board.lines[board.line_index[held[0]]].letter})" in text
        await pilot.press("b")
        await pilot.pause()
        assert "believes" not in screen_text(app)


class EndlessApp(App[None]):
    def __init__(self, screen: HostReplayScreen) -> None:
        super().__init__(css_path=css_paths())
        self.replay = screen

    def on_mount(self) -> None:
        self.push_screen(self.replay)
