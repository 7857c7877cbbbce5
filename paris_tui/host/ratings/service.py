"""The host's side of ratings: which store, what the lobby shows, a game's end.

:class:`HostRatings` is what the host calls and what hears its tables' events
(:mod:`paris_tui.host.events`: a seat taken over or back, a game over, a table
resumed): it opens the rating store that goes with
the table store (``host/ratings.sqlite``, or the hosts' database with
``--database``), keeps the shown ratings of accounts for the seat lists (a
cache, re-read after :data:`CACHE_SECONDS` so other hosts' games show too),
marks a seat the takeover AI plays, and counts a finished game once
(:mod:`paris_tui.host.ratings.store`). A store that fails is logged once and
ratings go quiet: a game never waits for its ratings.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Sequence
from concurrent.futures import ThreadPoolExecutor

from paris_tui.core.record import Player, Record
from paris_tui.host.accounts.store import AccountStore, AccountsUnavailable
from paris_tui.host.events import (
    AIPlaysFor,
    EventBus,
    GameOver,
    MovePlayed,
    SeatReturned,
    TableEvent,
    TableResumed,
)
from paris_tui.host.peers import Table
from paris_tui.host.ports import RatingsHost
from paris_tui.host.ratings.people import People
from paris_tui.host.ratings.store import (
    LEADERBOARD_SIZE,
    GameResult,
    RatingStore,
    RatingsUnavailable,
    game_key,
    open_ratings,
)
from paris_tui.host.referee import Referee
from paris_tui.net.ratings_wire import RATING_REASONS, Leader, RatedResult, is_provisional, tenths

__all__ = ["CACHE_SECONDS", "HostRatings", "LeaderRow"]

log = logging.getLogger("paris_tui.host.ratings")

CACHE_SECONDS = 60.0

LeaderRow = tuple[str, float, int]
"""A leaderboard row: the account's name, its shown rating, its rated games."""


