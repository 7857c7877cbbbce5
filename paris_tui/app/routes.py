"""The screens the app-wide commands open: the account, the review of a finished game,
the statistics (each imported when first asked for: they are slow to import)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App

from ..i18n import _

if TYPE_CHECKING:
    from paris_tui.app.local.history import History
    from paris_tui.app.local.session import Session
    from paris_tui.app.online.remote import Link

    from .screens.game import GameScreen

__all__ = ["open_account", "open_review", "open_statistics", "play_again", "toggle_preview"]


def open_account(app: App[Any], link: Link | None) -> None:
    """Account (a host's table or lobby): link another door to this name."""
    from .screens.account import AccountScreen
    from .screens.lobby import LobbyScreen

    for screen in reversed(app.screen_stack):
        if isinstance(screen, LobbyScreen):
            screen.action_account()
            return
    if link is None or link.target.name is None:
        return
    target = link.target
    app.push_screen(AccountScreen(target.host, target.port, target.name, link.token))


def open_review(app: App[Any], game: GameScreen | None) -> None:
    """The review of the finished game on the game screen ``game`` (from the end screen)."""
    from .screens.review import ReviewScreen

    if game is None or isinstance(app.screen, ReviewScreen):
        return
    record = game.flow.finished_record()
    if record is not None:
        app.push_screen(ReviewScreen(record))


def open_statistics(app: App[Any], history: History | None) -> None:
    """Your history of finished games (app/screens/stats.py)."""
    from .screens.stats import StatsScreen

    if not isinstance(app.screen, StatsScreen):
        app.push_screen(StatsScreen(history))


def toggle_preview(app: Any) -> None:
    """The left-over preview on or off, on every game screen (the palette, ``p``)."""
    from .screens.game import GameScreen

    app.show_preview = not app.show_preview
    for screen in app.screen_stack:
        if isinstance(screen, GameScreen):
            screen.preview_changed()
    said = _("Left-over preview on") if app.show_preview else _("Left-over preview off")
    app.notify(said, timeout=2, markup=False)


def play_again(app: Any, old: Session | None) -> None:
    """A new game with ``old``'s seats and variants (a new deal), or the new-game screen."""
    from paris_tui.app.local.session import SeatSpec, next_seed
    from paris_tui.app.look.describe import printable

    if old is None:
        app.open_new_game()
        return
    seats = [SeatSpec(p.name, p.kind) for p in old.players]
    seed = next_seed(old.seed) if old.seed is not None else None
    try:
        app.start_new(seats, seed=seed, options=old.view(None).options)
    except OSError as exc:
        message = printable(
            _("Cannot write the autosave: {problem}").format(problem=exc.strerror or exc)
        )
        app.notify(message, title=_("No new game"), severity="error", markup=False)
