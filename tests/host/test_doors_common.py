"""What every door (SSH, browser) shares: one-time tickets and the app it starts."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paris_tui.core.text import InvalidNameError
from paris_tui.host import server as server_module
from paris_tui.host.child import (
    PARENT_ENV,
    TICKET_ENV,
    client_command,
    client_env,
)
from paris_tui.net.client import HostClient, RefusedError

from .helpers import TIMEOUT, join_bot, running_host


async def test_a_ticket_takes_a_claimed_seat_once(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")  # Ann's seat is claimed with a token
        ticket = host.issue_ticket("Ann")
        door = await HostClient.connect("127.0.0.1", port)
        seated = await door.join("ann", token=ticket)
        assert seated.seat == 0 and seated.token is None
        # Used up: the same ticket again is a wrong token.
        other = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await other.join("ann", token=ticket)
        assert info.value.code == "bad_token"
        await door.close()
        await ann.client.close()


async def test_a_ticket_claims_a_free_seat_and_is_for_one_name(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        ticket = host.issue_ticket("bob")
        thief = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await thief.join("ann", token=ticket)  # a ticket for Bob is no key to Ann's seat
        assert info.value.code == "bad_token"
        door = await HostClient.connect("127.0.0.1", port)
        seated = await door.join("bob", token=ticket)
        assert seated.seat == 1
        # The seat is now owned: a plain join for Bob is refused.
        late = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await late.join("bob")
        assert info.value.code == "seat_taken"
        await door.close()
        await late.close()
        await ann.client.close()


async def test_a_ticket_for_a_name_without_a_seat_stays_unused(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ticket = host.issue_ticket("carol")
        client = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await client.join("carol", token=ticket)
        assert info.value.code == "no_such_seat"
        assert host._take_ticket(ticket, "carol")  # still good for the lobby
        await client.close()


async def test_a_ticket_expires(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ticket = host.issue_ticket("ann")
        assert len(host._tickets) == 1
        # Its deadline passes (moved back, rather than the clock forward).
        for digest, (name, _) in list(host._tickets.items()):
            host._tickets[digest] = (name, time.monotonic() - 1)
        client = await HostClient.connect("127.0.0.1", port)
        seated = await client.join("ann", token=ticket)  # unclaimed seat: a first join
        assert seated.token is not None  # claimed as a first join, not through the ticket
        assert not host._tickets
        await client.close()


def test_tickets_are_for_valid_names_only(tmp_path: Path) -> None:
    host = server_module.Host(server_module.HostConfig(data_dir=tmp_path, port=0))
    with pytest.raises(InvalidNameError):
        host.issue_ticket("\x1b]52;c;aGk=\x07")


def test_the_client_command_keeps_a_name_a_name() -> None:
    argv = client_command(7337, "-rf")
    assert argv[:5] == [sys.executable, "-P", "-m", "paris_tui", "join"]
    assert argv[5:] == ["127.0.0.1:7337", "--name=-rf"]
    assert client_command(1, None, address="::1")[5:] == ["[::1]:1"]
    with pytest.raises(InvalidNameError):
        client_command(7337, "bob\u202e")
    with pytest.raises(ValueError):
        client_command(0)


def test_the_ticket_travels_in_the_environment_only() -> None:
    env = client_env("secret-ticket", {"PATH": "/bin", TICKET_ENV: "stale"})
    assert env[TICKET_ENV] == "secret-ticket"
    assert env[PARENT_ENV] == str(os.getpid())
    assert TICKET_ENV not in client_env(None, {TICKET_ENV: "stale"})
    assert not any("secret" in part for part in client_command(7337, "ann"))


_CHILD = """
import os, sys, time
from paris_tui.host.child import die_with_parent
die_with_parent()
print(os.getpid(), flush=True)
time.sleep(60)
"""

_MIDDLE = """
import os, subprocess, sys
from paris_tui.host.child import client_env
child = subprocess.Popen([sys.executable, "-c", sys.argv[1]], env=client_env(None),
                         stdout=sys.stdout)
child.wait()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_door_app_dies_with_its_host_even_on_kill_9() -> None:
    middle = subprocess.Popen(
        [sys.executable, "-c", _MIDDLE, _CHILD], stdout=subprocess.PIPE, text=True
    )
    try:
        assert middle.stdout is not None
        child_pid = int(middle.stdout.readline())
        middle.kill()  # the "host" dies without a word
        middle.wait(TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                os.kill(child_pid, 0)
            except ProcessLookupError:
                break
            # A zombie is gone for our purpose: it runs nothing (reaped by init).
            stat = Path(f"/proc/{child_pid}/stat")
            if stat.exists() and stat.read_text().split(") ")[-1].startswith("Z"):
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"the app {child_pid} outlived the process that started it")
    finally:
        middle.kill()


def test_a_stale_parent_means_exit_at_once() -> None:
    env = dict(os.environ, **{PARENT_ENV: "1"})  # pid 1 is never our parent here
    result = subprocess.run(
        [sys.executable, "-c", _CHILD],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT * 3,
    )
    assert result.returncode == 1 and result.stdout == ""