class HostRatings:
    """The ratings of one host (``store`` is ``None`` when they cannot be kept)."""

    def __init__(self, host: RatingsHost, events: EventBus | None = None) -> None:
        self.host = host
        self.store: RatingStore | None = None
        self._shown: dict[int, tuple[float | None, float]] = {}  # account -> (shown, when)
        self._board: tuple[tuple[LeaderRow, ...], float] | None = None
        self._failed = False
        # One thread: marks and counts are written in the order they were asked for.
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paris-ratings")
        self._pending: set[asyncio.Future[None]] = set()
        self._results: dict[str, RatedResult] = {}
        self._names: dict[str, tuple[int | None, float]] = {}  # name -> (account, when)
        # Who sits at each seat (ratings between different people: people.py).
        self.people = People(host.tickets, host.config.rated_addresses)
        self._games: dict[int, int] = {}  # account -> rated games, read with its shown rating
        if events is not None:
            events.subscribe(self.hear)

    def hear(self, event: TableEvent) -> Awaitable[None] | None:
        """A seat the takeover AI plays or gives back, a game over, a table resumed."""
        match event:
            case AIPlaysFor(table_id, seat):
                return self.mark(table_id, seat, "takeover")
            case SeatReturned(table_id, seat):
                self.mark_soon(table_id, seat, "returned")
            case MovePlayed(table):
                self.seen_soon(table)
            case GameOver(table):
                self.seen_soon(table)  # before the count, in the same thread
                self.finish_soon(table)
                self.people.forget(table.id)
            case TableResumed(table):
                table.result = self.result_of(table.id)
        return None

    def open(self) -> None:
        from paris_tui.host.store.postgres import PostgresStore

        try:
            tables = self.host.tables
            if isinstance(tables, PostgresStore):
                from paris_tui.host.ratings.postgres import PostgresRatings

                self.store = PostgresRatings(tables.pool)
            else:
                self.store = open_ratings(self.host.store.root)
        except (RatingsUnavailable, OSError) as exc:
            log.error("%s: games are not rated until it is repaired", exc)
            self.store = None
        self._failed = False

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        if self.store is not None:
            self.store.close()
            self.store = None

    async def drain(self) -> None:
        """Wait for the marks and counts under way, then close (the host is closing)."""
        if self._pending:
            await asyncio.wait(list(self._pending), timeout=10.0)
        self.close()

    def _soon(self, job: asyncio.Future[None]) -> None:
        self._pending.add(job)
        job.add_done_callback(self._pending.discard)

    def _fail(self, exc: Exception) -> None:
        if not self._failed:
            log.error("the ratings failed: %s", exc)
        self._failed = True

    # --- what the lobby shows ------------------------------------------------------------

    def shown(self, account: int | None) -> float | None:
        """The account's shown rating; ``None`` before its first rated game (or none kept)."""
        if account is None or self.store is None:
            return None
        now = time.monotonic()
        cached = self._shown.get(account)
        if cached is not None and now - cached[1] < CACHE_SECONDS:
            return cached[0]
        try:
            found = self.store.ratings([account]).get(account)
        except RatingsUnavailable as exc:
            self._fail(exc)
            return None
        value = None if found is None else found.shown
        if len(self._shown) > 10_000:
            self._shown.clear()
            self._games.clear()
        self._games[account] = 0 if found is None else found.games
        self._shown[account] = (value, now)
        return value

    def seat_rating(self, account: int | None) -> int | None:
        """:meth:`shown` in tenths, as a seat's ``rating`` on the wire."""
        return tenths(self.shown(account))

    def seat_rating_of(self, player: Player, owner: int | None) -> int | None:
        """A table's seat on the wire: its owner's rating, else (a seat reserved for
        a name, not claimed yet) the rating of the account of that name."""
        if player.is_ai or self.store is None:
            return None
        if owner is not None:
            return self.seat_rating(owner)
        return self.seat_rating_by_name(player.name)

    def seat_rating_by_name(self, name: str) -> int | None:
        """:meth:`shown_by_name` in tenths (a waiting table's holder on the wire)."""
        return tenths(self.shown_by_name(name))

    def shown_by_name(self, name: str) -> float | None:
        """The shown rating of the account called ``name`` (a waiting table's holder)."""
        accounts = self.host.accounts
        if accounts is None or self.store is None or not name:
            return None
        now = time.monotonic()
        cached = self._names.get(name)
        if cached is None or now - cached[1] >= CACHE_SECONDS:
            try:
                account = accounts.find(name)
            except AccountsUnavailable:
                return None
            found = None if account is None or account.name != name else account.id
            if len(self._names) > 10_000:
                self._names.clear()
            cached = self._names[name] = (found, now)
        return self.shown(cached[0])

    def seat_provisional_of(self, player: Player, owner: int | None) -> bool:
        """Whether a seat's rating is shown as provisional (fewer rated games than
        :data:`~paris_tui.net.ratings_wire.PROVISIONAL_GAMES`)."""
        if player.is_ai or self.store is None:
            return False
        if owner is None:
            return self.provisional_by_name(player.name)
        return self._provisional(owner)

    def provisional_by_name(self, name: str) -> bool:
        """:meth:`seat_provisional_of` for the account called ``name`` (a waiting table's)."""
        if self.shown_by_name(name) is None:
            return False
        cached = self._names.get(name)
        return cached is not None and self._provisional(cached[0])

    def _provisional(self, account: int | None) -> bool:
        if account is None or self.shown(account) is None:
            return False
        return is_provisional(self._games.get(account, 0))

    def leaderboard(self) -> tuple[LeaderRow, ...]:
        """The best :data:`~paris_tui.host.ratings.store.LEADERBOARD_SIZE` accounts, best first."""
        now = time.monotonic()
        if self._board is not None and now - self._board[1] < CACHE_SECONDS:
            return self._board[0]
        rows = leaderboard_rows(self.store, self.host.accounts, LEADERBOARD_SIZE)
        self._board = (rows, now)
        return rows

    # --- a game's end ----------------------------------------------------------------------

    def mark_now(self, table_id: str, seat: int, state: str) -> None:
        """The takeover AI plays ``seat`` (``"takeover"``), or its player is back
        (``"returned"``). Called in an I/O thread, before the AI's move is saved."""
        if self.store is None:
            return
        try:
            self.store.mark(table_id, seat, state)
        except RatingsUnavailable as exc:
            self._fail(exc)

    async def mark(self, table_id: str, seat: int, state: str) -> None:
        """:meth:`mark_now` in the ratings' thread, waited for."""
        if self.store is None:
            return
        job = asyncio.get_running_loop().run_in_executor(
            self._writer, self.mark_now, table_id, seat, state
        )
        self._soon(job)
        await job

    def mark_soon(self, table_id: str, seat: int, state: str) -> None:
        """:meth:`mark_now` in the ratings' thread, not waited for."""
        if self.store is not None:
            loop = asyncio.get_running_loop()
            self._soon(loop.run_in_executor(self._writer, self.mark_now, table_id, seat, state))

    def seen_now(self, table_id: str, seen: list[tuple[int, str]]) -> None:
        """Keep who sat at which seat (an I/O thread)."""
        if self.store is None:
            return
        try:
            for seat, person in seen:
                self.store.seen(table_id, seat, person)
        except RatingsUnavailable as exc:
            self._fail(exc)

    def seen_soon(self, room: Table) -> None:
        """The seats' people not kept yet, kept in the ratings' thread (not waited for)."""
        if self.store is None:
            return
        seen = self.people.new(room)
        if seen:
            loop = asyncio.get_running_loop()
            self._soon(loop.run_in_executor(self._writer, self.seen_now, room.id, seen))

    def finish_soon(self, room: Table) -> None:
        """Count the room's finished game in the ratings' thread, then tell the table."""
        if self.store is None:
            return
        referee, owners = room.referee, dict(room.owners)

        async def count() -> None:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._writer, self.finish, referee, owners)
            if result is not None and room.referee is referee:
                seats = range(len(referee.players))
                provisional = tuple(self._provisional(owners.get(s)) for s in seats)
                room.result = to_wire(result, provisional if result.rated else ())
                room.broadcast_presence()

        self._soon(asyncio.ensure_future(count()))

    def catch_up(self, table_id: str, record: Record) -> None:
        """A finished table found at the start: counted now if it was not (the host
        died between the last move and its count), its result kept for its room."""
        if self.store is None:
            return
        try:
            done = self.store.result(game_key(table_id, record.to_json_dict()))
        except RatingsUnavailable as exc:
            self._fail(exc)
            return
        if done is None:
            referee = Referee.from_record(table_id, record)
            owners, problem = self.host.load_owners(table_id, referee)
            if problem is not None:
                return
            done = self.finish(referee, owners)
        wired = (
            None if done is None else to_wire(done, self._provisional_now(table_id, record, done))
        )
        if wired is not None:
            self._results[table_id] = wired

    def _provisional_now(self, table_id: str, record: Record, done: GameResult) -> tuple[bool, ...]:
        """Each seat's rating is provisional now (a rated game found at the start)."""
        if not done.rated:
            return ()
        referee = Referee.from_record(table_id, record)
        owners, problem = self.host.load_owners(table_id, referee)
        if problem is not None:
            return ()
        return tuple(self._provisional(owners.get(s)) for s in range(len(referee.players)))

    def result_of(self, table_id: str) -> RatedResult | None:
        """The result found by :meth:`catch_up` for a finished table being resumed."""
        return self._results.pop(table_id, None)

    def finish(self, referee: Referee, owners: dict[int, int]) -> GameResult | None:
        """Count the finished game (once; an I/O thread or the host's start)."""
        view = referee.view(None)
        outcome = view.outcome
        if self.store is None or (outcome is None and not referee.aborted):
            return None
        # An aborted game has no outcome: its scores so far, no winner (every seat first).
        scores = view.scores if outcome is None else outcome.scores
        on_board = (0,) * len(scores) if outcome is None else outcome.on_board
        kinds = [p.kind for p in referee.players]
        key = game_key(referee.table_id, referee.record_json())
        try:
            result = self.store.finish(
                key,
                referee.table_id,
                kinds,
                dict(owners),
                scores,
                on_board,
                referee.names,
                aborted=referee.aborted,
                unrated=referee.unrated,
            )
        except RatingsUnavailable as exc:
            self._fail(exc)
            return None
        for account in owners.values():
            self._shown.pop(account, None)
        self._board = None
        return result


