"""The browser door: ``paris-tui host --web-port N``.

A page at ``http://HOST:N/`` runs the game in the browser. It is served by
textual-serve (pinned: this module uses a little of its inside, marked where
it does), in the host's own event loop, on the host's ``--bind`` address. Each
browser connection (a tab) gets its own app process: the same client app as
every door, ``paris-tui join`` against this host over loopback
(:func:`paris_tui.host.child.client_command`) with no name, so it opens the
lobby and the person types a name there. textual-serve carries the app's
screen to the browser (xterm.js) and the browser's keys to the app.

Who may take a seat: a name is an account (:mod:`paris_tui.host.accounts.store`).
Each browser gets a random cookie (``paris_tui_browser``, HttpOnly,
SameSite=Strict) and its sessions a data directory of their own, named by a
hash of the cookie, under ``<data-dir>/host/browsers/``; a session's app gets
a door ticket for that cookie (:meth:`~paris_tui.host.server.Host.issue_ticket`,
revoked when the session ends). A name that is nobody's becomes an account
with this browser's cookie as its credential when the browser takes a seat
with it; an account's name needs one of its credentials: this browser's
cookie if it is one of them, a token kept in the browser's data directory, or
a link code typed in the lobby. So the same browser comes back to its seat (a
reload, a dropped connection), and no other browser can sit in it. A browser
without cookies gets a throwaway directory per session and no ticket (it can
take a name that is nobody's, but not come back to it).

No orphans: the app is started with :func:`~paris_tui.host.child.client_env`
(the host as the parent it dies with, even on ``kill -9``); a session whose
browser goes away is asked to quit, then killed after
:data:`STOP_SECONDS`; closing the door ends every session the same way.
Sessions at once are bounded (``--max-web-sessions``), and so are those of
one address (``--max-web-per-address``, :func:`~.web_input.client_address`),
so that one address never holds every seat; a browser over a bound is told so
and sent away. A tab's input is paced (:mod:`.web_input`): keys at a person's
pace, the rest dropped and the tab told once, so its app's memory and CPU stay
bounded whatever it sends. A WebSocket from a page of another site (``Origin``
not this host) is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import ipaddress
import json
import logging
import re
import secrets
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.doors.forks import DoorForks, ForkServer, spawn_piped
from paris_tui.doors.web_input import TabInput, behind_https, client_address
from paris_tui.host.accounts.identity import DoorProof
from paris_tui.host.accounts.names import prepare_names
from paris_tui.host.accounts.store import digest
from paris_tui.host.admission import SessionCaps
from paris_tui.host.child import client_command, client_env
from paris_tui.i18n import _, ngettext
from paris_tui.wording import in_language, language_of_accept

if TYPE_CHECKING:
    from paris_tui.host.server import Host

__all__ = [
    "COOKIE",
    "DEFAULT_MAX_PER_ADDRESS",
    "DEFAULT_MAX_SESSIONS",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "MAX_STDIN_FRAME",
    "STOP_SECONDS",
    "WebDoor",
    "loopback_for",
]

log = logging.getLogger("paris_tui.doors.web")

DEFAULT_MAX_SESSIONS = 16
"""Browser sessions (app processes) at once, unless ``--max-web-sessions`` says otherwise."""

DEFAULT_MAX_PER_ADDRESS = 4
"""Browser sessions at once from one address (IPv6: its /64), unless
``--max-web-per-address`` says otherwise: the rest are kept for other addresses."""

STOP_SECONDS = 3.0
"""How long a session's app has to quit (it saves) before it is killed."""

COOKIE = "paris_tui_browser"
_COOKIE_RE = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
_COOKIE_AGE = 400 * 24 * 3600  # the most browsers keep a cookie
_THROWAWAY = "tab-"  # a cookie-less tab's folder in browsers/ (a cookie's is 32 hex digits)

MAX_COLUMNS, MAX_ROWS = 500, 200
"""The largest screen a session's app is given (a browser asking for more gets this):
more than any real terminal window, a bounded repaint (benchmarks/ssh_login.py)."""

MAX_STDIN_FRAME = 64 * 1024
"""The largest WebSocket message a tab may send (a key, a paste): over it, the tab ends."""

