"""The expert's own playout engine: the rules of :mod:`paris_tui.core` on flat lists of ints.

The search spends most of its time playing random games to the end. The
core's :class:`~paris_tui.core.Game` is fast already (stop states and move
lists are table lookups, see :mod:`paris_tui.core.tables`), but each move is
a method call that keeps a history, each round's end calls the tours'
methods, and each simulation copies a whole ``Game``. :class:`FastGame`
holds only what the rest of a game needs (stop states, the per-seat bitmasks
of businesses, scores, supplies, sacks, the discard as a bitmask, the face-up
tiles, the face-down tiles as one flat list, the routes) and
:meth:`FastGame.playout` plays to the end in one loop with no call per move,
the small and grand tours written out in place.

It uses the core's own tables (:func:`~paris_tui.core.tables.stop_tables`,
the board's rings, neighbour masks and crossings), and it is checked against
the core move by move, legal set by legal set and score by score on
thousands of random games (``tests/ai/test_fast.py``). Its random playout
draws exactly as :meth:`paris_tui.core.Game.play_random` does, so both play
the same game from the same generator.

A :class:`FastGame` is built from a :class:`~paris_tui.core.sampling.Determinizer`'s
public position (:meth:`FastGame.from_game`, reading only a game's public
attributes) with the hidden parts (the other seats' routes, the face-down
order) filled in by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from ..core import Game, Options
from ..core.board import Board
from ..core.tables import stop_tables

__all__ = ["FastGame", "Rules", "best_builds", "build_value", "leftover_gain", "rules_for"]

Guide = Callable[[list[int], list[int], int, int, bool, int], list[int]]
"""A playout's policy: (legal codes, face-up tiles, mover, moves made this round, two
face-up tiles of one kind, discard) to the codes to draw from (:meth:`FastGame._play`)."""


class Rules:
    """What never changes in games of one board, variant and player count."""

    __slots__ = (
        "add",
        "all_lines",
        "cross_mask",
        "cross_weight",
        "crossing",
        "lines",
        "moves",
        "nmask",
        "owners",
        "players",
        "remove",
        "rings",
        "state_of",
        "tile_line",
        "tile_stop",
        "tour",
    )

    def __init__(self, board: Board, options: Options, players: int) -> None:
        tables = stop_tables(board, players)
        self.players = players
        self.owners = tables.owners
        self.add = tables.add
        self.remove = tables.remove
        self.moves = tables.moves
        self.state_of = {owners: i for i, owners in enumerate(tables.owners)}
        # Per stop state, for a grand tour: (first owner, its businesses there, the other
        # owner or -1). Two businesses of one owner count the neighbours once (C2).
        self.crossing: tuple[tuple[int, int, int], ...] = tuple(
            (o[0], len(o), -1) if len(o) == 1 or o[0] == o[1] else (o[0], 1, o[1])
            for o in (owners or (0,) for owners in tables.owners)
        )
        self.tile_stop = board.tile_stop
        self.tile_line = board.tile_line
        self.rings = (
            board.rings_tile_line if options.small_tour == "tile-line" else board.rings_by_tile
        )
        nmask = board.neighbour_mask
        # Per line, its crossings with their neighbour masks: a grand tour's loop (R6).
        self.tour: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((c, nmask[c]) for c in crossings) for crossings in board.line_crossings
        )
        self.lines = len(board.lines)
        self.all_lines = options.final_tours == "all-lines"
        self.nmask = nmask
        # For the playouts' policy: a stop's lines if a crossing (0 elsewhere), the crossings.
        self.cross_weight = tuple(
            len(stop.lines) if stop.is_crossing else 0 for stop in board.stops
        )
        self.cross_mask = sum(1 << s for s in board.crossings())


@cache
def rules_for(board: Board, options: Options, players: int) -> Rules:
    return Rules(board, options, players)


def _grand(
    tour: tuple[tuple[int, int], ...],
    st: list[int],
    m1: list[int],
    m2: list[int],
    crossing: tuple[tuple[int, int, int], ...],
    scores: list[int],
) -> None:
    """R6: at each crossing, its owners score there and on its neighbours (``crossing``:
    :attr:`Rules.crossing`)."""
    for c, nm in tour:
        x = st[c]
        if not x:
            continue
        a, here, b = crossing[x]
        scores[a] += here + (m1[a] & nm).bit_count() + (m2[a] & nm).bit_count()
        if b >= 0:
            scores[b] += 1 + (m1[b] & nm).bit_count() + (m2[b] & nm).bit_count()


def _small(rules: Rules, st: list[int], left: int, scores: list[int]) -> None:
    """R5: the small tour of left-over tile ``left``: a point for each business at its stop,
    or, at an empty stop, at the stops of the nearest ring that has any."""
    owners = rules.owners
    x = st[rules.tile_stop[left]]
    if x:
        for q in owners[x]:
            scores[q] += 1
        return
    for ring in rules.rings[left]:
        hit = False
        for s in ring:
            x = st[s]
            if x:
                hit = True
                for q in owners[x]:
                    scores[q] += 1
        if hit:
            return


def leftover_gain(
    rules: Rules, st: list[int], m1: list[int], m2: list[int], discard: int, left: int, p: int
) -> int:
    """What seat ``p`` gains over the best other seat if tile ``left`` is left over now: its
    small tour (R5) and the grand tour its discard would trigger (R6), on this board."""
    pts = [0] * rules.players
    _small(rules, st, left, pts)
    line = rules.tile_line[left]
    if discard & (1 << line):
        _grand(rules.tour[line], st, m1, m2, rules.crossing, pts)
    mine = pts[p]
    pts[p] = -(1 << 30)
    return mine - max(pts)


def best_builds(rules: Rules, m1: list[int], codes: list[int], p: int) -> list[int]:
    """The codes of the best :func:`build_value` for seat ``p``."""
    values = [build_value(rules, m1, code, p) for code in codes]
    best = max(values)
    return [code for code, v in zip(codes, values, strict=True) if v == best]


def build_value(rules: Rules, m1: list[int], code: int, p: int) -> int:
    """A cheap value of move ``code`` for seat ``p``: what its business adds to the grand
    tours (R6) at its stop (the stop's lines if a crossing, times one plus ``p``'s
    neighbouring stops) and at ``p``'s neighbouring crossings (one each), plus what a
    removed business of another seat loses by the same count (minus, for its own)."""
    s = rules.tile_stop[code >> 3]
    nm = rules.nmask[s]
    weight = rules.cross_weight[s]
    mine = m1[p] & nm
    v = weight * (1 + mine.bit_count()) + (mine & rules.cross_mask).bit_count()
    if code & 7:
        q = (code & 7) - 1
        theirs = m1[q] & nm
        loss = weight * (1 + theirs.bit_count()) + (theirs & rules.cross_mask).bit_count()
        v += -loss if q == p else loss
    return v


class FastGame:
    """A game's state as flat ints and lists; see the module docstring."""

    __slots__ = (
        "discard",
        "dup",
        "faceup",
        "future",
        "k",
        "m1",
        "m2",
        "over",
        "pos",
        "public",
        "round",
        "routes",
        "rules",
        "sack",
        "scores",
        "st",
        "supply",
        "to_move",
        "total",
        "winners",
    )

    rules: Rules
    st: list[int]
    m1: list[int]
    m2: list[int]
    scores: list[int]
    supply: list[int]
    sack: list[int]
    discard: int  # bit l set: a tile of line l lies in the discard area
    faceup: list[int]
    dup: bool  # two face-up tiles of one kind
    future: list[int]  # the face-down tiles, the next round's first
    pos: int  # where the next round's tiles start in future
    routes: list[int]
    public: int  # the public route's line, -1 for none
    round: int
    total: int  # rounds in the game
    k: int  # tiles taken this round
    to_move: int
    over: bool
    winners: tuple[int, ...]

    @classmethod
    def from_game(cls, game: Game, routes: Sequence[int], future: Sequence[int]) -> FastGame:
        """``game``'s public position (stops, scores, supplies, sacks, discard, face-up
        tiles) with these routes (line indexes) and face-down tiles (kind indexes, in
        play order)."""
        board = game.board
        n = game.players
        rules = rules_for(board, game.options, n)
        self = object.__new__(cls)
        self.rules = rules
        occupancy = game.occupancy()
        self.st = [rules.state_of[owners] for owners in occupancy]
        self.m1 = [0] * n
        self.m2 = [0] * n
        for s, owners in enumerate(occupancy):
            for p in set(owners):
                self.m1[p] |= 1 << s
                if owners.count(p) == 2:
                    self.m2[p] |= 1 << s
        self.scores = list(game.scores)
        self.supply = list(game.supply)
        self.sack = list(game.sack)
        self.discard = sum(1 << board.line_index[line] for line in game.discard)
        self.faceup = [board.tile_index[t] for t in game.face_up]
        self.dup = len(set(self.faceup)) < len(self.faceup)
        self.future = list(future)
        self.pos = 0
        self.routes = list(routes)
        public = game.public_route
        self.public = board.line_index[public] if public is not None else -1
        self.round = game.round
        self.total = game.rounds_total
        self.k = game.move_count - game.round * n
        self.to_move = game.to_move
        self.over = game.is_over
        self.winners = ()
        return self

    def fork(self, routes: list[int], future: list[int]) -> FastGame:
        """A copy with other hidden parts (``routes`` and ``future`` are kept, not copied)."""
        other = object.__new__(FastGame)
        other.rules = self.rules
        other.st = self.st[:]
        other.m1 = self.m1[:]
        other.m2 = self.m2[:]
        other.scores = self.scores[:]
        other.supply = self.supply[:]
        other.sack = self.sack[:]
        other.discard = self.discard
        other.faceup = self.faceup[:]
        other.dup = self.dup
        other.future = future
        other.pos = self.pos
        other.routes = routes
        other.public = self.public
        other.round = self.round
        other.total = self.total
        other.k = self.k
        other.to_move = self.to_move
        other.over = self.over
        other.winners = self.winners
        return other

    def legal(self) -> list[int]:
        """The legal move codes, in the core's order (:meth:`paris_tui.core.Game.legal_codes`)."""
        if self.over:
            return []
        fu = self.faceup
        if not self.supply[self.to_move]:
            return [t << 3 for t in dict.fromkeys(fu)]
        rules = self.rules
        st = self.st
        ts = rules.tile_stop
        moves = rules.moves
        codes: list[int] = []
        if self.dup:
            fu = list(dict.fromkeys(fu))
        for t in fu:
            codes += moves[t][st[ts[t]]]
        return codes

    def apply(self, code: int) -> None:
        """Make the move with this code (trusted, as :meth:`paris_tui.core.Game.apply_code`)."""
        self._play(None, code)

    def playout(
        self, rand: Callable[[], float], trace: list[int] | None = None, until: int = 0
    ) -> None:
        """Uniformly random legal moves to the end, drawn as the core's ``play_random``;
        ``trace`` receives the codes played. With ``until`` (a round, above the current
        one), stop when that round begins (or the game ends first)."""
        if not self.over:
            self._play(rand, -1, trace, None, until)

    def playout_guided(
        self,
        rand: Callable[[], float],
        eps: float = 0.0,
        own: bool = False,
        trace: list[int] | None = None,
        greedy: float = 0.0,
        until: int = 0,
    ) -> None:
        """Random legal moves to the end, except that (with chance ``1 - eps``) a round's
        last mover takes the tile whose left-over twin pays it best (:func:`leftover_gain`)
        and, with ``own``, nobody removes its own business when another move is legal;
        with chance ``greedy`` another move takes the best :func:`build_value`.
        ``trace`` receives the codes; ``until`` stops as for :meth:`playout`."""
        if self.over:
            return
        rules = self.rules
        last = rules.players - 1
        st, m1, m2 = self.st, self.m1, self.m2

        def guide(
            codes: list[int], fu: list[int], p: int, k: int, dup: bool, discard: int
        ) -> list[int]:
            if k == last and not dup and (eps <= 0.0 or rand() >= eps):
                a, b = fu
                ga = leftover_gain(rules, st, m1, m2, discard, a, p)
                gb = leftover_gain(rules, st, m1, m2, discard, b, p)
                if ga != gb:
                    take = b if ga > gb else a
                    codes = [c for c in codes if c >> 3 == take]
            elif greedy > 0.0 and len(codes) > 1 and rand() < greedy:
                codes = best_builds(rules, m1, codes, p)
            if own and len(codes) > 1:
                mine = p + 1
                kept = [c for c in codes if c & 7 != mine]
                if kept:
                    codes = kept
            return codes

        self._play(rand, -1, trace, guide, until)

    def _play(
        self,
        rand: Callable[[], float] | None,
        code: int,
        trace: list[int] | None = None,
        guide: Guide | None = None,
        until: int = 0,
    ) -> None:
        """Make ``code`` (``rand`` None), or random moves to the end: one loop, no call a
        move. A ``guide`` narrows each move's legal codes before the random draw (one call
        a move; :meth:`playout_guided`). ``until`` (above 0) stops the random moves at the
        start of that round (a truncated playout)."""
        rules = self.rules
        n = rules.players
        ts = rules.tile_stop
        tl = rules.tile_line
        moves = rules.moves
        add = rules.add
        remove = rules.remove
        tour = rules.tour
        crossing = rules.crossing
        st, m1, m2 = self.st, self.m1, self.m2
        scores, supply, sack = self.scores, self.supply, self.sack
        fu = self.faceup
        dup = self.dup
        discard = self.discard
        rnd = self.round
        k = self.k
        p = self.to_move
        size = n + 1
        while True:
            if rand is not None:
                if not supply[p]:
                    codes = [t << 3 for t in dict.fromkeys(fu)]
                elif dup:
                    codes = []
                    for t in dict.fromkeys(fu):
                        codes += moves[t][st[ts[t]]]
                elif len(fu) == 2:
                    a, b = fu
                    codes = [*moves[a][st[ts[a]]], *moves[b][st[ts[b]]]]
                else:
                    codes = []
                    for t in fu:
                        codes += moves[t][st[ts[t]]]
                if guide is not None:
                    codes = guide(codes, fu, p, k, dup, discard)
                code = codes[int(rand() * len(codes))]
                if trace is not None:
                    trace.append(code)
            t = code >> 3
            fu.remove(t)
            if supply[p]:
                stop = ts[t]
                state = st[stop]
                bit = 1 << stop
                if code & 7:
                    victim = (code & 7) - 1
                    state = remove[state][victim]
                    if m2[victim] & bit:
                        m2[victim] ^= bit
                    else:
                        m1[victim] ^= bit
                    if victim == p or n == 2:
                        supply[victim] += 1
                    else:
                        sack[victim] += 1
                st[stop] = add[state][p]
                supply[p] -= 1
                if m1[p] & bit:
                    m2[p] |= bit
                else:
                    m1[p] |= bit
            k += 1
            if k < n:
                p = p + 1 if p + 1 < n else 0
                if rand is None:
                    break
                continue
            # The round's end (R3.3-R3.5): the left-over tile's small tour, its discard.
            left = fu[0]
            _small(rules, st, left, scores)
            line = tl[left]
            lb = 1 << line
            if discard & lb:
                discard ^= lb
                _grand(tour[line], st, m1, m2, crossing, scores)
            else:
                discard |= lb
            rnd += 1
            k = 0
            if rnd < self.total:
                pos = self.pos
                fu = self.future[pos : pos + size]
                self.pos = pos + size
                dup = len(set(fu)) < len(fu)
                p = rnd % n
                if rand is None or rnd == until:
                    break
                continue
            fu = []
            self._final()
            break
        self.faceup = fu
        self.dup = dup
        self.discard = discard
        self.round = rnd
        self.k = k
        self.to_move = p

    def _final(self) -> None:
        """R7: the special tours, the sack's majority, the winners (fewest businesses
        on the board break a tie)."""
        rules = self.rules
        st, m1, m2, scores = self.st, self.m1, self.m2, self.scores
        crossing = rules.crossing
        tour = rules.tour
        n = rules.players
        if rules.all_lines:
            for line in range(rules.lines):
                _grand(tour[line], st, m1, m2, crossing, scores)
        else:
            for line in self.routes:
                _grand(tour[line], st, m1, m2, crossing, scores)
            if self.public >= 0:
                _grand(tour[self.public], st, m1, m2, crossing, scores)
        sack = self.sack
        if n > 2:
            best = max(sack)
            if best > 0 and sack.count(best) == 1:
                scores[sack.index(best)] += best
        top = max(scores)
        tied = [p for p in range(n) if scores[p] == top]
        if len(tied) > 1:
            on_board = [m1[p].bit_count() + m2[p].bit_count() for p in tied]
            fewest = min(on_board)
            tied = [p for p, b in zip(tied, on_board, strict=True) if b == fewest]
        self.winners = tuple(tied)
        self.over = True

    def on_board(self) -> list[int]:
        return [a.bit_count() + b.bit_count() for a, b in zip(self.m1, self.m2, strict=True)]
