"""The fork server (doors/zygote.py and doors/forks.py): a door's app forked warm is the same app.

Direct tests start a :class:`ForkServer` of their own and have it run
``paris-tui`` commands on pipes or a pty; the SSH tests run a real
``paris-tui host`` and log in. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from paris_tui.doors.forks import ForkedProcess, ForkServer
from paris_tui.i18n import _, ngettext
from paris_tui.wording import in_language

from .ssh_helpers import TIMEOUT, connect, new_key
from .test_ssh_play import Screen, _host, _ssh_port

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: pdeathsig")

COMMAND = [sys.executable, "-P", "-m", "paris_tui"]


async def _exit_status(child: ForkedProcess, timeout: float = TIMEOUT) -> int:
    done = asyncio.get_running_loop().create_future()
    child.add_exit_callback(lambda: done.done() or done.set_result(child.returncode))
    async with asyncio.timeout(timeout):
        status: int = await done
    return status


async def _read_all(fd: int, timeout: float = TIMEOUT) -> bytes:
    loop = asyncio.get_running_loop()
    data = bytearray()
    async with asyncio.timeout(timeout):
        while True:
            chunk = await loop.run_in_executor(None, os.read, fd, 65536)
            if not chunk:
                return bytes(data)
            data += chunk


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    return False


async def _gone(pid: int, timeout: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


def _stats_line(language: str, folder: str) -> str:
    """The first line of ``paris-tui stats`` with no games, in ``language``."""
    with in_language(language):
        return ngettext(
            "{n} finished game in {folder}", "{n} finished games in {folder}", 0
        ).format(n=0, folder=folder)


@pytest.fixture
async def fork_server(tmp_path: Path):  # type: ignore[no-untyped-def]
    server = await ForkServer.start(tmp_path)
    assert server is not None, "the fork server did not start"
    try:
        yield server
    finally:
        server.close()


async def test_a_forked_command_gets_its_arguments_environment_and_language(
    fork_server: ForkServer, tmp_path: Path
) -> None:
    data = tmp_path / "ann's data"
    data.mkdir()
    out_r, out_w = os.pipe()
    env = {"PATH": os.environ.get("PATH", ""), "PARIS_TUI_DATA_DIR": str(data)}
    env["PARIS_TUI_LANG"] = "de"
    child = await fork_server.spawn(
        [*COMMAND, "stats"], env, tmp_path, (out_w, out_w, out_w), tty=False
    )
    os.close(out_w)
    assert child is not None and child.pid > 0
    output = (await _read_all(out_r)).decode()
    os.close(out_r)
    assert await _exit_status(child) == 0
    # Its own data directory (from its environment, not the server's) and its language.
    assert str(data) in output
    assert _stats_line("de", str(data)) in output, output
    # The server has no such variables: a second command without them sees none.
    out_r, out_w = os.pipe()
    env.pop("PARIS_TUI_LANG")
    other = tmp_path / "bob"
    other.mkdir()
    env["PARIS_TUI_DATA_DIR"] = str(other)
    child = await fork_server.spawn(
        [*COMMAND, "stats"], env, tmp_path, (out_w, out_w, out_w), tty=False
    )
    os.close(out_w)
    assert child is not None
    output = (await _read_all(out_r)).decode()
    os.close(out_r)
    assert await _exit_status(child) == 0
    assert str(other) in output and str(data) not in output
    assert _stats_line("en", str(other)) in output, output


async def test_an_exit_status_and_a_refused_command(
    fork_server: ForkServer, tmp_path: Path
) -> None:
    out_r, out_w = os.pipe()
    env = {"PATH": os.environ.get("PATH", ""), "PARIS_TUI_DATA_DIR": str(tmp_path)}
    child = await fork_server.spawn(
        [*COMMAND, "replay", str(tmp_path / "missing.json"), "--json"],
        env,
        tmp_path,
        (out_w, out_w, out_w),
        tty=False,
    )
    os.close(out_w)
    assert child is not None
    await _read_all(out_r)
    os.close(out_r)
    assert await _exit_status(child) == 2  # an invalid record: status 2, as by exec
    # Not a paris-tui command: the door starts it by exec instead.
    assert await fork_server.spawn(["/bin/true"], env, tmp_path, (0, 1, 2), tty=False) is None


async def test_a_pty_closed_under_a_forked_app_ends_it(
    fork_server: ForkServer, tmp_path: Path
) -> None:
    master, slave = os.openpty()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PARIS_TUI_DATA_DIR": str(tmp_path),
        "TERM": "xterm-256color",
    }
    child = await fork_server.spawn(
        [*COMMAND, "play", "--players", "Ann,Bob"], env, tmp_path, (slave, slave, slave), tty=True
    )
    os.close(slave)
    assert child is not None
    loop = asyncio.get_running_loop()
    seen = b""
    async with asyncio.timeout(TIMEOUT * 2):
        while b"Ann" not in seen:  # the hand-off is drawn: the app runs on the pty
            seen += await loop.run_in_executor(None, os.read, master, 65536)
    os.close(master)
    status = await _exit_status(child, TIMEOUT * 2)
    # The terminal went away (app/terminal/driver.py).
    assert status in (129, -signal.SIGHUP), status
    assert await _gone(child.pid)


async def test_a_closed_fork_server_ends_its_apps(tmp_path: Path) -> None:
    server = await ForkServer.start(tmp_path)
    assert server is not None
    master, slave = os.openpty()
    env = {"PATH": os.environ.get("PATH", ""), "PARIS_TUI_DATA_DIR": str(tmp_path)}
    try:
        child = await server.spawn(
            [*COMMAND, "play", "--players", "Ann,Bob"],
            env,
            tmp_path,
            (slave, slave, slave),
            tty=True,
        )
        assert child is not None
        server.close()
        assert await _gone(child.pid), "an app outlived its fork server"
    finally:
        os.close(slave)
        os.close(master)
        server.close()


# --- over SSH, with a real host -----------------------------------------------------------


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            kids += [int(p) for p in (task / "children").read_text().split()]
    return kids


def _fork_servers(host: int) -> list[int]:
    return [
        pid
        for pid in _children(host)
        if b"paris_tui.doors.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]


async def test_ssh_players_apps_are_forked_warm_each_its_own(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *_host(tmp_path, "--table", "ann,bob", "--seed", "3"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        port = await _ssh_port(proc)
        ann_key = new_key(tmp_path, "ann")
        ann_conn = await connect(port, "ann", ann_key, env={"LANG": "de_DE.UTF-8"})
        bob_conn = await connect(port, "bob", new_key(tmp_path, "bob"), env={"LANG": "zh_TW.UTF-8"})
        ann = await Screen.open(ann_conn, (120, 40))
        bob = await Screen.open(bob_conn, (120, 40))
        # Each in its own language; Bob's CJK locale draws with ascii glyphs.
        await ann.wait_for("Louvre", "ann", "bob", "Plättchen")
        await bob.wait_for("Louvre", "ann", "bob")
        assert "─" in ann.text() and "─" not in bob.text()
        assert any("\u4e00" <= ch <= "\u9fff" for ch in bob.text())  # Chinese words
        (server,) = _fork_servers(proc.pid)
        apps = _children(server)
        assert len(apps) == 2  # forked by the fork server, not started by exec
        cwd = {Path(os.readlink(f"/proc/{pid}/cwd")) for pid in apps}
        assert cwd == {(tmp_path / "host").resolve()}
        # The ticket rules hold: Ann's seat joined again from another terminal takes it.
        again = await connect(port, "ann", ann_key, env={"LANG": "de_DE.UTF-8"})
        ann2 = await Screen.open(again, (100, 30))
        await ann2.wait_for("Louvr", "ann", "bob")
        with in_language("de"):
            replaced = _("Your seat was joined from another terminal: this one left it")
        await ann.wait_for(replaced[:20])
        for conn in (ann_conn, bob_conn, again):
            conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT * 2):
            await proc.wait()
    assert proc.stderr is not None
    log = (await proc.stderr.read()).decode()
    assert "fork server" in log and "ready" in log
    assert log.count(", warm)") == 3, log


async def test_kill_9_of_the_host_ends_its_forked_apps(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *_host(tmp_path, "--table", "ann,bob"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        port = await _ssh_port(proc)
        async with await connect(port, "ann", new_key(tmp_path, "ann")) as conn:
            ann = await Screen.open(conn, (100, 30))
            await ann.wait_for("Opéra", "ann", "bob")
            (server,) = _fork_servers(proc.pid)
            apps = _children(server)
            assert len(apps) == 1
            proc.kill()
            for pid in (server, *apps):
                assert await _gone(pid), f"{pid} outlived its host"
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


def test_the_fork_server_fills_the_holes_of_its_heap() -> None:
    """fill_holes leaves (almost) no free block among live ones, pymalloc's or glibc's,
    for a child's new objects to copy a page of the server's into (in a process of its
    own: the blocks it fills stay filled)."""
    import subprocess

    script = """
