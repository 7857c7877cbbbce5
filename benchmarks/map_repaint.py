"""How long the map takes to repaint when the highlighted stop changes.

Runs the map widget headless at the game screen's two sizes (compact 54x18,
comfortable 80x30), moves the selection over the face-up stops and times
``update_map`` plus rendering every line of the widget (what Textual does on
the next refresh). Prints the median, 95th percentile and slowest run; the
target is well under 16 ms (one frame at 60 Hz). Also times a full repaint
with every cached row and style dropped (what a theme change or resize costs).

    .venv/bin/python benchmarks/map_repaint.py [--rounds N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from pathlib import Path

from textual.app import App, ComposeResult
from textual.geometry import Region

from paris_tui.app.widgets.board_map import BoardMap, MapOverlay
from paris_tui.core import Game, SeatView

STYLES = Path(__file__).resolve().parent.parent / "styles" / "map.tcss"


class _MapApp(App[None]):
    CSS_PATH = STYLES

    def __init__(self, view: SeatView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        yield BoardMap(self.view)


def _view(seed: int) -> SeatView:
    game = Game.new(["Ann", "Bob", "Cy", "Dee"], seed=seed)
    rng = random.Random(seed)
    for _ in range(24):
        moves = game.legal_moves()
        game.play(moves[int(rng.random() * len(moves))])
    return game.view(0)


async def _measure(size: tuple[int, int], rounds: int) -> tuple[str, list[float], list[float]]:
    view = _view(5)
    stops = view.board.stop_ids
    face_up = tuple(dict.fromkeys(t.split("/")[0] for t in view.face_up))
    app = _MapApp(view)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board_map = app.query_one(BoardMap)
        region = Region(0, 0, *board_map.size)
        times: list[float] = []
        for i in range(rounds):
            overlay = MapOverlay(face_up=face_up, selected=stops[i % len(stops)])
            start = time.perf_counter()
            board_map.update_map(view, overlay)
            board_map.render_lines(region)
            times.append(time.perf_counter() - start)
        # cold: every cached row and style dropped (as after a theme change or resize)
        cold: list[float] = []
        for i in range(max(10, rounds // 10)):
            overlay = MapOverlay(face_up=face_up, selected=stops[i % len(stops)])
            start = time.perf_counter()
            board_map.notify_style_update()
            board_map.update_map(view, overlay)
            board_map.render_lines(region)
            cold.append(time.perf_counter() - start)
        return board_map.layout_name, times, cold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    for size in ((54, 18), (80, 30)):
        layout, times, cold = asyncio.run(_measure(size, args.rounds))
        ms = sorted(t * 1000 for t in times)
        print(
            f"map repaint {size[0]}x{size[1]} ({layout}): median {statistics.median(ms):.2f} ms, "
            f"p95 {ms[int(len(ms) * 0.95) - 1]:.2f} ms, max {ms[-1]:.2f} ms "
            f"over {len(ms)} selection changes (target < 16 ms)"
        )
        cms = sorted(t * 1000 for t in cold)
        print(
            f"  full repaint, all caches dropped: median {statistics.median(cms):.2f} ms, "
            f"max {cms[-1]:.2f} ms over {len(cms)} runs"
        )


if __name__ == "__main__":
    main()
