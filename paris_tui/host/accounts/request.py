"""An ``account`` request (protocol 3): show an account or make it a link code,
once the account is proven (:class:`~paris_tui.host.accounts.identity.Gate`).
``add_key`` (an older client's) is refused: a key joins an account only by an SSH
login with it (its private half), as the account's name, with a link code."""

from __future__ import annotations

import logging
from collections import Counter

from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.host.accounts.identity import Gate
from paris_tui.host.accounts.store import (
    CODE_SECONDS,
    AccountError,
    AccountStore,
    AccountsUnavailable,
    format_code,
)
from paris_tui.host.peers import Peer
from paris_tui.host.referee import Refusal
from paris_tui.net.protocol import AccountInfo, AccountRequest

__all__ = ["answer_account"]

log = logging.getLogger("paris_tui.host")


def answer_account(
    conn: Peer, message: AccountRequest, gate: Gate, store: AccountStore | None
) -> None:
    """Show an account or make it a link code; refuse ``add_key`` (raises
    :class:`~paris_tui.host.referee.Refusal`); answered with an ``account_info``."""
    try:
        name = normalize_name(message.name)
    except InvalidNameError as exc:
        raise Refusal("bad_name", exc.problem) from None
    claim = gate.prove(name, message.token, vouched=conn.vouched)
    account = claim.account
    if account is None:
        raise Refusal(
            "no_such_seat", f"{name} is no account here yet: take a seat or open a table first"
        )
    if store is None:  # pragma: no cover - prove refused already
        raise Refusal("unavailable", "the host cannot read its accounts")
    code: str | None = None
    try:
        if message.action == "code":
            code = format_code(store.new_code(account.id))
            log.info("%s: a link code for %s", conn, printable(account.name))
        elif message.action == "add_key":
            # A public key is public: only its private half, logging in over SSH as
            # this name (with a link code, doors/ssh_link.py), joins it to an account.
            log.warning("%s: an SSH key offered without its private half: refused", conn)
            raise Refusal(
                "unavailable",
                "a key joins an account only by logging in with it: ssh as "
                f"{account.name} with that key and type a link code made here",
            )
        doors = Counter(c.door for c in store.credentials(account.id))
    except AccountsUnavailable as exc:
        raise gate.broken(exc) from None
    except AccountError as exc:
        raise Refusal("name_taken", str(exc)) from None
    conn.send(
        AccountInfo(
            account.name,
            tuple((door, doors.get(door, 0)) for door in ("ssh", "token", "browser")),
            code,
            None if code is None else int(CODE_SECONDS),
        )
    )
