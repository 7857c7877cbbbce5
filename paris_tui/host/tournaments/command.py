"""``paris-tui host tournament ...``: the operator's tournament commands.

``create NAME --format swiss|round-robin|knockout --players 2|3|4 --rounds N
--move-time 2m|1d --start TIME [--rated] [--min-games K]`` makes an open
tournament; ``list`` (``--json``) prints them; ``cancel NAME`` stops an open or
running one; ``enter NAME ACCOUNT...`` and ``withdraw NAME ACCOUNT...`` change
its entrants (an entrant's seed is their shown rating at entry). Each works on
a data directory's ``host/tournaments.sqlite`` or, with ``--database``, the
hosts' database, also while a host serves (docs/tournaments.md).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from paris_tui.host.store.where import add_state_options, state_place
from paris_tui.i18n import _, ngettext

__all__ = ["add_tournament_parser", "cmd_tournament", "parse_start"]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
MAX_ROUNDS = 30
MAX_MIN_GAMES = 10_000
_FROM_NOW = re.compile(r"\+(\d{1,4})([mhd])")
_UNITS = {"m": 60, "h": 3600, "d": 86400}


def add_tournament_parser(sub: Any) -> None:
    """Add ``tournament`` to ``paris-tui host``'s subcommands."""
    helptext = _("make, list and cancel the host's tournaments")
    parser = sub.add_parser("tournament", help=helptext, description=helptext)
    actions = parser.add_subparsers(dest="tournament_action", metavar="ACTION", required=True)

    def action(name: str, text: str) -> argparse.ArgumentParser:
        found: argparse.ArgumentParser = actions.add_parser(name, help=text, description=text)
        add_state_options(found, "tournament")
        found.set_defaults(func=cmd_tournament, tournament_action=name)
        return found

    create = action("create", _("make a tournament, open for entries until it starts"))
    create.add_argument("name", metavar="NAME")
    create.add_argument(
        "--format", required=True, choices=("swiss", "round-robin", "knockout"), dest="fmt"
    )
    create.add_argument(
        "--players", required=True, type=int, choices=(2, 3, 4), help=_("players a table")
    )
    create.add_argument(
        "--rounds",
        type=int,
        default=None,
        metavar="N",
        help=_("rounds of a Swiss tournament (a round robin and a knockout need no number)"),
    )
    create.add_argument(
        "--move-time",
        required=True,
        metavar="TIME",
        help=_("time for a move: 2m a real-time table, 1d a turn-based one"),
    )
    create.add_argument(
        "--start",
        required=True,
        metavar="TIME",
        help=_("when round 1 starts: 2026-12-24T18:00 (UTC unless it says), or +30m, +2h, +1d"),
    )
    create.add_argument(
        "--rated",
        action="store_true",
        help=_("mark it rated (its games are rated as any game between accounts)"),
    )
    create.add_argument(
        "--min-games",
        type=int,
        default=0,
        metavar="K",
        help=_("rated games an account needs to enter (default 0)"),
    )
    listing = action("list", _("every tournament: its state, format, rounds and entrants"))
    listing.add_argument("--json", action="store_true", help=_("as JSON, for scripts"))
    cancel = action("cancel", _("cancel an open or running tournament (its rounds are kept)"))
    cancel.add_argument("name", metavar="NAME")
    shown = action("standings", _("a tournament's standings with their tie-breaks, and its rounds"))
    shown.add_argument("name", metavar="NAME")
    shown.add_argument("--json", action="store_true", help=_("as JSON, for scripts"))
    enter = action(
        "enter",
        _("enter accounts in a tournament (a running Swiss one: from its next round)"),
    )
    enter.add_argument("name", metavar="NAME")
    enter.add_argument("accounts", metavar="ACCOUNT", nargs="+")
    withdraw = action(
        "withdraw", _("withdraw accounts from a tournament from its next round (results stay)")
    )
    withdraw.add_argument("name", metavar="NAME")
    withdraw.add_argument("accounts", metavar="ACCOUNT", nargs="+")


