"""Fit the ``expert`` level's opponent model and measure how well its belief predicts.

    .venv/bin/python scripts/fit_expert.py [--seed 37] [--games 40,20,20] [--held-out 20,10,10]
                                           [--simulations 200] [--check]

Deterministic from ``--seed``: it plays self-play games between strong bots
(``--simulations`` a move, so no clock is read), ``--games`` of them with 2,
3 and 4 players for fitting and ``--held-out`` others (their own deals and
bot seeds) for measuring. For every seat of every game, another seat
observes it: for each of the seat's moves and each line its route may be
(as the observer sees it), the greedy margins of the legal moves are worked
out once, with whether each move builds on that line
(:meth:`paris_tui.ai.expert.FittedBelief.features`). The fit is a grid
search, then a coordinate search, over the model's three temperatures and
three line weights (one each per third of the game) and its floor, maximising the mean log
probability that Bayes' rule gives the seat's true route after each of its
moves. It writes the model to ``paris_tui/ai/data/expert.json`` (with
``--check``, only measures the shipped one) and prints, on the held-out
games, the mean probability given to each opponent's true route after 5, 10
and 15 moves of the game, for the uniform guess, the strong level's hand-set
model and the fitted one. About ten minutes on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paris_tui.ai.belief import BeliefConfig  # noqa: E402
from paris_tui.ai.expert import (  # noqa: E402
    PHASES,
    ExpertModel,
    Features,
    FittedBelief,
    load_model,
    move_log_likelihood,
    phase,
)
from paris_tui.ai.strong import StrongBot  # noqa: E402
from paris_tui.core import Game, Move  # noqa: E402
from paris_tui.core.sampling import Determinizer  # noqa: E402

OUT = ROOT / "paris_tui" / "ai" / "data" / "expert.json"
CHECKPOINTS = (5, 10, 15)


@dataclass(frozen=True)
class Turn:
    """One move of a seat: its index in the game, and per candidate line the margins, the
    on-line flags and the position of the move played among them."""

    index: int
    margins: dict[str, Features]


@dataclass(frozen=True)
class Track:
    """A seat as one observer sees it: its turns, its true route, the game's shape."""

    players: int
    rounds_total: int
    truth: str
    lines: tuple[str, ...]
    turns: tuple[Turn, ...]


def self_play(players: int, seed: str, simulations: int) -> Game:
    game = Game.new(players, rng=random.Random(f"{seed}:deal"))
    bots = [StrongBot(f"{seed}:bot:{p}", simulations=simulations) for p in range(players)]
    while not game.is_over:
        game.play(bots[game.to_move].choose(game.view(game.to_move)))
    return game


