"""The ``strong`` level: information-set Monte Carlo tree search (SO-ISMCTS).

The bot knows only its view (R8). Each simulation

1. *determinizes*: :class:`~paris_tui.core.sampling.Determinizer` draws a
   full game consistent with the view (the other seats' routes among the
   lines the seat cannot rule out, the face-down tiles in a random order).
   The routes are drawn by :class:`~paris_tui.ai.belief.RouteBelief`: each
   line weighs as likely as the other seat's past moves make it, under a
   model of that seat as a noisy greedy player (from public moves only);
2. *selects* down one tree shared by all determinizations, whose edges are
   move codes: the moves of the current round are the same in every
   determinization, later rounds' face-up tiles differ, so a node's children
   are the moves seen in some determinization and UCB counts, for each
   child, how often it was available (the single-observer ISMCTS of Cowling,
   Powley and Whitehouse, 2012). A move at a full stop is one edge per
   evict choice (R4); the rounds end by themselves in the engine after
   ``n`` moves, with their small and grand tours;
3. *expands* one untried move and *plays out* the rest of the game with the
   rules core (``legal_codes``/``apply_code``);
4. *backs up* to every node the reward of the seat who made its move: a
   win (shared victories split) plus a share for the score margin over the
   best other seat, all in [0, 1].

It plays the most visited move of the root. With ``simulations`` the search
runs exactly that many simulations (deterministic for the seed); otherwise
it stops when the time budget is spent (``budget`` seconds per ``choose``
call, counted from its start, a little kept back for the reply).

Measured with ``paris-tui arena`` (see the module :mod:`paris_tui.ai.arena`):
plain uniformly random playouts to the game's end (about 12,000 simulations
per second on one core of the reference machine at the start of a game,
more later as the playouts get shorter) play as well as the alternatives kept here as
:class:`StrongConfig` knobs: a playout policy where each round's last
mover chooses the best left-over tile (``policy="leftover"``), move-average
sampling (``policy="mast"``), and stopping playouts after ``horizon`` rounds
to score the position with :mod:`paris_tui.ai.evaluation`. They cost
simulations and gained nothing measurable, so the default is the plain one.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Literal

from ..core import Game, Move, SeatView
from ..core.sampling import Determinizer
from .belief import RouteBelief
from .evaluation import Evaluator, unseen_kind_counts
from .seeding import decision_rng

__all__ = ["Node", "StrongBot", "StrongConfig"]

CODE_SPACE = 512  # move codes are below 8 * tile kinds (35 on the classic board)


@dataclass(frozen=True, slots=True)
class StrongConfig:
    """Search knobs (tuned with the arena; see the module docstring)."""

    exploration: float = 0.7  # UCB constant; rewards are in [0, 1]
    margin_share: float = 0.3  # part of the reward given by the score margin
    margin_scale: float = 10.0  # a margin of this many points earns half of that share
    policy: Literal["random", "leftover", "mast"] = "random"  # playout policy
    mast_eps: float = 0.15  # MAST: chance of a uniformly random playout move
    horizon: int = 0  # rounds played out before evaluating (0: to the game's end)
    safety: float = 0.03  # seconds of the budget kept back
    belief: bool = True  # draw the other seats' routes by what their moves suggest


class Node:
    """A node of the search tree, reached by a move of ``player`` (-1 at the root)."""

    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[int, Node] = {}


class StrongBot:
    """ISMCTS bot; see the module docstring."""

    level = "strong"

    def __init__(
        self,
        seed: int | str,
        *,
        budget: float = 1.0,
        simulations: int | None = None,
        config: StrongConfig | None = None,
    ) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = budget
        self.simulations = simulations
        self.config = config or StrongConfig()
        self.last_simulations = 0  # simulations run by the last choose() (0: one legal move)
        self.belief = RouteBelief()

    def choose(self, view: SeatView) -> Move:
        started = time.perf_counter()
        self.rng = decision_rng(self.seed, view)
        moves = view.legal_moves
        if not moves or view.seat is None:
            raise ValueError("it is not this seat's turn: the view has no legal move")
        if len(moves) == 1:
            self.last_simulations = 0
            return moves[0]
        det = Determinizer(view)
        root = self.search(det, Evaluator(view), started)
        code, _ = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))
        move = det.base.decode(code)
        assert move in moves
        return move

    def search(self, det: Determinizer, evaluator: Evaluator, started: float) -> Node:
        """Run the simulations from the view's position; returns the root."""
        rng = self.rng
        rand = rng.random
        cfg = self.config
        players = det.base.players
        mast = Mast(players) if cfg.policy == "mast" else None
        trace: list[int] = []
        weights = self.belief.weights(det) if cfg.belief else None
        root = Node(-1)
        limit = self.simulations
        deadline = started + self.budget - cfg.safety
        clock = time.perf_counter
        c = cfg.exploration
        log = math.log
        sqrt = math.sqrt
        sims = 0
        while True:
            if limit is not None:
                if sims >= limit:
                    break
            elif sims and clock() >= deadline:
                break
            sims += 1
            game = det.sample(rng, weights)
            node = root
            path = [root]
            trace.clear()
            while not game.is_over:
                codes = game.legal_codes()
                children = node.children
                untried = [code for code in codes if code not in children]
                for code in codes:
                    child = children.get(code)
                    if child is not None:
                        child.avail += 1
                if untried:
                    code = untried[int(rand() * len(untried))] if len(untried) > 1 else untried[0]
                    child = Node(game.to_move)
                    child.avail = 1
                    children[code] = child
                    trace.append(game.to_move * CODE_SPACE + code)
                    game.apply_code(code)
                    path.append(child)
                    break
                best_code = codes[0]
                best_value = -1.0
                for code in codes:
                    child = children[code]
                    value = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if value > best_value:
                        best_value = value
                        best_code = code
                node = children[best_code]
                trace.append(game.to_move * CODE_SPACE + best_code)
                game.apply_code(best_code)
                path.append(node)
            rewards = self.playout(game, rng, evaluator, mast, trace)
            for node in path:
                node.visits += 1
                if node.player >= 0:
                    node.total += rewards[node.player]
            if mast is not None:
                mast.update(trace, rewards)
        self.last_simulations = sims
        return root

    def playout(
        self,
        game: Game,
        rng: random.Random,
        evaluator: Evaluator,
        mast: Mast | None,
        trace: list[int],
    ) -> list[float]:
        """Play to the end (or the horizon) and return every seat's reward in [0, 1]."""
        cfg = self.config
        stop_round = game.round + cfg.horizon if cfg.horizon > 0 else game.rounds_total
        if mast is not None:
            mast.playout(game, rng, cfg.mast_eps, stop_round, trace)
        elif cfg.policy == "leftover":
            leftover_playout(game, rng, stop_round)
        elif cfg.horizon > 0:
            rand = rng.random
            while not game.is_over and game.round < stop_round:
                codes = game.legal_codes()
                game.apply_code(codes[int(rand() * len(codes))])
        else:
            game.play_random(rng)
        return self.rewards(game, evaluator)

    def rewards(self, game: Game, evaluator: Evaluator) -> list[float]:
        """Win (split when shared) plus a share for the margin, per seat, from the end or the
        static evaluation at a horizon."""
        cfg = self.config
        n = game.players
        outcome = game.outcome()
        if outcome is not None:
            values = [float(s) for s in outcome.scores]
            winners: tuple[int, ...] = outcome.winners
        else:
            values = evaluator.values(
                game,
                rounds=game.stacks_left() + 1,
                unseen_kinds=unseen_kind_counts(game, include_face_up=True),
                small=False,
            )
            top = max(values)
            winners = tuple(p for p in range(n) if values[p] == top)
        share = cfg.margin_share
        out = [0.0] * n
        for p in winners:
            out[p] = (1.0 - share) / len(winners)
        if share:
            scale = cfg.margin_scale
            for p in range(n):
                d = values[p] - max(values[q] for q in range(n) if q != p)
                out[p] += share * (0.5 + 0.5 * d / (abs(d) + scale))
        return out


