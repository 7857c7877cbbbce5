"""``paris-tui arena``: bots play each other, rotating seats, and the results are tallied.

Game ``g`` of a run seats the levels rotated by ``g mod n`` (so each level
starts as often as the others, R3) and deals from a seed derived from the
run's seed and ``g // n``: the ``n`` rotations of one deal are played in a
row (a duplicate format, which cancels much of the luck of the deal). Every
game's seeds derive from the run's seed and the game's index only, so the
results do not depend on ``--jobs``.

A searching level (``strong``, ``expert``) may carry its own time budget in
``--seats``: ``expert@0.25,strong@1`` gives expert a quarter of a second a
move and strong one second; ``--budget`` applies to every searching level
that has none of its own.

>>> result = run_arena(["greedy", "random"], games=2, seed=1)
>>> result.games, sum(result.wins) + result.shared
(2, 2)
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..core import Game, Options
from ..i18n import _, decimal, ngettext
from ..variants import VariantError, add_variant_options, variant_options
from . import LEVELS, SEARCHING, Bot, make_ai

__all__ = [
    "ArenaResult",
    "GameResult",
    "GameSpec",
    "add_arena_parser",
    "cmd_arena",
    "parse_seat_levels",
    "play_game",
    "run_arena",
]

EXIT_OK = 0
EXIT_USAGE = 2


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One arena game: ``levels[i]`` is the i-th entry; entry i sits at seat (i + rotation) % n."""

    index: int
    levels: tuple[str, ...]
    seed: int
    options: Options = field(default_factory=Options)
    budget: float | None = None
    simulations: int | None = None
    budgets: tuple[float | None, ...] = ()  # per entry; None (or none given): ``budget``

    def budget_of(self, entry: int) -> float | None:
        own = self.budgets[entry] if entry < len(self.budgets) else None
        return self.budget if own is None else own

    @property
    def rotation(self) -> int:
        return self.index % len(self.levels)

    def seat_of(self, entry: int) -> int:
        return (entry + self.rotation) % len(self.levels)

    @property
    def deal_seed(self) -> str:
        return f"paris-arena:{self.seed}:deal:{self.index // len(self.levels)}"

    def bot_seed(self, entry: int) -> str:
        return f"paris-arena:{self.seed}:game:{self.index}:entry:{entry}"


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game's result, per entry (not per seat)."""

    index: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    move_ms: tuple[tuple[float, ...], ...]


@dataclass(slots=True)
class ArenaResult:
    """The tally of a run, per entry of ``seats``."""

    seats: tuple[str, ...]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    shared: int = 0
    score_sum: list[int] = field(default_factory=list)
    move_ms: list[list[float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.seats)
        self.wins = self.wins or [0] * n
        self.score_sum = self.score_sum or [0] * n
        self.move_ms = self.move_ms or [[] for _ in range(n)]

    def add(self, result: GameResult) -> None:
        self.games += 1
        if len(result.winners) == 1:
            self.wins[result.winners[0]] += 1
        else:
            self.shared += 1
        for i, score in enumerate(result.scores):
            self.score_sum[i] += score
            self.move_ms[i].extend(result.move_ms[i])

    @property
    def mean_score(self) -> list[float]:
        return [round(s / self.games, 3) if self.games else 0.0 for s in self.score_sum]

    @property
    def move_ms_mean(self) -> list[float]:
        return [round(sum(ms) / len(ms), 3) if ms else 0.0 for ms in self.move_ms]

    @property
    def move_ms_p95(self) -> list[float]:
        return [round(percentile(ms, 95), 3) for ms in self.move_ms]

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seats": list(self.seats),
            "wins": list(self.wins),
            "shared": self.shared,
            "mean_score": self.mean_score,
            "move_ms_mean": self.move_ms_mean,
            "move_ms_p95": self.move_ms_p95,
        }


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


# --- playing ------------------------------------------------------------------


