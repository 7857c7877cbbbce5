"""Cold start to first frame: paris-tui's game screen against a minimal Textual app.

Each run is a fresh Python process (cold imports) that starts the app
headless and prints a line at its first frame: the first time the app hands
a rendered screen of its own content to the display (``App._display``; for
paris-tui a screen of the app, not Textual's empty default screen). The
parent times from spawning the process to reading that line. A second figure
("settled") waits until the app is idle after start-up (``Pilot.pause``).
Runs alternate between the two apps; medians are printed with the ratio
(the target: paris-tui within 1.5x of the minimal app).

    .venv/bin/python benchmarks/app_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

FIRST_FRAME = """
import os
from textual.app import App

_display = App._display

def _first_display(self, screen, renderable):
    _display(self, screen, renderable)
    if renderable is not None and CONTENT(screen):
        print("ready", flush=True)
        os._exit(0)

App._display = _first_display
"""

MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Static
CONTENT = lambda screen: True

class Minimal(App):
    def compose(self):
        yield Static("Hello")
        yield Footer()

async def first_frame(pilot):
    await pilot.pause()
    print("ready", flush=True)
    pilot.app.exit()

Minimal().run(headless=True, size=(100, 32), auto_pilot=first_frame)
"""

PARIS = """
from paris_tui.app.app import ParisApp
from paris_tui.app.screens.base import ParisScreen
from paris_tui.app.session import Session, parse_players
CONTENT = lambda screen: isinstance(screen, ParisScreen)

async def first_frame(pilot):
    await pilot.pause()
    print("ready", flush=True)
    pilot.app.exit()

session = Session.new(parse_players("Ann,Bob,Cy"), seed=3, path=None)
ParisApp(session=session, anim=0, ai_delay=0).run(
    headless=True, size=(100, 32), auto_pilot=first_frame
)
"""


def one_run(code: str, env: dict[str, str], *, first_frame: bool) -> float:
    if first_frame:
        code = code.replace("\nCONTENT", FIRST_FRAME + "\nCONTENT", 1)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.wait(timeout=60)
    if line.strip() != "ready":
        raise SystemExit(f"the app did not start: {line!r}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "PARIS_TUI_DATA_DIR": data}
        one_run(MINIMAL, env, first_frame=False)  # warm the OS file cache once for both
        one_run(PARIS, env, first_frame=False)
        for label, first in (("first frame", True), ("settled", False)):
            minimal, paris = [], []
            for _ in range(args.runs):
                minimal.append(one_run(MINIMAL, env, first_frame=first))
                paris.append(one_run(PARIS, env, first_frame=first))
            m, p = statistics.median(minimal), statistics.median(paris)
            print(
                f"{label}: minimal Textual app {m * 1000:.0f} ms, paris-tui (3-seat hot-seat "
                f"game, hand-off) {p * 1000:.0f} ms, ratio {p / m:.2f}x "
                f"(medians of {args.runs} runs; target for the first frame: at most 1.5x)"
            )


if __name__ == "__main__":
    main()
