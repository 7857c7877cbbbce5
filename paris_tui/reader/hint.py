"""``hint`` on a turn: the suggestion worked out in a thread while the game goes on, and
read out only if no move was made meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..core import SeatView
from ..i18n import _, ngettext
from . import say
from .lines import Lines

__all__ = ["Hints"]


class Hints:
    """The hint being worked out, if any (one at a time)."""

    def __init__(self, out: Lines, move_count: Callable[[], int]) -> None:
        self.out = out
        self.move_count = move_count  # the table's moves so far (a hint is for the move now)
        self._task: asyncio.Task[Any] | None = None

    def ask(self, view: SeatView, *, allowed: bool) -> None:
        """Start working out a hint for ``view`` (``allowed``: the table allows hints)."""
        if not allowed:
            self.out.say(_("This host does not allow hints."))
            return
        if self._task is not None and not self._task.done():
            self.out.say(_("The hint is still being worked out."))
            return
        self.out.say(_("Working out a hint."))
        self._task = asyncio.ensure_future(self._work_out(view))

    def cancel(self) -> None:
        """Stop working out the hint (a move was made, or the game is left)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    async def _work_out(self, view: SeatView) -> None:
        from ..ai.hint import HintCancelled, hint

        stop = False
        count = self.move_count()

        def cancelled() -> bool:
            return stop

        try:
            result = await asyncio.to_thread(hint, view, cancelled=cancelled)
        except asyncio.CancelledError:
            stop = True
            raise
        except (HintCancelled, ValueError):
            return
        if self.move_count() != count:
            return
        from paris_tui.app.look.hint_words import reason_text

        best = view.face_up.index(result.best.tile)
        lines = [
            _("Hint: take {tile}; {margin}.").format(
                tile=say.bare(say.tile_line(view, best)),
                margin=margin_words(result.for_move(result.best).margin),
            ),
            _("Why: {reason}.").format(
                reason=reason_text(view.board, view.names, result.seat, result.reason, spoken=True)
            ),
        ]
        others = [
            _("tile {n}: {margin}").format(
                n=view.face_up.index(m.move.tile) + 1, margin=margin_words(m.margin)
            )
            for m in result.moves
            if m.move != result.best
        ]
        if others:
            lines.append(_("The other tiles: {tiles}.").format(tiles=_("; ").join(others)))
        self.out.say(*lines)


def margin_words(margin: float) -> str:
    """The expected final margin (one's score minus the best other's) in words, to whole
    points: "you would end about 3 points ahead", never a sign to be read out."""
    n = round(margin)
    if n == 0:
        return _("you would end about even with the best other player")
    if n > 0:
        return ngettext(
            "you would end about {n} point ahead", "you would end about {n} points ahead", n
        ).format(n=n)
    return ngettext(
        "you would end about {n} point behind", "you would end about {n} points behind", -n
    ).format(n=-n)
