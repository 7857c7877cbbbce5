"""A host's table: its lobby first (sit, watch or open a table), then the table followed
while the app runs: a dropped connection is said on the game screen and joined again; a
table lost for good is said in a dialog, then the app quits."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import App

from ..i18n import _

if TYPE_CHECKING:
    from paris_tui.app.online.remote import Home, Link, LobbyStart

    from ..net.table import RemoteTable
    from ..net.tournaments_wire import RoundStart
    from .screens.game import GameScreen

__all__ = ["follow_link", "leave_table", "open_lobby"]


def open_lobby(
    app: App[Any],
    lobby: LobbyStart,
    seated: Callable[[Link], None],
    *,
    back: bool = False,
    seat: RoundStart | None = None,
) -> None:
    """The host's tables: sit or watch at one (``seated`` gets its link), or quit
    (``back``: come back to from a table, not the session's first screen; ``seat``: a
    tournament's round told at that table, for ``j`` there)."""
    from paris_tui.app.online.remote import connect

    from ..net.protocol import Seated, Watching
    from .screens.lobby import LobbyScreen

    target = lobby.target
    screen = LobbyScreen(
        lobby.client,
        target.name,
        tokens=lobby.tokens,
        address=target.address,
        ticket=lobby.ticket,
        reconnect=lambda: connect(target),  # the lobby reconnects as a seat does
        back=back,
    )
    if seat is not None:
        screen.tournaments.seat = seat  # j takes the player there, as if told in the lobby

    def left(result: Seated | Watching | None) -> None:
        if result is None:
            app.exit()
            return
        seated(lobby.link(result, screen.player, screen.client))

    app.push_screen(screen, left)


async def leave_table(
    app: App[Any], home: Home, link: Link, seated: Callable[[Link], None], to: str | None
) -> None:
    """Leave ``link``'s table (in a worker) for table ``to`` (a rematch: the seat of the
    name there), else, or when that fails, for the host's lobby. The table's
    connection closes (a seat is kept: the host marks it away, and the lobby sits
    there again); the new one shows in place of every screen. A host that cannot be
    reached is said in a dialog, then the app quits."""
    from dataclasses import replace

    from paris_tui.app.online.remote import JoinError, open_link

    from .screens.connection import ConnectionDialog

    await link.close()
    if to is not None:
        target = replace(link.target, table=to, watch=None)
        try:
            joined = await open_link(target, link.tokens, link.token or home.ticket)
        except JoinError as exc:
            app.notify(exc.message, title=_("No rematch"), severity="warning", markup=False)
        else:
            while len(app.screen_stack) > 1:
                app.pop_screen()
            seated(joined)
            return
    try:
        lobby = await home.lobby(link.target.name)
    except JoinError as exc:
        await app.push_screen_wait(ConnectionDialog(exc.message, retry=False))
        app.exit()
        return
    while len(app.screen_stack) > 1:
        app.pop_screen()
    told = getattr(link.table, "round_start", None)
    open_lobby(app, lobby, seated, back=True, seat=told)


async def follow_link(
    app: App[Any], link: Link, game_screen: Callable[[], GameScreen | None]
) -> None:
    """Follow ``link``'s table (in a worker) until it ends; ``game_screen()`` is the game
    screen showing it, if one is open."""
    from .screens.connection import ConnectionDialog

    final: list[str] = []  # why the table ended for good for this terminal

    def lost(reason: str, attempt: int) -> None:
        if reason == "replaced":
            problem = _("Your seat was joined from another terminal: this one left it")
        elif reason == "account_locked":
            problem = _("The host's operator locked your account: you left the table")
        elif attempt == 0:
            problem = _("The host closed the connection ({reason})").format(reason=reason)
        elif reason == "shutdown":
            problem = _("The host stopped: joining again (try {n})…").format(n=attempt)
        else:
            problem = _("Connection lost: joining again (try {n})…").format(n=attempt)
        if attempt == 0:
            final.append(problem)
        screen = game_screen()
        if screen is not None:
            screen.set_connection(problem)

    def back(table: RemoteTable) -> None:
        screen = game_screen()
        if screen is not None:
            screen.set_connection(None)
            screen.rebind(table)
        app.notify(_("Connected again"), timeout=3, markup=False)

    async def ask(problem: str) -> bool:
        retry = await app.push_screen_wait(ConnectionDialog(problem))
        if not retry:
            app.exit()
        return bool(retry)

    await link.follow(lost, back, ask)
    if final and not link.closed:
        # No second try (another terminal has the seat, or the host will not have this
        # one): say so whole, in a dialog that fits 80x24, and quit from it.
        await app.push_screen_wait(ConnectionDialog(final[-1], retry=False))
        app.exit()
