"""A game's agreed endings and its rematch on the wire (protocol 5).

* ``agree`` (client to host) ``what``: the seat's word at its table, ``yes``
  (``false`` takes it back). ``rematch``: once the game is over, the same players
  again, a new deal, the seats' order turned by one; it is dealt when every
  player has agreed. ``abort``: while the game runs, end it now, unrated; the first
  ``yes`` proposes it, each other human seat is asked, and it ends when every human
  seat has agreed (AI seats, and seats given up, do not vote); a ``yes: false``
  declines it (the proposal is gone: ``seats`` empty). Moves go on meanwhile and do
  not cancel it. ``resign``: the seat gives the game up (no one
  else need agree; ``yes`` must be true).
* ``agreement`` (host to client) ``table``, ``what``, ``seats``: who has agreed
  so far, sent to everyone at the table each time it changes; ``to``: the
  rematch's table, once every player agreed (each joins it: the seat of their
  name is there); for ``abort``, the table itself once every player agreed: the
  game has ended, aborted (no winner, unrated: the result's reason ``aborted``).

A connection of protocol 4 or older is sent no ``agreement``, and its ``agree``
is ``bad_message``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from .wire import Message, Seat, TableId

__all__ = ["AGREE_WHATS", "ENDINGS_VERSION", "Agree", "AgreeWhat", "Agreement"]

ENDINGS_VERSION = 5

AgreeWhat = Literal["rematch", "abort", "resign"]
AGREE_WHATS: tuple[AgreeWhat, ...] = ("rematch", "abort", "resign")


class Agree(Message, tag="agree", frozen=True):
    """Protocol 5: this seat's word on ``what`` at its table (``yes=False``: taken back)."""

    what: AgreeWhat
    yes: bool = True


class Agreement(Message, tag="agreement", frozen=True):
    """Protocol 5: the seats that agree to ``what`` at ``table``; ``to``: the
    rematch's table, once all did."""

    table: TableId
    what: AgreeWhat
    seats: Annotated[tuple[Seat, ...], Meta(max_length=4)] = ()
    to: TableId | None = None
