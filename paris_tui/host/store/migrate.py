"""``paris-tui host migrate --from DIR --to URL``: a data directory moved into PostgreSQL.

Every table record (served, finished and archived), every account with its
credentials, link codes and seat claims, the one-time steps done, the ratings
and the tournaments (their rounds, tables, results and absences), into an
empty database (its schema made first). The data directory's files of
earlier versions are taken in first, as a host start would; the folder is
left as it was otherwise (the files stay: nothing is deleted). The data
directory is locked while it runs, so no host serves from it meanwhile.

A record read back from the database is the record that went in: its JSON
object the same, key for key, so ``replay --json`` prints the same bytes.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

from paris_tui.core import RecordError
from paris_tui.core.record import load_record
from paris_tui.core.text import printable
from paris_tui.host.store.pg_file import copy_rows
from paris_tui.i18n import _, ngettext

__all__ = ["add_migrate_parser", "migrate"]

_TABLE_FILE = re.compile(r"t[0-9]{1,6}\.json")
EXIT_OK = 0
EXIT_ERROR = 1

# The accounts' tables, copied in this order (ids kept: the seats refer to them).
_ACCOUNT_TABLES = (
    ("accounts", ("id", "name", "folded", "skeleton", "locked", "created")),
    ("credentials", ("id", "account", "door", "digest", "label", "created")),
    ("codes", ("account", "digest", "expires")),
    ("seats", ("table_id", "seat", "account")),
    ("meta", ("key", "value")),
)


def add_migrate_parser(sub: Any) -> None:
    helptext = _("move a data directory's tables and accounts into a PostgreSQL database")
    parser = sub.add_parser("migrate", help=helptext, description=helptext)
    parser.add_argument(
        "--from",
        dest="migrate_from",
        metavar="DIR",
        required=True,
        help=_("the host's data directory"),
    )
    parser.add_argument(
        "--to", dest="migrate_to", metavar="URL", required=True, help=_("an empty database")
    )
    parser.set_defaults(func=cmd_migrate)


def cmd_migrate(args: argparse.Namespace) -> int:
    from paris_tui.host.store.files import HostBusyError
    from paris_tui.host.store.postgres import DatabaseUnavailable, DriverMissing

    try:
        lines = migrate(Path(args.migrate_from), args.migrate_to)
    except (HostBusyError, DriverMissing, DatabaseUnavailable, OSError) as exc:
        print(f"paris-tui host migrate: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for line in lines:
        print(f"paris-tui host migrate: {line}")
    return EXIT_OK


def migrate(data_dir: Path, url: str) -> list[str]:
    """Move ``data_dir`` into the database at ``url``; returns lines for the operator.

    Raises :class:`~paris_tui.host.store.postgres.DatabaseUnavailable` (also when the
    database holds tables or accounts already),
    :class:`~paris_tui.host.store.files.HostBusyError` or ``OSError``."""
    from paris_tui.host.accounts.store import ACCOUNTS_FILE
    from paris_tui.host.ratings.postgres import copy_ratings
    from paris_tui.host.ratings.store import RATINGS_FILE
    from paris_tui.host.server import Host, HostConfig
    from paris_tui.host.store.postgres import DatabaseUnavailable, PostgresStore
    from paris_tui.host.tournaments.postgres import copy_tournaments
    from paris_tui.host.tournaments.store import TOURNAMENTS_FILE

    # The files of earlier versions are taken in as a host start does it.
    host = Host(HostConfig(data_dir=data_dir, port=0))
    notes = host.load()
    host.ai_pool.shutdown(wait=False)
    host.io_pool.shutdown(wait=True)
    if host.accounts is not None:
        host.accounts.close()
    host.ratings.close()
    if host.tournaments.store is not None:
        host.tournaments.store.close()
    files = host.store  # still locked: no host serves from it meanwhile
    db = PostgresStore(url, pool_size=2)
    try:
        db.open()
        with db.pool.connection() as conn:
            row = conn.execute(
                "SELECT (SELECT count(*) FROM paris_tables) + (SELECT count(*) FROM accounts)"
            ).fetchone()
        if row is not None and int(row[0]) > 0:
            raise DatabaseUnavailable(
                "the database holds tables or accounts already: migrate into an empty one"
            )
        lines = list(notes)
        moved = 0
        for folder in (files.tables_dir, files.root / "archive"):
            paths = sorted(folder.glob("t*.json")) if folder.is_dir() else []
            for path in paths:
                if not _TABLE_FILE.fullmatch(path.name):
                    continue
                table_id = path.name[: -len(".json")]
                try:
                    record = load_record(path)
                except RecordError as exc:
                    lines.append(
                        _("skipped {file}: {problem}").format(
                            file=printable(path.name), problem=exc
                        )
                    )
                    continue
                total = len(record.setup.stacks) * len(record.players)
                db.put_record(table_id, record.to_json_dict(), finished=len(record.moves) >= total)
                if folder != files.tables_dir:
                    db.archive(table_id)
                moved += 1
        db.fill_seated()  # each unfinished table's names sit at it (paris_seated)
        accounts = _copy_accounts(files.root / ACCOUNTS_FILE, db)
        rated = copy_ratings(files.root / RATINGS_FILE, db.pool)  # the ratings too
        held = copy_tournaments(files.root / TOURNAMENTS_FILE, db.pool)  # and tournaments
        line = moved_line(moved, accounts, printable(str(data_dir)), db.where)
        if rated:
            line += " " + ngettext(
                "(and {n} account's rating)", "(and {n} accounts' ratings)", rated
            ).format(n=rated)
        if held:
            line += " " + ngettext("(and {n} tournament)", "(and {n} tournaments)", held).format(
                n=held
            )
        lines.append(line)
        return lines
    finally:
        db.close()
        files.unlock()


def moved_line(tables: int, accounts: int, folder: str, where: str) -> str:
    """What ``migrate`` moved, for the operator (in their language, with plurals)."""
    return _("moved {tables} and {accounts} from {folder} into {database}").format(
        tables=ngettext("{n} table", "{n} tables", tables).format(n=tables),
        accounts=ngettext("{n} account", "{n} accounts", accounts).format(n=accounts),
        folder=folder,
        database=where,
    )


def _copy_accounts(path: Path, db: Any) -> int:
    if not path.exists():
        return 0
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        with db.pool.connection() as conn, conn.transaction():
            copy_rows(source, conn, _ACCOUNT_TABLES)
            for table in ("accounts", "credentials"):
                conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"greatest((SELECT max(id) FROM {table}), 1))"
                )
        count = source.execute("SELECT count(*) FROM accounts").fetchone()
        return int(count[0]) if count else 0
    finally:
        source.close()
