"""Post-game review: each move beside the move the strong AI preferred, and what it cost.

For every move of a finished record, the strong search (:mod:`paris_tui.ai.strong`)
is run from the mover's view at that moment (never another seat's route or
the stack order: the same fairness as the bots) with a fixed number of
simulations, so a review is deterministic for its seed.

Only a finished game is reviewed (:class:`UnfinishedGame` otherwise): a
mover's view holds that mover's secret route, so a review of a game still
being played would show, to whoever asks for it, choices worked out from
routes that are still secret (R8). At the game end every route is revealed.

The seed rule: one seed for the whole review, ``0`` unless ``--seed`` says
otherwise; each move's search draws from a generator made of the seed and
the move's index (:func:`paris_tui.ai.seeding.decision_rng`), so a move's
review depends only on the seed and the position. The app's review screen
uses seed ``0`` and the same number of simulations, so for the same game it
gives the same numbers as ``paris-tui review FILE``. Each root move gets
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
from ..wording import shown_name
from .belief import RouteBelief
from .evaluation import Evaluator
from .hint import MarginBot
from .seeding import decision_rng

__all__ = [
    "DEFAULT_SEED",
    "DEFAULT_SIMULATIONS",
    "MoveReview",
    "ReviewCancelled",
    "UnfinishedGame",
    "add_review_parser",
    "is_finished",
    "review",
    "review_json",
]

DEFAULT_SIMULATIONS = 1500
"""Simulations per move: about a tenth of a second each on one core."""

DEFAULT_SEED = 0
"""The review's seed unless ``--seed`` gives another: the app's review screen uses it too."""


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


class UnfinishedGame(ValueError):
    """:func:`review` was given a game that is not finished (its movers' routes are secret)."""


def is_finished(record: Record) -> bool:
    """Whether ``record`` reaches the game end (then every route is public, R8)."""
    return replay(record).is_over


def review(
    record: Record,
    *,
    seed: int = DEFAULT_SEED,
    simulations: int = DEFAULT_SIMULATIONS,
    seats: Collection[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[MoveReview]:
    """Every move of ``record`` reviewed; the game must be finished (else :class:`UnfinishedGame`).

    With ``seats``, only those seats' moves (the others are played, not
    reviewed). ``progress(done, total)`` is called after each reviewed move;
    ``cancelled()`` is asked before each, and :class:`ReviewCancelled` is
    raised when it answers true (a screen's worker stops this way). A move's
    review depends only on the seed and the position, so a filtered review's
    moves equal the full review's.
    """
    if simulations < 1:
        raise ValueError(f"the number of simulations must be at least 1, not {simulations}")
    if not is_finished(record):
        raise UnfinishedGame("only a finished game is reviewed: the movers' routes are secret")
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
        help=_("review a finished game: each move beside the strong AI's choice"),
        description=_(
            "For each move of FILE, a finished game, the move the strong AI preferred from the "
            "mover's view at that moment and the estimated loss (0 for the preferred move); per "
            "player, the mean loss and the three costliest moves. Deterministic for --seed: "
            "seed {seed} unless given, the seed the app's review uses too, so both give the "
            "same numbers for the same game. An unfinished game is not reviewed (its routes "
            "are secret): one line, exit status 2."
        ).format(seed=DEFAULT_SEED),
    )
    parser.add_argument("file", help=_("a game record (JSON)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=_("search seed (default {n})").format(n=DEFAULT_SEED),
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


def _padded(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells (with ``…``) and padded to it."""
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) > width:
        text = set_cell_size(text, width - 1) + "…"
    return set_cell_size(text, width)


def _tile_words(record: Record, move: Move) -> str:
    """``[B] Opéra`` (``[B] Opéra, removes Bob``): a move for the command's table."""
    from ..core.board import BOARDS

    board = BOARDS[record.board]()
    stop, line = move.tile.split("/")
    letter = board.lines[board.line_index[line]].letter
    text = f"[{letter}] {board.stops[board.stop_index[stop]].name}"
    if move.evict is not None:
        name = _padded(shown_name(record.players[move.evict].name), 6).rstrip()
        text += " " + _("{name} out").format(name=name)
    return text


def review_lines(
    record: Record, reviews: list[MoveReview], *, seed: int, simulations: int
) -> list[str]:
    """The command's text: a head, each move beside the AI's choice, then per player a summary.

    Costliest moves are marked ``!`` as on the review screen; ``=`` means the
    AI would have played the same move.
    """
    from rich.cells import cell_len

    data = review_json(record, reviews)
    costly = {i for player in data["players"] for i in player["worst"]}
    lines = [
        _("Review: seed {seed}, {n} simulations a move").format(seed=seed, n=simulations),
    ]
    head_move, head_player = _("Move"), _("Player")
    head_played, head_best, head_loss = _("Played"), _("AI's choice"), _("Loss")
    move_w = max(5, cell_len(head_move))
    name_w = min(
        14, max([cell_len(head_player)] + [cell_len(shown_name(p.name)) for p in record.players])
    )
    tile_w = max(28, cell_len(head_played), cell_len(head_best))
    loss_w = max(5, cell_len(head_loss))
    lines.append(
        " ".join(
            (
                " " * (move_w - cell_len(head_move)) + head_move,
                _padded(head_player, name_w),
                _padded(head_played, tile_w),
                _padded(head_best, tile_w),
                " " * (loss_w - cell_len(head_loss)) + head_loss,
            )
        )
    )
    for r in reviews:
        mark = "!" if r.index in costly else " "
        best = "=" if r.best == r.played else _tile_words(record, r.best)
        loss = decimal(r.loss)
        lines.append(
            " ".join(
                (
                    f"{mark}{r.index + 1:>{move_w - 1}}",
                    _padded(shown_name(record.players[r.seat].name), name_w),
                    _padded(_tile_words(record, r.played), tile_w),
                    _padded(best, tile_w),
                    f"{loss:>{loss_w}}",
                )
            ).rstrip()
        )
    for player in data["players"]:
        # Translators: no move to name (a player with no costly move).
        worst = ", ".join(str(i + 1) for i in player["worst"]) or _("none")
        lines.append(
            _("{name}: mean loss {loss}; costliest moves: {moves}").format(
                name=shown_name(player["name"]), loss=decimal(player["mean_loss"]), moves=worst
            )
        )
    return lines


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
    if not is_finished(record):
        problem = _(
            "{path}: the game is not finished; only a finished game is reviewed "
            "(a review works from each mover's secret route)"
        ).format(path=printable(str(path)))
        print(f"paris-tui: {problem}", file=sys.stderr)
        return 2
    reviews = review(record, seed=args.seed, simulations=args.simulations)
    if args.json:
        data = review_json(record, reviews)
        sys.stdout.write(json.dumps(data, ensure_ascii=True) + "\n")
        return 0
    for line in review_lines(record, reviews, seed=args.seed, simulations=args.simulations):
        print(line)
    return 0
