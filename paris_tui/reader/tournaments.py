"""The host's tournaments in the screen reader's lobby, as lines (protocol 6).

Commands (each also in the current language, context ``command``, and
shortened as any other: :mod:`.commands`): ``tournaments`` lists them (open
for entry, running, finished; each on a numbered line), ``tournament NAME``
or ``tournament 2`` says one's page (its entrants; its standings with their
tie-breaks, a place a line; each tournament round's tables, who sits where
and, once a table is over, the places), ``enter NAME`` and ``withdraw NAME``
enter or withdraw the player's account and say what the host answered,
``replay TABLE`` steps through a finished tournament table's game
(:class:`~paris_tui.reader.replay.ReplayReader`), and ``sit`` takes the seat a
tournament round keeps for the player. ``watch TABLE`` watches a table under
way (the lobby's own ``watch``).

A lobby that knows the player's account (a kept token, a door's ticket) names
it to the host, and from then on the host tells it when a tournament round
opens with the player at a table (:class:`~paris_tui.net.tournaments_wire.RoundStart`):
:meth:`ReaderTournaments.hear` says it at once, in one line, with the bell
when the player has it on.

Names (a tournament's, a player's) are outside text: every one goes through
:func:`~paris_tui.core.printable` into a sentence.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..core import printable
from ..i18n import _, decimal, ngettext
from ..net.client import HostClient, RefusedError, TokenStore
from ..net.protocol import (
    ClientMessage,
    FriendsInfo,
    HostMessage,
)
from ..net.tournaments_wire import (
    TOURNAMENTS_VERSION,
    EntrantInfo,
    RoundInfo,
    RoundStart,
    RoundTable,
    StandingInfo,
    TournamentAction,
    TournamentInfo,
    TournamentList,
    TournamentPage,
    TournamentsRequest,
)
from ..net.turns import move_time_words
from ..wording import refusal_reason
from .commands import match_names, parse, word_for
from .lines import Lines

__all__ = [
    "TOURNAMENT_WORDS",
    "ReaderTournaments",
    "entrants_line",
    "page_lines",
    "round_lines",
    "seat_line",
    "standing_line",
    "tournament_line",
    "tournaments_help",
]

TOURNAMENT_WORDS = ("tournaments", "tournament", "enter", "withdraw", "sit", "replay")
"""The lobby's words for tournaments (:data:`~paris_tui.reader.commands.COMMANDS`)."""

LOBBY_WORDS = ("quit", "new", "friends", "watch", *TOURNAMENT_WORDS)
"""Every word of the lobby a typed start may name: a start two of them share is none."""

TIMEOUT = 10.0

_T = TypeVar("_T")

_ORDER = {"open": 0, "running": 1, "finished": 2, "cancelled": 3}


@dataclass(frozen=True, slots=True)
class Asked:
    """A tournament command typed: ``command`` (one of :data:`TOURNAMENT_WORDS`),
    ``arg`` (what follows it, as typed)."""

    command: str
    arg: str


def asked(text: str) -> Asked | None:
    """The tournament command ``text`` is (``tournaments``, ``tour 2``...), else None.

    ``tournaments`` and ``tournament`` share every start but themselves: a start
    of both means the list alone and a page with a name or number after it."""
    parsed = parse(text, LOBBY_WORDS)
    arg = text.strip().partition(" ")[2].strip()
    command = parsed.command
    if command is None and set(parsed.ambiguous) == {"tournaments", "tournament"}:
        command = "tournament" if arg else "tournaments"
    if command == "tournaments" and arg:
        command = "tournament"  # a name or number after it: that one's page
    if command not in TOURNAMENT_WORDS:
        return None
    return Asked(command, arg)


def tournaments_help() -> str:
    return _(
        "{tournaments} lists the host's tournaments; {tournament} and a name or number "
        "says one's page; {enter} or {withdraw} and a name enters you or takes you out; "
        "{sit} takes the seat a tournament round keeps for you; {replay} and a table "
        "replays a finished one."
    ).format(
        tournaments=word_for("tournaments"),
        tournament=word_for("tournament"),
        enter=word_for("enter"),
        withdraw=word_for("withdraw"),
        sit=word_for("sit"),
        replay=word_for("replay"),
    )


# --- words ------------------------------------------------------------------------------


