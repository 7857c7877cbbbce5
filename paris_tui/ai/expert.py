"""The ``expert`` level: strong's search made cheaper, with worlds drawn from a fitted model.

``expert`` searches as ``strong`` does (:mod:`paris_tui.ai.strong`: one
information-set tree over determinized games, random playouts, the most
visited root move), with three changes to the search (:mod:`.expert_search`):

* the worlds, the tree's moves and the playouts run on the expert's own
  engine (:mod:`.fast`, the core's rules on flat lists, checked against the
  core by the tests), which runs more simulations a second than strong;
* by the clock, the tree is kept between the seat's turns: the next search
  starts from the node of the moves made since (at a fixed number of
  simulations it is not, so that a choice depends on the seed and the view
  alone, as for every level);
* a progressive bias at the root: each move's greedy margin
  (:func:`paris_tui.ai.greedy.move_values`, scaled to [0, 1]) is added to its
  UCB value divided by its visits plus one, so the first simulations go to
  the moves a one-move look-ahead likes and the bias fades as they add up;
* it keeps back a tenth of its budget for the reply (at most strong's 30 ms),
  not a fixed 30 ms, which at a sixteenth of a second was half the budget.

Measured against strong at a fixed number of simulations (the search's
quality alone; ``benchmarks/expert_tune.py``, 2 players, 200 simulations a
move, 300 games): the same search on the fast engine 47.7% (95% interval
42.1-53.3%), with the bias 55.3% (49.7-60.9%). Speed: see
``benchmarks/expert_speed.py``.

Tried for 2 players and not kept (:class:`~.expert_search.SearchKnobs` keeps
them, off; ``benchmarks/expert_tune.py``): guided playouts
(:meth:`~paris_tui.ai.fast.FastGame.playout_guided`: the round's last mover
leaves over the tile that pays it best, no removal of one's own business, a
cheap grand-tour value for the other moves). At 200 simulations a move
against strong they played no better than the random playout (the left-over
rule with no own removals 54.0% of 200 games, 95% interval 47.1-60.8%,
against 55.3% of 300 with the random playout; the grand-tour value for half
of the moves 52.5% of 80 games, then stopped). At equal time (0.1 s a move,
200 games each) against expert with the random playout they did worse, the
point estimates under half though the intervals reach it: the left-over rule
46.2% (39.2-52.9%), running 19% fewer simulations a second; the ban on own
removals alone 48.5% (41.7-55.4%), 7% fewer. The UCB constant (0.5: 50.7%,
1.0: 52.0% against strong at 200 simulations, 200 games each) stays at
strong's 0.7. The kept tree made no measurable difference at equal time
(without it 51.0% of 200 games against expert with it, 44.1-57.8%); it
stays. Nor did a root bias of 2.0 instead of 1.0 (48.2% of 200, 41.2-54.9%).

Truncated playouts (``SearchKnobs.horizon``, off): play only ``horizon``
rounds past the tree, then score every seat with
:func:`~paris_tui.ai.fast_eval.fast_values` (the core :class:`Evaluator`'s
value in the fast engine's terms, the special tours on the sampled world's
routes) instead of playing to the end. Cheaper playouts, but at equal time
(0.1 s a move, 200 games each, against expert with full playouts) no
better: ``horizon=2`` 47.8% (41.2-54.9%) with 17% more simulations a
second, ``horizon=4`` 48.8% (42.2-55.9%) with 12% more, and ``horizon=2``
with the weights fitted by ``scripts/fit_horizon.py`` (least squares on
expert self-play: grand 0.665, special 0.678, small tours 1.171; the hand
weights 1, 1, 0) 48.5% (41.7-55.4%), its small-tour term eating the
speed-up (2% more). At a fixed 300 simulations a move, ``horizon=2``
won 48.5% (41.7-55.4%): a truncated simulation was not shown worth more than a
full one. Why so little: the playout is only part of a
simulation (drawing the world and walking the tree stay), the evaluation
took 22% of a search at ``horizon=2`` (cProfile, before it was made about a
fifth faster), and it explains only a quarter of the variance of the
points a seat still makes (R2 0.25 with the fitted weights, 0.19 with the
hand ones; ``benchmarks/results/fit_horizon.txt``), so the value at the
horizon is itself a noisy guess. At 4 players (0.1 s a move, one expert with
``horizon=2`` against three with full playouts, 120 games) it won 19.4%
(13.1-27.1%; fair share 25%) with 19% more simulations a second.

Playouts that look one move ahead (``SearchKnobs.lookahead``, off): each move
of the playout is the mover's best by its :func:`~paris_tui.ai.fast_eval.fast_values`
margin after the move (greedy's reading on the sampled world, every route
known), ties drawn at random. Against expert as shipped, both at 200
simulations a move (2 players, 200 games each): every move of the playout
56.0% (49.1-62.7%), the moves of its first round only 52.5% (45.6-59.3%). They
cost 0.12 and 0.53 times the simulations a second (mean of 6 positions, 0.5 s
searches; 0.09 and 0.56 at 4 players). A simulation that looks ahead is
worth a little more, about what four times the time gives (55.6%, below),
at eight times the cost: at equal time it cannot pay.

At 4 players (:func:`.expert_search.knobs_for` gives the knobs per player count;
``benchmarks/expert_tune.py --players 4``, expert against three strong, seats
rotated, 160 games a run): at 200 simulations a move, with the belief 28.1% of
the wins (95% interval 21.7-35.5%), with the routes drawn uniformly 30.0%
(23.4-37.5%), with a rank reward (a win plus a share for the part of the other
seats outscored, instead of the margin over the best) 27.7% (21.2-34.9%). By
the clock, both at 0.1 s a move (``--move-time 0.1``), working the belief out
takes about two fifths of expert's move (229 simulations a decision with it,
385 without, mean of 24 decisions), yet drawing the routes uniformly won
27.0% of 320 games (22.3-32.0%; two sets of deals: 26.2% and 27.8%) and with
the belief 32.9% (27.9-38.1%; 34.4% and 31.4%): the belief's worlds are worth
more than the simulations it costs. At 2 players (0.1 s a move, 200 games against
expert with the belief) the uniform routes won 52.0% (45.1-58.8%) with 9%
more simulations a second: not shown better. A UCB constant of 0.5 instead of 0.7 (by
the clock, the first set of deals): 29.2% (22.9-36.8%) against 34.4%. No change
was shown better, so the knobs are the same at every count and the belief stays
on at 4 players.

More time buys expert little (``expert_tune.py --against expert
--against-budget``, expert against itself with a quarter of its time): at 2
players 0.2 s a move against 0.05 s won 57.9% of 120 games (49.4-66.8%),
1 s against 0.25 s 55.6% of 80 (44.1-65.4%); at 4 players 0.2 s against 0.05 s 30.3%
of 80 (21.1-40.8%, fair share 25%). Against strong with four times strong's
time (expert 1 s, strong 0.25 s a move, about 5.3 times strong's simulations)
it won 54.0% of 200 games (47.1-60.8%). Neither a root bias that fades slowly
or never (``bias_decay``) nor a tree that keys the other seats' moves by
their sampled route (``split``) did better at equal time; the figures are
at those knobs in :class:`~.expert_search.SearchKnobs`. Nor did a tenth of the
reward for the margin instead of 0.3 (``margin_share=0.1``: 50.0% of 200 games
against expert as shipped, 0.1 s a move, 43.1-56.9%), nor twice that share
(``margin_share=0.6``: 50.2% of 200 at 400 simulations a move, 43.1-56.9%).

It reads the other seats' secret routes from their moves with a model
*fitted on self-play records* instead of chosen by hand:

* for every past turn of another seat and every line its route may be, the
  greedy evaluation (:func:`paris_tui.ai.greedy.move_values`, from the view
  that seat had, with that route) gives each legal move a margin;
* the seat chooses a move with probability proportional to
  ``exp(margin / temperature + weight * on_line)``, where ``on_line`` is 1
  when the move opens a business on a stop of that line (a player tends to
  build where its route's final tour pays, whatever the evaluation says),
  mixed with a uniform choice (``floor``); the temperature and the weight
  depend on the phase of the game (first, middle and last third of the
  rounds), since an opening move says less about a route than a late one;
* Bayes' rule over its turns, from a uniform prior, weighs each line, and
  the search draws the routes by these weights.

The temperatures, the weights and the floor are kept in ``paris_tui/ai/data/expert.json``,
made by ``scripts/fit_expert.py`` (deterministic from its seed): it plays
self-play games between strong bots, and picks the parameters that give the
true route the highest mean log probability over every prefix of those games.
The same script measures, on held-out games, the mean probability given to
each opponent's true route after 5, 10 and 15 moves (see README).

Only public moves and the seat's own view are read (R8), as for every level.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..core import Move
from ..core.sampling import Determinizer
from .belief import BeliefConfig, RouteBelief
from .evaluation import Evaluator
from .expert_search import KeptTree, SearchKnobs, WorldSampler, fast_search, knobs_for
from .greedy import move_values
from .strong import Node, StrongBot, StrongConfig

__all__ = ["ExpertBot", "ExpertModel", "FittedBelief", "load_model"]

PHASES = 3  # the game's rounds cut into thirds, each with its own temperature


@dataclass(frozen=True, slots=True)
class ExpertModel:
    """The fitted opponent model: per phase of the game a temperature and the weight of
    building on the route's line; and a floor."""

    temperatures: tuple[float, ...] = (0.1, 0.1, 0.1)
    floor: float = 0.05
    line_weights: tuple[float, ...] = (0.0, 0.0, 0.0)

    def __post_init__(self) -> None:
        if len(self.temperatures) != PHASES or not all(t > 0 for t in self.temperatures):
            raise ValueError(f"the model needs {PHASES} positive temperatures")
        if len(self.line_weights) != PHASES or not all(map(math.isfinite, self.line_weights)):
            raise ValueError(f"the model needs {PHASES} line weights")
        if not 0 < self.floor < 1:
            raise ValueError("the model's floor must lie between 0 and 1")

    def to_json(self) -> dict[str, object]:
        return {
            "temperatures": list(self.temperatures),
            "line_weights": list(self.line_weights),
            "floor": self.floor,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ExpertModel:
        temps = data["temperatures"]
        weights = data.get("line_weights", [0.0] * PHASES)
        floor = data["floor"]
        if (
            not isinstance(temps, list)
            or not isinstance(weights, list)
            or not isinstance(floor, int | float)
        ):
            raise ValueError("a malformed expert model")
        return cls(tuple(float(t) for t in temps), float(floor), tuple(float(w) for w in weights))


@cache
def load_model() -> ExpertModel:
    """The model shipped in the package (``paris_tui/ai/data/expert.json``)."""
    text = resources.files("paris_tui.ai").joinpath("data/expert.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise ValueError("a malformed expert model file")
    return ExpertModel.from_json(data["model"])


def phase(index: int, players: int, rounds_total: int) -> int:
    """The phase (0, 1, 2) of the game's move ``index``."""
    return min(PHASES - 1, PHASES * (index // players) // max(1, rounds_total))


class FittedBelief(RouteBelief):
    """:class:`~paris_tui.ai.belief.RouteBelief` with the fitted, phase-dependent model."""

    def __init__(self, model: ExpertModel | None = None) -> None:
        self.model = model or load_model()
        super().__init__(
            BeliefConfig(temperature=self.model.temperatures[0], floor=self.model.floor)
        )
        self._features: dict[tuple[tuple[Move, ...], str], Features] = {}

    def _log_likelihood(
        self, det: Determinizer, index: int, seat: int, line: str, move: Move
    ) -> float:
        values, on_line, played = self.features(det, index, seat, line, move)
        view = det.view
        k = phase(index, view.players, view.rounds_total)
        model = self.model
        return move_log_likelihood(
            values, on_line, played, model.temperatures[k], model.line_weights[k], model.floor
        )

    def features(self, det: Determinizer, index: int, seat: int, line: str, move: Move) -> Features:
        """The greedy margin of each legal move at turn ``index`` had ``seat`` held ``line``,
        whether each builds on a stop of ``line`` (1.0) or not, and which of them is ``move``."""
        key = (det.view.moves[: index + 1], line)
        cached = self._features.get(key)
        if cached is None:
            game = det.imagine({seat: line}, index)
            view = game.view(seat)
            margins = move_values(Determinizer(view), Evaluator(view), random.Random(index))
            board = view.board
            li = board.line_index[line]
            codes = list(margins)
            on_line = [
                1.0 if li in board.stops[board.tile_stop[c >> 3]].lines else 0.0 for c in codes
            ]
            cached = ([margins[c] for c in codes], on_line, codes.index(game.encode(move)))
            self._features[key] = cached
        return cached


Features = tuple[list[float], list[float], int]


def move_log_likelihood(
    values: list[float],
    on_line: list[float],
    played: int,
    temperature: float,
    weight: float,
    floor: float,
) -> float:
    """The log probability of the move ``played`` among moves of these margins and
    on-line flags."""
    scores = [v / temperature + weight * f for v, f in zip(values, on_line, strict=True)]
    top = max(scores)
    norm = sum(math.exp(x - top) for x in scores)
    p = math.exp(scores[played] - top) / norm
    return math.log((1.0 - floor) * p + floor / len(values))


class ExpertBot(StrongBot):
    """The strong search with the fitted belief; see the module docstring."""

    level = "expert"

    def __init__(
        self,
        seed: int | str,
        *,
        budget: float = 1.0,
        simulations: int | None = None,
        config: StrongConfig | None = None,
        model: ExpertModel | None = None,
        knobs: SearchKnobs | None = None,
    ) -> None:
        super().__init__(seed, budget=budget, simulations=simulations, config=config)
        self.belief = FittedBelief(model)
        self.knobs = knobs  # None: knobs_for(the table's player count)
        self.kept: KeptTree | None = None  # the last search's tree (see SearchKnobs.reuse)
        self.reused = 0  # visits the last choose() found in the kept tree

    def search(self, det: Determinizer, evaluator: Evaluator, started: float) -> Node:
        """Strong's search on the expert's own engine (:mod:`.expert_search`)."""
        knobs = self.knobs or knobs_for(det.view.players)
        cfg = knobs.config(self.config)
        weights = self.belief.weights(det) if cfg.belief and knobs.belief else {}
        sampler = WorldSampler(det, weights)
        deadline = started + self.budget - min(cfg.safety, knobs.safety_share * self.budget)
        prior = None
        if knobs.bias:
            prior = root_prior(det, evaluator, len(det.view.moves))
        view = det.view
        reuse = knobs.reuse == "always" or (knobs.reuse == "timed" and self.simulations is None)
        start = None
        if reuse and self.kept is not None:
            start = self.kept.follow(view, det.base.encode)
        self.reused = start.visits if start is not None else 0
        root, self.last_simulations = fast_search(
            sampler, self.rng, cfg, self.simulations, deadline, prior, knobs.bias, start, knobs
        )
        # A kept root may hold moves of worlds where other tiles turned up: drop those.
        legal = set(det.base.legal_codes())
        for code in [code for code in root.children if code not in legal]:
            del root.children[code]
        self.kept = KeptTree(view, root) if reuse else None
        return root


def root_prior(det: Determinizer, evaluator: Evaluator, salt: int) -> dict[int, float]:
    """Each legal move's greedy margin, scaled to [0, 1] over the moves (the best 1)."""
    margins = move_values(det, evaluator, random.Random(salt))
    low = min(margins.values())
    span = max(margins.values()) - low
    return {code: (v - low) / span if span > 0 else 0.5 for code, v in margins.items()}
