"""Who is online, in the lobby: a line under "You are ..." (friends first), the
invitations waiting for the player, and ``o``'s list (:class:`WhoScreen`), where
Enter opens a player's page.

The host sends the accounts at it now with each table list
(:class:`~paris_tui.net.protocol.Tables`'s ``online``); which of them are the
player's friends is the friends' answer (:class:`~paris_tui.net.protocol.FriendsInfo`).
An invitation is a waiting table's free seat kept for the player's name
(:class:`~paris_tui.net.protocol.SeatInfo` ``free`` with a ``name``). Names are
outside text: drawn as :class:`rich.text.Text` after
:func:`~paris_tui.core.printable`, never as markup; measured in cells.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, ClassVar, Protocol

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from paris_tui.app.look.describe import words
from paris_tui.app.online.friends import LobbyFriends
from paris_tui.app.screens.base import TranslatedBindings
from paris_tui.app.screens.finished_games import FinishedGamesScreen
from paris_tui.app.screens.leaderboard import rated_text
from paris_tui.app.screens.player_page import PlayerScreen
from paris_tui.core import printable
from paris_tui.i18n import N_, _, ngettext
from paris_tui.net.client import HostClient
from paris_tui.net.games_wire import GAMES_VERSION
from paris_tui.net.protocol import Games, GetRecord, ListGames, Online, TableInfo
from paris_tui.net.ratings_wire import is_provisional

__all__ = [
    "LobbyPeople",
    "PeopleLobby",
    "WhoScreen",
    "friends_first",
    "invitations",
    "invitations_text",
    "online_text",
]


class PeopleLobby(Protocol):
    """What the lobby's people need of the lobby screen."""

    @property
    def player(self) -> str | None: ...
    @property
    def friends(self) -> LobbyFriends: ...
    @property
    def tables(self) -> tuple[TableInfo, ...]: ...
    @property
    def client(self) -> HostClient: ...
    @property
    def app(self) -> App[Any]: ...

    @property
    def ended(self) -> str | None: ...
    @property
    def done(self) -> bool: ...

    def query_one(self, selector: str, expect_type: type[Static]) -> Static: ...

    def say(self, message: str, *, problem: bool = False) -> None: ...


class LobbyPeople:
    """The lobby's side of who is online, invitations and players' pages: the lines
    ``#lobby-online`` and ``#lobby-invites`` of the lobby, ``o``'s list, and a page."""

    def __init__(self, lobby: PeopleLobby) -> None:
        self.lobby = lobby
        self.online: tuple[Online, ...] = ()  # as the host last told
        self.told: set[str] = set()  # the tables whose invitation the status line said

    def friend_names(self) -> tuple[str, ...]:
        info = self.lobby.friends.info
        return () if info is None else tuple(name for name, _here in info.friends)

    def heard(self, online: tuple[Online, ...]) -> None:
        if online != self.online:
            self.online = online
            self.show()

    def show(self) -> None:
        """Who is online (once the host said anyone is) and the invitations for you."""
        lobby = self.lobby
        line = lobby.query_one("#lobby-online", Static)
        line.display = bool(self.online)
        if self.online:
            width = max(20, lobby.app.size.width - 2)
            line.update(online_text(self.online, self.friend_names(), lobby.player, width))
        invites = lobby.query_one("#lobby-invites", Static)
        said = invitations_text(lobby.tables, lobby.player)
        invites.display = said is not None
        invites.update(said or "")
        fresh = [t for t in invitations(lobby.tables, lobby.player) if t.table not in self.told]
        told = invitations_text(fresh, lobby.player)
        if told is not None:  # a new one: said once in the status line too
            self.told.update(t.table for t in fresh)
            lobby.say(told.plain)

    def who(self) -> None:
        """Who is online, friends first (:class:`WhoScreen`)."""
        self.lobby.app.push_screen(WhoScreen(self.online, self.friend_names(), self.open_player))

    def _can_send(self) -> bool:
        lobby = self.lobby
        if lobby.ended is not None:
            lobby.say(_("{problem} Press q to quit.").format(problem=lobby.ended), problem=True)
            return False
        return not lobby.done

    def _can_list_games(self) -> bool:
        """Whether the host lists its finished games (said when not) and we may ask."""
        welcome = self.lobby.client.welcome
        if welcome is None or welcome.protocol < GAMES_VERSION:
            self.lobby.say(_("This host cannot list its finished games (an older version)."))
            return False
        return self._can_send()

    def _ask(self, player: str | None) -> None:
        if self._can_send():
            self.lobby.client.send(ListGames(player))

    def open_game(self, table: str) -> None:
        """Ask the host for a finished game's record (the lobby opens it in the replay
        viewer when it comes)."""
        if self._can_send():
            self.lobby.client.send(GetRecord(table))

    def finished_games(self) -> None:
        """The host's finished games (:class:`FinishedGamesScreen`), yours first."""
        if self._can_list_games():
            screen = FinishedGamesScreen(self.lobby.player, self.open_game, self._ask)
            self.lobby.app.push_screen(screen)
            self.lobby.client.send(ListGames())

    def open_player(self, name: str) -> None:
        """``name``'s page (:class:`PlayerScreen`), filled when the host answers."""
        if self._can_list_games():
            self.lobby.app.push_screen(PlayerScreen(name, self.open_game))
            self.lobby.client.send(ListGames(name))

    def games(self, answer: Games) -> None:
        """The host's finished games: to the list and to each page open (a page
        keeps its player's)."""
        for screen in self.lobby.app.screen_stack:
            if isinstance(screen, FinishedGamesScreen | PlayerScreen):
                screen.show(answer.games)