def _format(fmt: str) -> str:
    if fmt == "swiss":
        return _("a Swiss tournament")
    if fmt == "round-robin":
        return _("a round-robin tournament")
    if fmt == "knockout":
        return _("a knockout tournament")
    return printable(fmt)


def _start(start: int) -> str:
    """In UTC, as the operator's ``--start`` is given."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(start))


def _state(t: TournamentInfo) -> str:
    if t.state == "open":
        said = _("open for entry, starts {start}").format(start=_start(t.start))
    elif t.state == "running" and t.rounds:
        said = _("running, tournament round {n} of {total}").format(n=t.round, total=t.rounds)
    elif t.state == "running":
        said = _("running, tournament round {n}").format(n=t.round)
    elif t.state == "finished":
        said = _("finished")
    else:
        said = _("cancelled")
    if t.entered and t.state in ("open", "running"):
        said = _("{state}, you are in").format(state=said)
    return said


def _kind(t: TournamentInfo) -> str:
    """``a Swiss tournament, 2 a table, 4 rounds, 2 min a move, rated``."""
    parts = [
        _format(t.format),
        ngettext("{n} player a table", "{n} players a table", t.players).format(n=t.players),
    ]
    if t.rounds:
        parts.append(
            ngettext("{n} tournament round", "{n} tournament rounds", t.rounds).format(n=t.rounds)
        )
    parts.append(_("{time} a move").format(time=move_time_words(t.move_time)))
    if t.rated:
        parts.append(_("rated"))
    if t.min_games:
        parts.append(
            ngettext("{n} rated game to enter", "{n} rated games to enter", t.min_games).format(
                n=t.min_games
            )
        )
    return ", ".join(parts)


def tournament_line(n: int, t: TournamentInfo) -> str:
    """``1: Winter Cup, a Swiss tournament, 2 players a table, 4 tournament rounds, 2 min
    a move, 6 entrants, open for entry, starts 2026-12-24 18:00 UTC.``"""
    return _("{n}: {name}, {kind}, {entrants}, {state}.").format(
        n=n,
        name=printable(t.name),
        kind=_kind(t),
        entrants=ngettext("{n} entrant", "{n} entrants", t.entrants).format(n=t.entrants),
        state=_state(t),
    )


def _points(value: int) -> str:
    """Whole hundredths as the language writes a number: ``6``, ``5.5``, ``2.33``."""
    if value % 100 == 0:
        return str(value // 100)
    return decimal(value / 100, 1 if value % 10 == 0 else 2)


def entrants_line(entrants: Sequence[EntrantInfo]) -> str:
    """``Entrants, 3: ann (rating 4.1), bob, cy (withdrawn).``"""
    if not entrants:
        return _("Nobody has entered yet.")
    parts = []
    for e in entrants:
        about = []
        if e.rating is not None:
            about.append(_("rating {rating}").format(rating=decimal(e.rating / 10, 1)))
        if e.joined > 1:
            about.append(_("from tournament round {n}").format(n=e.joined))
        if e.withdrawn:
            about.append(_("withdrawn"))
        name = printable(e.name)
        parts.append(f"{name} ({', '.join(about)})" if about else name)
    return ngettext("Entrants, {n}: {names}.", "Entrants, {n}: {names}.", len(entrants)).format(
        n=len(entrants), names=", ".join(parts)
    )


def standing_line(s: StandingInfo, players: int) -> str:
    """``1. ann: 6 points; Buchholz 3, Sonneborn-Berger 3.`` (the sum of places first
    at tables of three and four; byes and a withdrawal said)."""
    whole = s.points // 100 if s.points % 100 == 0 else 2
    points = ngettext("{points} point", "{points} points", whole).format(points=_points(s.points))
    breaks = _("Buchholz {buchholz}, Sonneborn-Berger {sb}").format(
        buchholz=_points(s.buchholz), sb=_points(s.sonneborn_berger)
    )
    if players > 2:
        breaks = _("sum of places {places}, {breaks}").format(
            places=_points(s.place_sum), breaks=breaks
        )
    if s.byes:
        breaks = ngettext("{breaks}; {n} bye", "{breaks}; {n} byes", s.byes).format(
            breaks=breaks, n=s.byes
        )
    if s.withdrawn:
        breaks = _("{breaks}; withdrawn").format(breaks=breaks)
    return _("{rank}. {name}: {points}; {breaks}.").format(
        rank=s.rank, name=printable(s.name), points=points, breaks=breaks
    )


def _table_line(t: RoundTable) -> str:
    names = [printable(n) for n in t.seats]
    if t.table is None:
        return _("A table not open yet: {players}.").format(players=", ".join(names))
    if t.places is None:
        return _("Table {table}, under way: {players}.").format(
            table=t.table, players=", ".join(names)
        )
    placed = sorted(zip(t.places, names, strict=False))
    return _("Table {table}, over: {places}.").format(
        table=t.table,
        places=", ".join(
            _("{name} place {place}").format(name=name, place=place) for place, name in placed
        ),
    )


def round_lines(r: RoundInfo) -> list[str]:
    """``Tournament round 1:`` then a line a table, then the byes."""
    lines = [
        ngettext(
            "Tournament round {n}, {k} table:", "Tournament round {n}, {k} tables:", len(r.tables)
        ).format(n=r.number, k=len(r.tables))
    ]
    lines.extend(_table_line(t) for t in r.tables)
    if r.byes:
        lines.append(
            _("A bye this tournament round: {names}.").format(
                names=", ".join(printable(n) for n in r.byes)
            )
        )
    return lines


def page_lines(page: TournamentPage) -> list[str]:
    """A tournament's page: what it is, its entrants, its standings a place a line, and
    each tournament round's tables."""
    t = page.tournament
    lines = [
        _("{name}: {kind}; {state}.").format(
            name=printable(t.name), kind=_kind(t), state=_state(t)
        ),
        entrants_line(page.entrants),
    ]
    if page.rounds and page.standings:
        lines.append(_("Standings, points then tie-breaks:"))
        lines.extend(standing_line(s, t.players) for s in page.standings)
    elif t.state == "open":
        lines.append(_("No tournament round is paired yet."))
    for r in page.rounds:
        lines.extend(round_lines(r))
    if any(tb.table is not None for r in page.rounds for tb in r.tables):
        lines.append(
            _(
                "{watch} and a table watches it while it is under way; {replay} and a "
                "table replays it once it is over."
            ).format(watch=word_for("watch"), replay=word_for("replay"))
        )
    return lines


