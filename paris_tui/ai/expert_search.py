"""The expert's search: strong's SO-ISMCTS, run on the expert's own engine (:mod:`.fast`).

The tree, the selection (UCB over the children available in the sampled
world, counted per child), the expansion of one untried move, the rewards
(a win, shared wins split, plus a share for the margin over the best other
seat) and the final choice (the most visited root move) are those of
:class:`paris_tui.ai.strong.StrongBot`. What it adds: a progressive bias at
the root (:class:`SearchKnobs`), a tree kept between the seat's turns
(:class:`KeptTree`), knobs that may differ by the player count
(:func:`knobs_for`: the belief on or off, another reward, strong's exploration
and margin share), and a cheaper simulation:

* a world is drawn without building a :class:`~paris_tui.core.Game`: the
  public position is turned into a :class:`~paris_tui.ai.fast.FastGame` once
  per decision, and each simulation forks it with the other seats' routes
  drawn from the belief and the face-down tiles shuffled in place (a
  Fisher-Yates shuffle on ``random()``, cheaper than ``random.shuffle``);
* the tree's moves and the playout run on the fast engine, which plays the
  core's rules without a call per move.

The playout stays uniformly random: the guided playouts :class:`SearchKnobs`
offers (``leftover``, ``own_evict``, ``greedy``) cost simulations and did not
make each one count for more, nor did a truncated playout scored by a static
evaluation (``horizon``), nor a playout that looks a move ahead (``lookahead``);
the figures are in :mod:`paris_tui.ai.expert`.

Profiled on one strong move (2 players, move 6, 3,000 simulations, cProfile):
about two thirds of the time went to the core's ``apply_code`` and round
ends (tours), a tenth to ``legal_codes``, a tenth to determinizing
(``Game.copy`` and ``random.shuffle``), the tree itself under a tenth.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..core import Move, SeatView
from ..core.sampling import Determinizer
from .evaluation import Weights
from .fast import FastGame
from .fast_eval import fast_values, lookahead_playout
from .strong import CODE_SPACE, Node, StrongConfig

__all__ = [
    "KeptTree",
    "SearchKnobs",
    "WorldSampler",
    "fast_search",
    "knobs_for",
    "reward_function",
]


@dataclass(frozen=True, slots=True)
class SearchKnobs:
    """What the expert's search adds to strong's (measured with ``benchmarks/expert_tune.py``)."""

    # Progressive bias at the root: the weight of the greedy margin, scaled to [0, 1] over
    # the moves. Against strong, 2 players, 200 simulations a move, 300 games: 47.7% without
    # (95% 42.1-53.3%), 55.3% with 1.0 (49.7-60.9%), 54.7% with 3.0 (49.0-60.2%).
    bias: float = 1.0
    # How the bias fades: divided by (visits + 1) to this power (1: strong early, gone after
    # a few hundred visits; 0: a lasting share of the value). At equal time (0.1 s a move,
    # 2 players, 200 games against expert as shipped): 0.5 won 49.8% (43.1-56.9%), a lasting
    # bias of 0.2 45.2% (38.3-51.9%).
    bias_decay: float = 1.0
    # Keep the tree between the seat's turns: "timed" only when searching by the clock (at a
    # fixed number of simulations a choice then depends on the seed and the view alone),
    # "always", or "never".
    reuse: str = "timed"
    # Of the budget, kept back for the reply: strong keeps 30 ms whatever its budget (at a
    # sixteenth of a second, half of it); expert keeps this share, at most strong's 30 ms.
    # A search overruns its deadline by one simulation (under a millisecond) when the
    # machine is idle; a loaded machine's scheduler adds a few milliseconds.
    safety_share: float = 0.1
    # The playouts' policy (:meth:`~paris_tui.ai.fast.FastGame.playout_guided`): a round's
    # last mover leaves over the tile that pays it best (``leftover``; a uniformly random
    # move instead with chance ``leftover_eps``), and nobody removes its own business when
    # another move is legal (``own_evict`` False). Off: the uniformly random playout.
    leftover: bool = False
    leftover_eps: float = 0.0
    own_evict: bool = True
    # In the playouts, the chance that a move other than a round's last takes the best
    # cheap value for the grand tours (:func:`~paris_tui.ai.fast.build_value`).
    greedy: float = 0.0
    # Draw the other seats' routes from the fitted belief; False draws them uniformly, at no
    # cost (the belief's greedy margins for every past move of every other seat take 20 to
    # 40 ms a decision at 4 players).
    belief: bool = True
    # The reward backed up (see :func:`reward_function`): "margin" (strong's) or "rank".
    reward: str = "margin"
    # Key the moves of a seat whose route is hidden by that seat's route in the sampled world,
    # so that in the tree each other seat plays as one who knows its own route (the tree's
    # statistics of its moves are split by route instead of fused over the routes). At equal
    # time (0.1 s a move, 2 players, 200 games against expert as shipped): 47.5% (40.7-54.4%).
    # A kept tree is not followed past such a move (its key is not the move's code).
    split: bool = False
    # Truncated playouts: play ``horizon`` rounds past the tree (0: to the game's end), then
    # score the position with :func:`~paris_tui.ai.fast_eval.fast_values`, these weights on
    # the expected grand tours, the special tours (the sampled world's routes) and the small
    # tours to come (the sack's and the tie-break's are the :class:`Evaluator`'s). Against
    # expert at 0.1 s a move, 200 games each: horizon 2 47.8% (95% 41.2-54.9%), horizon 4
    # 48.8% (42.2-55.9%), horizon 2 with the fitted weights 0.665, 0.678, 1.171 48.5%;
    # 4 players, horizon 2 against three expert, 120 games: 19.4% (13.1-27.1%).
    horizon: int = 0
    # Playouts that look one move ahead: with this chance a move is the mover's best by
    # :func:`~paris_tui.ai.fast_eval.fast_values` after it (the greedy player's reading, on
    # the sampled world), for the first ``lookahead_rounds`` rounds of the playout (0: all);
    # ``lookahead_small`` is that evaluation's weight of the small tours to come. Against
    # expert as shipped at 200 simulations a move (2 players, 200 games): 1.0 won 56.0%
    # (95% 49.1-62.7%) at 0.12 times the simulations a second; 1.0 for one round 52.5%
    # (45.6-59.3%) at 0.53 times. Four times the time is worth about as much (55.6%).
    lookahead: float = 0.0
    lookahead_rounds: int = 0
    lookahead_small: float = 0.0
    horizon_grand: float = 1.0
    horizon_special: float = 1.0
    horizon_small: float = 0.0
    # Strong's knobs, for expert alone (None: :class:`StrongConfig`'s).
    exploration: float | None = None
    margin_share: float | None = None

    def weights(self) -> Weights:
        """The evaluation's weights at the horizon."""
        return replace(
            Weights(),
            grand=self.horizon_grand,
            special=self.horizon_special,
            small=self.horizon_small,
        )

    def config(self, base: StrongConfig) -> StrongConfig:
        """``base`` with this search's own exploration and margin share, where it sets them."""
        out = base
        if self.exploration is not None:
            out = replace(out, exploration=self.exploration)
        if self.margin_share is not None:
            out = replace(out, margin_share=self.margin_share)
        return out


