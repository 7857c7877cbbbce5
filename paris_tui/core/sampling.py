"""Full games consistent with what one seat knows: determinization for search.

An AI holds only a :class:`~paris_tui.core.view.SeatView`. To search, it
imagines the hidden parts: :class:`Determinizer` rebuilds the public position
from the view (the past stacks are public: each round's taken tiles and its
left-over tile) and :meth:`Determinizer.sample` fills in the rest at random,
consistently with the view: the face-down tiles in a random stack order and
the other seats' routes among the lines this seat cannot rule out.

Nothing here reads a real game: two games that differ only in what the seat
cannot know give identical views, hence identical samples for the same
random generator.

>>> import random
>>> from paris_tui.core import Game
>>> game = Game.new(3, seed=5)
>>> det = Determinizer(game.view(1))
>>> guess = det.sample(random.Random(0))
>>> guess.route(1) == game.route(1), guess.face_up == game.face_up
(True, True)
"""

from __future__ import annotations

import random

from .game import Game, Setup
from .view import SeatView

__all__ = ["Determinizer"]


class Determinizer:
    """Samples full games from a seat's view. Build once per decision, sample often."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        board = view.board
        n = view.players
        moves = view.moves
        past: list[tuple[str, ...]] = []
        for r in range(min(view.round, view.rounds_total)):
            taken = tuple(m.tile for m in moves[r * n : (r + 1) * n])
            past.append((*taken, view.leftovers[r]))
        if not view.is_over:
            current = tuple(m.tile for m in moves[view.round * n :]) + view.face_up
            past.append(current)
        self._prefix = len(past)
        self._unseen = [board.tile_index[t] for t in view.unseen_tiles]
        size = n + 1
        unseen_names = list(view.unseen_tiles)
        future = [tuple(unseen_names[i : i + size]) for i in range(0, len(unseen_names), size)]

        self._known: dict[int, int] = {}
        if view.seat is not None and view.own_route is not None:
            self._known[view.seat] = board.line_index[view.own_route]
        if view.revealed_routes is not None:
            self._known = {p: board.line_index[r] for p, r in enumerate(view.revealed_routes)}
        self._unknown_lines = [
            board.line_index[line]
            for line in view.unknown_routes()
            if board.line_index[line] not in self._known.values()
        ]
        routes = self._routes(None)
        public = view.public_route
        setup = Setup(
            tuple(past + future),
            tuple(board.line_ids[r] for r in routes),
            public,
        )
        base = Game.from_setup(setup, view.names, options=view.options, board=board)
        for move in moves:
            base.apply(move)
        self._base = base

    def _routes(self, rng: random.Random | None) -> list[int]:
        n = self.view.players
        pool = list(self._unknown_lines)
        if rng is not None:
            rng.shuffle(pool)
        it = iter(pool)
        return [self._known[p] if p in self._known else next(it) for p in range(n)]

    @property
    def base(self) -> Game:
        """The position with placeholder hidden parts (do not search it directly)."""
        return self._base

    def sample(self, rng: random.Random) -> Game:
        """A full game: the view's position with the hidden parts drawn from ``rng``."""
        game = self._base.copy()
        if self.view.is_over:
            return game
        tiles = self._unseen[:]
        rng.shuffle(tiles)
        size = self.view.players + 1
        future = tuple(tuple(tiles[i : i + size]) for i in range(0, len(tiles), size))
        game._replace_hidden(self._routes(rng), future)
        return game
