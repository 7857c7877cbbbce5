"""The end screen says how a host rated the game: the ratings' moves, or
why the game is unrated and who left (ranked last)."""

from __future__ import annotations

from textual.app import App

from paris_tui.app.local.session import points_by_kind
from paris_tui.app.look.rating_words import rated_text
from paris_tui.app.screens.end import EndScreen
from paris_tui.core import Event, Game
from paris_tui.net.protocol import RatedResult

from .helpers import screen_text


def finished(names: list[str], seed: int) -> tuple[Game, list[Event]]:
    game = Game.new(names, seed=seed)
    every: list[Event] = []
    for _ in range(1000):
        if game.is_over:
            return game, every
        every += game.play(game.legal_moves()[0])
    raise AssertionError("the game did not end")


NAMES = ("Ann", "Bob", "Cy")


def test_a_rated_game_shows_each_rating_before_and_after() -> None:
    text = rated_text(RatedResult(True, None, (1, 3, 2), (), (0, 41, -5), (52, 12, -3)), NAMES)
    plain = text.plain
    assert plain.startswith("Rated game (rating: mu − 3σ): ")
    assert "Ann 0.0 → 5.2 (+5.2)" in plain
    assert "Bob 4.1 → 1.2 (-2.9)" in plain
    assert "Cy -0.5 → -0.3 (+0.2)" in plain


def test_a_provisional_rating_shows_no_number_after_a_first_loss() -> None:
    result = RatedResult(True, None, (1, 2), (), (0, 0), (31, -31), (True, False))
    plain = rated_text(result, NAMES[:2]).plain
    assert "Ann ? (provisional)" in plain and "3.1" not in plain.split("Bob")[0]
    assert "Bob 0.0 → -3.1 (-3.1)" in plain  # not provisional: the number, negative too


def test_an_unrated_game_says_why_and_who_left() -> None:
    left = rated_text(RatedResult(False, "leaver", (1, 3, 2), (1,)), NAMES).plain
    assert "unrated: a player left it" in left and "Bob left the game and is ranked last." in left
    assert "an AI played a seat" in rated_text(RatedResult(False, "ai_seat", (1, 2)), NAMES).plain
    away = rated_text(RatedResult(False, "takeover", (1, 2)), NAMES).plain
    assert "the AI played for a player who was away" in away
    one = rated_text(RatedResult(False, "same_person", (1, 2)), NAMES).plain
    assert "two seats came from one address" in one


class EndApp(App[None]):
    def __init__(self, screen: EndScreen) -> None:
        super().__init__()
        self.end = screen

    def on_mount(self) -> None:
        self.push_screen(self.end)


async def test_the_rating_comes_after_the_end_screen_and_is_shown_under_the_winner() -> None:
    game, every = finished(list(NAMES), 3)
    screen = EndScreen(
        game.view(None), every, points_by_kind(game.players, every), step=0, play_again=False
    )
    app = EndApp(screen)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert "unrated" not in screen_text(app)
        screen.set_rated(RatedResult(False, "leaver", (1, 2, 3), (2,)))
        await pilot.pause()
        text = screen_text(app)
        assert "This game is unrated: a player left it." in text
        assert "Cy left the game and is ranked last." in text
        assert text.index("Final scores") < text.index("unrated")
