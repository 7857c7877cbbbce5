"""The map's legend: one line of line letters in colour and player symbols with names.

Rich only (no Textual): the game screen places it under the map, or
``BoardMap(legend=True)`` draws it inside the widget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from paris_tui.app.look.describe import line_name
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.palette import line_colour, player_style
from paris_tui.app.terminal.fit import cut_text

from ...core.text import printable
from ...i18n import _

if TYPE_CHECKING:
    from ...core.view import SeatView

__all__ = ["map_legend"]


def map_legend(
    view: SeatView, *, dark: bool = True, glyphs: bool = True, width: int | None = None
) -> Text:
    """One line for under the map: line letters in colour, player symbols with names.

    ``dark`` picks the palette shades for a dark or light theme
    (``app.current_theme.dark``); ``glyphs`` adds the key to the stop glyphs.
    With ``width``, detail is dropped until the line fits (glyph key, then line
    names, then player names), and what still does not fit is cut with "…".
    """
    variants = [
        (True, True, glyphs),
        (True, True, False),
        (False, True, False),
        (False, False, False),
    ]
    text = Text()
    for line_names, player_names, key in variants:
        text = _legend(view, dark, line_names, player_names, key)
        if width is None or text.cell_len <= width:
            break
    if width is not None:
        text = cut_text(text, width)
    return text


def _legend(view: SeatView, dark: bool, line_names: bool, player_names: bool, key: bool) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    for line in view.board.lines:
        colour = line_colour(line.id, dark, line.index)
        text.append(f" {line.letter} ", Style(color=colour, bold=True, reverse=True))
        if line_names:
            text.append(f"{line_name(view.board, line.id, short=True)} ", Style(color=colour))
        else:
            text.append(" ")
    for seat, name in enumerate(view.names):
        look = player_style(seat)
        text.append(("  " if player_names else " ") if seat else "  ")
        text.append(look.symbol, Style(color=look.colour_for(dark), bold=True))
        if player_names:
            text.append(f" {printable(name)}")
    if key:
        slot = current_glyphs().slot
        # Translators: the key to the map's glyphs: {stop} is "(·)", {crossing} is "[··]".
        key_text = _("{stop} stop  {crossing} crossing").format(
            stop=f"({slot})", crossing=f"[{slot}{slot}]"
        )
        text.append(f"   {key_text}", Style(dim=True))
    return text
