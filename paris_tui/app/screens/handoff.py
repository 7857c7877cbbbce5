"""Hand-off: pass the keyboard to the next player. Shows nothing secret."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center
from textual.widgets import Button, Static

from paris_tui.app.look.describe import plain, seat_label, shown_name, words
from paris_tui.app.terminal.keygate import FREE_KEYS, KeyGate

from ...i18n import N_, _
from ..widgets.footer import KeysFooter
from .base import ParisScreen

if TYPE_CHECKING:
    from ...core import SeatView

__all__ = ["HELD_KEYS_HINT", "HandoffScreen", "ReadyButton"]

HELD_KEYS_HINT = N_("Let go of the keys, wait a moment, then press Enter.")


class ReadyButton(Button, inherit_css=False):
    """Textual's :class:`Button` as the hand-off shows it (its default style), with only the
    CSS of that style.

    Textual parses a widget's ``DEFAULT_CSS`` and its bases' the first time one is
    mounted. Button's is 7 kB of rules for every variant and style (primary,
    success, warning, error; flat), a sixth of the CSS parsed before the first frame
    and 6 ms of CPU before the first frame. ``inherit_css=False`` (Textual's public class
    argument) takes neither Button's nor Widget's rules: below are those that a
    default-style Button uses, as Textual 8.2.8 writes them (only the selector
    differs). Left out: Button's rules for ``:disabled`` and ``-textual-compact`` (the
    hand-off's button is neither), for ``:ansi`` (the app never sets ``ansi_color``),
    and Widget's for scrollbars and links (a one-line label without links). The other
    buttons of the app, after the first frame, are Textual's. The same widget in
    every other way: it is a Button (pressed by Enter, a click or a tap).
    """

    DEFAULT_CSS = """
    ReadyButton {
        width: auto;
        min-width: 16;
        height: auto;
        line-pad: 1;
        text-align: center;
        content-align: center middle;
        pointer: pointer;

        &.-style-default {
            text-style: bold;
            color: $button-foreground;
            background: $surface;
            border: none;
            border-top: tall $surface-lighten-1;
            border-bottom: tall $surface-darken-1;

            &:focus {
                text-style: $button-focus-text-style;
                background-tint: $foreground 5%;
            }
            &:hover {
                border-top: tall $surface;
                background: $surface-darken-1;
            }
            &.-active {
                background: $surface;
                border-bottom: tall $surface-lighten-1;
                border-top: tall $surface-darken-1;
                tint: $background 30%;
            }
        }
    }
    """


class HandoffScreen(ParisScreen):
    """ "Pass to Ann — press Enter": public facts only (names, round, scores).

    Its :class:`KeyGate` drops every key until a deliberate press: a held or
    buffered Enter meant for the last turn never shows the next player's screen.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", N_("Ready"), priority=True),
        # The README's "Everywhere" keys: they pass the closed gate (keygate.FREE_KEYS).
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
        Binding("q", "app.quit", N_("Quit")),
    ]
    CSS_PATH = []  # noqa: RUF012 - Textual's; the first frame's styles alone (handoff.tcss)

    def __init__(
        self,
        names: tuple[str, ...],
        seat: int,
        round_no: int,
        rounds: int,
        scores: tuple[int, ...],
        *,
        on_ready: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__()
        self.on_ready = on_ready  # instead of closing: e.g. replace this screen by the game
        # The app applies the gate to every key and click (keygate.py).
        self.key_gate = KeyGate(on_drop=self.key_dropped, free=FREE_KEYS)
        self.names = names
        self.seat = seat
        self.round_no = round_no
        self.rounds = rounds
        self.scores = scores

    @classmethod
    def before_turn(
        cls, public: SeatView, seat: int, *, on_ready: Callable[[int], None] | None = None
    ) -> HandoffScreen:
        """The hand-off to ``seat``, whose turn comes in the position ``public``."""
        return cls(
            public.names,
            seat,
            min(public.round + 1, public.rounds_total),
            public.rounds_total,
            public.scores,
            on_ready=on_ready,
        )

    def _title(self) -> Text:
        return words(_("[bold]Pass to [/bold]{player}"), player=seat_label(self.names, self.seat))

    def _info(self) -> Text:
        # Two lines of their own: a long name never leaves "now." alone on a line.
        name = plain(shown_name(self.names[self.seat]))
        info = Text(
            _("Round {round} of {rounds}").format(round=self.round_no, rounds=self.rounds) + "\n"
        )
        info.append_text(words(_("Only {player} should see the screen now."), player=name))
        return info

    def _ready(self) -> Text:
        return words(
            _("I am {player} — press Enter"), player=plain(shown_name(self.names[self.seat]))
        )

    def compose(self) -> ComposeResult:
        with Center(id="handoff-box"):
            yield Static(self._title(), id="handoff-title")
            yield Static(self._info(), id="handoff-info")
            scores = Text()
            for seat, score in enumerate(self.scores):
                if seat:
                    scores.append("   ")
                scores.append_text(seat_label(self.names, seat))
                scores.append(f" {score}")
            yield Static(scores, id="handoff-scores")
            yield ReadyButton(self._ready(), id="handoff-ready")
            # The hint (HELD_KEYS_HINT) comes when the gate drops a key: key_dropped.
        yield KeysFooter()

    def language_changed(self) -> None:
        """The same hand-off in the current language (still waiting for its press)."""
        for static, text in (
            ("#handoff-title", self._title()),
            ("#handoff-info", self._info()),
            ("#handoff-hint", Text(_(HELD_KEYS_HINT))),
        ):
            for widget in self.query(static).results(Static):
                widget.update(text)
        for button in self.query("#handoff-ready").results(Button):
            button.label = self._ready()

    def on_mount(self) -> None:
        for button in self.query("#handoff-ready"):
            button.focus()
        if self.key_gate.dropped:
            self.key_dropped()

    def on_screen_resume(self) -> None:
        if not self.key_gate.passed:  # shown again (after help, the palette): wait afresh
            self.key_gate.rearm()

    def key_dropped(self) -> None:
        """Say why nothing happens (for each key the gate drops): the hint, under the
        button, mounted the first time (not before the first frame: few see it)."""
        if self.query("#handoff-hint"):
            return  # it shows already
        for box in self.query("#handoff-box"):
            box.mount(Static(_(HELD_KEYS_HINT), id="handoff-hint"))

    def action_ready(self) -> None:
        if self.on_ready is not None:
            on_ready, self.on_ready = self.on_ready, None
            on_ready(self.seat)
        else:
            self.dismiss(self.seat)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_ready()
