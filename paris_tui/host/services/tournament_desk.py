"""The tournaments as the lobbies see them: the list, a tournament's page, entering,
withdrawing, creating, and the word that a round has opened (protocol 6).

A :class:`~paris_tui.net.tournaments_wire.TournamentsRequest` names the account
it is for (``name`` and ``token``, proven as a join proves one: an account's
token, a door's ticket); ``list`` and ``show`` may name none. Entering and
withdrawing follow the store's rules (:mod:`paris_tui.host.tournaments.store`:
into round 1 while open, into the next round of a running Swiss one, out from
the next round on) and the tournament's ``--min-games``; creating is for the
accounts the operator named (``--tournament-makers``) or, with
``--tournaments-open``, for every account. Each refusal has its code
(docs/protocol.md).

A connection that named an account listens from then on: when the rounds'
service publishes :class:`~paris_tui.host.events.RoundOpened`, each listening
connection of an account seated in that round is sent a
:class:`~paris_tui.net.tournaments_wire.RoundStart` naming its table and seat.

The store is the rounds' own (:class:`~paris_tui.host.services.tournaments.HostTournaments`),
read and written in the host's I/O threads; nothing is kept here but who listens.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.host.accounts.names import folded
from paris_tui.host.accounts.store import Account, AccountsUnavailable
from paris_tui.host.events import EventBus, RoundOpened, TableEvent
from paris_tui.host.peers import Peer
from paris_tui.host.ports import AccountsSource
from paris_tui.host.ratings.store import Rating, RatingStore
from paris_tui.host.referee import Refusal
from paris_tui.host.tournaments.command import MAX_MIN_GAMES, MAX_ROUNDS
from paris_tui.host.tournaments.engine import Plan, seeds
from paris_tui.host.tournaments.pairing import Round
from paris_tui.host.tournaments.standings import standings
from paris_tui.host.tournaments.store import (
    SQLiteTournaments,
    Tournament,
    TournamentError,
    TournamentsUnavailable,
)
from paris_tui.net.tournaments_wire import (
    MAX_ENTRANTS,
    MAX_TABLES_SENT,
    MAX_TOURNAMENTS,
    TOURNAMENTS_VERSION,
    EntrantInfo,
    NewTournament,
    RoundInfo,
    RoundStart,
    RoundTable,
    StandingInfo,
    TournamentDone,
    TournamentInfo,
    TournamentList,
    TournamentPage,
    TournamentsRequest,
    hundredths,
)

__all__ = ["DeskRules", "TournamentDesk"]

log = logging.getLogger("paris_tui.host.tournament_desk")

LISTED = ("open", "running", "finished")
LATEST_START = 366 * 86400.0  # a tournament made in the lobby starts within a year


@dataclass(frozen=True)
class DeskRules:
    """Who may create a tournament from the lobby: the accounts named (any case), or
    every account (``everyone``)."""

    makers: tuple[str, ...] = ()
    everyone: bool = False

    def may_create(self, name: str | None) -> bool:
        if name is None:
            return False
        return self.everyone or folded(name) in {folded(m) for m in self.makers}


@dataclass(frozen=True)
class _Listener:
    account: int
    name: str


class TournamentDesk:
    """The lobbies' side of the tournaments (see the module's doc)."""

    def __init__(
        self,
        host: AccountsSource,
        rules: DeskRules,
        store: Callable[[], SQLiteTournaments | None],
        ratings: Callable[[], RatingStore | None],
        events: EventBus | None = None,
    ) -> None:
        self.host = host
        self.rules = rules
        self._store = store
        self._ratings = ratings
        self.listeners: weakref.WeakKeyDictionary[Peer, _Listener] = weakref.WeakKeyDictionary()
        if events is not None:
            events.subscribe(self.hear)

    # --- requests ---------------------------------------------------------------------

    async def request(self, conn: Peer, message: TournamentsRequest) -> None:
        name: str | None = None
        if message.name is not None:
            try:
                name = normalize_name(message.name)
            except InvalidNameError as exc:
                raise Refusal("bad_name", exc.problem) from None
        changes = message.action in ("enter", "withdraw", "create")
        if changes and name is None:
            raise Refusal("not_allowed", "name the account (with its proof) to do that")
        loop = asyncio.get_running_loop()
        try:
            account = await loop.run_in_executor(
                self.host.io_pool, self._account, conn, name, message.token, changes
            )
        except AccountsUnavailable as exc:
            raise self.host.gate.broken(exc) from None
        if account is not None:
            self.listeners[conn] = _Listener(account.id, account.name)
        store = self._store()
        if store is None:
            raise Refusal("unavailable", "the host cannot read its tournaments right now")
        try:
            answer = await loop.run_in_executor(
                self.host.io_pool, self._answer, store, message, account
            )
        except TournamentsUnavailable as exc:
            log.error("tournaments: %s", exc)
            raise Refusal("unavailable", "the host cannot read its tournaments right now") from None
        if isinstance(answer, TournamentPage) and answer.done is not None and account is not None:
            log.info(
                "%s: %s %s %s",
                conn,
                printable(account.name),
                answer.done,
                printable(answer.tournament.name),
            )
        conn.send(answer)

    def _account(
        self, conn: Peer, name: str | None, token: str | None, changes: bool
    ) -> Account | None:
        """The account the request proves (an I/O thread); ``None`` for none named or a
        name that is nobody's when nothing changes. A request that changes something
        for a name that is nobody's yet makes its account with the proof it brings (a
        door's ticket, or a token of the client's own making)."""
        if name is None:
            return None
        claim = self.host.gate.prove(name, token, vouched=conn.vouched)
        if claim.account is not None:
            return claim.account
        if not changes:
            return None
        if token is None:
            raise Refusal("not_allowed", f"{name} is no account here yet: play a game first")
        return self.host.gate.commit(claim)

    def _answer(
        self, store: SQLiteTournaments, message: TournamentsRequest, account: Account | None
    ) -> TournamentList | TournamentPage:
        may_create = self.rules.may_create(None if account is None else account.name)
        if message.action == "list":
            return self._list(store, account, may_create)
        if message.action == "create":
            if account is None or not may_create:
                raise Refusal(
                    "not_allowed",
                    "this host's operator has not let this account create tournaments",
                )
            created = self._create(store, message.create)
            return self._page(store, created, account, "created", may_create)
        if message.tournament is None:
            raise Refusal("no_such_tournament", "name the tournament (its id)")
        tournament = store.get(message.tournament)
        if tournament is None or tournament.state not in (*LISTED, "cancelled"):
            raise Refusal("no_such_tournament", f"there is no tournament {message.tournament}")
        done: TournamentDone | None = None
        if message.action == "enter":
            assert account is not None
            self._enter(store, tournament, account)
            done = "entered"
        elif message.action == "withdraw":
            assert account is not None
            if tournament.state not in ("open", "running"):
                raise Refusal("entries_closed", "this tournament is over")
            if not store.withdraw(tournament.id, account.id):
                raise Refusal("not_entered", f"{account.name} is not in {tournament.name}")
            done = "withdrawn"
        found = store.get(tournament.id) or tournament
        return self._page(store, found, account, done, may_create)

    def _enter(self, store: SQLiteTournaments, tournament: Tournament, account: Account) -> None:
        running_swiss = tournament.state == "running" and tournament.format == "swiss"
        if tournament.state != "open" and not running_swiss:
            raise Refusal("entries_closed", "this tournament takes no more entries")
        if any(e.key == str(account.id) and not e.withdrawn for e in store.entrants(tournament.id)):
            raise Refusal("already_entered", f"{account.name} is in {tournament.name} already")
        ratings = self._ratings()
        rating = None if ratings is None else ratings.ratings([account.id]).get(account.id)
        games = 0 if rating is None else rating.games
        if games < tournament.min_games:
            raise Refusal(
                "too_few_games",
                f"{account.name} has {games} rated games; "
                f"{tournament.name} asks for {tournament.min_games}",
            )
        try:
            store.enter(
                tournament.id, account.id, account.name, 0.0 if rating is None else rating.shown
            )
        except TournamentError as exc:
            raise Refusal("entries_closed", str(exc)) from None

    def _create(self, store: SQLiteTournaments, new: NewTournament | None) -> Tournament:
        if new is None:
            raise Refusal("bad_tournament", "say what tournament to create")
        try:
            name = normalize_name(new.name)
        except InvalidNameError as exc:
            raise Refusal("bad_tournament", f"its name: {exc.problem}") from None
        if new.format == "swiss" and not 1 <= new.rounds <= MAX_ROUNDS:
            raise Refusal("bad_tournament", f"a Swiss tournament has 1 to {MAX_ROUNDS} rounds")
        if new.format != "swiss" and new.rounds != 0:
            raise Refusal("bad_tournament", f"a {new.format} has the rounds its entrants need")
        now = time.time()
        if not now - 60 <= new.start <= now + LATEST_START:
            raise Refusal("bad_tournament", "its start is in the past or more than a year away")
        if new.min_games > MAX_MIN_GAMES:
            raise Refusal("bad_tournament", f"at most {MAX_MIN_GAMES} rated games to enter")
        try:
            return store.create(
                name,
                Plan(new.format, new.players, new.rounds),
                move_time=new.move_time,
                start=float(new.start),
                rated=new.rated,
                min_games=new.min_games,
            )
        except TournamentError as exc:
            raise Refusal("bad_tournament", str(exc)) from None

    # --- answers ----------------------------------------------------------------------

    def _list(
        self, store: SQLiteTournaments, account: Account | None, may_create: bool
    ) -> TournamentList:
        found = store.tournaments(LISTED)
        if len(found) > MAX_TOURNAMENTS:  # the oldest finished ones give way
            live = [t for t in found if t.state != "finished"][:MAX_TOURNAMENTS]
            done = [t for t in found if t.state == "finished"]
            keep = {t.id for t in live + done[len(done) - (MAX_TOURNAMENTS - len(live)) :]}
            found = [t for t in found if t.id in keep]
        counts = store.counts()
        mine = set() if account is None else store.entered(account.id)
        infos = tuple(_info(t, *counts.get(t.id, (0, 0)), entered=t.id in mine) for t in found)
        return TournamentList(infos, may_create, None if account is None else account.name)

    def _page(
        self,
        store: SQLiteTournaments,
        tournament: Tournament,
        account: Account | None,
        done: TournamentDone | None,
        may_create: bool,
    ) -> TournamentPage:
        entrants = store.entrants(tournament.id)
        names = store.names(tournament.id)
        rounds = store.rounds(tournament.id)
        ids = store.table_ids(tournament.id)
        rows = standings(
            seeds(entrants),
            rounds,
            tournament.players,
            [e.key for e in entrants if e.withdrawn],
            knockout=tournament.format == "knockout",
        )
        live = sum(1 for e in entrants if not e.withdrawn)
        shown_rounds = _latest(rounds)
        mine = account is not None and any(
            e.key == str(account.id) and not e.withdrawn for e in entrants
        )
        ratings = self._ratings()
        shown: dict[int, Rating] = {}
        if ratings is not None and entrants:
            shown = ratings.ratings([int(e.key) for e in entrants])
        return TournamentPage(
            _info(tournament, live, len(rounds), entered=mine),
            tuple(
                EntrantInfo(
                    names.get(e.key, e.key),
                    round(e.rating * 10) if int(e.key) in shown else None,
                    e.joined,
                    e.withdrawn,
                )
                for e in sorted(entrants, key=lambda e: folded(names.get(e.key, e.key)))[
                    :MAX_ENTRANTS
                ]
            ),
            tuple(
                StandingInfo(
                    r.rank,
                    names.get(r.key, r.key),
                    hundredths(r.points),
                    hundredths(r.buchholz),
                    hundredths(r.sonneborn_berger),
                    hundredths(r.place_sum),
                    r.tables,
                    r.byes,
                    r.withdrawn,
                )
                for r in rows[:MAX_ENTRANTS]
            ),
            tuple(
                RoundInfo(
                    rnd.number,
                    tuple(
                        RoundTable(
                            ids.get((rnd.number, no)),
                            tuple(names.get(k, k) for k in t.seats),
                            t.places,
                        )
                        for no, t in enumerate(rnd.tables, start=1)
                    ),
                    tuple(names.get(k, k) for k in rnd.byes),
                )
                for rnd in shown_rounds
            ),
            done,
            may_create,
        )

    # --- a round opens ----------------------------------------------------------------

    def listen(self, conn: Peer, account: int, name: str) -> None:
        """``conn`` took a seat as this account: a round that opens while it plays is told
        there too (a player who came straight to a table never asked for the list)."""
        self.listeners[conn] = _Listener(account, name)

    def hear(self, event: TableEvent) -> None:
        if isinstance(event, RoundOpened):
            self.round_opened(event)

    def round_opened(self, event: RoundOpened) -> None:
        """Tell each listening lobby of a seated account where it sits."""
        if event.tournament_id < 1:
            return
        where: dict[str, tuple[str, int, tuple[str, ...]]] = {}
        for table_id, names in event.tables:
            for seat, name in enumerate(names):
                where[folded(name)] = (table_id, seat, tuple(names))
        for conn, listener in list(self.listeners.items()):
            if conn.closed or conn.protocol < TOURNAMENTS_VERSION:
                continue
            found = where.get(folded(listener.name))
            if found is None:
                continue
            table_id, seat, names = found
            conn.send(
                RoundStart(event.tournament_id, event.name, event.number, table_id, seat, names)
            )
            log.info(
                "%s: told %s of round %d of %s at %s",
                conn,
                printable(listener.name),
                event.number,
                printable(event.name),
                table_id,
            )


def _latest(rounds: list[Round]) -> list[Round]:
    """The latest rounds whose tables fit a page (:data:`MAX_TABLES_SENT`)."""
    kept: list[Round] = []
    tables = 0
    for rnd in reversed(rounds):
        tables += len(rnd.tables)
        if tables > MAX_TABLES_SENT and kept:
            break
        kept.append(rnd)
    return kept[::-1]


def _info(t: Tournament, entrants: int, paired: int, *, entered: bool) -> TournamentInfo:
    return TournamentInfo(
        t.id,
        t.name,
        t.format,  # type: ignore[arg-type]  # the store keeps only these
        t.players,
        t.rounds,
        t.move_time,
        round(t.start),
        t.rated,
        t.min_games,
        entrants,
        t.state,  # type: ignore[arg-type]
        paired,
        entered,
    )
