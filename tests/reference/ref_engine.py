"""Independent reference implementation of the Paris Paris rules.

Written from docs/rules.md (sections R1-R8, C1, C2) and
record-format.md only.  It is a test oracle and a speed baseline, so it is
deliberately plain: tiles are strings "stop/line", seats are ints, stops are
id strings, the board is a dict stop -> list of owner seats.  Standard
library only.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from dataclasses import dataclass, field

SUPPLY_START = 19  # R1: 20 businesses, one is the score marker
DEFAULT_OPTIONS = {"small_tour": "both-lines", "final_tours": "secret"}


# ---------------------------------------------------------------- board (R1)


@dataclass
class RefBoard:
    lines: dict[str, list[str]]  # line id -> its 7 stops in order
    line_ids: list[str]  # line ids in file order
    stops: list[str]  # stop ids in file order
    lines_of: dict[str, list[str]]  # stop -> lines through it
    neighbours: dict[str, list[str]]  # stop -> neighbour stops (R1)
    crossings: list[str]  # stops on two lines
    tiles: list[str]  # the 60 tiles, sorted

    def capacity(self, stop: str) -> int:
        """R4: a plain stop holds 1 business, a crossing 2."""
        return 2 if len(self.lines_of[stop]) == 2 else 1

    def line_crossings(self, line: str) -> list[str]:
        """The crossings of a line, in line order (R6)."""
        return [s for s in self.lines[line] if len(self.lines_of[s]) == 2]


def load_board(path) -> RefBoard:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    lines = {ln["id"]: list(ln["stops"]) for ln in data["lines"]}
    line_ids = [ln["id"] for ln in data["lines"]]
    stops = [s["id"] for s in data["stops"]]
    lines_of: dict[str, list[str]] = {s: [] for s in stops}
    neighbours: dict[str, list[str]] = {s: [] for s in stops}
    tiles: list[str] = []
    for line in line_ids:
        seq = lines[line]
        for i, stop in enumerate(seq):
            lines_of[stop].append(line)
            for j in (i - 1, i + 1):
                if 0 <= j < len(seq) and seq[j] not in neighbours[stop]:
                    neighbours[stop].append(seq[j])
        # one tile per road segment end, coloured by the segment's line
        for a, b in itertools.pairwise(seq):
            tiles.append(f"{a}/{line}")
            tiles.append(f"{b}/{line}")
    crossings = [s for s in stops if len(lines_of[s]) == 2]
    return RefBoard(lines, line_ids, stops, lines_of, neighbours, crossings, sorted(tiles))


def tile_stop(tile: str) -> str:
    return tile.split("/", maxsplit=1)[0]


def tile_line(tile: str) -> str:
    return tile.split("/")[1]


# ---------------------------------------------------------------- set-up (R2)


def deal(board: RefBoard, n_players: int, rng: random.Random) -> dict:
    """R2: stacks of n+1 shuffled tiles, shuffled route markers."""
    tiles = list(board.tiles)
    rng.shuffle(tiles)
    size = n_players + 1
    stacks = [tiles[i : i + size] for i in range(0, len(tiles), size)]
    markers = list(board.line_ids)
    rng.shuffle(markers)
    return {
        "stacks": stacks,
        "routes": markers[:n_players],
        "public_route": markers[n_players] if n_players == 2 else None,
    }


# ---------------------------------------------------------------- game state


@dataclass
class RefGame:
    board: RefBoard
    n: int
    stacks: list[list[str]]
    routes: list[str]
    public_route: str | None = None
    options: dict = field(default_factory=dict)
    # mutable state: all public so tests can build situations directly
    scores: list[int] = field(default_factory=list)
    supply: list[int] = field(default_factory=list)
    sack: list[int] = field(default_factory=list)
    businesses: dict[str, list[int]] = field(default_factory=dict)
    discard: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)  # tiles out of the game
    round: int = 0  # index of the current round
    face_up: list[str] = field(default_factory=list)
    turn: int = 0  # moves made in the current round
    finished: bool = False
    round_scores: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.options = {**DEFAULT_OPTIONS, **(self.options or {})}
        if not self.scores:
            self.scores = [0] * self.n
        if not self.supply:
            self.supply = [SUPPLY_START] * self.n
        if not self.sack:
            self.sack = [0] * self.n
        for stop in self.board.stops:
            self.businesses.setdefault(stop, [])
        if not self.face_up and not self.finished:
            self.start_round()

    @classmethod
    def from_setup(
        cls, board: RefBoard, n: int, setup: dict, options: dict | None = None
    ) -> RefGame:
        return cls(
            board,
            n,
            [list(s) for s in setup["stacks"]],
            list(setup["routes"]),
            setup.get("public_route"),
            dict(options or {}),
        )

    # ------------------------------------------------------------ queries

    def current_seat(self) -> int:
        """R3: round r starts with seat r mod n, then clockwise."""
        return (self.round + self.turn) % self.n

    def is_full(self, stop: str) -> bool:
        return len(self.businesses[stop]) >= self.board.capacity(stop)

    def on_board(self) -> list[int]:
        counts = [0] * self.n
        for owners in self.businesses.values():
            for seat in owners:
                counts[seat] += 1
        return counts

    def legal_moves(self) -> list[tuple[str, int | None]]:
        """Distinct (tile, evict) choices for the current seat."""
        seat = self.current_seat()
        moves: list[tuple[str, int | None]] = []
        seen: list[str] = []
        for tile in self.face_up:
            if tile in seen:
                continue
            seen.append(tile)
            stop = tile_stop(tile)
            if self.is_full(stop) and self.supply[seat] > 0:
                for owner in sorted(set(self.businesses[stop])):
                    moves.append((tile, owner))
            else:
                moves.append((tile, None))
        return moves

    # ------------------------------------------------------------ rules

    def start_round(self) -> None:
        """R3.1, or R7 when no stack is left."""
        if self.round >= len(self.stacks):
            self.end_game()
            return
        self.face_up = list(self.stacks[self.round])
        self.turn = 0

    def open_business(self, seat: int, stop: str, evict: int | None) -> None:
        """R4 and C1."""
        if self.supply[seat] == 0:
            return  # C1: the tile is taken, nothing opened or removed
        if self.is_full(stop):
            self.businesses[stop].remove(evict)
            if evict == seat or self.n == 2:
                self.supply[evict] += 1
            else:
                self.sack[evict] += 1
        self.businesses[stop].append(seat)
        self.supply[seat] -= 1

    def play(self, tile: str, evict: int | None = None) -> None:
        """One move (R3.2); ends the round after the last player's move."""
        seat = self.current_seat()
        self.face_up.remove(tile)
        self.gone.append(tile)
        self.open_business(seat, tile_stop(tile), evict)
        self.turn += 1
        if self.turn == self.n:
            self.end_round()

    def small_tour(self, remaining_tile: str) -> None:
        """R5: score the nearest businesses from the remaining tile's stop."""
        stop = tile_stop(remaining_tile)
        if self.businesses[stop]:
            for seat in self.businesses[stop]:
                self.scores[seat] += 1
            return
        if self.options["small_tour"] == "tile-line":
            lines = [tile_line(remaining_tile)]
        else:
            lines = self.board.lines_of[stop]
        for d in range(1, 7):
            found: list[str] = []
            for line in lines:
                seq = self.board.lines[line]
                i = seq.index(stop)
                for j in (i - d, i + d):
                    if 0 <= j < len(seq) and self.businesses[seq[j]] and seq[j] not in found:
                        found.append(seq[j])
            if found:
                for s in found:
                    for seat in self.businesses[s]:
                        self.scores[seat] += 1
                return

    def grand_tour(self, line: str) -> None:
        """R6 (with C2): visit the line's 4 crossings."""
        for crossing in self.board.line_crossings(line):
            owners = self.businesses[crossing]
            for seat in owners:
                self.scores[seat] += 1
            for seat in set(owners):  # C2: neighbours count once per player
                for nb in self.board.neighbours[crossing]:
                    self.scores[seat] += self.businesses[nb].count(seat)

    def end_round(self) -> None:
        """R3.3-R3.5 after the last move of a round."""
        remaining = self.face_up[0]
        self.face_up = []
        self.small_tour(remaining)
        colour = tile_line(remaining)
        same = [t for t in self.discard if tile_line(t) == colour]
        if same:
            self.grand_tour(colour)
            self.discard.remove(same[0])
            self.gone += [same[0], remaining]
        else:
            self.discard.append(remaining)
        self.round_scores.append({"round": self.round, "scores": list(self.scores)})
        self.round += 1
        self.start_round()

    def end_game(self) -> None:
        """R7: special tours, sack, winners."""
        self.finished = True
        self.face_up = []
        if self.options["final_tours"] == "all-lines":
            tours = list(self.board.line_ids)
        else:
            first = self.round % self.n  # seat that would start next round
            tours = [self.routes[(first + k) % self.n] for k in range(self.n)]
            if self.n == 2 and self.public_route is not None:
                tours.append(self.public_route)
        for line in tours:
            self.grand_tour(line)
        if self.n >= 3:
            best = max(self.sack)
            if self.sack.count(best) == 1:
                seat = self.sack.index(best)
                self.scores[seat] += self.sack[seat]

    def winners(self) -> list[int]:
        """R7.3: best score, then fewest businesses on board, else shared."""
        top = max(self.scores)
        tied = [s for s in range(self.n) if self.scores[s] == top]
        counts = self.on_board()
        fewest = min(counts[s] for s in tied)
        return [s for s in tied if counts[s] == fewest]

    def final(self) -> dict | None:
        if not self.finished:
            return None
        return {
            "scores": list(self.scores),
            "sack": list(self.sack),
            "on_board": self.on_board(),
            "winners": self.winners(),
        }