_STDERR_KEPT = 4096  # bytes of an app's standard error kept, to say why it did not start

Command = Callable[[Path], Sequence[str]]
"""The argv of a session's app, given the session's data directory."""


def loopback_for(bind: str) -> str:
    """The address a door's app dials to reach a host bound to ``bind``."""
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "::1"
    return bind


_PAGE = r"""<!DOCTYPE html>
<html lang="%(lang)s">
<head>
<meta charset="utf-8">
<title>Paris Paris</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<script>
  // ?screen-reader=1 (play by ear): xterm.js's screen-reader mode, so that a browser's screen
  // reader reads the terminal's rows. textual.js makes its xterm Terminal with fixed options;
  // the page loads it with screenReaderMode added (unchanged if the pattern is not found).
  (function () {
    var wanted = /^(1|yes|true|on)$/i.test(
      new URLSearchParams(location.search).get("screen-reader") || "");
    function load(code) {
      var script = document.createElement("script");
      script.text = code;
      document.head.appendChild(script);
      if (document.readyState === "complete" && window.onload) { window.onload(); }
    }
    if (!wanted) {
      document.write('<script src="/static/js/textual.js"><\/script>');
      return;
    }
    fetch("/static/js/textual.js").then(function (r) { return r.text(); }).then(function (code) {
      load(code.replace("allowProposedApi:!0,", "allowProposedApi:!0,screenReaderMode:!0,"));
    });
  })();
</script>
<style>
  body { background: #0c181f; margin: 0; }
  .textual-terminal { width: 100vw; height: 100vh; }
  .closed { display: none; position: fixed; left: 0; right: 0; bottom: 0; z-index: 10;
            align-items: center; justify-content: center; gap: 16px;
            background: #12232d; color: #eee; font: 16px menlo, monospace; }
  body.-closed .closed { display: flex; }
  .closed button { margin: 16px; padding: 12px 28px; font: inherit; cursor: pointer; }
</style>
</head>
<body>
<div class="closed"><p>%(ended)s</p>
<button type="button" onclick="location.reload()">%(again)s</button></div>
<div id="terminal" class="textual-terminal" data-font-size="%(font_size)d"></div>
<script>
  // The WebSocket goes back to the address this page came from.
  document.getElementById("terminal").dataset.sessionWebsocketUrl =
    (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
</script>
</body>
</html>
"""


