"""Friends with consent, over the TCP protocol: presence only between two accounts
that both asked; a one-sided ask is a request the other sees live and accepts by
asking back; any account is found by its name once it exists (a lobby whose own
name is not an account yet becomes one by asking); a friend's arrival is told once."""

from __future__ import annotations

from pathlib import Path

from paris_tui.host.accounts.identity import DoorProof
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import FriendsInfo, FriendsRequest, HostMessage, Refused, Seated

from .helpers import join_bot, running_host

TIMEOUT = 10.0


async def _next(client: HostClient, *kinds: type[HostMessage]) -> HostMessage:
    for _ in range(200):
        message = await client.receive(TIMEOUT)
        if isinstance(message, kinds):
            return message
    raise AssertionError(f"never got {kinds}")


async def _friends(client: HostClient) -> FriendsInfo:
    answer = await _next(client, FriendsInfo, Refused)
    assert isinstance(answer, FriendsInfo), answer
    return answer


async def _nothing_new(client: HostClient, name: str, token: str | None) -> FriendsInfo:
    """The answer to a ``show``: nothing else came before it (no arrival, no request)."""
    client.send(FriendsRequest(name, token, "show"))
    answer = await _friends(client)
    assert answer.arrived is None and answer.done is None, answer
    return answer


async def test_presence_is_shared_only_between_accounts_that_both_asked(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        ann_token, bob_token = ann.seated.token, bob.seated.token
        ann_lobby = await HostClient.connect("127.0.0.1", port)
        bob_lobby = await HostClient.connect("127.0.0.1", port)
        bob_lobby.send(FriendsRequest("bob", bob_token, "show"))
        assert (await _friends(bob_lobby)).friends == ()
        # Ann asks: a request, not a friendship; the answer says so, in its fields.
        ann_lobby.send(FriendsRequest("ann", ann_token, "add", "BOB"))
        asked = await _friends(ann_lobby)
        assert asked.friends == () and asked.asked == ("bob",)
        assert (asked.done, asked.friend) == ("asked", "bob")
        # Bob's lobby sees the request at once.
        seen = await _friends(bob_lobby)
        assert seen.asking == ("ann",) and (seen.done, seen.friend) == ("asking", "ann")
        # Not friends yet: Bob coming in again is not told to Ann.
        await bob.client.close()
        bob = await join_bot(port, "bob", token=bob_token)
        assert (await _nothing_new(ann_lobby, "ann", ann_token)).friends == ()
        # Bob accepts by asking back: both are friends, and Ann hears it.
        bob_lobby.send(FriendsRequest("bob", bob_token, "add", "ann"))
        accepted = await _friends(bob_lobby)
        assert accepted.friends == (("ann", True),) and accepted.asking == ()
        assert accepted.done == "friends"
        told = await _friends(ann_lobby)
        assert told.friends == (("bob", True),) and told.asked == ()
        assert (told.done, told.friend) == ("friends", "bob")
        # Bob leaves and comes back twice within moments: Ann is told once.
        await bob.client.close()
        await bob_lobby.close()
        bob = await join_bot(port, "bob", token=bob_token)
        arrived = await _friends(ann_lobby)
        assert arrived.arrived == "bob"
        await bob.client.close()
        bob = await join_bot(port, "bob", token=bob_token)
        assert (await _nothing_new(ann_lobby, "ann", ann_token)).friends == (("bob", True),)
        # Ann removes Bob: neither is the other's friend, nor asked.
        ann_lobby.send(FriendsRequest("ann", ann_token, "remove", "bob"))
        gone = await _friends(ann_lobby)
        assert gone.friends == () and gone.asked == () and gone.done == "removed"
        for client in (ann.client, bob.client, ann_lobby):
            await client.close()


async def test_a_request_can_be_declined(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (_host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        ann.client.send(FriendsRequest("ann", ann.seated.token, "add", "bob"))
        assert (await _friends(ann.client)).asked == ("bob",)
        bob.client.send(FriendsRequest("bob", bob.seated.token, "remove", "ann"))
        declined = await _friends(bob.client)
        assert declined.asking == () and declined.done == "declined"
        again = await _friends(ann.client)  # Ann's list no longer waits for Bob
        assert again.asked == () and again.friends == ()
        ann.client.send(FriendsRequest("ann", ann.seated.token, "add", "bob"))
        assert (await _friends(ann.client)).asked == ("bob",)
        ann.client.send(FriendsRequest("ann", ann.seated.token, "remove", "bob"))
        taken = await _friends(ann.client)  # her own request, taken back
        assert taken.asked == () and taken.done == "withdrawn"
        await ann.client.close()
        await bob.client.close()


async def test_a_new_name_finds_and_is_found_as_soon_as_it_exists(tmp_path: Path) -> None:
    """eve opens a table and waits at it (no account yet: none is made before a
    game starts); her lobby asks for ann: eve becomes an account then (with the
    waiting seat's credential, its token sent back), ann is found, and ann finds
    eve by her name at once."""
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        eve = await HostClient.connect("127.0.0.1", port)
        await eve.open_table("eve", ("me", "open"))
        eve.send(FriendsRequest("eve", None, "add", "nobody"))  # refused: makes nothing
        refused = await _next(eve, Refused, FriendsInfo)
        assert isinstance(refused, Refused) and refused.code == "no_such_seat"
        assert host.accounts is not None and host.accounts.find("eve") is None
        eve.send(FriendsRequest("eve", None, "add", "ann"))
        answer = await _friends(eve)
        assert answer.asked == ("ann",) and answer.done == "asked"
        assert answer.token is not None
        assert host.accounts is not None and host.accounts.find("eve") is not None
        ann.client.send(FriendsRequest("ann", ann.seated.token, "add", "eve"))
        friends = await _friends(ann.client)
        assert friends.friends == (("eve", True),) and friends.done == "friends"
        # The kept token proves eve from now on; the waiting seat is still hers.
        again = await HostClient.connect("127.0.0.1", port)
        again.send(FriendsRequest("eve", answer.token, "show"))
        assert (await _friends(again)).friends == (("ann", True),)
        dan = await HostClient.connect("127.0.0.1", port)
        table = (await dan.tables())[-1].table
        await dan.sit("dan", table)
        seated = await _next(eve, Refused, Seated)  # the game starts: eve sits, as eve
        assert isinstance(seated, Seated) and seated.token == answer.token, seated
        for client in (ann.client, eve, again, dan):
            await client.close()


async def test_a_door_s_new_name_becomes_an_account_with_the_door_s_key_by_asking(
    tmp_path: Path,
) -> None:
    """An SSH login's lobby (its ticket proves a key, for a name that is nobody's)
    asks for ann: gus is made an account with that key, and no token is sent (the
    key proves him). Only showing the list makes nothing."""
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        ticket = host.issue_ticket(DoorProof("ssh", "SHA256:gus", "gus", "gus's key"))
        lobby = await HostClient.connect("127.0.0.1", port)
        lobby.send(FriendsRequest("gus", ticket, "show"))
        assert (await _friends(lobby)).friends == ()
        assert host.accounts is not None and host.accounts.find("gus") is None
        lobby.send(FriendsRequest("gus", ticket, "add", "ann"))
        answer = await _friends(lobby)
        assert answer.asked == ("ann",) and answer.token is None
        gus = host.accounts.find("gus")
        assert gus is not None and host.accounts.verify(gus.id, "ssh", "SHA256:gus")
        await lobby.close()
        await ann.client.close()
