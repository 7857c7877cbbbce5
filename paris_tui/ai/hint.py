"""A hint for the player to move: the strong search's view of each face-up tile.

:func:`hint` runs the strong search (:mod:`paris_tui.ai.strong`) from one
:class:`~paris_tui.core.SeatView` only, so a hint knows exactly what the
seat knows (R8): never another seat's route, never the order of the
face-down stacks. Two games that differ only in those give the same hint
for the same seed (``tests/ai/test_hint.py``).

Each legal move (a face-up tile; at a full stop, one move per business it
could remove) gets, over the simulations that started with it:

- ``margin``: the expected final margin, the mover's final score minus the
  best other seat's (positive: ahead), the number the app shows;
- ``points``: the mover's expected final score;
- ``visits``: how many simulations went through it.

The best move is the one the strong AI itself would play (the most visited
one, as :class:`~paris_tui.ai.strong.StrongBot` and
:mod:`paris_tui.ai.review` choose). Its :class:`HintReason` says why in codes
and numbers, never words (the app words them in the reader's language): the
business the move opens or removes, and the tile left over at the end of
the round on the search's likeliest line of play (certain when the move is
the round's last), with what its small tour and the grand tour it runs pay
the mover. The events come from the rules engine on the public position
(:class:`~paris_tui.core.sampling.Determinizer`'s base game); a grand tour
is scored on the board as it stands then.

The search runs a fixed number of simulations (:data:`DEFAULT_SIMULATIONS`),
so a hint is deterministic for its seed; ``benchmarks/hint.py`` measures
its latency.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..core import (
    BusinessOpened,
    BusinessRemoved,
    Game,
    Move,
    ScoreEvent,
    SeatView,
    TileDiscarded,
    TourEvent,
)
from ..core.sampling import Determinizer
from .evaluation import Evaluator
from .seeding import decision_rng
from .strong import CODE_SPACE, Mast, Node, StrongBot

__all__ = [
    "DEFAULT_SIMULATIONS",
    "Hint",
    "HintCancelled",
    "HintReason",
    "MarginBot",
    "MoveHint",
    "hint",
]

DEFAULT_SIMULATIONS = 2000
"""Simulations per hint: p95 0.77 s over 60 positions (``benchmarks/hint.py``) on a 2-core
machine running the test suite at the same time, with the route belief (0.43 s before it, on a
less loaded machine)."""


@dataclass(frozen=True, slots=True)
class HintReason:
    """Why a move is good, as ids and numbers (worded by the app).

    ``opened`` is the stop where the move opens the mover's business
    (``None`` when the supply is empty) and ``count_there`` how many of the
    mover's businesses stand there afterwards; ``next_to`` the neighbouring
    stops that hold a business of the mover (a grand tour pays a business at a
    crossing one more for each of its owner's businesses next to it, R6);
    ``removed`` the seat whose
    business it removes there and ``removed_to`` where that business goes.
    ``leftover`` is the tile left over when this round ends: decided by the
    move itself when ``leftover_certain``, else the search's likeliest line
    of play (``None`` if the search saw no line to the round's end). Its
    small tour pays the mover ``small_points``; ``grand_line`` is the line
    whose grand tour the discard runs (``None``: none), paying ``grand_points``.
    """

    opened: str | None
    count_there: int
    next_to: tuple[str, ...]
    removed: int | None
    removed_to: Literal["supply", "sack"] | None
    leftover: str | None
    leftover_certain: bool
    small_points: int
    grand_line: str | None
    grand_points: int


@dataclass(frozen=True, slots=True)
class MoveHint:
    """The search's estimate of one legal move for the mover (see the module docstring)."""

    move: Move
    margin: float
    points: float
    visits: int


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint: every legal move's estimate, the best move and why.

    ``moves`` is sorted by ``margin`` rounded to one decimal (the number the app
    shows), highest first; among equal shown margins ``best`` first. ``best``
    is the strong AI's choice, the most visited move, which is not always the
    one with the highest mean margin (the search visits a move more when it
    looked good earlier in the search, and a mean over few visits is noisy).
    """

    seat: int
    moves: tuple[MoveHint, ...]
    best: Move
    reason: HintReason
    simulations: int

    def for_move(self, move: Move) -> MoveHint:
        for entry in self.moves:
            if entry.move == move:
                return entry
        raise KeyError(move)


class HintCancelled(Exception):
    """:func:`hint` stopped because its ``cancelled`` callback said so."""


CANCEL_CHECK = 64
"""Simulations between two looks at the ``cancelled`` callback."""


class MarginBot(StrongBot):
    """The strong search that also keeps, per root move, the sums of final scores and margins
    of the seat to move (the hint shows them; the review's loss is their difference)."""

    def __init__(
        self,
        seed: int | str,
        simulations: int,
        seat: int,
        players: int,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(seed, simulations=simulations)
        self.seat = seat
        self.players = players
        self.cancelled = cancelled
        self.playouts = 0
        self.margin_sum: dict[int, float] = {}
        self.points_sum: dict[int, float] = {}

    def playout(
        self,
        game: Game,
        rng: random.Random,
        evaluator: Evaluator,
        mast: Mast | None,
        trace: list[int],
    ) -> list[float]:
        self.playouts += 1
        if self.cancelled is not None and self.playouts % CANCEL_CHECK == 0 and self.cancelled():
            raise HintCancelled
        rewards = super().playout(game, rng, evaluator, mast, trace)
        if trace:
            code = trace[0] % CODE_SPACE
            outcome = game.outcome()
            scores = outcome.scores if outcome is not None else tuple(game.scores)
            mine = scores[self.seat]
            best_other = max(s for p, s in enumerate(scores) if p != self.seat)
            self.margin_sum[code] = self.margin_sum.get(code, 0.0) + (mine - best_other)
            self.points_sum[code] = self.points_sum.get(code, 0.0) + mine
        return rewards


def hint(
    view: SeatView,
    *,
    seed: int | str = 0,
    simulations: int = DEFAULT_SIMULATIONS,
    cancelled: Callable[[], bool] | None = None,
) -> Hint:
    """The hint for the seat of ``view``, whose turn it must be.

    ``cancelled()`` is asked every few dozen simulations; when it answers
    true the search stops with :class:`HintCancelled` (a screen's worker
    whose position is gone). Raises ``ValueError`` when it is not the view's
    turn or ``simulations`` is below 1.
    """
    if simulations < 1:
        raise ValueError(f"the number of simulations must be at least 1, not {simulations}")
    if not view.my_turn or view.seat is None or not view.legal_moves:
        raise ValueError("a hint needs the view of the seat to move")
    seat = view.seat
    det = Determinizer(view)
    base = det.base
    if len(view.legal_moves) == 1:
        only = view.legal_moves[0]
        entry = MoveHint(only, 0.0, float(view.scores[seat]), 0)
        return Hint(seat, (entry,), only, _reason(base, seat, only, None), 0)
    bot = MarginBot(seed, simulations, seat, view.players, cancelled)
    bot.rng = decision_rng(seed, view)
    root = bot.search(det, Evaluator(view), 0.0)
    children = root.children
    best_code = max(children, key=lambda code: (children[code].visits, children[code].total))
    entries: list[MoveHint] = []
    for move in view.legal_moves:
        code = base.encode(move)
        child = children.get(code)
        visits = child.visits if child is not None else 0
        if visits:
            margin = bot.margin_sum.get(code, 0.0) / visits
            points = bot.points_sum.get(code, 0.0) / visits
        else:  # never tried (only with very few simulations)
            margin, points = 0.0, float(view.scores[seat])
        entries.append(MoveHint(move, round(margin, 2), round(points, 2), visits))
    best = base.decode(best_code)
    # By the margin as the app shows it (one decimal), highest first: a list that reads in
    # its own order. The AI's choice (the most visited move) need not have the highest mean
    # margin; among equal shown margins it comes first.
    entries.sort(key=lambda e: (-round(e.margin, 1), e.move != best, -e.visits, e.move))
    reason = _reason(base, seat, best, children.get(best_code))
    return Hint(seat, tuple(entries), best, reason, bot.last_simulations)


def _reason(base: Game, seat: int, move: Move, node: Node | None) -> HintReason:
    """Play ``move`` and the likeliest rest of the round on the public position."""
    game = base.copy()
    start_round = game.round
    opened: str | None = None
    count_there = 0
    next_to: tuple[str, ...] = ()
    removed: int | None = None
    removed_to: Literal["supply", "sack"] | None = None
    first = game.play(move)
    for event in first:
        if isinstance(event, BusinessOpened):
            opened = event.stop
            count_there = game.businesses_at(event.stop).count(seat)
            board = game.board
            next_to = tuple(
                board.stop_ids[s]
                for s in board.neighbours[board.stop_index[event.stop]]
                if seat in game.businesses_at(s)
            )
        elif isinstance(event, BusinessRemoved):
            removed, removed_to = event.owner, event.to
    events = list(first)
    certain = game.round != start_round or game.is_over
    # The rest of the round on the search's likeliest line: the most visited
    # child at each step (the face-up tiles of this round are public, so the
    # tree's edges here are the same in every sampled game).
    while node is not None and game.round == start_round and not game.is_over:
        legal = set(game.legal_codes())
        options = [(c, n) for c, n in node.children.items() if c in legal and n.visits]
        if not options:
            break
        code, node = max(options, key=lambda item: (item[1].visits, item[1].total))
        events.extend(game.play(game.decode(code)))
    leftover: str | None = None
    small = grand = 0
    grand_line: str | None = None
    tour: str | None = None
    for event in events:
        if isinstance(event, TourEvent):
            tour = event.kind
            if event.kind == "grand_tour":
                grand_line = event.line
        elif isinstance(event, TileDiscarded):
            leftover = event.tile
        elif isinstance(event, ScoreEvent) and event.seat == seat and event.round == start_round:
            if tour == "small_tour":
                small += event.points
            elif tour == "grand_tour":
                grand += event.points
    return HintReason(
        opened=opened,
        count_there=count_there,
        next_to=next_to,
        removed=removed,
        removed_to=removed_to,
        leftover=leftover,
        leftover_certain=certain and leftover is not None,
        small_points=small,
        grand_line=grand_line,
        grand_points=grand,
    )
