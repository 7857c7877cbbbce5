"""An evening over SSH, for real: ``paris-tui host`` as its own process, two players
on asyncssh ptys at 80x24, the screens read through ``pyte``. They finish a rated
game, each presses ``q`` and reaches the lobby; one logs out and in again and
reaches the lobby (not the end screen); from the lobby each goes back to the
finished table's end screen, both accept a rematch (``m``), and the new game starts
with the seats' order turned. Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from pathlib import Path

import pytest

from paris_tui.host.store.files import HostStore
from tests.app.test_chat_app import near_the_end

from .ssh_helpers import TIMEOUT, connect, new_key
from .test_ssh_play import Screen, _host, _ssh_port

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ptys and /proc")

LOBBY = "the tables of this host"
SIZE = (80, 24)


async def _press_until(screen: Screen, key: bytes, done: object, what: str) -> None:
    """Press ``key`` after a quiet moment (a deliberate key), again if it was not taken."""
    deadline = time.monotonic() + TIMEOUT * 3
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"never: {what}\n{screen.text()}"
        await screen.settle()
        if done():  # type: ignore[operator]
            return
        screen.press(key)
        for _ in range(20):
            await screen.read(0.1)
            if done():  # type: ignore[operator]
                return


def _record(tmp_path: Path, table: str) -> dict[str, object]:
    path = tmp_path / "host" / "tables" / f"{table}.json"
    return json.loads(path.read_text()) if path.exists() else {}


async def test_finish_q_to_the_lobby_log_in_again_and_a_rematch_over_ssh(
    tmp_path: Path,
) -> None:
    store = HostStore(tmp_path)
    store.open()
    store.put_record("t1", near_the_end("bob,ann").record().to_json_dict())  # bob ends it
    store.close()
    proc = await asyncio.create_subprocess_exec(
        # Both players are at 127.0.0.1: rated only where the operator allows it.
        *_host(tmp_path, "--rated-address", "127.0.0.1"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        port = await _ssh_port(proc)
        ann_key, bob_key = new_key(tmp_path, "ann"), new_key(tmp_path, "bob")
        ann_conn = await connect(port, "ann", ann_key)
        bob_conn = await connect(port, "bob", bob_key)
        ann = await Screen.open(ann_conn, SIZE)
        bob = await Screen.open(bob_conn, SIZE)
        # Both land at their running game; bob's move ends it.
        await ann.wait_for("bob", "ann", "Opér")
        await bob.wait_for("Your turn")
        await _press_until(bob, b"\r", lambda: "Game over" in bob.text(), "bob's last move")
        await ann.wait_for("Game over")
        await _press_until(ann, b" ", lambda: "Rated game" in ann.text(), "the rating")
        # q on the end screen: the lobby, the session goes on.
        for screen in (ann, bob):
            screen.press(b"q")
            await screen.wait_for(LOBBY)
            assert "Game over" not in screen.text()
        # Ann logs out and in again: the lobby, never the finished game's end screen.
        ann_conn.close()
        ann_conn = await connect(port, "ann", ann_key)
        ann = await Screen.open(ann_conn, SIZE)
        await ann.wait_for(LOBBY, "t1")
        await ann.settle()
        assert "Game over" not in ann.text()
        # Back to the finished table (Enter on it: her seat), m agrees to a rematch.
        for name, screen in (("ann", ann), ("bob", bob)):
            await _press_until(screen, b"\r", lambda s=screen: "Game over" in s.text(), "end")
            if name == "ann":
                await _press_until(ann, b"m", lambda: "ann agreed" in ann.text(), "ann's m")
                assert "waiting for bob" in ann.text()
            else:  # the last word: the rematch starts at once
                await _press_until(bob, b"m", lambda: "Game over" not in bob.text(), "bob's m")
        # Both agreed: the rematch is dealt (bob and ann's seats turned) and begins.
        deadline = time.monotonic() + TIMEOUT * 2
        while not _record(tmp_path, "t2"):
            assert time.monotonic() < deadline, "no rematch table"
            await asyncio.sleep(0.1)
        players = [p["name"] for p in _record(tmp_path, "t2")["players"]]  # type: ignore[index, union-attr]
        assert players == ["ann", "bob"]
        for screen in (ann, bob):
            await screen.wait_for("Opér")
            assert "Game over" not in screen.text()
        await ann.wait_for("Your turn")  # ann has the first seat now
        ann_conn.close()
        bob_conn.close()
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT * 2):
            assert await proc.wait() == 0
