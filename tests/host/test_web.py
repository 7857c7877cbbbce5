"""The browser door (paris_tui/doors/web.py): a real headless chromium plays through it;
its bounds, its origin check, and no app process outlives the host, even on kill -9.

Loopback only; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from paris_tui.doors.web import COOKIE, WebDoor
from paris_tui.host.child import PARENT_ENV

from .browser import chromium, open_browser

TIMEOUT = 60.0  # seconds, for a loaded 2-core machine; each wait ends as soon as it can

# Stand-ins for the door's app (tests of the door itself; the real app is paris-tui join).
# A hot-seat game against an AI, as the door's app, dying with the door's process.
GAME_APP = [
    sys.executable,
    "-c",
    "from paris_tui.host.child import die_with_parent; die_with_parent(); "
    "from paris_tui.cli import main; "
    "raise SystemExit(main(['play', '--players', 'Ann,ai:random', '--seed', '3', "
    "'--ai-delay', '0']))",
]
# A tiny app speaking textual-serve's protocol: says hello, reports its parent
# variable, and quits when asked (as Textual's web driver does); it ignores the end
# of its input, so only dying with its parent ends it when the door is killed.
ECHO_APP = textwrap.dedent(
    """
    import json, os, sys
    from paris_tui.host.child import PARENT_ENV
    parent = os.environ.get(PARENT_ENV, "")
    from paris_tui.host.child import die_with_parent
    die_with_parent()
    out = sys.stdout.buffer
    out.write(b"__GANGLION__\\n")
    folder = os.environ.get("PARIS_TUI_DATA_DIR", "")
    where = " lang " + os.environ.get("PARIS_TUI_LANG", "-")
    where += " cwd " + os.getcwd() + " dir " + folder
    text = ("hello from " + str(os.getpid()) + " parent " + parent + where).encode()
    out.write(b"D" + len(text).to_bytes(4, "big") + text)
    out.flush()
    data = b""
    while b'"quit"' not in data:
        chunk = os.read(0, 4096)
        if not chunk:  # the door is gone: stay, as a stuck app would (only the kernel ends it)
            import time
            time.sleep(600)
        data += chunk
    """
)


def _echo_app(_data_dir: Path) -> list[str]:
    return [sys.executable, "-c", ECHO_APP]


@asynccontextmanager
async def _door(
    tmp_path: Path, command: Sequence[str] | None, **kwargs: int
) -> AsyncIterator[WebDoor]:
    door = WebDoor(
        host_port=7337,
        data_dir=tmp_path,
        port=0,
        command=(lambda _d: list(command)) if command is not None else _echo_app,
        **kwargs,
    )
    _, door.port = await door.start()
    try:
        yield door
    finally:
        await door.close()


async def _receive_text(ws: aiohttp.ClientWebSocketResponse, want: str) -> str:
    seen = b""
    async with asyncio.timeout(TIMEOUT):
        while want.encode() not in seen:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                seen += message.data
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
    return seen.decode("utf-8", "replace")


def _saved_moves(folder: Path) -> int:
    best = 0
    for path in folder.glob("browsers/*/saves/game-*.json"):
        try:
            best = max(best, len(json.loads(path.read_text(encoding="utf-8"))["moves"]))
        except (OSError, ValueError, KeyError):
            continue
    return best


def _need_chromium() -> None:
    if chromium() is not None:
        return
    how = "install Debian's chromium (apt-get install chromium; .ci/run does it in CI)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"no chromium on this CI machine: {how}")
    pytest.skip(f"no chromium here: {how}")


async def test_a_browser_sees_the_game_and_plays_by_keys(tmp_path: Path) -> None:
    _need_chromium()
    async with _door(tmp_path, GAME_APP) as door:
        async with open_browser(f"http://127.0.0.1:{door.port}/") as page:
            shown = await page.wait_for("Ann: choose a tile", "Your route", timeout=TIMEOUT)
            assert "Tiles" in shown and "Random AI" in shown
            # xterm.js drew it (it marks the page once it has written the app's first bytes).
            assert "-first-byte" in await page.evaluate("document.body.className")
            assert len(door.sessions) == 1
            # A key pressed in the page reaches the app: Enter takes the highlighted tile
            # (after a quiet moment, as a deliberate press must come).
            await asyncio.sleep(1.0)
            await page.press("Enter")
            deadline = time.monotonic() + TIMEOUT
            while _saved_moves(tmp_path) < 1:
                assert time.monotonic() < deadline, "the move typed in the browser was not played"
                await asyncio.sleep(0.1)
            cookie = await page.call("Network.getCookies", urls=[f"http://127.0.0.1:{door.port}/"])
            assert [c["name"] for c in cookie["cookies"]] == [COOKIE]
            assert cookie["cookies"][0]["httpOnly"]
        # The tab is gone: its app quits and the session ends.
        deadline = time.monotonic() + TIMEOUT
        while door.sessions:
            assert time.monotonic() < deadline, "the session outlived its browser"
            await asyncio.sleep(0.1)


async def test_sessions_are_bounded_and_other_sites_refused(tmp_path: Path) -> None:
    async with _door(tmp_path, None, max_sessions=1) as door, aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{door.port}"
        page = await http.get(f"{url}/")
        assert page.status == 200
        assert "textual.js" in await page.text()
        first = await http.ws_connect(f"{url}/ws?width=80&height=24")
        hello = await _receive_text(first, "hello from")
        assert f"parent {os.getpid()}" in hello  # the app is told to die with this process
        # A second browser while the one seat of this door is taken: told so, sent away.
        full = await http.get(f"{url}/")
        assert full.status == 503
        second = await http.ws_connect(f"{url}/ws")
        said = await _receive_text(second, "try again later")
        assert "1 browser player is here already" in said
        await second.close()
        # A page of another site cannot open a game in the player's browser.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{url}/ws", headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        assert len(door.sessions) == 1
        await first.close()
        deadline = time.monotonic() + TIMEOUT
        while door.sessions:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        again = await http.ws_connect(f"{url}/ws")
        assert "hello from" in await _receive_text(again, "hello from")
        await again.close()


async def test_each_browser_in_its_own_language(tmp_path: Path) -> None:
    """The page, the door's lines and the session's app follow the browser's Accept-Language."""
    async with _door(tmp_path, None, max_sessions=1) as door, aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{door.port}"
        german = {"Accept-Language": "de-CH,de;q=0.9,en;q=0.8"}
        chinese = {"Accept-Language": "zh-TW,zh;q=0.9,en;q=0.5"}
        page = await (await http.get(f"{url}/", headers=german)).text()
        assert '<html lang="de">' in page and "Sitzung beendet." in page
        assert "Noch einmal spielen" in page and "Session ended" not in page
        page = await (await http.get(f"{url}/", headers=chinese)).text()
        assert '<html lang="zh-TW">' in page and "連線階段已結束。" in page
        page = await (await http.get(f"{url}/")).text()
        assert '<html lang="en">' in page and "Session ended." in page
        first = await http.ws_connect(f"{url}/ws?width=80&height=24", headers=chinese)
        assert "lang zh-TW cwd " in await _receive_text(first, " cwd ")
        full = await http.get(f"{url}/", headers=german)
        assert full.status == 503
        assert "1 Browser-Spieler ist schon da" in await full.text()
        second = await http.ws_connect(f"{url}/ws", headers=german)
        said = await _receive_text(second, "später")
        assert "versuch es später noch einmal" in said
        await second.close()
        await first.close()


