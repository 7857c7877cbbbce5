"""Offer to resume an unfinished game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from paris_tui.app.local.storage import SaveInfo
from paris_tui.app.look.describe import plain, shown_name, words

from ...i18n import N_, _
from .base import ComposedAgain, TranslatedBindings

__all__ = ["ResumeDialog", "save_title"]


def save_title(info: SaveInfo) -> Text:
    """``Ann, Bob · round 3 of 20``: whose game, how far (the names as plain text)."""
    players = len(info.record.players)
    rounds = info.total_moves // players
    done = info.moves // players
    names = Text(_(", ")).join(
        plain(shown_name(p.name) if p.is_ai else p.name) for p in info.record.players
    )
    said = _("{players} · round {round} of {rounds}")
    return words(said, players=names, round=min(done + 1, rounds), rounds=rounds)


class ResumeDialog(ComposedAgain, TranslatedBindings, ModalScreen[SaveInfo | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "new", N_("New game")),
        Binding("y", "resume", N_("Resume")),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, info: SaveInfo) -> None:
        super().__init__()
        self.info = info

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-box"):
            yield Static(Text(_("Resume the unfinished game?"), style="bold"))
            yield Static(save_title(self.info), id="resume-title")
            with Horizontal(id="resume-buttons"):
                yield Button(_("Resume (y)"), id="resume", variant="primary")
                yield Button(_("New game (n)"), id="new")

    def on_mount(self) -> None:
        for button in self.query("#resume"):
            button.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(self.info if event.button.id == "resume" else None)

    def action_resume(self) -> None:
        self.dismiss(self.info)

    def action_new(self) -> None:
        self.dismiss(None)
