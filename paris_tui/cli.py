"""The ``paris-tui`` command: a thin entry point over the core, the AI and the app.

Textual is imported only by the subcommands that open the app, so
``replay --json``, ``bench`` and ``arena`` start fast and work without a
terminal.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import __version__, i18n
from .argparse_words import CellHelpFormatter
from .argparse_words import install as install_argparse_words
from .core import Game, ParisError, RecordError, printable
from .core.record import load_record, replay_summary
from .i18n import _, decimal, ngettext, pgettext
from .variants import VariantError, add_variant_options, variant_options

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
        from .wording import record_problem

        reason = record_problem(exc) if isinstance(exc, RecordError) else str(exc)
        return _fail(
            _("invalid record {path}: {reason}").format(path=printable(str(path)), reason=reason)
        )
    if args.json:
        summary = replay_summary(record)
        sys.stdout.write(json.dumps(summary) + "\n")
        return EXIT_OK
    from paris_tui.app.start.launch import run_replay

    return run_replay(record, path)


def cmd_stats(args: argparse.Namespace) -> int:
    from paris_tui.app.local.history import History, HistoryError
    from paris_tui.app.local.storage import data_dir

    folder = Path(args.data_dir) if args.data_dir else data_dir()
    try:
        stats = History.in_data_dir(folder).stats()
    except HistoryError as exc:
        return _fail(str(exc), EXIT_ERROR)
    if args.json:
        sys.stdout.write(json.dumps(stats, ensure_ascii=True) + "\n")
        return EXIT_OK
    games = stats["games"]
    print(
        ngettext("{n} finished game in {folder}", "{n} finished games in {folder}", games).format(
            n=games, folder=printable(str(folder))
        )
    )
    for line in _stats_table(stats["players"]):
        print(line)
    for level in stats["vs_ai"]:
        print(
            ngettext(
                "against ai:{level}: {wins} won of {n} game",
                "against ai:{level}: {wins} won of {n} games",
                level["games"],
            ).format(level=level["level"], wins=level["wins"], n=level["games"])
        )
    return EXIT_OK


def _pad(text: str, width: int, right: bool) -> str:
    """``text`` padded with spaces to ``width`` terminal cells."""
    from .core import cell_width

    space = " " * max(0, width - cell_width(text))
    return space + text if right else text + space


def _stats_table(players: list[dict[str, Any]]) -> list[str]:
    """The per-player lines of ``stats``: headings in the current language, columns in cells."""
    if not players:
        return []
    # Translators: headings of the table printed by "paris-tui stats"; keep them short.
    headings = [pgettext("stats", "player"), pgettext("stats", "games")]
    headings += [pgettext("stats", "wins"), pgettext("stats", "mean")]
    headings += [pgettext("stats", "small"), pgettext("stats", "grand")]
    headings += [pgettext("stats", "special"), pgettext("stats", "sack")]
    narrowest = (20, 5, 4, 4, 5, 5, 7, 4)  # a name is 20 cells at most
    rows = []
    for p in players:
        by = p["mean_by_source"]
        rows.append(
            [printable(p["name"]), str(p["games"]), str(p["wins"]), decimal(p["mean_score"])]
            + [decimal(by[kind]) for kind in ("small_tour", "grand_tour", "special_tour", "sack")]
        )
    from .core import cell_width

    # Each column as wide as its heading and its widest value (113.0 points happen).
    widths = [
        max(low, cell_width(h), *(cell_width(row[i]) for row in rows))
        for i, (low, h) in enumerate(zip(narrowest, headings, strict=True))
    ]

    def line(cells: list[str]) -> str:
        # The name column is left-aligned, the numbers right-aligned.
        return "  ".join(
            _pad(cell, width, i > 0)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        )

    return [line(headings).rstrip()] + [line(row) for row in rows]


def cmd_bench(args: argparse.Namespace) -> int:
    if args.players not in (2, 3, 4):
        return _fail(_("{option} must be 2, 3 or 4").format(option="--players"))
    if args.games < 1:
        return _fail(_("{option} must be at least {n}").format(option="--games", n=1))
    rng = random.Random(args.seed)
    start = time.perf_counter()
    for _game in range(args.games):
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
            ngettext(
                "{n} random {players}-player game in {seconds} s: {rate} games/s",
                "{n} random {players}-player games in {seconds} s: {rate} games/s",
                args.games,
            ).format(
                n=args.games, players=args.players, seconds=f"{seconds:.3f}", rate=f"{rate:,.0f}"
            )
        )
    return EXIT_OK


def _seed_arg(text: str) -> int:
    """``--seed``: a whole number, refused in a few words however long the text is."""
    if len(text) > 40:
        raise argparse.ArgumentTypeError(
            ngettext(
                "too long for a seed ({n} character)",
                "too long for a seed ({n} characters)",
                len(text),
            ).format(n=len(text))
        )
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a whole number: {text}").format(text=printable(text))
        ) from None


def cmd_play(args: argparse.Namespace) -> int:
    try:
        options = variant_options(args)
    except VariantError as exc:
        return _fail(str(exc))
    from paris_tui.app.start.launch import run_play

    return run_play(args.players, seed=args.seed, options=options, ai_delay=args.ai_delay)


def cmd_resume(args: argparse.Namespace) -> int:
    from paris_tui.app.start.launch import run_resume

    return run_resume(Path(args.file) if args.file else None, ai_delay=args.ai_delay)


def cmd_join(args: argparse.Namespace) -> int:
    from paris_tui.app.start.launch import run_join

    return run_join(
        args.address,
        name=args.name,
        table=args.table,
        watch=args.watch,
        data_dir=Path(args.data_dir) if args.data_dir else None,
        code=args.code,
    )


def _by_ear(func: Any, args: argparse.Namespace) -> Any:
    """The screen reader's counterpart of a command that opens the app (or ``review``)."""
    from .reader import launch as ear

    def play(a: argparse.Namespace) -> int:
        try:
            options = variant_options(a)
        except VariantError as exc:
            return _fail(str(exc))
        return ear.run_play(a.players, seed=a.seed, options=options, ai_delay=a.ai_delay)

    def resume(a: argparse.Namespace) -> int:
        return ear.run_resume(Path(a.file) if a.file else None, ai_delay=a.ai_delay)

    def replay_(a: argparse.Namespace) -> int:
        if a.json:
            return cmd_replay(a)
        path = Path(a.file)
        try:
            record = load_record(path)
        except ParisError as exc:
            from .wording import record_problem

            reason = record_problem(exc) if isinstance(exc, RecordError) else str(exc)
            return _fail(
                _("invalid record {path}: {reason}").format(
                    path=printable(str(path)), reason=reason
                )
            )
        return ear.run_replay(record, path)

    def join(a: argparse.Namespace) -> int:
        return ear.run_join(
            a.address,
            name=a.name,
            table=a.table,
            watch=a.watch,
            data_dir=Path(a.data_dir) if a.data_dir else None,
        )

    def default(a: argparse.Namespace) -> int:
        return ear.run_default(ai_delay=a.ai_delay)

    def review(a: argparse.Namespace) -> int:
        if a.json:
            return int(func(a))
        return ear.run_review(Path(a.file), seed=a.seed, simulations=a.simulations)

    table = {cmd_play: play, cmd_resume: resume, cmd_replay: replay_, cmd_join: join}
    table[cmd_default] = default
    if getattr(func, "__name__", "") == "cmd_review":
        return review
    return table.get(func)


