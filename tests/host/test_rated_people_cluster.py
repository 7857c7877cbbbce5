"""Ratings between different people across the hosts of one PostgreSQL database.

Two accounts played from one address (127.0.0.1, as every client of a test) at
a table refereed by host a, one of them through host b, which relays it to a:
the game is unrated (``same_person``) whichever way the second seat came in: a
plain TCP client (the relay's ``relay`` line says its address) or a door's app
at b (its address is the one b's door saw, said in b's vouch for the door).
With ``--rated-address 127.0.0.1`` on the hosts, the same game is rated.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path

import pytest
from msgspec import structs
from pg import PostgresServer

from paris_tui.doors.ssh import SSHConfig, SSHDoor
from paris_tui.host.accounts.identity import DoorProof, Vouched
from paris_tui.host.accounts.store import digest
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Join, Refused, Relay, Seated, Welcome, encode
from paris_tui.net.ratings_wire import RatedResult

from .helpers import HELLO, Bot, RawClient, join_bot, random_player, running_host
from .ssh_helpers import Terminal, connect, new_key, stand_in
from .test_host_ratings import rated_result

# What b's SSH door proved of bob's login, and where it saw him (loopback, as ann).
BOB_AT_B = DoorProof("ssh", "SHA256:bob-key", "bob", "ssh-ed25519 bob@home", "127.0.0.1")


@pytest.fixture
def database(postgres: PostgresServer) -> str:
    return postgres.dsn(postgres.create_database())


async def _play_across(
    tmp_path: Path, database: str, via: str, rated: tuple[str, ...] = ()
) -> tuple[RatedResult, RatedResult]:
    """ann at host a, bob at host b (relayed to a, the referee of t1), to the end."""
    async with (
        running_host(
            tmp_path / "a", ["ann,bob"], seed=4, database=database, rated_addresses=rated
        ) as (a, port_a),
        running_host(tmp_path / "b", database=database, rated_addresses=rated) as (b, port_b),
    ):
        ann = await join_bot(port_a, "ann", random_player(1))
        if via == "door":  # bob's app at b's door: over b's socket for doors' apps
            assert b.door_socket is not None
            ticket = b.issue_ticket(BOB_AT_B)
            client = await HostClient.connect("127.0.0.1", port_b, path=b.door_socket)
            bob = Bot(client, await client.join("bob", token=ticket, table="t1"), random_player(2))
        else:
            bob = await join_bot(port_b, "bob", random_player(2), table="t1")
        assert bob.seated.seat == 1 and b.rooms == {}  # relayed: a referees t1
        seat = a.rooms["t1"].seated[1]
        assert seat.address == ("door" if via == "door" else "127.0.0.1")
        await asyncio.gather(ann.play_to_end(), bob.play_to_end())
        results = await asyncio.gather(rated_result(ann), rated_result(bob))
        for bot in (ann, bob):
            await bot.client.close()
        assert a.ratings.store is not None
        assert [g.rated for g in a.ratings.store.games()] == [results[0].rated]
        return results[0], results[1]


@pytest.mark.parametrize("via", ["door", "tcp"])
async def test_two_accounts_from_one_address_across_two_hosts_play_an_unrated_game(
    tmp_path: Path, database: str, via: str
) -> None:
    for result in await _play_across(tmp_path, database, via):
        assert (result.rated, result.reason) == (False, "same_person")
        assert result.after == (None, None)


@pytest.mark.parametrize("via", ["door", "tcp"])
async def test_an_allowed_address_plays_rated_games_across_two_hosts(
    tmp_path: Path, database: str, via: str
) -> None:
    for result in await _play_across(tmp_path, database, via, rated=("127.0.0.1",)):
        assert (result.rated, result.reason) == (True, None)


async def test_the_address_a_door_saw_crosses_only_under_the_relaying_host_s_proof(
    tmp_path: Path, database: str
) -> None:
    """A peer's vouch says where its door saw the person, under its HMAC: the
    referee notes that address for the seat; a vouch whose address was changed
    (a client would move itself elsewhere) is the fatal ``bad_message``."""
    async with running_host(tmp_path / "a", ["ann,bob"], database=database) as (a, port_a):
        assert a.cluster is not None
        relays = a.cluster.relays
        seen = replace(BOB_AT_B, address="2001:db8::7")
        stand_in = "s" * 43
        vouched = Vouched(digest(stand_in), seen, time.monotonic() + 60)

        async def relayed(address: str | None = None) -> RawClient:
            raw = await RawClient.open(port_a)
            ip, port = raw.writer.get_extra_info("sockname")[:2]
            source = f"{ip}:{port}"
            vouch = relays.vouch(source, vouched)
            assert vouch is not None and vouch.address == "2001:db8::7"
            if address is not None:
                vouch = structs.replace(vouch, address=address)
            proof = relays.relay_proof(source, "door") or ""
            raw.send(HELLO + encode(Relay("door", proof, vouch)))
            raw.send(encode(Join("bob", stand_in, "t1")))
            return raw

        for forged in ("203.0.113.9", ""):  # another address, or none: not proven
            heard = await (await relayed(forged)).closed()
            assert isinstance(heard[-1], Refused) and heard[-1].code == "bad_message"
            assert heard[-1].fatal
        assert a.rooms["t1"].seated == {}
        raw = await relayed()
        assert isinstance(await raw.message(), Welcome)
        seated = await raw.message()
        assert isinstance(seated, Seated) and seated.seat == 1
        conn = a.rooms["t1"].seated[1]
        assert conn.address == "door" and conn.vouched is not None
        assert conn.vouched.proof == seen
        assert a.ratings.people.address(conn) == "2001:db8::/64"
        # A door that saw no address (a host before this, say): the vouch proves as before.
        unseen = Vouched(digest(stand_in), BOB_AT_B, time.monotonic() + 60)
        unseen = replace(unseen, proof=replace(BOB_AT_B, address=""))
        vouch = relays.vouch("127.0.0.1:1", unseen)
        assert vouch is not None and vouch.address == ""
        found = relays.proven_vouch("127.0.0.1:1", vouch)
        assert found is not None and found.proof.address == ""
        raw.close()


async def test_an_ssh_login_at_another_host_is_at_the_address_its_door_saw(
    tmp_path: Path, database: str
) -> None:
    """``ssh -p <b's door> bob@...`` for t1, refereed by a: a notes bob's seat at
    the address b's SSH door saw (loopback), not at none."""
    async with (
        running_host(tmp_path / "a", ["ann,bob"], database=database) as (a, _port_a),
        running_host(tmp_path / "b", database=database) as (b, port_b),
    ):
        door = SSHDoor(b, SSHConfig(port=0, command=stand_in, hangup_grace=2.0), app_port=port_b)
        await door.start()
        try:
            async with await connect(door.port, "bob", new_key(tmp_path, "bob")) as conn:
                term = await Terminal.open(conn)
                assert "name=bob seat=1 ticket=yes" in await term.wait_for("ready")
                seat = a.rooms["t1"].seated[1]
                assert b.rooms == {} and seat.address == "door"
                assert a.ratings.people.address(seat) == "127.0.0.1"
                term.process.stdin.write(b"q")
                assert await term.finish() == 3
        finally:
            await door.close()


async def test_a_door_s_ticket_sent_late_on_a_relay_still_says_where_its_door_saw(
    tmp_path: Path, database: str
) -> None:
    """bob's app at b's door watches t1 first (relayed to a with no word for a
    door), then sits with its ticket: b's late vouch carries the address too."""
    async with (
        running_host(tmp_path / "a", ["ann,bob"], database=database) as (a, _port_a),
        running_host(tmp_path / "b", database=database) as (b, port_b),
    ):
        assert b.door_socket is not None
        ticket = b.issue_ticket(replace(BOB_AT_B, address="198.51.100.20"))
        client = await HostClient.connect("127.0.0.1", port_b, path=b.door_socket)
        assert (await client.watch("t1")).table == "t1"
        seated = await client.join("bob", token=ticket, table="t1")
        assert seated.seat == 1 and b.rooms == {}
        seat = a.rooms["t1"].seated[1]
        assert seat.vouched is not None and seat.vouched.proof.address == "198.51.100.20"
        assert a.ratings.people.address(seat) == "198.51.100.20"
        await client.close()
