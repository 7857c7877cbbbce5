"""The game state and its rules (R2-R7).

A :class:`Game` is the referee's full state, secrets included. Players, the
app and the AI look at it only through :meth:`Game.view`, which builds a
:class:`~paris_tui.core.view.SeatView` holding what one seat may know (R8).

Two ways to make a move, as in python-chess:

* :meth:`Game.play` validates the move, raises :class:`IllegalMoveError`
  saying why it is illegal, and returns the :mod:`events <paris_tui.core.events>`
  it caused, every point explained;
* :meth:`Game.apply` (and :meth:`Game.apply_code` with integer move codes
  from :meth:`Game.legal_codes`) trusts the caller and is fast: this is the
  path of the AI's playouts and the benchmark.

>>> game = Game.new(["Ann", "Bob", "Cy"], seed=7)
>>> game.round, game.to_move, len(game.face_up)
(0, 0, 4)
>>> move = game.legal_moves()[0]
>>> events = game.play(move)
>>> game.to_move
1
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal

from .board import Board, classic_board
from .errors import DecidedBy, Illegal, IllegalMoveError, brief, invalid
from .text import check_table_names

if TYPE_CHECKING:
    from .events import (
        BusinessOpened,
        BusinessRemoved,
        Event,
        GameOver,
        NothingOpened,
        RoundStarted,
        ScoreEvent,
        ScoreKind,
        TileDiscarded,
        TourEvent,
    )
    from .view import SeatView

_EVENT_CLASSES = (
    "BusinessOpened",
    "BusinessRemoved",
    "GameOver",
    "NothingOpened",
    "RoundStarted",
    "ScoreEvent",
    "TileDiscarded",
    "TourEvent",
)


def _need_events() -> None:
    """Import the event classes (:mod:`~paris_tui.core.events`) into this module, once.

    Only a game that records what happens makes events (:meth:`Game.play`,
    :meth:`Game.leftover_events`, which call this first); every other use, the
    AI's search included, makes none. Their eight frozen dataclasses took a tenth
    of the time to import the core, before ``paris-tui play`` shows its first frame
    (issue 19), which plays no move.
    """
    if "TourEvent" not in globals():
        from . import events

        globals().update({name: getattr(events, name) for name in _EVENT_CLASSES})


__all__ = [
    "BUSINESSES_PER_SEAT",
    "Game",
    "Move",
    "Options",
    "Outcome",
    "Setup",
    "deal",
]

BUSINESSES_PER_SEAT = 19  # 20 per colour, one is the score marker (R1)
SMALL_TOUR_MODES = ("both-lines", "tile-line")
FINAL_TOUR_MODES = ("secret", "all-lines")


@dataclass(frozen=True, slots=True)
class Options:
    """The rule variants (R5, R7). The defaults are the rulebook's."""

    small_tour: Literal["both-lines", "tile-line"] = "both-lines"
    final_tours: Literal["secret", "all-lines"] = "secret"

    def __post_init__(self) -> None:
        if self.small_tour not in SMALL_TOUR_MODES:
            raise ValueError(
                f"small_tour must be one of {SMALL_TOUR_MODES}, not {self.small_tour!r}"
            )
        if self.final_tours not in FINAL_TOUR_MODES:
            raise ValueError(
                f"final_tours must be one of {FINAL_TOUR_MODES}, not {self.final_tours!r}"
            )


@dataclass(frozen=True, slots=True)
class Setup:
    """The dealt, secret part of a game (R2): stacks in play order and route markers."""

    stacks: tuple[tuple[str, ...], ...]
    routes: tuple[str, ...]
    public_route: str | None = None


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """Take ``tile`` (``"stop/line"``); at a full stop remove seat ``evict``'s business.

    ``evict`` is ``None`` unless the stop is full and the mover has a business
    in supply (R4, C1).
    """

    tile: str
    evict: int | None = None

    def __str__(self) -> str:
        return self.tile if self.evict is None else f"{self.tile} (remove seat {self.evict})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of the game (R7): final scores, sack and board counts, the winners.

    ``decided_by`` says how the winner was found: ``"score"``,
    ``"fewest_businesses"`` (the tie-break: fewest businesses on the board),
    or ``"shared"`` when the tie-break left several winners.
    """

    scores: tuple[int, ...]
    sack: tuple[int, ...]
    on_board: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: DecidedBy


def _shuffled(items: Iterable[int], rng: random.Random) -> list[int]:
    """A Fisher-Yates shuffle drawing ``rng.random()``: a few times faster than
    ``rng.shuffle`` (which draws bits per swap), and as deterministic."""
    out = list(items)
    rand = rng.random
    for i in range(len(out) - 1, 0, -1):
        j = int(rand() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def _seat_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """The seats' names: ``Player 1``... for a count, else checked by the one rule for names."""
    if isinstance(players, int):
        return tuple(f"Player {i + 1}" for i in range(players))
    if isinstance(players, str):  # a str is a Sequence[str] too: one name, not its letters
        raise TypeError("players must be a count or a sequence of names, not one string")
    return check_table_names(players)


