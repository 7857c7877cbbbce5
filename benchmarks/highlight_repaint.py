"""How fast the game screen repaints when the tile highlight moves (→ key).

Opens a 3-player game headless at 80x24 and 120x40, passes the hand-off,
then presses → many times. For each press it records, from the moment the
key event is sent until the next frame is handed to the display
(``App._display``):

* work: the process's CPU time (key handling, widget updates, layout, render);
* latency: wall time, which also includes Textual's frame pacing (it batches
  repaints on a timer of up to 1/60 s).

Prints medians and 95th percentiles; the target is a median under 16 ms.

    .venv/bin/python benchmarks/highlight_repaint.py [--presses N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from typing import Any

from textual import events
from textual.app import App

from paris_tui.app.app import ParisApp
from paris_tui.app.local.session import Session, parse_players
from paris_tui.app.screens.game import GameScreen

FRAMES: list[tuple[float, float]] = []
_display = App._display


def _recording_display(self: App[Any], screen: Any, renderable: Any) -> None:
    _display(self, screen, renderable)
    if renderable is not None:
        FRAMES.append((time.perf_counter(), time.process_time()))


App._display = _recording_display  # type: ignore[method-assign]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(size: tuple[int, int], presses: int) -> tuple[list[float], list[float]]:
    session = Session.new(parse_players("Ann,Bob,Cy"), seed=3, path=None)
    for _ in range(7):
        seat = session.view(None).to_move
        session.play(session.view(seat).legal_moves[0])
    app = ParisApp(session=session, anim=0, ai_delay=0)
    work: list[float] = []
    latency: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.turn_seat is not None
        driver = app._driver
        assert driver is not None
        for _ in range(presses):
            FRAMES.clear()
            wall, cpu = time.perf_counter(), time.process_time()
            key = events.Key("right", None)
            key.set_sender(app)
            driver.send_message(key)
            for _ in range(400):
                if FRAMES:
                    break
                await asyncio.sleep(0.001)
            if not FRAMES:
                raise SystemExit("no frame was drawn after a key press")
            frame_wall, frame_cpu = FRAMES[0]
            latency.append((frame_wall - wall) * 1000)
            work.append((frame_cpu - cpu) * 1000)
            await pilot.pause()
    return work, latency


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        os.environ["PARIS_TUI_DATA_DIR"] = data
        for size in ((80, 24), (120, 40)):
            work, latency = asyncio.run(measure(size, args.presses))
            print(
                f"{size[0]}x{size[1]}: highlight repaint work median "
                f"{statistics.median(work):.1f} ms (p95 {pct(work, 0.95):.1f}), "
                f"key-to-frame latency median {statistics.median(latency):.1f} ms "
                f"(p95 {pct(latency, 0.95):.1f}); {args.presses} presses, target median < 16 ms"
            )


if __name__ == "__main__":
    main()
