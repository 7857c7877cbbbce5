"""Choosing a tile on the game screen: the highlighted tile, the keys and clicks that move
the highlight, and taking it (through the takeover dialog when the move would remove a
business: the dialog asks which)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paris_tui.app.look.describe import stop_name
from paris_tui.core.analysis import eviction_destinations

from ...core import Move
from ..widgets.map_view import stop_of
from ..widgets.panels import TilePanel
from .takeover import TakeoverDialog

if TYPE_CHECKING:
    from .game_host import GameHost

__all__ = ["TileChoice"]


class TileChoice:
    """The tile chosen on the game screen ``screen`` (a human's, or the AI's shown)."""

    def __init__(self, screen: GameHost) -> None:
        self._screen = screen
        self.highlight = 0
        self._dialog: TakeoverDialog | None = None  # the takeover dialog open, if any

    def active(self) -> int | None:
        """The highlighted tile's index while a tile is being chosen (human or AI)."""
        screen = self._screen
        if screen.flow.turn_seat is None and screen.flow.ai_choice is None:
            return None
        if not screen.view.face_up:
            return None
        return min(self.highlight, len(screen.view.face_up) - 1)

    def step(self, delta: int) -> None:
        """The next (or previous) tile, round the row."""
        screen = self._screen
        if screen.flow.turn_seat is None or not screen.view.face_up:
            return
        self._set((self.highlight + delta) % len(screen.view.face_up))

    def pick(self, index: int) -> None:
        """The ``index``-th tile."""
        screen = self._screen
        if screen.flow.turn_seat is None or index >= len(screen.view.face_up):
            return
        self._set(index)

    def _set(self, index: int) -> None:
        screen = self._screen
        old = self.active()
        self.highlight = index
        screen.query_one(TilePanel).update_highlight(screen.view, old, self.active())
        screen.show_choice()

    def clicked(self, index: int) -> None:
        """A click on a tile: the highlighted one is taken, another highlighted."""
        if self._screen.flow.turn_seat is None:
            return
        if index == self.active():
            self.take()
        else:
            self.pick(index)

    def stop_clicked(self, stop: str) -> None:
        """A click on the map: a face-up tile's stop is as a click on that tile."""
        stops = [stop_of(t) for t in self._screen.view.face_up]
        if self._screen.flow.turn_seat is not None and stop in stops:
            self.clicked(stops.index(stop))

    def take(self) -> None:
        """Take the highlighted tile (Enter): its move, or the takeover dialog's."""
        screen = self._screen
        seat = screen.flow.turn_seat
        active = self.active()
        if seat is None or active is None:
            return
        view = screen.flow.seat_view(seat)
        tile = view.face_up[active]
        moves = [m for m in view.legal_moves if m.tile == tile]
        if not moves:
            return
        if len(moves) == 1:
            screen.commit(moves[0], seat)
            return
        dialog = TakeoverDialog(
            stop_name(view.board, stop_of(tile)),
            view.names,
            seat,
            moves,
            destination=eviction_destinations(view, moves),
            on_choose=self._takeover_chosen,
        )
        self._dialog = dialog
        screen.app.push_screen(dialog)

    def turn_lost(self) -> None:
        """The turn ended on this terminal (the connection dropped): no key makes a move,
        and an open takeover dialog closes, so that no choice goes to a turn that is no
        longer there (the turn, when it comes back, asks again)."""
        self._screen.key_gate.end()
        dialog, self._dialog = self._dialog, None
        if dialog is not None and self._screen.app.screen is dialog:
            dialog.dismiss(None)

    def _takeover_chosen(self, move: Move) -> None:
        """Called by the dialog before it closes, so no key can reach a stale turn."""
        self._dialog = None
        seat = self._screen.flow.turn_seat
        if seat is not None:
            self._screen.commit(move, seat)
