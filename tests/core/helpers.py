"""Helpers for the rules-core tests: crafted deals, move playing, state snapshots.

Everything here uses the core's public API only. The independent rules
oracle is :mod:`tests.reference.ref_engine` (written from rules.md alone).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # ``tests.reference`` must import however pytest is run
    sys.path.insert(0, str(ROOT))

from paris_tui.core import (  # noqa: E402
    Event,
    Game,
    Move,
    Options,
    ScoreEvent,
    Setup,
    TourEvent,
    classic_board,
)
from tests.reference import ref_engine  # noqa: E402

BOARD_JSON = ROOT / "paris_tui" / "core" / "data" / "board-classic.json"
DATA = Path(__file__).resolve().parent / "data"

ALL_OPTIONS = (
    Options(),
    Options(small_tour="tile-line"),
    Options(final_tours="all-lines"),
    Options(small_tour="tile-line", final_tours="all-lines"),
)

DEFAULT_ROUTES: dict[int, tuple[tuple[str, ...], str | None]] = {
    2: (("blue", "red"), "green"),
    3: (("blue", "red", "green"), None),
    4: (("blue", "red", "green", "pink"), None),
}


def make_setup(
    n: int,
    first_stacks: Sequence[Sequence[str]],
    routes: Sequence[str] | None = None,
    public: str | None = "default",
) -> Setup:
    """A deal whose first stacks are ``first_stacks``; the other tiles follow, sorted.

    The stacks together hold exactly the board's 60 tiles (asserted), so the
    deal is a legal one (R2), designed so the positions a test needs arise.
    """
    size = n + 1
    for stack in first_stacks:
        assert len(stack) == size, f"a {n}-player stack holds {size} tiles: {stack}"
    left = Counter(classic_board().all_tiles)
    left.subtract(t for stack in first_stacks for t in stack)
    assert all(c >= 0 for c in left.values()), f"too many tiles used: {-left}"
    rest = sorted(left.elements())
    stacks = [tuple(s) for s in first_stacks] + [
        tuple(rest[i : i + size]) for i in range(0, len(rest), size)
    ]
    assert sum(map(len, stacks)) == 60
    default_routes, default_public = DEFAULT_ROUTES[n]
    return Setup(
        tuple(stacks),
        tuple(routes if routes is not None else default_routes),
        default_public if public == "default" else public,
    )


def crafted(
    n: int,
    first_stacks: Sequence[Sequence[str]],
    *,
    routes: Sequence[str] | None = None,
    public: str | None = "default",
    options: Options | None = None,
) -> Game:
    """``Game.from_setup`` of :func:`make_setup`."""
    return Game.from_setup(make_setup(n, first_stacks, routes, public), n, options=options)


def as_move(step: str | tuple[str, int | None] | Move) -> Move:
    if isinstance(step, Move):
        return step
    if isinstance(step, str):
        return Move(step)
    return Move(step[0], step[1])


def play_all(game: Game, steps: Iterable[str | tuple[str, int | None] | Move]) -> list[Event]:
    """Play the moves in order through :meth:`Game.play`; return all their events."""
    events: list[Event] = []
    for step in steps:
        events.extend(game.play(as_move(step)))
    return events


def play_to_end(game: Game) -> list[Event]:
    """Finish the game with the first legal move each time; return the events."""
    events: list[Event] = []
    while not game.is_over:
        events.extend(game.play(game.legal_moves()[0]))
    return events


def play_random(game: Game, rng: random.Random, moves: int | None = None) -> list[Event]:
    """Random legal moves through :meth:`Game.play` (all, or ``moves`` of them)."""
    events: list[Event] = []
    count = 0
    while not game.is_over and (moves is None or count < moves):
        events.extend(game.play(rng.choice(game.legal_moves())))
        count += 1
    return events


def score_events(events: Iterable[Event], kind: str | None = None) -> list[ScoreEvent]:
    return [e for e in events if isinstance(e, ScoreEvent) and (kind is None or e.kind == kind)]


def points(events: Iterable[Event], n: int, kind: str | None = None) -> list[int]:
    """Points per seat in the score events (of one kind)."""
    out = [0] * n
    for e in score_events(events, kind):
        out[e.seat] += e.points
    return out


def tours(events: Iterable[Event], kind: str | None = None) -> list[TourEvent]:
    return [e for e in events if isinstance(e, TourEvent) and (kind is None or e.kind == kind)]


def state(game: Game) -> dict[str, Any]:
    """Everything observable about a game through its public API (secrets included)."""
    return {
        "players": game.players,
        "options": game.options,
        "setup": game.setup,
        "round": game.round,
        "to_move": game.to_move,
        "starter": game.starter,
        "face_up": game.face_up,
        "discard": game.discard,
        "scores": list(game.scores),
        "supply": list(game.supply),
        "sack": list(game.sack),
        "occupancy": game.occupancy(),
        "moves": game.moves,
        "round_scores": game.round_scores,
        "outcome": game.outcome(),
        "is_over": game.is_over,
        "legal": game.legal_moves(),
        "stacks_left": game.stacks_left(),
        "remaining": game.remaining_stack_tiles(),
        "tiles_out": game.tiles_out,
    }


def grand_tour_points(game: Game, line: str) -> list[int]:
    """R6 computed independently from the public occupancy: what a grand tour on
    ``line`` would score now."""
    board = game.board
    occ = game.occupancy()
    out = [0] * game.players
    li = board.line_index[line]
    for c in board.lines[li].stops:
        if not board.stops[c].is_crossing:
            continue
        owners = occ[c]
        for p in owners:
            out[p] += 1
        for p in set(owners):
            out[p] += sum(occ[nb].count(p) for nb in board.neighbours[c])
    return out


def twin(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A game with the same public information as ``game`` for ``seat`` (and the same moves)
    but different hidden information: other seats' routes and the face-down stacks."""
    setup = game.setup
    n = game.players
    cut = min(game.round + 1, game.rounds_total)  # past stacks and the face-up one are public
    future = [t for st in setup.stacks[cut:] for t in st]
    if len(set(future)) > 1:
        original = list(future)
        while future == original:
            rng.shuffle(future)
    size = n + 1
    stacks = setup.stacks[:cut] + tuple(
        tuple(future[i : i + size]) for i in range(0, len(future), size)
    )
    lines = list(game.board.line_ids)
    fixed = {seat: setup.routes[seat]} if seat is not None else {}
    pool = [ln for ln in lines if ln not in fixed.values() and ln != setup.public_route]
    routes = list(setup.routes)
    for _ in range(100):
        rng.shuffle(pool)
        it = iter(pool)
        routes = [fixed.get(p) or next(it) for p in range(n)]
        if routes != list(setup.routes):
            break
    assert routes != list(setup.routes)
    other = Game.from_setup(
        Setup(stacks, tuple(routes), setup.public_route), game.names, options=game.options
    )
    for move in game.moves:
        other.play(move)
    return other


