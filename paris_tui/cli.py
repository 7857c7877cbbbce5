"""The ``paris-tui`` command: a thin entry point over the core, the AI and the app.

Textual is imported only by the subcommands that open the app, so
``replay --json``, ``bench`` and ``arena`` start fast and work without a
terminal.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .core import Game, Options, ParisError, printable
from .core.record import load_record, replay_summary

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


def _fail(message: str, status: int = EXIT_USAGE) -> int:
    """One line on stderr, no traceback."""
    print(f"paris-tui: {message}", file=sys.stderr)
    return status


# --- subcommands --------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        record = load_record(path)
    except ParisError as exc:
        return _fail(f"invalid record {printable(str(path))}: {exc}")
    if args.json:
        summary = replay_summary(record)
        sys.stdout.write(json.dumps(summary) + "\n")
        return EXIT_OK
    from .app.launch import run_replay

    return run_replay(record, path)


def cmd_stats(args: argparse.Namespace) -> int:
    from .app.history import History, HistoryError
    from .app.storage import data_dir

    folder = Path(args.data_dir) if args.data_dir else data_dir()
    try:
        stats = History.in_data_dir(folder).stats()
    except HistoryError as exc:
        return _fail(str(exc), EXIT_ERROR)
    if args.json:
        sys.stdout.write(json.dumps(stats, ensure_ascii=True) + "\n")
        return EXIT_OK
    print(f"{stats['games']} finished games in {printable(str(folder))}")
    if stats["players"]:
        print("player                games  wins  mean  small  grand  special  sack")
    from .core import cell_width

    for p in stats["players"]:
        by = p["mean_by_source"]
        name = printable(p["name"])
        name += " " * max(0, 20 - cell_width(name))  # names are 20 cells at most
        print(
            f"{name}  {p['games']:>5}  {p['wins']:>4}  "
            f"{p['mean_score']:>4.1f}  {by['small_tour']:>5.1f}  {by['grand_tour']:>5.1f}  "
            f"{by['special_tour']:>7.1f}  {by['sack']:>4.1f}"
        )
    for level in stats["vs_ai"]:
        print(f"against ai:{level['level']}: {level['wins']} won of {level['games']}")
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    if args.players not in (2, 3, 4):
        return _fail("--players must be 2, 3 or 4")
    if args.games < 1:
        return _fail("--games must be at least 1")
    rng = random.Random(args.seed)
    start = time.perf_counter()
    for _ in range(args.games):
        game = Game.new(args.players, rng=rng)
        game.play_random(rng)
    seconds = time.perf_counter() - start
    seconds = max(seconds, 1e-9)
    rate = args.games / seconds
    if args.json:
        print(
            json.dumps(
                {"games": args.games, "seconds": round(seconds, 6), "games_per_s": round(rate, 1)}
            )
        )
    else:
        print(
            f"{args.games} random {args.players}-player games in {seconds:.3f} s: "
            f"{rate:,.0f} games/s"
        )
    return EXIT_OK


def _seed_arg(text: str) -> int:
    """``--seed``: a whole number, refused in a few words however long the text is."""
    if len(text) > 40:
        raise argparse.ArgumentTypeError(f"too long for a seed ({len(text)} characters)")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {printable(text)}") from None


def _options(args: argparse.Namespace) -> Options:
    return Options(small_tour=args.small_tour, final_tours=args.final_tours)


def cmd_play(args: argparse.Namespace) -> int:
    from .app.launch import run_play

    return run_play(args.players, seed=args.seed, options=_options(args), ai_delay=args.ai_delay)


def cmd_resume(args: argparse.Namespace) -> int:
    from .app.launch import run_resume

    return run_resume(Path(args.file) if args.file else None, ai_delay=args.ai_delay)


def cmd_join(args: argparse.Namespace) -> int:
    from .app.launch import run_join

    return run_join(
        args.address,
        name=args.name,
        table=args.table,
        watch=args.watch,
        data_dir=Path(args.data_dir) if args.data_dir else None,
    )


def cmd_default(args: argparse.Namespace) -> int:
    from .app.launch import run_default

    return run_default(ai_delay=args.ai_delay)


# --- parser -------------------------------------------------------------------


def _add_variants(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--small-tour",
        choices=("both-lines", "tile-line"),
        default="both-lines",
        help="small tour variant (rules R5; default: both-lines)",
    )
    parser.add_argument(
        "--final-tours",
        choices=("secret", "all-lines"),
        default="secret",
        help="final special tours variant (rules R7; default: secret)",
    )


def _add_ai_delay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ai-delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause before an AI move is shown (default 0.8)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paris-tui",
        description="Paris Paris in the terminal: hot-seat, over SSH, or against AI opponents. "
        "Without a command, opens the new-game screen (offering to resume an unfinished game).",
        epilog="Over SSH, set TEXTUAL_COLOR_SYSTEM=truecolor for full colours; "
        "NO_COLOR=1 plays in monochrome.",
    )
    parser.add_argument("--version", action="version", version=f"paris-tui {__version__}")
    _add_ai_delay(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play",
        help="start a game directly",
        description="Start a game. Seats are names (humans) or ai:LEVEL "
        '(random, easy, greedy, strong), e.g. --players "Ann,Bob" or "Ann,ai:strong,ai:greedy".',
    )
    play.add_argument("--players", required=True, help='comma-separated seats, e.g. "Ann,Bob"')
    play.add_argument(
        "--seed", type=_seed_arg, default=None, help="deal seed (same seed, same deal)"
    )
    _add_variants(play)
    _add_ai_delay(play)
    play.set_defaults(func=cmd_play)

    resume = sub.add_parser(
        "resume", help="resume a saved game", description="Resume the autosaved game, or FILE."
    )
    resume.add_argument("file", nargs="?", help="a record file (default: the autosave)")
    _add_ai_delay(resume)
    resume.set_defaults(func=cmd_resume)

    rep = sub.add_parser(
        "replay",
        help="view a recorded game, or print its scores as JSON",
        description="Open a replay viewer stepping through FILE, or with --json print the "
        "replay summary (record-format.md). An invalid record exits with status 2.",
    )
    rep.add_argument("file", help="a game record (JSON)")
    rep.add_argument("--json", action="store_true", help="print the summary as JSON and exit")
    rep.set_defaults(func=cmd_replay)

    stats = sub.add_parser(
        "stats",
        help="your history: games, wins and mean points",
        description="Print the statistics of every finished game kept in the history "
        "(history.sqlite3 in the data directory): games, wins and mean points by source "
        "per player played from this terminal, and results against each AI level.",
    )
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.add_argument("--data-dir", help="the data directory (default: the app's)")
    stats.set_defaults(func=cmd_stats)

    bench = sub.add_parser(
        "bench",
        help="measure the rules engine's speed",
        description="Play K complete games with uniformly random legal moves and print games/s.",
    )
    bench.add_argument("--players", type=int, default=4, help="2, 3 or 4 (default 4)")
    bench.add_argument("--games", type=int, default=2000, help="number of games (default 2000)")
    bench.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(func=cmd_bench)

    try:
        from .ai.arena import add_arena_parser
    except ImportError:  # pragma: no cover - the AI package is part of the distribution
        pass
    else:
        add_arena_parser(sub)
        from .ai.review import add_review_parser

        add_review_parser(sub)
    from .host.command import add_host_parser

    add_host_parser(sub)
    _add_join_parser(sub)
    return parser


def _add_join_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    join = sub.add_parser(
        "join",
        help="take your seat at a paris-tui host's table (or watch one)",
        description="Connect to a paris-tui host and play your seat from this terminal: "
        "your own view, your own route, the other players' moves as they happen. The seat's "
        "secret token is kept in the data directory, so you come back to the same seat.",
        epilog="Exit status: 2 bad arguments, 3 the host cannot be reached, "
        "4 the host refused (seat_taken, bad_token, no_such_table, ...).",
    )
    join.add_argument("address", metavar="HOST:PORT", help="the host, e.g. 127.0.0.1:7337")
    join.add_argument(
        "--name",
        default=None,
        help="your name: the seat reserved for it (without it, or with no seat for it: "
        "the lobby, where you sit at a free seat, watch, or open a table)",
    )
    join.add_argument("--table", default=None, metavar="ID", help="the table (when several)")
    join.add_argument("--watch", default=None, metavar="ID", help="watch table ID (public view)")
    join.add_argument(
        "--data-dir",
        default=None,
        metavar="DIR",
        help="where seat tokens are kept (default: the app's data directory)",
    )
    join.set_defaults(func=cmd_join)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", cmd_default)
    try:
        return int(func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
