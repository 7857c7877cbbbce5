"""The lobby: a player with no seat lists the host's tables, sits, watches or opens one.

``paris-tui join`` shows it when no ``--name`` is given or the host has no
seat for the name. It speaks to the host through the connection it is given
(:class:`~paris_tui.net.client.HostClient`, after ``welcome``), held by a
:class:`~paris_tui.app.screens.lobby.host_link.HostLink`: one reading task
turns what the host sends into the screen, and the table list is asked for
again every :data:`~paris_tui.app.screens.lobby.host_link.POLL` seconds
(:class:`~paris_tui.app.screens.lobby.tables.TablesGrid` draws it). The screen
dismisses with the host's :class:`~paris_tui.net.protocol.Seated` (the player sits:
the game screen takes the connection over from the very next line),
:class:`~paris_tui.net.protocol.Watching`, or ``None`` (quit).

Keys: ``Enter`` on a table sits there (at a free seat, or at the seat
reserved for your name) or else watches it; ``w`` watches; ``n`` opens a
new table (:class:`~paris_tui.app.screens.lobby.new_table.NewTableScreen`: seats
as you, open or AI, and the rule variants); ``p`` plays now (quick match: how
many players, then a seat at the fullest table of that size waiting for players,
or a new one:
:mod:`~paris_tui.app.screens.quick_match`); ``a`` is your Account on the
host (a link code for another door, or one typed here:
:class:`~paris_tui.app.screens.account.AccountScreen`);
``g`` lists the host's finished games, yours first, and opens one in the
replay viewer (:mod:`~paris_tui.app.screens.finished_games`); ``l`` shows the
host's leaderboard (:mod:`~paris_tui.app.screens.leaderboard`; each seat's
rating is beside its name too; Enter on a row opens a player's page:
:mod:`~paris_tui.app.screens.player_page`); ``o`` lists who is online, friends
first (the line under "You are ..." names them: :mod:`.online`); ``t`` lists the
host's tournaments and opens their pages, and ``j`` takes the seat a tournament's
round just gave you (:mod:`.tournaments`); ``Esc`` leaves a table you wait at;
``q`` quits. A seat a table keeps for your name (an
invitation: the new-table form invites a friend) is said above the tables.
The tables waiting for your move (turn-based tables) come first, the
longest-waiting at the top, marked "your move"
(:func:`~paris_tui.net.turns.tables_in_order`).

Everything the host sends (names, messages) is outside text: it is drawn
through :class:`rich.text.Text` after :func:`~paris_tui.core.printable`,
never as markup; names the player types pass the core's rule as they are
typed (:class:`~paris_tui.app.screens.new_game.NameInput`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import ClassVar

from msgspec import structs
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Label, Static

from paris_tui.app.look.describe import words
from paris_tui.app.online.friends import LobbyFriends
from paris_tui.app.online.turns_view import waiting_line
from paris_tui.app.screens.base import ParisScreen
from paris_tui.app.screens.finished_games import HostReplayScreen
from paris_tui.app.screens.leaderboard import LeaderboardScreen
from paris_tui.app.screens.lobby.host_link import POLL, POLL_AWAY, HostLink
from paris_tui.app.screens.lobby.new_table import NewTableScreen
from paris_tui.app.screens.lobby.online import LobbyPeople
from paris_tui.app.screens.lobby.proof import Proof
from paris_tui.app.screens.lobby.tables import TablesGrid, holds_seat
from paris_tui.app.screens.lobby.tournaments import LobbyTournaments
from paris_tui.app.widgets.fields import NameInput
from paris_tui.app.widgets.footer import KeysFooter
from paris_tui.core import MAX_NAME_CELLS, InvalidNameError, RecordError, normalize_name, printable
from paris_tui.core.record import parse_record
from paris_tui.i18n import N_, _, ngettext
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.games_wire import GAMES_VERSION
from paris_tui.net.protocol import (
    FriendsInfo,
    Games,
    HostMessage,
    Join,
    Leader,
    Leave,
    Left,
    OpenTable,
    RecordSent,
    Refused,
    Seated,
    TableInfo,
    Tables,
    Waiting,
    Watch,
    Watching,
    Welcome,
)
from paris_tui.net.tournaments_wire import RoundStart, TournamentList, TournamentPage
from paris_tui.net.turns import RatingLookup, tables_in_order
from paris_tui.wording import name_problem as worded_problem
from paris_tui.wording import refusal_reason

__all__ = ["LobbyScreen"]


# What to do about an account's refusal, in the lobby: the refusal says what went wrong,
# this what the player can do about it.
_ACCOUNT_HINTS = {
    "name_taken": N_(
        "Where you are already this name, open Account for a link code; then press a "
        "here and type it."
    ),
    "bad_code": N_("Ask for a new link code and press a to type it."),
    "account_locked": N_("Ask the host's operator."),
    "unavailable": N_("The host's operator must repair its accounts; try again later."),
}


def _name_prompt() -> str:
    """What the status line asks of a player with no name yet."""
    return _("Type your name to sit at a table or open one; Tab goes to the tables, Ctrl+Q quits.")


def _you_line(player: str, welcome: Welcome | None, rated: int, tournaments: bool) -> Text:
    """``You are NAME.``, then the keys of the host's finished games and of its
    leaderboard (``rated`` players) where the host has them, and of its tournaments
    once it has one: the footer is full at 80 columns."""
    line = words(_("You are {player}."), player=Text(printable(player), style="bold"))
    if welcome is not None and welcome.protocol >= GAMES_VERSION:
        line.append("  ")
        line.append_text(words(_("{key} finished games"), key=Text("g", style="bold")))
        line.append("  ")
        if rated:
            board = ngettext(
                "{key} leaderboard ({n} rated player)",
                "{key} leaderboard ({n} rated players)",
                rated,
            )
        else:
            board = _("{key} leaderboard")
        line.append_text(words(board, key=Text("l", style="bold"), n=rated))
    if tournaments:
        line.append("  ")
        line.append_text(words(_("{key} tournaments"), key=Text("t", style="bold")))
    return line


def _waiting_words(waiting: Waiting) -> Text:
    """The seat the player waits at, and for how many more players."""
    free = sum(1 for s in waiting.seats if s.status == "free")
    said = ngettext(
        "You sit at table {table}, seat {seat}. Waiting for {n} more player: "
        "the game starts when every seat is taken. Esc leaves the table.",
        "You sit at table {table}, seat {seat}. Waiting for {n} more players: "
        "the game starts when every seat is taken. Esc leaves the table.",
        free,
    )
    return words(said, table=Text(waiting.table, style="bold"), seat=waiting.seat + 1, n=free)


def _empty_line() -> str:
    return _("No table is open on this host yet: n opens one.")


def _the_empty_line(screen: LobbyScreen) -> None:
    """The empty host's line while no table is listed; it goes once the list
    shows one: it stayed under a table opened meanwhile (here or at another host)."""
    if not screen.tables:
        if screen.ended is None and not screen._problem_shown:
            screen.say(_empty_line())
        return
    for status in screen.query("#lobby-status"):
        assert isinstance(status, Static)
        if str(status.content) == _empty_line():
            status.update("")


def _ask_again(screen: LobbyScreen) -> None:
    """A new connection (the old one dropped: its host died, say) hears nothing
    for the player until asked as them: friends' arrivals, a tournament's round."""
    screen.friends.ask()
    screen.tournaments.ask()


def _refusal_words(refused: Refused) -> str:
    """Why the host refused, in the player's language, from the code (the host's
    words are English); for an account's refusal, what to do about it."""
    if refused.code in _ACCOUNT_HINTS:
        reason = printable(refusal_reason(refused.code, refused.message)).rstrip(".")
        return f"{reason}. {_(_ACCOUNT_HINTS[refused.code])}"
    if refused.code == "seat_taken":
        why = _(
            "that name's seat is already someone's: sit under another name, or "
            "come back from the terminal or browser that took it"
        )
    else:
        why = refusal_reason(refused.code, refused.message, refused.illegal)
    return printable(why).rstrip(".") + "."


