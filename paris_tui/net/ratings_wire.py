"""Ratings on the wire: additive fields of protocol messages.

Older clients ignore keys they do not know, so these travel in messages they
already read, under new keys (no new message type, no new version):

* a seat's ``rating`` (:class:`~paris_tui.net.protocol.SeatInfo`): its
  account's shown rating (the ordinal ``mu - 3 sigma``) in tenths, absent
  before its first rated game;
* the ``leaderboard`` of :class:`~paris_tui.net.protocol.Tables`: the best
  accounts' names, shown ratings (tenths) and rated games;
* the ``result`` of :class:`~paris_tui.net.protocol.Presence` once a game is
  over: rated or why not, each seat's place (a leaver last), and each seat's
  shown rating before and after (tenths; absent when unrated).

Ratings are whole tenths so that no float crosses the wire.

A rating is *provisional* until its account has played
:data:`PROVISIONAL_GAMES` rated games (:func:`is_provisional`): the model is
still far from sure (``mu - 3 sigma`` dips below 0 after a first loss), so the
screens show a ``?`` in its place, as Lichess and Board Game Arena mark a new
player's rating (docs/ratings.md). A seat says so with its ``provisional``
(:class:`~paris_tui.net.protocol.SeatInfo`), a leaderboard row and a player
online with their ``games``.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from .wire import Form, Name, Seat, WireError, one_of

__all__ = [
    "PROVISIONAL_GAMES",
    "RATING_REASONS",
    "Leader",
    "RatedResult",
    "RatedResultForm",
    "check_result",
    "is_provisional",
    "result_form",
    "tenths",
]

RATING_REASONS: tuple[str, ...] = (
    "ai_seat",
    "takeover",
    "leaver",
    "no_account",
    "same_person",
    "aborted",
)
_LIMIT = 100_000  # |rating| in tenths: the model's ordinals stay far inside

Rating = Annotated[int, Meta(ge=-_LIMIT, le=_LIMIT)]
Place = Annotated[int, Meta(ge=1, le=4)]
Reason = Annotated[str, one_of(RATING_REASONS)]


PROVISIONAL_GAMES = 5
"""Rated games an account plays before its rating is shown as a number."""


def is_provisional(games: int) -> bool:
    """Whether a rating of ``games`` rated games is shown as provisional (``?``)."""
    return games < PROVISIONAL_GAMES


def tenths(value: float | None) -> int | None:
    return None if value is None else round(value * 10)


class Leader(Form, frozen=True):
    """A leaderboard row: ``rating`` in tenths."""

    name: Name
    rating: Rating
    games: Annotated[int, Meta(ge=0, le=10**9)]


class RatedResult(Form, omit_defaults=False, frozen=True):
    """How a finished game was rated; ratings in tenths (``None``: not rated). Every
    field is written."""

    rated: bool
    reason: Reason | None
    ranks: Annotated[tuple[Place, ...], Meta(max_length=4)]
    leavers: Annotated[tuple[Seat, ...], Meta(max_length=4)] = ()
    before: Annotated[tuple[Rating | None, ...], Meta(max_length=4)] = ()
    after: Annotated[tuple[Rating | None, ...], Meta(max_length=4)] = ()
    # Additive: each seat's rating is provisional after the game (shown without a number).
    provisional: Annotated[tuple[bool, ...], Meta(max_length=4)] = ()


class RatedResultForm(Form, omit_defaults=False, frozen=True):
    """:class:`RatedResult` as written when no seat is ``provisional``: the six fields
    every version wrote (the recorded lines' bytes stay the same)."""

    rated: bool
    reason: Reason | None
    ranks: Annotated[tuple[Place, ...], Meta(max_length=4)]
    leavers: Annotated[tuple[Seat, ...], Meta(max_length=4)] = ()
    before: Annotated[tuple[Rating | None, ...], Meta(max_length=4)] = ()
    after: Annotated[tuple[Rating | None, ...], Meta(max_length=4)] = ()


def result_form(result: RatedResult) -> RatedResult | RatedResultForm:
    """What is written for ``result``: itself, or without ``provisional`` when empty."""
    if result.provisional:
        return result
    return RatedResultForm(
        result.rated, result.reason, result.ranks, result.leavers, result.before, result.after
    )


def check_result(result: RatedResult, where: str = "result") -> RatedResult:
    """``result`` as read: a rated game has no reason, an unrated one has one."""
    if result.rated == (result.reason is not None):
        raise WireError(where, "a rated game has no reason, an unrated one has one")
    return result
