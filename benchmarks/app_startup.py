"""Cold start to first frame: paris-tui against a minimal Textual app.

Each run is a fresh Python process (cold imports) that prints a line at its
first frame: the first time the app hands a rendered screen of its own
content to the display (``App._display``; for paris-tui a screen of the app,
not Textual's empty default screen). The parent times from spawning the
process to reading that line. Three pairs of figures:

- "first frame": the app object started headless (``App.run(headless=True)``),
  a 3-seat hot-seat game on its hand-off;
- "settled": the same, until the app is idle after start-up (``Pilot.pause``);
- "paris-tui play on a pty": the command itself, ``paris-tui play --players Ann,Bob,Cy``
  on a pseudo-terminal (100x32) with Textual's real driver, against the
  minimal app on one; the line goes to a pipe of its own, not the terminal.

Runs alternate between the two apps; medians are printed with the ratio
(the target: paris-tui's first frame within 1.25x of the minimal app's),
and the same for the CPU time each process used until then (user + system,
from ``wait4``: on a loaded machine, a figure that depends less on the
other processes than the wall time does).
The children write and use bytecode caches (as an installed wheel has them),
whatever ``PYTHONDONTWRITEBYTECODE`` says here.

    .venv/bin/python benchmarks/app_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

TARGET = 1.25

FIRST_FRAME = """
import os
from textual.app import App

_display = App._display

def _first_display(self, screen, renderable):
    _display(self, screen, renderable)
    if renderable is not None and CONTENT(screen):
        os.write(int(os.environ["BENCH_FD"]), b"ready\\n")
        os._exit(0)

App._display = _first_display
"""

MINIMAL = """
import os
from textual.app import App
from textual.widgets import Footer, Static
CONTENT = lambda screen: True

class Minimal(App):
    def compose(self):
        yield Static("Hello")
        yield Footer()

async def first_frame(pilot):
    await pilot.pause()
    os.write(int(os.environ["BENCH_FD"]), b"ready\\n")
    pilot.app.exit()

Minimal().run(headless=True, size=(100, 32), auto_pilot=first_frame)
"""

PARIS = """
import os
from paris_tui.app.app import ParisApp
from paris_tui.app.screens.base import ParisScreen
from paris_tui.app.local.session import Session, parse_players
CONTENT = lambda screen: isinstance(screen, ParisScreen)

async def first_frame(pilot):
    await pilot.pause()
    os.write(int(os.environ["BENCH_FD"]), b"ready\\n")
    pilot.app.exit()

session = Session.new(parse_players("Ann,Bob,Cy"), seed=3, path=None)
ParisApp(session=session, anim=0, ai_delay=0).run(
    headless=True, size=(100, 32), auto_pilot=first_frame
)
"""

MINIMAL_PTY = (
    FIRST_FRAME
    + """
from textual.widgets import Footer, Static
CONTENT = lambda screen: True

class Minimal(App):
    def compose(self):
        yield Static("Hello")
        yield Footer()

Minimal().run()
"""
)

PLAY_PTY = """
import gc, os, sys

def CONTENT(screen):
    from paris_tui.app.screens.base import ParisScreen  # imported by then
    return isinstance(screen, ParisScreen)

# The hook goes in when the command's run() turns the collector off, its first
# statement: the hook's import of textual.app is made then, as the command makes it
# (with the collector off), not before run() with the collector on.
_disable = gc.disable

def _disable_and_hook():
    _disable()
    gc.disable = _disable
    exec(HOOK, globals())

