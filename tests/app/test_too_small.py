"""Behind the "please enlarge the terminal" notice the game waits.

Reported at 60x20: one Enter behind the notice took a tile and removed a
business; the AIs then played on and a round of tours ran unseen. Now no key
and no click reaches the game while the notice shows (only Ctrl+C / Ctrl+Q
quit, the game being saved), AI moves and animations wait (paused, not
dropped), and the game is exactly where it was once the terminal is large
again. Keys and clicks are sent as a terminal's would be (through the driver,
so the app sees them as it would in a terminal), sizes with
``pilot.resize_terminal``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual import events
from textual.pilot import Pilot
from textual.widget import Widget

from paris_tui.app.app import ParisApp
from paris_tui.app.local.session import Session
from paris_tui.app.look.frames import Frame
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.takeover import TakeoverDialog
from paris_tui.app.screenshots import _policy, grand_tour_position, takeover_position
from paris_tui.app.widgets.panels import TileRow

from .helpers import find_game, from_terminal, make_app, new_session, press, screen_text

SMALL = (60, 20)
LARGE = (80, 24)
# Everything a player might press; q and ctrl+p would quit or open the palette if they got in.
KEYS = [
    "enter", "1", "2", "3", "4", "5", "left", "right", "up", "down", "space", "tab",
    "escape", "p", "r", "t", "n", "q", "question_mark", "f1", "ctrl+p", "pagedown",
]  # fmt: skip


async def terminal_click(pilot: Pilot[object], widget: Widget) -> None:
    """A mouse click on ``widget`` as a terminal sends it (press, release)."""
    x, y = widget.region.center
    for cls in (events.MouseDown, events.MouseUp):
        event = cls(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y)
        from_terminal(pilot.app, event)
        await pilot.pause()


async def wait_until(pilot: Pilot[object], done: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        await pilot.pause(0.02)
    return True


async def resize(pilot: Pilot[object], size: tuple[int, int]) -> None:
    """Resize, and wait until the active screen has taken the new size (bounded)."""
    await pilot.resize_terminal(*size)
    small = size[0] < LARGE[0] or size[1] < LARGE[1]
    app = pilot.app
    assert await wait_until(pilot, lambda: app.screen.has_class("-too-small") == small, 2.0)


def state(app: ParisApp, game: GameScreen) -> tuple[object, ...]:
    """What a key or a click could change."""
    assert app.session is not None
    return (
        app.session.move_count,
        type(app.screen).__name__,
        len(app.screen_stack),
        game.turn_seat,
        game.highlight,
        game.route_hidden,
        app.show_preview,
        app.theme,
        app.is_running,
    )


async def test_no_key_and_no_click_reaches_the_game_behind_the_notice() -> None:
    session = new_session("Ann,ai:random,ai:random", 5, None)
    app = make_app(session)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen) and game.turn_seat == 0
        rows = list(game.query(TileRow))
        await terminal_click(pilot, rows[1])  # clicks get in while the terminal is large
        assert game.highlight == 1
        before = state(app, game)
        await resize(pilot, SMALL)
        assert "Please enlarge the terminal" in screen_text(app)
        for key in KEYS:
            await press(pilot, key)
            assert state(app, game) == before, f"{key!r} reached the game behind the notice"
        for row in rows:
            await terminal_click(pilot, row)
            await terminal_click(pilot, row)
        assert state(app, game) == before, "a click reached the game behind the notice"
        await resize(pilot, LARGE)
        await pilot.pause()
        assert state(app, game) == before
        assert "Please enlarge" not in screen_text(app)
        await press(pilot, "enter")  # and the game goes on
        assert session.move_count > before[0]


async def test_the_takeover_dialog_waits_behind_the_notice() -> None:
    """The reported case: an Enter behind the notice removed a business."""
    session, index = takeover_position()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await press(pilot, "enter", str(index + 1), "enter")
        dialog = app.screen
        assert isinstance(dialog, TakeoverDialog)
        moves = session.move_count
        await resize(pilot, SMALL)
        assert "Please enlarge the terminal" in screen_text(app)
        for key in ["enter", "down", "enter", "space", "escape", "tab", "enter"]:
            await press(pilot, key)
        for button in dialog.query("Button"):
            await terminal_click(pilot, button)
        assert app.screen is dialog and session.move_count == moves
        await resize(pilot, (120, 40))
        await pilot.pause()
        assert app.screen is dialog and session.move_count == moves
        await press(pilot, "enter")
        assert await wait_until(pilot, lambda: session.move_count == moves + 1, 5.0)


async def test_ai_moves_wait_behind_the_notice() -> None:
    # An AI to move first, and the terminal too small from the start.
    session = new_session("ai:random,Ann,ai:random", 2, None)
    app = make_app(session, ai_delay=0.05)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause(0.6)  # a dozen AI delays
        assert session.move_count == 0
        await resize(pilot, LARGE)
        game = find_game(app)
        assert game is not None
        assert await wait_until(pilot, lambda: game.turn_seat == 1, 5.0)
        assert session.move_count == 1

    # The terminal shrinks while an AI's choice is on show (for 2 s: time enough to shrink).
    session = new_session("Ann,ai:random,ai:random", 5, None)
    app = make_app(session, ai_delay=2.0)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        await press(pilot, "enter")
        assert await wait_until(pilot, lambda: game.ai_choice is not None, 5.0)
        await resize(pilot, SMALL)
        choice = game.ai_choice
        await pilot.pause(2.5)  # longer than the delay
        assert session.move_count == 1 and game.ai_choice == choice
        game.ai_delay = 0.01  # from here on, quickly
        await resize(pilot, LARGE)
        assert await wait_until(pilot, lambda: game.turn_seat == 0, 10.0)
        assert session.move_count > 1


def tour_session() -> tuple[Session, int]:
    session = grand_tour_position()
    return session, session.view(None).face_up.index(_policy(session).tile)


async def test_a_tour_waits_behind_the_notice() -> None:
    session, index = tour_session()
    app = make_app(session, anim=0.5)  # each frame shows for 0.5 s or more: time to shrink
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await press(pilot, "enter", str(index + 1), "enter")
        if isinstance(app.screen, TakeoverDialog):
            await press(pilot, "enter")
        game = find_game(app)
        assert game is not None and game.frame is not None
        await resize(pilot, SMALL)
        shown: Frame | None = game.frame
        assert shown is not None
        left = len(game.frames)
        moves = session.move_count
        await pilot.pause(shown.weight * game.anim * 2)  # twice the frame's time
        assert game.frame is shown and len(game.frames) == left
        assert session.move_count == moves and app.screen is game
        await resize(pilot, (120, 40))  # the frame shows again, then the tour goes on
        assert await wait_until(pilot, lambda: len(game.frames) < left or game.frame is None, 5.0)
        await press(pilot, "space")  # keys work again: Space skips the rest
        assert await wait_until(pilot, lambda: game.frame is None, 5.0)
        assert isinstance(app.screen, HandoffScreen) or game.turn_seat is not None


async def test_the_game_end_reveal_waits_behind_the_notice() -> None:
    session, _ = tour_session()
    while not session.view(None).is_over:
        session.play(_policy(session))
    app = make_app(session, anim=0.5)  # one step of the reveal each 0.5 s: time to shrink
    async with app.run_test(size=(100, 32)) as pilot:
        assert await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), 5.0)
        end = app.screen
        assert isinstance(end, EndScreen)
        await resize(pilot, SMALL)
        shown = end.shown
        assert shown < len(end.items)
        await pilot.pause(end.step * 3)
        assert end.shown == shown
        await resize(pilot, (100, 32))
        assert await wait_until(pilot, lambda: end.shown == len(end.items), 10.0)
