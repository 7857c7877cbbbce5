"""The game state and its flow (R2-R4): turns, rounds, moves; the referee's full state.

A :class:`Game` is the referee's full state, secrets included. Players, the
app and the AI look at it only through :meth:`Game.view`, which builds a
:class:`~paris_tui.core.view.SeatView` holding what one seat may know (R8).
The jobs around it live beside it: the deal (:mod:`.dealing`), the tours'
points (:mod:`.scoring`), why a move is illegal (:mod:`.legality`), the
values a game passes around (:mod:`.values`, re-exported here).

Two ways to make a move, as in python-chess:

* :meth:`Game.play` validates the move, raises :class:`IllegalMoveError`
  saying why it is illegal, and returns the :mod:`events <paris_tui.core.events>`
  it caused, every point explained;
* :meth:`Game.apply` (and :meth:`Game.apply_code` with integer move codes
  from :meth:`Game.legal_codes`) trusts the caller and is fast: this is the
  path of the AI's playouts and the benchmark.

Only a game that records what happens makes events (:meth:`Game.play`,
:meth:`Game.leftover_events`); the event classes are imported when the first
one is made, so a program that plays no move (``paris-tui play`` up to its
first frame) and the AI's search, which makes none, never import
:mod:`~paris_tui.core.events`.

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
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from .board import Board, classic_board
from .dealing import Deal, deal, deal_ids, seat_names, setup_ids
from .errors import Illegal, IllegalMoveError
from .legality import check_move
from .scoring import Tours, tours_for
from .tables import StopTables, stop_tables
from .values import FINAL_TOUR_MODES, SMALL_TOUR_MODES, Move, Options, Outcome, Setup
from .view import SeatView

if TYPE_CHECKING:
    from .events import (
        BusinessOpened,
        BusinessRemoved,
        Event,
        NothingOpened,
        RoundStarted,
        TileDiscarded,
    )

__all__ = [
    "BUSINESSES_PER_SEAT",
    "FINAL_TOUR_MODES",
    "SMALL_TOUR_MODES",
    "Game",
    "Move",
    "Options",
    "Outcome",
    "Setup",
    "build_view",
    "deal",
]


def _need_events() -> None:
    """Bind the event classes this module makes (:mod:`~paris_tui.core.events`), once.

    :meth:`Game.play` and :meth:`Game.leftover_events` call this first: they are
    the only ways in with a list of events. Imported here, the events are not
    imported with the game (see the module's docstring); imported in each method
    that makes one, they would cost a move explained by :meth:`Game.play` about
    40% more time.
    """
    if "TileDiscarded" not in globals():
        from .events import (
            BusinessOpened,
            BusinessRemoved,
            NothingOpened,
            RoundStarted,
            TileDiscarded,
        )

        globals().update(
            BusinessOpened=BusinessOpened,
            BusinessRemoved=BusinessRemoved,
            NothingOpened=NothingOpened,
            RoundStarted=RoundStarted,
            TileDiscarded=TileDiscarded,
        )


BUSINESSES_PER_SEAT = 19  # 20 per colour, one is the score marker (R1)


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
        "_round_scores",
        "_routes",
        "_st",
        "_stacks",
        "_tables",
        "_tile_line",
        "_tile_stop",
        "_tours",
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
        names = seat_names(players)
        if rng is None:
            rng = random.Random(seed)
        game = object.__new__(cls)
        game._start(board, names, options or Options(), deal_ids(board, len(names), rng))
        return game

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
        names = seat_names(players)
        game = object.__new__(cls)
        game._start(board, names, options or Options(), setup_ids(board, len(names), setup))
        return game

    def _start(self, board: Board, names: tuple[str, ...], options: Options, deal: Deal) -> None:
        """Set up the first round of ``deal``: every field of the state, with its type."""
        stacks, routes, public = deal
        n = len(names)
        self.board: Board = board
        self.names: tuple[str, ...] = names
        self.players: int = n
        self.options: Options = options
        self._tile_stop: tuple[int, ...] = board.tile_stop
        self._tile_line: tuple[int, ...] = board.tile_line
        self._stacks: tuple[tuple[int, ...], ...] = stacks
        self._routes: list[int] = routes
        self._public: int = public  # the public route's line, -1 for none
        self.rounds_total: int = len(stacks)
        self.round: int = 0
        self._k: int = 0  # how many tiles were taken this round
        self.to_move: int = 0
        self._faceup: list[int] = list(stacks[0])
        self._dup: bool = len(set(self._faceup)) < len(self._faceup)  # two of one kind
        self._tables: StopTables = stop_tables(board, n)
        self._owners: tuple[tuple[int, ...], ...] = self._tables.owners
        self._st: list[int] = [0] * len(board.stops)  # per stop, its state (see .tables)
        # Per seat, bit s is set in _m1 when the seat has a business at stop s,
        # and in _m2 when it has two there: grand tours count neighbours by popcount.
        self._m1: list[int] = [0] * n
        self._m2: list[int] = [0] * n
        self._tours: Tours = tours_for(board, options, n)  # scores _st, _m1 and _m2
        self.scores: list[int] = [0] * n
        self.supply: list[int] = [BUSINESSES_PER_SEAT] * n
        self.sack: list[int] = [0] * n
        self._discard: list[bool] = [False] * len(board.lines)  # per line
        self._history: list[int] = []  # the moves' codes
        self._round_scores: list[tuple[int, ...]] = []
        self._outcome: Outcome | None = None
        self._ev: list[Event] | None = None  # while playing a move: its events

    def copy(self) -> Game:
        """An independent copy; it shares only what never changes (board, deal, tables)."""
        other = object.__new__(Game)
        other.board = self.board
        other.names = self.names
        other.players = self.players
        other.options = self.options
        other._tile_stop = self._tile_stop
        other._tile_line = self._tile_line
        other._tours = self._tours
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
        return check_move(
            self.board,
            move,
            face_up=self._faceup if self._outcome is None else None,
            has_supply=self.supply[self.to_move] > 0,
            owners=self.businesses_at,
        )

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

    # --- round end ---------------------------------------------------------

    def _end_round(self) -> None:
        """R3.3-R3.5: the left-over tile's small tour and discard (a pair runs a grand
        tour), then the next round, or the end of the game (R7) when no stack is left."""
        left = self._faceup[0]
        tours, ev = self._tours, self._ev
        st, m1, m2, scores = self._st, self._m1, self._m2, self.scores
        tours.small(st, left, scores, ev, self.round)
        line = self._tile_line[left]
        paired = self._discard[line]
        self._discard[line] = not paired
        if ev is not None:
            ev.append(TileDiscarded(self.round, self.board.tile_names[left], paired))
        if paired:
            tours.grand(st, m1, m2, line, scores, ev, self.round)
        self._round_scores.append(tuple(scores))
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
            self._outcome = tours.final(
                st, m1, m2, self._routes, self._public, scores, self.sack, ev, self.round
            )

    # --- views and what-ifs -----------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (R8); ``None`` gives a spectator's public view."""
        return build_view(self, seat)

    def leftover_events(self, tile: str) -> list[Event]:
        """What would happen if ``tile`` were left over now (the game is not changed).

        The small tour at its stop and, when the discard area already holds its
        colour, the grand tour, both scored on the board as it stands.
        """
        t = self.board.tile_index[tile]
        _need_events()
        events: list[Event] = []
        scores = [0] * self.players
        self._tours.small(self._st, t, scores, events, self.round)
        line = self._tile_line[t]
        if self._discard[line]:
            events.append(TileDiscarded(self.round, tile, True))
            self._tours.grand(self._st, self._m1, self._m2, line, scores, events, self.round)
        return events

    def tour_points(self, line: str | int) -> list[int]:
        """Points per seat if a grand tour ran on ``line`` now (R6); the game is not changed.

        Fast (no events): the AI's evaluation weighs every line's tour by how
        likely it is to run. Scored by the engine's own tour code.
        """
        index = self.board.line_index[line] if isinstance(line, str) else line
        scores = [0] * self.players
        self._tours.grand(self._st, self._m1, self._m2, index, scores, None, self.round)
        return scores

    def small_tour_points(self, tile: str | int) -> list[int]:
        """Points per seat of the small tour if ``tile`` were left over now (R5), unchanged game.

        Only the small tour: a grand tour the discard would trigger is
        :meth:`tour_points` of the tile's line.
        """
        index = self.board.tile_index[tile] if isinstance(tile, str) else tile
        scores = [0] * self.players
        self._tours.small(self._st, index, scores, None, self.round)
        return scores

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


