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

from ...ai.hint import Hint, HintReason
from ...core import Board, Move
from ...i18n import _, decimal, ngettext
from ..describe import (
    line_name,
    printable,
    seat_label,
    shown_name,
    stop_name,
    tile_label,
    tile_text,
)
from ..glyphs import current_glyphs
from ..linebreak import EastAsianText, has_wide

__all__ = ["HintPanel", "hint_text", "margin_text", "move_text", "reason_text"]


def _points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)


def margin_text(margin: float) -> str:
    """``+3.2`` / ``−1.4``: an expected margin, signed, one decimal."""
    look = current_glyphs()
    if round(margin, 1) == 0:
        return f"{look.plus_minus}{decimal(0.0)}"
    return f"+{decimal(margin)}" if margin > 0 else f"{look.minus}{decimal(-margin)}"


def move_text(board: Board, names: tuple[str, ...], move: Move) -> Text:
    """``[B] Opéra``, with ``(remove ● Bob)`` when the move removes Bob's business there."""
    text = tile_text(board, move.tile)
    if move.evict is not None:
        label = seat_label(names, move.evict, width=8)
        text.append(" ")
        text.append(_("(remove {name})").format(name=label.plain), style=label.style)
    return text


def reason_text(board: Board, names: tuple[str, ...], seat: int, reason: HintReason) -> str:
    """The reason in one line of the reader's language (names as they are: plain text)."""
    clauses: list[str] = []
    if reason.opened is None:
        clauses.append(_("your supply is empty: the tile opens no business"))
    else:
        stop = stop_name(board, reason.opened)
        if reason.count_there >= 2:
            clauses.append(_("opens your second business at {stop}").format(stop=stop))
        else:
            clauses.append(_("opens a business at {stop}").format(stop=stop))
        if len(reason.next_to) == 1:
            clauses.append(
                _("next to your business at {stop}").format(
                    stop=stop_name(board, reason.next_to[0])
                )
            )
        elif reason.next_to:
            n = len(reason.next_to)
            clauses.append(
                ngettext(
                    "next to {n} of your businesses", "next to {n} of your businesses", n
                ).format(n=n)
            )
    if reason.removed is not None:
        if reason.removed == seat:
            clauses.append(_("your own business there goes back to your supply"))
        elif reason.removed_to == "sack":
            clauses.append(
                _("{name}'s business there goes into the sack").format(
                    name=shown_name(names[reason.removed])
                )
            )
        else:
            clauses.append(
                _("{name}'s business there goes back to their supply").format(
                    name=shown_name(names[reason.removed])
                )
            )
    if reason.leftover is not None:
        tile = tile_label(board, reason.leftover)
        points = _points(reason.small_points)
        if reason.leftover_certain:
            clauses.append(
                _("the left-over {tile} tile then pays you {points}").format(
                    tile=tile, points=points
                )
            )
        else:
            clauses.append(
                _("the left-over tile will likely be {tile}, paying you {points}").format(
                    tile=tile, points=points
                )
            )
        if reason.grand_line is not None:
            line = line_name(board, reason.grand_line)
            clauses.append(
                _("its grand tour on the {line} pays you {points}").format(
                    line=line, points=_points(reason.grand_points)
                )
            )
    sentence = clauses[0]
    for clause in clauses[1:]:
        # Translators: joins two parts of the hint's reason ("opens a business at X; ...").
        sentence = _("{first}; {second}").format(first=sentence, second=clause)
    return sentence


def hint_text(board: Board, names: tuple[str, ...], result: Hint) -> Text:
    """The panel's text: a title, one line per move (best marked), the reason."""
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
