"""The hint's words without Textual: a margin as ``+3.2``, the reason as one sentence.

:mod:`paris_tui.ai.hint` gives numbers and codes; the hint panel
(``paris_tui.app.widgets.hint``) and the screen reader's front end
(:mod:`paris_tui.reader`) both word them here, in the reader's language.
"""

from __future__ import annotations

from paris_tui.ai.hint import HintReason
from paris_tui.app.look.describe import line_name, shown_name, stop_name, tile_label
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.core import Board
from paris_tui.i18n import _, decimal, ngettext

__all__ = ["margin_text", "points_text", "reason_text"]


def points_text(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)


def margin_text(margin: float) -> str:
    """``+3.2`` / ``−1.4``: an expected margin, signed, one decimal."""
    look = current_glyphs()
    if round(margin, 1) == 0:
        return f"{look.plus_minus}{decimal(0.0)}"
    return f"+{decimal(margin)}" if margin > 0 else f"{look.minus}{decimal(-margin)}"


def reason_text(
    board: Board, names: tuple[str, ...], seat: int, reason: HintReason, *, spoken: bool = False
) -> str:
    """The reason in one line of the reader's language (names as they are: plain text).

    ``spoken`` (the screen reader's): a tile by its stop and its line's full name
    ("Concorde, Pink line"), never by a letter ("Concorde (P)").
    """
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
        if spoken:
            stop_id, line_id = reason.leftover.split("/", 1)
            tile = _("{stop}, {line}").format(
                stop=stop_name(board, stop_id), line=line_name(board, line_id)
            )
        else:
            tile = tile_label(board, reason.leftover)
        points = points_text(reason.small_points)
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
                    line=line, points=points_text(reason.grand_points)
                )
            )
    sentence = clauses[0]
    for clause in clauses[1:]:
        # Translators: joins two parts of the hint's reason ("opens a business at X; ...").
        sentence = _("{first}; {second}").format(first=sentence, second=clause)
    return sentence
