"""The protocol's cost per line: decode and encode ``play`` and ``update`` lines.

A ``play`` line is the client's commonest message (the host decodes one per
move); an ``update`` line (a seat's view of a mid-game position and the events
of one move, about 2 KB) is the host's commonest, which every client decodes.
Each is decoded (``decode_client`` / ``decode_host``) and the message encoded
again (``encode``) ``--number`` times; the best of ``--repeat`` runs is printed,
in CPU seconds of this process for the whole run (``time.process_time``: less
swayed than the wall clock by other processes on a shared machine) and in
microseconds a line.

    .venv/bin/python benchmarks/protocol.py [--number N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from paris_tui.core import Game
from paris_tui.net.protocol import Play, Update, decode_client, decode_host, encode


def _lines() -> tuple[bytes, bytes]:
    game = Game.new(3, seed=7)
    rng = random.Random(7)
    for _ in range(game.total_moves // 2):
        game.play(rng.choice(game.legal_moves()))
    move = game.legal_moves()[0]
    play = encode(Play(move, len(game.view(None).moves)))
    events = tuple(game.play(move))
    update = encode(Update("t1", game.view(game.view(None).to_move), events))
    return play, update


def _best(run: Callable[[], None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=100_000, help="lines of each kind")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    args = parser.parse_args()
    play, update = _lines()
    assert encode(decode_client(play)) == play and encode(decode_host(update)) == update
    lines = range(args.number)

    def plays() -> None:
        for _ in lines:
            encode(decode_client(play))

    def updates() -> None:
        for _ in lines:
            encode(decode_host(update))

    for name, line, run in (("play", play, plays), ("update", update, updates)):
        seconds = _best(run, args.repeat)
        print(
            f"{name:>6} ({len(line):>5} bytes): {args.number:,} lines decoded and encoded"
            f" in {seconds:.2f} CPU s ({seconds / args.number * 1e6:.1f} us a line)"
        )


if __name__ == "__main__":
    main()
