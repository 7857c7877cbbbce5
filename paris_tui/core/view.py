"""What one seat may know (R8): the only game state the app and the AI read.

:meth:`paris_tui.core.Game.view` builds a :class:`SeatView`
(:func:`paris_tui.core.game.build_view`; this module imports nothing of the
game, only the board and :mod:`.values`). It copies the
public state and the one secret the seat owns; there is no field through
which anything else could travel (no reference to the game, the stacks, or
other seats' routes), so a screen or a bot holding a view cannot leak or
peek, whatever it does with it.

Public, and therefore in every view: the board, the face-up tiles, the
discard area, scores, supply counts, the businesses on the board, the
total in the sack, every move made so far (everyone at the table saw them,
removals included) and each finished round's left-over tile. Private: a
seat's own route marker. Nobody's: the hidden markers, the order of the
face-down stacks, per-seat sack counts before the end (shown only in the
:attr:`SeatView.outcome` once the game is over).

>>> from paris_tui.core import Game
>>> game = Game.new(["Ann", "Bob"], seed=3)
>>> view = game.view(0)
>>> view.own_route == game.route(0), view.public_route == game.public_route
(True, True)
>>> game.view(None).own_route is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .values import Move, Options, Outcome

__all__ = ["SeatView"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """The game as seat :attr:`seat` sees it (``seat`` is ``None`` for a spectator)."""

    board: Board
    names: tuple[str, ...]
    options: Options
    seat: int | None
    round: int
    rounds_total: int
    starter: int
    to_move: int | None
    face_up: tuple[str, ...]
    discard: tuple[str, ...]
    scores: tuple[int, ...]
    supply: tuple[int, ...]
    occupancy: tuple[tuple[int, ...], ...]
    sack_total: int
    stacks_left: int
    moves: tuple[Move, ...]
    leftovers: tuple[str, ...]
    unseen_tiles: tuple[str, ...]
    round_scores: tuple[tuple[int, ...], ...]
    own_route: str | None
    public_route: str | None
    legal_moves: tuple[Move, ...]
    outcome: Outcome | None
    revealed_routes: tuple[str, ...] | None

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move

    def businesses_at(self, stop: str | int) -> tuple[int, ...]:
        index = self.board.stop_index[stop] if isinstance(stop, str) else stop
        return self.occupancy[index]

    def on_board(self) -> tuple[int, ...]:
        counts = [0] * self.players
        for owners in self.occupancy:
            for p in owners:
                counts[p] += 1
        return tuple(counts)

    def unknown_routes(self) -> tuple[str, ...]:
        """Lines this seat cannot rule out as another seat's secret route."""
        known = {self.own_route, self.public_route}
        return tuple(line for line in self.board.line_ids if line not in known)
