"""The rematch on the end screen of a host's table (protocol 5): ``m`` agrees (again:
takes it back), the line under the result says who agreed and who is awaited, and
once everyone has, the app goes to the rematch's table (the same players, a new deal,
the seats' order turned by one: host/services/agreements.py). The end screen does not
join again when its connection drops: the line then says the host cannot be reached."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from paris_tui.app.look.describe import joined, words

from ...core import Event
from ...i18n import _
from ...net.endings_wire import Agreement
from ...net.protocol import ErrorCode
from ...net.table import RemoteTable, Table

__all__ = ["Rematch", "rematch_words"]


def rematch_words(agreement: Agreement | None, names: tuple[str, ...], mine: int | None) -> Text:
    """What the end screen says of the rematch: how to ask, who agreed, who is awaited."""
    if agreement is None or not agreement.seats:
        return words(
            _("Press {key} for a rematch: the same players, a new deal, the seats' order turned."),
            key=Text("m", style="bold"),
        )
    if agreement.to is not None:
        return words(
            _("Everyone agreed: the rematch starts at table {table}."),
            table=Text(agreement.to, style="bold"),
        )
    agreed = [Text(names[s], style="bold") for s in agreement.seats if s < len(names)]
    waiting = [Text(names[s]) for s in range(len(names)) if s not in agreement.seats]
    if mine is not None and mine in agreement.seats:
        template = _("Rematch: {agreed} agreed; waiting for {waiting} ({key} takes yours back).")
    else:
        template = _("Rematch: {agreed} agreed; {key} agrees too (waiting for {waiting}).")
    return words(
        template, agreed=joined(agreed), waiting=joined(waiting), key=Text("m", style="bold")
    )


class Rematch:
    """The rematch of ``table``'s finished game, for its end screen: ``show`` draws
    the line, ``go(table_id)`` leaves for the rematch once everyone agreed."""

    def __init__(
        self,
        table: RemoteTable,
        names: tuple[str, ...],
        show: Callable[[Text], None],
        go: Callable[[str], None],
    ) -> None:
        self.table = table
        self.names = names
        self.show = show
        self.go = go
        self.gone = False

    @property
    def mine(self) -> int | None:
        seats = self.table.local_seats
        return seats[0] if seats else None

    def start(self) -> None:
        self.table.agreement_listeners.append(self.heard)
        self.table.add_listener(self)
        if self.table.closed_reason is not None:
            self.table_closed(self.table, self.table.closed_reason)
        else:
            self.heard(self.table.agreements.get("rematch"))

    def stop(self) -> None:
        if self.heard in self.table.agreement_listeners:
            self.table.agreement_listeners.remove(self.heard)
        self.table.remove_listener(self)

    def press(self) -> None:
        """``m``: agree to the rematch, or take the word back (the host gone: say so)."""
        if self.table.closed_reason is not None:
            self.table_closed(self.table, self.table.closed_reason)
            return
        heard = self.table.agreements.get("rematch")
        yes = heard is None or self.mine not in heard.seats
        self.table.agree("rematch", yes)

    def heard(self, agreement: Agreement | None) -> None:
        if agreement is not None and agreement.what != "rematch":
            return
        self.show(rematch_words(agreement, self.names, self.mine))
        if agreement is not None and agreement.to is not None and not self.gone:
            self.gone = True
            self.go(agreement.to)

    # The table's listener: only its end matters here.
    def table_changed(self, table: Table, events: tuple[Event, ...]) -> None:
        pass

    def table_refused(self, table: Table, code: ErrorCode, message: str) -> None:
        pass

    def table_presence(self, table: Table) -> None:
        pass

    def table_closed(self, table: Table, reason: str) -> None:
        """The connection is gone, and the end screen does not join again: say so."""
        if not self.gone:
            template = _("The host cannot be reached: no rematch from here ({key}: the lobby).")
            self.show(words(template, key=Text("q", style="bold")))
