"""Who is online: the accounts at this host now, for the lobby's list.

An account is *online* here while a connection of this host is that account's
(:meth:`~paris_tui.host.services.friends.Friends.account_of`: a seat it owns,
or a lobby that asked for its friends as it, which every door's lobby does
once the player is proven). Each is listed once, with whether it sits at a
table and its shown rating and rated games; names come from the accounts
store (a renamed account shows its name of now). Connections without an
account (a name nobody claimed yet, a watcher) are not listed.

With ``--database`` the list is still this host's own: the shared presence
table (``paris_presence``) answers only whether given accounts are here
(a listener's friends), not who is (docs/scaling.md says so).

The list is made in an I/O thread at most every :data:`FRESH` seconds and
sent with each table list (:class:`~paris_tui.net.protocol.Tables`'s
``online``), so a lobby that polls costs the stores nothing more.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from paris_tui.host.accounts.names import folded
from paris_tui.host.accounts.store import AccountsUnavailable
from paris_tui.host.ports import FriendsHost
from paris_tui.host.ratings.store import RatingStore, RatingsUnavailable
from paris_tui.host.services.friends import Friends
from paris_tui.net.games_wire import MAX_ONLINE, Online
from paris_tui.net.ratings_wire import tenths

__all__ = ["FRESH", "WhoIsOnline"]

log = logging.getLogger("paris_tui.host.presence")

FRESH = 2.0  # seconds a list of who is online is sent again before it is made again


class WhoIsOnline:
    """The accounts at this host now (see the module's docstring)."""

    def __init__(
        self,
        host: FriendsHost,
        friends: Friends,
        ratings: Callable[[], RatingStore | None],
    ) -> None:
        self.host = host
        self.friends = friends
        self.ratings = ratings
        self._made: tuple[Online, ...] = ()
        self._made_at = -FRESH
        self._making: asyncio.Future[tuple[Online, ...]] | None = None

    def here(self) -> dict[int, bool]:
        """Account id -> whether one of its connections sits at a table."""
        out: dict[int, bool] = {}
        for conn in list(self.host.connections):
            if conn.closed:
                continue
            account = self.friends.account_of(conn)
            if account is not None:
                out[account] = out.get(account, False) or conn.seat is not None
        return out

    async def online(self) -> tuple[Online, ...]:
        """Who is online, made again when older than :data:`FRESH` seconds."""
        now = time.monotonic()
        if now - self._made_at < FRESH:
            return self._made
        if self._making is None:
            here = self.here()
            loop = asyncio.get_running_loop()
            self._making = loop.run_in_executor(self.host.io_pool, self._make, here)
        making = self._making
        try:
            made = await making
        finally:
            if self._making is making:
                self._making = None
        self._made, self._made_at = made, time.monotonic()
        return made

    def _make(self, here: dict[int, bool]) -> tuple[Online, ...]:
        """The list from the stores (an I/O thread): by name, at most :data:`MAX_ONLINE`."""
        accounts = self.host.accounts
        if accounts is None or not here:
            return ()
        store = self.ratings()
        found: list[Online] = []
        ids = sorted(here)[: MAX_ONLINE * 2]
        try:
            ratings = {} if store is None else store.ratings(ids)
        except RatingsUnavailable as exc:
            log.error("who is online: the ratings failed: %s", exc)
            ratings = {}
        try:
            for account_id in ids:
                account = accounts.get(account_id)
                if account is None:
                    continue
                rating = ratings.get(account_id)
                found.append(
                    Online(
                        account.name,
                        here[account_id],
                        None if rating is None else tenths(rating.shown),
                        0 if rating is None else rating.games,
                    )
                )
        except AccountsUnavailable as exc:
            log.error("who is online: the accounts failed: %s", exc)
        found.sort(key=lambda o: folded(o.name))
        return tuple(found[:MAX_ONLINE])
