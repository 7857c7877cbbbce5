"""Accounts (paris_tui/host/accounts/store.py, identity.py, names.py): one name, one person.

Issue 17: the host had three credentials (the join token, the SSH key pin,
the browser cookie) and no identity behind them. These tests hold the store,
the names rule and every door's proof of the account, on a real host on
loopback.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from paris_tui.host.accounts.identity import DoorProof
from paris_tui.host.accounts.names import folded, same_name, skeleton
from paris_tui.host.accounts.store import (
    CODE_ALPHABET,
    CODE_LENGTH,
    CODE_MISSES,
    MAX_CREDENTIALS,
    AccountError,
    AccountsUnavailable,
    Credential,
    NameTakenError,
    SQLiteAccounts,
    digest,
    format_code,
    normalize_code,
    open_accounts,
)
from paris_tui.host.sshlib import asyncssh
from paris_tui.host.store.files import token_hash
from paris_tui.net.client import HostClient, RefusedError
from paris_tui.net.protocol import Refused, Seated, Waiting

from .helpers import join_bot, running_host

# --- names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "other",
    [
        "\uff41nn",  # fullwidth a
        "\u0430nn",  # Cyrillic a
        "ANN",
        "Ann",
        "\u0430\u0578\u0578",  # Cyrillic a, Armenian vo (looks like n)
    ],
)
def test_look_alikes_of_a_name_share_its_skeleton(other: str) -> None:
    assert same_name("ann", other)
    assert skeleton(other) == skeleton("ann")


def test_names_that_differ_to_a_reader_stay_apart() -> None:
    for a, b in [("ann", "anne"), ("ann", "bob"), ("zoë", "zoe"), ("李", "李四"), ("yan", "yann")]:
        assert not same_name(a, b), (a, b)
    assert folded("\uff21NN") == "ann"
    assert same_name("Bill", "BiII")  # capital I looks like l
    assert same_name("carol", "caro1")


# --- the store ------------------------------------------------------------------------


def test_the_store_keys_names_by_folded_form_and_skeleton(tmp_path: Path) -> None:
    store = open_accounts(tmp_path)
    ann = store.create("Ann", Credential("token", digest("t" * 43)))
    for other in ("ann", "\uff41nn", "\u0430nn"):
        with pytest.raises(NameTakenError):
            store.create(other, None)
        found = store.find(other)
        assert found is not None and found.id == ann.id
    assert store.verify(ann.id, "token", digest("t" * 43))
    assert not store.verify(ann.id, "token", digest("u" * 43))
    assert not store.verify(ann.id, "ssh", digest("t" * 43))
    # A credential is one account's only.
    bob = store.create("bob", None)
    with pytest.raises(AccountError):
        store.add_credential(bob.id, Credential("token", digest("t" * 43)))
    # Renamed: the old name is free, look-alikes of the new one are not.
    store.rename(ann.id, "anna")
    assert store.find("ann") is None and store.find("\u0430nna") is not None
    with pytest.raises(NameTakenError):
        store.rename(bob.id, "ANNA")
    store.close()
    # On disk: the same after reopening.
    again = SQLiteAccounts(tmp_path / "accounts.sqlite")
    assert [a.name for a in again.accounts()] == ["anna", "bob"]
    again.close()


def test_credentials_are_bounded(tmp_path: Path) -> None:
    store = open_accounts(tmp_path)
    ann = store.create("ann", None)
    for i in range(MAX_CREDENTIALS + 5):
        store.add_credential(ann.id, Credential("token", digest(f"token-{i:03}")))
    tokens = [c for c in store.credentials(ann.id) if c.door == "token"]
    assert len(tokens) == MAX_CREDENTIALS
    assert not store.verify(ann.id, "token", digest("token-000"))  # the oldest went
    assert store.verify(ann.id, "token", digest(f"token-{MAX_CREDENTIALS + 4:03}"))
    for i in range(MAX_CREDENTIALS):
        store.add_credential(ann.id, Credential("ssh", f"SHA256:key{i}"))
    with pytest.raises(AccountError):  # a key is never dropped for another
        store.add_credential(ann.id, Credential("ssh", "SHA256:one-more"))
    store.close()


def test_link_codes_are_short_single_use_one_at_a_time_and_hashed(tmp_path: Path) -> None:
    store = open_accounts(tmp_path)
    ann = store.create("ann", None)
    bob = store.create("bob", None)
    code = store.new_code(ann.id)
    assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)
    assert not set(CODE_ALPHABET) & set("AEIOU0O1I")
    assert format_code(code) == f"{code[:4]}-{code[4:]}"
    assert normalize_code(f" {code[:4].lower()} - {code[4:]} ") == code
    with sqlite3.connect(tmp_path / "accounts.sqlite") as db:
        stored = db.execute("SELECT digest FROM codes").fetchall()
    assert stored == [(digest(code),)]  # the hash only
    assert store.take_code(code, bob.id) is None  # another account's code proves nothing
    newer = store.new_code(ann.id)  # one at a time: the first no longer counts
    assert store.take_code(code) is None
    taken = store.take_code(format_code(newer).lower())
    assert taken is not None and taken.id == ann.id
    assert store.take_code(newer) is None  # used once
    expired = store.new_code(ann.id, seconds=-1)
    assert store.take_code(expired) is None
    assert store.take_code("not a code") is None
    store.close()


def test_a_corrupt_store_fails_closed(tmp_path: Path) -> None:
    path = tmp_path / "accounts.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(AccountsUnavailable):
        SQLiteAccounts(path)


# --- every door proves the account ------------------------------------------------------


@pytest.mark.files_only("writes garbage into the data directory's accounts.sqlite")
async def test_a_host_with_an_unreadable_accounts_store_refuses_every_seat(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "host"
    root.mkdir()
    (root / "accounts.sqlite").write_bytes(b"garbage" * 1000)
    with caplog.at_level(logging.ERROR, logger="paris_tui.host"):
        async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
            client = await HostClient.connect("127.0.0.1", port)
            with pytest.raises(RefusedError) as info:
                await client.join("ann")
            assert info.value.code == "unavailable"
            with pytest.raises(RefusedError) as info:
                await client.open_table("zed", ("me", "ai:easy"))
            assert info.value.code == "unavailable"
            await client.close()
    loud = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(loud) == 1 and "every seat is refused" in loud[0].getMessage()


def _as_an_earlier_version_left_it(root: Path) -> None:
    """No accounts store: the data folder of a host before accounts."""
    for name in ("accounts.sqlite", "accounts.sqlite-wal", "accounts.sqlite-shm"):
        (root / name).unlink(missing_ok=True)


@pytest.mark.files_only("an earlier version's seat file in the data directory, damaged")
async def test_an_unreadable_seats_file_refuses_the_tables_seats(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 17: an unreadable seats file counted every seat as unclaimed."""
    async with running_host(tmp_path, ["ann,bob"]) as (host, _port):
        root = host.store.root
    _as_an_earlier_version_left_it(root)
    # Its seat file, damaged.
    (root / "tables" / "t1.seats.json").write_text('{"format": "paris-tui-host-seats", "seats": [')
    with caplog.at_level(logging.ERROR, logger="paris_tui.host"):
        async with running_host(tmp_path) as (host, port):
            assert host.rooms["t1"].seats_problem is not None
            client = await HostClient.connect("127.0.0.1", port)
            with pytest.raises(RefusedError) as info:
                await client.join("ann")
            assert info.value.code == "unavailable"  # never "take it, it is free"
            # Other tables go on: a new one is served.
            bot = await HostClient.connect("127.0.0.1", port)
            seated = await bot.open_table("zed", ("me", "ai:easy"))
            assert isinstance(seated, Seated)
            await bot.close()
            await client.close()
    loud = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(loud) == 1 and "t1" in loud[0] and "refused" in loud[0]


