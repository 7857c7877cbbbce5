"""The end of a game by ear: the game kept in the history, and ``review``: the strong
AI's view of each local player's moves.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from ..core import Move, SeatView
from ..i18n import _
from ..net.table import Table
from . import say

__all__ = ["REVIEW_SIMULATIONS", "remember", "review", "review_lines"]

REVIEW_SIMULATIONS = 300
"""The search's simulations per move for ``review`` at the end (a few seconds a game)."""


def remember(
    history: Any, table: Table, public: SeatView, local: tuple[int, ...], *, networked: bool
) -> None:
    """Keep the finished game in ``history`` (if any) when this terminal played a seat."""
    if history is None or not local:
        return
    kinds = [info.kind for info in table.seats]
    mode = "network" if networked else "ai" if any(k != "human" for k in kinds) else ("hot-seat")
    with contextlib.suppress(Exception):
        history.add(public, list(table.events), kinds, mode=mode, local_seats=local)


async def review(
    table: Table, public: SeatView, seats: Sequence[int], simulations: int
) -> list[str]:
    """The review of ``seats``' moves (:func:`review_lines`), worked out in a thread."""
    from ..ai.review import review
    from ..core.record import Player, Record
    from ..core.sampling import Determinizer

    game = Determinizer(public).base
    kinds = [info.kind for info in table.seats]
    players = tuple(Player(n, k) for n, k in zip(public.names, kinds, strict=True))
    record = Record.from_game(game, players)
    reviews = await asyncio.to_thread(review, record, seats=seats, simulations=simulations)
    return review_lines(public, reviews, seats)


def review_lines(view: SeatView, reviews: Sequence[Any], seats: Sequence[int]) -> list[str]:
    """Per seat: the mean loss, and its three costliest moves against the strong AI's choice."""
    out: list[str] = []
    for seat in seats:
        mine = [r for r in reviews if r.seat == seat]
        if not mine:
            continue
        mean = sum(r.loss for r in mine) / len(mine)
        out.append(
            _(
                "{player}: a mean loss of {loss} points a move against the strong AI's choice."
            ).format(player=say.name(view.names, seat), loss=f"{mean:.1f}")
        )
        worst = sorted((r for r in mine if r.loss > 0.05), key=lambda r: -r.loss)[:3]
        for r in worst:
            out.append(
                _(
                    "Move {n}: {player} took {played}; the AI preferred {best}; about {loss} "
                    "points lost."
                ).format(
                    n=r.index + 1,
                    player=say.name(view.names, seat),
                    played=_move_name(view, r.played),
                    best=_move_name(view, r.best),
                    loss=f"{r.loss:.1f}",
                )
            )
    return out


def _move_name(view: SeatView, move: Move) -> str:
    """``Opéra, Blue line``, with whose business it removes when it removes one."""
    tile = say.tile_name(view.board, move.tile)
    if move.evict is None:
        return tile
    return _("{tile}, removing {player}'s business").format(
        tile=tile, player=say.name(view.names, move.evict)
    )
