"""Doors point one way: the network modules import only the core, the host no UI."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import {modules}
bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')
             or m.startswith(({forbidden})))
print(','.join(bad))
"""


def _imported(modules: str, forbidden: tuple[str, ...]) -> str:
    code = CHECK.format(modules=modules, forbidden=", ".join(repr(f) for f in forbidden) + ",")
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return result.stdout.strip()


def test_net_imports_only_the_core() -> None:
    modules = (
        "paris_tui.net.wire, paris_tui.net.protocol, paris_tui.net.client, paris_tui.net.table"
    )
    assert _imported(modules, ("paris_tui.host", "paris_tui.ai", "paris_tui.app")) == ""


def test_the_host_imports_no_ui() -> None:
    modules = "paris_tui.host.server, paris_tui.host.local, paris_tui.doors.command"
    assert _imported(modules, ("paris_tui.app",)) == ""