@pytest.mark.files_only(
    "an earlier version's files in the data directory (ssh_keys.json, t1.seats.json); "
    "a database is filled from them by host migrate (test_stores.py)"
)
async def test_old_ssh_pins_and_seat_tokens_move_into_accounts(tmp_path: Path) -> None:
    """An earlier version's files: ssh_keys.json and t1.seats.json (token hashes)."""
    async with running_host(tmp_path, ["ann,bob"]) as (host, _port):
        root = host.store.root
    _as_an_earlier_version_left_it(root)
    key = asyncssh.generate_private_key("ssh-ed25519")
    line = " ".join(key.export_public_key("openssh").decode().split()[:2])
    (root / "ssh_keys.json").write_text(
        json.dumps({"format": "paris-tui-ssh-keys", "version": 1, "keys": {"bob": line}})
    )
    ann_token = "A" * 43
    (root / "tables" / "t1.seats.json").write_text(
        json.dumps(
            {"format": "paris-tui-host-seats", "version": 1, "seats": {"0": token_hash(ann_token)}}
        )
    )
    async with running_host(tmp_path) as (host, port):
        assert host.accounts is not None
        names = {a.name: a for a in host.accounts.accounts()}
        assert set(names) == {"ann", "bob"}
        assert host.accounts.verify(names["bob"].id, "ssh", key.get_fingerprint("sha256"))
        assert host.rooms["t1"].owners == {0: names["ann"].id}
        assert (root / "ssh_keys.json.migrated").exists() and not (root / "ssh_keys.json").exists()
        assert (root / "tables" / "t1.seats.json.migrated").exists()
        # Ann's old token still takes her seat; a join without it does not.
        seated = await (await HostClient.connect("127.0.0.1", port)).join("ann", ann_token)
        assert seated.seat == 0 and seated.token is None
        thief = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await thief.join("ann")
        assert info.value.code == "name_taken"
        await thief.close()
    # Once only: a second start takes nothing in again.
    async with running_host(tmp_path) as (host, _port):
        assert host.accounts is not None and len(host.accounts.accounts()) == 2


