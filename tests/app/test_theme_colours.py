"""The theme's greys stay greys on terminals of 256 and 16 colours (app/look/themes.py).

Over SSH most players have 256 colours (ssh does not forward ``COLORTERM``), and
Textual's dark theme drew the footer, the preview bar and the hand-off box in a
blue-tinted grey (``#242f38``) that 256 colours round to navy (colour 17). Here the
main screens are drawn and every colour meant as a grey (channels close together)
is rounded as the terminal rounds it (Rich's ``Color.downgrade``): it must stay a
grey, of about its lightness in 256 colours.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.color import Color, ColorSystem
from textual.pilot import Pilot
from textual.theme import BUILTIN_THEMES

from paris_tui.app.look.themes import DARK, LIGHT, THEMES
from paris_tui.app.screenshots import build_session, takeover_position

from .colours import Pair, RoundedApp, drawn_colours, neutral_problems, open_lobby, rounded, text_on

SYSTEMS = {"256": ColorSystem.EIGHT_BIT, "16": ColorSystem.STANDARD}

Go = Callable[[Pilot[Any], Path], Awaitable[None]]


def _keys(*keys: str) -> Go:
    async def go(pilot: Pilot[Any], _folder: Path) -> None:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()

    return go


async def _takeover(pilot: Pilot[Any], _folder: Path) -> None:
    index = takeover_position()[1]
    await _keys("enter", str(index + 1), "enter")(pilot, _folder)


async def _lobby(pilot: Pilot[Any], folder: Path) -> None:
    await pilot.pause()
    await open_lobby(pilot, folder)


SCENES: dict[str, tuple[Callable[[], Any], Go]] = {
    "hand-off": (lambda: build_session("Ann,Bob", 3, 6), _keys()),
    "first-turn": (lambda: build_session("Ann,Bob,Cy", 19), _keys("enter")),
    "turn": (lambda: build_session("Ann,Bob,Cy", 3, 19), _keys("enter", "right")),
    "turn-light": (lambda: build_session("Ann,Bob,Cy", 3, 19), _keys("enter", "right", "t")),
    "game-end": (lambda: build_session("Ann,Bob,Cy", 4, 44), _keys("enter", "enter")),
    "help": (lambda: build_session("Ann,Bob", 3, 2), _keys("enter", "f1")),
    "takeover": (lambda: takeover_position()[0], _takeover),
    "new-game": (lambda: None, _keys()),
    "lobby": (lambda: None, _lobby),
}


def _drawn(scene: str, size: tuple[int, int], folder: Path) -> tuple[set[Color], set[Pair]]:
    """The colours the scene draws, and each text colour with its background."""
    make, go = SCENES[scene]
    app = RoundedApp(make(), system=ColorSystem.EIGHT_BIT)

    async def run() -> tuple[set[Color], set[Pair]]:
        async with app.run_test(headless=True, size=size) as pilot:
            await go(pilot, folder)
            return drawn_colours(app), text_on(app)

    return asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_every_grey_a_screen_draws_stays_grey(
    scene: str, size: tuple[int, int], tmp_path: Path
) -> None:
    colours, pairs = _drawn(scene, size, tmp_path)
    assert len(colours) > 3  # something was drawn, in colour
    for label, system in SYSTEMS.items():
        problems = neutral_problems(colours, system)
        assert not problems, f"in {label} colours: " + "; ".join(problems)
        # and no text in the colour of its own background (a face-up stop's empty slots
        # were once grey on grey in 16 colours)
        unseen = {
            (text, fg.get_truecolor().hex, bg.get_truecolor().hex)
            for text, fg, bg in pairs
            if rounded(fg, system) == rounded(bg, system)
        }
        assert not unseen, f"in {label} colours, text unseen on its background: {unseen}"


@pytest.mark.parametrize("name", [DARK, LIGHT])
def test_the_themes_neutrals_are_greys_on_the_ramp(name: str) -> None:
    theme = next(t for t in THEMES if t.name == name)
    made = theme.to_color_system().generate()
    for key in ("background", "surface", "panel", "footer-background", "scrollbar"):
        colour = Color.parse(made[key][:7])
        assert not neutral_problems([colour], ColorSystem.EIGHT_BIT), key
        assert not neutral_problems([colour], ColorSystem.STANDARD), key
    # the panels stand apart from the background in 256 and in 16 colours
    for system in SYSTEMS.values():
        panel, background = (
            rounded(Color.parse(made[k][:7]), system) for k in ("panel", "background")
        )
        assert panel != background, system


def test_the_check_sees_textual_darks_navy_panel() -> None:
    """What the check is for: Textual's own dark theme fails it (its panel is navy)."""
    made = BUILTIN_THEMES["textual-dark"].to_color_system().generate()
    panel = Color.parse(made["panel"])
    assert panel.downgrade(ColorSystem.EIGHT_BIT).number == 17
    assert neutral_problems([panel], ColorSystem.EIGHT_BIT)
