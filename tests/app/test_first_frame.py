"""A host's game screen is drawn once as it opens: its first frame is the
settled one, with nothing laid out and drawn again for nothing just after it.

Each of these cost a forked SSH app CPU time after its first frame, while other
players' apps were starting: the footer's keys made twice (once before the screen had
set its turn's keys), the map drawn again at the size it was just drawn at, and the game
screen composed inside Textual's start-up batch, whose frame Textual throws away.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from paris_tui.app.app import ParisApp
from paris_tui.app.screens.base import ParisScreen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.start import warm_up
from paris_tui.app.widgets.board_map import BoardMap
from paris_tui.app.widgets.footer import KeysFooter


async def _opened(app: ParisApp, footer_keys: list[tuple[int, list[str]]] | None = None) -> None:
    """Open the app's game screen and let it settle (bounded); ``footer_keys`` gets how
    often its footer made its keys, and the keys."""
    async with app.run_test(headless=True, size=(120, 40)) as pilot:
        for _ in range(40):
            await pilot.pause()
            if isinstance(app.screen, GameScreen):
                break
        for _ in range(5):
            await pilot.pause(0.02)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        if footer_keys is not None:
            footer = screen.query_one(KeysFooter)
            made = [str(getattr(key, "key", "")) for key in footer.query("FooterKey")]
            footer_keys.append((footer.recomposed, made))


def _seat_app() -> ParisApp:
    """A door's app: a seat at a host's new four-player game (its turn first)."""
    link: Any = warm_up._StillLink(warm_up._table())
    return ParisApp(link=link, deliberate_keys=False)


def test_the_footer_has_the_turns_keys_when_the_screen_is_first_laid_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ParisScreen's handler runs before Textual's own, which lays the screen out.
    at_layout: list[list[str]] = []
    resumed = ParisScreen.on_screen_resume

    def seen_resume(self: ParisScreen) -> None:
        if isinstance(self, GameScreen):
            at_layout.append([str(getattr(k, "key", "")) for k in self.query("FooterKey")])
        resumed(self)

    monkeypatch.setattr(ParisScreen, "on_screen_resume", seen_resume)
    seen: list[tuple[int, list[str]]] = []
    asyncio.run(_opened(_seat_app(), seen))
    [(made, keys)] = seen
    assert made == 1  # made once, never again for the same keys
    assert "enter" in keys  # the turn's key: pick the tile
    assert at_layout[0] == keys


def test_the_map_is_drawn_once_at_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, int]] = []
    render_all = BoardMap.render_all

    def counted(self: BoardMap) -> Any:
        drawn.append((self.size.width, self.size.height))
        return render_all(self)

    monkeypatch.setattr(BoardMap, "render_all", counted)
    asyncio.run(_opened(_seat_app()))
    sized = [size for size in drawn if size[0] and size[1]]
    assert len(sized) == 1, sized


def test_the_game_screen_is_composed_after_the_start_up_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Textual (8.2.8) discards a frame rendered while its start-up batch is open: a game
    # screen composed in it was rendered once for nothing. (_batch_count: private.)
    batches: list[int] = []
    on_mount = GameScreen.on_mount

    def seen(self: GameScreen) -> None:
        batches.append(self.app._batch_count)
        on_mount(self)

    monkeypatch.setattr(GameScreen, "on_mount", seen)
    asyncio.run(_opened(_seat_app()))
    assert batches == [0]
