"""What the table tells this terminal, read out: its events as sentences, each under the
round it belongs to, and the other seats' comings and goings; and what was said again on
demand (``last``, ``log N``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import Event, RoundStarted, SeatView
from ..i18n import _
from ..net.protocol import SeatInfo
from . import say
from .commands import word_for
from .lines import Lines

__all__ = ["LAST_LINES", "News"]

LAST_LINES = 8
"""How many of the latest announcements ``last`` says again."""


class News:
    """The table's events and presence as they come, and the announcements kept since."""

    def __init__(self, out: Lines, events: int, seats: tuple[SeatInfo, ...]) -> None:
        self.out = out
        self.known = events  # the table's events announced so far
        self.seats = seats
        self.log: dict[int, list[str]] = {}  # round (from 1) -> its announcements
        self.recent: list[str] = []
        self.brief = False  # a grand or special tour in one line (``brief``)

    # --- the events ---------------------------------------------------------------------

    def told(self, before: SeatView, public: SeatView, events: Sequence[Event]) -> None:
        """The table's ``events`` now (``before``, the public view was as it was): those not
        announced yet are, in words of the public view now."""
        new = events[self.known :]
        self.known = len(events)
        if not new:
            return
        chunk: list[Event] = []
        round_ = before.round + 1
        for event in new:
            if isinstance(event, RoundStarted):
                if chunk:
                    self._announce(say.announce(public, chunk, brief=self.brief), round_)
                chunk = []
                round_ = event.round + 1
            chunk.append(event)
        if chunk:
            self._announce(say.announce(public, chunk, brief=self.brief), round_)

    def _announce(self, lines: Sequence[str], round_: int) -> None:
        for line in lines:
            self.log.setdefault(round_, []).append(line)
        self.recent.extend(lines)
        del self.recent[:-LAST_LINES]
        self.out.say(*lines)

    # --- who is at the table ------------------------------------------------------------

    def presence(
        self, seats: tuple[SeatInfo, ...], local: Sequence[int], names: Sequence[str]
    ) -> None:
        """The seats as they are now: each other seat that went away or came back is said."""
        old = self.seats
        self.seats = seats
        for seat, info in enumerate(seats):
            was = old[seat].status if seat < len(old) else None
            if was == info.status or seat in local:
                continue
            if info.status != "present" or was is not None:
                self._presence_line(seat, info.status, names)

    def away(self, local: Sequence[int], names: Sequence[str]) -> None:
        """Say which other seats are away now (as the game is joined)."""
        for seat, info in enumerate(self.seats):
            if seat not in local and info.status in ("away", "takeover"):
                self._presence_line(seat, info.status, names)

    def _presence_line(self, seat: int, status: str, names: Sequence[str]) -> None:
        who = say.name(names, seat)
        if status == "away":
            self.out.say(_("{player} is away.").format(player=who))
        elif status == "takeover":
            self.out.say(_("{player} is away: an AI plays for them.").format(player=who))
        elif status == "present":
            self.out.say(_("{player} is back.").format(player=who))

    # --- said again ---------------------------------------------------------------------

    def say_last(self) -> None:
        """``last``: the latest announcements again."""
        self.out.say(*(self.recent or [_("Nothing has happened yet.")]))

    def say_log(self, view: SeatView, arg: str) -> None:
        """``log N``: round N's announcements at this terminal again."""
        current = min(view.round + 1, view.rounds_total)
        digits = arg.strip()
        if not digits.isdigit() or not 1 <= int(digits) <= current:
            self.out.say(
                _("Type {log} and a round's number from 1 to {n}.").format(
                    log=word_for("log"), n=current
                )
            )
            return
        lines = self.log.get(int(digits))
        if not lines:
            self.out.say(_("Nothing was said in round {n} at this terminal.").format(n=digits))
            return
        self.out.say(*lines)
