"""While a tour plays the footer offers only what works then: `p Preview` is gone
(there is no tile to preview), and it comes back with the next turn."""

from __future__ import annotations

import asyncio

from paris_tui.app.screenshots import _policy, grand_tour_position
from paris_tui.app.widgets.footer import KeysFooter

from .helpers import find_game, make_app


def _footer_keys(app: object) -> list[str]:
    screen = app.screen  # type: ignore[attr-defined]
    footer = screen.query_one(KeysFooter)
    return [str(getattr(key, "key", "")) for key in footer.query("FooterKey")]


def test_the_footer_hides_preview_while_a_tour_plays() -> None:
    session = grand_tour_position()
    move = _policy(session)
    app = make_app(session, anim=100.0)  # frames stay until stepped on below

    async def go() -> None:
        async with app.run_test(headless=True, size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # past the hand-off
            game = find_game(app)
            assert game is not None
            await pilot.pause()
            assert "p" in _footer_keys(app)  # a turn: the preview is on offer
            assert game.check_action("toggle_preview", ())
            await pilot.press(str(game.view.face_up.index(move.tile) + 1), "enter")
            if app.screen is not game:
                await pilot.press("enter")  # a takeover: first choice
            await pilot.pause()
            assert game.frame is not None, "no tour is playing"
            assert "p" not in _footer_keys(app)
            assert "space" in _footer_keys(app)  # Skip tour is what a tour offers
            assert not game.check_action("toggle_preview", ())
            shown = app.show_preview
            await pilot.press("p")  # pressed anyway: nothing changes
            await pilot.pause()
            assert app.show_preview == shown
            steps = 0
            while game.frame is not None:
                steps += 1
                assert steps < 300
                if game.frame_timer is not None:
                    game.frame_timer.stop()
                game._next_frame()
            for _ in range(40):
                await pilot.pause()
                if app.screen is not game:
                    await pilot.press("enter")  # the next player's hand-off
                if game.flow.turn_seat is not None and app.screen is game:
                    break
            assert game.frame is None and game.flow.turn_seat is not None
            assert "p" in _footer_keys(app)  # the next turn: back again

    asyncio.run(go())
