"""Who and what is drawn how: player symbols and colours, line letters and colours.

Never colour alone: every player has a symbol and every line a letter, so
colour-blind players and ``NO_COLOR=1`` terminals can play. The colours here
are defaults for Rich styles drawn in code (the map); widgets' own styling
lives in ``styles/*.tcss``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LINE_COLOURS", "PLAYER_STYLES", "PlayerStyle", "player_style"]


@dataclass(frozen=True, slots=True)
class PlayerStyle:
    """A seat's look: symbol, colour name (for people) and colour (for Rich)."""

    symbol: str
    colour_name: str
    colour: str


# Business colours: chosen apart from the five line colours and from each other.
PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle("●", "orange", "#ff8c1a"),
    PlayerStyle("▲", "cyan", "#2ad4d4"),
    PlayerStyle("■", "white", "#f2f2f2"),
    PlayerStyle("◆", "violet", "#b57cff"),
)

# Line colours (the board's ids) for Rich; the line's letter always goes with it.
LINE_COLOURS: dict[str, str] = {
    "blue": "#3d7dff",
    "yellow": "#f5d000",
    "red": "#ff4040",
    "pink": "#ff6ec7",
    "green": "#2fc24a",
}


def player_style(seat: int) -> PlayerStyle:
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]
