"""The review on screen: each human move beside the strong AI's choice, and what it cost.

Opened with ``v`` from the replay viewer and the end screen, for a finished
game only (the replay viewer refuses a game still being played: a review
works from the movers' secret routes). The review
(:func:`paris_tui.ai.review.review`, the same as ``paris-tui review``, with its
seed :data:`~paris_tui.ai.review.DEFAULT_SEED`, so the same numbers) runs in
a thread worker, move by move, with its progress shown; Escape cancels it
and goes back. Each reviewed move is one row: who played it, the tile taken,
the tile the strong AI preferred from that seat's view at that moment, and
the estimated loss (how many points of final margin, the mover's score minus
the best other seat's, the move played is expected to cost against the AI's
choice: 0 for the AI's own choice). Each player's three
costliest moves are marked. In the replay viewer, Enter on a row shows the
position before that move.

Names are data: every cell is a Rich :class:`~rich.text.Text`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, ProgressBar, Static
from textual.worker import Worker, WorkerState, get_current_worker

from paris_tui.app.look.describe import seat_label, tile_text
from paris_tui.app.look.palette import player_style

from ...ai.review import (
    DEFAULT_SEED,
    DEFAULT_SIMULATIONS,
    MoveReview,
    ReviewCancelled,
    review,
    review_json,
)
from ...core import Board, Move
from ...core.board import BOARDS
from ...core.record import Record
from ...i18n import N_, _, decimal
from ..widgets.footer import KeysFooter
from .base import ParisScreen

__all__ = ["ReviewScreen"]

COSTLY_STYLE = "bold reverse"
SIMULATIONS = DEFAULT_SIMULATIONS
"""The search's simulations per move on this screen (the command's default)."""


def _move_text(board: Board, names: tuple[str, ...], move: Move) -> Text:
    text = tile_text(board, move.tile)
    if move.evict is not None:  # the removed business's owner by symbol: the table is narrow
        style = player_style(move.evict)
        text.append(" ")
        # Translators: a move that removes the business of the player with this symbol
        # ("[G] Quartier Latin ▲ out"); a narrow table column: keep it short.
        text.append(_("{name} out").format(name=style.symbol), style=style.colour)
    return text


def _symbol(seat: int) -> Text:
    style = player_style(seat)
    return Text(style.symbol, style=f"bold {style.colour}")


class ReviewScreen(ParisScreen):
    """A recorded game's human moves, reviewed by the strong AI (see the module docstring)."""

    DEFAULT_CSS = """
    ReviewScreen #review-box {
        padding: 0 1;
        height: 1fr;
    }
    ReviewScreen #review-title {
        text-style: bold;
        height: auto;
    }
    ReviewScreen #review-status {
        height: auto;
    }
    ReviewScreen ProgressBar {
        height: 1;
    }
    ReviewScreen #review-players {
        height: auto;
        margin-bottom: 1;
    }
    ReviewScreen DataTable {
        height: 1fr;
    }
    ReviewScreen .-hidden {
        display: none;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", N_("Back")),
        Binding("enter", "go", N_("Go to move"), show=False),
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
    ]

    def __init__(
        self,
        record: Record,
        seats: Collection[int] | None = None,
        *,
        seed: int = DEFAULT_SEED,
        simulations: int | None = None,
        can_go: bool = False,
    ) -> None:
        """Review ``seats``' moves (default: the human seats, or every seat if none is).

        With ``can_go``, Enter on a row dismisses the screen with that move's index.
        """
        super().__init__()
        self.record = record
        if seats is None:
            humans = [i for i, p in enumerate(record.players) if p.kind == "human"]
            seats = humans or range(len(record.players))
        self.seats = frozenset(seats)
        self.seed = seed
        self.simulations = SIMULATIONS if simulations is None else simulations
        self.can_go = can_go
        self.reviews: list[MoveReview] | None = None
        self.problem: str | None = None
        self.names = tuple(p.name for p in record.players)
        self.board: Board = BOARDS[record.board]()

    def compose(self) -> ComposeResult:
        with Vertical(id="review-box"):
            if len(self.seats) == 1:
                title = _("Review: your moves beside the strong AI's choice")
            else:
                title = _("Review: each player's moves beside the strong AI's choice")
            yield Static(Text(title, style="bold"), id="review-title")
            yield Static(Text(_("Reviewing…"), style="dim"), id="review-status")
            yield ProgressBar(id="review-progress", show_eta=False)
            yield Static("", id="review-players", classes="-hidden")
            yield DataTable(
                id="review-moves", cursor_type="row", zebra_stripes=True, classes="-hidden"
            )
        yield KeysFooter()

    def on_mount(self) -> None:
        self.run_worker(self._review, thread=True, group="review", exit_on_error=False)

    # --- the worker -----------------------------------------------------------------

    def _review(self) -> list[MoveReview]:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._progress, done, total)

        return review(
            self.record,
            seed=self.seed,
            simulations=self.simulations,
            seats=self.seats,
            progress=progress,
            cancelled=lambda: worker.is_cancelled,
        )

    def _progress(self, done: int, total: int) -> None:
        if self.reviews is not None or not self.is_mounted:
            return
        bar = self.query_one(ProgressBar)
        bar.update(total=max(total, 1), progress=done)
        status = _("Reviewing move {done} of {total}… (Esc cancels)").format(
            done=min(done + 1, total), total=total
        )
        self.query_one("#review-status", Static).update(Text(status, style="dim"))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "review":
            return
        if event.state == WorkerState.SUCCESS and isinstance(worker.result, list):
            self.show_reviews(worker.result)
        elif event.state == WorkerState.ERROR and not isinstance(worker.error, ReviewCancelled):
            self.problem = str(worker.error)
            message = _("The review failed: {problem}").format(problem=self.problem)
            self.query_one("#review-status", Static).update(Text(message, style="bold"))

    # --- showing it -----------------------------------------------------------------

    def show_reviews(self, reviews: list[MoveReview]) -> None:
        self.reviews = reviews
        board = self.board
        data = review_json(self.record, reviews)
        costly = {i for p in data["players"] if p["seat"] in self.seats for i in p["worst"]}
        self.query_one(ProgressBar).add_class("-hidden")
        if len(self.seats) == 1:
            explain = _(
                "Loss: the points of final margin your move is expected to cost against the "
                "AI's choice; your three costliest moves are marked !"
            )
        else:
            explain = _(
                "Loss: the points of final margin a move is expected to cost its player "
                "against the AI's choice; each player's three costliest moves are marked !"
            )
        self.query_one("#review-status", Static).update(Text(explain, style="dim"))
        summary = Text()
        for player in data["players"]:
            if player["seat"] not in self.seats:
                continue
            if summary:
                summary.append("\n")
            summary.append_text(seat_label(self.names, player["seat"], width=12))
            worst = ", ".join(str(i + 1) for i in player["worst"]) or "—"
            summary.append(
                " "
                + _("mean loss {loss}; costliest moves: {moves}").format(
                    loss=decimal(player["mean_loss"]), moves=worst
                )
            )
        players = self.query_one("#review-players", Static)
        players.update(summary)
        players.remove_class("-hidden")
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_column(Text(_("Move"), justify="right"), key="move")
        table.add_column("", key="player", width=1)
        table.add_column(_("Played"), key="played", width=26)
        table.add_column(_("AI's choice"), key="best", width=26)
        table.add_column(Text(_("Loss"), justify="right"), key="loss")
        for r in reviews:
            mark = r.index in costly
            style = COSTLY_STYLE if mark else ""
            same = r.played == r.best
            best = Text("=", style="dim") if same else _move_text(board, self.names, r.best)
            table.add_row(
                Text(f"{'!' if mark else ' '}{r.index + 1:>3}", style=style, justify="right"),
                _symbol(r.seat),
                _move_text(board, self.names, r.played),
                best,
                Text(decimal(r.loss), style=style, justify="right"),
                key=str(r.index),
            )
        table.remove_class("-hidden")
        table.focus()

    # --- keys -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "go":
            return self.can_go and self.reviews is not None
        return True

    def action_go(self) -> None:
        if not self.can_go or not self.reviews:
            return
        table = self.query_one(DataTable)
        row = table.cursor_row
        if 0 <= row < len(self.reviews):
            self.dismiss(self.reviews[row].index)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_go()

    def language_changed(self) -> None:
        """The same review, in the current language (composed again; a review under way
        goes on and shows its progress in the new words)."""

        async def again() -> None:
            await self.recompose()
            if self.reviews is not None:
                self.show_reviews(self.reviews)
            elif self.problem is not None:
                message = _("The review failed: {problem}").format(problem=self.problem)
                self.query_one("#review-status", Static).update(Text(message, style="bold"))

        self.call_later(again)

    def action_close(self) -> None:
        self.workers.cancel_group(self, "review")
        self.dismiss(None)