# ---------------------------------------------------------------- public API


def random_record(
    board: RefBoard,
    n_players: int,
    seed: int,
    options: dict | None = None,
    moves_limit: int | None = None,
) -> dict:
    """A complete valid record played with uniformly random legal moves."""
    rng = random.Random(seed)
    setup = deal(board, n_players, rng)
    opts = {**DEFAULT_OPTIONS, **(options or {})}
    game = RefGame.from_setup(board, n_players, setup, opts)
    moves: list[dict] = []
    while not game.finished:
        if moves_limit is not None and len(moves) >= moves_limit:
            break
        tile, evict = rng.choice(game.legal_moves())
        game.play(tile, evict)
        move: dict = {"tile": tile}
        if evict is not None:
            move["evict"] = evict
        moves.append(move)
    return {
        "format": "paris-paris-record",
        "version": 1,
        "board": "classic",
        "players": [{"name": f"P{i}", "kind": "human"} for i in range(n_players)],
        "options": opts,
        "setup": setup,
        "moves": moves,
    }


def replay_summary(board: RefBoard, record: dict) -> dict:
    """The `paris-tui replay --json` object for a (valid) record."""
    n = len(record["players"])
    game = RefGame.from_setup(board, n, record["setup"], record.get("options"))
    for move in record["moves"]:
        game.play(move["tile"], move.get("evict"))
    return {
        "players": n,
        "rounds": game.round_scores,
        "finished": game.finished,
        "final": game.final(),
    }


def play_random_games(board: RefBoard, n_players: int, games: int, seed: int) -> int:
    """Speed baseline: deal and play random legal moves to the end."""
    rng = random.Random(seed)
    played = 0
    for _ in range(games):
        game = RefGame.from_setup(board, n_players, deal(board, n_players, rng))
        while not game.finished:
            tile, evict = rng.choice(game.legal_moves())
            game.play(tile, evict)
        played += 1
    return played


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    board = load_board(args.board)
    start = time.perf_counter()
    played = play_random_games(board, args.players, args.games, args.seed)
    elapsed = time.perf_counter() - start
    print(
        f"{played} games, {args.players} players, {elapsed:.3f} s, {played / elapsed:.1f} games/s"
    )


if __name__ == "__main__":
    main()
