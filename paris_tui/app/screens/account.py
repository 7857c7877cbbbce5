"""Account: this player's account on the host, and linking another door to it.

A name is an account on a host (``docs/security.md``). Here the player who
already is that name here gets a one-time link code to type at another door
(``paris-tui join --code``, the SSH prompt, the browser's lobby). An SSH key
joins the account only by logging in with it (``ssh NAME@host``) and typing such a
code there: a public key pasted here would prove nothing. A player who is not
proven yet (the lobby, a name that is someone's account) types a code made at
another door instead: the screen is dismissed with it and the lobby brings it with its next request.

The screen talks to the host on a short connection of its own (protocol 3's
``account`` message), so the table's connection is never disturbed.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from paris_tui.app.online import remote

from ...core import printable
from ...i18n import N_, _
from ...net.client import HostClient, HostClosedError, RefusedError
from ...net.protocol import AccountInfo, ProtocolError
from ...wording import refusal_reason
from .base import TranslatedBindings

__all__ = ["AccountScreen"]

_TIMEOUT = 10.0


def _full_stop(reason: str) -> str:
    """A refusal's reason (a clause: the host's words end bare) as a sentence of its own:
    ``.`` after it, ``。`` after a wide (Chinese) character."""
    reason = reason.rstrip(".。 ")
    return reason + ("。" if reason and cell_len(reason[-1]) == 2 else ".")


class AccountScreen(TranslatedBindings, ModalScreen[str | None]):
    """Dismissed with a link code typed here (for the lobby), else ``None``."""

    DEFAULT_CSS = """
    AccountScreen { align: center middle; background: $background 60%; }
    #account-box {
        width: 76; height: auto; padding: 1 2; border: heavy $accent; background: $panel;
    }
    #account-box > Static { margin-bottom: 1; }
    #account-box Input { margin-bottom: 1; }
    #account-buttons { height: auto; }
    #account-buttons Button { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", N_("Close"))]

    def __init__(self, host: str, port: int, name: str | None, token: str | None) -> None:
        super().__init__()
        self.host = host
        self.port = port
        self.player = name
        self.token = token
        self.info: AccountInfo | None = None

    @property
    def address(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def compose(self) -> ComposeResult:
        with Vertical(id="account-box"):
            # A door's player (SSH, browser) sees no address: the app's is the host's loopback.
            title = (
                _("Account on this host")
                if remote.AT_DOOR
                else _("Account on {host}").format(host=self.address)
            )
            yield Static(Text(title, style="bold"))
            yield Static(Text(_("Asking the host…")), id="account-status")
            yield Static(Text(""), id="account-code")
            # A code is letters, digits and dashes: nothing else is taken in (a field
            # draws its value as it is, a pasted control would reach the terminal).
            yield Input(
                placeholder=_("a link code from another door"),
                id="account-code-input",
                restrict=r"[0-9A-Za-z _.-]*",
                max_length=32,
            )
            with Horizontal(id="account-buttons"):
                yield Button(_("New link code"), id="account-new-code", variant="primary")
                yield Button(_("Close (Esc)"), id="account-close")

    def on_mount(self) -> None:
        self.query_one("#account-code", Static).display = False
        self._ask("show")

    def _show(self, text: str | Text, *, where: str = "#account-status") -> None:
        self.query_one(where, Static).update(text if isinstance(text, Text) else Text(text))

    @work(exclusive=True)
    async def _ask(self, action: str) -> None:
        if self.player is None:
            self._proven(None)
            return
        try:
            client = await HostClient.connect(self.host, self.port, timeout=_TIMEOUT)
        except (OSError, TimeoutError, HostClosedError, ProtocolError, RefusedError):
            self._show(_("The host cannot be reached."))
            return
        try:
            info = await client.account(self.player, self.token, action, None, timeout=_TIMEOUT)
        except RefusedError as exc:
            self._refused(exc)
            return
        except (OSError, TimeoutError, HostClosedError, ProtocolError):
            self._show(_("The host cannot be reached."))
            return
        finally:
            client.abort()
        self._proven(info)

    def _refused(self, exc: RefusedError) -> None:
        reason = printable(refusal_reason(exc.code, exc.refused.message))
        if exc.code in ("name_taken", "no_such_seat", "bad_token"):
            self._proven(None, reason)
        else:
            self._show(reason)

    def _proven(self, info: AccountInfo | None, why: str | None = None) -> None:
        self.info = info
        proven = info is not None
        self.query_one("#account-new-code", Button).display = proven
        self.query_one("#account-code-input", Input).display = not proven
        if info is None:
            text = Text(_full_stop(why) + "\n" if why else "")
            text.append(
                _(
                    "To be this name here, type a link code made where you are already "
                    "this name (Account, New link code), then press Enter."
                )
            )
            self._show(text)
            self.query_one("#account-code-input", Input).focus()
            return
        doors = dict(info.doors)
        text = Text(_("You are {name} on this host.").format(name=info.name), style="bold")
        text.append("\n")
        text.append(
            _("Linked: SSH keys {ssh}, join terminals {token}, browsers {browser}.").format(
                ssh=doors.get("ssh", 0),
                token=doors.get("token", 0),
                browser=doors.get("browser", 0),
            )
        )
        text.append("\n")
        text.append(
            _(
                "An SSH key joins this account when you log in with it as {name} "
                "(ssh {name}@this host) and type a new link code there."
            ).format(name=info.name)
        )
        self._show(text)
        if info.code is not None:
            self._show_code(info)

    def _show_code(self, info: AccountInfo) -> None:
        code = info.code or ""
        minutes = max(1, (info.expires or 0) // 60)
        text = Text(code, style="bold reverse")
        text.append("\n")
        if remote.AT_DOOR:
            words = _(
                "Good once, for {minutes} minutes. Type it at the other door: when ssh asks "
                "for a link code; or in a browser's Account; or paris-tui join (this host's "
                "address) --name {name} --code {code}."
            ).format(minutes=minutes, name=info.name, code=code)
        else:
            words = _(
                "Good once, for {minutes} minutes. Type it at the other door: "
                "paris-tui join {address} --name {name} --code {code}; or when ssh asks "
                "for a link code; or in a browser's Account."
            ).format(minutes=minutes, address=self.address, name=info.name, code=code)
        text.append(words)
        self.query_one("#account-code", Static).display = True
        self._show(text, where="#account-code")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "account-new-code":
            self._ask("code")
        elif event.button.id == "account-close":
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "account-code-input" and event.value.strip():
            self.dismiss(event.value.strip())

    def action_close(self) -> None:
        self.dismiss(None)
