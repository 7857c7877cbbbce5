"""A static evaluation of a :class:`~paris_tui.ai.fast.FastGame`, for truncated playouts.

The same value as :meth:`paris_tui.ai.evaluation.Evaluator.values`, in the
fast engine's terms (bitmasks, the tours of :mod:`.fast` added to the
values as they are scored, the game's scores never touched). For every seat:

* its score;
* for every line, the points a grand tour there would give the seat now (R6)
  times the line's weight: ``grand`` times the expected grand tours still to
  run on it (:func:`~paris_tui.ai.evaluation.expected_tours`, from the
  discard area and the tiles not yet left over: the face-up and the
  face-down ones) plus ``special`` when the line gets a special tour at the
  end (R7). In a sampled world every route is known, so that is 1 for every
  seat's route and the public one (every line with ``final-tours:
  all-lines``) and 0 for the others;
* ``small`` times the small tours of the rounds to come (R5), each tile kind
  not yet left over weighted by how many of it there are;
* ``sack`` times the sack (3-4 players): its businesses for the seat that
  holds strictly the most of them;
* ``tie`` less per business on the board (the tie-break).

At the game's end the value is the final score.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .evaluation import Weights, add_sack, add_small_tours, expected_tours
from .fast import FastGame, _small

__all__ = ["fast_values", "lookahead_playout", "rounds_left", "unseen_tiles", "value_features"]


def rounds_left(game: FastGame) -> int:
    """Left-over tiles still to come: the current round's and the face-down rounds'."""
    return game.total - game.round if not game.over else 0


def unseen_tiles(game: FastGame) -> list[int]:
    """The tiles not yet taken or left over: the face-up ones and the face-down ones."""
    return game.faceup + game.future[game.pos :]


def fast_values(game: FastGame, weights: Weights) -> list[float]:
    """Every seat's value of ``game`` (see the module docstring)."""
    if game.over:
        return [float(s) for s in game.scores]
    rules = game.rules
    n = rules.players
    st, m1, m2 = game.st, game.m1, game.m2
    tour = rules.tour
    crossing = rules.crossing
    tile_line = rules.tile_line
    lines = rules.lines
    rounds = rounds_left(game)
    tiles = unseen_tiles(game)
    total = len(tiles)
    colour = [0] * lines
    for t in tiles:
        colour[tile_line[t]] += 1
    special = [0.0] * lines
    if weights.special:
        if rules.all_lines:
            special = [weights.special] * lines
        else:
            for line in game.routes:
                special[line] = weights.special
            if game.public >= 0:
                special[game.public] = weights.special
    out = [float(s) for s in game.scores]
    discard = game.discard
    grand = weights.grand
    for line in range(lines):
        lw = special[line]
        if grand:
            lw += grand * expected_tours((discard >> line) & 1, rounds, colour[line], total)
        if lw:
            # _grand's loop, each seat's points weighted as they are added
            for c, nm in tour[line]:
                x = st[c]
                if not x:
                    continue
                a, here, b = crossing[x]
                out[a] += lw * (here + (m1[a] & nm).bit_count() + (m2[a] & nm).bit_count())
                if b >= 0:
                    out[b] += lw * (1 + (m1[b] & nm).bit_count() + (m2[b] & nm).bit_count())
    if weights.small and rounds > 0 and total:
        kinds: dict[int, int] = {}
        for t in tiles:
            kinds[t] = kinds.get(t, 0) + 1

        def small_tour(t: int) -> list[int]:
            pts = [0] * n
            _small(rules, st, t, pts)
            return pts

        add_small_tours(
            out,
            weights.small * rounds / total,
            ((count, small_tour(t)) for t, count in kinds.items()),
        )
    if n > 2 and weights.sack:
        add_sack(out, game.sack, weights.sack)
    if weights.tie:
        tie = weights.tie
        for p in range(n):
            out[p] -= tie * (m1[p].bit_count() + m2[p].bit_count())
    return out


def value_features(game: FastGame) -> list[tuple[float, float, float]]:
    """Per seat, the parts of :func:`fast_values` that its ``grand``, ``special`` and
    ``small`` weights multiply (each at weight 1), for fitting those weights."""
    zero = Weights(grand=0.0, special=0.0, small=0.0, sack=0.0, tie=0.0)
    base = fast_values(game, zero)
    grand, special, small = (
        fast_values(game, replace(zero, **{name: 1.0})) for name in ("grand", "special", "small")
    )
    return [
        (grand[p] - base[p], special[p] - base[p], small[p] - base[p])
        for p in range(game.rules.players)
    ]


def lookahead_playout(
    game: FastGame,
    rand: Callable[[], float],
    chance: float,
    weights: Weights,
    until: int = 0,
    rounds: int = 0,
    trace: list[int] | None = None,
) -> None:
    """Play ``game`` on (to its end, or to the start of round ``until`` above 0): with
    chance ``chance`` a move is the mover's best by one move of look-ahead (its
    :func:`fast_values` margin over the best other seat after the move, ties drawn at
    random), else a uniformly random legal move; with ``rounds`` above 0 only the moves
    of that many rounds from here look ahead. ``trace`` receives the codes played."""
    n = game.rules.players
    last = game.round + rounds if rounds > 0 else game.total
    while not game.over and (until <= 0 or game.round < until):
        codes = game.legal()
        if len(codes) > 1 and game.round < last and rand() < chance:
            p = game.to_move
            best = -1e18
            pick: list[int] = []
            for code in codes:
                child = game.fork(game.routes, game.future)
                child.apply(code)
                values = fast_values(child, weights)
                mine = values[p]
                values[p] = -1e18
                margin = mine - max(values) if n > 1 else mine
                if margin > best:
                    best = margin
                    pick = [code]
                elif margin == best:
                    pick.append(code)
            code = pick[int(rand() * len(pick))] if len(pick) > 1 else pick[0]
        else:
            code = codes[int(rand() * len(codes))]
        if trace is not None:
            trace.append(code)
        game.apply(code)
