"""The browser door's limits: every way a tab ends frees its slot and
kills its app; screen sizes and stdin frames bounded; a Host allow-list against
DNS rebinding; no directory listings; never framed.

A stand-in app speaking textual-serve's protocol (no chromium needed); loopback
only, every wait bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
import textwrap
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from paris_tui.doors import web
from paris_tui.doors.web import MAX_COLUMNS, MAX_ROWS, MAX_STDIN_FRAME, WebDoor

TIMEOUT = 30.0

# An app whose screen is huge and never ends (8 MiB frames, as an 8192x8192 repaint
# is): it never reads its input, so only the door killing it ends it.
HUGE_APP = textwrap.dedent(
    """
    import os, sys, time
    from paris_tui.host.child import die_with_parent
    die_with_parent()
    out = sys.stdout.buffer
    out.write(b"__GANGLION__\\n")
    frame = b"x" * (8 << 20)
    while True:
        out.write(b"D" + len(frame).to_bytes(4, "big") + frame)
        out.flush()
    """
)
# An app that reports the sizes and stdin bytes it is given, then quits when asked.
REPORT_APP = textwrap.dedent(
    """
    import json, os, sys
    from paris_tui.host.child import die_with_parent
    die_with_parent()
    out = sys.stdout.buffer
    def say(text):
        data = text.encode()
        out.write(b"D" + len(data).to_bytes(4, "big") + data)
        out.flush()
    out.write(b"__GANGLION__\\n")
    say("size " + os.environ.get("COLUMNS", "?") + "x" + os.environ.get("ROWS", "?")
        + " dir " + os.environ.get("PARIS_TUI_DATA_DIR", "") + " exists "
        + str(os.path.isdir(os.environ.get("PARIS_TUI_DATA_DIR", ""))))
    inp = sys.stdin.buffer
    while True:
        kind = inp.read(1)
        if not kind:
            break
        size = int.from_bytes(inp.read(4), "big")
        payload = inp.read(size)
        if kind == b"M":
            meta = json.loads(payload)
            if meta.get("type") == "quit":
                break
            if meta.get("type") == "resize":
                say("resized %sx%s" % (meta["width"], meta["height"]))
        elif kind == b"D":
            say("stdin %d" % len(payload))
    """
)


@asynccontextmanager
async def _door(tmp_path: Path, app: str, **kwargs: object) -> AsyncIterator[WebDoor]:
    door = WebDoor(
        host_port=7337,
        data_dir=tmp_path,
        port=0,
        command=lambda _d: [sys.executable, "-c", app],
        **kwargs,  # type: ignore[arg-type]
    )
    _, door.port = await door.start()
    try:
        yield door
    finally:
        await door.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(ChildProcessError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


async def _until(check: object, what: str) -> None:
    async with asyncio.timeout(TIMEOUT):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.05)


async def _read_until(ws: aiohttp.ClientWebSocketResponse, want: str) -> str:
    seen = b""
    async with asyncio.timeout(TIMEOUT):
        while want.encode() not in seen:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                seen += message.data
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
    return seen.decode("utf-8", "replace")


@pytest.mark.parametrize("how", ["abort", "close", "error"])
async def test_a_tab_that_ends_mid_screen_frees_its_slot_and_kills_its_app(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web, "STOP_SECONDS", 0.5)  # this app never quits: it is killed
    async with _door(tmp_path, HUGE_APP, max_sessions=1) as door:
        url = f"http://127.0.0.1:{door.port}/ws?width=80&height=24"
        for _round in range(2):  # more rounds than slots: a lost slot would show
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(url, max_msg_size=0)
                first = await ws.receive(timeout=TIMEOUT)
                assert first.type == aiohttp.WSMsgType.BINARY
                await _until(door.app_pids, "an app")
                (pid,) = door.app_pids()
                if how == "abort":
                    assert ws._response.connection is not None
                    ws._response.connection.transport.abort()  # type: ignore[union-attr]
                elif how == "close":
                    await ws.close()
                else:  # the browser sends what is not a message, mid-screen
                    await ws.send_str("[not json")
                await _until(lambda: not door.sessions, "the slot freed")
                await _until(lambda p=pid: not _alive(p), "the app killed")


async def test_screen_sizes_and_stdin_frames_are_bounded(tmp_path: Path) -> None:
    async with _door(tmp_path, REPORT_APP) as door, aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{door.port}/ws?width=8192&height=8192")
        said = await _read_until(ws, "exists")
        assert f"size {MAX_COLUMNS}x{MAX_ROWS}" in said
        await ws.send_json(["resize", {"width": 8192, "height": 8192}])
        assert f"resized {MAX_COLUMNS}x{MAX_ROWS}" in await _read_until(ws, "resized")
        await ws.send_json(["resize", {"width": 0, "height": -5}])
        assert "resized 1x1" in await _read_until(ws, "resized")
        await ws.send_json(["stdin", "q" * 100])
        assert "stdin 100" in await _read_until(ws, "stdin")
        # A frame over the bound ends the tab (and its app), not the door.
        await ws.send_json(["stdin", "q" * (MAX_STDIN_FRAME + 1)])
        message = await ws.receive(timeout=TIMEOUT)
        while message.type == aiohttp.WSMsgType.BINARY:
            message = await ws.receive(timeout=TIMEOUT)
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        await _until(lambda: not door.sessions, "the slot freed")


async def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as http:
        response = await http.get(f"http://127.0.0.1:{port}{path}", headers=headers)
        return response.status, await response.text(), dict(response.headers)


async def test_dns_rebinding_is_refused_by_the_host_allow_list(tmp_path: Path) -> None:
    async with _door(tmp_path, REPORT_APP, public_names=("paris.example.org",)) as door:
        port = door.port
        evil = {"Host": "evil.example", "Origin": "http://evil.example"}
        status, _, _ = await _get(port, "/", evil)
        assert status == 421
        status, _, _ = await _get(port, "/ws", {**evil, "Upgrade": "websocket"})
        assert status == 421
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as info:
                await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers=evil)
            assert info.value.status == 421
        assert not door.sessions
        for name in ("localhost", "127.0.0.1", "[::1]", "paris.example.org"):
            status, _text, headers = await _get(port, "/", {"Host": f"{name}:{port}"})
            assert status == 200, name
            assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
            assert headers["X-Frame-Options"] == "DENY"
        # An allowed Host, but a page of another site: refused.
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as info:
                await http.ws_connect(
                    f"http://127.0.0.1:{port}/ws", headers={"Origin": "http://evil.example"}
                )
            assert info.value.status == 403


async def test_no_directory_listings(tmp_path: Path) -> None:
    async with _door(tmp_path, REPORT_APP) as door:
        for path in ("/static/", "/static/js/", "/static/css/"):
            status, text, headers = await _get(door.port, path, {})
            assert status in (403, 404), (path, text[:200])
            assert "Index of" not in text
            assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        status, text, _ = await _get(door.port, "/static/js/textual.js", {})
        assert status == 200 and text


async def test_a_cookieless_tabs_folder_is_kept_while_its_app_runs(tmp_path: Path) -> None:
    async with _door(tmp_path, REPORT_APP) as door, aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{door.port}/ws")
        said = await _read_until(ws, "exists")
        folder = Path(said.split(" dir ")[1].split(" exists ")[0])
        assert said.endswith("exists True")
        # Under the door's own 0700 folder (no /tmp cleaner takes it), and kept
        # for as long as the app runs.
        assert tmp_path in folder.parents
        await asyncio.sleep(0.2)
        assert folder.is_dir() and door.sessions
        await ws.close()
        await _until(lambda: not door.sessions, "the session over")
        assert not folder.exists()


def test_a_reload_comes_back_to_the_seat_its_browser_holds(tmp_path: Path) -> None:
    door = WebDoor(host_port=7337, data_dir=tmp_path, port=0)
    folder = tmp_path / "browsers" / "b"
    folder.mkdir(parents=True)
    assert not any(a.startswith("--name") for a in door.command(folder))  # nothing kept
    tokens = folder / "tokens.json"
    tokens.write_text('{"tokens": {"127.0.0.1:7337": {"ann": "' + "t" * 43 + '"}}}')
    assert door.command(folder)[-1] == "--name=ann"  # the app joins her seat again
    tokens.write_text('{"tokens": {"127.0.0.1:7337": {"ann": "x", "bob": "y"}}}')
    assert not any(a.startswith("--name") for a in door.command(folder))  # which one?
    tokens.write_text('{"tokens": {"127.0.0.1:9": {"ann": "x"}}}')  # another host's
    assert not any(a.startswith("--name") for a in door.command(folder))
    tokens.write_text("{not json")
    assert not any(a.startswith("--name") for a in door.command(folder))


# --- paced input, a cap per address, the cookie behind HTTPS ------------------------------


def _given(seen: str, what: str) -> list[int]:
    """The numbers REPORT_APP said after ``what`` (``stdin 60000``, ``resized 80x24``)."""
    return [int(n) for n in re.findall(re.escape(what) + r" (\d+)", seen)]


async def _drain(ws: aiohttp.ClientWebSocketResponse, seconds: float) -> str:
    seen = b""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            message = await ws.receive(timeout=left)
        except TimeoutError:
            break
        if message.type == aiohttp.WSMsgType.BINARY:
            seen += message.data
        elif message.type != aiohttp.WSMsgType.TEXT:
            break
    return seen.decode("utf-8", "replace")


async def test_a_flood_of_stdin_reaches_the_app_at_a_persons_pace(tmp_path: Path) -> None:
    """8 frames of 60,000 keys at once (the probe sent 64), then 400 single keys: the
    app is given a burst and a typist's pace; the tab is told once, in German; the
    door reads the flood no faster than it could take it, and a person's key typed
    after it still goes through."""
    from paris_tui.doors.pacing import BYTES_BURST, BYTES_RATE, EVENTS_BURST, EVENTS_RATE

    async with _door(tmp_path, REPORT_APP) as door, aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{door.port}/ws?width=80&height=24"
        ws = await http.ws_connect(url, headers={"Accept-Language": "de"})
        await _read_until(ws, "size")
        loop = asyncio.get_running_loop()
        began = loop.time()
        for _ in range(8):
            await ws.send_json(["stdin", "a" * 60000])
        for _ in range(400):
            await ws.send_json(["stdin", "b"])
        took = loop.time() - began
        seen = await _drain(ws, 1.5)
        got = sum(_given(seen, "stdin"))
        print(f"of 480,400 keys in {took:.2f} s, the app was given {got} bytes")
        assert got <= min(
            BYTES_BURST + BYTES_RATE * (took + 1.5), EVENTS_BURST + EVENTS_RATE * (took + 1.5)
        ), got
        words = "Eingaben kamen schneller, als jemand tippt; der Rest wurde verworfen"
        assert seen.count(words) == 1, seen[-500:]
        # A person's keys still go through once the flood is read (8 holds of 0.25 s,
        # then the single keys at about 60 a second).
        async with asyncio.timeout(TIMEOUT):
            while "stdin" in await _drain(ws, 1.0):
                pass
        await ws.send_json(["stdin", "xyz"])
        assert "stdin 3" in await _read_until(ws, "stdin 3")
        await ws.close()


async def test_a_flood_of_resizes_is_paced_and_the_last_size_wins(tmp_path: Path) -> None:
    async with _door(tmp_path, REPORT_APP) as door, aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{door.port}/ws?width=80&height=24")
        await _read_until(ws, "size")
        for i in range(300):
            await ws.send_json(["resize", {"width": 100 + i % 50, "height": 30}])
        await ws.send_json(["resize", {"width": 123, "height": 45}])
        seen = await _read_until(ws, "resized 123x45")
        assert seen.count("resized ") <= 40, seen.count("resized ")
        await ws.close()


async def test_one_address_takes_only_its_share_of_the_tabs(tmp_path: Path) -> None:
    """With 6 tabs at most and 2 per address: 127.0.0.1's third tab is told why and
    sent away (its page too), while 127.0.0.2 still gets in."""
    async with _door(tmp_path, REPORT_APP, max_sessions=6, max_per_address=2) as door:
        url = f"http://127.0.0.1:{door.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession() as http:
            tabs = [await http.ws_connect(url) for _ in range(2)]
            for ws in tabs:
                await _read_until(ws, "size")
            third = await http.ws_connect(url)
            said = await _read_until(third, "try again later")
            assert "from your address" in said and "2 browser players" in said
            page = await http.get(f"http://127.0.0.1:{door.port}/")
            assert page.status == 503 and "from your address" in await page.text()
            other = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
            async with aiohttp.ClientSession(connector=other) as elsewhere:
                ws = await elsewhere.ws_connect(url)
                assert "size 80x24" in await _read_until(ws, "size")
                await ws.close()
            for ws in tabs:
                await ws.close()


async def test_the_cookie_is_secure_behind_https(tmp_path: Path) -> None:
    async with _door(tmp_path, REPORT_APP) as door, aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{door.port}/"
        plain = await http.get(url)
        assert "Secure" not in plain.headers["Set-Cookie"]
        for header in ({"X-Forwarded-Proto": "https"}, {"Forwarded": "for=1.2.3.4;proto=https"}):
            http.cookie_jar.clear()
            proxied = await http.get(url, headers=header)
            cookie = proxied.headers["Set-Cookie"]
            assert "Secure" in cookie and "HttpOnly" in cookie, cookie


async def test_behind_a_proxy_on_this_machine_tabs_are_counted_at_the_forwarded_address(
    tmp_path: Path,
) -> None:
    async with _door(tmp_path, REPORT_APP, max_per_address=1) as door:
        url = f"http://127.0.0.1:{door.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession() as http:

            def via(address: str) -> dict[str, str]:
                return {"X-Forwarded-For": f"198.51.100.9, {address}"}

            first = await http.ws_connect(url, headers=via("203.0.113.5"))
            await _read_until(first, "size")
            again = await http.ws_connect(url, headers=via("203.0.113.5"))
            assert "from your address" in await _read_until(again, "try again later")
            other = await http.ws_connect(url, headers=via("203.0.113.6"))
            assert "size 80x24" in await _read_until(other, "size")
            await first.close()
            await other.close()
