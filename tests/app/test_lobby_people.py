"""The lobby between games, against a real host on loopback: who is online (friends
first, ``o``'s list), an invitation (the form's choice, the line above the tables,
Enter takes the kept seat), a player's page (from the leaderboard and from who is
online; a game on it replays), the finished list's scores, winner, rated or not and
its player filter, provisional ratings."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

from paris_tui.app.look.player_words import player_lines, player_record, sparkline
from paris_tui.app.screens.finished_games import HostReplayScreen
from paris_tui.app.screens.leaderboard import LeaderboardScreen
from paris_tui.app.screens.lobby import LobbyScreen, NewTableScreen
from paris_tui.app.screens.lobby.online import WhoScreen, friends_first, online_text
from paris_tui.app.screens.player_page import PlayerScreen
from paris_tui.app.start.resources import css_paths
from paris_tui.host.accounts.store import open_accounts
from paris_tui.host.ratings.store import open_ratings
from paris_tui.net.client import TokenStore
from paris_tui.net.protocol import FinishedGame, FriendsInfo, FriendsRequest, Online, Seated

from .helpers import screen_text
from .lobbies import finished_games
from .test_lobby import UNSET, LobbyApp, _client, _until, hosting
from .test_lobby_ratings import put_finished


async def _befriend(port: int, name: str, token: str, friend: str) -> None:
    client = await _client(port)
    client.send(FriendsRequest(name, token, "add", friend))
    for _ in range(50):
        if isinstance(await client.receive(10.0), FriendsInfo):
            break
    await client.close()


def test_a_table_inviting_you_comes_first_after_your_moves() -> None:
    from paris_tui.net.protocol import SeatInfo, TableInfo
    from paris_tui.net.turns import tables_in_order

    seat = SeatInfo("ann", "human", "present")
    plain = TableInfo("t1", (seat, SeatInfo("", "human", "free")), 0, 0, False, True, 1)
    kept = TableInfo("t2", (seat, SeatInfo("Bob", "human", "free")), 0, 0, False, True, 1)
    assert [t.table for t in tables_in_order([plain, kept], "bob")] == ["t2", "t1"]
    assert [t.table for t in tables_in_order([plain, kept], "cy")] == ["t1", "t2"]


def test_friends_come_first_and_the_line_fits_its_width() -> None:
    online = [Online(n, n == "bob") for n in ("dee", "Bob", "cy", "ann", "bob")]
    assert [o.name for o in friends_first(online, ["CY", "dee"])] == [
        "cy",
        "dee",
        "ann",
        "Bob",
        "bob",
    ]
    many = [Online(f"player{i:02}") for i in range(30)]
    line = online_text(many, [], "ann", width=60)
    assert line.cell_len <= 60 and "more" in line.plain and "o who is online" in line.plain


async def test_who_is_online_friends_first_and_a_page_from_o(tmp_path: Path) -> None:
    async with hosting(tmp_path, "ann,bob", "cy,dee") as (_host, port):
        address = f"127.0.0.1:{port}"
        tokens = TokenStore(tmp_path / "client" / "tokens.json")
        bob, cy, ann = await _client(port), await _client(port), await _client(port)
        await bob.join("bob")
        cy_seated = await cy.join("cy")
        seated = await ann.join("ann")
        await ann.close()
        assert seated.token is not None
        tokens.put(address, "ann", seated.token)
        assert cy_seated.token is not None
        # Friends only when both asked: ann asks cy, cy asks ann.
        await _befriend(port, "ann", seated.token, "cy")
        await _befriend(port, "cy", cy_seated.token, "ann")
        client = await _client(port)
        app = LobbyApp(client, "ann", tokens=tokens, address=address)
        async with app.run_test(size=(80, 24)) as pilot:
            want = "Online (2): ★ cy (playing), bob (playing)  o who is online"
            await _until(pilot, lambda: want in screen_text(app), "who is online, cy first")
            await pilot.press("o")
            await _until(pilot, lambda: isinstance(app.screen, WhoScreen), "the list")
            text = screen_text(app)
            assert text.index("★ cy") < text.index("bob") and "at a table" in text
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, PlayerScreen), "cy's page")
            await _until(
                pilot, lambda: "0 finished games, 0 won." in screen_text(app), "the answer"
            )
            assert "No rated game yet." in screen_text(app)
            await pilot.press("escape", "escape")
            await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await client.close()
        await bob.close()
        await cy.close()


class FormApp(App[None]):
    CSS_PATH = css_paths()

    def __init__(self, friends: tuple[str, ...]) -> None:
        super().__init__()
        self.friends = friends
        self.result: object = UNSET

    def on_mount(self) -> None:
        self.push_screen(NewTableScreen("ann", self.friends), self._done)

    def _done(self, result: object) -> None:
        self.result = result


async def test_the_new_table_form_invites_a_friend() -> None:
    app = FormApp(("bob", "Cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "A seat for a friend waits for that friend only" in screen_text(app)
        await pilot.press("left")  # from an open seat back round to the last choice
        await pilot.pause()
        assert "invite Cy" in screen_text(app)
        await pilot.press("down", "left", "left", "left")  # past "no seat"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
    assert app.result is not UNSET
    assert app.result.seats[:3] == ("me", "invite:Cy", "invite:bob")  # type: ignore[attr-defined]


async def test_an_invitation_is_said_above_the_tables_and_enter_takes_the_seat(
    tmp_path: Path,
) -> None:
    async with hosting(tmp_path) as (_host, port):
        ann = await _client(port)
        await ann.open_table("ann", ("me", "invite:bob", "open"))
        client = await _client(port)
        app = LobbyApp(client, "bob")
        async with app.run_test(size=(80, 24)) as pilot:
            line = "ann invites you to table t1: Enter on it takes your seat."
            # The invitation and the table list reach the lobby apart (the list may come later).
            await _until(
                pilot,
                lambda: line in screen_text(app) and "seat for bob" in screen_text(app),
                "the invitation, and the table's seat for bob",
            )
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            status = lobby.query_one("#lobby-status").render()
            assert line in str(status)  # said once in the status line, where a reader looks
            await pilot.press("enter")
            await _until(pilot, lambda: "You sit at table t1, seat 2" in screen_text(app), "sat")
            cy = await _client(port)
            await cy.sit("cy", "t1")
            await _until(pilot, lambda: app.result is not UNSET, "the game starts")
        assert isinstance(app.result, Seated) and app.result.seat == 1
        for other in (ann, cy, client):
            await other.close()


def _seed_games(data_dir: Path) -> None:
    """Six rated games of ann and bob (ann wins four), each with its names."""
    root = data_dir / "host"
    accounts = open_accounts(root)
    ids = {name: accounts.create(name, None).id for name in ("ann", "bob")}
    accounts.close()
    ratings = open_ratings(root)
    for i in range(6):
        scores = [30, 20] if i % 3 else [10, 25]
        ratings.finish(
            f"r{i}:x",
            f"r{i}",
            ["human"] * 2,
            {0: ids["ann"], 1: ids["bob"]},
            scores,
            [1, 1],
            ["ann", "bob"],
        )
    ratings.close()


async def test_a_players_page_from_the_leaderboard_replays_a_game(tmp_path: Path) -> None:
    _seed_games(tmp_path / "host-data")
    tables = tmp_path / "host-data" / "host" / "tables"
    put_finished(tables, "t1", "ann,cy", 3)  # counted at the start: unrated, newest
    async with hosting(tmp_path) as (_, port):
        client = await _client(port)
        app = LobbyApp(client, "dee")
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "leaderboard (2" in screen_text(app), "the keys")
            await pilot.press("l")
            await _until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "board")
            await pilot.press("enter")  # the best: ann
            await _until(pilot, lambda: isinstance(app.screen, PlayerScreen), "ann's page")
            page = app.screen
            assert isinstance(page, PlayerScreen) and page.player == "ann"
            await _until(pilot, lambda: "7 finished games" in screen_text(app), "the games")
            text = screen_text(app)
            assert "Rating " in text and "after 6 rated games" in text
            assert "Rating over time:" in text
            assert "(unrated)" in text  # the game with cy
            await pilot.press("enter")  # the newest: t1
            await _until(pilot, lambda: isinstance(app.screen, HostReplayScreen), "the replay")
            assert "t1.json" in screen_text(app)
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is page, "back to the page")
        await client.close()


async def test_the_finished_list_filters_by_player(tmp_path: Path) -> None:
    _seed_games(tmp_path / "host-data")
    tables = tmp_path / "host-data" / "host" / "tables"
    put_finished(tables, "t1", "cy,dee", 3)
    async with (
        hosting(tmp_path) as (_, port),
        finished_games(port, "eve") as (app, pilot, screen),
    ):
        assert len(screen.games) == 7
        text = screen_text(app)
        assert "ann 30 ★, bob 20" in text and " rated " in text and "unrated" in text
        screen.query_one("#games-filter").focus()
        await pilot.press(*"DEE", "enter")
        await _until(pilot, lambda: "The games of DEE" in screen_text(app), "filtered")
        assert [g.table for g in screen.games] == ["t1"]


async def test_the_finished_lists_filter_never_takes_in_what_it_would_draw_raw(
    tmp_path: Path,
) -> None:
    """A field draws its value as it is: a pasted ``ESC ] 52`` (set the terminal's
    clipboard) or bidi override would reach the terminal as typed (as the chat field's
    did, found by hand). The filter's name field refuses such a paste whole and says
    why it was not pasted; a plain name goes in."""
    from textual import events
    from textual.widgets import Input

    _seed_games(tmp_path / "host-data")
    async with (
        hosting(tmp_path) as (_, port),
        finished_games(port, "eve") as (app, pilot, screen),
    ):
        field = screen.query_one("#games-filter", Input)
        field.focus()
        await pilot.pause()
        for hostile in ("d\u202eee", "\x1b]52;c;aGk=\x07"):
            app.post_message(events.Paste(hostile))
            await pilot.pause()
            assert field.value == "", (hostile, field.value)
            assert "Not pasted: " in screen_text(app)
        app.post_message(events.Paste("dee"))
        await pilot.pause()
        assert field.value == "dee"


def test_a_players_page_in_lines_says_a_provisional_rating_without_a_number() -> None:
    games = [
        FinishedGame("t2", ("ann", "bob"), 200, True, (10, 30), (2, 1), (-31, 42)),
        FinishedGame("t1", ("ann", "cy"), 100, False, (20, 5), (1, 2), ()),
    ]
    record = player_record("ANN", games)
    assert (record.wins, record.rated, record.ratings, record.provisional) == (1, 1, (-31,), True)
    lines = player_lines(record)
    assert lines[0] == "ANN: 2 finished games, 1 won."
    assert lines[1] == "Rating: provisional, 1 rated game of the 5 that give a number."
    assert "-3.1" not in "\n".join(lines)
    assert lines[3].startswith("t2, ") and lines[3].endswith("ann 10, bob 30 (won); rated.")
    assert sparkline([0, 5, 10]) == "▁▅█" and sparkline([3, 3], ascii_only=True) == "__"


@pytest.mark.parametrize("language", ["de", "zh-TW"])
async def test_the_lobby_with_people_fits_80x24_in_german_and_chinese(
    tmp_path: Path, language: str
) -> None:
    from paris_tui import i18n

    from .test_layout_fit import check_screen

    try:
        i18n.set_language(language)
        async with hosting(tmp_path, "Bartholomäusxxxxxxxx,cy") as (_host, port):
            players = [await _client(port) for _ in range(2)]
            await players[0].join("Bartholomäusxxxxxxxx")
            await players[1].join("cy")
            dee = await _client(port)
            await dee.open_table("dee", ("me", "invite:Zoë", "open"))
            client = await _client(port)
            app = LobbyApp(client, "Zoë")
            async with app.run_test(size=(80, 24)) as pilot:
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen)
                await _until(pilot, lambda: len(lobby.people.online) == 2, "who is online")
                await _until(pilot, lambda: "dee" in screen_text(app), "the invitation")
                await pilot.pause()
                text = screen_text(app)
                assert "Bartholomäusxxxxxxxx" in text and "t2" in text
                problems = check_screen(app)
                assert not problems, "\n".join(map(str, problems))
                await pilot.press("o")
                await _until(pilot, lambda: isinstance(app.screen, WhoScreen), "o's list")
                await pilot.pause()
                problems = check_screen(app)
                assert not problems, "\n".join(map(str, problems))
            for other in (*players, dee, client):
                await other.close()
    finally:
        i18n.set_language("en")
