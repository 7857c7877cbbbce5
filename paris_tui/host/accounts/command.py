"""``paris-tui host accounts ...``: the operator's account commands.

``list`` (``--json``), ``rename``, ``lock``, ``unlock``, ``mute``, ``unmute`` (the
operator's mute in every table's chat), ``remove``,
``link-code`` (a one-time code the person types in another door),
``invite`` (an account reserved for a name, claimed only with its code) and
``add-key`` (an SSH public key). Each works on the accounts store of a data
directory (:mod:`paris_tui.host.accounts.store`), also while its host serves: the
store is SQLite, each change one transaction.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from paris_tui.host.store.where import add_state_options, state_place
from paris_tui.i18n import _

__all__ = ["add_accounts_parser", "invite"]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


def add_accounts_parser(host_parser: argparse.ArgumentParser) -> Any:
    """Add ``accounts`` under ``paris-tui host``; returns the subcommands (for more)."""
    sub = host_parser.add_subparsers(
        dest="host_command", metavar="{accounts,migrate,ratings,tournament}"
    )
    accounts = sub.add_parser(
        "accounts",
        help=_("list and change the host's accounts (a name is an account on a host)"),
        description=_(
            "A name is an account on a host: the first door that takes it makes the account "
            "(an SSH key, a join token, a browser); then every door needs one of its "
            "credentials. These commands list and change the accounts of a data directory, "
            "also while its host serves."
        ),
    )
    actions = accounts.add_subparsers(dest="accounts_action", metavar="ACTION", required=True)

    def action(name: str, helptext: str) -> argparse.ArgumentParser:
        parser = actions.add_parser(name, help=helptext, description=helptext)
        add_state_options(parser, "accounts")
        parser.set_defaults(func=cmd_accounts, accounts_action=name)
        return parser

    listing = action("list", _("every account: its name, its doors, whether it is locked"))
    listing.add_argument("--json", action="store_true", help=_("as JSON, for scripts"))
    rename = action("rename", _("give an account another name (its seats stay its own)"))
    rename.add_argument("name")
    rename.add_argument("new_name", metavar="NEW")
    for name, helptext in (
        ("lock", _("lock an account: no door lets it in until it is unlocked")),
        ("unlock", _("unlock an account")),
        ("mute", _("mute an account in every table's chat (it still plays)")),
        ("unmute", _("let a muted account chat again")),
        ("remove", _("remove an account and its credentials: its name is free again")),
        (
            "link-code",
            _("print a one-time code (10 minutes) that links another door to the account"),
        ),
        (
            "invite",
            _(
                "reserve a name: make its account with no credential and print a code "
                "(7 days) that claims it"
            ),
        ),
    ):
        action(name, helptext).add_argument("name")
    add_key = action("add-key", _("add an SSH public key to an account"))
    add_key.add_argument("name")
    add_key.add_argument(
        "key", metavar="KEY", help=_("a public key file (.pub), or its one line in quotes")
    )
    return sub


def _database_accounts(args: argparse.Namespace, url: str, names: dict[str, str]) -> int:
    """The account commands on the hosts' shared database (``--database``)."""
    from paris_tui.host.accounts.postgres import PostgresAccounts
    from paris_tui.host.accounts.store import AccountError
    from paris_tui.host.store.postgres import DatabaseUnavailable, DriverMissing, PostgresStore

    tables = PostgresStore(url, pool_size=1)
    try:
        tables.open()
    except (DriverMissing, DatabaseUnavailable) as exc:
        return _fail(str(exc))
    try:
        return _run(PostgresAccounts(tables.pool), args, names)
    except (AccountError, ValueError, OSError) as exc:
        return _fail(str(exc))
    finally:
        tables.close()


def invite(store: Any, name: str) -> str:
    """Reserve ``name``: its account with no credential, and a code (shown as
    ``ABCD-EFGH``, good for :data:`~paris_tui.host.accounts.store.INVITE_SECONDS`) that
    claims it at any door. Raises :class:`~paris_tui.host.accounts.store.AccountError`."""
    from paris_tui.host.accounts.store import INVITE_SECONDS, format_code

    account = store.create(name, None)
    return format_code(store.new_code(account.id, INVITE_SECONDS))


def _fail(message: str, status: int = EXIT_ERROR) -> int:
    print(f"paris-tui host accounts: {message}", file=sys.stderr)
    return status


