"""The state on demand: what ``board``, ``line blue``, ``stop opera`` ... answer, from one view.

Shared by a game (:mod:`.play`) and a replay (:mod:`.replay`); each answer is one to a few
sentences (``board``: one per bus line).
"""

from __future__ import annotations

from paris_tui.app.look.describe import SHORT_LINE_NAMES, line_name

from ..core import SeatView
from ..i18n import _
from . import say
from .commands import match_names, word_for

__all__ = ["VIEW_QUERIES", "answer", "query_words"]

VIEW_QUERIES = ("board", "line", "stop", "tiles", "scores", "route", "discard", "sack")
"""The questions a view answers by itself."""


def query_words() -> dict[str, str]:
    """Each of :data:`VIEW_QUERIES` -> its word in the current language (for help)."""
    return {query: word_for(query) for query in VIEW_QUERIES}


def answer(view: SeatView, command: str, arg: str = "") -> list[str]:
    """The sentences that answer ``command`` (one of :data:`VIEW_QUERIES`) about ``view``."""
    if command == "board":
        return say.board_lines(view)
    if command == "line":
        return _line(view, arg)
    if command == "stop":
        return _stop(view, arg)
    if command == "tiles":
        return say.tiles_lines(view)
    if command == "scores":
        return say.score_lines(view)
    if command == "route":
        return say.route_lines(view)
    if command == "discard":
        return [say.discard_line(view)]
    if command == "sack":
        return say.sack_lines(view)
    raise ValueError(f"not a question about a view: {command}")


def _line(view: SeatView, arg: str) -> list[str]:
    board = view.board
    names = []
    for line in board.line_ids:
        words = [line, line_name(board, line), line_name(board, line, short=True)]
        if line in SHORT_LINE_NAMES:
            words.append(SHORT_LINE_NAMES[line])  # the English name in every language
        names.append(" ".join(words))
    found = match_names(arg, names) if arg else []
    if len(found) != 1:
        lines = say.names_and([line_name(board, ln, short=True) for ln in board.line_ids])
        return [
            _("Which line? Type {line} and one of: {lines}.").format(
                line=word_for("line"), lines=lines
            )
        ]
    return [say.line_line(view, board.line_ids[found[0]])]


def _stop(view: SeatView, arg: str) -> list[str]:
    board = view.board
    shown = [say.stop_name(board, s) for s in board.stop_ids]
    found = match_names(arg, shown) if arg else []
    if len(found) == 1:
        return say.stop_line(view, board.stop_ids[found[0]])
    if found:
        return [_("Which stop: {stops}?").format(stops=say.names_and([shown[i] for i in found]))]
    return [_("Type {stop} and the start of a stop's name.").format(stop=word_for("stop"))]