def tracks(game: Game) -> list[Track]:
    """Every seat seen by the next seat, from the position before the game's last move."""
    moves: tuple[Move, ...] = tuple(game.view(0).moves)
    n = game.players
    before = Game.from_setup(game.setup, n, options=game.options)
    for move in moves[:-1]:
        before.play(move)
    out = []
    for seat in range(n):
        observer = (seat + 1) % n
        det = Determinizer(before.view(observer))
        lines = det.unknown_lines
        if len(lines) < 2 or seat not in det.unknown_seats:
            continue
        belief = FittedBelief(ExpertModel())
        turns = []
        for index, move in enumerate(moves[:-1]):
            if (index // n + index % n) % n != seat:
                continue
            margins = {line: belief.features(det, index, seat, line, move) for line in lines}
            turns.append(Turn(index, margins))
        out.append(Track(n, game.rounds_total, game.route(seat), lines, tuple(turns)))
    return out


def posteriors(track: Track, model: ExpertModel) -> list[float]:
    """The true route's probability after each of the seat's turns (before any: uniform)."""
    logs = dict.fromkeys(track.lines, 0.0)
    out = [1.0 / len(track.lines)]
    for turn in track.turns:
        k = phase(turn.index, track.players, track.rounds_total)
        temp, weight = model.temperatures[k], model.line_weights[k]
        for line in track.lines:
            values, on_line, played = turn.margins[line]
            logs[line] += move_log_likelihood(values, on_line, played, temp, weight, model.floor)
        top = max(logs.values())
        total = sum(math.exp(v - top) for v in logs.values())
        out.append(math.exp(logs[track.truth] - top) / total)
    return out


def objective(data: list[Track], model: ExpertModel) -> float:
    """Mean log probability of the true route over every prefix of every track."""
    total = 0.0
    count = 0
    for track in data:
        for p in posteriors(track, model)[1:]:
            total += math.log(max(p, 1e-12))
            count += 1
    return total / max(1, count)


def fit(data: list[Track]) -> tuple[ExpertModel, float]:
    temps = [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4]
    weights = [-0.5, 0.0, 0.5, 1.0, 2.0]
    floors = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5]

    def model(t: Sequence[float], w: Sequence[float], f: float) -> ExpertModel:
        return ExpertModel(tuple(t), f, tuple(w))

    best = max(
        ((t, w, f) for t in temps for w in weights for f in floors),
        key=lambda twf: objective(data, model([twf[0]] * 3, [twf[1]] * 3, twf[2])),
    )
    t_now, w_now, floor = [best[0]] * PHASES, [best[1]] * PHASES, best[2]
    score = objective(data, model(t_now, w_now, floor))
    for _ in range(3):  # coordinate search, each parameter on a finer grid around it
        for k in range(2 * PHASES + 1):
            for step in (0.5, 0.7, 0.85, 1.2, 1.4, 2.0, -0.5, -0.2, 0.2, 0.5):
                t, w, f = list(t_now), list(w_now), floor
                if k < PHASES:
                    if step < 0 or step == 0.2:
                        continue
                    t[k] *= step
                elif k < 2 * PHASES:
                    if step not in (-0.5, -0.2, 0.2, 0.5):
                        continue
                    w[k - PHASES] += step
                else:
                    if step < 0 or step == 0.2:
                        continue
                    f *= step
                    if not 0 < f < 0.9:
                        continue
                trial = objective(data, model(t, w, f))
                if trial > score + 1e-9:
                    score, t_now, w_now, floor = trial, t, w, f
    fitted = ExpertModel(
        tuple(round(x, 4) for x in t_now), round(floor, 4), tuple(round(x, 4) for x in w_now)
    )
    return fitted, score


def at_checkpoints(data: list[Track], model: ExpertModel) -> list[float]:
    """Mean probability of the true route once 5, 10, 15 moves of the game are played."""
    out = []
    for k in CHECKPOINTS:
        probs = []
        for track in data:
            post = posteriors(track, model)
            seen = sum(1 for turn in track.turns if turn.index < k)
            probs.append(post[seen])
        out.append(sum(probs) / max(1, len(probs)))
    return out


def collect(label: str, counts: Sequence[int], seed: int, simulations: int) -> list[Track]:
    data: list[Track] = []
    for players, count in zip((2, 3, 4), counts, strict=True):
        for g in range(count):
            started = time.perf_counter()
            game = self_play(players, f"fit-expert:{seed}:{label}:{players}:{g}", simulations)
            data.extend(tracks(game))
            print(
                f"  {label} {players}p game {g + 1}/{count} "
                f"({time.perf_counter() - started:.1f} s)",
                file=sys.stderr,
            )
    return data


def counts(text: str) -> list[int]:
    parts = [int(x) for x in text.split(",")]
    if len(parts) != 3 or min(parts) < 0:
        raise argparse.ArgumentTypeError("three counts, for 2, 3 and 4 players")
    return parts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--games", type=counts, default=[40, 20, 20])
    parser.add_argument("--held-out", type=counts, default=[20, 10, 10])
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--check", action="store_true", help="measure the shipped model only")
    args = parser.parse_args(argv)
    if args.check:
        model = load_model()
    else:
        train = collect("train", args.games, args.seed, args.simulations)
        model, score = fit(train)
        print(f"fitted on {len(train)} seats: {model} (mean log p {score:.4f})")
        payload = {
            "about": "the expert level's opponent model; made by scripts/fit_expert.py",
            "seed": args.seed,
            "games": args.games,
            "simulations": args.simulations,
            "model": model.to_json(),
        }
        OUT.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    held = collect("held-out", args.held_out, args.seed, args.simulations)
    hand = BeliefConfig()
    models = {
        "uniform": ExpertModel((1e9,) * PHASES, 0.5),
        "strong": ExpertModel((hand.temperature,) * PHASES, hand.floor),
        "expert": model,
    }
    print(f"held-out: {len(held)} seats; mean probability of the true route after")
    print("  moves:    " + "  ".join(f"{k:>6}" for k in CHECKPOINTS) + "  mean log p")
    for name, m in models.items():
        values = at_checkpoints(held, m)
        print(
            f"  {name:8}  "
            + "  ".join(f"{v:6.3f}" for v in values)
            + f"  {objective(held, m):10.4f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
