"""A static evaluation of a position: points now plus the points the board should still bring.

Used by the ``greedy`` bot (one move look-ahead) and by the ``strong`` bot
(at the horizon of its playouts). Everything here is computed from public
information plus the evaluating seat's own route marker, and the scoring
itself is always the engine's (:meth:`Game.tour_points`,
:meth:`Game.small_tour_points`), never a second copy of the rules.

The value of a seat is

* its score;
* for every line, the expected number of tours still to run on it times the
  points a tour there would give the seat on the board as it stands (R6).
  Tours to come are the grand tours (the discard area's pending colour, the
  left-over tiles still to come, drawn from the unseen tiles) and the special
  tours at the game end (R7: sure for the seat's own and the public route,
  a probability for a line that may be another seat's secret route, sure for
  every line with ``final-tours: all-lines``);
* optionally, the small tours of the rounds to come (R5), each unseen tile
  kind weighted by how many of it are unseen;
* the sack (R7, 3-4 players): its businesses for the seat that holds strictly
  the most of them now;
* a hair less per business on the board (the tie-break, R7).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

from ..core import Game, SeatView

__all__ = ["Evaluator", "Weights", "add_sack", "add_small_tours", "expected_tours"]


@dataclass(frozen=True, slots=True)
class Weights:
    """Knobs of the evaluation (tuned with the arena)."""

    grand: float = 1.0  # weight of the expected grand tours to come
    special: float = 1.0  # weight of the expected special tours at the end
    small: float = 0.6  # weight of the expected small tours to come (0: not computed)
    sack: float = 0.8  # weight of holding the sack majority now
    tie: float = 0.01  # penalty per business on the board (tie-break)


@cache
def expected_tours(pending: int, rounds: int, colour_unseen: int, unseen: int) -> float:
    """Expected grand tours still to run on a line (R3 step 4).

    ``pending`` is 1 when the discard area holds the line's colour. The
    left-over tiles of the ``rounds`` rounds to come are modelled as drawn
    without replacement from the ``unseen`` tiles, ``colour_unseen`` of which
    have the line's colour; every second tile of a colour runs a tour.
    """
    if rounds <= 0 or unseen <= 0 or colour_unseen <= 0:
        return 0.0
    draws = min(rounds, unseen)
    total = comb(unseen, draws)
    expect = 0.0
    for k in range(min(draws, colour_unseen) + 1):
        ways = comb(colour_unseen, k) * comb(unseen - colour_unseen, draws - k)
        if ways:
            expect += ((pending + k) // 2) * ways / total
    return expect


class Evaluator:
    """Evaluates positions for one seat's decision, from that seat's knowledge.

    Build it once per decision from the seat's view; :meth:`values` then
    evaluates any position of the game (a sampled one included) for every
    seat at once, from the building seat's point of view.
    """

    def __init__(self, view: SeatView, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()
        board = view.board
        self.players = view.players
        self.lines = len(board.lines)
        self.tile_line = board.tile_line
        self.kinds = len(board.tile_kinds)
        # Probability that each line gets a special tour at the game end (R7).
        special = [0.0] * self.lines
        if view.options.final_tours == "all-lines":
            special = [1.0] * self.lines
        else:
            known = [r for r in (view.own_route, view.public_route) if r is not None]
            for r in known:
                special[board.line_index[r]] = 1.0
            unknown = [board.line_index[r] for r in view.unknown_routes()]
            others = view.players - (1 if view.own_route is not None else 0)
            if unknown:
                for li in unknown:
                    special[li] = min(1.0, others / len(unknown))
        self.special = tuple(special)

    def line_weights(self, pending: list[int], rounds: int, unseen: list[int]) -> list[float]:
        """Expected tours to come on each line, with ``rounds`` left-overs still to come.

        ``pending[line]`` is 1 when the discard area holds the line's colour;
        ``unseen`` counts the unseen tiles per line colour.
        """
        w = self.weights
        total = sum(unseen)
        return [
            w.grand * expected_tours(pending[li], rounds, unseen[li], total)
            + w.special * self.special[li]
            for li in range(self.lines)
        ]

    def pending(self, game: Game) -> list[int]:
        """1 per line whose colour is in the discard area."""
        out = [0] * self.lines
        index = game.board.line_index
        for line_id in game.discard:
            out[index[line_id]] = 1
        return out

    def values(
        self,
        game: Game,
        *,
        rounds: int,
        unseen_kinds: list[int],
        pending: list[int] | None = None,
        small: bool = True,
    ) -> list[float]:
        """The value of ``game`` for every seat (see the module docstring).

        ``rounds`` is how many left-over tiles are still to come;
        ``unseen_kinds`` counts the unseen tiles per tile kind (the pool the
        left-overs come from); ``pending`` overrides the discard area (for a
        left-over tile that is about to be discarded).
        """
        n = self.players
        w = self.weights
        unseen = [0] * self.lines
        tile_line = self.tile_line
        for kind, count in enumerate(unseen_kinds):
            if count:
                unseen[tile_line[kind]] += count
        if pending is None:
            pending = self.pending(game)
        weights = self.line_weights(pending, rounds, unseen)
        out = [float(s) for s in game.scores]
        for li, lw in enumerate(weights):
            if lw:
                pts = game.tour_points(li)
                for p in range(n):
                    if pts[p]:
                        out[p] += lw * pts[p]
        if small and w.small and rounds > 0:
            total = sum(unseen_kinds)
            if total:
                add_small_tours(
                    out,
                    w.small * rounds / total,
                    (
                        (count, game.small_tour_points(kind))
                        for kind, count in enumerate(unseen_kinds)
                        if count
                    ),
                )
        if n > 2 and w.sack:
            add_sack(out, game.sack, w.sack)
        if w.tie:
            for p, count in enumerate(game.on_board()):
                out[p] -= w.tie * count
        return out


def add_small_tours(
    out: list[float], factor: float, tiles: Iterable[tuple[int, Sequence[int]]]
) -> None:
    """Add ``factor`` times the small tours to come to ``out``: for each tile kind, how
    many of it may still be left over and what its small tour gives each seat now."""
    acc = [0] * len(out)
    for count, pts in tiles:
        for p, got in enumerate(pts):
            if got:
                acc[p] += count * got
    for p, a in enumerate(acc):
        out[p] += factor * a


def add_sack(out: list[float], sack: Sequence[int], weight: float) -> None:
    """Add ``weight`` times its businesses in the sack to the seat that holds strictly the
    most of them (R7.2); nothing on a tie for the most."""
    best = max(sack)
    if best > 0 and sack.count(best) == 1:
        out[sack.index(best)] += weight * best


def unseen_kind_counts(game: Game, *, include_face_up: bool) -> list[int]:
    """Tiles per kind not yet seen by anyone: the face-down stacks (and the face-up tiles).

    On a sampled or placeholder game only the multiset matters, and it is
    public (the tiles not taken, not left over, not face up).
    """
    index = game.board.tile_index
    counts = [0] * len(game.board.tile_kinds)
    for name in game.remaining_stack_tiles():
        counts[index[name]] += 1
    if include_face_up:
        for name in game.face_up:
            counts[index[name]] += 1
    return counts
