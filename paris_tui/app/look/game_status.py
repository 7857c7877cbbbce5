"""The game screen's status line: whose turn, or what is happening, in one line.

Each status is a :class:`~paris_tui.app.terminal.fit.Fit` of wordings, longest first:
the line shows the first that fits (shorter ones at 80 columns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from paris_tui.app.look.describe import seat_label, words
from paris_tui.app.terminal.fit import Fit
from paris_tui.i18n import _

if TYPE_CHECKING:
    from paris_tui.app.play.turns import TurnFlow
    from paris_tui.core import SeatView

__all__ = ["in_style", "status_line"]


def in_style(template: str, label: Text) -> Text:
    """``template`` with ``{player}`` as ``label``, all of it in the player's colour."""
    text = words(template, player=label)
    text.style = label.style
    return text


def status_line(flow: TurnFlow, view: SeatView, *, touring: bool, take_waits: bool) -> Fit:
    """The status for ``view`` as ``flow`` stands; ``touring`` while a tour's frame shows,
    ``take_waits`` while a second Enter came too soon to take a tile."""
    if take_waits and flow.turn_seat is not None and not touring:
        said = [
            _("Enter seen: wait a moment, then press it again (a held key takes no tile)"),
            _("Enter seen: press it again in a moment"),
            # Translators: the status at 80 columns (about 24 cells): a second Enter came
            # too soon after the first to be told from a held key; press it once more.
            _("Enter seen: press again"),
            _("Press Enter again"),
        ]
        return Fit([Text(w, style="bold") for w in said])
    if touring:
        return Fit([Text(_("Tour… (Space skips)")), Text(_("Tour…"))])
    if flow.connection is not None and not view.is_over:
        short = flow.connection.split(":", 1)[0]  # "Connection lost"
        return Fit([Text(flow.connection, style="bold"), Text(short, style="bold")])
    if view.is_over:
        return Fit([Text(_("Game over"), style="bold")])
    if flow.thinking is not None or flow.ai_choice is not None:
        seat = view.to_move
        assert seat is not None
        label = seat_label(view.names, seat)
        if flow.ai_choice is None:
            said = [_("{player} is thinking…"), _("{player} thinks…")]
        else:
            said = [_("{player} chooses:")]
        return Fit([in_style(w, label) for w in said] + [label])
    if flow.turn_seat is not None and flow.networked:
        return Fit([Text(_("Your turn: choose a tile")), Text(_("Your turn"))])
    if flow.turn_seat is not None:
        label = seat_label(view.names, flow.turn_seat)
        said = [_("{player}: choose a tile"), _("{player}: your turn")]
        return Fit([in_style(w, label) for w in said] + [label])
    if flow.sent:
        return Fit([Text(_("Your move is on its way…")), Text(_("Sending…"))])
    if flow.networked and view.to_move is not None:
        return _waiting_status(flow, view, view.to_move)
    seat = view.to_move
    next_up = _("{player} is next")
    return Fit([] if seat is None else [in_style(next_up, seat_label(view.names, seat))])


def _waiting_status(flow: TurnFlow, view: SeatView, seat: int) -> Fit:
    """Whose turn it is at a host's table, and that this terminal waits for them."""
    label = seat_label(view.names, seat)
    status = flow.seats[seat].status if seat < len(flow.seats) else "present"
    if status in ("ai", "takeover"):
        said = [_("{player} is thinking…"), _("{player} thinks…")]
        if status == "takeover":
            said.insert(0, _("{player} is away: an AI plays for them…"))
    elif status == "away":
        said = [_("{player} is away: waiting for them…"), _("{player} is away…")]
    else:
        said = [_("{player}'s turn: waiting…"), _("{player} to move…")]
    variants = [words(w, player=label) for w in said]
    if not flow.table.local_seats:
        variants = [words(_("Watching: {status}"), status=v) for v in variants]
    variants.append(in_style(said[-1], label))
    return Fit([*variants, label])
