"""Whether an SSH login's key may be the name it logs in as, and the link-code prompt.

A name is an account on the host (:mod:`paris_tui.host.accounts.store`): the key
must be one of the account's keys. A name that is nobody's yet is taken by the key
that first takes a seat with it (the host makes the account then). A login as an
account with a key it does not have is answered *after* authentication, on the
terminal: the session says whose name it is and asks for a link code (made by the
account's owner in the app, "Account", or by the operator); a good code adds the
key to the account and the game starts, anything else ends the session with
status 1. A refusal during authentication would give the person nothing but
``Permission denied (publickey)``, which reads as a broken key or a typo, not as
"that name is someone else's".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from paris_tui.core.text import printable
from paris_tui.host.accounts.names import folded
from paris_tui.host.accounts.store import Account, AccountError, AccountsUnavailable, Credential
from paris_tui.host.server import Host
from paris_tui.i18n import _
from paris_tui.wording import in_language

__all__ = ["CODE_SECONDS", "CODE_TRIES", "KeyProof", "Terminal", "TypedLines"]

log = logging.getLogger("paris_tui.doors.ssh")

CODE_TRIES = 3  # link codes a session may type
CODE_SECONDS = 180.0  # ... within this long


class TypedLines:
    """Lines typed at a prompt on a session's terminal, while :attr:`asking`: at most
    64 characters, echoed; Enter ends a line, Ctrl-C, Ctrl-D or the end of the input
    leave (None)."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._line = bytearray()
        self._queue: asyncio.Queue[str | None] | None = None

    @property
    def asking(self) -> bool:
        """Does a prompt take the keys now?"""
        return self._queue is not None

    def start(self) -> None:
        self._queue = asyncio.Queue()

    def stop(self) -> None:
        self._queue = None

    async def ask(self, prompt: str) -> str | None:
        """``prompt`` written, then the next line typed (None: the person left)."""
        assert self._queue is not None
        self._write(prompt)
        return await self._queue.get()

    def end(self) -> None:
        """The terminal's input is over."""
        if self._queue is not None:
            self._queue.put_nowait(None)

    def keys(self, data: bytes) -> None:
        """Keys at a prompt: a line of at most 64 characters, echoed; Enter ends it."""
        queue = self._queue
        if queue is None:
            return
        for byte in data:
            if byte in (13, 10):
                self._write("\r\n")
                queue.put_nowait(self._line.decode("ascii", "replace"))
                self._line.clear()
            elif byte in (3, 4):  # Ctrl-C, Ctrl-D
                self._write("\r\n")
                queue.put_nowait(None)
                self._line.clear()
            elif byte in (8, 127):
                if self._line:
                    del self._line[-1]
                    self._write("\b \b")
            elif 32 <= byte < 127 and len(self._line) < 64:
                self._line.append(byte)
                self._write(chr(byte))


class Terminal(Protocol):
    """Where a :class:`KeyProof` speaks: the session's terminal."""

    typed: TypedLines

    def refuse(self, text: str) -> None:
        """``text`` on the session's standard error, and the session ends with status 1."""

    def say(self, text: str) -> None:
        """``text`` as a line on the session's terminal."""