def _deal_ids(
    board: Board, players: int, rng: random.Random
) -> tuple[tuple[tuple[int, ...], ...], list[int], int]:
    if players not in (2, 3, 4):
        raise ValueError(f"Paris Paris is for 2 to 4 players, not {players}")
    tiles = _shuffled(board.all_tile_ids, rng)
    size = players + 1
    stacks = tuple(zip(*[iter(tiles)] * size, strict=True))
    lines = _shuffled(range(len(board.lines)), rng)
    return stacks, lines[:players], lines[players] if players == 2 else -1


def deal(board: Board, players: int, rng: random.Random) -> Setup:
    """Shuffle the tiles into stacks of ``players + 1`` and deal route markers (R2).

    :meth:`Game.new` deals exactly this way, so ``deal(board, n, Random(s))``
    is the setup of ``Game.new(n, seed=s)``.
    """
    stacks, routes, public = _deal_ids(board, players, rng)
    names, lines = board.tile_names, board.line_ids
    return Setup(
        tuple(tuple(names[t] for t in st) for st in stacks),
        tuple(lines[r] for r in routes),
        lines[public] if public >= 0 else None,
    )


@dataclass(frozen=True, slots=True)
class _Tables:
    """Precomputed per (board, player count): what a stop's state means and becomes.

    A stop's businesses are one small integer, its *state*: 0 is empty, then
    every sorted tuple of owners (one or two seats). Opening, removing and
    generating moves are table lookups, and copying a position copies a flat
    list of ints.
    """

    owners: tuple[tuple[int, ...], ...]  # state -> owners, sorted
    add: tuple[tuple[int, ...], ...]  # state, seat -> state with a business of seat more
    remove: tuple[tuple[int, ...], ...]  # state, seat -> state with one of seat's removed
    moves: tuple[tuple[tuple[int, ...], ...], ...]  # tile kind, state -> legal move codes


@cache
def _tables(board: Board, players: int) -> _Tables:
    states: list[tuple[int, ...]] = [()]
    states += [(p,) for p in range(players)]
    states += [(a, b) for a in range(players) for b in range(a, players)]
    index = {st: i for i, st in enumerate(states)}

    def without(st: tuple[int, ...], seat: int) -> int:
        if seat not in st:
            return -1
        rest = list(st)
        rest.remove(seat)
        return index[tuple(rest)]

    add = tuple(
        tuple(index.get(tuple(sorted((*st, p))), -1) for p in range(players)) for st in states
    )
    remove = tuple(tuple(without(st, p) for p in range(players)) for st in states)
    moves = tuple(
        tuple(
            (kind.index << 3,)
            if len(st) < board.capacity[kind.stop]
            else tuple((kind.index << 3) + v + 1 for v in sorted(set(st)))
            for st in states
        )
        for kind in board.tile_kinds
    )
    return _Tables(tuple(states), add, remove, moves)


