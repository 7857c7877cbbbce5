"""An SSH key joins an account only when its private half logs in with it.

Public keys are public (``github.com/USER.keys``): an account that could add
anyone's public key from the app (the ``account`` request's ``add_key``) took
that key's owner's SSH logins hostage ("this key belongs to the account
vicky"). A key now joins an account only by an SSH login with it, as the
account's name, with a link code typed at the door (doors/ssh_link.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paris_tui.net.client import HostClient, RefusedError

from .ssh_helpers import Terminal, connect, new_key, running_door


async def test_a_public_key_added_from_the_app_joins_no_account(tmp_path: Path) -> None:
    victim = new_key(tmp_path, "victim")
    public = victim.export_public_key("openssh").decode().strip()
    async with running_door(tmp_path, ("vicky,ai:easy",)) as (host, door):
        assert host.accounts is not None
        vicky = await HostClient.connect("127.0.0.1", door.app_port)
        seated = await vicky.join("vicky")
        assert seated.token is not None
        with pytest.raises(RefusedError) as refused:
            await vicky.account("vicky", seated.token, "add_key", public)
        assert "logging in with it" in refused.value.refused.message
        account = host.accounts.find("vicky")
        assert account is not None
        assert [c.door for c in host.accounts.credentials(account.id)] == ["token"]
        assert host.accounts.owner("ssh", victim.get_fingerprint("sha256")) is None
        # The victim's own login, under their own name, is theirs.
        async with await connect(door.port, "victim", victim) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("ready name=victim")
            assert b"belongs to the account vicky" not in term.output
        # The proven way: vicky logs in over SSH with a key of her own and types a
        # link code made where she is vicky; that key (its private half used) joins.
        own = new_key(tmp_path, "vickys")
        info = await vicky.account("vicky", seated.token, "code")
        assert info.code is not None
        async with await connect(door.port, "vicky", own) as conn:
            term = await Terminal.open(conn)
            await term.wait_for("Link code")
            term.process.stdin.write(info.code.encode() + b"\r")
            await term.wait_for("ready name=vicky")
        assert host.accounts.verify(account.id, "ssh", own.get_fingerprint("sha256"))
        await vicky.close()