def cmd_default(args: argparse.Namespace) -> int:
    from paris_tui.app.start.launch import run_default

    return run_default(ai_delay=args.ai_delay)


# --- parser -------------------------------------------------------------------


def _add_ai_delay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ai-delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_("pause before an AI move is shown (default {seconds})").format(seconds=0.8),
    )


LIGHT_COMMANDS = ("play", "resume", "replay", "join", "stats", "bench")
"""The commands defined here: a parser for one of them needs neither the AI's commands
(``arena``, ``review``) nor the host's, whose modules take a while to import."""


def build_parser(*, light: bool = False, only: str | None = None) -> argparse.ArgumentParser:
    """The ``paris-tui`` parser; ``light``: one that knows the :data:`LIGHT_COMMANDS`
    but not ``arena``, ``review`` or ``host``, built without importing the AI or the host;
    ``only`` (one of them, with ``light``): one that knows that command alone (what
    ``paris-tui play ...`` parses with: the other commands' parsers are a fifth of the
    time from its start to its first frame's own work)."""
    wanted = (lambda name: True) if only is None else (lambda name: name == only)
    parser = argparse.ArgumentParser(
        prog="paris-tui",
        description=_(
            "Paris Paris in the terminal: hot-seat, over SSH, or against AI opponents. "
            "Without a command, opens the new-game screen (offering to resume an unfinished game)."
        ),
        epilog=_(
            "Over SSH, set TEXTUAL_COLOR_SYSTEM=truecolor for full colours; "
            "NO_COLOR=1 plays in monochrome."
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"paris-tui {__version__}",
        help=_("show program's version number and exit"),
    )
    _add_ai_delay(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    if wanted("play"):
        play = sub.add_parser(
            "play",
            help=_("start a game directly"),
            description=_(
                "Start a game. Seats are names (humans) or ai:LEVEL "
                '(random, easy, greedy, strong, expert), e.g. --players "Ann,Bob" or '
                '"Ann,ai:strong,ai:greedy".'
            ),
        )
        play.add_argument(
            "--players", required=True, help=_('comma-separated seats, e.g. "Ann,Bob"')
        )
        play.add_argument(
            "--seed", type=_seed_arg, default=None, help=_("deal seed (same seed, same deal)")
        )
        add_variant_options(play)
        _add_ai_delay(play)
        play.set_defaults(func=cmd_play)

    if wanted("resume"):
        resume = sub.add_parser(
            "resume",
            help=_("resume a saved game"),
            description=_("Resume the autosaved game, or FILE."),
        )
        resume.add_argument("file", nargs="?", help=_("a record file (default: the autosave)"))
        _add_ai_delay(resume)
        resume.set_defaults(func=cmd_resume)

    if wanted("replay"):
        rep = sub.add_parser(
            "replay",
            help=_("view a recorded game, or print its scores as JSON"),
            description=_(
                "Open a replay viewer stepping through FILE, or with --json print the "
                "replay summary (record-format.md). An invalid record exits with status 2."
            ),
        )
        rep.add_argument("file", help=_("a game record (JSON)"))
        rep.add_argument(
            "--json", action="store_true", help=_("print the summary as JSON and exit")
        )
        rep.set_defaults(func=cmd_replay)

    if wanted("stats"):
        stats = sub.add_parser(
            "stats",
            help=_("your history: games, wins and mean points"),
            description=_(
                "Print the statistics of every finished game kept in the history "
                "(history.sqlite3 in the data directory): games, wins and mean points by source "
                "per player played from this terminal, and results against each AI level."
            ),
        )
        stats.add_argument("--json", action="store_true", help=_("print one JSON object"))
        stats.add_argument("--data-dir", help=_("the data directory (default: the app's)"))
        stats.set_defaults(func=cmd_stats)

    if wanted("bench"):
        bench = sub.add_parser(
            "bench",
            help=_("measure the rules engine's speed"),
            description=_(
                "Play K complete games with uniformly random legal moves and print games/s."
            ),
        )
        bench.add_argument("--players", type=int, default=4, help=_("2, 3 or 4 (default 4)"))
        bench.add_argument(
            "--games",
            type=int,
            default=2000,
            help=_("number of games (default {n})").format(n=2000),
        )
        bench.add_argument("--seed", type=int, default=1, help=_("seed (default {n})").format(n=1))
        bench.add_argument("--json", action="store_true", help=_("print one JSON object"))
        bench.set_defaults(func=cmd_bench)

    if not light:
        try:
            from .ai.arena import add_arena_parser
        except ImportError:  # pragma: no cover - the AI package is part of the distribution
            pass
        else:
            add_arena_parser(sub)
            from .ai.review import add_review_parser

            add_review_parser(sub)
        from paris_tui.doors.command import add_host_parser

        add_host_parser(sub)
    if wanted("join"):
        _add_join_parser(sub)
    # --lang is taken before or after the command: every parser knows it.
    for each in (parser, *sub.choices.values()):
        _add_lang(each)
        each.formatter_class = CellHelpFormatter  # wrapped in cells, for every language
    # --glyphs is taken before or after a command that opens the app.
    for each in (parser, *(sub.choices[name] for name in APP_COMMANDS if name in sub.choices)):
        _add_glyphs(each)
    # --screen-reader too, and by review.
    for each in (
        parser,
        *(sub.choices[name] for name in (*APP_COMMANDS, "review") if name in sub.choices),
    ):
        _add_screen_reader(each)
    return parser


def _add_screen_reader(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--screen-reader",
        action="store_true",
        default=argparse.SUPPRESS,  # a command's parser must not undo the one given before it
        help=_(
            "play by ear: plain lines and typed commands, for a screen reader "
            "(also PARIS_TUI_SCREEN_READER=1)"
        ),
    )


APP_COMMANDS = ("play", "resume", "replay", "join")
"""The commands that open the app (and no command: the new-game screen)."""


def _add_glyphs(parser: argparse.ArgumentParser) -> None:
    from paris_tui.app.look.glyphs import GLYPH_SETS

    parser.add_argument(
        "--glyphs",
        choices=GLYPH_SETS,
        default=argparse.SUPPRESS,  # a command's parser must not undo the one given before it
        help=_(
            "characters the map and panels are drawn with: {choices} (default: "
            "PARIS_TUI_GLYPHS, else the set chosen in the app, else ascii where the "
            "locale is Chinese, Japanese or Korean, else unicode)"
        ).format(choices=", ".join(GLYPH_SETS)),
    )


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        metavar="LANG",
        default=argparse.SUPPRESS,  # a command's parser must not undo the one given before it
        help=_(
            "language: {choices} (default: PARIS_TUI_LANG, else the language chosen in the "
            "app, else the locale, else English)"
        ).format(choices=", ".join(i18n.LANGUAGES)),
    )


def _add_join_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    join = sub.add_parser(
        "join",
        help=_("take your seat at a paris-tui host's table (or watch one)"),
        description=_(
            "Connect to a paris-tui host and play your seat from this terminal: "
            "your own view, your own route, the other players' moves as they happen. The seat's "
            "secret token is kept in the data directory, so you come back to the same seat."
        ),
        epilog=_(
            "Exit status: 2 bad arguments, 3 the host cannot be reached, "
            "4 the host refused (seat_taken, bad_token, no_such_table, ...)."
        ),
    )
    join.add_argument(
        "address",
        metavar="HOST:PORT",
        help=_("the host, e.g. {example}").format(example="127.0.0.1:7337"),
    )
    join.add_argument(
        "--name",
        default=None,
        help=_(
            "your name: the seat reserved for it (without it, or with no seat for it: "
            "the lobby, where you sit at a free seat, watch, or open a table)"
        ),
    )
    join.add_argument("--table", default=None, metavar="ID", help=_("the table (when several)"))
    join.add_argument("--watch", default=None, metavar="ID", help=_("watch table ID (public view)"))
    join.add_argument(
        "--code",
        default=None,
        metavar="CODE",
        help=_(
            "a link code of your account (made where you are already that name: Account), "
            "or the operator's invitation for a reserved seat: links this terminal to the name"
        ),
    )
    join.add_argument(
        "--data-dir",
        default=None,
        metavar="DIR",
        help=_("where seat tokens are kept (default: the app's data directory)"),
    )
    join.set_defaults(func=cmd_join)


_VALUED_OPTIONS = ("--lang", "--glyphs", "--ai-delay")
"""The options before a command that take a value (the next argument, or ``=VALUE``)."""


def _light_enough(argv: Sequence[str]) -> bool:
    """Does the light parser parse ``argv`` exactly as the full one? Yes for a command
    of :data:`LIGHT_COMMANDS`, or none without a request for the top-level help.

    ``paris-tui play ...`` starts the app sooner without the AI's and the
    host's commands to build; ``paris-tui --help`` and anything unclear get
    the full parser.
    """
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--") or arg.startswith("--h"):
            return False
        if not arg.startswith("-"):
            return arg in LIGHT_COMMANDS
        i += 2 if arg in _VALUED_OPTIONS else 1
    return True  # no command: the new-game screen


def _command(argv: Sequence[str]) -> str | None:
    """The command of ``argv`` (its first argument that is no option nor an option's
    value), or None. Only for an ``argv`` that :func:`_light_enough` takes."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("-"):
            return arg
        i += 2 if arg in _VALUED_OPTIONS else 1
    return None


def _requested_language(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` in ``argv`` (before a ``--``), or None.

    Read before parsing, because the parser's own words (its help, its
    errors) are already in the chosen language.
    """
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return found


def _saved_language() -> str | None:
    """The language chosen in the app (settings.json), or None when none is saved."""
    from paris_tui.app.local.settings import load_settings

    return load_settings().language  # a missing or damaged file gives None


def choose_language(requested: str | None, environ: Mapping[str, str] | None = None) -> str:
    """``--lang``, else ``PARIS_TUI_LANG``, else the saved setting, else the locale, else English.

    Shows every later word in that language (argparse's too) and returns its
    tag. An unknown ``requested`` raises ValueError with one line, already in
    the language the rest would have given.
    """
    env = os.environ if environ is None else environ
    install_argparse_words()
    from_env = i18n.normalize_language(env.get("PARIS_TUI_LANG", ""))
    saved = None if from_env is not None else _saved_language()
    i18n.set_language(i18n.resolve_language(None, env, saved))
    if requested is not None:
        i18n.set_language(i18n.resolve_language(requested, env, saved))
    return i18n.current_language()


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        choose_language(_requested_language(argv))
    except ValueError as exc:
        return _fail(str(exc))
    light = _light_enough(argv)
    parser = build_parser(light=light, only=_command(argv) if light else None)
    args = parser.parse_args(argv)
    if getattr(args, "lang", None) is not None:  # e.g. an abbreviated --la de
        try:
            choose_language(args.lang)
        except ValueError as exc:
            return _fail(str(exc))
    func = getattr(args, "func", cmd_default)
    textual_app = func in (cmd_default, cmd_play, cmd_resume, cmd_replay, cmd_join)
    if textual_app:
        from paris_tui.app.look.glyphs import choose_glyphs

        choose_glyphs(getattr(args, "glyphs", None))  # argparse checked the name
    from .reader import wanted

    if wanted(getattr(args, "screen_reader", False)):
        by_ear = _by_ear(func, args)
        if by_ear is not None:
            func = by_ear
            textual_app = False
    if not textual_app:
        gc.enable()  # off since __main__.run: only an app turns it on at its first frame
    try:
        return int(func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
