"""The host's tournaments in the lobby: ``t``'s list (open for entry, running,
finished), each one's page (:mod:`.tournament_page`), entering, withdrawing,
creating (:mod:`.tournament_new`, when the operator allows it), and the notice
when a round opens with the player at a table (``j`` takes them to their seat,
from the lobby, the list or the page; the notice goes once they sit). An open list
or page asks again on its own (:mod:`.tournament_refresh`) and at once when a
round opens.

The lobby asks with the player's name and proof (protocol 6,
:mod:`~paris_tui.net.tournaments_wire`): that makes the lobby's connection the
one the host tells when a round seats the player. :class:`LobbyTournaments` is
the lobby's side (what was asked, what came back, where it goes);
:class:`TournamentsScreen` the list. Names are outside text: drawn through
:class:`rich.text.Text` after :func:`~paris_tui.core.printable`, never markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from paris_tui.app.look.describe import words
from paris_tui.app.screens.base import TranslatedBindings
from paris_tui.app.screens.lobby.online import LobbyPeople
from paris_tui.app.screens.lobby.tournament_refresh import REFRESH, Refresher
from paris_tui.app.screens.lobby.tournament_words import (
    format_text,
    list_state_text,
    round_start_text,
    start_text,
)
from paris_tui.core import printable
from paris_tui.i18n import N_, _
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import GetRecord, Join, Refused, Watch
from paris_tui.net.tournaments_wire import (
    TOURNAMENTS_VERSION,
    NewTournament,
    RoundStart,
    RoundTable,
    TournamentAction,
    TournamentInfo,
    TournamentList,
    TournamentPage,
    TournamentsRequest,
)
from paris_tui.wording import refusal_reason

__all__ = ["LobbyTournaments", "TournamentsLobby", "TournamentsScreen"]

# The refusals a tournament request may get (said on the tournament's screens).
REFUSALS = frozenset(
    {
        "no_such_tournament",
        "entries_closed",
        "already_entered",
        "not_entered",
        "too_few_games",
        "not_allowed",
        "bad_tournament",
    }
)
ORDER = {"open": 0, "running": 1, "finished": 2}
CHANGING = ("enter", "withdraw", "create")  # the requests that change a tournament


class TournamentsLobby(Protocol):
    """What the tournaments need of the lobby screen."""

    @property
    def player(self) -> str | None: ...
    @property
    def client(self) -> HostClient: ...
    @property
    def app(self) -> App[Any]: ...
    @property
    def ended(self) -> str | None: ...
    @property
    def done(self) -> bool: ...

    def token(self) -> str | None: ...

    def say(self, message: str | Text, *, problem: bool = False) -> None: ...

    def notify(
        self, message: str, *, title: str = "", markup: bool = True, timeout: float | None = None
    ) -> None: ...

    def refresh_bindings(self) -> None: ...

    def show_you(self) -> None: ...

    @property
    def people(self) -> LobbyPeople: ...


class LobbyTournaments:
    """The lobby's side of the tournaments (see the module's doc)."""

    def __init__(self, lobby: TournamentsLobby) -> None:
        self.lobby = lobby
        self.listed: TournamentList | None = None  # the host's last list
        self.seat: RoundStart | None = None  # a round that seats the player, not gone to
        self.noticed = False  # the round's notice (a toast) is up
        self.every = REFRESH  # an open list or page asks again this often (seconds)
        self._asked: TournamentAction | None = None  # a request whose refusal is ours

    # --- asking -----------------------------------------------------------------------

    @property
    def spoken(self) -> bool:
        """Whether the host speaks the tournaments' protocol."""
        welcome = self.lobby.client.welcome
        return welcome is not None and welcome.protocol >= TOURNAMENTS_VERSION

    @property
    def shown(self) -> bool:
        """Whether ``t`` is worth a place in the footer: the host has tournaments, or
        lets the player create one."""
        listed = self.listed
        return listed is not None and (bool(listed.tournaments) or listed.can_create)

    def allows(self, action: str) -> bool:
        """Whether the lobby's key for ``action`` is on: ``t`` (``list``) once there is
        something to list, ``j`` (``seat``) once a round seated the player."""
        return self.shown if action == "list" else self.seat is not None

    def open_player(self, name: str) -> None:
        self.lobby.people.open_player(name)

    def _send(self, action: TournamentAction, tournament: int | None = None, **more: Any) -> bool:
        lobby = self.lobby
        if lobby.ended is not None or lobby.done or not self.spoken:
            return False
        name = lobby.player
        token = lobby.token() if name is not None else None
        if token is None and action in ("list", "show"):
            name = None  # not proven yet: asked as nobody (nothing to listen as)
        if action not in ("list", "show") or self._asked not in CHANGING:
            self._asked = action  # (an ask again does not hide a change's refusal to come)
        lobby.client.send(TournamentsRequest(action, tournament, name, token, **more))
        return True

    def ask(self) -> None:
        """The list again (and, as the player, the host's word when a round seats them)."""
        self._send("list")

    def show(self, tournament: int) -> None:
        from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen

        self.lobby.app.push_screen(TournamentPageScreen(self, tournament, every=self.every))
        self._send("show", tournament)

    def again(self, tournament: int) -> None:
        """A page's tournament again (an open page asks every so often)."""
        self._send("show", tournament)

    def enter(self, tournament: int) -> None:
        if self._need_name():
            self._send("enter", tournament)

    def withdraw(self, tournament: int) -> None:
        if self._need_name():
            self._send("withdraw", tournament)

    def create(self, new: NewTournament) -> None:
        if self._need_name():
            self._send("create", create=new)

    def _need_name(self) -> bool:
        if self.lobby.player is None:
            self._tell(_("Type your name in the lobby first."), problem=True)
            return False
        if self.lobby.token() is None:
            self._tell(
                _(
                    "Tournaments are for accounts: sit at a table here once, or link this "
                    "terminal with a code (a in the lobby)."
                ),
                problem=True,
            )
            return False
        return True

    def open(self) -> None:
        """``t``: the list (asked again now)."""
        if not self.spoken:
            self.lobby.say(_("This host has no tournaments (an older version)."))
            return
        self.lobby.app.push_screen(TournamentsScreen(self))
        self.ask()

    def open_table(self, table: RoundTable, running: bool) -> None:
        """A round's table: your seat there, else watch it while it runs, else replay it."""
        lobby = self.lobby
        if table.table is None:
            self._tell(_("That table has not opened yet."), problem=True)
            return
        if lobby.ended is not None or lobby.done:
            return
        me = (lobby.player or "").casefold()
        if table.places is None and running and me and me in (s.casefold() for s in table.seats):
            lobby.client.send(Join(lobby.player or "", lobby.token(), table.table))
        elif table.places is None:
            lobby.client.send(Watch(table.table))
        else:
            lobby.client.send(GetRecord(table.table))  # the lobby replays it when it comes
        self._tell(_("Asking the host for table {table}…").format(table=table.table))

    def to_seat(self) -> None:
        """``j``: the seat a round opened for the player."""
        seat, lobby = self.seat, self.lobby
        if seat is None:
            self._tell(_("No tournament round has given you a seat yet."), problem=True)
            return
        if lobby.player is None or lobby.ended is not None or lobby.done:
            return
        self._tell(_("Taking your seat at table {table}…").format(table=seat.table))
        lobby.client.send(Join(lobby.player, lobby.token(), seat.table))

    def settled(self) -> None:
        """The player sits (or watches): the round's notice, which says ``j`` takes them
        there, is not carried onto the game (the lobby's toasts go with the lobby)."""
        self.seat = None
        if self.noticed:
            self.noticed = False
            self.lobby.app.clear_notifications()

    # --- what the host says -----------------------------------------------------------

    def heard(self, message: TournamentList | TournamentPage | RoundStart) -> None:
        match message:
            case TournamentList():
                was = self.shown
                self.listed = message
                for screen in self._screens(TournamentsScreen):
                    screen.show(message)
                if was != self.shown:
                    self.lobby.show_you()  # t beside "You are ..."
                    self.lobby.refresh_bindings()
            case TournamentPage():
                from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen

                for page in self._screens(TournamentPageScreen):
                    if page.tournament == message.tournament.id or message.done == "created":
                        page.show(message)
                if message.done is not None:
                    self._asked = None  # done: no refusal of it to come
                    self.ask()  # the list's counts and marks changed
            case RoundStart():
                self.seat = message
                said = round_start_text(message, self.lobby.player)
                self.lobby.notify(said.plain, title=_("Tournament"), markup=False, timeout=30)
                self.noticed = True
                self.lobby.say(said, problem=True)  # kept: the tables' next list says no other
                self.lobby.refresh_bindings()  # j in the footer
                self._round_opened(message)

    def _round_opened(self, start: RoundStart) -> None:
        """An open list, and an open page of that tournament, ask again; the page says
        where the player sits."""
        from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen

        pages = [p for p in self._screens(TournamentPageScreen) if p.tournament == start.tournament]
        for page in pages:
            page.seated(start)
        if pages:
            self.again(start.tournament)
        if self._screens(TournamentsScreen):
            self.ask()

    def refused(self, refused: Refused) -> bool:
        """A refusal of a tournament request: said on the tournament's screens (and the
        lobby's status line); ``False`` when it is not one."""
        from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen

        changing = self._asked in CHANGING
        if refused.code not in REFUSALS and not (
            changing and self._screens(TournamentsScreen, TournamentPageScreen)
        ):
            return False
        self._asked = None
        said = printable(refusal_reason(refused.code, refused.message)).rstrip(".") + "."
        self._tell(said, problem=True)
        return True

    def _tell(self, said: str, *, problem: bool = False) -> None:
        from paris_tui.app.screens.lobby.tournament_new import NewTournamentScreen
        from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen

        self.lobby.say(said, problem=problem)
        for screen in self._screens(TournamentsScreen, TournamentPageScreen, NewTournamentScreen):
            screen.say(said, problem=problem)

    def _screens(self, *kinds: type[Any]) -> list[Any]:
        return [s for s in self.lobby.app.screen_stack if isinstance(s, kinds)]


