"""A tournament's page, from the lobby's tournaments list (Enter): what it is, its
entrants, its standings with their tie-breaks, and each round's tables.

Keys: ``e`` enters (the host says why not: its rules, the rated games it asks
for), ``w`` withdraws (asked twice: the player's results stay, they are not paired
again), Enter on a round's table goes to your seat there, watches it while it
runs, or replays it once it is over; Enter on a standing opens the player's page;
Tab moves between the standings and the rounds; ``j`` takes the seat a round just
gave you (as in the lobby); Esc goes back to the list.

The page asks the host again while it is open (:mod:`.tournament_refresh`), and at
once when a round of its tournament seats the player: it then says where, with the
player's table under the cursor (Enter, or ``j``, takes them there).

The standings are the host's (:mod:`paris_tui.host.tournaments.standings`):
points by place, then at two a table Buchholz and Sonneborn-Berger, at three
and four the sum of places first (docs/tournaments.md). Names are outside text:
drawn through :class:`rich.text.Text` after :func:`~paris_tui.core.printable`.
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from paris_tui.app.screens.base import TranslatedBindings
from paris_tui.app.screens.lobby.tournament_refresh import REFRESH, Refresher
from paris_tui.app.screens.lobby.tournament_words import (
    entrants_text,
    kind_text,
    points_text,
    round_start_text,
    start_text,
    state_text,
)
from paris_tui.core import printable
from paris_tui.i18n import N_, _
from paris_tui.net.tournaments_wire import RoundStart, RoundTable, TournamentPage

__all__ = ["PageOwner", "TournamentPageScreen", "table_text"]


class _Player(Protocol):
    @property
    def player(self) -> str | None: ...


class PageOwner(Protocol):
    """What a page needs of the lobby's tournaments
    (:class:`~paris_tui.app.screens.lobby.tournaments.LobbyTournaments`)."""

    @property
    def lobby(self) -> _Player: ...

    def enter(self, tournament: int) -> None: ...

    def withdraw(self, tournament: int) -> None: ...

    def open_table(self, table: RoundTable, running: bool) -> None: ...

    def open_player(self, name: str) -> None: ...

    def again(self, tournament: int) -> None: ...

    def to_seat(self) -> None: ...


def table_text(table: RoundTable, me: str | None) -> Text:
    """``ann 1, bob 2`` (places once it is over), yours in bold."""
    out = Text()
    key = (me or "").casefold()
    for i, name in enumerate(table.seats):
        if i:
            out.append(", ")
        out.append(printable(name), style="bold" if name.casefold() == key else "")
        if table.places is not None and i < len(table.places):
            out.append(f" {table.places[i]}", style="dim")
    return out


class TournamentPageScreen(TranslatedBindings, ModalScreen[None]):
    """One tournament's page (see the module's doc); ``tournament`` ``None``: the one
    being created (filled when the host answers)."""

    DEFAULT_CSS = """
    TournamentPageScreen { align: center middle; background: $background 60%; }
    #tpage-box {
        width: 100%; max-width: 110; height: 100%; padding: 0 1;
        border: heavy $accent; background: $panel;
    }
    #tpage-title { text-style: bold; }
    #tpage-standings { height: 1fr; min-height: 4; margin-top: 1; }
    #tpage-rounds-title { margin-top: 1; }
    #tpage-rounds { height: 1fr; min-height: 4; }
    #tpage-status { height: auto; min-height: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Open")),
        Binding("e", "enter", N_("Enter the tournament")),
        Binding("w", "withdraw", N_("Withdraw")),
        Binding("j", "seat", N_("Your seat"), show=False),  # as in the lobby
        Binding("escape,q", "close", N_("Back")),
    ]

    def __init__(self, owner: PageOwner, tournament: int | None, *, every: float = REFRESH) -> None:
        """``every``: asked again this often (seconds) while it is open."""
        super().__init__()
        self.owner = owner
        self.tournament = tournament
        self.page: TournamentPage | None = None
        self.tables: list[tuple[int, RoundTable | None, str]] = []  # rounds' rows
        self._withdrawing = False  # w pressed once: the next w withdraws
        self._seat: RoundStart | None = None  # a round just seated the player: its table
        self.refresher = Refresher(self, self._again, every)

    def compose(self) -> ComposeResult:
        with Vertical(id="tpage-box"):
            yield Static(Text(_("Asking the host…")), id="tpage-title")
            yield Static("", id="tpage-about")
            yield Static("", id="tpage-entrants")
            standings: DataTable[Text] = DataTable(id="tpage-standings", cursor_type="row")
            yield standings
            yield Static("", id="tpage-rounds-title")
            rounds: DataTable[Text] = DataTable(id="tpage-rounds", cursor_type="row")
            yield rounds
            yield Static("", id="tpage-status")
            yield Static("", id="tpage-help")

    def on_mount(self) -> None:
        self._help()
        self.refresher.start()
        if self.page is not None:  # the host answered before the page was drawn
            self.show(self.page)

    def on_screen_resume(self) -> None:
        self.refresher.resumed()

    def _again(self) -> None:
        if self.tournament is not None:
            self.owner.again(self.tournament)

    def seated(self, start: RoundStart) -> None:
        """A round of this tournament seats the player: said at once; the host's page,
        asked again, then shows the round with their table under the cursor."""
        self._seat = start
        if self.query("#tpage-status"):
            self.say(round_start_text(start, self.me), problem=True)

    @property
    def me(self) -> str | None:
        return self.owner.lobby.player

    def _help(self) -> None:
        keys = [_("Enter on a table: your seat, watch or replay"), _("Tab switches lists")]
        page = self.page
        if page is not None and page.tournament.state in ("open", "running"):
            keys.append(_("w withdraws") if page.tournament.entered else _("e enters"))
        keys.append(_("Esc goes back"))
        self.query_one("#tpage-help", Static).update(Text(", ".join(keys) + ".", style="dim"))

    def show(self, page: TournamentPage) -> None:
        """The host's page (after ``e``, ``w`` or creating: with what was done)."""
        self.page = page
        t = page.tournament
        self.tournament = t.id
        if not self.query("#tpage-rounds"):
            return  # not composed yet: on_mount draws it
        self.query_one("#tpage-title", Static).update(Text(printable(t.name), style="bold"))
        about = Text(kind_text(t) + ".\n")
        about.append(state_text(t).capitalize() + ".", style="bold")
        when = start_text(t.start)
        if t.state == "open":
            about.append(" " + _("Starts {when}.").format(when=when))
        else:
            about.append(" " + _("Started {when}.").format(when=when))
        self.query_one("#tpage-about", Static).update(about)
        width = max(20, self.app.size.width - 6)
        self.query_one("#tpage-entrants", Static).update(entrants_text(page.entrants, width))
        self._standings(page)
        self._rounds(page)
        self._help()
        self.refresher.starts([t.start] if t.state == "open" else [])
        done = {
            "entered": _("You entered {name}. The host tells you here when a round seats you."),
            "withdrawn": _(
                "You withdrew from {name}: your results stay, you are not paired again."
            ),
            "created": _("You created {name}: it is open for entry."),
        }
        if page.done is not None:
            self.say(done[page.done].format(name=printable(t.name)))
        self._withdrawing = False

    def _standings(self, page: TournamentPage) -> None:
        grid = self.query_one("#tpage-standings", DataTable)
        grid.clear(columns=True)
        many = page.tournament.players > 2
        grid.add_column(Text("#"), width=3)
        grid.add_column(Text(_("Player")), width=20)
        grid.add_column(Text(_("Points")), width=6)
        if many:
            grid.add_column(Text(_("Places")), width=6)
        grid.add_column(Text(_("Buchholz")), width=8)
        grid.add_column(Text(_("Sonneborn-Berger")), width=16)
        key = (self.me or "").casefold()
        for row in page.standings:
            name = Text(printable(row.name), style="bold" if row.name.casefold() == key else "")
            if row.withdrawn:
                name.append(" " + _("(withdrawn)"), style="dim")
            cells = [Text(str(row.rank)), name, Text(points_text(row.points))]
            if many:
                cells.append(Text(points_text(row.place_sum)))
            cells += [Text(points_text(row.buchholz)), Text(points_text(row.sonneborn_berger))]
            grid.add_row(*cells)

    def _rounds(self, page: TournamentPage) -> None:
        title = Text(_("Tournament rounds and their tables"), style="bold")
        self.query_one("#tpage-rounds-title", Static).update(title)
        grid = self.query_one("#tpage-rounds", DataTable)
        grid.clear(columns=True)
        grid.add_column(Text("#"), width=3)  # the tournament round (the header's line says)
        grid.add_column(Text(_("Table")), width=6)
        grid.add_column(Text(_("Players and places")), width=40)
        grid.add_column(Text(_("State")), width=12)
        self.tables = []
        for rnd in page.rounds:
            for table in rnd.tables:
                if table.places is not None:
                    state = _("over")
                elif table.table is None:
                    state = _("not open yet")
                else:
                    state = _("playing")
                self.tables.append((rnd.number, table, state))
                grid.add_row(
                    Text(str(rnd.number)),
                    Text(table.table or "-"),
                    table_text(table, self.me),
                    Text(state),
                )
            if rnd.byes:
                byes = Text(_("bye: "), style="dim")
                byes.append(", ".join(printable(n) for n in rnd.byes))
                self.tables.append((rnd.number, None, ""))
                grid.add_row(Text(str(rnd.number)), Text(""), byes, Text(""))
        current = [i for i, (n, _t, _s) in enumerate(self.tables) if n == len(page.rounds)]
        seat = self._seat
        mine = [i for i in current if self._yours(self.tables[i][1])]
        if mine:  # your table of the round under way under the cursor
            grid.move_cursor(row=mine[0], animate=False)
            if seat is not None:  # just seated: Enter takes you there
                self._seat = None
                grid.focus()
        elif current:  # the round under way (or the last one) in sight
            grid.move_cursor(row=current[0], animate=False)

    def _yours(self, table: RoundTable | None) -> bool:
        """A table still played at which the player sits (the one a round just gave)."""
        if table is None or table.places is not None:
            return False
        if self._seat is not None:
            return table.table == self._seat.table
        key = (self.me or "").casefold()
        return bool(key) and key in (n.casefold() for n in table.seats)

    def say(self, said: str | Text, *, problem: bool = False) -> None:
        text = Text(said) if isinstance(said, str) else said
        if problem:
            text.stylize("bold")
        self.query_one("#tpage-status", Static).update(text)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.data_table.id == "tpage-standings":
            page = self.page
            if page is not None and 0 <= event.cursor_row < len(page.standings):
                self.owner.open_player(page.standings[event.cursor_row].name)
            return
        self._open_table(event.cursor_row)

    def action_open(self) -> None:
        focused = self.focused
        if isinstance(focused, DataTable):
            focused.action_select_cursor()

    def _open_table(self, row: int) -> None:
        if not 0 <= row < len(self.tables) or self.page is None:
            return
        _number, table, _state = self.tables[row]
        if table is not None:
            self.owner.open_table(table, self.page.tournament.state == "running")

    def action_seat(self) -> None:
        self.owner.to_seat()

    def action_enter(self) -> None:
        if self.tournament is None:
            return
        self.say(_("Entering…"))
        self.owner.enter(self.tournament)

    def action_withdraw(self) -> None:
        page = self.page
        if page is None or self.tournament is None:
            return
        if not page.tournament.entered:
            self.say(_("You are not in this tournament."), problem=True)
            return
        if not self._withdrawing:
            self._withdrawing = True
            self.say(
                _(
                    "Withdraw from {name}? Press w again to confirm: you are not paired "
                    "again, your results stay."
                ).format(name=printable(page.tournament.name)),
                problem=True,
            )
            return
        self._withdrawing = False
        self.say(_("Withdrawing…"))
        self.owner.withdraw(self.tournament)

    def action_close(self) -> None:
        self.dismiss(None)