HOST_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from paris_tui.doors.web import WebDoor

    async def main():
        door = WebDoor(host_port=7337, data_dir=Path(sys.argv[1]), port=0,
                       command=lambda d: [sys.executable, "-c", sys.argv[2]])
        _, port = await door.start()
        print(port, flush=True)
        await asyncio.sleep(600)

    asyncio.run(main())
    """
)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(p) for p in task.read_text().split()]
    return found


def _apps(host: int) -> list[int]:
    """The browsers' apps: forked by the host's fork server (doors/zygote.py), or the
    host's own children when it has none (a stand-in command)."""
    apps: list[int] = []
    for pid in _children(host):
        if b"paris_tui.doors.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes():
            apps += _children(pid)
        else:
            apps.append(pid)
    return apps


def _alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"  # a zombie has ended; only its exit status is left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; PDEATHSIG")
async def test_browser_apps_die_with_the_host_even_on_kill_9(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [sys.executable, "-c", HOST_SCRIPT, str(tmp_path), ECHO_APP],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    apps: list[int] = []
    try:
        assert host.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(host.stdout.readline), TIMEOUT)
        port = int(line)
        async with aiohttp.ClientSession() as http:
            sockets = [await http.ws_connect(f"http://127.0.0.1:{port}/ws") for _ in range(2)]
            for ws in sockets:
                assert f"parent {host.pid}" in await _receive_text(ws, "hello from")
            apps = _children(host.pid)
            assert len(apps) == 2 and all(_alive(pid) for pid in apps)
            os.kill(host.pid, signal.SIGKILL)
            host.wait(TIMEOUT)
            deadline = time.monotonic() + TIMEOUT
            while any(_alive(pid) for pid in apps):
                assert time.monotonic() < deadline, "a browser's app outlived its host"
                await asyncio.sleep(0.05)
    finally:
        if host.poll() is None:
            os.killpg(host.pid, signal.SIGKILL)
            host.wait(10)
        for pid in apps:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert PARENT_ENV  # the variable the door sets (checked in the apps' hello above)


