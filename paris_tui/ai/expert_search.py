"""The expert's search: strong's SO-ISMCTS, run on the expert's own engine (:mod:`.fast`).

The tree, the selection (UCB over the children available in the sampled
world, counted per child), the expansion of one untried move, the rewards
(a win, shared wins split, plus a share for the margin over the best other
seat) and the final choice (the most visited root move) are those of
:class:`paris_tui.ai.strong.StrongBot`. What differs is the cost of a
simulation:

* a world is drawn without building a :class:`~paris_tui.core.Game`: the
  public position is turned into a :class:`~paris_tui.ai.fast.FastGame` once
  per decision, and each simulation forks it with the other seats' routes
  drawn from the belief and the face-down tiles shuffled in place (a
  Fisher-Yates shuffle on ``random()``, cheaper than ``random.shuffle``);
* the tree's moves and the playout run on the fast engine, which plays the
  core's rules without a call per move.

Profiled on one strong move (2 players, move 6, 3,000 simulations, cProfile):
about two thirds of the time went to the core's ``apply_code`` and round
ends (tours), a tenth to ``legal_codes``, a tenth to determinizing
(``Game.copy`` and ``random.shuffle``), the tree itself under a tenth.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping

from ..core.sampling import Determinizer
from .fast import FastGame
from .strong import Node, StrongConfig

__all__ = ["WorldSampler", "fast_search"]


class WorldSampler:
    """Draws the hidden parts of a seat's view: the other seats' routes by the belief's
    weights, the face-down tiles in a random order (as :meth:`Determinizer.sample` does)."""

    def __init__(self, det: Determinizer, weights: Mapping[int, Mapping[str, float]]) -> None:
        view = det.view
        board = view.board
        self.players = view.players
        unknown = set(det.unknown_seats)
        self.unknown_lines = [board.line_index[line] for line in det.unknown_lines]
        known: dict[int, int] = {}
        if view.own_route is not None and view.seat is not None:
            known[view.seat] = board.line_index[view.own_route]
        self.known = known
        self.unknown = [p for p in range(view.players) if p in unknown]
        # Per unknown seat, the weight of each line of the pool (a line left out weighs 1).
        ids = [board.line_ids[li] for li in self.unknown_lines]
        self.weights = {p: [max(0.0, weights.get(p, {}).get(i, 1.0)) for i in ids] for p in unknown}
        self.unseen = [board.tile_index[t] for t in view.unseen_tiles]
        filler = iter(self.unknown_lines)
        routes = [known[p] if p in known else next(filler, 0) for p in range(view.players)]
        self.base = FastGame.from_game(det.base, routes, self.unseen)

    def routes(self, rand: random.Random) -> list[int]:
        """Each unknown seat in turn draws its line from those left, by its weights."""
        pool = self.unknown_lines[:]
        alive = list(range(len(pool)))
        out = [0] * self.players
        known = self.known
        random_ = rand.random
        for p in range(self.players):
            if p in known:
                out[p] = known[p]
                continue
            w = self.weights[p]
            total = sum(w[i] for i in alive)
            if total <= 0.0:
                pick = int(random_() * len(alive))
            else:
                x = random_() * total
                pick = len(alive) - 1
                for j, i in enumerate(alive):
                    x -= w[i]
                    if x < 0.0:
                        pick = j
                        break
            out[p] = pool[alive.pop(pick)]
        return out

    def sample(self, rng: random.Random) -> FastGame:
        tiles = self.unseen[:]
        rand = rng.random
        for i in range(len(tiles) - 1, 0, -1):
            j = int(rand() * (i + 1))
            tiles[i], tiles[j] = tiles[j], tiles[i]
        return self.base.fork(self.routes(rng), tiles)


def fast_search(
    sampler: WorldSampler,
    rng: random.Random,
    config: StrongConfig,
    limit: int | None,
    deadline: float,
) -> tuple[Node, int]:
    """Simulations from the sampler's position: ``limit`` of them, or until ``deadline``
    (``time.perf_counter()``); returns the root and how many ran."""
    rand = rng.random
    root = Node(-1)
    n = sampler.players
    clock = time.perf_counter
    c = config.exploration
    share = config.margin_share
    scale = config.margin_scale
    win = 1.0 - share
    log = math.log
    sqrt = math.sqrt
    sims = 0
    if sampler.base.over:
        return root, 0
    while True:
        if limit is not None:
            if sims >= limit:
                break
        elif sims and clock() >= deadline:
            break
        sims += 1
        game = sampler.sample(rng)
        node = root
        path = [root]
        while not game.over:
            codes = game.legal()
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
                game.apply(code)
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
            game.apply(best_code)
            path.append(node)
        game.playout(rand)
        values = game.scores
        winners = game.winners
        rewards = [0.0] * n
        for p in winners:
            rewards[p] = win / len(winners)
        if share:
            for p in range(n):
                d = values[p] - max(values[q] for q in range(n) if q != p)
                rewards[p] += share * (0.5 + 0.5 * d / (abs(d) + scale))
        for node in path:
            node.visits += 1
            if node.player >= 0:
                node.total += rewards[node.player]
    return root, sims
