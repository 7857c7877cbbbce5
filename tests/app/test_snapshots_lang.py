"""Snapshots of the main screens in German and Traditional Chinese, and in the ascii glyphs.

The positions are those of ``test_snapshots.py`` and the README's screenshots
(fixed seeds, a fixed policy): the new-game screen, a hand-off, a turn with the
left-over preview, the takeover dialog, a grand tour with the bus on its line,
the game end and the help. Each language at 80x24 and 120x40; English in the
ascii glyph set at 80x24 (the turn in ascii is ``test_snapshots_ascii.py``'s);
and the turn as a Taiwanese terminal shows it
(``LANG=zh_TW.UTF-8``: Chinese and the ascii glyphs, both from the locale).

The language and the glyph set are chosen as the command line chooses them
(``helpers.choose_like_the_cli``: ``--lang``, ``--glyphs``, else the locale);
English and the Unicode glyphs come back after each test.

Update with ``--snapshot-update``, then look at every changed SVG.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from textual.pilot import Pilot

from paris_tui import i18n
from paris_tui.app.app import ParisApp
from paris_tui.app.look.glyphs import current_glyphs, set_glyphs
from paris_tui.app.screenshots import (
    build_session,
    grand_tour_position,
    into_grand_tour,
    takeover_position,
)

from .helpers import choose_like_the_cli, make_app

SnapCompare = Any


@pytest.fixture(autouse=True)
def _unicode_after() -> Iterator[None]:
    yield
    set_glyphs("unicode")


@dataclass
class Scene:
    """An app in a position, and what a player presses (or does) before the picture."""

    make: Callable[[], ParisApp]
    press: list[str] = field(default_factory=list)
    run_before: Callable[[Pilot[Any]], Awaitable[None]] | None = None


def _takeover() -> Scene:
    session, index = takeover_position()
    return Scene(lambda: make_app(session), ["enter", str(index + 1), "enter"])


def _grand_tour() -> Scene:
    session = grand_tour_position()

    async def step(pilot: Pilot[Any]) -> None:
        await into_grand_tour(pilot, session)

    return Scene(lambda: make_app(session, anim=100.0), run_before=step)


SCENES: dict[str, Callable[[], Scene]] = {
    "new_game": lambda: Scene(lambda: make_app(None)),
    "hand_off": lambda: Scene(lambda: make_app(build_session("Ann,Bob", 3, 6))),
    "turn_preview": lambda: Scene(
        lambda: make_app(build_session("Ann,Bob,Cy", 3, 19)), ["enter", "right"]
    ),
    "takeover": _takeover,
    "grand_tour": _grand_tour,
    "game_end": lambda: Scene(
        lambda: make_app(build_session("Ann,Bob,Cy", 4, 44)), ["enter", "enter"]
    ),
    "help": lambda: Scene(lambda: make_app(build_session("Ann,Bob", 3, 2)), ["enter", "f1"]),
}

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


def _snap(snap_compare: SnapCompare, scene: str, size: tuple[int, int]) -> bool:
    shot = SCENES[scene]()
    return bool(
        snap_compare(shot.make(), press=shot.press, run_before=shot.run_before, terminal_size=size)
    )


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("lang", ["de", "zh-TW"])
def test_screen_in_language(snap_compare: SnapCompare, lang: str, scene: str, size: str) -> None:
    choose_like_the_cli(lang)  # paris-tui --lang LANG (glyphs: the locale's, C.UTF-8: unicode)
    assert _snap(snap_compare, scene, SIZES[size])


# The turn in ascii is test_snapshots_ascii.py's.
@pytest.mark.parametrize("scene", [name for name in SCENES if name != "turn_preview"])
def test_screen_in_ascii_80x24(snap_compare: SnapCompare, scene: str) -> None:
    choose_like_the_cli(None, "ascii")  # paris-tui --glyphs ascii, in English
    assert _snap(snap_compare, scene, (80, 24))


def test_turn_in_a_taiwanese_terminal_80x24(
    snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    choose_like_the_cli(None)  # no option: the locale gives Chinese and the ascii glyphs
    assert i18n.current_language() == "zh-TW"
    assert current_glyphs().is_ascii
    assert _snap(snap_compare, "turn_preview", (80, 24))


def test_screenshots_widen_chinese_text_to_its_cells() -> None:
    """Rich's SVG gives a run of text one cell per character: the README's pictures
    stretch a Chinese run to its two cells a character, and leave ASCII runs alone."""
    from paris_tui.app.screenshots import widen_text

    def run(length: str, text: str) -> str:
        return (
            f'<text class="r1" x="0" y="0" textLength="{length}" clip-path="url(#a)">{text}</text>'
        )

    # Cells of 12.2: "Ann " is 4 cells; "遊戲結束" 4 characters in 8 cells; "袋子 " 5 cells.
    svg = run("48.8", "Ann ") + run("48.8", "遊戲結束") + run("36.6", "袋子&#160;")
    assert widen_text(svg) == run("48.8", "Ann ") + run("97.6", "遊戲結束") + run(
        "61", "袋子&#160;"
    )
    assert widen_text(widen_text(svg)) == widen_text(svg)
    english = run("48.8", "Ann ") + run("48.8", "Game")
    assert widen_text(english) == english


async def test_the_game_end_in_ascii_draws_only_ascii() -> None:
    """In ascii, the end screen's sack line points with ``->`` too (it drew ``→``)."""
    from .helpers import screen_text

    choose_like_the_cli(None, "ascii")
    app = make_app(build_session("Ann,Bob,Cy", 4, 44))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter", "enter")
        await pilot.pause()
        text = screen_text(app)
    assert "Sack:" in text
    assert not [ch for ch in text if ord(ch) > 127], text
