"""The operator's account commands (``paris-tui host accounts``) and ``host --invite``."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sys
from pathlib import Path

import pytest

from paris_tui.cli import main
from paris_tui.host.accounts.command import invite
from paris_tui.host.accounts.store import Credential, digest, open_accounts
from paris_tui.host.sshlib import asyncssh
from paris_tui.net.client import HostClient, RefusedError

from .helpers import TIMEOUT, running_host

_CODE = re.compile(r"[B-Z2-9]{4}-[B-Z2-9]{4}")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["host", "accounts", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_list_rename_lock_remove_and_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--data-dir", str(tmp_path)]
    assert _run(capsys, "list", *where) == (0, "No accounts yet.\n", "")
    store = open_accounts(tmp_path / "host")
    ann = store.create("ann", Credential("token", digest("a" * 43)))
    store.close()
    status, out, _ = _run(capsys, "list", "--json", *where)
    listed = json.loads(out)["accounts"]
    assert status == 0 and [a["name"] for a in listed] == ["ann"]
    assert listed[0]["doors"] == {"ssh": 0, "token": 1, "browser": 0} and not listed[0]["locked"]
    key = asyncssh.generate_private_key("ssh-ed25519")
    key.write_public_key(str(tmp_path / "ann.pub"))
    status, out, _ = _run(capsys, "add-key", "ann", str(tmp_path / "ann.pub"), *where)
    assert status == 0 and key.get_fingerprint("sha256") in out
    assert _run(capsys, "lock", "ANN", *where)[0] == 0
    status, out, _ = _run(capsys, "list", *where)
    assert out == "ann: ssh 1, token 1, browser 0 (locked)\n"
    status, out, _ = _run(capsys, "link-code", "ann", *where)
    assert status == 0 and _CODE.search(out) and "10 minutes" in out
    status, _out, err = _run(capsys, "rename", "ann", "\u0430nna", *where)  # Cyrillic a: fine
    assert status == 0
    store = open_accounts(tmp_path / "host")
    bob = store.create("bob", None)
    store.close()
    status, _out, err = _run(capsys, "rename", "bob", "anna", *where)  # looks like the other
    assert status == 1 and "looks like the account" in err
    assert _run(capsys, "remove", "bob", *where)[0] == 0
    status, _out, err = _run(capsys, "unlock", "nobody", *where)
    assert status == 1 and "there is no account nobody" in err
    store = open_accounts(tmp_path / "host")
    assert [(a.name, a.locked) for a in store.accounts()] == [("\u0430nna", True)]
    assert store.get(bob.id) is None and store.get(ann.id) is not None
    store.close()


async def test_an_invitation_is_the_only_way_to_a_reserved_seat(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["zoe,yan"]) as (host, port):
        assert host.accounts is not None
        code = invite(host.accounts, "zoe")
        first = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:  # knowing the name is not enough
            await first.join("zoe")
        assert info.value.code == "name_taken"
        seated = await first.join("zoe", code=code.lower())
        assert seated.seat == 0 and seated.token is not None
        await first.close()
        again = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await again.join("zoe", code=code)  # used once
        assert info.value.code == "bad_code"
        await again.close()


async def test_host_invite_prints_a_code_per_reserved_seat(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--ssh-port", "off"],
        *["--data-dir", str(tmp_path), "--table", "zoe,yan,ai:easy", "--invite"],
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        codes: dict[str, str] = {}
        async with asyncio.timeout(TIMEOUT):
            while len(codes) < 2:
                line = (await proc.stdout.readline()).decode()
                assert line, f"the host exited: {(await proc.stderr.read()).decode()}"
                found = _CODE.search(line)
                if "invitation code" in line and found:
                    codes[line.split(":")[0].strip()] = found.group()
        assert set(codes) == {"zoe", "yan"} and codes["zoe"] != codes["yan"]
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT):
            assert await proc.wait() == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    store = open_accounts(tmp_path / "host")
    assert sorted(a.name for a in store.accounts()) == ["yan", "zoe"]
    assert all(store.credentials(a.id) == [] for a in store.accounts())
    store.close()
