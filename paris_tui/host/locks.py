"""The operator's locks reach the seats already taken.

The operator locks an account from another process (``paris-tui host accounts
lock``): while anyone holds a seat, :class:`LockWatch` reads the locked
accounts every ``Limits.lock_check`` seconds (one query, in an I/O thread)
and ends their seats: each connection is told why (``account_locked``,
fatal) and closed (docs/security.md).
"""

from __future__ import annotations

import asyncio
import logging

from msgspec import structs

from paris_tui.host.accounts.store import AccountsUnavailable
from paris_tui.host.connection import Connection
from paris_tui.host.ports import LocksHost
from paris_tui.host.referee import Refusal

__all__ = ["LockWatch"]

log = logging.getLogger("paris_tui.host")


class LockWatch:
    """Ends the seats of locked accounts, at each look while anyone holds one."""

    def __init__(self, host: LocksHost) -> None:
        self.host = host
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    @staticmethod
    def _account_of(conn: Connection) -> int | None:
        """The account ``conn`` holds a seat as (at a table, or a waiting one)."""
        if conn.room is not None and conn.seat is not None:
            return conn.room.owners.get(conn.seat)
        if conn.waiting is not None and conn.claim is not None and conn.claim.account is not None:
            return conn.claim.account.id
        return None

    async def _watch(self) -> None:
        """Every ``lock_check`` seconds, while anyone holds a seat: which accounts are
        locked (one query, in an I/O thread), and end their seats."""
        loop = asyncio.get_running_loop()
        said = False
        while True:
            await asyncio.sleep(self.host.config.limits.lock_check)
            store = self.host.accounts
            if store is None or all(self._account_of(c) is None for c in self.host.connections):
                continue
            try:
                locked = await loop.run_in_executor(self.host.io_pool, store.locked_accounts)
            except AccountsUnavailable as exc:
                if not said:  # once: the seats themselves refuse while it lasts
                    log.error("cannot read the accounts' locks: %s", exc)
                said = True
                continue
            except Exception:  # pragma: no cover - a bug must not stop the watch
                log.exception("reading the accounts' locks failed")
                continue
            said = False
            if locked:
                self.end_locked(locked)

    def end_locked(self, locked: set[int]) -> int:
        """End the seats of the accounts ``locked``: each connection is told why
        (``account_locked``, fatal) and closed. How many ended."""
        ended = 0
        for conn in list(self.host.connections):
            account = self._account_of(conn)
            if account is None or account not in locked or conn.closed:
                continue
            log.warning("%s: its account is locked: its seat ends", conn)
            self.host.leave(conn)
            answer = conn.refused(
                Refusal(
                    "account_locked",
                    "the host's operator locked this account: its seats end until it is unlocked",
                ),
            )
            conn.dismiss(structs.replace(answer, fatal=True))
            ended += 1
        return ended