class Mast:
    """Move-average sampling (Finnsson and Björnsson): each seat's mean reward per move code."""

    __slots__ = ("counts", "totals")

    def __init__(self, players: int) -> None:
        self.totals = [[0.0] * CODE_SPACE for _ in range(players)]
        self.counts = [[0] * CODE_SPACE for _ in range(players)]

    def update(self, trace: list[int], rewards: list[float]) -> None:
        for key in trace:
            p, code = divmod(key, CODE_SPACE)
            self.totals[p][code] += rewards[p]
            self.counts[p][code] += 1

    def playout(
        self, game: Game, rng: random.Random, eps: float, stop_round: int, trace: list[int]
    ) -> None:
        """Mostly the move with the best mean so far for its seat; a random one with ``eps``."""
        rand = rng.random
        while not game.is_over and game.round < stop_round:
            codes = game.legal_codes()
            p = game.to_move
            if len(codes) == 1:
                code = codes[0]
            elif rand() < eps:
                code = codes[int(rand() * len(codes))]
            else:
                totals, counts = self.totals[p], self.counts[p]
                best = -1.0
                code = codes[0]
                for candidate in codes:
                    k = counts[candidate]
                    value = totals[candidate] / k if k else 0.75
                    if value > best:
                        best = value
                        code = candidate
            trace.append(p * CODE_SPACE + code)
            game.apply_code(code)


def leftover_playout(game: Game, rng: random.Random, stop_round: int) -> None:
    """Random moves, except that a round's last mover picks the left-over tile that pays best.

    The last mover decides which tile is left over (R3): it takes the other
    one, so that the left-over's small tour plus the grand tour it would
    trigger give it the best margin over the others (scored by the engine on
    the board before its own move).
    """
    rand = rng.random
    n = game.players
    board = game.board
    index = board.tile_index
    tile_line = board.tile_line
    line_index = board.line_index
    while not game.is_over and game.round < stop_round:
        codes = game.legal_codes()
        if game.move_count % n != n - 1 or len(codes) == 1:
            game.apply_code(codes[int(rand() * len(codes))])
            continue
        first, second = (index[t] for t in game.face_up)
        if first == second:
            game.apply_code(codes[int(rand() * len(codes))])
            continue
        p = game.to_move
        pending = {line_index[d] for d in game.discard}
        gain: dict[int, int] = {}
        for left in (first, second):
            pts = game.small_tour_points(left)
            if tile_line[left] in pending:
                pts = [a + b for a, b in zip(pts, game.tour_points(tile_line[left]), strict=True)]
            mine = pts[p]
            pts[p] = -1
            gain[left] = mine - max(pts)
        best = max(gain.values())
        choices = [c for c in codes if gain[second if c >> 3 == first else first] >= best]
        game.apply_code(choices[int(rand() * len(choices))] if len(choices) > 1 else choices[0])
