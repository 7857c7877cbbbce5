"""Friends in the lobby: "tell me when NAME is here".

The lobby asks the host for its player's friends once it knows who the player
is (a kept token or a door's ticket), and so listens: when a friend comes in
at any door, the host says so and the lobby shows a notice. ``f`` opens
:class:`FriendsScreen`: the list, who is here now, and a field where a name
typed and Enter adds that friend (a friend's name removes them).
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from paris_tui.app.screens.base import ParisScreen
from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.i18n import N_, _
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import FriendsInfo, FriendsRequest

__all__ = ["FriendsLobby", "FriendsScreen", "LobbyFriends", "friends_text"]


class FriendsLobby(Protocol):
    """What the friends need of the lobby they are in (the lobby screen)."""

    @property
    def client(self) -> HostClient: ...
    @property
    def player(self) -> str | None: ...
    @property
    def done(self) -> bool: ...
    @property
    def app(self) -> App[Any]: ...

    def token(self) -> str | None:
        """What proves the player to the host (a kept token, a door's ticket)."""

    def say(self, message: str, *, problem: bool = False) -> None:
        """A line in the lobby's status line."""

    def notify(self, message: str, *, title: str = "", markup: bool = True) -> None:
        """A notice (a toast)."""


def friends_text(info: FriendsInfo | None) -> Text:
    """The list as drawn: each friend's name (as text, never markup) and whether here."""
    if info is None or not info.friends:
        return Text(_("No friends yet."), style="dim")
    out = Text()
    for i, (name, here) in enumerate(info.friends):
        if i:
            out.append("\n")
        out.append(f"{'●' if here else '○'} ", style="green" if here else "dim")
        out.append(name, style="bold" if here else "")
        out.append("  ")
        out.append(_("here") if here else _("away"), style="" if here else "dim")
    return out


class LobbyFriends:
    """The lobby's side: asks the host, hears its answers and notices."""

    def __init__(self, lobby: FriendsLobby) -> None:
        self.lobby = lobby
        self.info: FriendsInfo | None = None
        self.screen: FriendsScreen | None = None

    def ask(self, action: str = "show", friend: str | None = None) -> bool:
        """Send a request for the lobby's player (``False``: this host or player cannot)."""
        lobby = self.lobby
        welcome = lobby.client.welcome
        if welcome is None or welcome.protocol < 4 or lobby.player is None or lobby.done:
            return False
        token = lobby.token()
        if token is None and action == "show":
            return False  # not proven yet: nothing to listen as
        lobby.client.send(FriendsRequest(lobby.player, token, action, friend))
        return True

    def heard(self, info: FriendsInfo) -> None:
        self.info = info
        if info.arrived is not None:
            said = _("{name} is here.").format(name=printable(info.arrived))
            self.lobby.notify(said, title=_("Friends"), markup=False)
            self.lobby.say(said)  # and in the status line, where a screen reader looks
        if self.screen is not None and self.screen.is_attached:
            self.screen.show(info)

    def open(self) -> None:
        lobby = self.lobby
        if lobby.player is None:
            lobby.say(_("Type your name first: friends are an account's."), problem=True)
            return
        self.screen = FriendsScreen(self)
        lobby.app.push_screen(self.screen)
        self.ask()


class FriendsScreen(ParisScreen, ModalScreen[None]):
    """The player's friends and who is here; a name and Enter adds (or removes) one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", N_("Back"))]

    DEFAULT_CSS = """
    FriendsScreen { align: center middle; }
    FriendsScreen #friends-box { width: 60; height: auto; background: $panel; padding: 1 2; }
    """

    def __init__(self, friends: LobbyFriends) -> None:
        super().__init__()
        self.friends = friends

    def compose(self) -> ComposeResult:
        with Vertical(id="friends-box"):
            yield Static(Text(_("Tell me when they are here"), style="bold"))
            yield Static(friends_text(self.friends.info), id="friends-list")
            yield Input(
                placeholder=_("a name, then Enter (a friend's name removes them)"),
                id="friends-input",
            )
            yield Static("", id="friends-problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def show(self, info: FriendsInfo) -> None:
        self.query_one("#friends-list", Static).update(friends_text(info))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        problem = self.query_one("#friends-problem", Static)
        try:
            name = normalize_name(event.value)
        except InvalidNameError:
            problem.update(Text(_("That is not a name."), style="bold"))
            return
        known = self.friends.info
        have = known is not None and any(n.casefold() == name.casefold() for n, _h in known.friends)
        if self.friends.ask("remove" if have else "add", name):
            problem.update("")
            event.input.value = ""

    def action_back(self) -> None:
        self.dismiss(None)
