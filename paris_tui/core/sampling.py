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
from collections.abc import Mapping

from .game import Game
from .values import Setup
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
        self._stacks = tuple(past + future)
        setup = Setup(self._stacks, tuple(board.line_ids[r] for r in routes), public)
        base = Game.from_setup(setup, view.names, options=view.options, board=board)
        for move in moves:
            base.apply(move)
        self._base = base

    def _routes(
        self,
        rng: random.Random | None,
        weights: Mapping[int, Mapping[str, float]] | None = None,
    ) -> list[int]:
        n = self.view.players
        pool = list(self._unknown_lines)
        if rng is not None and weights:
            return self._weighted_routes(rng, weights, pool)
        if rng is not None:
            rng.shuffle(pool)
        it = iter(pool)
        return [self._known[p] if p in self._known else next(it) for p in range(n)]

    def _weighted_routes(
        self, rng: random.Random, weights: Mapping[int, Mapping[str, float]], pool: list[int]
    ) -> list[int]:
        """Each unknown seat in turn draws its line from those left, by its weights."""
        line_ids = self.view.board.line_ids
        out: list[int] = []
        for p in range(self.view.players):
            if p in self._known:
                out.append(self._known[p])
                continue
            seat = weights.get(p, {})
            w = [max(0.0, seat.get(line_ids[li], 1.0)) for li in pool]
            total = sum(w)
            if total <= 0.0:
                pick = int(rng.random() * len(pool))
            else:
                x = rng.random() * total
                pick = len(pool) - 1
                for i, wi in enumerate(w):
                    x -= wi
                    if x < 0.0:
                        pick = i
                        break
            out.append(pool.pop(pick))
        return out

    @property
    def unknown_seats(self) -> tuple[int, ...]:
        """The seats whose secret route this seat does not know."""
        return tuple(p for p in range(self.view.players) if p not in self._known)

    @property
    def unknown_lines(self) -> tuple[str, ...]:
        """The lines an unknown seat's secret route may be."""
        return tuple(self.view.board.line_ids[li] for li in self._unknown_lines)

    def imagine(self, routes: Mapping[int, str], upto: int) -> Game:
        """The game as it stood before move ``upto``, had the seats ``routes`` (a line per
        unknown seat; the others as known, the rest filled in from the lines left).

        The public past is the view's; the face-down order is a placeholder. Use it to ask
        how another seat saw an earlier turn, for a guessed route.
        """
        board = self.view.board
        taken = {board.line_index[line] for line in routes.values()}
        it = iter([li for li in self._unknown_lines if li not in taken])
        chosen = [
            self._known[p]
            if p in self._known
            else board.line_index[routes[p]]
            if p in routes
            else next(it)
            for p in range(self.view.players)
        ]
        setup = Setup(
            self._stacks, tuple(board.line_ids[r] for r in chosen), self.view.public_route
        )
        game = Game.from_setup(setup, self.view.names, options=self.view.options, board=board)
        for move in self.view.moves[:upto]:
            game.apply(move)
        return game

    @property
    def base(self) -> Game:
        """The position with placeholder hidden parts (do not search it directly)."""
        return self._base

    def sample(
        self, rng: random.Random, route_weights: Mapping[int, Mapping[str, float]] | None = None
    ) -> Game:
        """A full game: the view's position with the hidden parts drawn from ``rng``.

        ``route_weights`` (per unknown seat, a weight per line; a line left out weighs 1)
        draws the other seats' routes in proportion to the weights instead of uniformly.
        """
        game = self._base.copy()
        if self.view.is_over:
            return game
        tiles = self._unseen[:]
        rng.shuffle(tiles)
        size = self.view.players + 1
        future = tuple(tuple(tiles[i : i + size]) for i in range(0, len(tiles), size))
        game._replace_hidden(self._routes(rng, route_weights), future)
        return game
