"""The lobbies' tournaments over the real TCP protocol (protocol 6): the list, a
tournament's page with its standings and rounds, entering and withdrawing (the
account proven by the request), the refusals' codes, creating from the lobby as
the operator allows, and the word that a round has opened, sent to each paired
account's listening lobby."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from paris_tui.host.events import RoundOpened
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.host.tournaments.engine import Plan
from paris_tui.host.tournaments.pairing import Round, Table
from paris_tui.host.tournaments.store import open_tournaments
from paris_tui.net.client import HostClient, RefusedError
from paris_tui.net.protocol import Hello, Refused, Welcome
from paris_tui.net.tournaments_wire import (
    NewTournament,
    RoundStart,
    TournamentList,
    TournamentsRequest,
)

from .helpers import RawClient, join_bot, running_host

TIMEOUT = 10.0
OWN_TOKEN = "cy-own-token-0123456789"  # a token of the client's own making (a new account)


def _future() -> float:
    return time.time() + 3600


async def _refused(client: HostClient, request: TournamentsRequest) -> Refused:
    client.send(request)
    for _ in range(50):
        message = await client.receive(TIMEOUT)
        if isinstance(message, Refused):
            return message
    raise AssertionError("never refused")


@asynccontextmanager
async def _host(data_dir: Path, **config: object) -> AsyncIterator[tuple[Host, int]]:
    """A host on loopback with a table for ann and bob, and settings of the desk."""
    host = Host(HostConfig(data_dir=data_dir, port=0, **config))  # type: ignore[arg-type]
    host.load()
    host.open_table(parse_seats("ann,bob"), seed=1)
    _, port = await host.start()
    try:
        yield host, port
    finally:
        await host.close()


async def test_list_page_enter_and_withdraw(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        token = ann.seated.token
        assert token is not None
        store = host.tournaments.store
        assert store is not None
        cup = store.create("Winter Cup", Plan("swiss", 2, 3), move_time=120, start=_future())
        past = store.create("Autumn", Plan("knockout", 4, 0), move_time=86400, start=_future())
        store.set_state(past.id, "finished")
        gone = store.create("Gone", Plan("swiss", 2, 1), move_time=60, start=_future())
        store.cancel(gone.id)
        lobby = await HostClient.connect("127.0.0.1", port)

        listed = await lobby.tournaments("ann", token)
        assert [(t.name, t.state, t.entrants, t.entered) for t in listed.tournaments] == [
            ("Winter Cup", "open", 0, False),
            ("Autumn", "finished", 0, False),
        ]  # a cancelled one is not listed
        first = listed.tournaments[0]
        assert (first.id, first.format, first.players, first.rounds) == (cup.id, "swiss", 2, 3)
        assert (first.move_time, first.round, first.rated) == (120.0, 0, False)
        assert listed.can_create is False and listed.name == "ann"

        page = await lobby.tournament("enter", cup.id, "ann", token)
        assert page.done == "entered"
        assert [(e.name, e.joined, e.withdrawn) for e in page.entrants] == [("ann", 1, False)]
        assert page.tournament.entered and page.tournament.entrants == 1
        # A name that is nobody's yet, with a token of the client's own making: its account.
        page = await lobby.tournament("enter", cup.id, "cy", OWN_TOKEN)
        assert [e.name for e in page.entrants] == ["ann", "cy"]
        assert [s.name for s in page.standings] == ["ann", "cy"]

        again = await _refused(lobby, TournamentsRequest("enter", cup.id, "ann", token))
        assert again.code == "already_entered" and not again.fatal
        listed = await lobby.tournaments("ann", token)
        assert listed.tournaments[0].entered and listed.tournaments[0].entrants == 2

        page = await lobby.tournament("withdraw", cup.id, "ann", token)
        assert page.done == "withdrawn" and not page.tournament.entered
        assert [(e.name, e.withdrawn) for e in page.entrants] == [("ann", True), ("cy", False)]
        twice = await _refused(lobby, TournamentsRequest("withdraw", cup.id, "ann", token))
        assert twice.code == "not_entered"
        # Anyone may look, without an account.
        shown = await lobby.tournament("show", cup.id)
        assert shown.done is None and shown.tournament.entered is False
        await lobby.close()
        await ann.client.close()


async def test_refused_entries_say_why(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        token = ann.seated.token
        assert token is not None
        store = host.tournaments.store
        assert store is not None
        picky = store.create(
            "Picky", Plan("swiss", 2, 3), move_time=120, start=_future(), min_games=3
        )
        played = store.create("Played", Plan("round-robin", 2, 0), move_time=60, start=_future())
        store.set_state(played.id, "finished")
        lobby = await HostClient.connect("127.0.0.1", port)

        few = await _refused(lobby, TournamentsRequest("enter", picky.id, "ann", token))
        assert few.code == "too_few_games" and "3" in few.message
        closed = await _refused(lobby, TournamentsRequest("enter", played.id, "ann", token))
        assert closed.code == "entries_closed"
        none = await _refused(lobby, TournamentsRequest("enter", 999, "ann", token))
        assert none.code == "no_such_tournament"
        nobody = await _refused(lobby, TournamentsRequest("enter", picky.id))
        assert nobody.code == "not_allowed"
        stranger = await _refused(lobby, TournamentsRequest("enter", picky.id, "dee"))
        assert stranger.code == "not_allowed"  # no account, and nothing to make one with
        bob = await join_bot(port, "bob")
        unproven = await _refused(lobby, TournamentsRequest("enter", picky.id, "bob"))
        assert unproven.code == "name_taken"  # bob is an account: no proof, no entry
        await bob.client.close()
        assert store.entrants(picky.id) == []
        with pytest.raises(RefusedError) as wrong:
            await lobby.tournament("enter", picky.id, "ann", "x" * 43)
        assert wrong.value.refused.code == "bad_token" and wrong.value.refused.fatal
        await ann.client.close()


async def test_an_older_client_cannot_ask(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (_host, port):
        raw = await RawClient.open(port)
        raw.send(b'{"type":"hello","protocol":5,"client":"old"}\n')
        assert isinstance(await raw.message(), Welcome)
        raw.send(b'{"type":"tournaments","action":"list"}\n')
        answer = await raw.message()
        assert isinstance(answer, Refused) and answer.code == "bad_message"
        raw.close()


def _new(name: str, **fields: object) -> NewTournament:
    settings: dict[str, object] = {
        "format": "swiss",
        "players": 2,
        "rounds": 3,
        "move_time": 120.0,
        "start": int(time.time()) + 7200,
    }
    settings.update(fields)
    return NewTournament(name, **settings)  # type: ignore[arg-type]


async def test_create_is_the_operators_by_default(tmp_path: Path) -> None:
    async with _host(tmp_path) as (host, port):
        ann = await join_bot(port, "ann")
        lobby = await HostClient.connect("127.0.0.1", port)
        request = TournamentsRequest("create", None, "ann", ann.seated.token, _new("Mine"))
        refused = await _refused(lobby, request)
        assert refused.code == "not_allowed"
        assert host.tournaments.store is not None
        assert host.tournaments.store.tournaments() == []
        await ann.client.close()


async def test_create_for_the_accounts_the_operator_names(tmp_path: Path) -> None:
    async with _host(tmp_path, tournament_makers=("ANN",)) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        lobby = await HostClient.connect("127.0.0.1", port)
        listed = await lobby.tournaments("ann", ann.seated.token)
        assert listed.can_create
        page = await lobby.tournament(
            "create", None, "ann", ann.seated.token, create=_new("Spring Cup", rated=True)
        )
        assert page.done == "created" and page.tournament.name == "Spring Cup"
        assert (page.tournament.state, page.tournament.rated) == ("open", True)
        store = host.tournaments.store
        assert store is not None
        assert [t.name for t in store.tournaments()] == ["Spring Cup"]
        # The same name while it is open, bad settings, a name breaking the rule:
        for bad in (
            _new("spring cup"),
            _new("Short", rounds=0),
            _new("Robin", format="round-robin", rounds=2),
            _new("Late", start=int(time.time()) - 3600),
            _new("Bad\x1b[31mname"),
        ):
            request = TournamentsRequest("create", None, "ann", ann.seated.token, bad)
            assert (await _refused(lobby, request)).code == "bad_tournament", bad
        other = await HostClient.connect("127.0.0.1", port)
        assert not (await other.tournaments("bob", bob.seated.token)).can_create
        request = TournamentsRequest("create", None, "bob", bob.seated.token, _new("Bobs"))
        assert (await _refused(other, request)).code == "not_allowed"
        assert [t.name for t in store.tournaments()] == ["Spring Cup"]
        for client in (lobby, other, ann.client, bob.client):
            await client.close()


async def test_a_page_has_standings_with_tie_breaks_and_each_rounds_tables(
    tmp_path: Path,
) -> None:
    # Written before the host starts (its rounds' service plays running ones).
    kept = open_tournaments(tmp_path / "host")
    cup = kept.create("Three", Plan("swiss", 2, 2), move_time=60, start=time.time() - 10)
    for account, name, rating in ((1, "ann", 30.0), (2, "bob", 20.0), (3, "王小明", 10.0)):
        kept.enter(cup.id, account, name, rating)
    kept.set_state(cup.id, "running")
    kept.add_round(cup.id, Round(1, (Table(("1", "2"), (1, 2)),), ("3",)))
    kept.open_table(cup.id, 1, 1, "t7")
    kept.add_round(cup.id, Round(2, (Table(("3", "1")),), ("2",)))
    kept.set_state(cup.id, "finished")
    kept.close()
    async with _host(tmp_path) as (_h, port):  # the data folder's store, as written
        lobby = await HostClient.connect("127.0.0.1", port)
        page = await lobby.tournament("show", cup.id)
        # Round 1: ann beat bob (6 to 0), 王小明 had the bye (3). Round 2 is not over: bob's
        # bye counts 3. Buchholz: ann's opponent bob has 3; bob's opponent ann has 6.
        rows = [
            (s.rank, s.name, s.points, s.buchholz, s.sonneborn_berger, s.tables, s.byes)
            for s in page.standings
        ]
        assert rows == [
            (1, "ann", 600, 300, 300, 1, 0),
            (2, "bob", 300, 600, 0, 1, 1),
            (3, "王小明", 300, 0, 0, 0, 1),
        ]
        assert [(r.number, r.byes) for r in page.rounds] == [(1, ("王小明",)), (2, ("bob",))]
        first, second = page.rounds[0].tables[0], page.rounds[1].tables[0]
        assert (first.table, first.seats, first.places) == ("t7", ("ann", "bob"), (1, 2))
        assert (second.table, second.seats, second.places) == (None, ("王小明", "ann"), None)
        assert page.tournament.round == 2 and page.tournament.state == "finished"
        await lobby.close()


async def test_a_round_opened_is_told_to_each_seated_accounts_lobby(tmp_path: Path) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        ann = await join_bot(port, "ann")
        bob = await join_bot(port, "bob")
        ann_lobby = await HostClient.connect("127.0.0.1", port)
        bob_lobby = await HostClient.connect("127.0.0.1", port)
        nobody = await HostClient.connect("127.0.0.1", port)
        await ann_lobby.tournaments("ann", ann.seated.token)
        await bob_lobby.tournaments("bob", bob.seated.token)
        await nobody.tournaments()
        # As the rounds' service publishes it when it has opened a round's tables (the
        # names as the entrants entered, in any case).
        host.events.publish(
            RoundOpened(4, "Cup", 2, (("t9", ("Bob", "ann")), ("t10", ("cy", "dee"))))
        )
        told = await ann_lobby.receive(TIMEOUT)
        assert told == RoundStart(4, "Cup", 2, "t9", 1, ("Bob", "ann"))
        told = await bob_lobby.receive(TIMEOUT)
        assert isinstance(told, RoundStart) and told.seat == 0 and told.table == "t9"
        # The anonymous lobby hears nothing of it: its next answer is its own list's.
        assert isinstance(await nobody.tournaments(), TournamentList)
        nobody.send(TournamentsRequest())
        assert isinstance(await nobody.receive(TIMEOUT), TournamentList)
        for client in (ann_lobby, bob_lobby, nobody, ann.client, bob.client):
            await client.close()


async def test_hello_six_is_spoken(tmp_path: Path) -> None:
    async with running_host(tmp_path) as (_host, port):
        raw = await RawClient.open(port)
        raw.send(b'{"type":"hello","protocol":6,"client":"new"}\n')
        welcome = await raw.message()
        assert isinstance(welcome, Welcome) and welcome.protocol == 6
        raw.send(b'{"type":"tournaments"}\n')
        answer = await raw.message()
        assert isinstance(answer, TournamentList) and answer.tournaments == ()
        raw.close()
        assert Hello(6, "x").protocol == 6


async def test_a_long_round_robins_page_reaches_the_client_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """70 players two a table play 69 rounds of 35 tables: every round is sent and
    read back; with fewer tables allowed, the latest rounds are sent (never a line a
    client refuses)."""
    from paris_tui.host.services import tournament_desk

    kept = open_tournaments(tmp_path / "host")
    robin = kept.create("Long", Plan("round-robin", 2, 0), move_time=60, start=time.time())
    for account in range(1, 71):
        kept.enter(robin.id, account, f"p{account}", 0.0)
    kept.set_state(robin.id, "running")
    for number in range(1, 70):
        tables = tuple(Table((str(2 * i + 1), str(2 * i + 2)), (1, 2)) for i in range(35))
        assert kept.add_round(robin.id, Round(number, tables))
    kept.set_state(robin.id, "finished")
    kept.close()
    async with _host(tmp_path) as (_h, port):
        lobby = await HostClient.connect("127.0.0.1", port)
        page = await lobby.tournament("show", robin.id)
        assert len(page.rounds) == 69 and len(page.standings) == 70
        assert page.standings[0].points == 69 * 600
        monkeypatch.setattr(tournament_desk, "MAX_TABLES_SENT", 100)
        page = await lobby.tournament("show", robin.id)
        assert [r.number for r in page.rounds] == [68, 69]  # 70 tables; a third is 105
        await lobby.close()
