"""The hint panel: the strong AI's view of each face-up tile, worded for the player.

:mod:`paris_tui.ai.hint` gives numbers and codes (each move's expected final
margin, the best move, a :class:`~paris_tui.ai.hint.HintReason`); this module
makes the words, in the reader's language, and the panel that shows them over
the map. Names and stop names are data: the words are built as plain
strings and drawn as Rich :class:`~rich.text.Text`, never parsed as markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from paris_tui.app.look.describe import printable, seat_label, tile_text
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.hint_words import margin_text, reason_text
from paris_tui.app.terminal.linebreak import EastAsianText, has_wide

from ...ai.hint import Hint
from ...core import Board, Move
from ...i18n import _

__all__ = ["HintPanel", "hint_text", "margin_text", "move_text", "reason_text"]


def move_text(board: Board, names: tuple[str, ...], move: Move) -> Text:
    """``[B] Opéra``, with ``(remove ● Bob)`` when the move removes Bob's business there."""
    text = tile_text(board, move.tile)
    if move.evict is not None:
        label = seat_label(names, move.evict, width=8)
        text.append(" ")
        text.append(_("(remove {name})").format(name=label.plain), style=label.style)
    return text


def hint_text(board: Board, names: tuple[str, ...], result: Hint) -> Text:
    """The panel's text: a title, one line per move (sorted by the margin shown, the AI's
    choice marked, and explained when it is not on top), the reason."""
    out = Text()
    out.append(_("Hint: expected final margin per tile"), style="bold")
    for entry in result.moves:
        out.append("\n")
        best = entry.move == result.best
        out.append(f"{current_glyphs().star} " if best else "  ", style="bold" if best else "")
        out.append(f"{margin_text(entry.margin):>6} ", style="bold" if best else "")
        out.append_text(move_text(board, names, entry.move))
    out.append("\n")
    out.append(_("Why: "), style="bold")
    out.append(printable(reason_text(board, names, result.seat, result.reason)))
    out.append("\n")
    out.append(_("Margin: your final score minus the best other score; h hides this."), style="dim")
    if result.moves and result.moves[0].move != result.best:
        # The list is sorted by its numbers; the star is not on top: say what it marks.
        out.append("\n")
        star = current_glyphs().star
        said = _("{star} the strong AI's choice: its most searched move, not always the top one")
        out.append(said.format(star=star), style="dim")
    return out


class HintPanel(Static):
    """The hint, over the map while it is shown (``h`` on your turn)."""

    DEFAULT_CSS = """
    HintPanel {
        display: none;
        layer: notice;
        position: absolute;
        offset: 1 1;
        width: 52;
        height: auto;
        max-height: 100%;
        padding: 0 1;
        border: heavy $accent;
        background: $panel;
    }
    HintPanel.-shown {
        display: block;
    }
    """

    result: Hint | None = None
    """The hint shown (``None`` while it is worked out, or hidden)."""

    def show_thinking(self) -> None:
        self.result = None
        self.update(Text(_("Working out a hint…"), style="italic"))
        self.add_class("-shown")

    def show_hint(self, board: Board, names: tuple[str, ...], result: Hint) -> None:
        self.result = result
        # Chinese reasons break by the East Asian rules ("讓你得 1 分" stays whole).
        text = hint_text(board, names, result)
        self.update(EastAsianText(text) if has_wide(text.plain) else text)
        self.add_class("-shown")

    def hide(self) -> None:
        self.result = None
        self.remove_class("-shown")
        self.update("")

    @property
    def shown(self) -> bool:
        return self.has_class("-shown")