# --- the reference engine ----------------------------------------------------


def ref_game(ref_board: ref_engine.RefBoard, game: Game) -> ref_engine.RefGame:
    """The reference engine's game with the same deal and options as ``game``, at its start."""
    setup = game.setup
    return ref_engine.RefGame.from_setup(
        ref_board,
        game.players,
        {
            "stacks": [list(s) for s in setup.stacks],
            "routes": list(setup.routes),
            "public_route": setup.public_route,
        },
        {"small_tour": game.options.small_tour, "final_tours": game.options.final_tours},
    )


def ref_state(ref: ref_engine.RefGame, board: Any) -> dict[str, Any]:
    """The reference game's observable state in the shape of ours."""
    occ = tuple(tuple(sorted(ref.businesses[s])) for s in board.stop_ids)
    return {
        "scores": list(ref.scores),
        "supply": list(ref.supply),
        "sack": list(ref.sack),
        "occupancy": occ,
        "finished": ref.finished,
        "face_up": sorted(ref.face_up),
        "discard": sorted(ref_engine.tile_line(t) for t in ref.discard),
    }


def our_state_for_ref(game: Game) -> dict[str, Any]:
    return {
        "scores": list(game.scores),
        "supply": list(game.supply),
        "sack": list(game.sack),
        "occupancy": tuple(tuple(sorted(o)) for o in game.occupancy()),
        "finished": game.is_over,
        "face_up": sorted(game.face_up),
        "discard": sorted(game.discard),
    }
