"""Hand-off: pass the keyboard to the next player. Shows nothing secret."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.widgets import Button, Footer, Static

from ..describe import plain, seat_label
from .base import ParisScreen

__all__ = ["HandoffScreen"]


class HandoffScreen(ParisScreen):
    """ "Pass to Ann — press Enter": public facts only (names, round, scores)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", "Ready", priority=True)]

    def __init__(
        self,
        names: tuple[str, ...],
        seat: int,
        round_no: int,
        rounds: int,
        scores: tuple[int, ...],
        *,
        guard: float = 0.0,
        on_ready: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__()
        self.on_ready = on_ready  # instead of closing: e.g. replace this screen by the game
        self.guard = guard  # ignore Enter this long: a double Enter must not skip the hand-off
        self.shown_at = 0.0
        self.names = names
        self.seat = seat
        self.round_no = round_no
        self.rounds = rounds
        self.scores = scores

    def compose(self) -> ComposeResult:
        with Middle(), Center(id="handoff-box"):
            title = Text("Pass to ", style="bold")
            title.append_text(seat_label(self.names, self.seat))
            yield Static(title, id="handoff-title")
            # Two lines of their own: a long name never leaves "now." alone on a line.
            name = plain(self.names[self.seat])
            info = Text(f"Round {self.round_no} of {self.rounds}\n")
            info.append_text(Text.assemble("Only ", name, " should see the screen now."))
            yield Static(info, id="handoff-info")
            scores = Text()
            for seat, score in enumerate(self.scores):
                if seat:
                    scores.append("   ")
                scores.append_text(seat_label(self.names, seat))
                scores.append(f" {score}")
            yield Static(scores, id="handoff-scores")
            yield Button(Text.assemble("I am ", name, " — press Enter"), id="handoff-ready")
        yield Footer()

    def on_mount(self) -> None:
        self.shown_at = time.monotonic()
        for button in self.query("#handoff-ready"):
            button.focus()

    def action_ready(self) -> None:
        if time.monotonic() - self.shown_at < self.guard:
            return
        if self.on_ready is not None:
            on_ready, self.on_ready = self.on_ready, None
            on_ready(self.seat)
        else:
            self.dismiss(self.seat)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_ready()
