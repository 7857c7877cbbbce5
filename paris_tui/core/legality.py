"""Why a move is illegal (R3, R4, C1), as a code: what :meth:`Game.check` answers.

The game lists its legal moves as integer codes, fast, for search
(:meth:`Game.legal_codes <paris_tui.core.Game.legal_codes>`); a move that
comes from outside (a player, a record, the network) is checked here first,
by :func:`check_move`, which says which rule it breaks as an
:class:`~paris_tui.core.Illegal` (no words: :meth:`Illegal.explain
<paris_tui.core.Illegal.explain>` gives the English line for logs, the app
its own words). It reads the position it is handed, not the game.

>>> from paris_tui.core import Game, Move
>>> game = Game.new(2, seed=4)
>>> game.check(Move("nowhere/blue")).code
'unknown_tile'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .board import Board
from .errors import Illegal, brief
from .values import Move

__all__ = ["check_move"]


def check_move(
    board: Board,
    move: Move,
    *,
    face_up: Sequence[int] | None,
    has_supply: bool,
    owners: Callable[[int], tuple[int, ...]],
) -> Illegal | None:
    """``None`` if ``move`` is legal, else why not.

    ``face_up`` is the tile kinds the mover may take (``None`` once the game is
    over), ``has_supply`` whether the mover has a business left to open (C1),
    ``owners(stop)`` the owners of the businesses at a stop, sorted.
    """
    if face_up is None:
        return Illegal("game_over")
    t = board.tile_index.get(move.tile) if isinstance(move.tile, str) else None
    if t is None:
        return Illegal("unknown_tile", tile=brief(move.tile))
    if t not in face_up:
        names = board.tile_names
        return Illegal("not_face_up", tile=move.tile, face_up=tuple(names[f] for f in face_up))
    stop = board.tile_stop[t]
    occ = owners(stop)
    stop_id = board.stop_ids[stop]
    if not has_supply:
        if move.evict is not None:
            return Illegal("supply_empty", tile=move.tile, stop=stop_id)
        return None
    if len(occ) < board.capacity[stop]:
        if move.evict is not None:
            return Illegal("not_full", tile=move.tile, stop=stop_id)
        return None
    if move.evict is None:
        return Illegal("must_remove", tile=move.tile, stop=stop_id, seats=tuple(sorted(set(occ))))
    if type(move.evict) is not int or move.evict not in occ:
        return Illegal("no_such_business", tile=move.tile, stop=stop_id, evict=brief(move.evict))
    return None