def seat_line(start: RoundStart, me: str | None) -> str:
    """``Winter Cup, tournament round 2: you sit at table t9 with bob. Type sit to take
    your seat.``"""
    key = (me or "").casefold()
    others = [
        printable(n) for i, n in enumerate(start.seats) if i != start.seat and n.casefold() != key
    ]
    return _(
        "{tournament}, tournament round {n}: you sit at table {table} with {others}. "
        "Type {sit} to take your seat."
    ).format(
        tournament=printable(start.name),
        n=start.round,
        table=start.table,
        others=", ".join(others) or "?",
        sit=word_for("sit"),
    )


# --- the lobby's side -------------------------------------------------------------------


class ReaderTournaments:
    """One lobby connection's tournaments: the list last said (its numbers), the seat
    the last round opened keeps for the player, and who listens."""

    def __init__(
        self,
        client: HostClient,
        out: Lines,
        tokens: TokenStore | None,
        address: str,
        ticket: str | None,
    ) -> None:
        self.client = client
        self.out = out
        self.tokens = tokens
        self.address = address
        self.ticket = ticket
        self.listed: list[TournamentInfo] = []
        self.seat: RoundStart | None = None
        self.listening: str | None = None  # the account the host tells of rounds
        self.tried: set[str] = set()  # the names :meth:`listen` named (or could not)

    @property
    def spoken(self) -> bool:
        """The host speaks tournaments (protocol 6)."""
        welcome = self.client.welcome
        return welcome is not None and welcome.protocol >= TOURNAMENTS_VERSION

    def token(self, name: str) -> str | None:
        """The account's proof: the token kept for it here, else the door's ticket."""
        kept = None
        if self.tokens is not None:
            with contextlib.suppress(OSError):
                kept = self.tokens.get(self.address, name)
        return kept or self.ticket

    # --- pushes -------------------------------------------------------------------------

    def hear(self, message: HostMessage) -> None:
        """A message that came while the lobby waited for a line: a round opened (said at
        once, with the bell), a friend arrived (said); anything else is no answer to
        anything asked and goes."""
        if isinstance(message, RoundStart):
            self.seat = message
            self.out.ring()
            self._say(seat_line(message, self.listening), names=(message.name, *message.seats))
        elif isinstance(message, FriendsInfo) and message.arrived is not None:
            self.out.say(_("{name} is here.").format(name=printable(message.arrived)))

    def _say(self, *sentences: str, names: Iterable[str] = ()) -> None:
        """Say ``sentences``, never breaking a line inside one of ``names`` (a tournament's,
        a player's) where a break elsewhere will do."""
        kept = self.out.names
        self.out.names = (*kept, *(printable(n) for n in names))
        try:
            self.out.say(*sentences)
        finally:
            self.out.names = kept

    async def _ask(self, request: ClientMessage, kind: type[_T]) -> _T:
        """Send ``request`` and wait for its answer; what comes before it (a round opened
        meanwhile) goes to the client's listener (:meth:`hear`, in the lobby), never
        dropped. Raises :class:`RefusedError`."""
        return await self.client.ask(request, kind, timeout=TIMEOUT)

    async def _list(self, name: str | None, token: str | None) -> TournamentList:
        return await self._ask(TournamentsRequest("list", None, name, token), TournamentList)

    async def _page(
        self, action: TournamentAction, tournament: int, name: str | None, token: str | None
    ) -> TournamentPage:
        return await self._ask(TournamentsRequest(action, tournament, name, token), TournamentPage)

    async def listen(self, name: str | None) -> None:
        """Name the account to the host, so that it tells this lobby of a round that seats
        it (only with its proof: a kept token or a door's ticket); then say a seat a
        running round keeps for it now."""
        if not self.spoken or name is None or self.listening is not None or name in self.tried:
            return
        self.tried.add(name)  # once a name: a refusal is not asked again at every list
        token = self.token(name)
        if token is None:
            return
        try:
            listed = await self._list(name, token)
        except RefusedError:
            return
        self.listening = name
        waiting = await self._waiting_seat(listed.tournaments, name, named=True)
        if waiting is not None:
            self.seat = waiting
            self._say(seat_line(waiting, name), names=(waiting.name, *waiting.seats))

    async def _waiting_seat(
        self, tournaments: Sequence[TournamentInfo], name: str, *, named: bool
    ) -> RoundStart | None:
        """The table of a running tournament's round that keeps a seat for ``name`` and is
        not over, from the pages (``named``: the list marks ``name``'s entries)."""
        key = name.casefold()
        for t in tournaments:
            if t.state != "running" or (named and not t.entered):
                continue
            page = await self._page("show", t.id, None, None)
            for r in reversed(page.rounds):
                for table in r.tables:
                    seats = [n.casefold() for n in table.seats]
                    if table.table is None or table.places is not None or key not in seats:
                        continue
                    seat = seats.index(key)
                    return RoundStart(t.id, t.name, r.number, table.table, seat, table.seats)
        return None

    # --- commands -----------------------------------------------------------------------

    async def say_list(self, name: str | None) -> None:
        """``tournaments``: each, numbered, open ones first, then running, then finished."""
        if not self.spoken:
            self.out.say(_("This host runs no tournaments."))
            return
        token = None if name is None else self.token(name)
        listed = await self._list(name if token else None, token)
        if token and name is not None:
            self.listening = self.listening or name
        self.listed = sorted(listed.tournaments, key=lambda t: _ORDER.get(t.state, 4))
        if not self.listed:
            self.out.say(_("No tournaments on this host yet."))
            return
        self.out.say(
            ngettext(
                "The host's tournaments, {n}:", "The host's tournaments, {n}:", len(self.listed)
            ).format(n=len(self.listed))
        )
        self._say(
            *(tournament_line(i, t) for i, t in enumerate(self.listed, 1)),
            names=[t.name for t in self.listed],
        )
        self.out.say(
            _("{tournament} and a number or a name says its page.").format(
                tournament=word_for("tournament")
            )
        )

    async def find(self, arg: str, name: str | None) -> TournamentInfo | None:
        """The tournament ``arg`` names (its number in the list said, or its name or the
        start of one of its words); None: said why not."""
        arg = arg.strip()
        if not arg:
            self.out.say(_("Which tournament? Type its number or its name after the word."))
            return None
        if not self.spoken:
            self.out.say(_("This host runs no tournaments."))
            return None
        if arg.isdigit() and self.listed:
            n = int(arg)
            if 1 <= n <= len(self.listed):
                return self.listed[n - 1]
            self.out.say(
                _("There is no tournament {n}: the list has {k}.").format(n=n, k=len(self.listed))
            )
            return None
        token = None if name is None else self.token(name)
        listed = await self._list(name if token else None, token)
        found = list(listed.tournaments)
        if arg.isdigit():  # a number before any list was said: the list's order
            self.listed = sorted(found, key=lambda t: _ORDER.get(t.state, 4))
            if self.listed:
                return await self.find(arg, name)
            self._none(arg)
            return None
        matches = match_names(arg, [t.name for t in found])
        if len(matches) == 1:
            return found[matches[0]]
        if not matches:
            self._none(arg)
            return None
        self.out.say(
            _("Which one: {names}? Type more of its name, or its number.").format(
                names=", ".join(printable(found[i].name) for i in matches[:8])
            )
        )
        return None

    def _none(self, arg: str) -> None:
        self.out.say(
            _("No tournament here is called {text}. {tournaments} lists them.").format(
                text=printable(arg[:40]), tournaments=word_for("tournaments")
            )
        )

    async def say_page(self, arg: str, name: str | None) -> None:
        """``tournament NAME``: its page."""
        found = await self.find(arg, name)
        if found is None:
            return
        token = None if name is None else self.token(name)
        page = await self._page("show", found.id, name if token else None, token)
        names = [
            page.tournament.name,
            *(e.name for e in page.entrants),
            *(n for r in page.rounds for t in r.tables for n in t.seats),
        ]
        self._say(*page_lines(page), names=names)

    async def change(self, command: str, arg: str, name: str) -> None:
        """``enter NAME`` or ``withdraw NAME`` as the account ``name``: what happened."""
        found = await self.find(arg, name)
        if found is None:
            return
        action: TournamentAction = "enter" if command == "enter" else "withdraw"
        token = self.token(name)
        try:
            try:
                page = await self._page(action, found.id, name, token)
            except RefusedError as exc:
                if token is not None or exc.code != "not_allowed" or action != "enter":
                    raise
                # A name that is nobody's here yet: its account is made with a token
                # of this program's own making, kept as a seat's token is.
                token = secrets.token_urlsafe(32)
                page = await self._page(action, found.id, name, token)
                if self.tokens is not None:
                    with contextlib.suppress(OSError):
                        self.tokens.put(self.address, name, token)
        except RefusedError as exc:
            reason = printable(refusal_reason(exc.code, exc.refused.message))
            if action == "enter":
                said = _("You could not enter {tournament}: {reason}.")
            else:
                said = _("You could not withdraw from {tournament}: {reason}.")
            self._say(
                said.format(tournament=printable(found.name), reason=reason), names=[found.name]
            )
            return
        self.listening = self.listening or name
        t = page.tournament
        if page.done == "entered" and t.state == "open":
            said = ngettext(
                "You are in {tournament} now; it starts {start}, with {n} entrant so far.",
                "You are in {tournament} now; it starts {start}, with {n} entrants so far.",
                t.entrants,
            ).format(tournament=printable(t.name), start=_start(t.start), n=t.entrants)
        elif page.done == "entered":
            said = _("You are in {tournament} now, from its next tournament round.").format(
                tournament=printable(t.name)
            )
        else:
            said = _(
                "You withdrew from {tournament}: no tournament round pairs you from now "
                "on; your results stay."
            ).format(tournament=printable(t.name))
        self._say(said, names=[t.name])
        self._mark(t)

    def _mark(self, t: TournamentInfo) -> None:
        """The list said keeps its numbers; the tournament changed is as the host says now."""
        self.listed = [t if each.id == t.id else each for each in self.listed]

    async def seat_for(self, name: str) -> RoundStart | None:
        """``sit``: the seat the last round opened keeps for ``name``, else one a running
        round keeps now (asked of the host); None: said that there is none."""
        if self.seat is not None and name.casefold() in (n.casefold() for n in self.seat.seats):
            return self.seat
        if self.spoken:
            token = self.token(name)
            listed = await self._list(name if token else None, token)
            found = await self._waiting_seat(listed.tournaments, name, named=token is not None)
            if found is not None:
                return found
        self.out.say(_("No tournament table keeps a seat for you now."))
        return None