async def test_host_command_opens_the_browser_door_and_closes_it(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--web-port", "0"],
        *["--ssh-port", "off"],
        *["--data-dir", str(tmp_path), "--table", "ann,bob"],
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        async with asyncio.timeout(TIMEOUT):
            lines = []
            while not lines or not lines[-1].startswith("In a browser: "):
                line = (await proc.stdout.readline()).decode()
                assert line, f"the host exited: {(await proc.stderr.read()).decode()}"
                lines.append(line)
        url = lines[-1].split()[3]
        assert url.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as http, http.get(url) as page:
            assert page.status == 200 and "textual.js" in await page.text()
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT):
            assert await proc.wait() == 0
            assert "every table is saved" in (await proc.stdout.read()).decode()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def test_a_bad_web_port_is_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "paris_tui.cli", "host", "--web-port", "99999"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env={**os.environ, "PARIS_TUI_DATA_DIR": str(tmp_path)},
    )
    assert result.returncode == 2
    assert result.stderr == "paris-tui host: --web-port must be between 0 and 65535\n"


async def test_a_browser_comes_back_to_its_own_data_directory(tmp_path: Path) -> None:
    """Where a session's app keeps its seat tokens: the same for one browser (its
    cookie) every time, another for another browser, a throwaway one without cookies."""

    async def data_dir(http: aiohttp.ClientSession, url: str) -> str:
        async with http.get(f"{url}/") as page:
            assert page.status == 200
        ws = await http.ws_connect(f"{url}/ws")
        said = await _receive_text(ws, "dir ")
        await ws.close()
        cwd, folder = said.split(" cwd ", 1)[1].split(" dir ")
        assert cwd == folder.strip()  # the app runs there (python -m imports from its cwd)
        assert Path(cwd).stat().st_mode & 0o777 == 0o700
        return folder.strip()

    async with _door(tmp_path, None) as door:
        url = f"http://127.0.0.1:{door.port}"
        jar = aiohttp.CookieJar(unsafe=True)  # keeps cookies of an IP address, as browsers do
        async with aiohttp.ClientSession(cookie_jar=jar) as ann:
            first = await data_dir(ann, url)
            assert await data_dir(ann, url) == first
            cookie = next(c.value for c in jar if c.key == COOKIE)
        assert Path(first).parent == tmp_path / "browsers"
        assert cookie not in first  # named by a hash of the cookie, not the cookie
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as bob:
            assert await data_dir(bob, url) != first
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as no_cookies:
            throwaway = await data_dir(no_cookies, url)
            # Its own folder, in the door's (kept while its app runs), never a cookie's.
            assert Path(throwaway).parent == tmp_path / "browsers"
            assert Path(throwaway).name.startswith("tab-")
        deadline = time.monotonic() + TIMEOUT
        while Path(throwaway).exists():  # removed when its session ends
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)


async def test_an_app_that_cannot_start_says_why_in_the_page(tmp_path: Path) -> None:
    failing = [
        sys.executable,
        "-c",
        "import sys; sys.stderr.write('paris-tui: the host refused \\x1b[2J\\x07ann\\n'); "
        "sys.exit(4)",
    ]
    async with _door(tmp_path, failing) as door, aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{door.port}/ws")
        said = await _receive_text(ws, "ann")
        assert "paris-tui: the host refused \\x1b[2J\\x07ann" in said  # escaped, one line
        assert "\x1b" not in said and "\x07" not in said
        async with asyncio.timeout(TIMEOUT):
            while not ws.closed:  # and the session ends
                await ws.receive()


