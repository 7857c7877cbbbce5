"""Post-game review: each move beside the move the strong AI preferred, and what it cost.

For every move of a finished record, the strong search (:mod:`paris_tui.ai.strong`)
is run from the mover's view at that moment (never another seat's route or
the stack order: the same fairness as the bots) with a fixed number of
simulations, so a review is deterministic for its seed. Each root move gets
the expected final margin of the simulations through it (the mover's final
score minus the best other seat's, the number the hint shows). The preferred
move is the most visited one, the move the strong AI plays; a move's *loss*
is how many points of final margin less than the preferred move it is
expected to bring, 0 for the preferred move itself and never below 0.

``paris-tui review FILE --json`` prints::

    {"moves": [{"index", "seat", "played", "best", "loss"}, ...],
     "players": [{"seat", "name", "mean_loss", "worst": [index, ...]}, ...]}

``worst`` lists a player's three costliest moves (those with a loss above 0).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import Move, ParisError, RecordError, printable
from ..core.record import Record, load_record, replay
from ..core.sampling import Determinizer
from ..i18n import _, decimal
from .belief import RouteBelief
from .evaluation import Evaluator
from .hint import MarginBot
from .seeding import decision_rng

__all__ = [
    "DEFAULT_SIMULATIONS",
    "MoveReview",
    "ReviewCancelled",
    "add_review_parser",
    "review",
    "review_json",
]

DEFAULT_SIMULATIONS = 1500
"""Simulations per move: about a tenth of a second each on one core."""


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of a game, reviewed."""

    index: int
    seat: int
    played: Move
    best: Move
    loss: float


class ReviewCancelled(Exception):
    """:func:`review` stopped because its ``cancelled`` callback said so."""


def review(
    record: Record,
    *,
    seed: int = 0,
    simulations: int = DEFAULT_SIMULATIONS,
    seats: Collection[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[MoveReview]:
    """Every move of ``record`` reviewed (the game need not be finished).

    With ``seats``, only those seats' moves (the others are played, not
    reviewed). ``progress(done, total)`` is called after each reviewed move;
    ``cancelled()`` is asked before each, and :class:`ReviewCancelled` is
    raised when it answers true (a screen's worker stops this way). A move's
    review depends only on the seed and the position, so a filtered review's
    moves equal the full review's.
    """
    if simulations < 1:
        raise ValueError(f"the number of simulations must be at least 1, not {simulations}")
    game = replay(record, 0)
    out: list[MoveReview] = []
    n = len(record.players)
    # One belief for the whole game: what it works out for a past move holds at every later one.
    belief = RouteBelief()
    total = sum(1 for i in range(len(record.moves)) if seats is None or _mover(i, n) in seats)
    for index, played in enumerate(record.moves):
        seat = game.to_move
        if seats is not None and seat not in seats:
            game.play(played)
            continue
        if cancelled is not None and cancelled():
            raise ReviewCancelled
        if progress is not None:
            progress(len(out), total)
        view = game.view(seat)
        if len(view.legal_moves) <= 1:
            out.append(MoveReview(index, seat, played, played, 0.0))
            game.play(played)
            continue
        bot = MarginBot(seed, simulations, seat, n)
        bot.belief = belief
        bot.rng = decision_rng(seed, view)  # one generator per move, as the bots' own
        det = Determinizer(view)
        root = bot.search(det, Evaluator(view), 0.0)
        children = root.children
        best_code = max(children, key=lambda code: (children[code].visits, children[code].total))

        played_code = det.base.encode(played)
        best = det.base.decode(best_code)
        if played_code == best_code:
            loss = 0.0
        else:
            margins = {
                c: bot.margin_sum.get(c, 0.0) / k.visits for c, k in children.items() if k.visits
            }
            # a move never tried (too few simulations) counts as the worst one tried
            played_margin = margins.get(played_code, min(margins.values()))
            loss = max(0.0, margins[best_code] - played_margin)
        out.append(MoveReview(index, seat, played, best, round(loss, 2)))
        game.play(played)
    if progress is not None:
        progress(len(out), total)
    return out


def _mover(index: int, players: int) -> int:
    """The seat that makes move ``index`` (the bus moves on one seat each round, R3)."""
    rnd, k = divmod(index, players)
    return (rnd + k) % players


def _move_text(move: Move) -> str:
    return move.tile if move.evict is None else f"{move.tile}!{move.evict}"


def review_json(record: Record, reviews: list[MoveReview]) -> dict[str, Any]:
    """The ``paris-tui review --json`` object (see the module docstring)."""
    players: list[dict[str, Any]] = []
    for seat, player in enumerate(record.players):
        mine = [r for r in reviews if r.seat == seat]
        costly = sorted((r for r in mine if r.loss > 0), key=lambda r: (-r.loss, r.index))[:3]
        players.append(
            {
                "seat": seat,
                "name": player.name,
                "mean_loss": round(sum(r.loss for r in mine) / len(mine), 2) if mine else 0.0,
                "worst": [r.index for r in costly],
            }
        )
    return {
        "moves": [
            {
                "index": r.index,
                "seat": r.seat,
                "played": _move_text(r.played),
                "best": _move_text(r.best),
                "loss": r.loss,
            }
            for r in reviews
        ],
        "players": players,
    }


def add_review_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "review",
        help=_("review a recorded game: each move beside the strong AI's choice"),
        description=_(
            "For each move of FILE, the move the strong AI preferred from the mover's "
            "view at that moment and the estimated loss (0 for the preferred move); per player, "
            "the mean loss and the three costliest moves. Deterministic for --seed."
        ),
    )
    parser.add_argument("file", help=_("a game record (JSON)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.add_argument(
        "--seed", type=int, default=0, help=_("search seed (default {n})").format(n=0)
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=DEFAULT_SIMULATIONS,
        help=_("simulations per move (default {n}); more is slower and surer").format(
            n=DEFAULT_SIMULATIONS
        ),
    )
    parser.set_defaults(func=cmd_review)
    return parser


def cmd_review(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if args.simulations < 1:
        problem = _("{option} must be at least {n}").format(option="--simulations", n=1)
        print(f"paris-tui: {problem}", file=sys.stderr)
        return 2
    try:
        record = load_record(path)
    except ParisError as exc:
        from ..wording import record_problem

        reason = record_problem(exc) if isinstance(exc, RecordError) else str(exc)
        problem = _("invalid record {path}: {reason}").format(
            path=printable(str(path)), reason=reason
        )
        print(f"paris-tui: {problem}", file=sys.stderr)
        return 2
    reviews = review(record, seed=args.seed, simulations=args.simulations)
    data = review_json(record, reviews)
    if args.json:
        sys.stdout.write(json.dumps(data, ensure_ascii=True) + "\n")
        return 0
    for player in data["players"]:
        # Translators: no move to name (a player with no costly move).
        worst = ", ".join(str(i + 1) for i in player["worst"]) or _("none")
        print(
            _("{name}: mean loss {loss}; costliest moves: {moves}").format(
                name=printable(player["name"]), loss=decimal(player["mean_loss"]), moves=worst
            )
        )
    return 0
