"""``paris-tui host ratings``: the operator's leaderboard.

Prints a data directory's ratings (``host/ratings.sqlite`` with the names of
``host/accounts.sqlite``), or with ``--database`` the hosts' shared database's,
best first: the shown rating (the ordinal ``mu - 3 sigma``, docs/ratings.md),
the rated games, and with ``--json`` also ``mu`` and ``sigma``. Read-only, also
while the host serves.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from paris_tui.i18n import _, ngettext

__all__ = ["add_ratings_parser", "cmd_ratings"]

EXIT_OK = 0
EXIT_ERROR = 1
MAX_ROWS = 10_000


def add_ratings_parser(sub: Any) -> None:
    helptext = _("print the host's leaderboard: every rated account, best first")
    parser = sub.add_parser("ratings", help=helptext, description=helptext)
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        dest="ratings_data_dir",
        default=None,
        help=_("the host's data directory (default: the paris-tui data directory)"),
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        dest="ratings_database",
        default=None,
        help=_("the hosts' PostgreSQL database instead (or $PARIS_TUI_DATABASE)"),
    )
    parser.add_argument("--json", action="store_true", help=_("as JSON, for scripts"))
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
    from paris_tui.host.store.files import HostStore, default_data_dir
    from paris_tui.host.store.postgres import database_url

    url = database_url(getattr(args, "ratings_database", None))
    if url is not None and not args.ratings_data_dir:
        return _database(url, args.json)
    folder = args.ratings_data_dir or getattr(args, "data_dir", None)
    data_dir = Path(folder) if folder else default_data_dir()
    root = HostStore(data_dir).root
    if not (root / RATINGS_FILE).exists() or not (root / "accounts.sqlite").exists():
        if not data_dir.is_dir():
            return _fail(_("{path} is not a folder").format(path=printable(str(data_dir))))
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
        return _print(rows(ratings, accounts), args.json)
    except (RatingsUnavailable, AccountsUnavailable) as exc:
        return _fail(str(exc))
    finally:
        accounts.close()
        ratings.close()


def _database(url: str, as_json: bool) -> int:
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
        found = rows(PostgresRatings(tables.pool), PostgresAccounts(tables.pool))
        return _print(found, as_json)
    except (RatingsUnavailable, AccountsUnavailable) as exc:
        return _fail(str(exc))
    finally:
        tables.close()
