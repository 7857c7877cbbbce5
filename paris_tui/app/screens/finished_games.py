"""The host's finished games, from the lobby's ``g``: yours first.

The lobby asks its host (protocol 4's ``list_games``) and hands the answer
here; Enter on a game asks for its record (``get_record``), which the host
sends as the game's *public* record (rebuilt from the final position, never
its file), and the lobby opens it in the replay viewer
(:class:`HostReplayScreen`: Esc comes back). Each game shows its players with
their scores, the winner marked (a star), and whether it was rated. A name typed
in the field above the list and Enter asks for that player's games only (an
empty field: every game). Names are outside text, drawn through
:class:`rich.text.Text` after :func:`~paris_tui.core.printable`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from ...core import InvalidNameError, normalize_name, printable
from ...core.record import Record
from ...i18n import N_, _
from ...net.protocol import FinishedGame
from ..look.glyphs import current_glyphs
from ..widgets.fields import NameInput
from .base import TranslatedBindings
from .replay import ReplayScreen

__all__ = ["FinishedGamesScreen", "HostReplayScreen", "game_players_text", "yours_first"]


def game_players_text(game: FinishedGame, me: str | None = None) -> Text:
    """``ann 42 ★, bob 38``: each seat's name (``me`` underlined), its score when the
    host kept it, a star for the winner (every winner of a shared first place)."""
    key = None if me is None else me.casefold()
    out = Text()
    for seat, name in enumerate(game.names):
        if seat:
            out.append(", ")
        out.append(printable(name), style="underline" if name.casefold() == key else "")
        if seat < len(game.scores):
            out.append(f" {game.scores[seat]}")
        if seat < len(game.places) and game.places[seat] == 1:
            out.append(" " + current_glyphs().star, style="bold yellow")
    return out


def yours_first(games: tuple[FinishedGame, ...], me: str | None) -> list[FinishedGame]:
    """The games ``me`` played first, then the others; newest first in each."""
    key = None if me is None else me.casefold()
    newest = sorted(games, key=lambda g: -g.finished)
    mine = [g for g in newest if key is not None and any(n.casefold() == key for n in g.names)]
    return mine + [g for g in newest if g not in mine]


class FinishedGamesScreen(TranslatedBindings, ModalScreen[None]):
    """The list; Enter asks the lobby to open the game's record (``open_game``)."""

    DEFAULT_CSS = """
    FinishedGamesScreen { align: center middle; background: $background 60%; }
    #games-box {
        width: 76; height: auto; max-height: 90%; padding: 1 2;
        border: heavy $accent; background: $panel;
    }
    #games-box > Static { margin-bottom: 1; }
    #games-grid { height: auto; max-height: 14; }
    #games-filter { border: none; height: 1; padding: 0 1; margin-bottom: 1; }
    #games-filter:focus { background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Replay")),
        Binding("escape,g,q", "close", N_("Close")),
    ]

    def __init__(
        self,
        me: str | None,
        open_game: Callable[[str], None],
        ask: Callable[[str | None], None] | None = None,
    ) -> None:
        """``ask``: ask the host again, for one player's games (``None``: everyone's)."""
        super().__init__()
        self.me = me
        self.open_game = open_game
        self.ask = ask
        self.player: str | None = None  # the filter: only this player's games
        self.games: list[FinishedGame] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="games-box"):
            yield Static(Text(_("Finished games of this host"), style="bold"))
            yield Static(Text(_("Asking the host…")), id="games-status")
            if self.ask is not None:
                yield NameInput(
                    placeholder=_("a player's name and Enter: only their games"),
                    id="games-filter",
                )
            grid: DataTable[Text] = DataTable(id="games-grid", cursor_type="row")
            grid.add_column(Text(_("Table")), width=5)
            grid.add_column(Text(_("Players and scores")), width=36)
            grid.add_column(Text(_("Rated")), width=8)
            grid.add_column(Text(_("Ended")), width=11)
            yield grid

    def on_plain_input_refused(self, event: NameInput.Refused) -> None:
        event.stop()
        self.query_one("#games-status", Static).update(Text(event.reason, style="bold"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """The filter: that player's games, or every game for an empty field."""
        event.stop()
        text = event.value.strip()
        status = self.query_one("#games-status", Static)
        if not text:
            self.player = None
        else:
            try:
                self.player = normalize_name(text)
            except InvalidNameError:
                status.update(Text(_("That is not a name."), style="bold"))
                return
        status.update(Text(_("Asking the host…")))
        if self.ask is not None:
            self.ask(self.player)

    def show(self, games: tuple[FinishedGame, ...]) -> None:
        """The host's answer: yours first (only the filter's player's, if one is set)."""
        if self.player is not None:  # an older host sends every game: filtered here
            key = self.player.casefold()
            games = tuple(g for g in games if any(n.casefold() == key for n in g.names))
        self.games = yours_first(games, self.me)
        status = self.query_one("#games-status", Static)
        if not self.games and self.player is not None:
            status.update(Text(_("No finished games of {player} here.").format(player=self.player)))
        elif not self.games:
            status.update(Text(_("No finished games on this host yet.")))
        elif self.player is not None:
            status.update(
                Text(
                    _("The games of {player}. Enter replays a game, Esc goes back.").format(
                        player=self.player
                    )
                )
            )
        else:
            status.update(Text(_("Your games first. Enter replays a game, Esc goes back.")))
        grid = self.query_one("#games-grid", DataTable)
        grid.clear()
        for game in self.games:
            rated = Text(_("rated")) if game.rated else Text(_("unrated"), style="dim")
            if game.aborted:
                rated = Text(_("aborted"), style="dim")
            ended = time.strftime("%m-%d %H:%M", time.localtime(game.finished))
            grid.add_row(
                Text(game.table),
                game_players_text(game, self.me),
                rated,
                Text(ended),
                key=game.table,
                height=None,  # four long names take two lines: none is cut
            )
        grid.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        grid = self.query_one("#games-grid", DataTable)
        if self.games and 0 <= grid.cursor_row < len(self.games):
            self.query_one("#games-status", Static).update(Text(_("Asking the host…")))
            self.open_game(self.games[grid.cursor_row].table)

    def action_close(self) -> None:
        self.dismiss(None)


