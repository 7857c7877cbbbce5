"""Setting up a game (R2): the seats' names, the deal, and a known deal checked.

:meth:`Game.new <paris_tui.core.Game.new>` deals from a random generator with
:func:`deal_ids`; :meth:`Game.from_setup <paris_tui.core.Game.from_setup>`
reads a known deal (a record's) with :func:`setup_ids`, which raises
:class:`~paris_tui.core.RecordError` naming the field at fault. Both give the
game the deal as integer ids of the board's tiles and lines.

>>> import random
>>> from paris_tui.core.board import classic_board
>>> setup = deal(classic_board(), 2, random.Random(3))
>>> len(setup.stacks), len(setup.stacks[0]), len(setup.routes), setup.public_route is not None
(20, 3, 2, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .board import Board
from .errors import brief, invalid
from .text import check_table_names
from .values import Setup

__all__ = ["Deal", "SeatSpec", "ai_seed", "deal", "deal_ids", "seat_names", "setup_ids"]

Deal = tuple[tuple[tuple[int, ...], ...], list[int], int]
"""A deal as ids: the stacks of tile kinds in play order, each seat's route
line, and the public route's line (``-1`` unless two play)."""


def _shuffled(items: Iterable[int], rng: random.Random) -> list[int]:
    """A Fisher-Yates shuffle drawing ``rng.random()``: a few times faster than
    ``rng.shuffle`` (which draws bits per swap), and as deterministic."""
    out = list(items)
    rand = rng.random
    for i in range(len(out) - 1, 0, -1):
        j = int(rand() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def seat_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """The seats' names: ``Player 1``... for a count, else checked by the one rule for names."""
    if isinstance(players, int):
        return tuple(f"Player {i + 1}" for i in range(players))
    if isinstance(players, str):  # a str is a Sequence[str] too: one name, not its letters
        raise TypeError("players must be a count or a sequence of names, not one string")
    return check_table_names(players)


def deal_ids(board: Board, players: int, rng: random.Random) -> Deal:
    """Shuffle the tiles into stacks of ``players + 1`` and deal the route markers (R2)."""
    if players not in (2, 3, 4):
        raise ValueError(f"Paris Paris is for 2 to 4 players, not {players}")
    tiles = _shuffled(board.all_tile_ids, rng)
    size = players + 1
    stacks = tuple(zip(*[iter(tiles)] * size, strict=True))
    lines = _shuffled(range(len(board.lines)), rng)
    return stacks, lines[:players], lines[players] if players == 2 else -1


def deal(board: Board, players: int, rng: random.Random) -> Setup:
    """Shuffle the tiles into stacks of ``players + 1`` and deal route markers (R2).

    :meth:`Game.new <paris_tui.core.Game.new>` deals exactly this way, so
    ``deal(board, n, Random(s))`` is the setup of ``Game.new(n, seed=s)``.
    """
    stacks, routes, public = deal_ids(board, players, rng)
    names, lines = board.tile_names, board.line_ids
    return Setup(
        tuple(tuple(names[t] for t in st) for st in stacks),
        tuple(lines[r] for r in routes),
        lines[public] if public >= 0 else None,
    )


def setup_ids(board: Board, n: int, setup: Setup) -> Deal:
    """A known deal for ``n`` seats, checked and turned into ids.

    Raises :class:`~paris_tui.core.RecordError` at the first field that is wrong.
    """
    if n not in (2, 3, 4):
        raise invalid("players", "2 to 4 seats are needed, found {n}", n=n)
    stacks = _stacks(board, n, setup.stacks)
    routes, public = _routes(board, n, setup.routes, setup.public_route)
    return stacks, routes, public


def _stacks(board: Board, n: int, stacks: Iterable[Sequence[str]]) -> tuple[tuple[int, ...], ...]:
    if isinstance(stacks, str | bytes) or not isinstance(stacks, Sequence):
        raise invalid("setup.stacks", "must be a list of stacks")
    size = n + 1
    expected = len(board.all_tiles) // size
    if len(stacks) != expected:
        raise invalid(
            "setup.stacks",
            "{n} players need {expected} stacks of {size}, found {found}",
            n=n,
            expected=expected,
            size=size,
            found=len(stacks),
        )
    out: list[tuple[int, ...]] = []
    for i, stack in enumerate(stacks):
        if isinstance(stack, str | bytes) or not isinstance(stack, Sequence):
            raise invalid(f"setup.stacks[{i}]", "must be a list of tile names")
        if len(stack) != size:
            raise invalid(
                f"setup.stacks[{i}]", "must hold {size} tiles, holds {n}", size=size, n=len(stack)
            )
        ids: list[int] = []
        for j, name in enumerate(stack):
            t = board.tile_index.get(name) if isinstance(name, str) else None
            if t is None:
                raise invalid(
                    f"setup.stacks[{i}][{j}]",
                    "{found} is not a tile of this board",
                    found=brief(name),
                )
            ids.append(t)
        out.append(tuple(ids))
    counts = Counter(t for st in out for t in st)
    for kind in board.tile_kinds:
        if counts[kind.index] != kind.count:
            raise invalid(
                "setup.stacks",
                "the game has {count} {kind} tile(s), the stacks hold {found}",
                count=kind.count,
                kind=kind.name,
                found=counts[kind.index],
            )
    return tuple(out)


def _routes(
    board: Board, n: int, routes: Sequence[str], public: str | None
) -> tuple[list[int], int]:
    if isinstance(routes, str | bytes) or not isinstance(routes, Sequence):
        raise invalid("setup.routes", "must be a list of line ids")
    if len(routes) != n:
        raise invalid(
            "setup.routes",
            "must hold one route per seat ({n}), holds {found}",
            n=n,
            found=len(routes),
        )
    ids: list[int] = []
    for i, r in enumerate(routes):
        li = board.line_index.get(r) if isinstance(r, str) else None
        if li is None:
            raise invalid(
                f"setup.routes[{i}]", "{found} is not a line of this board", found=brief(r)
            )
        if li in ids:
            raise invalid(f"setup.routes[{i}]", "{found} is dealt twice", found=repr(r))
        ids.append(li)
    if n == 2:
        pi = board.line_index.get(public) if isinstance(public, str) else None
        if pi is None:
            raise invalid(
                "setup.public_route",
                "2 players need a public route line, found {found}",
                found=brief(public),
            )
        if pi in ids:
            raise invalid(
                "setup.public_route", "{found} is also a seat's secret route", found=repr(public)
            )
        return ids, pi
    if public is not None:
        raise invalid("setup.public_route", "must be null with {n} players", n=n)
    return ids, -1


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat as the app and the host open it: a name and ``"human"`` or
    ``"ai:<level>"``; a searching AI seat may have its own seconds a move (``budget``)."""

    name: str
    kind: str = "human"
    budget: float | None = None

    @property
    def level(self) -> str | None:
        return self.kind[3:] if self.kind.startswith("ai:") else None


def ai_seed(game_seed: int | str, seat: int) -> int:
    """A deterministic seed for the AI in ``seat``, derived from the game's seed: one
    derivation for the app and the host, so that a record moves between them with
    the same AI choices."""
    import hashlib  # on first use: the app's first frame needs none

    digest = hashlib.sha256(f"paris-tui:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
