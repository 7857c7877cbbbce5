"""What every door (SSH, browser) shares: its tickets and the app it starts."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paris_tui.core.text import InvalidNameError
from paris_tui.host.accounts.identity import DoorProof
from paris_tui.host.child import (
    PARENT_ENV,
    TICKET_ENV,
    client_command,
    client_env,
)
from paris_tui.net.client import HostClient, RefusedError

from .helpers import TIMEOUT, join_bot, running_host

SSH_ANN = DoorProof("ssh", "SHA256:ann-key", "ann")
SSH_BOB = DoorProof("ssh", "SHA256:bob-key", "bob")


async def test_a_ticket_is_no_key_to_an_account_it_did_not_prove(tmp_path: Path) -> None:
    """Issue 17: the door "vouched" for whoever logged in as a name (``elif by_ticket:
    pass``): a ticket for any key took a seat claimed by ``join``."""
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")  # Ann's account: the token she was given
        assert ann.seated.token is not None
        stranger = host.issue_ticket(SSH_ANN)  # a key the account ann does not have
        door = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await door.join("ann", token=stranger)
        assert info.value.code == "name_taken"
        # Nothing was given away or written: no route, the seat stays Ann's.
        assert host.accounts is not None
        account = host.accounts.find("ann")
        assert account is not None
        assert [c.door for c in host.accounts.credentials(account.id)] == ["token"]
        await door.close()
        await ann.client.close()


async def test_a_ticket_proves_the_account_of_its_credential_again_and_again(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ticket = host.issue_ticket(SSH_ANN)
        door = await HostClient.connect("127.0.0.1", port)
        seated = await door.join("Ann", token=ticket)  # a name nobody has: its account now
        assert seated.seat == 0 and seated.token is None  # the key is the proof, no token
        await door.close()
        # Good while the door's session lasts (a reconnect), then revoked.
        again = await HostClient.connect("127.0.0.1", port)
        assert (await again.join("ann", token=ticket)).seat == 0
        await again.close()
        host.revoke_ticket(ticket)
        late = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await late.join("ann", token=ticket)
        assert info.value.code == "bad_token"  # now only a wrong token
        # A new session with the same key proves the account again.
        fresh = await HostClient.connect("127.0.0.1", port)
        assert (await fresh.join("ann", token=host.issue_ticket(SSH_ANN))).seat == 0
        await fresh.close()


async def test_an_ssh_ticket_is_for_its_one_name(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ticket = host.issue_ticket(SSH_BOB)
        thief = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await thief.join("ann", token=ticket)  # Bob's login is no key to Ann's seat
        assert info.value.code == "name_taken"
        assert host.accounts is not None and host.accounts.find("ann") is None
        seated = await thief.join("bob", token=ticket)
        assert seated.seat == 1
        # The seat is now Bob's account's: a plain join for Bob is refused.
        late = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await late.join("bob")
        assert info.value.code == "name_taken"
        await thief.close()
        await late.close()


async def test_a_ticket_for_a_name_without_a_seat_makes_no_account(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ticket = host.issue_ticket(DoorProof("ssh", "SHA256:carol", "carol"))
        client = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await client.join("carol", token=ticket)
        assert info.value.code == "no_such_seat"
        assert host.accounts is not None and host.accounts.accounts() == []
        assert host.tickets.proof(ticket) == DoorProof("ssh", "SHA256:carol", "carol")
        await client.close()


async def test_a_ticket_expires(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ticket = host.issue_ticket(SSH_ANN)
        assert len(host.tickets) == 1
        # Its deadline passes (moved back, rather than the clock forward).
        live = host.tickets._live
        for key, (proof, _) in list(live.items()):
            live[key] = (proof, time.monotonic() - 1)
        client = await HostClient.connect("127.0.0.1", port)
        seated = await client.join("ann", token=ticket)  # a name nobody has: a first join
        assert seated.token is not None  # the account made with a token, not the key
        assert not len(host.tickets)
        await client.close()


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


def test_a_hosts_trace_and_profile_settings_never_reach_an_app_started_by_exec() -> None:
    """(paris_tui/trace.py: the fork server's apps trace as it does; an exec'd one not.)"""
    env = client_env(None, {"PATH": "/bin", "PARIS_TUI_TRACE": "/tmp/t", "PARIS_TUI_PROFILE": "/p"})
    assert "PARIS_TUI_TRACE" not in env and "PARIS_TUI_PROFILE" not in env
    assert env["PATH"] == "/bin"


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