class Game:
    """The full state of one game of Paris Paris, secrets included.

    Build one with :meth:`new` (a fresh deal from a seed) or :meth:`from_setup`
    (a known deal, e.g. a record's). Integer conventions: seats are
    ``0..players-1``; stops, lines and tile kinds are indexes into
    :attr:`board`.
    """

    __slots__ = (
        "_discard",
        "_dup",
        "_ev",
        "_faceup",
        "_history",
        "_k",
        "_m1",
        "_m2",
        "_outcome",
        "_owners",
        "_public",
        "_rings",
        "_round_scores",
        "_routes",
        "_st",
        "_stacks",
        "_tables",
        "_tile_line",
        "_tile_stop",
        "board",
        "names",
        "options",
        "players",
        "round",
        "rounds_total",
        "sack",
        "scores",
        "supply",
        "to_move",
    )

    board: Board
    names: tuple[str, ...]
    players: int
    options: Options
    rounds_total: int
    round: int
    to_move: int
    scores: list[int]
    supply: list[int]
    sack: list[int]
    _tile_stop: tuple[int, ...]
    _tile_line: tuple[int, ...]
    _rings: tuple[tuple[tuple[int, ...], ...], ...]
    _stacks: tuple[tuple[int, ...], ...]
    _routes: list[int]
    _public: int
    _k: int
    _faceup: list[int]
    _dup: bool  # the face-up tiles hold two of one kind
    _st: list[int]  # per stop, its state (see _Tables)
    _tables: _Tables
    _owners: tuple[tuple[int, ...], ...]
    _m1: list[int]
    _m2: list[int]
    _discard: list[bool]
    _history: list[int]
    _round_scores: list[tuple[int, ...]]
    _outcome: Outcome | None
    _ev: list[Event] | None

    # --- construction ------------------------------------------------------

    def __init__(self) -> None:  # use new() / from_setup()
        raise TypeError("use Game.new(...) or Game.from_setup(...)")

    @classmethod
    def new(
        cls,
        players: int | Sequence[str],
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        options: Options | None = None,
        board: Board | None = None,
    ) -> Game:
        """A new game dealt from ``seed`` (or from ``rng``): same seed, same game.

        ``players`` is a count or the seats' names in clockwise order; names
        follow the one rule for names (:func:`~paris_tui.core.text.check_table_names`:
        kept normalised, a bad or repeated name raises :class:`InvalidNameError`).
        """
        board = board or classic_board()
        names = _seat_names(players)
        if rng is None:
            rng = random.Random(seed)
        stacks, routes, public = _deal_ids(board, len(names), rng)
        return cls._build(board, names, options or Options(), stacks, routes, public)

    @classmethod
    def from_setup(
        cls,
        setup: Setup,
        players: int | Sequence[str],
        *,
        options: Options | None = None,
        board: Board | None = None,
    ) -> Game:
        """A game from a known deal. Raises :class:`RecordError` on a bad setup.

        Names are checked as in :meth:`new` (:class:`InvalidNameError`).
        """
        board = board or classic_board()
        names = _seat_names(players)
        n = len(names)
        if n not in (2, 3, 4):
            raise invalid("players", "2 to 4 seats are needed, found {n}", n=n)
        stacks = _validate_stacks(board, n, setup.stacks)
        routes, public = _validate_routes(board, n, setup.routes, setup.public_route)
        return cls._build(board, names, options or Options(), stacks, routes, public)

    @classmethod
    def _build(
        cls,
        board: Board,
        names: tuple[str, ...],
        options: Options,
        stacks: tuple[tuple[int, ...], ...],
        routes: list[int],
        public: int,
    ) -> Game:
        n = len(names)
        self = object.__new__(cls)
        self.board = board
        self.names = names
        self.players = n
        self.options = options
        self._tile_stop = board.tile_stop
        self._tile_line = board.tile_line
        self._rings = (
            board.rings_tile_line if options.small_tour == "tile-line" else board.rings_by_tile
        )
        self._stacks = stacks
        self._routes = routes
        self._public = public
        self.rounds_total = len(stacks)
        self.round = 0
        self._k = 0
        self.to_move = 0
        self._faceup = list(stacks[0])
        self._dup = len(set(self._faceup)) < len(self._faceup)
        self._tables = _tables(board, n)
        self._owners = self._tables.owners
        self._st = [0] * len(board.stops)
        # Per seat, bit s is set in _m1 when the seat has a business at stop s,
        # and in _m2 when it has two there: grand tours count neighbours by popcount.
        self._m1 = [0] * n
        self._m2 = [0] * n
        self.scores = [0] * n
        self.supply = [BUSINESSES_PER_SEAT] * n
        self.sack = [0] * n
        self._discard = [False] * len(board.lines)
        self._history = []
        self._round_scores = []
        self._outcome = None
        self._ev = None
        return self

    def copy(self) -> Game:
        """An independent copy (the history is shared until either side moves on)."""
        other = object.__new__(Game)
        other.board = self.board
        other.names = self.names
        other.players = self.players
        other.options = self.options
        other._tile_stop = self._tile_stop
        other._tile_line = self._tile_line
        other._rings = self._rings
        other._m1 = self._m1[:]
        other._m2 = self._m2[:]
        other._stacks = self._stacks
        other._routes = self._routes
        other._public = self._public
        other.rounds_total = self.rounds_total
        other.round = self.round
        other._k = self._k
        other.to_move = self.to_move
        other._faceup = self._faceup[:]
        other._dup = self._dup
        other._tables = self._tables
        other._owners = self._owners
        other._st = self._st[:]
        other.scores = self.scores[:]
        other.supply = self.supply[:]
        other.sack = self.sack[:]
        other._discard = self._discard[:]
        other._history = self._history[:]
        other._round_scores = self._round_scores[:]
        other._outcome = self._outcome
        other._ev = None
        return other

    # --- public state -----------------------------------------------------

    @property
    def setup(self) -> Setup:
        """The deal (secret: stacks and routes). Only the referee and records use it."""
        b = self.board
        return Setup(
            tuple(tuple(b.tile_names[t] for t in st) for st in self._stacks),
            tuple(b.line_ids[r] for r in self._routes),
            b.line_ids[self._public] if self._public >= 0 else None,
        )

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def starter(self) -> int:
        """The seat holding the bus this round (R3)."""
        return self.round % self.players

    @property
    def face_up(self) -> tuple[str, ...]:
        """This round's face-up tiles still to take (empty once the game is over)."""
        names = self.board.tile_names
        return tuple(names[t] for t in self._faceup) if self._outcome is None else ()

    @property
    def discard(self) -> tuple[str, ...]:
        """Line ids with a tile in the discard area (never two of one colour, R3)."""
        return tuple(self.board.line_ids[i] for i, d in enumerate(self._discard) if d)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, in order."""
        return [self.decode(c) for c in self._history]

    @property
    def move_count(self) -> int:
        return len(self._history)

    @property
    def total_moves(self) -> int:
        """How many moves a complete game has: one per seat per round."""
        return self.rounds_total * self.players

    @property
    def round_scores(self) -> list[tuple[int, ...]]:
        """Every seat's score after each completed round's tours."""
        return list(self._round_scores)

    def businesses_at(self, stop: str | int) -> tuple[int, ...]:
        """The owners of the businesses at a stop (sorted by seat)."""
        index = self.board.stop_index[stop] if isinstance(stop, str) else stop
        return self._owners[self._st[index]]

    def occupancy(self) -> tuple[tuple[int, ...], ...]:
        """Owners of the businesses at every stop, indexed like ``board.stops``."""
        owners = self._owners
        return tuple(owners[x] for x in self._st)

    def on_board(self) -> list[int]:
        """Each seat's businesses on the board."""
        return [a.bit_count() + b.bit_count() for a, b in zip(self._m1, self._m2, strict=True)]

    def route(self, seat: int) -> str:
        """A seat's secret route marker (secret: use views for players)."""
        return self.board.line_ids[self._routes[seat]]

    @property
    def public_route(self) -> str | None:
        return self.board.line_ids[self._public] if self._public >= 0 else None

    @property
    def tiles_out(self) -> int:
        """Tiles out of the game: taken ones and the pairs that ran a grand tour."""
        in_stacks = sum(len(st) for st in self._stacks[self.round + 1 :])
        return len(self.board.all_tiles) - len(self.face_up) - len(self.discard) - in_stacks

    def stacks_left(self) -> int:
        """Face-down stacks not yet turned up."""
        return self.rounds_total - self.round - 1 if self._outcome is None else 0

    def remaining_stack_tiles(self) -> list[str]:
        """The face-down tiles, in stack order (secret)."""
        names = self.board.tile_names
        return [names[t] for st in self._stacks[self.round + 1 :] for t in st]

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        return self._outcome

    # --- moves ------------------------------------------------------------

    def encode(self, move: Move) -> int:
        """The integer code of a move (tile kind * 8 + evict + 1)."""
        tile = self.board.tile_index[move.tile]
        return tile * 8 + (0 if move.evict is None else move.evict + 1)

    def decode(self, code: int) -> Move:
        evict = (code & 7) - 1
        return Move(self.board.tile_names[code >> 3], None if evict < 0 else evict)

    def legal_codes(self) -> list[int]:
        """Legal moves as integer codes (see :meth:`encode`), one per distinct move."""
        if self._outcome is not None:
            return []
        if not self.supply[self.to_move]:
            # C1: an empty supply takes a tile and opens nothing.
            return [t << 3 for t in dict.fromkeys(self._faceup)]
        st = self._st
        tile_stop = self._tile_stop
        table = self._tables.moves
        faceup = self._faceup
        if self._dup:
            # Two tiles of one kind are one move: keep the first of each.
            faceup = list(dict.fromkeys(faceup))
        codes: list[int] = []
        for t in faceup:
            codes += table[t][st[tile_stop[t]]]
        return codes

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, one per distinct (tile, evict)."""
        return [self.decode(c) for c in self.legal_codes()]

    def check(self, move: Move) -> Illegal | None:
        """``None`` if ``move`` is legal, else why not, as a code (:class:`Illegal`)."""
        if self._outcome is not None:
            return Illegal("game_over")
        b = self.board
        t = b.tile_index.get(move.tile) if isinstance(move.tile, str) else None
        if t is None:
            return Illegal("unknown_tile", tile=brief(move.tile))
        if t not in self._faceup:
            return Illegal("not_face_up", tile=move.tile, face_up=tuple(self.face_up))
        stop = b.tile_stop[t]
        occ = self.businesses_at(stop)
        stop_id = b.stop_ids[stop]
        if self.supply[self.to_move] == 0:
            if move.evict is not None:
                return Illegal("supply_empty", tile=move.tile, stop=stop_id)
            return None
        full = len(occ) >= b.capacity[stop]
        if not full:
            if move.evict is not None:
                return Illegal("not_full", tile=move.tile, stop=stop_id)
            return None
        if move.evict is None:
            return Illegal(
                "must_remove", tile=move.tile, stop=stop_id, seats=tuple(sorted(set(occ)))
            )
        if type(move.evict) is not int or move.evict not in occ:
            return Illegal(
                "no_such_business", tile=move.tile, stop=stop_id, evict=brief(move.evict)
            )
        return None

    def why_illegal(self, move: Move) -> str | None:
        """``None`` if ``move`` is legal, else why not in one English line (for
        developers and logs; players see words made from :meth:`check`)."""
        illegal = self.check(move)
        return None if illegal is None else illegal.explain(self.board)

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def play(self, move: Move) -> list[Event]:
        """Validate and make ``move``; return the events it caused.

        Raises :class:`IllegalMoveError` with the reason when it is illegal.
        """
        illegal = self.check(move)
        if illegal is not None:
            raise IllegalMoveError(
                f"seat {self.to_move} cannot play {move}: {illegal.explain(self.board)}", illegal
            )
        _need_events()
        events: list[Event] = []
        self._ev = events
        try:
            self.apply_code(self.encode(move))
        finally:
            self._ev = None
        return events

    def apply(self, move: Move) -> None:
        """Make ``move`` without checking it (fast; the caller vouches for it)."""
        self.apply_code(self.encode(move))

    def apply_code(self, code: int) -> None:
        """Make the move with this code, unchecked: the engine's hot path."""
        t = code >> 3
        p = self.to_move
        self._faceup.remove(t)
        self._history.append(code)
        supply = self.supply
        ev = self._ev
        if supply[p]:
            stop = self._tile_stop[t]
            st = self._st
            state = st[stop]
            bit = 1 << stop
            if code & 7:
                victim = (code & 7) - 1
                state = self._tables.remove[state][victim]
                if self._m2[victim] & bit:
                    self._m2[victim] ^= bit
                else:
                    self._m1[victim] ^= bit
                if victim == p or self.players == 2:
                    supply[victim] += 1
                    to: Literal["supply", "sack"] = "supply"
                else:
                    self.sack[victim] += 1
                    to = "sack"
                if ev is not None:
                    ev.append(BusinessRemoved(self.round, victim, self.board.stop_ids[stop], p, to))
            st[stop] = self._tables.add[state][p]
            supply[p] -= 1
            if self._m1[p] & bit:
                self._m2[p] |= bit
            else:
                self._m1[p] |= bit
            if ev is not None:
                ev.append(
                    BusinessOpened(
                        self.round, p, self.board.tile_names[t], self.board.stop_ids[stop]
                    )
                )
        elif ev is not None:
            ev.append(NothingOpened(self.round, p, self.board.tile_names[t]))
        k = self._k + 1
        if k < self.players:
            self._k = k
            self.to_move = p + 1 if p + 1 < self.players else 0
        else:
            self._end_round()

    # --- round end and tours ----------------------------------------------

    def _end_round(self) -> None:
        left = self._faceup[0]
        self._small_tour(left)
        line = self._tile_line[left]
        ev = self._ev
        if self._discard[line]:
            self._discard[line] = False
            if ev is not None:
                ev.append(TileDiscarded(self.round, self.board.tile_names[left], True))
            self._grand_tour(line, "grand_tour", None)
        else:
            self._discard[line] = True
            if ev is not None:
                ev.append(TileDiscarded(self.round, self.board.tile_names[left], False))
        self._round_scores.append(tuple(self.scores))
        self.round += 1
        self._k = 0
        if self.round < self.rounds_total:
            self._faceup = list(self._stacks[self.round])
            self._dup = len(set(self._faceup)) < len(self._faceup)
            self.to_move = self.round % self.players
            if ev is not None:
                names = self.board.tile_names
                ev.append(
                    RoundStarted(self.round, self.to_move, tuple(names[t] for t in self._faceup))
                )
        else:
            self._faceup = []
            self._end_game()

    def _small_tour(self, tile: int) -> None:
        """R5: score the businesses at the tile's stop, or the nearest ones."""
        st = self._st
        owners = self._owners
        stop = self._tile_stop[tile]
        scores = self.scores
        if st[stop]:
            for p in owners[st[stop]]:
                scores[p] += 1
            if self._ev is not None:
                self._explain_small(tile, (stop,), 0)
            return
        for d, ring in enumerate(self._rings[tile], 1):
            hit = False
            for s in ring:
                if st[s]:
                    hit = True
                    for p in owners[st[s]]:
                        scores[p] += 1
            if hit:
                if self._ev is not None:
                    self._explain_small(tile, tuple(s for s in ring if st[s]), d)
                return
        if self._ev is not None:
            self._explain_small(tile, (), 0)

    def _explain_small(self, tile: int, stops: tuple[int, ...], d: int) -> None:
        assert self._ev is not None
        b = self.board
        origin = b.tile_stop[tile]
        ids = b.stop_ids
        self._ev.append(
            TourEvent(
                self.round,
                "small_tour",
                b.line_ids[b.tile_line[tile]],
                ids[origin],
                tuple(ids[s] for s in stops),
            )
        )
        for s in stops:
            owners = self.businesses_at(s)
            for p in sorted(set(owners)):
                k = owners.count(p)
                self._ev.append(
                    ScoreEvent(self.round, "small_tour", p, k, ids[s], None, k, 0, d, ids[origin])
                )

    def _grand_tour(
        self, line: int, kind: Literal["grand_tour", "special_tour"], seat: int | None
    ) -> None:
        """R6: at each crossing of the line, owners score there and on its neighbours."""
        st = self._st
        owner_table = self._owners
        nmask = self.board.neighbour_mask
        m1 = self._m1
        m2 = self._m2
        scores = self.scores
        ev = self._ev
        crossings = self.board.line_crossings[line]
        if ev is not None:
            b = self.board
            ev.append(
                TourEvent(
                    self.round,
                    kind,
                    b.line_ids[line],
                    None,
                    tuple(b.stop_ids[c] for c in crossings),
                    seat,
                )
            )
        for c in crossings:
            if not st[c]:
                continue
            here = owner_table[st[c]]
            nm = nmask[c]
            a = here[0]
            if len(here) == 1 or here[1] == a:
                # One owner (C2: two businesses of one owner count the neighbours once).
                near = (m1[a] & nm).bit_count() + (m2[a] & nm).bit_count()
                scores[a] += len(here) + near
                if ev is not None:
                    self._explain_grand(kind, line, c, a, len(here), near)
            else:
                b2 = here[1]
                near_a = (m1[a] & nm).bit_count() + (m2[a] & nm).bit_count()
                near_b = (m1[b2] & nm).bit_count() + (m2[b2] & nm).bit_count()
                scores[a] += 1 + near_a
                scores[b2] += 1 + near_b
                if ev is not None:
                    self._explain_grand(kind, line, c, a, 1, near_a)
                    self._explain_grand(kind, line, c, b2, 1, near_b)

    def _explain_grand(
        self, kind: ScoreKind, line: int, c: int, p: int, here: int, near: int
    ) -> None:
        assert self._ev is not None
        b = self.board
        self._ev.append(
            ScoreEvent(
                self.round, kind, p, here + near, b.stop_ids[c], b.line_ids[line], here, near
            )
        )

    def _end_game(self) -> None:
        """R7: special tours, the sack, the winner."""
        n = self.players
        first = self.round % n
        if self.options.final_tours == "all-lines":
            for line in range(len(self.board.lines)):
                self._grand_tour(line, "special_tour", None)
        else:
            for i in range(n):
                seat = (first + i) % n
                self._grand_tour(self._routes[seat], "special_tour", seat)
            if self._public >= 0:
                self._grand_tour(self._public, "special_tour", None)
        if n > 2:
            best = max(self.sack)
            if best > 0 and self.sack.count(best) == 1:
                seat = self.sack.index(best)
                self.scores[seat] += best
                if self._ev is not None:
                    self._ev.append(
                        ScoreEvent(
                            self.round,
                            "sack",
                            seat,
                            best,
                            None,
                            None,
                            best,
                        )
                    )
        on_board = self.on_board()
        top = max(self.scores)
        tied = [p for p in range(n) if self.scores[p] == top]
        decided: DecidedBy = "score"
        if len(tied) > 1:
            fewest = min(on_board[p] for p in tied)
            tied = [p for p in tied if on_board[p] == fewest]
            decided = "fewest_businesses" if len(tied) == 1 else "shared"
        self._outcome = Outcome(
            tuple(self.scores), tuple(self.sack), tuple(on_board), tuple(tied), decided
        )
        if self._ev is not None:
            self._ev.append(GameOver(self.round, tuple(self.scores), tuple(tied)))

    # --- views -------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (R8); ``None`` gives a spectator's public view."""
        from .view import build_view

        return build_view(self, seat)

    def leftover_events(self, tile: str) -> list[Event]:
        """What would happen if ``tile`` were left over now (the game is not changed).

        The small tour at its stop and, when the discard area already holds its
        colour, the grand tour, both scored on the board as it stands.
        """
        t = self.board.tile_index[tile]
        _need_events()
        probe = self.copy()
        events: list[Event] = []
        probe._ev = events
        probe._small_tour(t)
        line = probe._tile_line[t]
        if probe._discard[line]:
            events.append(TileDiscarded(self.round, tile, True))
            probe._grand_tour(line, "grand_tour", None)
        return events

    def tour_points(self, line: str | int) -> list[int]:
        """Points per seat if a grand tour ran on ``line`` now (R6); the game is not changed.

        Fast (no events): the AI's evaluation weighs every line's tour by how
        likely it is to run. Scored by the engine's own tour code.
        """
        index = self.board.line_index[line] if isinstance(line, str) else line
        saved, ev = self.scores, self._ev
        self.scores, self._ev = [0] * self.players, None
        try:
            self._grand_tour(index, "grand_tour", None)
            return self.scores
        finally:
            self.scores, self._ev = saved, ev

    def small_tour_points(self, tile: str | int) -> list[int]:
        """Points per seat of the small tour if ``tile`` were left over now (R5), unchanged game.

        Only the small tour: a grand tour the discard would trigger is
        :meth:`tour_points` of the tile's line.
        """
        index = self.board.tile_index[tile] if isinstance(tile, str) else tile
        saved, ev = self.scores, self._ev
        self.scores, self._ev = [0] * self.players, None
        try:
            self._small_tour(index)
            return self.scores
        finally:
            self.scores, self._ev = saved, ev

    def _replace_hidden(self, routes: list[int], future: tuple[tuple[int, ...], ...]) -> None:
        """Swap in sampled secrets (see :mod:`paris_tui.core.sampling`)."""
        self._routes = routes
        self._stacks = self._stacks[: self.round + 1] + future

    # --- helpers for tools ------------------------------------------------

    def play_random(self, rng: random.Random) -> None:
        """Play uniformly random legal moves to the end (benchmark and playouts)."""
        rand = rng.random
        while self._outcome is None:
            codes = self.legal_codes()
            self.apply_code(codes[int(rand() * len(codes))])

    def __repr__(self) -> str:
        state = "over" if self._outcome else f"round {self.round}, seat {self.to_move} to move"
        return f"<Game {self.players} players, {state}>"


def _validate_stacks(
    board: Board, n: int, stacks: Iterable[Sequence[str]]
) -> tuple[tuple[int, ...], ...]:
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


def _validate_routes(
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