gc.disable = _disable_and_hook
HOOK = FIRST_FRAME_REPR
sys.argv[1:] = ["play", "--players", "Ann,Bob,Cy", "--seed", "3"]
from paris_tui.__main__ import run  # what the paris-tui script runs
sys.exit(run())
""".replace("FIRST_FRAME_REPR", repr(FIRST_FRAME))


def one_run(
    code: str,
    env: dict[str, str],
    *,
    first_frame: bool,
    on_pty: bool = False,
    prefix: Sequence[str] = (),
    timeout: float = 60,
) -> tuple[float, float]:
    """Wall time to the line, and the CPU time the process used (it exits there).

    ``prefix`` goes before the Python command (``valgrind ...``)."""
    if first_frame and not on_pty:
        code = code.replace("\nCONTENT", FIRST_FRAME + "\nCONTENT", 1)
    read_end, write_end = os.pipe()
    env = {**env, "BENCH_FD": str(write_end)}
    master = slave = -1
    if on_pty:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
        streams: dict[str, Any] = {
            "stdin": slave,
            "stdout": slave,
            "stderr": slave,
            "start_new_session": True,
        }
    else:
        streams = {"stdout": subprocess.DEVNULL}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*prefix, sys.executable, "-c", code],
        env=env,
        cwd=env["PARIS_TUI_DATA_DIR"],  # not the checkout: sys.path[0] is the cwd with -c
        pass_fds=(write_end,),
        **streams,
    )
    os.close(write_end)
    if slave >= 0:
        os.close(slave)
    line = b""
    deadline = start + timeout
    while not line.endswith(b"\n") and time.perf_counter() < deadline:
        fds = [read_end] + ([master] if master >= 0 else [])
        ready, _, _ = select.select(fds, [], [], 1.0)
        if master in ready:
            with contextlib.suppress(OSError):
                os.read(master, 65536)  # the terminal's output: drained, not kept
        if read_end in ready:
            chunk = os.read(read_end, 64)
            if not chunk:
                break
            line += chunk
    elapsed = time.perf_counter() - start
    os.close(read_end)
    try:
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
    finally:
        if master >= 0:
            os.close(master)
    if line.strip() != b"ready":
        raise SystemExit(f"the app did not start: {line!r}")
    return elapsed, usage.ru_utime + usage.ru_stime


def instructions(code: str, env: dict[str, str], *, on_pty: bool, out: Path) -> int:
    """Instructions the process ran to its first frame, counted by callgrind."""
    prefix = ["valgrind", "--quiet", "--tool=callgrind", f"--callgrind-out-file={out}"]
    one_run(code, env, first_frame=True, on_pty=on_pty, prefix=prefix, timeout=600)
    for line in out.read_text().splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"no summary line in {out}")


def count(variants: list[tuple[str, dict[str, str]]], on_pty: bool, keep: str | None) -> None:
    """``--callgrind``: instructions to the first frame, the minimal app's and each paris-tui's.

    The same code, inputs and hash seed give the same count within a few
    hundredths of a percent, whatever else the machine runs.
    """
    minimal_code, paris_code = (MINIMAL_PTY, PLAY_PTY) if on_pty else (MINIMAL, PARIS)
    where = "on a pty" if on_pty else "headless"
    with tempfile.TemporaryDirectory() as temporary:
        outs = keep or temporary
        minimal = instructions(minimal_code, variants[0][1], on_pty=on_pty, out=Path(outs, "m"))
        print(
            f"callgrind, {where}: minimal Textual app {minimal / 1e6:.0f} M instructions",
            flush=True,
        )
        for i, (name, env) in enumerate(variants):
            paris = instructions(paris_code, env, on_pty=on_pty, out=Path(outs, f"p{i}"))
            print(
                f"callgrind, {where}: {name} (3-seat hot-seat game, hand-off) "
                f"{paris / 1e6:.0f} M instructions to the first frame, "
                f"ratio {paris / minimal:.3f}x "
                f"(target: at most {TARGET}x)",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--compare",
        metavar="DIR",
        help="also time the paris-tui of another checkout (e.g. `git worktree` or an "
        "unpacked `git archive` of an older commit), in the same rounds",
    )
    parser.add_argument("--pty-only", action="store_true", help="only `paris-tui play` on a pty")
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="count instructions to the first frame with valgrind's callgrind instead of "
        "timing (once per app, on a pty; with --headless the in-process first frame)",
    )
    parser.add_argument(
        "--headless", action="store_true", help="with --callgrind: the headless first frame"
    )
    parser.add_argument(
        "--callgrind-out",
        metavar="DIR",
        help="with --callgrind: keep callgrind's files there (m: the minimal app, p0: "
        "paris-tui, p1: --compare's), for callgrind_annotate",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "PARIS_TUI_DATA_DIR": data}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if args.callgrind:
            env["PYTHONHASHSEED"] = "0"  # the same sets and dicts in every run
        variants = [("paris-tui", env)]
        if args.compare:
            other = {**env, "PYTHONPATH": os.path.abspath(args.compare)}
            variants.append((f"paris-tui of {args.compare}", other))
        one_run(MINIMAL, env, first_frame=False)  # warm the OS file cache once for both
        for _, each in variants:
            one_run(PARIS, each, first_frame=False)  # ... and write the bytecode caches
            one_run(PLAY_PTY, each, first_frame=True, on_pty=True)
        if args.callgrind:
            count(variants, on_pty=not args.headless, keep=args.callgrind_out)
            return
        cases = [
            ("first frame", MINIMAL, PARIS, True, False),
            ("settled", MINIMAL, PARIS, False, False),
            ("paris-tui play on a pty, first frame", MINIMAL_PTY, PLAY_PTY, True, True),
        ]
        if args.pty_only:
            cases = cases[2:]
        for label, minimal_code, paris_code, first, on_pty in cases:
            minimal: list[tuple[float, float]] = []
            paris: list[list[tuple[float, float]]] = [[] for _ in variants]
            for _ in range(args.runs):
                minimal.append(one_run(minimal_code, env, first_frame=first, on_pty=on_pty))
                for runs, (_, each) in zip(paris, variants, strict=True):
                    runs.append(one_run(paris_code, each, first_frame=first, on_pty=on_pty))
            m = statistics.median(t for t, _ in minimal)
            mc = statistics.median(c for _, c in minimal)
            for runs, (name, _) in zip(paris, variants, strict=True):
                p = statistics.median(t for t, _ in runs)
                pc = statistics.median(c for _, c in runs)
                print(
                    f"{label}: minimal Textual app {m * 1000:.0f} ms, {name} (3-seat hot-seat "
                    f"game, hand-off) {p * 1000:.0f} ms, ratio {p / m:.2f}x; CPU time "
                    f"{mc * 1000:.0f} ms vs {pc * 1000:.0f} ms, ratio {pc / mc:.2f}x "
                    f"(medians of {args.runs} runs; target for a first frame: at most {TARGET}x)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