def knobs_for(players: int) -> SearchKnobs:
    """Expert's knobs at a table of ``players`` (measured per player count; see
    :class:`SearchKnobs` and the module :mod:`paris_tui.ai.expert`). The same at every
    count so far: at 4 players no other setting was shown better at equal time."""
    return SearchKnobs()


Reward = Callable[[Sequence[float], tuple[int, ...]], list[float]]


def reward_function(players: int, kind: str, share: float, scale: float) -> Reward:
    """Every seat's reward in [0, 1] from the final scores and the winners.

    ``"margin"`` (strong's): ``1 - share`` for a win (split when shared) plus ``share``
    times ``0.5 + 0.5 d / (|d| + scale)``, ``d`` the margin over the best other seat.
    ``"rank"``: the same win part plus ``share`` times the part of the other seats the
    seat outscored (a tie counts one half): a fourth place is worse than a second."""
    n = players
    win = 1.0 - share
    if kind not in ("margin", "rank"):
        raise ValueError(f"unknown reward {kind!r}")
    rank = kind == "rank"
    others = max(1, n - 1)

    def reward(values: Sequence[float], winners: tuple[int, ...]) -> list[float]:
        rewards = [0.0] * n
        for p in winners:
            rewards[p] = win / len(winners)
        if share:
            for p in range(n):
                v = values[p]
                if rank:
                    beaten = sum(1.0 if v > w else 0.5 if v == w else 0.0 for w in values)
                    rewards[p] += share * (beaten - 0.5) / others
                else:
                    d = v - max(values[q] for q in range(n) if q != p)
                    rewards[p] += share * (0.5 + 0.5 * d / (abs(d) + scale))
        return rewards

    return reward


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


def round_tiles(view: SeatView, r: int) -> Counter[str]:
    """The tiles round ``r`` turned up, as far as ``view`` shows them (its taken tiles and
    its left-over tile, or, in the current round, the taken and the face-up ones)."""
    n = view.players
    taken = Counter(m.tile for m in view.moves[r * n : (r + 1) * n])
    if r < len(view.leftovers):
        taken[view.leftovers[r]] += 1
    elif r == view.round:
        taken.update(view.face_up)
    return taken


