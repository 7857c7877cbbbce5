"""An account, and the rows between accounts: friends asked for, wrong link codes.

:class:`SocialRows` is part of :class:`~paris_tui.host.accounts.store.SQLiteAccounts`
(and so of its PostgreSQL twin, which runs the same statements): the friends an
account asked for and who asked for it (friends are two accounts that both
asked), and the wrong link codes typed for an account, counted in the store so
that every host of a database counts them together and a restart forgets none.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_FRIENDS", "Account", "SocialRows"]

MAX_FRIENDS = 50
"""Friends one account may ask for."""


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    locked: bool = False
    created: float = 0.0


class SocialRows:
    """Friends and wrong codes, on the store's ``_tx`` and ``_read``."""

    def _tx(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError  # pragma: no cover - the store's

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError  # pragma: no cover - the store's

    @staticmethod
    def _account(row: tuple[Any, ...]) -> Account:
        return Account(int(row[0]), str(row[1]), bool(row[2]), float(row[3]))

    # --- friends ---------------------------------------------------------------------------

    def add_friend(self, account_id: int, friend_id: int) -> bool:
        with self._tx() as db:
            count = db.execute(
                "SELECT count(*) FROM friends WHERE account = ?", (account_id,)
            ).fetchone()[0]
            if int(count) >= MAX_FRIENDS:
                return False
            db.execute(
                "INSERT INTO friends (account, friend) VALUES (?, ?) "
                "ON CONFLICT (account, friend) DO NOTHING",
                (account_id, friend_id),
            )
        return True

    def remove_friend(self, account_id: int, friend_id: int) -> None:
        with self._tx() as db:
            db.execute(
                "DELETE FROM friends WHERE account = ? AND friend = ?", (account_id, friend_id)
            )

    def friends(self, account_id: int) -> list[Account]:
        rows = self._read(
            "SELECT a.id, a.name, a.locked, a.created FROM friends f "
            "JOIN accounts a ON a.id = f.friend WHERE f.account = ? ORDER BY a.folded",
            (account_id,),
        )
        return [self._account(r) for r in rows]

    def askers(self, account_id: int) -> list[Account]:
        rows = self._read(
            "SELECT a.id, a.name, a.locked, a.created FROM friends f "
            "JOIN accounts a ON a.id = f.account WHERE f.friend = ? ORDER BY a.folded",
            (account_id,),
        )
        return [self._account(r) for r in rows]

    # --- wrong link codes ------------------------------------------------------------------

    def count_miss(self, account_id: int) -> int:
        with self._tx() as db:
            db.execute(
                "INSERT INTO code_misses (account, misses) VALUES (?, 1) "
                "ON CONFLICT (account) DO UPDATE SET misses = code_misses.misses + 1",
                (account_id,),
            )
            row = db.execute(
                "SELECT misses FROM code_misses WHERE account = ?", (account_id,)
            ).fetchone()
        return int(row[0]) if row else 1

    def clear_misses(self, account_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM code_misses WHERE account = ?", (account_id,))