def _rating_in(
    name: str, leaderboard: Sequence[Leader], tables: Sequence[TableInfo]
) -> float | None:
    """``name``'s rating as the host last told it (the leaderboard, else a seat of a
    listed table), in points; ``None`` when the host rates nobody of that name."""
    folded = name.casefold()
    for leader in leaderboard:
        if leader.name.casefold() == folded:
            return leader.rating / 10
    for info in tables:
        for seat in info.seats:
            if seat.rating is not None and seat.name.casefold() == folded:
                return seat.rating / 10
    return None


class LobbyScreen(ParisScreen):
    """The host's tables: sit, watch, or open a new one. See the module's docstring."""

    DEFAULT_CSS = """
    LobbyScreen #lobby-title { text-style: bold; padding: 0 1; height: 1; }
    LobbyScreen #lobby-name-row { height: 1; padding: 0 1; margin-top: 1; }
    LobbyScreen #lobby-name-row Label { width: 11; }
    LobbyScreen #lobby-name-row Input { border: none; height: 1; padding: 0 1; width: 26; }
    LobbyScreen #lobby-name-row Input:focus { background: $boost; text-style: bold; }
    LobbyScreen #lobby-you { padding: 0 1; margin-top: 1; height: auto; }  /* the keys may wrap */
    LobbyScreen #lobby-online, LobbyScreen #lobby-invites { padding: 0 1; height: auto; }
    LobbyScreen #lobby-tables { height: 1fr; margin-top: 1; }
    LobbyScreen #lobby-status { padding: 0 1; height: 3; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Off the footer (it was full at 80 columns in German once "Play now" came):
        # Enter watches a table with no seat for you, and the help lists w.
        Binding("w", "watch", N_("Watch"), show=False),
        Binding("n", "new_table", N_("New table")),
        Binding("p", "play_now", N_("Play now")),
        # Beside "You are ..." once the host has tournaments; j once a round seats you.
        Binding("t", "tournament('list')", N_("Tournaments"), show=False),
        Binding("j", "tournament('seat')", N_("Your seat")),
        Binding("a", "account", N_("Account"), show=False),  # also in the palette
        # Shown beside "You are ..." once the host has rated games (the footer is full).
        Binding("l", "leaderboard", N_("Leaderboard"), show=False),
        Binding("g", "games", N_("Finished games"), show=False),
        Binding("f", "friends", N_("Friends"), show=False),  # app/online/friends.py
        Binding("o", "who", N_("Who is online"), show=False),  # said on its line (online.py)
        Binding("r", "refresh", N_("Refresh"), show=False),
        Binding("escape", "leave", N_("Leave the table")),
        Binding("q", "quit", N_("Quit")),
        Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
    ]

    def __init__(
        self,
        client: HostClient,
        name: str | None,
        *,
        poll: float = POLL,
        poll_away: float = POLL_AWAY,
        tokens: TokenStore | None = None,
        address: str | None = None,
        ticket: str | None = None,
        reconnect: Callable[[], Awaitable[HostClient]] | None = None,
        back: bool = False,
    ) -> None:
        """``tokens`` and ``address`` (the host as the token store knows it): a seat
        reserved for the player's name is joined with the token kept for it, and a
        token the host issues here is kept (as ``paris-tui join`` does).
        ``reconnect``: a new connection to the host, tried when this one drops (as a
        seated client rejoins); :attr:`client` is then the new one."""
        super().__init__()
        self.link = HostLink(client, self, reconnect)
        self.proof = Proof(tokens, address, ticket)
        self.player: str | None = None
        self.given_name = name
        self.back = back  # come back to from a table (q there): no "no seat waits" line
        self.name_problem: str | None = None
        if name is not None:
            try:
                self.player = normalize_name(name)
            except InvalidNameError as exc:
                self.name_problem = worded_problem(exc)
        self.poll_every = poll
        self.poll_away = poll_away  # while the player's terminal is in the background
        self.leaderboard: tuple[Leader, ...] = ()  # the host's best ratings (l shows them)
        self.waiting: Waiting | None = None
        self._problem_shown = False  # the status line says what went wrong: keep it
        # Quick match prefers players of a near rating: the host's, as last told.
        self.rating: RatingLookup | None = self._rating_of
        self.friends = LobbyFriends(self)  # "tell me when NAME is here"
        self.people = LobbyPeople(self)  # who is online, invitations, players' pages
        self.tournaments = LobbyTournaments(self)  # t: the host's tournaments

    @property
    def client(self) -> HostClient:
        """The connection to the host (a new one after the lobby connected again)."""
        return self.link.client

    @property
    def ended(self) -> str | None:
        """Why the connection is over, once it is."""
        return self.link.ended

    @property
    def done(self) -> bool:
        """Dismissed (or about to be): nothing more is read."""
        return self.link.done

    # --- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Paris Paris — the tables of this host")), id="lobby-title")
        if self.player is None:
            with Horizontal(id="lobby-name-row"):
                yield Label(_("Your name"), id="lobby-name-label")
                yield NameInput(
                    "",  # a given name that breaks the rule is never put in the field
                    placeholder=_("type it, then Enter"),
                    max_length=MAX_NAME_CELLS,
                    id="lobby-name",
                )
        yield Static("", id="lobby-you")
        yield Static("", id="lobby-online")
        yield Static("", id="lobby-invites")
        yield TablesGrid(id="lobby-tables")
        yield Static("", id="lobby-status")
        yield KeysFooter()

    def on_resize(self, event: events.Resize) -> None:
        # (Textual calls ParisScreen.on_resize too: each class's handler in the MRO.)
        self._fit_footer(event.size.width)

    def on_mount(self) -> None:
        # (Textual calls ParisScreen.on_mount after this one: each class's handler in the MRO.)
        self._fit_footer(self.app.size.width)
        self.show_you()
        if self.player is None:
            self.query_one("#lobby-name", Input).focus()
            if self.name_problem is None:
                said = _name_prompt()
            else:
                said = _("The name given cannot be used: {problem}. Type another one.").format(
                    problem=self.name_problem
                )
            self.say(said, problem=self.name_problem is not None)
        else:
            self.query_one("#lobby-tables", DataTable).focus()
            if self.back:
                self.say(_("Back in the lobby. Enter on a table of yours sits there again."))
            elif self.given_name is not None:
                self.say(
                    _("No seat waits for you here: sit at a free seat, watch, or open a table.")
                )
        self.link.start()
        self.friends.ask()
        self.tournaments.ask()  # as the player: the host tells this lobby when a round seats them
        self.action_refresh()
        self.link.poll(self, self.poll_every, self.poll_away)

    def language_changed(self) -> None:
        """The lobby in the current language: title, name field, columns, tables, status."""
        for title in self.query("#lobby-title").results(Static):
            title.update(Text(_("Paris Paris — the tables of this host")))
        for label in self.query("#lobby-name-label").results(Label):
            label.update(_("Your name"))
        for field in self.query("#lobby-name").results(Input):
            field.placeholder = _("type it, then Enter")
        self.show_you()
        self.query_one("#lobby-tables", TablesGrid).name_columns()
        self._draw_tables()
        if self.waiting is not None:
            self._show_waiting()
        elif self.ended is None and not self._problem_shown:
            if self.player is None:
                self.say(_name_prompt())
            else:
                self.say(_("Enter sits at a table (or watches it), n opens a new one."))

    def on_unmount(self) -> None:
        self.link.stop()

    def say(self, message: str | Text, *, problem: bool = False) -> None:
        text = Text(message) if isinstance(message, str) else message
        self._problem_shown = problem
        if problem:
            text.stylize("bold")
        for status in self.query("#lobby-status"):
            assert isinstance(status, Static)
            status.update(text)

    def show_you(self) -> None:
        you = self.query_one("#lobby-you", Static)
        you.display = self.player is not None
        if self.player is not None:
            shown = self.tournaments.shown
            you.update(_you_line(self.player, self.client.welcome, len(self.leaderboard), shown))
        self.people.show()

    # --- the name ------------------------------------------------------------------------

    def on_plain_input_refused(self, event: NameInput.Refused) -> None:
        event.stop()
        self.say(event.reason, problem=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            name = normalize_name(event.value)
        except InvalidNameError as exc:
            self.say(_("Your name: {problem}.").format(problem=worded_problem(exc)), problem=True)
            return
        self.player = name
        for row in self.query("#lobby-name-row"):
            row.remove()
        self.show_you()
        self.query_one("#lobby-tables", DataTable).focus()
        self.say(_("Enter sits at a table (or watches it), n opens a new one."))
        self._draw_tables()
        self.tournaments.ask()

    def _need_name(self) -> str | None:
        if self.player is None:
            self.say(_("Type your name first (and press Enter)."), problem=True)
            for field in self.query("#lobby-name"):
                field.focus()
        return self.player

    # --- what the host says ---------------------------------------------------------------

    def token(self) -> str | None:
        """The token kept for the player's name, else the door's ticket."""
        return self.proof.token(self.player)

    def keep_token(self, token: str) -> None:
        """The host made the player's account (a friends request) and issued its token."""
        self.proof.keep(self.player, token)

    def link_settled(self, message: Seated | Watching) -> None:
        if isinstance(message, Seated) and message.token is not None:
            self.proof.keep(self.player, message.token)
        self.tournaments.settled()  # the round's notice ("j takes you there") goes
        self._finish(message)

    link_back = _ask_again

    def link_lost(self) -> None:
        if self.waiting is not None:
            self.waiting = None
            self.refresh_bindings()

    def link_heard(self, message: HostMessage) -> None:
        match message:
            case Tables():
                self.people.heard(message.online)
                if message.leaderboard != self.leaderboard:
                    self.leaderboard = message.leaderboard
                    self.show_you()
                # In the grid's order (your move first), so that the cursor's row is
                # the table it was on.
                tables = tuple(tables_in_order(message.tables, self.player))
                grid = self._grid()
                if tables != grid.tables or not grid.drawn:
                    on = grid.current()  # the table the cursor is on, before the new list
                    self._draw_tables(tables, None if on is None else on.table)
            case Games():
                self.people.games(message)  # the finished games' list, a player's page
            case RecordSent():
                self._replay(message)
            case Waiting():
                first = self.waiting is None or self.waiting.table != message.table
                self.waiting = message
                self.refresh_bindings()  # Esc leaves the table
                self._show_waiting()
                self._draw_tables(self._grid().with_seats(message.table, message.seats))
                if first:  # the cursor goes to the table you sit at
                    ids = [info.table for info in self.tables]
                    self._grid().move_cursor(row=ids.index(message.table), animate=False)
            case TournamentList() | TournamentPage() | RoundStart():
                self.tournaments.heard(message)
            case FriendsInfo():
                self.friends.heard(message)
                self.people.show()  # friends first
            case Left():
                self.waiting = None
                self.refresh_bindings()  # Esc leaves no table now
                self.say(_("You left the table."))
                self.action_refresh()
            case Refused():
                if not self.friends.refused(message) and not self.tournaments.refused(message):
                    self.say(_refusal_words(message), problem=True)
            case _:
                pass  # presence and updates belong to a table we no longer sit at

    def link_over(self, why: str) -> None:
        self.say(_("{problem} Press q to quit.").format(problem=why), problem=True)

    def _finish(self, result: Seated | Watching | None) -> None:
        self.link.stop()
        app = self.app
        while app.screen is not self and len(app.screen_stack) > 1:
            app.pop_screen()  # the new-table form, say: the game has begun
        self.dismiss(result)

    def _show_waiting(self) -> None:
        if self.waiting is not None:
            self.say(_waiting_words(self.waiting))

    # --- the list ---------------------------------------------------------------------------

    @property
    def tables(self) -> tuple[TableInfo, ...]:
        """The host's tables as listed, in the grid's order (your move first)."""
        return self._grid().tables

    def _grid(self) -> TablesGrid:
        return self.query_one("#lobby-tables", TablesGrid)

    def _draw_tables(
        self, tables: Sequence[TableInfo] | None = None, keep: str | None = None
    ) -> None:
        """The grid of ``tables`` (else of :attr:`tables` again); the cursor stays on
        table ``keep`` (else on the table it is on)."""
        grid = self._grid()
        grid.show(grid.tables if tables is None else tables, self.player, keep)
        self.people.show()  # the invitations among them
        _the_empty_line(self)
        told = waiting_line(self.tables, self.player)
        if told is not None and self.waiting is None and not self._problem_shown:
            self.say(told)

    def _current(self) -> TableInfo | None:
        return self._grid().current()

    # --- keys ---------------------------------------------------------------------------------

    def _can_send(self) -> bool:
        if self.ended is not None:
            self.say(_("{problem} Press q to quit.").format(problem=self.ended), problem=True)
            return False
        return not self.done

    def _rating_of(self, name: str) -> float | None:
        return _rating_in(name, self.leaderboard, self.tables)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave":
            return self.waiting is not None  # shown in the footer only while waiting
        if action == "play_now":  # Esc (a waiting table) or j (a tournament's) instead
            return self.waiting is None and self.tournaments.seat is None
        if action == "tournament":  # lobby/tournaments.py
            return self.tournaments.allows(str(parameters[0]))
        return True

    def action_refresh(self) -> None:
        self.link.refresh()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_sit()

    def action_sit(self) -> None:
        info = self._current()
        if info is None or not self._can_send():
            return
        waiting = self.waiting
        if info.waiting:
            if waiting is not None and waiting.table == info.table:
                self._show_waiting()
                return
            name = self._need_name()
            if name is None:
                return
            if not info.free_seats:
                self.say(
                    _("Table {table} has no free seat left.").format(table=info.table),
                    problem=True,
                )
                return
            self.say(_("Taking a seat at table {table}…").format(table=info.table))
            self.client.send(Join(name, self.token(), info.table, self.proof.take_code()))
            return
        # Your seat, also at a finished table: its end screen, where m asks for a rematch.
        if holds_seat(info, self.player) and self.player is not None:
            self.say(_("Sitting at table {table}…").format(table=info.table))
            self.client.send(Join(self.player, self.token(), info.table, self.proof.take_code()))
            return
        self.action_watch()

    def action_watch(self) -> None:
        info = self._current()
        if info is None or not self._can_send():
            return
        if info.waiting:
            self.say(
                _(
                    "Table {table} has not started: nothing to watch yet. "
                    "Enter takes one of its free seats."
                ).format(table=info.table),
                problem=True,
            )
            return
        self.say(_("Watching table {table}…").format(table=info.table))
        # A named watcher watches as that account (chat filtered by its mutes), when
        # a token or the door's ticket proves it and the host speaks protocol 4.
        token = self.token()
        welcome = self.client.welcome
        named = (
            self.player is not None
            and token is not None
            and welcome is not None
            and welcome.protocol >= 4
        )
        self.client.send(Watch(info.table, self.player, token) if named else Watch(info.table))

    def _opener(self) -> str | None:
        """The name to open a table (or find one) under, or ``None`` (said why)."""
        if not self._can_send():
            return None
        name = self._need_name()
        if name is None:
            return None
        welcome = self.client.welcome
        if welcome is not None and welcome.protocol < 2:
            self.say(_("This host cannot open a table for a client (it speaks protocol 1)."))
            return None
        return name

    def action_new_table(self) -> None:
        name = self._opener()
        if name is None:
            return

        def opened(request: OpenTable | None) -> None:
            if request is None or not self._can_send():
                return
            self.say(_("Opening a table…"))
            self.client.send(
                structs.replace(request, token=self.token(), code=self.proof.take_code())
            )

        self.app.push_screen(NewTableScreen(name, self.people.friend_names()), opened)

    def action_play_now(self) -> None:
        """Quick match: a seat at the fullest waiting table of the size asked, or a new one."""
        from paris_tui.app.screens.quick_match import QuickMatchScreen, quick_request

        name = self._opener()
        if name is None:
            return

        def chosen(size: int | None) -> None:
            if size is None or not self._can_send():
                return
            request = quick_request(self.tables, size, name, self.rating, self.token())
            self.say(_("Finding a table…"))
            self.client.send(structs.replace(request, code=self.proof.take_code()))

        self.app.push_screen(QuickMatchScreen(), chosen)

    def action_account(self) -> None:
        """This player's account on the host (:class:`AccountScreen`)."""
        from paris_tui.app.online.remote import parse_address
        from paris_tui.app.screens.account import AccountScreen

        if self.proof.address is None:
            return
        try:
            host, port = parse_address(self.proof.address)
        except ValueError:
            return

        def typed(code: str | None) -> None:
            if code:
                self.proof.code = code
                self.say(_("The code goes with your next seat or table."))

        self.app.push_screen(AccountScreen(host, port, self.player, self.token()), typed)

    def action_games(self) -> None:
        self.people.finished_games()  # yours first (lobby/online.py)

    def action_who(self) -> None:
        self.people.who()

    def _replay(self, sent: RecordSent) -> None:
        """A finished game's record from the host: in the replay viewer."""
        try:
            record = parse_record(sent.record)
        except RecordError as exc:
            self.say(
                _("The host sent a game that cannot be read: {problem}").format(
                    problem=printable(str(exc))
                ),
                problem=True,
            )
            return
        self.app.push_screen(HostReplayScreen(record, sent.table))

    def action_leaderboard(self) -> None:
        """The host's leaderboard (:class:`LeaderboardScreen`)."""
        self.app.push_screen(
            LeaderboardScreen(self.leaderboard, self.player, self.people.open_player)
        )

    def action_tournament(self, what: str) -> None:
        self.tournaments.open() if what == "list" else self.tournaments.to_seat()

    def action_friends(self) -> None:
        self.friends.open()

    def action_leave(self) -> None:
        if self.waiting is not None and self._can_send():
            self.client.send(Leave())

    def action_quit(self) -> None:
        self._finish(None)
