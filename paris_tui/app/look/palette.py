"""Who and what is drawn how: player symbols and colours, line letters and colours.

Never colour alone: every player has a symbol and every line a letter, so
colour-blind players and ``NO_COLOR=1`` terminals can play. The colours here
are defaults for Rich styles drawn in code (the map); widgets' own styling
lives in ``styles/*.tcss``, with the themes' colours (:mod:`.themes`).

Every colour comes in two shades: one for dark backgrounds (``colour``,
:data:`LINE_COLOURS`) and a deeper one for light backgrounds (``light``,
:data:`LINE_COLOURS_LIGHT`). Pick with :meth:`PlayerStyle.colour_for` and
:func:`line_colour`, passing ``App.current_theme.dark``.
"""

from __future__ import annotations

from dataclasses import dataclass

from paris_tui.app.look.glyphs import current_glyphs

__all__ = [
    "LINE_COLOURS",
    "LINE_COLOURS_LIGHT",
    "PLAYER_STYLES",
    "PlayerStyle",
    "line_colour",
    "player_style",
]


@dataclass(frozen=True, slots=True)
class PlayerStyle:
    """A seat's look: symbol, colour name (for people) and colour (for Rich).

    ``colour`` is for dark backgrounds, ``light`` for light ones. ``glyph`` is
    the seat's symbol in Unicode; :attr:`symbol` is what is drawn, in the glyph
    set in use (:func:`~paris_tui.app.look.glyphs.current_glyphs`: ``●`` or ``@``).
    """

    glyph: str
    colour_name: str
    colour: str
    light: str = ""

    @property
    def symbol(self) -> str:
        """The seat's symbol in the glyph set in use."""
        return current_glyphs().translate_map(self.glyph)

    def colour_for(self, dark: bool = True) -> str:
        """The colour to draw with on a dark (default) or light background."""
        return self.colour if dark or not self.light else self.light


# Business colours, each with a symbol of its own (never colour alone). They
# stay apart from each other, from the five line colours, from the highlight
# (the theme's accent) and from plain text, in truecolor and also once a
# terminal of 256 or 16 colours has rounded them to its palette
# (TEXTUAL_COLOR_SYSTEM=256 / standard), on dark and on light
# backgrounds: tests/app/test_palette.py checks every pair.
#
# 16 colours leave little room: the lines take red, green, yellow, blue and
# magenta, the accent rounds to bright red. So, in 16 colours, on a dark
# background: ● dark yellow-orange, ▲ bright cyan, ■ purple (magenta), ◆ grey;
# on a light one: ● grey-brown, ▲ cyan, ■ bright magenta, ◆ navy.
PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle("●", "orange", "#d0701e", "#7a5030"),
    PlayerStyle("▲", "cyan", "#35dede", "#00838f"),
    PlayerStyle("■", "violet", "#a848c8", "#b04cd8"),
    PlayerStyle("◆", "slate", "#707c90", "#34309c"),
)

# Line colours (the board's ids) for Rich; the line's letter always goes with it.
LINE_COLOURS: dict[str, str] = {
    "blue": "#4a8cff",
    "yellow": "#f5d000",
    "red": "#ff4d4d",
    "pink": "#ff74cc",
    "green": "#3ccf57",
}

# The same lines on a light background (deeper shades, readable on #e0e0e0).
LINE_COLOURS_LIGHT: dict[str, str] = {
    "blue": "#1f5fd6",
    "yellow": "#a37f00",
    "red": "#d01f1f",
    "pink": "#c2238f",
    "green": "#1d8a34",
}

# Lines of another board whose ids are not colour names: cycled by line index.
_SPARE_LINE_COLOURS = ("#4a8cff", "#f5d000", "#ff4d4d", "#ff74cc", "#3ccf57")
_SPARE_LINE_COLOURS_LIGHT = ("#1f5fd6", "#a37f00", "#d01f1f", "#c2238f", "#1d8a34")


def player_style(seat: int) -> PlayerStyle:
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


def line_colour(line_id: str, dark: bool = True, index: int = 0) -> str:
    """The colour of line ``line_id`` (``index`` picks one for unknown ids)."""
    table = LINE_COLOURS if dark else LINE_COLOURS_LIGHT
    if line_id in table:
        return table[line_id]
    spare = _SPARE_LINE_COLOURS if dark else _SPARE_LINE_COLOURS_LIGHT
    return spare[index % len(spare)]