def play_game(spec: GameSpec) -> GameResult:
    """Play one arena game to the end (module level: runs in worker processes)."""
    n = len(spec.levels)
    entry_at = [0] * n
    for entry in range(n):
        entry_at[spec.seat_of(entry)] = entry
    bots: list[Bot] = [
        make_ai(
            spec.levels[entry_at[seat]],
            seed=spec.bot_seed(entry_at[seat]),
            budget=spec.budget_of(entry_at[seat]),
            simulations=spec.simulations,
        )
        for seat in range(n)
    ]
    game = Game.new(
        [f"{spec.levels[entry_at[s]]} ({s})" for s in range(n)],
        rng=random.Random(spec.deal_seed),
        options=spec.options,
    )
    times: list[list[float]] = [[] for _ in range(n)]
    clock = time.perf_counter
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        start = clock()
        move = bots[seat].choose(view)
        times[entry_at[seat]].append((clock() - start) * 1000.0)
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    return GameResult(
        spec.index,
        tuple(outcome.scores[spec.seat_of(e)] for e in range(n)),
        tuple(sorted(entry_at[s] for s in outcome.winners)),
        tuple(tuple(t) for t in times),
    )


def run_arena(
    levels: Sequence[str],
    *,
    games: int,
    seed: int,
    jobs: int = 1,
    options: Options | None = None,
    budget: float | None = None,
    simulations: int | None = None,
    budgets: Sequence[float | None] | None = None,
    progress: Callable[[ArenaResult], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games between ``levels`` (one entry per seat) and tally them.

    ``budgets`` gives each entry its own seconds a move (None: ``budget``); the
    tally names such an entry ``level@seconds``."""
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r} (choose {', '.join(LEVELS)})")
    if not 2 <= len(levels) <= 4:
        raise ValueError(f"an arena needs 2 to 4 seats, not {len(levels)}")
    own = tuple(budgets) if budgets is not None else (None,) * len(levels)
    if len(own) != len(levels):
        raise ValueError("budgets needs one entry per level")
    for level, b in zip(levels, own, strict=True):
        if b is not None and not (b > 0 and math.isfinite(b)):
            raise ValueError(f"the time budget must be positive, not {b}")
        if b is not None and level not in SEARCHING:
            raise ValueError(f"{level} takes no time budget")
    specs = [
        GameSpec(g, tuple(levels), seed, options or Options(), budget, simulations, own)
        for g in range(games)
    ]
    labels = tuple(
        level if b is None else f"{level}@{b:g}" for level, b in zip(levels, own, strict=True)
    )
    tally = ArenaResult(labels)
    if jobs <= 1 or games <= 1:
        for spec in specs:
            tally.add(play_game(spec))
            if progress is not None:
                progress(tally)
        return tally
    pool = multiprocessing.Pool(processes=min(jobs, games), initializer=_worker_init)
    try:
        # Results come back in game order, so the tally never depends on --jobs.
        for result in pool.imap(play_game, specs):
            tally.add(result)
            if progress is not None:
                progress(tally)
        pool.close()
    except BaseException:
        pool.terminate()  # Ctrl-C: stop the workers now, do not finish their games
        raise
    finally:
        pool.join()
    return tally


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which terminates them (no tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- command line ---------------------------------------------------------------


def add_arena_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``arena`` subcommand to ``paris-tui``'s subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "arena",
        help=_("let AI levels play each other and tally the results"),
        description=_(
            "Play N games between AI levels, one per seat, rotating the seats so that "
            "every level starts equally often. Each deal is played once per rotation. "
            "A progress line goes to stderr, a table (or with --json one JSON object) to stdout."
        ),
    )
    parser.add_argument(
        "--seats",
        metavar="LEVELS",
        help=_(
            "comma-separated levels, one per seat (2 to 4), e.g. strong,greedy; levels: "
            "{levels}; a searching level may take its own seconds a move, e.g. "
            "expert@0.25,strong@1"
        ).format(levels=", ".join(LEVELS)),
    )
    parser.add_argument(
        "--games", metavar="N", default="100", help=_("games to play (default {n})").format(n=100)
    )
    parser.add_argument(
        "--seed", metavar="S", default="1", help=_("run seed (default {n})").format(n=1)
    )
    parser.add_argument(
        "--jobs",
        metavar="J",
        default="1",
        help=_("games played in parallel processes (default {n})").format(n=1),
    )
    parser.add_argument(
        "--budget",
        metavar="SECONDS",
        default=None,
        help=_(
            "the thinking time per move of every searching level (strong, expert) without "
            "its own in --seats (default {seconds})"
        ).format(seconds="1.0"),
    )
    parser.add_argument(
        "--simulations",
        metavar="N",
        default=None,
        help=_(
            "the searching levels' simulations per move, instead of a time budget (deterministic)"
        ),
    )
    add_variant_options(parser)
    parser.add_argument("--json", action="store_true", help=_("print one JSON object on stdout"))
    parser.set_defaults(func=cmd_arena)
    return parser


class UsageError(Exception):
    """A bad command-line value; the message is the one line shown."""


def _int(name: str, text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(
            _("{option} must be a whole number, not {text}").format(option=name, text=repr(text))
        ) from None
    if value < minimum:
        raise UsageError(
            _("{option} must be at least {n}, not {value}").format(
                option=name, n=minimum, value=value
            )
        )
    return value


def _positive_float(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(
            _("{option} must be a number of seconds, not {text}").format(
                option=name, text=repr(text)
            )
        ) from None
    if not (value > 0 and math.isfinite(value)):
        raise UsageError(
            _("{option} must be a positive number of seconds, not {text}").format(
                option=name, text=text
            )
        )
    return value


@dataclass(frozen=True, slots=True)
class ArenaArgs:
    levels: tuple[str, ...]
    budgets: tuple[float | None, ...]
    games: int
    seed: int
    jobs: int
    budget: float | None
    simulations: int | None
    options: Options


def parse_arena_args(args: argparse.Namespace) -> ArenaArgs:
    """Validate the arena's options; raises :class:`UsageError` with a one-line message."""
    if not args.seats:
        raise UsageError(
            _("arena needs {option}, e.g. {example}").format(
                option="--seats", example="--seats strong,greedy"
            )
        )
    levels, budgets = parse_seat_levels(str(args.seats))
    if not 2 <= len(levels) <= 4:
        raise UsageError(
            _("{option} needs 2 to 4 levels, got {n}").format(option="--seats", n=len(levels))
        )
    try:
        options = variant_options(args)
    except VariantError as exc:
        raise UsageError(str(exc)) from None
    return ArenaArgs(
        levels=levels,
        budgets=budgets,
        games=_int("--games", args.games, 1),
        seed=_int("--seed", args.seed, -(2**63)),
        jobs=_int("--jobs", args.jobs, 1),
        budget=None if args.budget is None else _positive_float("--budget", args.budget),
        simulations=None
        if args.simulations is None
        else _int("--simulations", args.simulations, 1),
        options=options,
    )


def parse_seat_levels(text: str) -> tuple[tuple[str, ...], tuple[float | None, ...]]:
    """``"expert@0.25,strong"`` as levels and their own budgets (None: none given).

    Raises :class:`UsageError` for an unknown level, a bad number of seconds or a
    budget on a level that does not search."""
    levels: list[str] = []
    budgets: list[float | None] = []
    for part in text.split(","):
        level, at, seconds = part.strip().partition("@")
        level = level.strip()
        if level not in LEVELS:
            raise UsageError(
                _("unknown AI level {level} (choose {levels})").format(
                    level=repr(level), levels=", ".join(LEVELS)
                )
            )
        budget = None
        if at:
            if level not in SEARCHING:
                raise UsageError(
                    _("{level} takes no time budget (only {levels} do)").format(
                        level=level, levels=", ".join(SEARCHING)
                    )
                )
            budget = _positive_float(f"{level}@", seconds.strip())
        levels.append(level)
        budgets.append(budget)
    return tuple(levels), tuple(budgets)


def cmd_arena(args: argparse.Namespace) -> int:
    """``paris-tui arena``: returns the exit status."""
    try:
        parsed = parse_arena_args(args)
    except UsageError as exc:
        print(f"paris-tui arena: {exc}", file=sys.stderr)
        return EXIT_USAGE
    labels = [
        level if b is None else f"{level}@{b:g}"
        for level, b in zip(parsed.levels, parsed.budgets, strict=True)
    ]
    bar = ProgressBar(sys.stderr, parsed.games, labels)
    started = time.perf_counter()
    try:
        result = run_arena(
            parsed.levels,
            games=parsed.games,
            seed=parsed.seed,
            jobs=parsed.jobs,
            options=parsed.options,
            budget=parsed.budget,
            simulations=parsed.simulations,
            budgets=parsed.budgets,
            progress=bar.update,
        )
    finally:
        bar.finish()
    if args.json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        sys.stdout.write(format_table(result, parsed, time.perf_counter() - started))
    return EXIT_OK


class ProgressBar:
    """``\\r``-updated plain-text progress line on a stream (no terminal control codes)."""

    WIDTH = 30

    def __init__(self, stream: TextIO, total: int, levels: Sequence[str]) -> None:
        self.stream = stream
        self.total = total
        self.levels = levels
        self.started = time.perf_counter()

    def update(self, tally: ArenaResult) -> None:
        done = tally.games
        filled = self.WIDTH * done // self.total
        wins = "  ".join(f"{lv} {w}" for lv, w in zip(self.levels, tally.wins, strict=True))
        elapsed = time.perf_counter() - self.started
        eta = elapsed / done * (self.total - done) if done else 0.0
        bar = "#" * filled + "." * (self.WIDTH - filled)
        self.stream.write(
            "\r"
            + _(
                "arena [{bar}] {done}/{total} games  wins: {wins}  shared {shared}  eta {eta} s "
            ).format(
                bar=bar,
                done=done,
                total=self.total,
                wins=wins,
                shared=tally.shared,
                eta=f"{eta:4.0f}",
            )
        )
        self.stream.flush()

    def finish(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _pad(text: str, width: int, right: bool = True) -> str:
    """``text`` padded with spaces to ``width`` terminal cells."""
    from ..core import cell_width

    space = " " * max(0, width - cell_width(text))
    return space + text if right else text + space


def format_table(result: ArenaResult, parsed: ArenaArgs, seconds: float) -> str:
    """The human-readable summary (headings in the current language, columns in cells)."""
    n = len(result.seats)
    # Translators: headings of the arena's table; "#" is the level's place in --seats.
    headings = ["#", _("level"), _("wins"), _("win %"), _("95% interval")]
    headings += [_("mean score"), _("move ms"), _("p95 ms")]
    from ..core import cell_width

    widths = [
        max(low, cell_width(h)) for low, h in zip((2, 8, 5, 6, 13, 10, 8, 8), headings, strict=True)
    ]
    aligned_left = (True, True, False, False, False, False, False, False)

    def row(cells: list[str]) -> str:
        # Two spaces between columns: "95% interval" and "mean score" are two headings.
        return "  ".join(
            _pad(c, w, not left) for c, w, left in zip(cells, widths, aligned_left, strict=False)
        ).rstrip()

    lines = [
        ngettext(
            "{games} game, {n} players, seed {seed}, seats rotated every game ({seconds} s)",
            "{games} games, {n} players, seed {seed}, seats rotated every game ({seconds} s)",
            result.games,
        ).format(games=result.games, n=n, seed=parsed.seed, seconds=decimal(seconds)),
        "",
        row(headings),
    ]
    means, p95s, scores = result.move_ms_mean, result.move_ms_p95, result.mean_score
    for i, level in enumerate(result.seats):
        w = result.wins[i]
        lo, hi = wilson(w, result.games)
        rate = 100 * w / result.games if result.games else 0.0
        interval = f"{decimal(100 * lo)}-{decimal(100 * hi)}%"
        lines.append(
            row(
                [
                    str(i),
                    level,
                    str(w),
                    f"{decimal(rate)}%",
                    interval,
                    decimal(scores[i], 2),
                    decimal(means[i], 2),
                    decimal(p95s[i], 2),
                ]
            )
        )
    lines.append(row(["", _("shared"), str(result.shared)]))
    lines.append("")
    lines.append(
        _(
            "wins: games won alone (tie-break applied); # is the level's place in --seats, "
            "not a seat: seats rotate"
        )
    )
    return "\n".join(lines) + "\n"