class _Session(AppService):
    """One browser tab's app process (textual-serve's ``AppService``).

    Changed from upstream: the app is started from an argv, not through a
    shell (``_open_app_process``: a shell between the host and the app would be
    the parent the app dies with), with the door's environment on top of
    textual-serve's; stopping it is bounded (``stop``: upstream waits for the
    app for ever); and the app's standard error stays out of the host's output
    (``run``: upstream copies it there), but an app that could not start says
    why in the page.
    """

    def __init__(
        self,
        argv: Sequence[str],
        env: dict[str, str],
        cwd: Path,
        ticket: str | None = None,
        fork_server: Callable[[], Awaitable[ForkServer | None]] | None = None,
        door_socket: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(argv[0], **kwargs)
        self.argv = list(argv)
        self.env = env
        self.cwd = cwd
        self.ticket = ticket  # what the door proved (the browser's cookie), for the app
        self.fork_server = fork_server
        self.warm = False
        self.door_socket = door_socket
        self._stopping: asyncio.Future[None] | None = None
        self.last_output = 0.0  # when the app last sent a screen (the door's notice waits)

    async def on_data(self, payload: bytes) -> None:
        """Upstream's (the app's output to the browser), noting when."""
        self.last_output = asyncio.get_running_loop().time()
        await super().on_data(payload)

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        environment.update(self.env)
        server = None if self.fork_server is None else await self.fork_server()
        if server is not None:  # forked warm (doors/forks.py), else by exec
            forked = await spawn_piped(
                server,
                self.argv,
                client_env(self.ticket, base=environment, door_socket=self.door_socket),
                self.cwd,
            )
            if forked is not None:
                self.warm = True
                self._process = forked  # type: ignore[assignment] # the same interface
                self._stdin = forked.stdin
                return forked
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=client_env(self.ticket, base=environment, door_socket=self.door_socket),
            # Its own 0700 directory: ``python -m`` looks for modules in the working
            # directory first, and the host's may be anyone's (/tmp).
            cwd=self.cwd,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """Upstream's ``run``: pass the app's packets to the browser until it ends."""
        process = self._process
        assert process is not None
        stdout, stderr = process.stdout, process.stderr
        assert stdout is not None and stderr is not None
        tail = bytearray()  # the end of the app's standard error

        async def read_stderr() -> None:
            with contextlib.suppress(asyncio.CancelledError):
                while data := await stderr.read(4096):
                    tail.extend(data)
                    del tail[:-_STDERR_KEPT]

        stderr_task = asyncio.create_task(read_stderr())
        started = False
        try:
            for _attempt in range(10):  # a Textual app says this first (upstream: the same)
                line = await stdout.readline()
                if not line or line == b"__GANGLION__\n":
                    started = bool(line)
                    break
            while started:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await self.on_data(payload)
                elif kind == b"M":
                    await self.on_meta(payload)
                elif kind == b"P":
                    await self.on_packed(payload)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass  # the app ended, or the tab did (closed, aborted) while a screen was sent
        except Exception:  # anything else ends this session only, never the door
            log.exception("a browser session's output failed")
        finally:
            if not started:  # its last words, as it exits
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(stderr_task), 2.0)
            stderr_task.cancel()
            await stderr_task
        if not started:
            lines = [printable(x) for x in tail.decode("utf-8", "replace").splitlines()[-4:]]
            text = "\r\n  ".join(x for x in lines if x.strip())
            if not text:
                with in_language(self.env.get("PARIS_TUI_LANG", "en")):
                    text = _("the game did not start")
            log.warning("a browser's app did not start: %s", " / ".join(lines)[-300:])
            with contextlib.suppress(Exception):
                await self.remote_write_bytes(f"\r\n  {text}\r\n".encode())
                await self.remote_close()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def stop(self) -> None:
        """Ask the app to quit (it saves), kill it after :data:`STOP_SECONDS`; every
        caller (the session's own handler, the door's close) waits for the same end."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        task, self._task = self._task, None
        process = self._process
        try:
            if task is not None:
                # However the tab ended (closed, aborted, an error mid-send), nothing
                # here may skip the kill below: the app and its slot are freed.
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(STOP_SECONDS):
                        await self._download_manager.cancel_app_downloads(
                            app_service_id=self.app_service_id
                        )
                        await self.send_meta({"type": "quit"})  # the app saves and exits
                        await asyncio.shield(task)
                        if process is not None:
                            # Reaped by asyncio's child watcher: a kill() now would reap
                            # it first (Popen.send_signal polls); the watcher would complain.
                            await process.wait()
        finally:
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
            if process is not None:
                # asyncio's wait() also waits for the app's pipes to close: what it
                # wrote and nobody read (a screen in flight) is drained and dropped.
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(STOP_SECONDS):
                        await asyncio.gather(
                            process.wait(), _drain(process.stdout), _drain(process.stderr)
                        )
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    async def set_terminal_size(self, width: int, height: int) -> None:
        """Upstream's, with the size clamped to :data:`MAX_COLUMNS` x :data:`MAX_ROWS`."""
        await super().set_terminal_size(*clamp_size(width, height))

    async def send_bytes(self, data: bytes) -> bool:
        """Upstream's; ``False`` (the app is gone) instead of a broken pipe."""
        try:
            return await super().send_bytes(data)
        except (ConnectionError, RuntimeError):
            return False


async def _drain(stream: asyncio.StreamReader | None) -> None:
    while stream is not None and await stream.read(1 << 16):
        pass


def clamp_size(width: object, height: object) -> tuple[int, int]:
    """A screen size a browser asked for, as the app gets it: whole numbers between
    1x1 and :data:`MAX_COLUMNS` x :data:`MAX_ROWS` (80x24 for what is not a number)."""
    w = width if isinstance(width, int) and not isinstance(width, bool) else 80
    h = height if isinstance(height, int) and not isinstance(height, bool) else 24
    return max(1, min(MAX_COLUMNS, w)), max(1, min(MAX_ROWS, h))