class KeptTree:
    """A search's root kept for the seat's next turn, with the view it was searched from."""

    __slots__ = ("root", "view")

    def __init__(self, view: SeatView, root: Node) -> None:
        self.view = view
        self.root = root

    def follow(self, view: SeatView, encode: Callable[[Move], int]) -> Node | None:
        """The kept tree's node for ``view`` (the moves made since, followed down), or
        ``None`` when ``view`` does not continue the kept game or a move since was never
        searched."""
        old = self.view
        if (
            view.seat != old.seat
            or view.names != old.names
            or view.options != old.options
            or view.board is not old.board
            or len(view.moves) <= len(old.moves)
            or view.moves[: len(old.moves)] != old.moves
            or round_tiles(view, old.round) != round_tiles(old, old.round)
        ):
            return None
        node = self.root
        for move in view.moves[len(old.moves) :]:
            child = node.children.get(encode(move))
            if child is None:
                return None
            node = child
        return node


def fast_search(
    sampler: WorldSampler,
    rng: random.Random,
    config: StrongConfig,
    limit: int | None,
    deadline: float,
    prior: Mapping[int, float] | None = None,
    bias: float = 0.0,
    root: Node | None = None,
    knobs: SearchKnobs | None = None,
) -> tuple[Node, int]:
    """Simulations from the sampler's position: ``limit`` of them, or until ``deadline``
    (``time.perf_counter()``); returns the root and how many ran.

    ``prior`` (a value in [0, 1] per root move) adds ``bias * prior / (visits + 1)`` to a
    root child's UCB value: progressive bias, strong early and fading with visits. ``root``
    continues a kept tree (:class:`KeptTree`); its children that are not legal now are
    never selected (selection looks only at the moves legal in the sampled world).
    ``knobs`` choose the playout's policy (uniformly random without them), its horizon
    (to the end without them) and the reward (:func:`reward_function`; strong's margin
    without them). A playout stopped at its horizon is scored by
    :func:`~paris_tui.ai.fast_eval.fast_values`: the margins from the values, the win to
    the seats of the highest value."""
    rand = rng.random
    if root is None:
        root = Node(-1)
    n = sampler.players
    clock = time.perf_counter
    c = config.exploration
    kind = knobs.reward if knobs is not None else "margin"
    reward = reward_function(n, kind, config.margin_share, config.margin_scale)
    log = math.log
    sqrt = math.sqrt
    sims = 0
    guided = knobs is not None and (knobs.leftover or not knobs.own_evict or knobs.greedy > 0)
    greedy = knobs.greedy if knobs is not None else 0.0
    eps = knobs.leftover_eps if knobs is not None and knobs.leftover else 1.0
    own = knobs is not None and not knobs.own_evict
    decay = knobs.bias_decay if knobs is not None else 1.0
    hidden = [False] * n
    if knobs is not None and knobs.split:
        for p in sampler.unknown:
            hidden[p] = True
    horizon = knobs.horizon if knobs is not None else 0
    weights = knobs.weights() if knobs is not None else Weights()
    look = knobs.lookahead if knobs is not None else 0.0
    look_rounds = knobs.lookahead_rounds if knobs is not None else 0
    look_weights = Weights(small=knobs.lookahead_small if knobs is not None else 0.0)
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
            mover = game.to_move
            offset = CODE_SPACE * (1 + game.routes[mover]) if hidden[mover] else 0
            untried = [code for code in codes if code + offset not in children]
            for code in codes:
                child = children.get(code + offset)
                if child is not None:
                    child.avail += 1
            if untried:
                code = untried[int(rand() * len(untried))] if len(untried) > 1 else untried[0]
                child = Node(mover)
                child.avail = 1
                children[code + offset] = child
                game.apply(code)
                path.append(child)
                break
            best_code = codes[0]
            best_value = -1.0
            biased = prior is not None and node is root
            for code in codes:
                child = children[code + offset]
                value = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                if biased:
                    weight = prior.get(code, 0.0)  # type: ignore[union-attr]
                    if decay == 1.0:
                        value += bias * weight / (child.visits + 1)
                    else:
                        value += bias * weight / (child.visits + 1) ** decay
                if value > best_value:
                    best_value = value
                    best_code = code
            node = children[best_code + offset]
            game.apply(best_code)
            path.append(node)
        until = game.round + horizon if horizon > 0 else 0
        if look > 0.0:
            lookahead_playout(game, rand, look, look_weights, until, look_rounds)
        elif guided:
            game.playout_guided(rand, eps, own, None, greedy, until)
        else:
            game.playout(rand, None, until)
        if game.over:
            rewards = reward(game.scores, game.winners)
        else:
            values = fast_values(game, weights)
            top = max(values)
            rewards = reward(values, tuple(p for p in range(n) if values[p] == top))
        for node in path:
            node.visits += 1
            if node.player >= 0:
                node.total += rewards[node.player]
    return root, sims