class HostReplayScreen(ReplayScreen):
    """The replay viewer on a host's finished game; Esc (or q) comes back to the lobby.

    ``b`` shows what the expert AI's opponent model (:mod:`paris_tui.ai.expert`,
    fitted on self-play games) believes of each player's secret route after the
    move shown, from the moves made so far (a spectator's view: no route
    known), beside the route the player turned out to hold. The game is over,
    so nothing is secret any more.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", N_("Back")),
        Binding("b", "beliefs", N_("Beliefs")),
    ]

    def __init__(self, record: Record, table: str) -> None:
        super().__init__(record, Path(f"{table}.json"))
        self.beliefs = False
        self._belief: Any = None  # the FittedBelief (its cache serves every position)
        self._weights: dict[int, dict[int, dict[str, float]]] = {}

    def action_back(self) -> None:
        self.dismiss(None)

    def action_beliefs(self) -> None:
        self.beliefs = not self.beliefs
        self.show_position()

    def weights_at(self, k: int) -> dict[int, dict[str, float]]:
        """Per seat, the belief's weight of each line after the first ``k`` moves."""
        if k not in self._weights:
            from ...ai.expert import FittedBelief
            from ...core.sampling import Determinizer

            if self._belief is None:
                self._belief = FittedBelief()
            view = self.game_at(k).view(None)
            self._weights[k] = {} if view.is_over else self._belief.weights(Determinizer(view))
        return self._weights[k]

    def show_position(self) -> None:
        super().show_position()
        if not self.beliefs:
            return
        for status in self.query("#replay-position").results(Static):
            shown = status.content  # the position, as the viewer wrote it
            text = shown.copy() if isinstance(shown, Text) else Text()
            text.append_text(self.beliefs_text(self.position))
            status.update(text)

    def beliefs_text(self, k: int) -> Text:
        """``● Ann: B 62%, C 21% (holds C)`` for each seat, under a title line."""
        from paris_tui.app.look.describe import seat_label

        final = self.game_at(self.total).view(None)
        board = final.board
        routes = final.revealed_routes or ()
        text = Text("\n" + _("The expert AI believes (routes):"), style="")
        weights = self.weights_at(k)
        if not weights:
            text.append("\n" + _("nothing yet (or no secret routes)"), style="dim")
            return text
        for seat in sorted(weights):
            line = Text("\n")
            line.append_text(seat_label(final.names, seat, width=10))
            line.append(": ")
            top = sorted(weights[seat].items(), key=lambda item: -item[1])[:2]
            for j, (route, weight) in enumerate(top):
                if j:
                    line.append(", ")
                letter = board.lines[board.line_index[route]].letter
                line.append(f"{letter} {round(weight * 100)}%", style="")
            if seat < len(routes):
                held = board.lines[board.line_index[routes[seat]]].letter
                line.append(" " + _("(holds {line})").format(line=held), style="dim")
            text.append_text(line)
        return text