def friends_first(online: Sequence[Online], friends: Collection[str]) -> list[Online]:
    """The friends online first, then the others; by name in each."""
    keys = {f.casefold() for f in friends}
    return sorted(online, key=lambda o: (o.name.casefold() not in keys, o.name.casefold()))


def online_text(
    online: Sequence[Online], friends: Collection[str], me: str | None, width: int = 76
) -> Text:
    """``Online (3): ★ bob, cy (playing), dee   o lists them``, cut to ``width`` cells
    with how many more."""
    keys = {f.casefold() for f in friends}
    others = [o for o in friends_first(online, friends) if me is None or o.name != me]
    head = Text(
        ngettext("Online ({n}): ", "Online ({n}): ", len(others)).format(n=len(others)),
        style="bold",
    )
    if not others:
        head.append(_("nobody else"), style="dim")
        return head
    tail = Text("  ")
    tail.append_text(words(_("{key} who is online"), key=Text("o", style="bold")))
    out = head.copy()
    for i, who in enumerate(others):
        part = Text(", " if i else "")
        if who.name.casefold() in keys:
            part.append("★ ", style="yellow")
        part.append(printable(who.name), style="bold" if who.name.casefold() in keys else "")
        if who.playing:
            part.append(" " + _("(playing)"), style="dim")
        more = Text(" " + _("+{n} more").format(n=len(others) - i - 1), style="dim")
        room = width - cell_len(tail.plain) - (cell_len(more.plain) if i < len(others) - 1 else 0)
        if cell_len(out.plain) + cell_len(part.plain) > room:
            out.append(" " + _("+{n} more").format(n=len(others) - i), style="dim")
            break
        out.append_text(part)
    out.append_text(tail)
    return out


def invitations(tables: Sequence[TableInfo], me: str | None) -> list[TableInfo]:
    """The waiting tables with a free seat kept for ``me``."""
    if me is None:
        return []
    key = me.casefold()
    return [
        t
        for t in tables
        if t.waiting and any(s.status == "free" and s.name.casefold() == key for s in t.seats)
    ]


def invitations_text(tables: Sequence[TableInfo], me: str | None) -> Text | None:
    """``ann invites you to table t3: Enter on it takes your seat.`` (one per table)."""
    found = invitations(tables, me)
    if not found:
        return None
    lines = []
    for info in found:
        hosts = [s.name for s in info.seats if s.status == "present"]
        who = Text(printable(hosts[0]) if hosts else "?", style="bold")
        line = words(
            _("{name} invites you to table {table}: Enter on it takes your seat."),
            name=who,
            table=Text(info.table, style="bold"),
        )
        lines.append(line)
    out = Text("\n").join(lines)
    out.stylize("green")
    return out


class WhoScreen(TranslatedBindings, ModalScreen[None]):
    """Who is online, friends first; Enter opens the player's page (``open_player``)."""

    DEFAULT_CSS = """
    WhoScreen { align: center middle; background: $background 60%; }
    #who-box {
        width: 64; height: auto; max-height: 90%; padding: 1 2;
        border: heavy $accent; background: $panel;
    }
    #who-box > Static { margin-bottom: 1; }
    #who-grid { height: auto; max-height: 16; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "player", N_("Player's page")),
        Binding("escape,o,q", "close", N_("Close")),
    ]

    def __init__(
        self,
        online: Sequence[Online],
        friends: Collection[str],
        open_player: Callable[[str], None],
    ) -> None:
        super().__init__()
        self.rows = friends_first(online, friends)
        self.friends = {f.casefold() for f in friends}
        self.open_player = open_player

    def compose(self) -> ComposeResult:
        with Vertical(id="who-box"):
            yield Static(Text(_("Who is online at this host"), style="bold"))
            if not self.rows:
                yield Static(Text(_("Nobody with an account is here now.")), id="who-empty")
                return
            yield Static(
                Text(_("Friends first (★). Enter shows a player's page, Esc goes back.")),
                id="who-help",
            )
            grid: DataTable[Text] = DataTable(id="who-grid", cursor_type="row")
            grid.add_column(Text(_("Player")), width=26)
            grid.add_column(Text(_("Where")), width=14)
            grid.add_column(Text(_("Rating")), width=8)
            for who in self.rows:
                name = Text()
                if who.name.casefold() in self.friends:
                    name.append("★ ", style="yellow")
                name.append(printable(who.name))
                where = _("at a table") if who.playing else _("in the lobby")
                rating = (
                    Text("")
                    if who.rating is None
                    else Text(rated_text(who.rating, is_provisional(who.games)))
                )
                grid.add_row(name, Text(where), rating)
            yield grid

    def action_player(self) -> None:
        grid = next(self.query("#who-grid").results(DataTable), None)
        if grid is not None and 0 <= grid.cursor_row < len(self.rows):
            self.open_player(self.rows[grid.cursor_row].name)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_player()

    def action_close(self) -> None:
        self.dismiss(None)
