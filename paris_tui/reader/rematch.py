"""What the reader says of a host table's agreements (protocol 5): who asked for a
rematch and who is awaited, that it starts, who resigned, who proposed an abort and
whether it passed or was declined. Each a sentence that makes
sense read aloud on its own."""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import _
from ..net.endings_wire import Agreement
from .commands import word_for
from .say import name, names_and

__all__ = ["agreement_line"]


def agreement_line(agreement: Agreement, names: Sequence[str]) -> str:
    """One sentence for ``agreement`` at a table of players ``names``."""
    seats = [s for s in agreement.seats if 0 <= s < len(names)]
    if agreement.what == "resign":
        return _("{players} resigned: the AI plays their seat to the end.").format(
            players=names_and([name(names, s) for s in seats])
        )
    if agreement.what == "abort":
        return _abort_line(agreement, seats, names)
    if agreement.to is not None:
        return _("Everyone asked for a rematch: it starts now at table {table}.").format(
            table=agreement.to
        )
    if not seats:
        return _("Nobody asks for a rematch now.")
    waiting = [name(names, s) for s in range(len(names)) if s not in seats]
    return _("A rematch: {players} asked for it; waiting for {others}.").format(
        players=names_and([name(names, s) for s in seats]), others=names_and(waiting)
    )


def _abort_line(agreement: Agreement, seats: list[int], names: Sequence[str]) -> str:
    if agreement.to is not None:
        return _("Every player agreed to abort: the game is over, no one won, and it is not rated.")
    if not seats:
        return _("Nobody asks to abort the game now: it goes on.")
    waiting = [name(names, s) for s in range(len(names)) if s not in seats]
    return _(
        "An abort: {players} asked to end the game now, unrated; waiting for {others}. "
        "Type {abort} to agree, or {abort} {no} to decline."
    ).format(
        players=names_and([name(names, s) for s in seats]),
        others=names_and(waiting),
        abort=word_for("abort"),
        no=word_for("no"),
    )