import ctypes
from paris_tui.doors.heap import _MallInfo2, _pymalloc_holes, fill_holes
small = [[i] * (i % 7) for i in range(100_000)]
del small[::3]  # holes among live blocks of pymalloc's pools
large = [bytearray(1000 + i % 3000) for i in range(2000)]
del large[::2]  # and among glibc's chunks
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = _MallInfo2
def glibc_holes():
    info = libc.mallinfo2()
    return info.fordblks - info.keepcost
before = sum(_pymalloc_holes().values()), glibc_holes()
filled = fill_holes()
after = sum(_pymalloc_holes().values()), glibc_holes()
print(*before, *filled, *after)
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    small_before, large_before, small_filled, large_filled, small_after, large_after = (
        int(n) for n in out.split()
    )
    assert small_before > 30_000 and large_before > 1_000_000  # the holes were there
    assert small_filled >= small_before and large_filled > 500
    assert small_after < small_before // 20  # what parsing the figures itself left
    assert large_after < large_before // 20


def test_immortal_objects_where_the_interpreter_has_them() -> None:
    """On CPython 3.12 and later immortalize() makes objects whose reference counts no
    reference taken or dropped writes to (PEP 683); on 3.11 it changes nothing."""
    from paris_tui.doors.heap import immortal_objects, immortalize

    objects = [bytearray(b"made here"), [1, 2], 0.25 + len(sys.argv)]
    counts = [sys.getrefcount(obj) for obj in objects]
    changed = immortalize(objects)
    held = [obj for obj in objects for _ in range(5)]
    after = [sys.getrefcount(obj) for obj in objects]
    del held
    if sys.version_info >= (3, 12):
        assert immortal_objects()
        assert changed >= len(objects) + 2  # and what they refer to: the list's 1 and 2
        assert after == [sys.getrefcount(obj) for obj in objects]
        assert all(count >= 0xFFFFFFFF for count in after)
    else:
        assert not immortal_objects() and changed == 0
        assert after == [count + 5 for count in counts]


def test_an_immortal_heap_still_draws_a_game() -> None:
    """The fork server's whole heap made immortal (as before it forks): the app it
    holds still draws a game screen, and the count of a class it drew with is immortal
    (in a process of its own: what it makes immortal stays so)."""
    import subprocess

    script = """
import gc, sys
import textual.app
from paris_tui.doors.heap import immortalize
from paris_tui.app.start.warm_up import warm_up
warm_up()
gc.collect()
made = immortalize()
drawn = warm_up()
print(made, drawn, sys.getrefcount(textual.app.App))
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    made, drawn, count = (int(n) for n in out.split())
    assert drawn > 1000  # a 120x40 game screen's frame, as text
    if sys.version_info >= (3, 12):
        assert made > 100_000 and count >= 0xFFFFFFFF
    else:
        assert made == 0 and count < 1000
