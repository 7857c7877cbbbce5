"""The scoring: small tours (R5), grand and special tours (R6), the end of the game (R7).

:class:`Tours` scores a position it is handed, it holds none: the game
(:class:`~paris_tui.core.Game`) passes its stops' states (see
:mod:`.tables`), its per-seat bitmasks of businesses and the list of scores
to add to. With a list of events it also explains every point it adds
(:class:`~paris_tui.core.events.ScoreEvent`); without one, as in the AI's
search, it only counts. One :class:`Tours` serves every game of one board,
variant and player count (:func:`tours_for`).

Seat 1 has a business at Pompidou; a Pompidou tile is left over (R5):

>>> from paris_tui.core.board import classic_board
>>> from paris_tui.core.tables import stop_tables
>>> board = classic_board()
>>> st = [0] * len(board.stops)
>>> st[board.stop_index["pompidou"]] = stop_tables(board, 2).add[0][1]
>>> scores = [0, 0]
>>> tours = tours_for(board, Options(), 2)
>>> tours.small(st, board.tile_index["pompidou/green"], scores, None, 0)
>>> scores
[0, 1]
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Literal

from .board import Board
from .tables import stop_tables
from .values import DecidedBy, Options, Outcome

if TYPE_CHECKING:
    from .events import Event, GameOver, ScoreEvent, ScoreKind, TourEvent

__all__ = ["Tours", "tours_for"]


def _need_events() -> None:
    """Bind the event classes the tours make (:mod:`~paris_tui.core.events`), once:
    the first time a tour is explained, never when it is only counted."""
    if "TourEvent" not in globals():
        from .events import GameOver, ScoreEvent, TourEvent

        globals().update(GameOver=GameOver, ScoreEvent=ScoreEvent, TourEvent=TourEvent)


@cache
def tours_for(board: Board, options: Options, players: int) -> Tours:
    """The tours of games on ``board`` with ``options`` and ``players`` seats (built once)."""
    return Tours(board, options, players)


class Tours:
    """The tours of one board, variant and player count, scored on a position passed in.

    The position is ``st`` (per stop, its state in :func:`~.tables.stop_tables`),
    ``m1`` and ``m2`` (per seat, bit ``s`` set when the seat has one, or two,
    businesses at stop ``s``). Points go into ``scores``; ``ev``, when not
    ``None``, receives the events explaining them, stamped with round ``rnd``.
    """

    __slots__ = ("_crossings", "_neighbours", "_owners", "_rings", "_tile_stop", "board", "options")

    def __init__(self, board: Board, options: Options, players: int) -> None:
        self.board = board
        self.options = options
        self._owners = stop_tables(board, players).owners
        self._tile_stop = board.tile_stop
        self._rings = (
            board.rings_tile_line if options.small_tour == "tile-line" else board.rings_by_tile
        )
        self._neighbours = board.neighbour_mask
        self._crossings = board.line_crossings

    # --- R5 ------------------------------------------------------------------

    def small(
        self, st: list[int], tile: int, scores: list[int], ev: list[Event] | None, rnd: int
    ) -> None:
        """R5: the left-over ``tile``'s stop scores its businesses, or the nearest ones do."""
        owners = self._owners
        stop = self._tile_stop[tile]
        if st[stop]:
            for p in owners[st[stop]]:
                scores[p] += 1
            if ev is not None:
                self._explain_small(st, tile, (stop,), 0, ev, rnd)
            return
        for d, ring in enumerate(self._rings[tile], 1):
            hit = False
            for s in ring:
                if st[s]:
                    hit = True
                    for p in owners[st[s]]:
                        scores[p] += 1
            if hit:
                if ev is not None:
                    self._explain_small(st, tile, tuple(s for s in ring if st[s]), d, ev, rnd)
                return
        if ev is not None:
            self._explain_small(st, tile, (), 0, ev, rnd)

    def _explain_small(
        self,
        st: list[int],
        tile: int,
        stops: tuple[int, ...],
        d: int,
        ev: list[Event],
        rnd: int,
    ) -> None:
        _need_events()
        b = self.board
        origin = b.tile_stop[tile]
        ids = b.stop_ids
        ev.append(
            TourEvent(
                rnd,
                "small_tour",
                b.line_ids[b.tile_line[tile]],
                ids[origin],
                tuple(ids[s] for s in stops),
            )
        )
        for s in stops:
            owners = self._owners[st[s]]
            for p in sorted(set(owners)):
                k = owners.count(p)
                ev.append(ScoreEvent(rnd, "small_tour", p, k, ids[s], None, k, 0, d, ids[origin]))

    # --- R6 ------------------------------------------------------------------

    def grand(
        self,
        st: list[int],
        m1: list[int],
        m2: list[int],
        line: int,
        scores: list[int],
        ev: list[Event] | None,
        rnd: int,
        kind: Literal["grand_tour", "special_tour"] = "grand_tour",
        seat: int | None = None,
    ) -> None:
        """R6: at each crossing of ``line``, owners score there and on its neighbours.

        ``kind`` is ``special_tour`` for the tours at the game end (R7), ``seat``
        then whose route runs (``None`` for the public route and ``all-lines``).
        """
        owner_table = self._owners
        nmask = self._neighbours
        crossings = self._crossings[line]
        if ev is not None:
            _need_events()
            b = self.board
            ev.append(
                TourEvent(
                    rnd, kind, b.line_ids[line], None, tuple(b.stop_ids[c] for c in crossings), seat
                )
            )
        for c in crossings:
            if not st[c]:
                continue
            here = owner_table[st[c]]
            nm = nmask[c]
            a = here[0]
            if len(here) == 1 or here[1] == a:
                # One owner (C2: two businesses of one owner count the neighbours once).
                near = (m1[a] & nm).bit_count() + (m2[a] & nm).bit_count()
                scores[a] += len(here) + near
                if ev is not None:
                    self._explain_grand(kind, line, c, a, len(here), near, ev, rnd)
            else:
                b2 = here[1]
                near_a = (m1[a] & nm).bit_count() + (m2[a] & nm).bit_count()
                near_b = (m1[b2] & nm).bit_count() + (m2[b2] & nm).bit_count()
                scores[a] += 1 + near_a
                scores[b2] += 1 + near_b
                if ev is not None:
                    self._explain_grand(kind, line, c, a, 1, near_a, ev, rnd)
                    self._explain_grand(kind, line, c, b2, 1, near_b, ev, rnd)

    def _explain_grand(
        self,
        kind: ScoreKind,
        line: int,
        c: int,
        p: int,
        here: int,
        near: int,
        ev: list[Event],
        rnd: int,
    ) -> None:
        b = self.board  # grand() bound the events before calling this
        ev.append(
            ScoreEvent(rnd, kind, p, here + near, b.stop_ids[c], b.line_ids[line], here, near)
        )

    # --- R7 ------------------------------------------------------------------

    def final(
        self,
        st: list[int],
        m1: list[int],
        m2: list[int],
        routes: list[int],
        public: int,
        scores: list[int],
        sack: list[int],
        ev: list[Event] | None,
        rnd: int,
    ) -> Outcome:
        """R7: the special tours (R7.1), the sack's majority (R7.2), the winner (R7.3).

        ``routes`` are the seats' route lines and ``public`` the public route's
        (``-1`` for none); ``rnd`` is the round after the last, whose starter
        runs the first special tour.
        """
        n = len(scores)
        if ev is not None:
            _need_events()
        if self.options.final_tours == "all-lines":
            for line in range(len(self.board.lines)):
                self.grand(st, m1, m2, line, scores, ev, rnd, "special_tour", None)
        else:
            first = rnd % n
            for i in range(n):
                seat = (first + i) % n
                self.grand(st, m1, m2, routes[seat], scores, ev, rnd, "special_tour", seat)
            if public >= 0:
                self.grand(st, m1, m2, public, scores, ev, rnd, "special_tour", None)
        if n > 2:
            best = max(sack)
            if best > 0 and sack.count(best) == 1:
                seat = sack.index(best)
                scores[seat] += best
                if ev is not None:
                    ev.append(ScoreEvent(rnd, "sack", seat, best, None, None, best))
        on_board = [a.bit_count() + b.bit_count() for a, b in zip(m1, m2, strict=True)]
        top = max(scores)
        tied = [p for p in range(n) if scores[p] == top]
        decided: DecidedBy = "score"
        if len(tied) > 1:
            fewest = min(on_board[p] for p in tied)
            tied = [p for p in tied if on_board[p] == fewest]
            decided = "fewest_businesses" if len(tied) == 1 else "shared"
        if ev is not None:
            ev.append(GameOver(rnd, tuple(scores), tuple(tied)))
        return Outcome(tuple(scores), tuple(sack), tuple(on_board), tuple(tied), decided)