_SECURITY_HEADERS = {
    # Never framed by another page (clickjacking), no other site's scripts or sockets.
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _host_name(header: str) -> str:
    """The name of a ``Host`` header (no port; an IPv6 address without brackets)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def host_allowed(header: str, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` is this door's: an IP address (a page reached by
    address is that address's own origin: no DNS rebinding), ``localhost``, or one
    of ``names`` (``--web-host``, the bind address)."""
    name = _host_name(header)
    if not name:
        return False
    if name in names or name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class _Server(Server):
    """textual-serve's ``Server`` with the door's page, bounds and sessions."""

    def __init__(self, door: WebDoor) -> None:
        super().__init__("paris-tui join", host=door.bind, port=door.port, title="Paris Paris")
        self.door = door

    async def on_startup(self, app: web.Application) -> None:
        """Upstream prints a banner on the console here; the host prints its own lines."""

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        language = _browser_language(request)
        if self.door.full:
            return web.Response(status=503, text=self.door.full_message(language))
        if self.door.caps.full_for(client_address(request)):
            return web.Response(status=503, text=self.door.address_message(language))
        font_size = max(8, min(40, to_int(request.query.get("fontsize", "16"), 16)))
        with in_language(language):
            words = {
                "lang": language,
                "ended": html.escape(_("Session ended.")),
                "again": html.escape(_("Play again")),
            }
        page = _PAGE % {"font_size": font_size, **words}
        response = web.Response(text=page, content_type="text/html")
        response.headers["Cache-Control"] = "no-store"
        if _browser_cookie(request) is None:
            response.set_cookie(
                COOKIE,
                secrets.token_urlsafe(32),
                max_age=_COOKIE_AGE,
                httponly=True,
                samesite="Strict",
                secure=behind_https(request),
            )
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Upstream's ``handle_websocket`` with the checks of this door added."""
        language = _browser_language(request)
        if not _same_origin(request):
            with in_language(language):
                text = _("paris-tui: a page of another site cannot open a game")
            raise web.HTTPForbidden(text=text)
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_STDIN_FRAME)
        await websocket.prepare(request)
        if self.door.closing:
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"host stopping")
            return websocket
        address = client_address(request)
        if not self.door.caps.take(address):
            log.warning("browser tab from %s refused: too many tabs", printable(address))
            if self.door.full:
                full = self.door.full_message(language)
            else:
                full = self.door.address_message(language)
            await websocket.send_bytes(("\r\n  " + full + "\r\n").encode())
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER)
            return websocket
        try:
            return await self._tab(request, websocket, language)
        finally:
            self.door.caps.give_back(address)

    async def _tab(
        self, request: web.Request, websocket: web.WebSocketResponse, language: str
    ) -> web.WebSocketResponse:
        """A tab, counted: its app, for as long as the tab lasts."""
        width, height = clamp_size(
            to_int(request.query.get("width", "80"), 80),
            to_int(request.query.get("height", "24"), 24),
        )
        cookie = _browser_cookie(request)
        host = self.door.host
        ticket = None
        if cookie is not None and host is not None:
            seen = request.remote or ""  # for ratings between different people
            ticket = host.issue_ticket(DoorProof("browser", digest(cookie), None, "browser", seen))
        with self.door.session_dir(cookie) as data_dir:
            session = _Session(
                self.door.command(data_dir, cookie),
                # The browser's language, never the host's (its settings, its locale).
                {"PARIS_TUI_DATA_DIR": str(data_dir), "PARIS_TUI_LANG": language},
                data_dir,
                ticket,
                door_socket=None if self.door.host is None else self.door.host.door_socket,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                fork_server=self.door.fork_server,
            )
            self.door.sessions.add(session)
            self.door.sockets.add(websocket)
            # The app connects to the host from this door's address: one more
            # connection from there than --max-per-address allows, per session.
            slot = loopback_for(self.door.bind)
            if self.door.host is not None:
                self.door.host.reserve_door_slot(slot)
            try:
                await session.start(width, height)
                how = "warm" if session.warm else "exec"
                log.info("browser session started (app pid %s, %s)", session.pid, how)
                await TabInput(websocket, session, language, (width, height), clamp_size).run()
            except (asyncio.CancelledError, ConnectionError):
                pass
            except Exception:  # a broken message from the browser: end this session only
                log.exception("browser session failed")
            finally:
                try:
                    await session.stop()
                finally:  # the slot is freed whatever stopping met
                    if ticket is not None and host is not None:
                        host.revoke_ticket(ticket)
                    self.door.sessions.discard(session)
                    self.door.sockets.discard(websocket)
                    if self.door.host is not None:
                        self.door.host.release_door_slot(slot)
                    with contextlib.suppress(Exception):
                        await websocket.close()
                    log.info("browser session ended (app pid %s)", session.pid)
        return websocket

    async def _make_app(self) -> web.Application:
        """Upstream's application with the door's guards: the ``Host`` allow-list,
        the security headers on every answer, static files without listings."""
        app = web.Application(middlewares=[self._guard])
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_response_prepare.append(_add_security_headers)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if not host_allowed(request.host, self.door.host_names):
            log.warning("browser request for host %r refused", printable(request.host[:80]))
            with in_language(_browser_language(request)):
                text = _("paris-tui: this page is not served under that name")
            return web.Response(status=421, text=text)
        response: web.StreamResponse = await handler(request)
        return response


