"""The SSH door (paris_tui/doors/ssh.py) over loopback, with asyncssh as the client.

The door runs a stand-in app here (tests/host/ssh_helpers.py): it joins the
host with the ticket it was given, says its name, seat, terminal type and
size, and echoes keys, so each test sees what the door gave the app.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from paris_tui.doors.ssh import (
    HOST_KEY_FILE,
    SSHDoorError,
    app_environment,
    load_host_key,
    player_dir,
)
from paris_tui.host.server import Host, Limits
from paris_tui.host.sshlib import asyncssh
from paris_tui.host.store.postgres import PostgresStore

from .ssh_helpers import (
    STAND_IN,
    STUBBORN_ENV,
    TIMEOUT,
    Terminal,
    connect,
    gone,
    new_key,
    running_door,
)


async def test_a_key_logs_in_and_the_app_gets_the_seat_the_size_and_the_keys(
    tmp_path: Path,
) -> None:
    async with running_door(tmp_path) as (host, door):
        key = new_key(tmp_path, "ann")
        async with await connect(door.port, "ann", key) as conn:
            term = await Terminal.open(conn, size=(100, 30))
            shown = await term.wait_for("ready")
            # The ticket took Ann's seat (0) as its owner would; the pty is the app's
            # controlling terminal, of the session's type and size.
            assert "name=ann seat=0 ticket=yes term=xterm-256color" in shown
            assert term.field("size") == "100x30" and term.field("ctty") == "True"
            # It runs in the host's own directory (python -m looks there for modules).
            assert term.field("cwd") == str(host.store.root)
            assert term.field("color") == "-"  # xterm-256color says nothing of true colour
            # Ann's own data directory (her settings and history), never the host's.
            assert term.field("data") == str(player_dir(host.store.root, "ann"))
            assert stat.S_IMODE(Path(term.field("data")).stat().st_mode) == 0o700
            # A resize reaches the app (SIGWINCH with the new size).
            term.process.change_terminal_size(132, 43)
            await term.wait_for("size=132x43")
            # Keys reach it byte for byte.
            term.process.stdin.write(b"\x1b[A")
            await term.wait_for("key=1b5b41")
            term.process.stdin.write(b"q")  # the stand-in exits with status 3
            assert await term.finish() == 3
        assert not door._apps


async def test_a_name_without_a_seat_gets_the_app_too(tmp_path: Path) -> None:
    async with (
        running_door(tmp_path) as (_host, door),
        await connect(door.port, "carol", new_key(tmp_path, "c")) as conn,
    ):
        # ssh -o SetEnv=COLORTERM=truecolor: the client's word for true colour.
        term = await Terminal.open(conn, env={"COLORTERM": "truecolor", "PATH": "/evil"})
        shown = await term.wait_for("ready")
        # No seat for Carol: the app goes on to the lobby (the join app's part).
        assert "name=carol seat=no_such_seat ticket=yes" in shown
        assert term.field("color") == "truecolor"
        assert term.field("path") != "/evil"  # only a few variables are taken from a client


async def test_a_session_without_a_pty_gets_one_line_and_status_1(tmp_path: Path) -> None:
    async with running_door(tmp_path) as (_host, door):
        async with await connect(door.port, "ann", new_key(tmp_path, "ann")) as conn:
            result = await asyncio.wait_for(conn.run("play", encoding="utf-8"), TIMEOUT)
            assert result.exit_status == 1
            assert result.stdout == ""
            hint = f"ssh -t -p {door.port} ann@127.0.0.1"
            assert result.stderr == f"paris-tui needs a terminal: {hint}\n"
            # A shell without a pty (ssh -T) too.
            process = await conn.create_process(encoding="utf-8")
            async with asyncio.timeout(TIMEOUT):
                await process.wait_closed()
            assert process.exit_status == 1
            assert "paris-tui needs a terminal" in await process.stderr.read()
        assert not door._apps


async def test_passwords_and_keyboard_interactive_are_refused(tmp_path: Path) -> None:
    async with running_door(tmp_path) as (host, door):
        for method in ("password", "keyboard-interactive"):
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(door.port, "ann", None, password="secret", preferred_auth=method)
        # No account was made, nothing started.
        assert _accounts(host) == {}
        assert not door._apps


def _accounts(host: Host) -> dict[str, list[str]]:
    """Each account's name and its credentials' doors."""
    assert host.accounts is not None
    return {
        a.name: [c.door for c in host.accounts.credentials(a.id)] for a in host.accounts.accounts()
    }


def _keys_of(host: Host, name: str) -> list[str]:
    assert host.accounts is not None
    account = host.accounts.find(name)
    assert account is not None
    return [c.digest for c in host.accounts.credentials(account.id) if c.door == "ssh"]


async def test_the_first_key_to_take_a_seat_makes_the_account(tmp_path: Path) -> None:
    first, second = new_key(tmp_path, "one"), new_key(tmp_path, "two")
    async with running_door(tmp_path) as (host, door):
        async with await connect(door.port, "ann", first) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready name=ann seat=0")
        assert _keys_of(host, "ann") == [first.get_fingerprint("sha256")]
        if not isinstance(host.tables, PostgresStore):  # the data directory's accounts
            accounts = host.store.root / "accounts.sqlite"
            assert stat.S_IMODE(accounts.stat().st_mode) == 0o600
        # Another key as Ann (in another case): told whose name it is, asked for a
        # link code; Enter alone ends it with status 1, no app, no ticket. (The first
        # login's app may still be ending on a busy machine: no new one is made.)
        apps_before = set(door._apps)
        async with await connect(door.port, "Ann", second) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("Link code")
            text = term.output.decode()
            assert (
                f"paris-tui: ann is an account on this host, and this key "
                f"({second.get_fingerprint('sha256')}) is not one of its keys." in text
            )
            assert "open Account (in the command palette or the lobby) for a link code" in text
            term.process.stdin.write(b"\r")
            assert await term.finish() == 1
            assert b"not linked; log in with one of ann's keys" in term.output
            assert not len(host.tickets) and not set(door._apps) - apps_before
        # The second key may be someone else by another name.
        async with await connect(door.port, "bob", second) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready name=bob seat=1")
    # The account survives a restart. The second key is bob's now: as ann it is told
    # so (a key is one account's: no link code could add it to ann's).
    async with running_door(tmp_path, ()) as (host, door):
        async with await connect(door.port, "ann", second) as conn:
            term = await Terminal.open(conn)
            assert await term.finish() == 1
            assert b"this key belongs to the account bob: log in as bob" in term.output
            assert b"Link code" not in term.output
        async with await connect(door.port, "ann", first) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready name=ann seat=0")
        assert _accounts(host) == {"ann": ["ssh"], "bob": ["ssh"]}


async def test_two_first_logins_with_two_keys_one_makes_the_account(tmp_path: Path) -> None:
    keys = [new_key(tmp_path, "one"), new_key(tmp_path, "two")]
    async with running_door(tmp_path) as (host, door):
        conns = [await connect(door.port, "ann", key) for key in keys]
        terms = await asyncio.gather(*(Terminal.open(conn) for conn in conns))
        shown = await asyncio.gather(*(term.wait_for("ready") for term in terms))
        seats = sorted(term.field("seat") for term in terms)
        assert seats == ["0", "name_taken"], shown
        winner = next(i for i, term in enumerate(terms) if term.field("seat") == "0")
        assert _keys_of(host, "ann") == [keys[winner].get_fingerprint("sha256")]
        for conn in conns:
            conn.close()


async def test_a_stranger_gets_neither_the_seat_of_a_join_player_nor_her_name(
    tmp_path: Path,
) -> None:
    """Ann took her seat with ``paris-tui join``; a stranger's ``ssh ann@host``
    with a key nobody had seen got her seat, her route, and pinned "ann" to his key."""
    from paris_tui.net.client import HostClient

    stranger, own = new_key(tmp_path, "stranger"), new_key(tmp_path, "own")
    async with running_door(tmp_path) as (host, door):
        ann = await HostClient.connect("127.0.0.1", _port(host))
        seated = await ann.join("ann")
        token = seated.token
        assert token is not None
        async with await connect(door.port, "ann", stranger) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("Link code")
            term.process.stdin.write(b"BCDF-GHJK\r")  # a guess
            await term.wait_for("That code is wrong, used or expired.")
            term.process.stdin.write(b"\r")
            assert await term.finish() == 1
            assert b"ready" not in term.output and b"route" not in term.output.lower()
        assert _accounts(host) == {"ann": ["token"]}  # no key of his, no second account
        assert not door._apps and not len(host.tickets)
        # Ann links her own key: a code from where she is Ann, typed at the prompt.
        info = await ann.account("ann", token, "code")
        assert info.code is not None and info.expires is not None
        async with await connect(door.port, "ann", own) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("Link code")
            term.process.stdin.write(info.code.lower().replace("-", " ").encode() + b"\r")
            await term.wait_for("ready name=ann seat=0")
            assert b"this key is now one of ann's keys" in term.output
        assert _keys_of(host, "ann") == [own.get_fingerprint("sha256")]
        # Used once: the same code does not link the stranger's key now.
        async with await connect(door.port, "ann", stranger) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("Link code")
            term.process.stdin.write(info.code.encode() + b"\r")
            await term.wait_for("That code is wrong")
            term.process.stdin.write(b"\x03")
            assert await term.finish() == 1
        await ann.close()


async def test_a_stranger_gets_neither_the_seat_of_a_browser_player_nor_her_name(
    tmp_path: Path,
) -> None:
    from paris_tui.host.accounts.identity import DoorProof
    from paris_tui.host.accounts.store import digest
    from paris_tui.net.client import HostClient

    async with running_door(tmp_path) as (host, door):
        tab = await HostClient.connect("127.0.0.1", _port(host))
        ticket = host.issue_ticket(DoorProof("browser", digest("cookie" * 8)))
        assert (await tab.join("ann", ticket)).seat == 0  # Ann, in her browser
        async with await connect(door.port, "ann", new_key(tmp_path, "stranger")) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("Link code")
            term.process.stdin.write(b"\r")
            assert await term.finish() == 1
            assert b"ready" not in term.output
        assert _accounts(host) == {"ann": ["browser"]}
        await tab.close()


async def test_a_key_of_another_account_is_refused_at_the_door_in_words_for_ssh(
    tmp_path: Path,
) -> None:
    """Bob's key was added to ann's account; ``ssh bob@host`` with
    it got past the door (bob was nobody's) and its app's join then failed with advice
    for ``join`` and the internal loopback address. The door refuses first, and starts
    no app; for a bob who is an account, before asking for (and using up) a code."""
    from paris_tui.host.accounts.store import Credential

    key = new_key(tmp_path, "bob")
    fingerprint = key.get_fingerprint("sha256")
    async with running_door(tmp_path, ("ann,bob", "carol,dan")) as (host, door):
        assert host.accounts is not None
        host.accounts.create("ann", Credential("ssh", fingerprint))
        async with await connect(door.port, "bob", key) as conn:
            term = await Terminal.open(conn)
            assert await term.finish() == 1
        text = term.output.decode()
        assert "this key belongs to the account ann: log in as ann" in text, text
        assert f"ssh -p {door.port} ann@127.0.0.1" in text
        assert "127.0.0.1:" not in text and "--code" not in text and "ready" not in text
        assert not door._apps and not len(host.tickets)
        assert _accounts(host) == {"ann": ["ssh"]}
        carol = host.accounts.create("carol", None)
        code = host.accounts.new_code(carol.id)
        async with await connect(door.port, "carol", key) as conn:
            term = await Terminal.open(conn)
            assert await term.finish() == 1
        text = term.output.decode()
        assert "this key belongs to the account ann" in text and "Link code" not in text
        assert host.accounts.take_code(code, carol.id) is not None  # not used up
        assert _accounts(host) == {"ann": ["ssh"], "carol": []}
        assert not door._apps


async def test_a_browser_of_another_account_is_refused_a_free_name_in_its_words(
    tmp_path: Path,
) -> None:
    """The browser door's cookie: Ann's browser asks for bob's free seat."""
    from paris_tui.host.accounts.identity import DoorProof
    from paris_tui.host.accounts.store import digest
    from paris_tui.net.client import HostClient, RefusedError

    async with running_door(tmp_path) as (host, _door):
        tab = await HostClient.connect("127.0.0.1", _port(host))
        proof = DoorProof("browser", digest("cookie" * 8))
        assert (await tab.join("ann", host.issue_ticket(proof))).seat == 0
        other = await HostClient.connect("127.0.0.1", _port(host))
        with pytest.raises(RefusedError) as refused:
            await other.join("bob", host.issue_ticket(proof))
        assert refused.value.code == "name_taken"
        assert "this browser is the account ann's" in refused.value.refused.message
        assert _accounts(host) == {"ann": ["browser"]}
        # With a code of bob's account: the same words, and the code is not used up.
        assert host.accounts is not None
        bob = host.accounts.create("bob", None)
        code = host.accounts.new_code(bob.id)
        with pytest.raises(RefusedError) as refused:
            await other.join("bob", host.issue_ticket(proof), code=code)
        assert "this browser is the account ann's" in refused.value.refused.message
        assert host.accounts.take_code(code, bob.id) is not None
        await other.close()
        await tab.close()


def _port(host: Host) -> int:
    server = host._server
    assert server is not None
    return int(server.sockets[0].getsockname()[1])


async def test_a_name_that_breaks_the_rule_is_refused_in_one_line(tmp_path: Path) -> None:
    # (asyncssh itself refuses user names with control characters: SASLprep.)
    key = new_key(tmp_path, "k")
    async with running_door(tmp_path) as (host, door):
        for user, problem in (("a" * 70, "the name is too long"), ("   ", "the name is blank")):
            async with await connect(door.port, user, key) as conn:
                term = await Terminal.open(conn)
                assert await term.finish() == 1
                text = term.output.decode()
                assert text.count("\r\n") == 1 and text.endswith("\r\n")
                assert text.startswith(f"paris-tui: the user name {user} cannot be a player's name")
                assert problem in text
                assert f"log in as your name, e.g. ssh -p {door.port} ann@127.0.0.1" in text
        assert not door._apps and _accounts(host) == {}


async def test_authorized_keys_admits_only_the_listed_keys(tmp_path: Path) -> None:
    listed, other = new_key(tmp_path, "listed"), new_key(tmp_path, "other")
    allowed = tmp_path / "authorized_keys"
    allowed.write_bytes(listed.export_public_key("openssh"))
    async with running_door(tmp_path, authorized_keys=allowed) as (_host, door):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(door.port, "ann", other)
        async with await connect(door.port, "ann", listed) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready name=ann seat=0")
        # The file is read again when it changes: the other key is now admitted.
        allowed.write_bytes(
            listed.export_public_key("openssh") + other.export_public_key("openssh")
        )
        async with await connect(door.port, "bob", other) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready name=bob seat=1")


async def test_authorized_keys_admit_keys_but_an_account_owns_its_name(tmp_path: Path) -> None:
    first, second = new_key(tmp_path, "first"), new_key(tmp_path, "second")
    allowed = tmp_path / "authorized_keys"
    allowed.write_bytes(first.export_public_key("openssh") + second.export_public_key("openssh"))
    async with running_door(tmp_path, authorized_keys=allowed) as (host, door):
        async with await connect(door.port, "ann", first) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready name=ann seat=0")
        async with await connect(door.port, "ann", second) as conn:  # admitted, not Ann
            term = await Terminal.open(conn)
            await term.wait_for("Link code")
            term.process.stdin.write(b"\r")
            assert await term.finish() == 1
        assert _keys_of(host, "ann") == [first.get_fingerprint("sha256")]


async def test_an_unreadable_authorized_keys_file_stops_the_door(tmp_path: Path) -> None:
    bad = tmp_path / "keys"
    bad.write_text("this is not a key\n")
    with pytest.raises(SSHDoorError, match="cannot read --authorized-keys"):
        async with running_door(tmp_path, authorized_keys=bad):
            pass
    with pytest.raises(SSHDoorError, match=r"cannot read --authorized-keys .*missing"):
        async with running_door(tmp_path, (), authorized_keys=tmp_path / "missing"):
            pass


async def test_the_host_key_is_made_once_private_and_kept(tmp_path: Path) -> None:
    async with running_door(tmp_path) as (host, door):
        path = host.store.root / HOST_KEY_FILE
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        fingerprint = door.fingerprint
        assert fingerprint.startswith("SHA256:")
        # The client sees that key.
        known = asyncssh.import_known_hosts(
            f"[127.0.0.1]:{door.port} "
            + asyncssh.read_private_key(path).export_public_key("openssh").decode()
        )
        async with await connect(door.port, "ann", new_key(tmp_path, "k"), known_hosts=known):
            pass
    async with running_door(tmp_path, ()) as (host, door):
        assert door.fingerprint == fingerprint
    path.chmod(0o644)
    with pytest.raises(SSHDoorError, match=r"may be read by others \(mode 0644\): chmod 600"):
        load_host_key(path)


async def test_hanging_up_ends_the_app(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The app ends with its connection, and the log says whose session ended, as it
    said who came in (an operator follows who is on)."""
    caplog.set_level(logging.INFO, logger="paris_tui.doors.ssh")
    async with running_door(tmp_path) as (host, door):
        conn = await connect(door.port, "ann", new_key(tmp_path, "ann"))
        term = await Terminal.open(conn)
        await term.wait_for("ready")
        pid = int(term.field("pid"))
        conn.abort()  # the network goes away: no goodbye
        assert await gone(pid), "the app outlived its SSH session"
        async with asyncio.timeout(TIMEOUT):
            while door._apps or host._door_slots:
                await asyncio.sleep(0.05)
    ended = [r.getMessage() for r in caplog.records if "session ended" in r.getMessage()]
    assert len(ended) == 1 and re.fullmatch(
        rf"SSH connection from 127\.0\.0\.1: ann's session ended after \d+ s "
        rf"\(app {pid}, (exit status -?\d+|killed by signal \d+)\)",
        ended[0],
    ), ended


async def test_an_app_that_ignores_the_hang_up_is_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STUBBORN_ENV, "1")
    async with running_door(tmp_path, hangup_grace=1.0) as (_host, door):
        conn = await connect(door.port, "ann", new_key(tmp_path, "ann"))
        term = await Terminal.open(conn)
        await term.wait_for("ready")
        pid = int(term.field("pid"))
        conn.close()
        assert await gone(pid), "the app outlived its SSH session"
        async with asyncio.timeout(TIMEOUT):
            while door._apps:
                await asyncio.sleep(0.05)


async def test_closing_the_door_ends_every_app(tmp_path: Path) -> None:
    pids = []
    async with running_door(tmp_path) as (_host, door):
        conns = []
        for name in ("ann", "bob"):
            conn = await connect(door.port, name, new_key(tmp_path, name))
            conns.append(conn)
            term = await Terminal.open(conn)
            await term.wait_for("ready")
            pids.append(int(term.field("pid")))
    for pid in pids:
        assert await gone(pid, timeout=1.0)
    for conn in conns:
        conn.close()


async def test_a_host_that_stops_gives_each_terminal_back_and_says_so(tmp_path: Path) -> None:
    """Ctrl-C or SIGTERM of the host hangs up each app, which cannot undo what it set in
    the player's terminal (seen by hand: ssh exited 129 and left the alternate screen
    and mouse reporting on): the door undoes it, then says why the session ends."""
    async with running_door(tmp_path) as (_host, door):
        conn = await connect(door.port, "ann", new_key(tmp_path, "ann"))
        term = await Terminal.open(conn)
        await term.wait_for("ready")
        seen = len(term.output)
        await door.close()
        await term.finish()
        after = bytes(term.output[seen:])
        for mode in (b"\x1b[?1049l", b"\x1b[?1000l", b"\x1b[?1003l", b"\x1b[?1006l", b"\x1b[?25h"):
            assert mode in after, (mode, after)
        assert b"the host stopped" in after, after
        conn.close()


async def test_sessions_are_capped_with_a_clear_line(tmp_path: Path) -> None:
    async with running_door(tmp_path, max_sessions=2, max_per_address=1) as (_host, door):
        key = new_key(tmp_path, "ann")
        async with await connect(door.port, "ann", key) as first:
            term = await Terminal.open(first)
            await term.wait_for("ready")
            async with await connect(door.port, "ann", key) as second:
                other = await Terminal.open(second)
                assert await other.finish() == 1
                said = bytes(other.output)
                assert b"1 SSH player from your address is here already" in said, said
            # One session at a time per connection.
            with pytest.raises(asyncssh.ChannelOpenError):
                await Terminal.open(first)
        # Over twice the caps, connections are dropped before they log in.
        conns = [await connect(door.port, "ann", key) for _ in range(2)]
        with pytest.raises((asyncssh.DisconnectError, ConnectionError)):
            await connect(door.port, "ann", key)
        for conn in conns:
            conn.close()


async def test_logins_refused_or_only_looking_make_no_account(tmp_path: Path) -> None:
    """200 SSH logins refused by the session cap once made 200 name pins: no more."""
    async with running_door(tmp_path, max_sessions=1) as (host, door):
        async with await connect(door.port, "ann", new_key(tmp_path, "ann")) as first:
            term = await Terminal.open(first)
            await term.wait_for("ready name=ann seat=0")
            for i in range(20):
                async with await connect(door.port, f"user{i}", new_key(tmp_path, "k")) as conn:
                    refused = await Terminal.open(conn)
                    assert await refused.finish() == 1
                    assert b"too many players over SSH" in refused.output
        # A name with no seat only looks at the lobby: no account either.
        async with await connect(door.port, "carol", new_key(tmp_path, "c")) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("seat=no_such_seat")
        assert _accounts(host) == {"ann": ["ssh"]}


async def test_many_ssh_players_do_not_trip_the_hosts_per_address_limit(tmp_path: Path) -> None:
    # The host allows 2 connections per address; 4 SSH players' apps all connect
    # from 127.0.0.1 and all get their seats.
    tables = ("ann,bob", "cy,dee")
    limits = Limits(max_per_address=2)
    async with running_door(tmp_path, tables, limits=limits) as (host, door):
        conns, terms = [], []
        for name in ("ann", "bob", "cy", "dee"):
            conn = await connect(door.port, name, new_key(tmp_path, name))
            conns.append(conn)
            terms.append(await Terminal.open(conn))
        for term in terms:
            await term.wait_for("ready")
        assert [term.field("seat") for term in terms] == ["0", "1", "0", "1"]
        assert host._door_slots["127.0.0.1"] == 4
        for conn in conns:
            conn.close()
        async with asyncio.timeout(TIMEOUT):
            while host._door_slots:
                await asyncio.sleep(0.05)


async def test_a_connection_that_does_not_log_in_is_cut_off(tmp_path: Path) -> None:
    async with running_door(tmp_path, login_timeout=1.0) as (_host, door):
        reader, writer = await asyncio.open_connection("127.0.0.1", door.port)
        try:
            async with asyncio.timeout(TIMEOUT):
                banner = await reader.readline()
                assert banner.startswith(b"SSH-2.0-")
                while await reader.read(65536):  # says nothing more: the door hangs up
                    pass
        finally:
            writer.close()


def test_each_ssh_player_has_a_data_directory_of_their_own(tmp_path: Path) -> None:
    ann = player_dir(tmp_path, "ann")
    assert ann == player_dir(tmp_path, "ann")  # the same one at each login
    assert ann.parent == tmp_path / "players"
    assert player_dir(tmp_path, "Ann") != ann != player_dir(tmp_path, "bob")
    odd = player_dir(tmp_path, "../..")  # a name never shapes the path
    assert odd.parent == tmp_path / "players" and len(odd.name) == 16
    for folder in (ann, ann.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_the_apps_environment() -> None:
    env = app_environment("t", "xterm-256color", {"COLORTERM": "truecolor", "LANG": "fr_FR.UTF-8"})
    assert env["TERM"] == "xterm-256color" and env["TEXTUAL_COLOR_SYSTEM"] == "truecolor"
    assert env["LANG"] == "fr_FR.UTF-8" and env["PARIS_TUI_TICKET"] == "t"
    env = app_environment(None, "xterm\x1b[2J", {"COLORTERM": "\x1b]52;c;x\x07", "EVIL": "1"})
    assert env["TERM"] == "xterm-256color" and "EVIL" not in env
    assert "TEXTUAL_COLOR_SYSTEM" not in env and env.get("COLORTERM") != "\x1b]52;c;x\x07"
    for term in ("tmux-direct", "xterm-kitty"):
        assert app_environment(None, term, {})["TEXTUAL_COLOR_SYSTEM"] == "truecolor"


def test_a_client_chooses_its_colour_system() -> None:
    """ssh -o SetEnv=TEXTUAL_COLOR_SYSTEM=standard: the README's way to check 16 colours
    reaches the app; a value Textual does not know, or one over true colour, does not."""
    for system in ("standard", "256", "truecolor", "auto"):
        env = app_environment(None, "xterm-kitty", {"TEXTUAL_COLOR_SYSTEM": system})
        assert env["TEXTUAL_COLOR_SYSTEM"] == system
    for bad in ("\x1b[2J", "windows-ish", "x" * 200):
        env = app_environment(None, "xterm-256color", {"TEXTUAL_COLOR_SYSTEM": bad})
        assert "TEXTUAL_COLOR_SYSTEM" not in env


def test_the_apps_language_is_the_sessions_never_the_hosts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PARIS_TUI_LANG", "zh-TW")  # the host's own
    monkeypatch.setenv("LC_MESSAGES", "zh_TW.UTF-8")
    env = app_environment(None, "xterm", {"LANG": "de_DE.UTF-8"})
    assert env["PARIS_TUI_LANG"] == "de" and "LC_MESSAGES" not in env
    assert app_environment(None, "xterm", {})["PARIS_TUI_LANG"] == "en"
    env = app_environment(None, "xterm", {"LANG": "de_DE.UTF-8", "PARIS_TUI_LANG": "zh-TW"})
    assert env["PARIS_TUI_LANG"] == "zh-TW"
    env = app_environment(None, "xterm", {"PARIS_TUI_LANG": "de\x1b[2J"})  # no language of ours
    assert env["PARIS_TUI_LANG"] == "en"


async def test_each_session_is_told_in_its_own_language(tmp_path: Path) -> None:
    key = new_key(tmp_path, "k")
    async with running_door(tmp_path) as (_host, door):
        # A refusal line, in the language the client sent.
        user = "   "
        for env, words in (
            ({"LANG": "de_DE.UTF-8"}, f"paris-tui: der Benutzername {user} kann kein Spielername"),
            (
                {"PARIS_TUI_LANG": "zh-TW"},
                f"paris-tui：使用者名稱 {user} 不能當作玩家名字（名字是空白的）",
            ),
            ({}, f"paris-tui: the user name {user} cannot be a player's name (the name is blank)"),
        ):
            async with await connect(door.port, user, key) as conn:
                term = await Terminal.open(conn, env=env)
                assert await term.finish() == 1
                assert term.output.decode().startswith(words), term.output.decode()
        # The app of a session starts in the session's language.
        async with await connect(door.port, "ann", new_key(tmp_path, "ann")) as conn:
            term = await Terminal.open(conn, env={"LC_ALL": "zh_TW.UTF-8", "LANG": "de_DE.UTF-8"})
            await term.wait_for("ready ")
            assert term.field("lang") == "zh-TW"
            term.process.stdin.write(b"q")
            await term.finish()


_HOST_SCRIPT = """
import asyncio, sys
from pathlib import Path
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.doors.ssh import SSHConfig, SSHDoor

STAND_IN = sys.argv[2]


def stand_in(port, name, address):
    return [sys.executable, "-c", STAND_IN, str(port), name or "-", address]


async def main():
    host = Host(HostConfig(data_dir=Path(sys.argv[1]), port=0))
    host.load()
    host.open_table(parse_seats("ann,bob"), seed=1)
    _, port = await host.start()
    door = SSHDoor(host, SSHConfig(port=0, command=stand_in), app_port=port)
    await door.start()
    print(door.port, flush=True)
    await asyncio.sleep(600)


asyncio.run(main())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
async def test_kill_9_of_the_host_leaves_no_app(tmp_path: Path) -> None:
    # The app ignores SIGHUP and the end of its input: only die_with_parent ends it.
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _HOST_SCRIPT,
        str(tmp_path),
        STAND_IN,
        stdout=asyncio.subprocess.PIPE,
        env=dict(os.environ, **{STUBBORN_ENV: "1"}),
    )
    try:
        assert proc.stdout is not None
        async with asyncio.timeout(TIMEOUT * 2):
            port = int(await proc.stdout.readline())
        async with await connect(port, "ann", new_key(tmp_path, "ann")) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready name=ann seat=0")
            pid = int(term.field("pid"))
            proc.kill()  # the host dies without a word
            assert await gone(pid), f"the app {pid} outlived its host"
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