@dataclass(frozen=True, slots=True)
class KeyProof:
    """Whether the key of a login (``conn``, for the log, with its ``username`` and
    ``key_label``) may be a name on ``host``; ``hint(name)`` is how to log in as that
    name (``-p PORT NAME@ADDRESS``). Says why not on ``terminal`` when not."""

    host: Host
    terminal: Terminal
    conn: object
    username: str
    key_label: str
    hint: Callable[[str], str]

    async def check(self, name: str, fingerprint: str, language: str) -> bool:
        """Whether this key may be ``name``: the name is nobody's account yet, or
        the key is one of its keys, or a link code typed here links it. Says why
        not (and ends the session) when not."""
        store = self.host.accounts
        try:
            if store is None:
                raise AccountsUnavailable(self.host.gate.problem or "no accounts store")
            account = store.find(name)
            if account is None or not store.verify(account.id, "ssh", fingerprint):
                holder = store.owner("ssh", fingerprint)
                if holder is not None and (account is None or holder.id != account.id):
                    self._refuse_anothers(holder, language)
                    return False
            if account is None:
                return True
            if folded(account.name) != folded(name):
                with in_language(language):
                    self.terminal.refuse(
                        _(
                            "paris-tui: the name {name} looks like the account {account}: "
                            "log in as another name"
                        ).format(name=name, account=account.name)
                    )
                return False
            if account.locked:
                with in_language(language):
                    self.terminal.refuse(
                        _(
                            "paris-tui: the account {name} is locked; ask the host's operator"
                        ).format(name=account.name)
                    )
                return False
            if store.verify(account.id, "ssh", fingerprint):
                return True
        except AccountsUnavailable as exc:
            log.error("SSH %s: %s", self.conn, exc)
            with in_language(language):
                self.terminal.refuse(
                    _("paris-tui: the host cannot read its accounts; try again later")
                )
            return False
        return await self._link(account, fingerprint, language)

    def _refuse_anothers(self, holder: Account, language: str) -> None:
        """This key is ``holder``'s: it logs in as that name only (a key is one
        account's), so say so before any app or link code."""
        log.warning(
            "SSH %s: as %s with a key of the account %s: refused",
            self.conn,
            printable(self.username[:40]),
            holder.name,
        )
        with in_language(language):
            self.terminal.refuse(
                _(
                    "paris-tui: this key belongs to the account {account}: log in as "
                    "{account} ({command}), or as another name with another key"
                ).format(
                    account=holder.name,
                    command=f"ssh {self.hint(holder.name)}",
                )
            )

    async def _link(self, account: Account, fingerprint: str, language: str) -> bool:
        """Ask for a link code of ``account`` on the terminal; a good one adds this key."""
        store = self.host.accounts
        assert store is not None
        log.info(
            "SSH %s: %s with a key the account has not: asks for a code", self.conn, account.name
        )
        with in_language(language):
            self.terminal.say(
                _(
                    "paris-tui: {name} is an account on this host, and this key ({fingerprint}) "
                    "is not one of its keys."
                ).format(name=account.name, fingerprint=fingerprint)
            )
            self.terminal.say(
                _(
                    "If you are {name}: in paris-tui where you are {name}, open Account "
                    "(in the command palette or the lobby) for a link code, and type it here."
                ).format(name=account.name)
            )
            prompt = _("Link code (Enter alone to leave): ")
        typed = self.terminal.typed
        typed.start()
        try:
            async with asyncio.timeout(CODE_SECONDS):
                for _try in range(CODE_TRIES):
                    line = await typed.ask(prompt)
                    if not line:
                        break
                    try:
                        if self.host.gate.take_code(store, line, account):
                            store.add_credential(
                                account.id, Credential("ssh", fingerprint, self.key_label)
                            )
                            log.info("SSH %s: a key linked to %s", self.conn, account.name)
                            with in_language(language):
                                self.terminal.say(
                                    _("paris-tui: this key is now one of {name}'s keys.").format(
                                        name=account.name
                                    )
                                )
                            return True
                    except AccountError as exc:
                        log.warning("SSH %s: linking a key failed: %s", self.conn, exc)
                    with in_language(language):
                        self.terminal.say(_("That code is wrong, used or expired."))
        except TimeoutError:
            pass
        finally:
            typed.stop()
        log.warning("SSH %s: %s with a key the account has not: refused", self.conn, account.name)
        with in_language(language):
            self.terminal.refuse(
                _(
                    "paris-tui: not linked; log in with one of {name}'s keys, bring a new "
                    "link code, or log in as another name"
                ).format(name=account.name)
            )
        return False
