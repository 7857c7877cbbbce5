"""``paris-tui host ratings``: the operator's leaderboard, and suspicious pairs.

Prints a data directory's ratings (``host/ratings.sqlite`` with the names of
``host/accounts.sqlite``), or with ``--database`` the hosts' shared database's,
best first: the shown rating (the ordinal ``mu - 3 sigma``, docs/ratings.md),
the rated games, and with ``--json`` also ``mu`` and ``sigma``. Read-only, also
while the host serves.

``--pairs`` lists instead the pairs of players who met in at least
``--min-games`` finished games (default :data:`MIN_GAMES`) where one always
placed below the other: what rating farming between two accounts of one person
looks like (docs/ratings.md). Most games together first.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from paris_tui.host.store.where import add_state_options, state_place
from paris_tui.i18n import _, ngettext

__all__ = ["add_ratings_parser", "cmd_ratings"]

EXIT_OK = 0
EXIT_ERROR = 1
MAX_ROWS = 10_000
MIN_GAMES = 5
MAX_GAMES_READ = 100_000


def add_ratings_parser(sub: Any) -> None:
    helptext = _("print the host's leaderboard: every rated account, best first")
    parser = sub.add_parser("ratings", help=helptext, description=helptext)
    add_state_options(parser, "ratings")
    parser.add_argument("--json", action="store_true", help=_("as JSON, for scripts"))
    parser.add_argument(
        "--pairs",
        action="store_true",
        help=_(
            "list the pairs of players who keep meeting with one always losing "
            "(rating farming), instead of the leaderboard"
        ),
    )
    parser.add_argument(
        "--min-games",
        metavar="N",
        type=int,
        default=MIN_GAMES,
        help=_("with --pairs: games together at least (default {n})").format(n=MIN_GAMES),
    )
    parser.set_defaults(func=cmd_ratings)


def _fail(message: str) -> int:
    print(f"paris-tui host ratings: {message}", file=sys.stderr)
    return EXIT_ERROR


def rows(ratings: Any, accounts: Any) -> list[dict[str, Any]]:
    """The leaderboard as the command prints it (accounts removed since left out)."""
    out: list[dict[str, Any]] = []
    for rating in ratings.leaderboard(MAX_ROWS):
        account = accounts.get(rating.account)
        if account is None:
            continue
        out.append(
            {
                "rank": len(out) + 1,
                "name": account.name,
                "rating": rating.shown,
                "games": rating.games,
                "mu": round(rating.mu, 6),
                "sigma": round(rating.sigma, 6),
            }
        )
    return out


def pairs(ratings: Any, min_games: int) -> list[dict[str, Any]]:
    """The pairs that met in ``min_games`` finished games or more, one always placed
    below the other (any game, rated or not: an unrated one was refused for it)."""
    met: dict[tuple[str, str], list[int]] = {}  # (a, b), a < b -> [games, a above, b above]
    for game in ratings.results(MAX_GAMES_READ):
        names, ranks = game
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                if i >= len(ranks) or j >= len(ranks) or names[i] == names[j]:
                    continue
                a, b, ra, rb = names[i], names[j], ranks[i], ranks[j]
                if b < a:
                    a, b, ra, rb = b, a, rb, ra
                row = met.setdefault((a, b), [0, 0, 0])
                row[0] += 1
                row[1] += ra < rb
                row[2] += rb < ra
    out: list[dict[str, Any]] = []
    for (a, b), (games, a_won, b_won) in met.items():
        if games < max(1, min_games) or games not in (a_won, b_won):
            continue
        winner, loser = (a, b) if a_won == games else (b, a)
        out.append({"winner": winner, "loser": loser, "games": games, "won": games})
    out.sort(key=lambda p: (-p["games"], p["winner"], p["loser"]))
    return out


def _print_pairs(found: list[dict[str, Any]], as_json: bool) -> int:
    if as_json:
        print(json.dumps({"pairs": found}, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not found:
        print(_("No pair of players keeps meeting with one always losing."))
        return EXIT_OK
    print(_("Pairs who keep meeting, one always losing (rating farming?):"))
    for row in found:
        print(
            "  "
            + ngettext(
                "{winner} placed above {loser} in all of {n} game together",
                "{winner} placed above {loser} in all of {n} games together",
                row["games"],
            ).format(winner=row["winner"], loser=row["loser"], n=row["games"])
        )
    return EXIT_OK


def _report(ratings: Any, accounts: Any, args: argparse.Namespace) -> int:
    if getattr(args, "pairs", False):
        return _print_pairs(pairs(ratings, args.min_games), args.json)
    return _print(rows(ratings, accounts), args.json)


def _print(found: list[dict[str, Any]], as_json: bool) -> int:
    if as_json:
        print(
            json.dumps(
                {"rating": "ordinal (mu - 3 sigma)", "ratings": found}, indent=2, ensure_ascii=False
            )
        )
        return EXIT_OK
    if not found:
        print(_("No rated games yet."))
        return EXIT_OK
    print(_("Rating: the conservative estimate mu - 3 sigma (openskill, Plackett-Luce)."))
    for row in found:
        line = ngettext("{name}: {rating} ({n} game)", "{name}: {rating} ({n} games)", row["games"])
        shown = f"{row['rating']:.1f}"
        print(f"{row['rank']:>3}. " + line.format(name=row["name"], rating=shown, n=row["games"]))
    return EXIT_OK


def cmd_ratings(args: argparse.Namespace) -> int:
    from paris_tui.core.text import printable
    from paris_tui.host.accounts.store import AccountsUnavailable, open_accounts
    from paris_tui.host.ratings.store import RATINGS_FILE, RatingsUnavailable, open_ratings
    from paris_tui.host.store.files import HostStore

    data_dir = state_place(args, "ratings")
    if isinstance(data_dir, str):
        return _database(data_dir, args)
    root = HostStore(data_dir).root
    if not (root / RATINGS_FILE).exists() or not (root / "accounts.sqlite").exists():
        if not data_dir.is_dir():
            return _fail(_("{path} is not a folder").format(path=printable(str(data_dir))))
        if getattr(args, "pairs", False):
            return _print_pairs([], args.json)
        return _print([], args.json)
    try:
        ratings = open_ratings(root)
    except (RatingsUnavailable, OSError) as exc:
        return _fail(str(exc))
    try:
        accounts = open_accounts(root)
    except (AccountsUnavailable, OSError) as exc:
        ratings.close()
        return _fail(str(exc))
    try:
        return _report(ratings, accounts, args)
    except (RatingsUnavailable, AccountsUnavailable) as exc:
        return _fail(str(exc))
    finally:
        accounts.close()
        ratings.close()


def _database(url: str, args: argparse.Namespace) -> int:
    from paris_tui.host.accounts.postgres import PostgresAccounts
    from paris_tui.host.accounts.store import AccountsUnavailable
    from paris_tui.host.ratings.postgres import PostgresRatings
    from paris_tui.host.ratings.store import RatingsUnavailable
    from paris_tui.host.store.postgres import DatabaseUnavailable, DriverMissing, PostgresStore

    tables = PostgresStore(url, pool_size=1)
    try:
        tables.open()
    except (DriverMissing, DatabaseUnavailable) as exc:
        return _fail(str(exc))
    try:
        return _report(PostgresRatings(tables.pool), PostgresAccounts(tables.pool), args)
    except (RatingsUnavailable, AccountsUnavailable) as exc:
        return _fail(str(exc))
    finally:
        tables.close()
