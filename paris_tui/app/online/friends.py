"""Friends in the lobby: "tell me when NAME is here", between two who both asked.

The lobby asks the host for its player's friends once it knows who the player
is (a kept token or a door's ticket), and so listens: when a friend comes in
at any door, the host says so and the lobby shows a notice, once. ``f`` opens
:class:`FriendsScreen`: the friends and who is here now, the requests both ways,
and a field where a name typed and Enter asks that account (or accepts its
request; a friend's name, or one asked, removes them). What each Enter did, or
why the host refused it, is said in words in the box itself.
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

from paris_tui.app.online.friends_words import done_words, refused_words
from paris_tui.app.screens.base import ParisScreen
from paris_tui.app.widgets.fields import NameInput
from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.i18n import N_, _
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import FriendsInfo, FriendsRequest, Refused

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

    def keep_token(self, token: str) -> None:
        """Keep the token the host issued for the player's new account."""


def friends_text(info: FriendsInfo | None) -> Text:
    """The list as drawn: each friend's name (as text, never markup) and whether
    here; then the requests both ways."""
    if info is None or not (info.friends or info.asked or info.asking):
        return Text(_("No friends yet."), style="dim")
    out = Text()
    for i, (name, here) in enumerate(info.friends):
        if i:
            out.append("\n")
        out.append(f"{'●' if here else '○'} ", style="green" if here else "dim")
        out.append(name, style="bold" if here else "")
        out.append("  ")
        out.append(_("here") if here else _("away"), style="" if here else "dim")
    for names, said in (
        (info.asking, _("Asking you (type the name to accept): {names}")),
        (info.asked, _("Asked by you, waiting for them: {names}")),
    ):
        if names:
            if out:
                out.append("\n")
            out.append(said.format(names=", ".join(printable(n) for n in names)))
    return out


class LobbyFriends:
    """The lobby's side: asks the host, hears its answers and notices."""

    def __init__(self, lobby: FriendsLobby) -> None:
        self.lobby = lobby
        self.info: FriendsInfo | None = None
        self.screen: FriendsScreen | None = None
        self.pending: str | None = None  # the name of the request sent, until answered

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
        if friend is not None:
            self.pending = friend
        return True

    def heard(self, info: FriendsInfo) -> None:
        self.info = info
        self.pending = None
        if info.token is not None:
            self.lobby.keep_token(info.token)
        box = self.screen if self.screen is not None and self.screen.is_attached else None
        if info.arrived is not None:
            said = _("{name} is here.").format(name=printable(info.arrived))
            if box is not None:
                box.said(said)
            else:  # once: a notice, and the status line, where a screen reader looks
                self.lobby.notify(said, title=_("Friends"), markup=False)
                self.lobby.say(said)
        done = done_words(info)
        if done is not None:
            if box is not None:
                box.said(done)
            elif info.done == "asking":  # behind the box: say how to reach it
                asker = printable(info.friend or "")
                self.lobby.say(
                    _("{name} asks to be your friend: f, then {name} and Enter, accepts.").format(
                        name=asker
                    )
                )
            else:
                self.lobby.say(done)
        if box is not None:
            box.show(info)

    def refused(self, refused: Refused) -> bool:
        """A refusal of this lobby's friends request, said in the box (``False``: not
        one of ours, or the box is closed: the lobby says it)."""
        friend, self.pending = self.pending, None
        if friend is None or self.screen is None or not self.screen.is_attached:
            return False
        self.screen.said(refused_words(refused, friend), problem=True)
        return True

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
            yield NameInput(
                placeholder=_("a name, then Enter (a friend's name removes them)"),
                id="friends-input",
            )
            yield Static("", id="friends-problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def show(self, info: FriendsInfo) -> None:
        self.query_one("#friends-list", Static).update(friends_text(info))

    def said(self, text: str, *, problem: bool = False) -> None:
        """What just happened (or why not), in words, below the list."""
        self.query_one("#friends-problem", Static).update(
            Text(text, style="bold" if problem else "")
        )

    def on_plain_input_refused(self, event: NameInput.Refused) -> None:
        event.stop()
        self.said(event.reason, problem=True)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            name = normalize_name(event.value)
        except InvalidNameError:
            self.said(_("That is not a name."), problem=True)
            return
        known = self.friends.info
        mine: list[str] = []
        if known is not None:
            mine = [n for n, _h in known.friends] + list(known.asked)
        have = any(n.casefold() == name.casefold() for n in mine)
        if self.friends.ask("remove" if have else "add", name):
            self.said(_("Asking the host…"))
            event.input.value = ""
        else:
            self.said(_("This host keeps no friends, or you are not known here yet."), problem=True)

    def action_back(self) -> None:
        self.dismiss(None)