def _host(*args: str) -> list[str]:
    return [sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", *args]


async def test_the_host_command_opens_the_door_and_says_how_to_join(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *_host("--data-dir", str(tmp_path), "--ssh-port", "0", "--table", "ann,bob"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        lines: list[str] = []
        async with asyncio.timeout(TIMEOUT * 2):
            while not lines or not lines[-1].startswith("Anyone: ssh"):
                line = (await proc.stdout.readline()).decode()
                assert line, f"the host exited: {lines}"
                lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        port = int(text.split("SSH on 127.0.0.1:", 1)[1].split(";")[0])
        key = asyncssh.read_private_key(tmp_path / "host" / HOST_KEY_FILE)
        assert f"host key {key.get_fingerprint()} (players may check it)" in text
        assert f"  ann: ssh -p {port} ann@127.0.0.1\n  bob: ssh -p {port} bob@127.0.0.1\n" in text
        assert text.endswith(
            f"Anyone: ssh -p {port} NAME@127.0.0.1 (a name with no seat opens the lobby)"
        )
        # Its SSH port is taken: another host says so in one line.
        busy = subprocess.run(
            _host("--data-dir", str(tmp_path / "other"), "--ssh-port", str(port)),
            capture_output=True,
            text=True,
            timeout=TIMEOUT * 3,
            check=False,
        )
        assert busy.returncode == 1
        assert busy.stderr.splitlines()[-1].startswith(
            f"paris-tui host: cannot listen for SSH on 127.0.0.1 port {port}: "
        )
        assert "Traceback" not in busy.stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT * 2):
            assert await proc.wait() == 0
    missing = subprocess.run(
        _host("--data-dir", str(tmp_path), "--ssh-port", "0", "--authorized-keys", "nope"),
        capture_output=True,
        text=True,
        timeout=TIMEOUT * 3,
        check=False,
    )
    assert missing.returncode == 1
    assert missing.stderr.splitlines()[-1] == (
        "paris-tui host: cannot read --authorized-keys nope: No such file or directory"
    )