def build_view(game: Game, seat: int | None) -> SeatView:
    """Copy out of ``game`` what ``seat`` may know. Use :meth:`Game.view`."""
    if seat is not None and not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat} in a {game.players}-player game")
    board = game.board
    moves = tuple(game.moves)
    over = game.is_over
    outcome = game.outcome()

    # Each finished round's left-over tile: its stack minus the tiles taken.
    setup = game.setup
    leftovers: list[str] = []
    per_round = game.players
    for r in range(min(game.round, game.rounds_total)):
        remaining = Counter(setup.stacks[r])
        remaining.subtract(m.tile for m in moves[r * per_round : (r + 1) * per_round])
        leftovers.extend(t for t, c in remaining.items() if c > 0)

    face_up = game.face_up
    unseen = Counter(board.all_tiles)
    unseen.subtract(m.tile for m in moves)
    unseen.subtract(leftovers)
    unseen.subtract(face_up)
    unseen_tiles = tuple(sorted(unseen.elements()))

    my_turn = seat is not None and not over and seat == game.to_move
    return SeatView(
        board=board,
        names=game.names,
        options=game.options,
        seat=seat,
        round=game.round,
        rounds_total=game.rounds_total,
        starter=game.starter,
        to_move=None if over else game.to_move,
        face_up=face_up,
        discard=game.discard,
        scores=tuple(game.scores),
        supply=tuple(game.supply),
        occupancy=game.occupancy(),
        sack_total=sum(game.sack),
        stacks_left=game.stacks_left(),
        moves=moves,
        leftovers=tuple(leftovers),
        unseen_tiles=unseen_tiles,
        round_scores=tuple(game.round_scores),
        own_route=game.route(seat) if seat is not None else None,
        public_route=game.public_route,
        legal_moves=tuple(game.legal_moves()) if my_turn else (),
        outcome=outcome,
        revealed_routes=tuple(game.route(p) for p in range(game.players)) if over else None,
    )