def _fail(message: str, status: int = EXIT_ERROR) -> int:
    print(f"paris-tui host tournament: {message}", file=sys.stderr)
    return status


def parse_start(text: str, now: float) -> float:
    """``--start``'s time as seconds since the epoch; raises ``ValueError``."""
    found = _FROM_NOW.fullmatch(text.strip())
    if found is not None:
        return now + int(found.group(1)) * _UNITS[found.group(2)]
    try:
        when = dt.datetime.fromisoformat(text.strip()[:40])
    except ValueError:
        raise ValueError(
            _("{text} is no time: give 2026-12-24T18:00 or +30m, +2h, +1d").format(
                text=repr(text[:40])
            )
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.timestamp()


def _when(seconds: float) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


@dataclass
class _Stores:
    """The tournaments, and the accounts and ratings beside them (``None``: none yet)."""

    tournaments: Any
    accounts: Any = None
    ratings: Any = None


@contextlib.contextmanager
def _opened(args: argparse.Namespace) -> Iterator[_Stores]:
    """The stores of the data directory or the database (raises ``OSError``)."""
    from paris_tui.host.store.files import HostStore
    from paris_tui.host.tournaments.store import open_tournaments

    data_dir = state_place(args, "tournament")
    if isinstance(data_dir, str):
        from paris_tui.host.accounts.postgres import PostgresAccounts
        from paris_tui.host.ratings.postgres import PostgresRatings
        from paris_tui.host.store.postgres import DatabaseUnavailable, DriverMissing, PostgresStore
        from paris_tui.host.tournaments.postgres import PostgresTournaments

        tables = PostgresStore(data_dir, pool_size=1)
        try:
            tables.open()
        except (DriverMissing, DatabaseUnavailable) as exc:
            raise OSError(str(exc)) from None
        try:
            yield _Stores(
                PostgresTournaments(tables.pool),
                PostgresAccounts(tables.pool),
                PostgresRatings(tables.pool),
            )
        finally:
            tables.close()
        return
    from paris_tui.host.accounts.store import ACCOUNTS_FILE, open_accounts
    from paris_tui.host.ratings.store import RATINGS_FILE, open_ratings

    if not data_dir.is_dir():
        from paris_tui.core.text import printable

        raise OSError(_("{path} is not a folder").format(path=printable(str(data_dir))))
    root = HostStore(data_dir).root
    stores = _Stores(open_tournaments(root))
    try:
        if args.tournament_action in ("enter", "withdraw"):
            if (root / ACCOUNTS_FILE).exists():
                stores.accounts = open_accounts(root)
            if (root / RATINGS_FILE).exists():
                stores.ratings = open_ratings(root)
        yield stores
    finally:
        for store in (stores.tournaments, stores.accounts, stores.ratings):
            if store is not None:
                store.close()


def _entries(stores: _Stores, args: argparse.Namespace) -> int:
    """``enter`` and ``withdraw``: each ACCOUNT by name, all checked before any change."""
    from paris_tui.core.text import printable

    kept = stores.tournaments
    found = kept.find(args.name)
    if found is None or found.state not in ("open", "running"):
        return _fail(
            _("no open or running tournament is named {name}").format(
                name=printable(args.name[:40])
            )
        )
    people: list[tuple[int, str, float]] = []
    for name in args.accounts:
        account = stores.accounts.find(name) if stores.accounts is not None else None
        if account is None:
            return _fail(_("no account is named {name}").format(name=printable(name[:40])))
        rating = None
        if stores.ratings is not None:
            rating = stores.ratings.ratings([account.id]).get(account.id)
        games = rating.games if rating is not None else 0
        if args.tournament_action == "enter" and games < found.min_games:
            return _fail(
                _("{name} has {games} rated games; this tournament asks for {least}").format(
                    name=printable(account.name), games=games, least=found.min_games
                )
            )
        people.append((account.id, account.name, rating.shown if rating is not None else 0.0))
    for account_id, name, shown in people:
        if args.tournament_action == "enter":
            entrant = kept.enter(found.id, account_id, name, shown)
            print(
                _("{name} entered {tournament} from round {round}.").format(
                    name=printable(name), tournament=printable(found.name), round=entrant.joined
                )
            )
        elif kept.withdraw(found.id, account_id):
            print(
                _("{name} withdrew from {tournament}.").format(
                    name=printable(name), tournament=printable(found.name)
                )
            )
        else:
            return _fail(
                _("{name} is not in {tournament}").format(
                    name=printable(name), tournament=printable(found.name)
                )
            )
    return EXIT_OK


def _standings(stores: _Stores, args: argparse.Namespace) -> int:
    """``standings``: the newest tournament of that name, any state."""
    from paris_tui.core.text import printable
    from paris_tui.host.tournaments.engine import seeds
    from paris_tui.host.tournaments.standings import standings

    kept = stores.tournaments
    found = kept.find(args.name)
    if found is None:
        return _fail(_("no tournament is named {name}").format(name=printable(args.name[:40])))
    entrants = kept.entrants(found.id)
    rounds = kept.rounds(found.id)
    names = kept.names(found.id)
    absent = kept.absences(found.id)
    rows = standings(
        seeds(entrants),
        rounds,
        found.players,
        [e.key for e in entrants if e.withdrawn],
        knockout=found.format == "knockout",
    )
    if args.json:
        data = {
            "name": found.name,
            "state": found.state,
            "standings": [
                {
                    "rank": r.rank,
                    "name": names.get(r.key, r.key),
                    "points": r.points,
                    "buchholz": r.buchholz,
                    "sonneborn_berger": r.sonneborn_berger,
                    "place_sum": r.place_sum,
                    "tables": r.tables,
                    "byes": r.byes,
                    "withdrawn": r.withdrawn,
                }
                for r in rows
            ],
            "rounds": [
                {
                    "round": rnd.number,
                    "tables": [
                        {
                            "players": [names.get(k, k) for k in t.seats],
                            "places": None if t.places is None else list(t.places),
                        }
                        for t in rnd.tables
                    ],
                    "byes": [names.get(k, k) for k in rnd.byes],
                    "absent": [names.get(k, k) for k in absent.get(rnd.number, [])],
                }
                for rnd in rounds
            ],
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_OK
    print(
        ngettext("{name}: {n} round paired", "{name}: {n} rounds paired", len(rounds)).format(
            name=printable(found.name), n=len(rounds)
        )
    )
    for r in rows:
        breaks = _("Buchholz {b:g}, Sonneborn-Berger {sb:g}").format(
            b=r.buchholz, sb=r.sonneborn_berger
        )
        if found.players > 2:
            breaks = _("places {p:g}, ").format(p=r.place_sum) + breaks
        line = _("{rank:>3}. {name}: {points:g} points ({breaks})").format(
            rank=r.rank, name=printable(names.get(r.key, r.key)), points=r.points, breaks=breaks
        )
        print(line + (_(", withdrawn") if r.withdrawn else ""))
    return EXIT_OK


def _check_create(args: argparse.Namespace) -> dict[str, Any]:
    """The settings of ``create`` checked; raises ``ValueError`` with the sentence."""
    from paris_tui.core.text import InvalidNameError, normalize_name, printable
    from paris_tui.net.turns import parse_move_time
    from paris_tui.wording import name_problem

    try:
        name = normalize_name(args.name)
    except InvalidNameError as exc:
        raise ValueError(f"{printable(args.name[:40])}: {name_problem(exc)}") from None
    rounds = args.rounds
    if args.fmt == "swiss":
        if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
            raise ValueError(
                _("a Swiss tournament needs --rounds from 1 to {most}").format(most=MAX_ROUNDS)
            )
    elif rounds is not None:
        raise ValueError(
            _("--rounds is for a Swiss tournament: a {format} has the rounds it needs").format(
                format=args.fmt
            )
        )
    try:
        move_time = parse_move_time(args.move_time)
    except ValueError as exc:
        raise ValueError(f"--move-time: {exc}") from None
    now = time.time()
    start = parse_start(args.start, now)
    if start < now - 60:
        raise ValueError(_("--start is in the past: {when}").format(when=_when(start)))
    if not 0 <= args.min_games <= MAX_MIN_GAMES:
        raise ValueError(_("--min-games is from 0 to {most}").format(most=MAX_MIN_GAMES))
    return {
        "name": name,
        "rounds": rounds or 0,
        "move_time": move_time,
        "start": start,
    }


def _row(kept: Any, t: Any) -> dict[str, Any]:
    entrants = kept.entrants(t.id)
    return {
        "id": t.id,
        "name": t.name,
        "state": t.state,
        "format": t.format,
        "players": t.players,
        "rounds": t.rounds,
        "move_time": t.move_time,
        "start": _when(t.start),
        "rated": t.rated,
        "min_games": t.min_games,
        "entrants": sum(1 for e in entrants if not e.withdrawn),
        "rounds_paired": len(kept.rounds(t.id)),
    }


def _print_list(rows: list[dict[str, Any]], as_json: bool) -> None:
    from paris_tui.core.text import printable
    from paris_tui.net.turns import move_time_words

    if as_json:
        print(json.dumps({"tournaments": rows}, indent=2, ensure_ascii=False))
        return
    if not rows:
        print(_("No tournaments yet."))
        return
    states = {
        "open": _("open"),
        "running": _("running"),
        "finished": _("finished"),
        "cancelled": _("cancelled"),
    }
    for row in rows:
        rounds = (
            ngettext("{n} round", "{n} rounds", row["rounds"]).format(n=row["rounds"])
            if row["format"] == "swiss"
            else _("the rounds its entrants need")
        )
        print(
            _(
                "{name} ({state}): {format}, {players} a table, {rounds}, "
                "{move_time} a move, starts {start}, {entrants} entered{rated}"
            ).format(
                name=printable(row["name"]),
                state=states.get(row["state"], row["state"]),
                format=row["format"],
                players=row["players"],
                rounds=rounds,
                move_time=move_time_words(row["move_time"]),
                start=row["start"],
                entrants=row["entrants"],
                rated=_(", rated") if row["rated"] else "",
            )
        )


def cmd_tournament(args: argparse.Namespace) -> int:
    from paris_tui.core.text import printable
    from paris_tui.host.tournaments.engine import Plan
    from paris_tui.host.tournaments.store import TournamentError

    settings: dict[str, Any] = {}
    if args.tournament_action == "create":
        try:
            settings = _check_create(args)
        except ValueError as exc:
            return _fail(str(exc), EXIT_USAGE)
    try:
        with _opened(args) as stores:
            kept = stores.tournaments
            if args.tournament_action in ("enter", "withdraw"):
                return _entries(stores, args)
            if args.tournament_action == "standings":
                return _standings(stores, args)
            if args.tournament_action == "list":
                _print_list([_row(kept, t) for t in kept.tournaments()], args.json)
                return EXIT_OK
            if args.tournament_action == "create":
                made = kept.create(
                    settings["name"],
                    Plan(args.fmt, args.players, settings["rounds"]),
                    move_time=settings["move_time"],
                    start=settings["start"],
                    rated=args.rated,
                    min_games=args.min_games,
                )
                print(
                    _("Made tournament {name}: open for entries until {start}.").format(
                        name=printable(made.name), start=_when(made.start)
                    )
                )
                return EXIT_OK
            found = kept.find(args.name)
            if found is None or not kept.cancel(found.id):
                return _fail(
                    _("no open or running tournament is named {name}").format(
                        name=printable(args.name[:40])
                    )
                )
            print(_("Cancelled tournament {name}.").format(name=printable(found.name)))
            return EXIT_OK
    except TournamentError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(str(exc))