async def test_a_browser_joins_a_real_host_from_the_lobby(tmp_path: Path) -> None:
    """The door as shipped: paris-tui host --web-port runs paris-tui join for the tab;
    the lobby asks for a name, the browser player sits at Ann's seat and sees her
    route, and comes back to it after a reload; the host stopped, no app of it is left."""
    _need_chromium()
    proc = subprocess.Popen(
        [
            *[sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--web-port", "0"],
            *["--ssh-port", "off", "--data-dir", str(tmp_path), "--table", "ann,ai:random"],
            *["--seed", "3", "--ai-delay", "0"],
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    apps: list[int] = []
    try:
        assert proc.stdout is not None
        url = ""
        async with asyncio.timeout(TIMEOUT):
            while not url:
                line = await asyncio.to_thread(proc.stdout.readline)
                assert line, "the host exited"
                if line.startswith("In a browser: "):
                    url = line.split()[3]
        async with open_browser(url) as page:
            await page.wait_for("Your name", timeout=TIMEOUT)
            apps = _apps(proc.pid)
            assert len(apps) == 1
            # Forked warm by the host's fork server, not started by exec.
            assert apps[0] not in _children(proc.pid)
            await page.type_text("ann")
            await page.press("Enter")  # the name
            await asyncio.sleep(0.5)
            await page.press("Enter")  # sit at the table that holds Ann's seat
            shown = await page.wait_for("Your route", timeout=TIMEOUT)
            assert "ann" in shown.lower()
            # The same browser comes back to its seat (now claimed) after a reload, with
            # no name to type: the name is an account whose credential is this browser's
            # cookie, and the door starts its app with that seat's name.
            opened = page.opened_sockets
            await page.call("Page.reload")
            await page.new_session(opened, timeout=TIMEOUT)  # not the old page's screen
            shown = await page.wait_for("Your route", timeout=TIMEOUT)
            assert "Your name" not in shown
            apps = sorted(set(apps) | set(_apps(proc.pid)))
        # Another browser (another cookie) is not Ann: the name is her account now.
        async with open_browser(url) as other:
            await other.wait_for("Your name", timeout=TIMEOUT)
            await other.type_text("ann")
            await other.press("Enter")
            await asyncio.sleep(0.5)
            await other.press("Enter")
            shown = await other.wait_for("is an account", timeout=TIMEOUT)
            assert "Your route" not in shown
            apps = sorted(set(apps) | set(_apps(proc.pid)))
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, TIMEOUT) == 0
        deadline = time.monotonic() + TIMEOUT
        while any(_alive(pid) for pid in apps):
            assert time.monotonic() < deadline, "a browser's app outlived the host"
            await asyncio.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


async def test_browser_apps_are_not_held_to_the_per_address_limit(tmp_path: Path) -> None:
    """Every browser's app reaches the host from the door's own address: each session
    reserves a door slot there, so two browsers pass a limit of one per address."""
    from paris_tui.host.server import Limits

    from .helpers import running_host

    limits = Limits(max_per_address=1)
    async with running_host(tmp_path / "host", ["ann,bob"], limits=limits) as (host, port):
        door = WebDoor(host=host, host_port=port, data_dir=host.store.root, port=0)
        _, door.port = await door.start()
        try:
            async with aiohttp.ClientSession() as http:
                url = f"http://127.0.0.1:{door.port}/ws?width=100&height=30"
                sockets = [await http.ws_connect(url) for _ in range(2)]
                for ws in sockets:  # each app (paris-tui join) is in the lobby: it got in
                    said = await _receive_text(ws, "tables of this host")
                    assert "tables of this host" in said, said[-500:]
                for ws in sockets:
                    await ws.close()
        finally:
            await door.close()


async def test_a_relative_data_dir_still_starts_the_browsers_app(tmp_path: Path) -> None:
    """``--data-dir data`` from the host's own directory: the app of a browser starts
    (its folder under the data directory was passed on relative, and the fork server,
    running in the data directory, could not chdir there)."""
    proc = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--web-port", "0"],
        *["--ssh-port", "off", "--data-dir", "data", "--table", "ann,bob"],
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    try:
        url = ""
        async with asyncio.timeout(TIMEOUT):
            while not url:
                line = (await proc.stdout.readline()).decode()
                assert line, "the host exited"
                if line.startswith("In a browser: "):
                    url = line.split()[3]
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"{url.rstrip('/')}/ws")
            await ws.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
            said = await _receive_text(ws, "Your name")
            await ws.close()
        assert "Traceback" not in said and "Your name" in said
        assert (tmp_path / "data" / "host" / "browsers").is_dir()
    finally:
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT):
            await proc.wait()