async def _add_security_headers(_request: web.Request, response: web.StreamResponse) -> None:
    for name, value in _SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


def _browser_language(request: web.Request) -> str:
    """The language of ours the browser prefers (``Accept-Language``), else English."""
    return language_of_accept(request.headers.get("Accept-Language", ""))


def _browser_cookie(request: web.Request) -> str | None:
    value = request.cookies.get(COOKIE)
    return value if value is not None and _COOKIE_RE.fullmatch(value) else None


def _same_origin(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser page (browsers always send Origin on a WebSocket)
    return urlsplit(origin).netloc.lower() == request.host.lower()


class WebDoor:
    """The browser door of a host: an HTTP server in the host's event loop.

    ``command`` gives a session's app argv from its data directory; by default
    ``paris-tui join`` at the host's port (tests pass a stand-in).
    """

    def __init__(
        self,
        *,
        host: Host | None = None,
        host_port: int,
        data_dir: Path,
        bind: str = "127.0.0.1",
        port: int = 8080,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        max_per_address: int = DEFAULT_MAX_PER_ADDRESS,
        command: Command | None = None,
        public_names: Sequence[str] = (),
    ) -> None:
        self.host = host
        self.bind = bind
        # The names a page of this door may be reached by (besides IP addresses and
        # localhost): the bind address and --web-host. Any other Host: 421.
        self.host_names = frozenset(
            n for n in (_host_name(bind), *(_host_name(x) for x in public_names)) if n
        )
        self.port = port
        self.closing = False
        self.max_sessions = max_sessions
        self.caps = SessionCaps(max_sessions, max_per_address)  # tabs in all, per address
        self.browsers_dir = data_dir / "browsers"
        self._host_port = host_port
        self._command = command
        self.sessions: set[_Session] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._server = _Server(self)
        self._forks = DoorForks()

    async def fork_server(self) -> ForkServer | None:
        """The host's fork server the apps start from (doors/forks.py), once ready; None:
        start them by exec (a stand-in command, no host, or no fork server: see the log)."""
        return None if self.closing else await self._forks.get()

    @property
    def full(self) -> bool:
        return len(self.sessions) >= self.max_sessions or self.caps.full()

    def address_message(self, language: str = "en") -> str:
        with in_language(language):
            return ngettext(
                "paris-tui: {n} browser player from your address is here already, "
                "the most this host allows from one address; try again later.",
                "paris-tui: {n} browser players from your address are here already, "
                "the most this host allows from one address; try again later.",
                self.caps.per_address,
            ).format(n=self.caps.per_address)

    def full_message(self, language: str = "en") -> str:
        with in_language(language):
            return ngettext(
                "paris-tui: {n} browser player is here already, "
                "the most this host allows; try again later.",
                "paris-tui: {n} browser players are here already, "
                "the most this host allows; try again later.",
                self.max_sessions,
            ).format(n=self.max_sessions)

    def command(self, data_dir: Path, cookie: str | None = None) -> list[str]:
        if self._command is not None:
            return list(self._command(data_dir))
        address = loopback_for(self.bind)
        argv = [*client_command(self._host_port, address=address), f"--data-dir={data_dir}"]
        name = self.remembered_name(data_dir) or self.cookie_name(cookie)
        if name is not None:  # a reload comes back to its seat, as a terminal does
            argv.append(f"--name={name}")
        return argv

    def cookie_name(self, cookie: str | None) -> str | None:
        """The name of the account whose credential is this browser's cookie (the
        browser took a seat with it: the account was made with the cookie, and no
        token was given), or ``None`` (no such account, a locked one, no store)."""
        host = self.host
        if cookie is None or host is None or host.accounts is None:
            return None
        try:
            account = host.accounts.owner("browser", digest(cookie))
        except Exception:  # the store unreadable now: the lobby asks the name
            log.exception("browser door: the accounts store could not be read")
            return None
        return None if account is None or account.locked else account.name

    def remembered_name(self, data_dir: Path) -> str | None:
        """The one name this browser holds a seat's token for at this host (its app
        keeps them in ``tokens.json``), or ``None`` (none, several, unreadable)."""
        address = loopback_for(self.bind)
        where = (
            f"[{address}]:{self._host_port}" if ":" in address else f"{address}:{self._host_port}"
        )
        try:
            data = json.loads((data_dir / "tokens.json").read_text(encoding="utf-8"))
            names = data["tokens"][where]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not isinstance(names, dict) or len(names) != 1:
            return None
        (name,) = names
        try:
            return normalize_name(name) if isinstance(name, str) else None
        except InvalidNameError:
            return None

    @contextlib.contextmanager
    def session_dir(self, cookie: str | None) -> Iterator[Path]:
        """The data directory of a session: its browser's own, or a throwaway one
        (under the door's own folder, where no cleaner of /tmp takes it while the
        app runs; removed once the app is gone)."""
        self.browsers_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if cookie is None:
            folder = Path(tempfile.mkdtemp(prefix=_THROWAWAY, dir=self.browsers_dir))  # 0700
            try:
                yield folder
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            return
        digest = hashlib.sha256(cookie.encode("ascii")).hexdigest()[:32]
        folder = self.browsers_dir / digest
        folder.mkdir(mode=0o700, exist_ok=True)
        yield folder

    async def start(self) -> tuple[str, int]:
        """Listen; returns the address and port bound (``port=0`` picks one)."""
        # Upstream's Server.serve() runs its own loop (web.run_app); the door runs
        # upstream's aiohttp application (Server._make_app: its page, WebSocket,
        # download and static routes) in the host's loop instead.
        # Throwaway folders a killed host left behind (their apps died with it).
        with contextlib.suppress(OSError):
            for leftover in self.browsers_dir.glob(_THROWAWAY + "*"):
                shutil.rmtree(leftover, ignore_errors=True)
        app = await self._server._make_app()
        runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=2.0, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.bind, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        if self._command is None and self.host is not None:  # paris-tui's own apps: warm
            self._forks.open(self.host, self.host.store.root)
        prepare_names()  # not at the first login, which every login of a burst waits for
        server = site._server
        assert isinstance(server, asyncio.Server)
        name = server.sockets[0].getsockname()
        return str(name[0]), int(name[1])

    async def close(self) -> None:
        """End every session (each app asked to quit, then killed) and stop listening."""
        runner, self._runner = self._runner, None
        if runner is None:
            return
        self.closing = True  # no new sessions from here on
        await asyncio.gather(*(s.stop() for s in list(self.sessions)), return_exceptions=True)
        for websocket in list(self.sockets):
            with contextlib.suppress(Exception):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"host stopped")
        await runner.cleanup()
        await self._forks.close()

    def app_pids(self) -> list[int]:
        """The process ids of the sessions' apps (for tests and measurements)."""
        return [pid for s in self.sessions if (pid := s.pid) is not None]
