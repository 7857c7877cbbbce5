"""The ``strong`` level: information-set Monte Carlo tree search (SO-ISMCTS).

The bot knows only its view (R8). Each simulation

1. *determinizes*: :class:`~paris_tui.core.sampling.Determinizer` draws a
   full game consistent with the view (the other seats' routes among the
   lines the seat cannot rule out, the face-down tiles in a random order);
2. *selects* down one shared tree whose nodes are keyed by move codes: the
   moves of the current round are the same in every determinization, later
   rounds' face-up tiles differ, so a node's children are the moves seen in
   some determinization and UCB counts, for each child, how often it was
   available (Cowling, Powley and Whitehouse's single-observer ISMCTS);
3. *expands* one untried move and *plays out* the rest of the game with
   the rules core (``legal_codes``/``apply_code``), or, with a horizon, a
   few rounds and then the static evaluation of
   :mod:`paris_tui.ai.evaluation`;
4. *backs up* to every node the reward of the seat who made its move:
   winning (shared victories split) plus a small share for the score margin.

It plays the most visited move of the root. With ``simulations`` the search
runs exactly that many simulations (deterministic for the seed); otherwise
it stops when the time budget is spent.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ..core import Game, Move, SeatView
from ..core.sampling import Determinizer
from .evaluation import Evaluator

__all__ = ["Node", "StrongBot", "StrongConfig"]


@dataclass(frozen=True, slots=True)
class StrongConfig:
    """Search knobs (tuned with the arena)."""

    exploration: float = 0.7  # UCB constant, rewards are in [0, 1]
    margin_share: float = 0.3  # part of the reward given by the score margin
    margin_scale: float = 10.0  # a margin of this many points is worth half the share
    horizon: int = 0  # rounds played out before evaluating (0: to the game's end)
    safety: float = 0.03  # seconds kept back from the budget


class Node:
    """A node of the search tree: the move into it, by ``player``."""

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
        self.rng = random.Random(seed)
        self.budget = budget
        self.simulations = simulations
        self.config = config or StrongConfig()
        self.last_simulations = 0

    def choose(self, view: SeatView) -> Move:
        started = time.perf_counter()
        moves = view.legal_moves
        if not moves or view.seat is None:
            raise ValueError("it is not this seat's turn: the view has no legal move")
        if len(moves) == 1:
            self.last_simulations = 0
            return moves[0]
        det = Determinizer(view)
        root = self.search(det, Evaluator(view), started)
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))
        move = det.base.decode(best[0])
        assert move in moves
        return move

    def search(self, det: Determinizer, evaluator: Evaluator, started: float) -> Node:
        """Run the simulations; returns the root."""
        rng = self.rng
        cfg = self.config
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
            game = det.sample(rng)
            node = root
            path = [root]
            while not game.is_over:
                codes = game.legal_codes()
                children = node.children
                untried = [code for code in codes if code not in children]
                for code in codes:
                    child = children.get(code)
                    if child is not None:
                        child.avail += 1
                if untried:
                    code = (
                        untried[int(rng.random() * len(untried))]
                        if len(untried) > 1
                        else untried[0]
                    )
                    child = Node(game.to_move)
                    child.avail = 1
                    children[code] = child
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
                game.apply_code(best_code)
                path.append(node)
            rewards = self.playout(game, rng, evaluator)
            for node in path:
                node.visits += 1
                if node.player >= 0:
                    node.total += rewards[node.player]
        self.last_simulations = sims
        return root

    def playout(self, game: Game, rng: random.Random, evaluator: Evaluator) -> list[float]:
        """Play to the end (or the horizon) and return every seat's reward in [0, 1]."""
        cfg = self.config
        rand = rng.random
        if cfg.horizon > 0:
            stop_round = game.round + cfg.horizon
            while not game.is_over and game.round < stop_round:
                codes = game.legal_codes()
                game.apply_code(codes[int(rand() * len(codes))])
        else:
            game.play_random(rng)
        outcome = game.outcome()
        n = game.players
        if outcome is not None:
            values = [float(s) for s in outcome.scores]
            winners = outcome.winners
        else:
            from .evaluation import unseen_kind_counts

            values = evaluator.values(
                game,
                rounds=game.stacks_left() + 1,
                unseen_kinds=unseen_kind_counts(game, include_face_up=True),
                small=False,
            )
            top = max(values)
            winners = tuple(p for p in range(n) if values[p] == top)
        share = cfg.margin_share
        win = 1.0 - share
        out = [0.0] * n
        for p in winners:
            out[p] = win / len(winners)
        if share:
            scale = cfg.margin_scale
            for p in range(n):
                best = max(values[q] for q in range(n) if q != p)
                d = values[p] - best
                out[p] += share * (0.5 + 0.5 * d / (abs(d) + scale))
        return out
