"""Player and line colours stay apart in every colour system and theme (palette.py).

With ``TEXTUAL_COLOR_SYSTEM=standard`` (16 colours) the first player
was the same bright red as the red line and the highlight, and the third
player was plain white. A terminal with fewer colours rounds each colour to
the nearest one of its palette, as Rich's ``Color.downgrade`` does when the
app writes to it; these tests round every colour the same way.
"""

from __future__ import annotations

import pytest
from rich.color import Color, ColorSystem
from textual.theme import Theme

from paris_tui.app.look.palette import LINE_COLOURS, PLAYER_STYLES, line_colour
from paris_tui.app.look.themes import DARK, LIGHT, THEMES
from paris_tui.core import classic_board

SYSTEMS = {
    "16 colours": ColorSystem.STANDARD,
    "256 colours": ColorSystem.EIGHT_BIT,
    "truecolor": ColorSystem.TRUECOLOR,
}


def rounded(colour: str, system: ColorSystem) -> str:
    """What a terminal of ``system`` shows for ``colour``: a palette index or an RGB value."""
    down = Color.parse(colour).downgrade(system)
    if down.number is not None:
        return f"colour({down.number})"
    assert down.triplet is not None
    return down.triplet.hex


def _theme(name: str) -> Theme:
    return next(theme for theme in THEMES if theme.name == name)


def theme_colours(theme_name: str) -> dict[str, str]:
    """The theme's highlight (the accent: the map's lit stop), text and background."""
    generated = _theme(theme_name).to_color_system().generate()
    return {key: generated[key] for key in ("accent", "foreground", "background")}


CASES = [
    pytest.param(theme, system, id=f"{theme}-{label}")
    for theme in (DARK, LIGHT)
    for label, system in SYSTEMS.items()
]


@pytest.mark.parametrize(("theme", "system"), CASES)
def test_players_stay_apart(theme: str, system: ColorSystem) -> None:
    dark = _theme(theme).dark
    board = classic_board()
    players = [rounded(look.colour_for(dark), system) for look in PLAYER_STYLES]
    lines = {
        line.id: rounded(line_colour(line.id, dark, index), system)
        for index, line in enumerate(board.lines)
    }
    ui = {key: rounded(value, system) for key, value in theme_colours(theme).items()}

    assert len(set(players)) == len(players), f"two players look alike: {players}"
    assert len(set(lines.values())) == len(lines), f"two lines look alike: {lines}"
    for seat, colour in enumerate(players):
        symbol = PLAYER_STYLES[seat].symbol
        same_line = [line for line, c in lines.items() if c == colour]
        assert not same_line, f"{symbol} looks like the {same_line} line ({colour})"
        assert colour != ui["accent"], f"{symbol} looks like the highlight ({colour})"
        assert colour != ui["foreground"], f"{symbol} looks like plain text ({colour})"
        assert colour != ui["background"], f"{symbol} vanishes in the background ({colour})"


def test_the_issue_8_case() -> None:
    """In 16 colours on the dark theme: ● is not the red line's or the highlight's bright red,
    ■ is not plain white."""
    std = ColorSystem.STANDARD
    first = rounded(PLAYER_STYLES[0].colour, std)
    third = rounded(PLAYER_STYLES[2].colour, std)
    assert first != rounded(LINE_COLOURS["red"], std)
    assert first != rounded(theme_colours(DARK)["accent"], std)
    assert third not in {"colour(7)", "colour(15)"}


def test_rounding_is_what_the_terminal_gets() -> None:
    """The check above means something: bright red is colour 9 in 16 colours."""
    assert rounded("#ff4d4d", ColorSystem.STANDARD) == "colour(9)"
    assert rounded("#ff9a2e", ColorSystem.STANDARD) == "colour(9)"  # the old first player
    assert rounded("#e8e8e8", ColorSystem.STANDARD) == "colour(15)"  # the old third player