def cmd_accounts(args: argparse.Namespace) -> int:
    from paris_tui.core.text import InvalidNameError, normalize_name, printable
    from paris_tui.host.accounts.store import AccountError, AccountsUnavailable, open_accounts
    from paris_tui.host.store.files import HostStore
    from paris_tui.wording import name_problem

    names: dict[str, str] = {}
    for field in ("name", "new_name"):
        value = getattr(args, field, None)
        if value is None:
            continue
        try:
            names[field] = normalize_name(value)
        except InvalidNameError as exc:
            return _fail(f"{printable(value[:40])}: {name_problem(exc)}", EXIT_USAGE)
    data_dir = state_place(args, "accounts")
    if isinstance(data_dir, str):
        return _database_accounts(args, data_dir, names)
    root = HostStore(data_dir).root
    if args.accounts_action not in ("list", "invite") and not (root / "accounts.sqlite").exists():
        return _fail(_("{path} has no accounts yet").format(path=printable(str(data_dir))))
    if args.accounts_action == "list" and not (root / "accounts.sqlite").exists():
        print(json.dumps({"accounts": []}) if args.json else _("No accounts yet."))
        return EXIT_OK
    try:
        store = open_accounts(root)
    except (AccountsUnavailable, OSError) as exc:
        return _fail(str(exc))
    try:
        return _run(store, args, names)
    except (AccountError, ValueError, OSError) as exc:
        return _fail(str(exc))
    finally:
        store.close()


def _run(store: Any, args: argparse.Namespace, names: dict[str, str]) -> int:
    from paris_tui.host.accounts.names import folded
    from paris_tui.host.accounts.store import CODE_SECONDS, Credential, format_code, ssh_fingerprint

    action = args.accounts_action
    if action == "list":
        rows = []
        for account in store.accounts():
            doors: dict[str, int] = {"ssh": 0, "token": 0, "browser": 0}
            for credential in store.credentials(account.id):
                doors[credential.door] += 1
            rows.append(
                {
                    "name": account.name,
                    "locked": account.locked,
                    "muted": store.is_muted(account.id),
                    "doors": doors,
                    "code": store.has_code(account.id),
                    "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(account.created)),
                }
            )
        if args.json:
            print(json.dumps({"accounts": rows}, indent=2, ensure_ascii=False))
            return EXIT_OK
        if not rows:
            print(_("No accounts yet."))
        for row in rows:
            doors = row["doors"]
            flags = [_("locked")] if row["locked"] else []
            if row["muted"]:
                flags.append(_("muted"))
            if row["code"]:
                flags.append(_("code waiting"))
            if not any(doors.values()):
                flags.append(_("reserved: claimed only with its code"))
            # Translators: ssh, token and browser are the doors' names, kept as they are.
            text = _("{name}: ssh {ssh}, token {token}, browser {browser}").format(
                name=row["name"], **doors
            )
            print(text + (f" ({', '.join(flags)})" if flags else ""))
        return EXIT_OK
    name = names["name"]
    account = store.find(name)
    if action == "invite":
        if account is not None:
            return _fail(_("{name} is an account already").format(name=account.name))
        code = invite(store, name)
        print(_("{name}: invitation code {code} (7 days, once)").format(name=name, code=code))
        return EXIT_OK
    if account is None or folded(account.name) != folded(name):
        return _fail(_("there is no account {name}").format(name=name))
    if action == "rename":
        renamed = store.rename(account.id, names["new_name"])
        print(_("{old} is now {new}").format(old=account.name, new=renamed.name))
    elif action == "lock":
        store.set_locked(account.id, True)
        print(
            _("{name} is locked: a running host ends its seats within a few seconds").format(
                name=account.name
            )
        )
    elif action == "unlock":
        store.set_locked(account.id, False)
        print(_("{name} is unlocked").format(name=account.name))
    elif action == "mute":
        store.set_muted(account.id, True)
        print(_("{name} is muted in every table's chat").format(name=account.name))
    elif action == "unmute":
        store.set_muted(account.id, False)
        print(_("{name} may chat again").format(name=account.name))
    elif action == "remove":
        store.remove(account.id)
        print(_("{name} is removed: the name is free").format(name=account.name))
    elif action == "link-code":
        code = store.new_code(account.id, CODE_SECONDS)
        print(
            _("{name}: link code {code} ({minutes} minutes, once)").format(
                name=account.name, code=format_code(code), minutes=int(CODE_SECONDS // 60)
            )
        )
    elif action == "add-key":
        text = args.key
        path = Path(text)
        if not text.lstrip().startswith(("ssh-", "ecdsa-", "sk-")) and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[0]
        fingerprint = ssh_fingerprint(text)
        store.add_credential(account.id, Credential("ssh", fingerprint, "added by the operator"))
        print(
            _("{name}: added the key {fingerprint}").format(
                name=account.name, fingerprint=fingerprint
            )
        )
    return EXIT_OK