async def test_open_a_table_as_carol_and_leave_does_not_block_the_real_carol(
    tmp_path: Path,
) -> None:
    """Issue 17: "open a table as carol and leave": the real carol got name_in_use /
    seat_taken. Opening or joining under a name needs its account."""
    async with running_host(tmp_path, ["carol,ai:easy"]) as (host, port):
        carol = await join_bot(port, "carol")  # the real carol: her account, her token
        token = carol.seated.token
        assert token is not None
        await carol.client.close()
        stranger = await HostClient.connect("127.0.0.1", port)
        for seats in (("me", "ai:easy"), ("me", "open")):
            with pytest.raises(RefusedError) as info:
                await stranger.open_table("Carol", seats)
            assert info.value.code == "name_taken"
        with pytest.raises(RefusedError) as info:
            await stranger.open_table("\u0441arol", ("me", "ai:easy"))  # Cyrillic es
        assert info.value.code == "name_taken"
        await stranger.close()
        # Carol comes back to her seat, and may open another table of her own.
        back = await HostClient.connect("127.0.0.1", port)
        assert (await back.join("carol", token)).seat == 0
        await back.close()
        assert host.accounts is not None and [a.name for a in host.accounts.accounts()] == ["carol"]


async def test_a_table_opened_and_left_before_it_starts_makes_no_account(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (host, port):
        opener = await HostClient.connect("127.0.0.1", port)
        waiting = await opener.open_table("dave", ("me", "open"))
        assert isinstance(waiting, Waiting)
        other = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:  # held while dave waits
            await other.open_table("DAVE", ("me", "ai:easy"))
        assert info.value.code == "name_in_use"
        await opener.leave()
        assert host.accounts is not None and host.accounts.accounts() == []
        # The name is free again: the next to take it makes the account.
        seated = await other.open_table("dave", ("me", "ai:easy"))
        assert isinstance(seated, Seated) and seated.token is not None
        assert [a.name for a in host.accounts.accounts()] == ["dave"]
        await opener.close()
        await other.close()


async def test_look_alike_names_are_refused_beside_an_account(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        client = await HostClient.connect("127.0.0.1", port)
        for name in ("\uff41nn", "\u0430nn"):
            with pytest.raises(RefusedError) as info:
                await client.open_table(name, ("me", "ai:easy"))
            assert info.value.code in ("name_taken", "name_in_use")
        await client.close()
        await ann.client.close()


async def test_a_link_code_links_a_second_join_directory(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        laptop = await HostClient.connect("127.0.0.1", port)
        first = await laptop.join("ann")
        assert first.token is not None
        info = await laptop.account("ann", first.token, "code")
        assert info.code is not None and info.expires == 600
        assert dict(info.doors) == {"ssh": 0, "token": 1, "browser": 0}
        # The phone: no token, the code.
        phone = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as refused:
            await phone.join("ann", code="BCDFGHJK")
        assert refused.value.code == "bad_code"
        seated = await phone.join("ann", code=info.code)
        assert seated.token is not None and seated.token != first.token  # its own token
        shown = await phone.account("ann", seated.token)
        assert dict(shown.doors)["token"] == 2
        # A public key offered from the app proves nothing: refused
        # (test_keys_proven.py: a key joins only by logging in with it).
        key = asyncssh.generate_private_key("ssh-ed25519")
        line = key.export_public_key("openssh").decode().strip()
        with pytest.raises(RefusedError):
            await phone.account("ann", seated.token, "add_key", line)
        assert host.accounts is not None
        assert host.accounts.owner("ssh", key.get_fingerprint("sha256")) is None
        with pytest.raises(RefusedError) as refused:  # no proof, no account answers
            await (await HostClient.connect("127.0.0.1", port)).account("ann", None, "code")
        assert refused.value.code == "name_taken"
        await laptop.close()
        await phone.close()


async def test_wrong_link_codes_void_the_accounts_code_whatever_the_connection(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Guessing a link code is bounded per account, never per connection: after
    CODE_MISSES wrong codes for ann, from connections that each try twice, her code is
    void (the right one is refused too) and the log says so; a new code works."""
    caplog.set_level(logging.WARNING, logger="paris_tui.host")
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        laptop = await HostClient.connect("127.0.0.1", port)
        first = await laptop.join("ann")
        assert first.token is not None
        info = await laptop.account("ann", first.token, "code")
        assert info.code is not None
        wrong = next(
            c * CODE_LENGTH for c in CODE_ALPHABET if c * CODE_LENGTH != normalize_code(info.code)
        )
        for _ in range(CODE_MISSES // 2):
            guesser = await HostClient.connect("127.0.0.1", port)
            for _ in range(2):
                with pytest.raises(RefusedError) as refused:
                    await guesser.join("ann", code=wrong)
                assert refused.value.code == "bad_code"
            await guesser.close()
        phone = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as refused:
            await phone.join("ann", code=info.code)  # the right code, too late
        assert refused.value.code == "bad_code"
        assert any("wrong link codes for ann" in r.getMessage() for r in caplog.records)
        again = await laptop.account("ann", first.token, "code")
        assert again.code is not None
        seated = await phone.join("ann", code=again.code)
        assert seated.token is not None
        await laptop.close()
        await phone.close()


async def test_a_browser_cookie_is_a_credential_of_its_own(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        cookie = DoorProof("browser", digest("c" * 43))
        ticket = host.issue_ticket(cookie)
        tab = await HostClient.connect("127.0.0.1", port)
        seated = await tab.join("bob", ticket)  # the browser's person types "bob"
        assert seated.seat == 1 and seated.token is None
        await tab.close()
        # Another browser (another cookie) is not Bob.
        other = host.issue_ticket(DoorProof("browser", digest("d" * 43)))
        tab2 = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await tab2.join("bob", other)
        assert info.value.code == "name_taken"
        # The same browser, a new tab (a new ticket), is.
        again = await HostClient.connect("127.0.0.1", port)
        assert (await again.join("bob", host.issue_ticket(cookie))).seat == 1
        await again.close()
        await tab2.close()


async def test_older_clients_are_told_codes_they_know(tmp_path: Path) -> None:
    from .helpers import RawClient

    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        raw = await RawClient.open(port)
        raw.send(b'{"type":"hello","protocol":2,"client":"old"}\n')
        await raw.message()
        raw.send(b'{"type":"join","name":"ann"}\n')
        answer = await raw.message()
        assert isinstance(answer, Refused) and answer.code == "seat_taken"
        raw.send(b'{"type":"account","name":"ann","token":null}\n')
        answer = await raw.message()
        assert isinstance(answer, Refused) and answer.code == "bad_message"  # cleanly
        await ann.client.close()


async def test_a_locked_account_is_refused_and_a_removed_one_frees_its_name(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        token = ann.seated.token
        await ann.client.close()
        assert host.accounts is not None
        account = host.accounts.find("ann")
        assert account is not None
        host.accounts.set_locked(account.id, True)  # as `host accounts lock ann` does
        client = await HostClient.connect("127.0.0.1", port)
        with pytest.raises(RefusedError) as info:
            await client.join("ann", token)
        assert info.value.code == "account_locked"
        host.accounts.set_locked(account.id, False)
        assert (await client.join("ann", token)).seat == 0
        await client.close()
        host.accounts.remove(account.id)  # the operator frees the name, seat and all
        newcomer = await HostClient.connect("127.0.0.1", port)
        seated = await newcomer.join("ann")
        assert seated.seat == 0 and seated.token is not None and seated.token != token
        await newcomer.close()


async def test_the_host_takes_any_account_store(tmp_path: Path) -> None:
    from paris_tui.host.server import Host, HostConfig

    made: list[Path] = []

    def elsewhere(root: Path) -> SQLiteAccounts:
        made.append(root)
        return SQLiteAccounts(tmp_path / "shared-accounts.sqlite")

    host = Host(HostConfig(data_dir=tmp_path / "data", port=0, accounts=elsewhere))
    host.load()
    try:
        assert made == [host.store.root]
        assert not (host.store.root / "accounts.sqlite").exists()
        assert host.accounts is not None and host.accounts.create("ann", None).name == "ann"
    finally:
        await host.close()
    assert (tmp_path / "shared-accounts.sqlite").exists()