def leaderboard_rows(
    store: RatingStore | None, accounts: AccountStore | None, limit: int
) -> tuple[LeaderRow, ...]:
    """The leaderboard with each account's name (accounts removed since are left out)."""
    if store is None or accounts is None:
        return ()
    rows: list[LeaderRow] = []
    try:
        board = store.leaderboard(limit)
        for rating in board:
            account = accounts.get(rating.account)
            if account is not None:
                rows.append((account.name, rating.shown, rating.games))
    except (RatingsUnavailable, AccountsUnavailable) as exc:
        log.error("the leaderboard failed: %s", exc)
    return tuple(rows)


def seat_ratings(
    ratings: HostRatings, owners: dict[int, int], seats: Sequence[int]
) -> dict[int, float]:
    """Seat -> shown rating, for the seats whose account has one."""
    out: dict[int, float] = {}
    for seat in seats:
        value = ratings.shown(owners.get(seat))
        if value is not None:
            out[seat] = value
    return out


# --- what the server calls (a line each there) ------------------------------------------


def to_wire(result: GameResult, provisional: tuple[bool, ...] = ()) -> RatedResult | None:
    """``provisional``: each seat's rating is provisional after the game (rated games).
    ``None`` for a game of a table opened unrated: no client is told of ratings there
    (the protocol's reasons do not have the word)."""
    if result.reason is not None and result.reason not in RATING_REASONS:
        return None
    return RatedResult(
        result.rated,
        result.reason,
        result.ranks,
        result.leavers,
        tuple(tenths(v) for v in result.before),
        tuple(tenths(v) for v in result.after),
        provisional,
    )


def table_leaderboard(ratings: HostRatings) -> tuple[Leader, ...]:
    """The ``leaderboard`` of a :class:`~paris_tui.net.protocol.Tables` answer."""
    return tuple(
        Leader(name, tenths(value) or 0, games) for name, value, games in ratings.leaderboard()
    )
