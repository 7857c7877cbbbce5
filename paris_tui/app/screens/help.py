"""Help: the rules in brief and the keys."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

__all__ = ["HELP_TEXT", "HelpScreen"]

HELP_TEXT = """\
# Paris Paris — rules in brief

**Goal**: open businesses at bus stops so that the bus tours score you points.

**A round**: the player holding the bus starts. The face-up tiles are one
more than the players. In turn, each player takes a tile and opens a business
at its stop. A plain stop holds one business, a crossing two. At a full stop
you first remove a business of your choice (it goes back to its owner's
supply if it is yours or with 2 players, otherwise into the sack).

**Small tour**: the tile nobody took is left over. Businesses at its stop score
1 each; if the stop is empty, the nearest businesses along its lines score 1 each.

**Grand tour**: the left-over tile goes to the discard area. When its colour is
already there, the bus runs that whole line: at each crossing, each business
there scores 1, and its owner scores 1 more for each of their businesses on
the stops next to that crossing. Lone businesses away from crossings score nothing.

**Game end**: when the tiles run out, each player's secret route gets a
special tour (with 2 players, the public route too). With 3-4 players, whoever
has strictly the most businesses in the sack scores 1 per business there.
Highest score wins; on a tie, fewer businesses on the board wins.

**Scores**: the scoring track runs from 0 to 45. A score above 45 goes round
it again: `↻1` next to a score means once past 45 (46 to 91), `↻2` twice.

**Secrets**: your route is shown only on your turn; `r` hides it. In a
hot-seat game a hand-off screen comes before each player's turn.

# Keys

| key | action |
| --- | --- |
| ← → ↑ ↓ or 1-5 | highlight a face-up tile (its stop lights up on the map) |
| Enter | take the highlighted tile (or click it twice) |
| p | show/hide what the highlighted tile does if it is left over |
| r | hide/show your route |
| h | a hint on your turn: the strong AI's view of each tile (at a host: if it allows) |
| v | replay viewer, game end: review the moves beside the strong AI's choice |
| Space | skip a tour animation |
| t | light/dark theme |
| ? or F1 | this help |
| Ctrl+P | command palette: new game, save a copy, theme, … |
| q | quit (the game is saved after every move; `paris-tui` resumes it) |

Players have symbols (● ▲ ■ ◆) and lines have letters (B Y R P G), so no
colour is needed to play. `NO_COLOR=1` plays in monochrome.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP_TEXT, id="help-text")
            yield Static("Esc closes", id="help-hint")

    def action_close(self) -> None:
        self.dismiss(None)