class TournamentsScreen(TranslatedBindings, ModalScreen[None]):
    """The host's tournaments: open for entry first, then running, then finished."""

    DEFAULT_CSS = """
    TournamentsScreen { align: center middle; background: $background 60%; }
    #tournaments-box {
        width: 100%; max-width: 110; height: 100%; padding: 0 1;
        border: heavy $accent; background: $panel;
    }
    #tournaments-title { text-style: bold; }
    #tournaments-grid { height: 1fr; margin-top: 1; }
    #tournaments-status { height: auto; min-height: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Open")),
        Binding("c", "create", N_("Create")),
        Binding("r", "refresh", N_("Refresh")),
        Binding("j", "seat", N_("Your seat"), show=False),  # as in the lobby
        Binding("escape,t,q", "close", N_("Close")),
    ]

    def __init__(self, owner: LobbyTournaments) -> None:
        super().__init__()
        self.owner = owner
        self.rows: list[TournamentInfo] = []
        self.refresher = Refresher(self, owner.ask, owner.every)

    def compose(self) -> ComposeResult:
        with Vertical(id="tournaments-box"):
            yield Static(Text(_("Tournaments at this host")), id="tournaments-title")
            yield Static("", id="tournaments-help")
            grid: DataTable[Text] = DataTable(id="tournaments-grid", cursor_type="row")
            yield grid
            yield Static(Text(_("Asking the host…")), id="tournaments-status")

    def on_mount(self) -> None:
        self._columns()
        self.refresher.start()
        if self.owner.listed is not None:
            self.show(self.owner.listed)

    def on_screen_resume(self) -> None:
        self.refresher.resumed()

    def _columns(self) -> None:
        """The columns, as wide as the box allows (80 columns: every one still whole)."""
        grid = self.query_one("#tournaments-grid", DataTable)
        if grid.columns:
            return
        wide = self.app.size.width >= 100
        widths = [16 if wide else 15, 20 if wide else 10, 7, 18 if wide else 16]
        room = min(self.app.size.width, 110) - 4 - 2 * (len(widths) + 1) - sum(widths)
        grid.add_column(Text(_("Tournament")), width=max(12, min(32, room)))
        grid.add_column(Text(_("Format")), width=widths[0])
        grid.add_column(Text(_("Starts")), width=widths[1])
        grid.add_column(Text(_("Players")), width=widths[2])
        grid.add_column(Text(_("State")), width=widths[3])

    def show(self, listed: TournamentList) -> None:
        """The host's list, open ones first; the cursor stays on the tournament it was on."""
        if not self.query("#tournaments-grid"):
            return  # not composed yet: on_mount draws the owner's list
        self._columns()  # (the answer may come before the screen is mounted)
        grid = self.query_one("#tournaments-grid", DataTable)
        was = self.current()
        self.rows = sorted(listed.tournaments, key=lambda t: (ORDER.get(t.state, 3), t.start, t.id))
        self.refresher.starts(t.start for t in self.rows if t.state == "open")
        grid.clear()
        wide = self.app.size.width >= 100
        for t in self.rows:
            name = Text(printable(t.name), style="bold" if t.entered else "")
            kind = f"{format_text(t.format)}, {t.players}"
            start = start_text(t.start) if wide else start_text(t.start)[:10]
            state = Text(list_state_text(t))
            grid.add_row(name, Text(kind), Text(start), Text(str(t.entrants)), state)
        if was is not None:
            ids = [t.id for t in self.rows]
            if was.id in ids:
                grid.move_cursor(row=ids.index(was.id), animate=False)
        keys = [_("Enter opens a tournament's page"), _("Esc goes back")]
        if listed.can_create:
            keys.insert(1, _("c creates one"))
        self.query_one("#tournaments-help", Static).update(Text(", ".join(keys) + "."))
        if not self.rows:
            said = _("No tournament here yet.")
            if listed.can_create:
                said += " " + _("c creates one.")
            self.say(said)
        else:
            self.say(
                words(
                    _("Format: players a table. Yours in {bold}."),
                    bold=Text(_("bold"), style="bold"),
                )
            )
        grid.focus()

    def say(self, said: str | Text, *, problem: bool = False) -> None:
        text = Text(said) if isinstance(said, str) else said
        if problem:
            text.stylize("bold")
        self.query_one("#tournaments-status", Static).update(text)

    def current(self) -> TournamentInfo | None:
        grid = self.query_one("#tournaments-grid", DataTable)
        if 0 <= grid.cursor_row < len(self.rows):
            return self.rows[grid.cursor_row]
        return None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        t = self.current()
        if t is not None:
            self.owner.show(t.id)

    def action_create(self) -> None:
        from paris_tui.app.screens.lobby.tournament_new import NewTournamentScreen

        listed = self.owner.listed
        if listed is None or not listed.can_create:
            self.say(_("This host's operator has not let you create tournaments."), problem=True)
            return
        create: Callable[[NewTournament | None], None] = self._created
        self.app.push_screen(NewTournamentScreen(), create)

    def _created(self, new: NewTournament | None) -> None:
        if new is not None:
            from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen

            self.app.push_screen(TournamentPageScreen(self.owner, None, every=self.owner.every))
            self.owner.create(new)

    def action_refresh(self) -> None:
        self.owner.ask()

    def action_seat(self) -> None:
        self.owner.to_seat()

    def action_close(self) -> None:
        self.dismiss(None)
