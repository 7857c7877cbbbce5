"""The referee: refusal codes with the game intact, autosave, resume, seats, AI seeds."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from hostile_corpus import CORPUS

from paris_tui.core import Move, Options
from paris_tui.core.record import load_record, replay_summary
from paris_tui.core.text import InvalidNameError, normalize_name
from paris_tui.host.referee import Referee, Refusal, SeatSpec, ai_seed, parse_seats
from paris_tui.host.store.files import HostStore, SeatsFileError, token_hash, token_matches
from paris_tui.net.protocol import Update, decode_host, encode_updates


def _refused(ref: Referee, seat: int, move: Move, count: int) -> str:
    before = (ref.move_count, ref.view(None), ref.events)
    with pytest.raises(Refusal) as info:
        ref.submit(seat, move, count)
    assert (ref.move_count, ref.view(None), ref.events) == before
    return info.value.code


def test_refusal_codes(tmp_path: Path) -> None:
    ref = Referee.new("t1", parse_seats("Ann,Bob,Cy"), seed=5, path=tmp_path / "t1.json")
    view = ref.view(0)
    legal = view.legal_moves[0]
    assert _refused(ref, 1, legal, 0) == "not_your_turn"
    assert _refused(ref, 7, legal, 0) == "not_your_turn"
    assert _refused(ref, 0, legal, 1) == "stale"
    assert _refused(ref, 0, Move("nowhere/blue"), 0) == "illegal"
    assert _refused(ref, 0, Move(legal.tile, 1), 0) == "illegal"
    ref.submit(0, legal, 0)
    assert _refused(ref, 0, legal, 0) == "not_your_turn"
    assert _refused(ref, 1, ref.view(1).legal_moves[0], 0) == "stale"
    while not ref.is_over:
        seat = ref.to_move
        assert seat is not None
        ref.submit(seat, ref.view(seat).legal_moves[0], ref.move_count)
    assert _refused(ref, 0, legal, ref.move_count) == "game_over"
    assert ref.to_move is None


def test_every_move_is_saved_as_an_ordinary_record(tmp_path: Path) -> None:
    path = tmp_path / "t1.json"
    seats = parse_seats("Ann,ai:greedy")
    ref = Referee.new("t1", seats, seed=9, options=Options(small_tour="tile-line"), path=path)
    assert load_record(path).moves == ()
    for _ in range(7):
        seat = ref.to_move
        assert seat is not None
        ref.submit(seat, ref.view(seat).legal_moves[-1], ref.move_count)
        record = load_record(path)
        assert len(record.moves) == ref.move_count
    assert record.options == Options(small_tour="tile-line")
    assert record.extra["app"] == {"seed": 9, "ai_seeds": [None, ai_seed(9, 1)]}
    assert [p.kind for p in record.players] == ["human", "ai:greedy"]
    # Resumed from the record: the same game, the same public events, the same bots.
    again = Referee.from_record("t1", record, path)
    assert again.view(0) == ref.view(0) and again.events == ref.events
    assert again.ai_seed_for(1) == ref.ai_seed_for(1) == ai_seed(9, 1)
    assert replay_summary(record)["finished"] is False


def test_the_ai_seed_is_the_apps(tmp_path: Path) -> None:
    from paris_tui.app.local.session import ai_seed as app_ai_seed

    for seed in (0, 1, 12345, "deal"):
        for seat in range(4):
            assert ai_seed(seed, seat) == app_ai_seed(seed, seat)


def test_a_failed_save_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    blocked = tmp_path / "t1.json"
    blocked.mkdir()  # a directory where the record should go
    ref = Referee.new("t1", parse_seats("Ann,Bob"), seed=1, path=blocked)
    assert ref.save_error and "could not save table t1" in ref.save_error
    ref.submit(0, ref.view(0).legal_moves[0], 0)
    assert ref.move_count == 1


def test_takeover_bots_are_deterministic(tmp_path: Path) -> None:
    ref = Referee.new("t1", parse_seats("Ann,Bob"), seed=3)
    other = Referee.new("t1", parse_seats("Ann,Bob"), seed=3)
    assert ref.bot(0).choose(ref.view(0)) == other.bot(0).choose(other.view(0))


def test_parse_seats_names_the_ai_seats() -> None:
    seats = parse_seats(" ann , ai:Strong,ai:strong, Greedy AI")
    assert seats == [
        SeatSpec("ann"),
        SeatSpec("Strong AI", "ai:strong"),
        SeatSpec("Strong AI 2", "ai:strong"),
        SeatSpec("Greedy AI"),
    ]
    assert [s.name for s in parse_seats("greedy ai,ai:greedy")] == ["greedy ai", "Greedy AI 2"]


# A comma separates seats: the cases holding one are names only for the other doors.
@pytest.mark.parametrize("case", [c for c in CORPUS if "," not in c.text], ids=lambda c: c.label)
def test_parse_seats_applies_the_name_rule(case: object) -> None:
    text = case.text  # type: ignore[attr-defined]
    try:
        expected = normalize_name(text)
    except InvalidNameError:
        with pytest.raises(ValueError) as info:
            parse_seats(f"zed,{text}")
        message = str(info.value)
        assert message.isprintable() and len(message) < 200
    else:
        assert parse_seats(f"zed,{text}")[1].name == expected


@pytest.mark.parametrize("text", ["ann", "a,b,c,d,e", "ann,ANN", "ann,ai:bogus", "ann,"])
def test_parse_seats_refusals(text: str) -> None:
    with pytest.raises(ValueError):
        parse_seats(text)


def test_store_reads_an_earlier_versions_seat_file_and_fails_closed(tmp_path: Path) -> None:
    store = HostStore(tmp_path)
    store.lock()
    assert store.new_table_id() == "t1"
    assert store.load_seats("t1") == {}  # no file: nothing to take in
    path = store.seats_path("t1")
    digests = {"0": token_hash("secret-token-0000"), "2": token_hash("x" * 43)}
    path.write_text(json.dumps({"format": "paris-tui-host-seats", "version": 1, "seats": digests}))
    seats = store.load_seats("t1")
    assert token_matches("secret-token-0000", seats[0])
    assert not token_matches("secret-token-0001", seats[0])
    # A file that is there but cannot be read never counts its seats as free.
    for text in ('{"seats": {"0": "zz", "9x": "a", "1": 5}}', "not json", "[]"):
        path.write_text(text)
        with pytest.raises(SeatsFileError):
            store.load_seats("t1")
    store.retire_seats("t1")
    assert not path.exists() and path.with_name("t1.seats.json.migrated").exists()
    (store.tables_dir / "t9.json").write_text("{}")
    (store.tables_dir / "t10.json").write_text("{}")
    (store.tables_dir / "notes.json").write_text("{}")
    assert store.table_ids() == ["t9", "t10"]
    assert store.new_table_id() == "t11"
    tables, problems = store.load_tables()
    assert tables == [] and [p[0] for p in problems] == ["t9.json", "t10.json"]
    assert (store.tables_dir / "t9.json").read_text() == "{}"  # left untouched
    assert stat.S_IMODE(os.stat(store.root).st_mode) == 0o700
    store.unlock()


def test_views_at_once_equal_each_seats_own_view() -> None:
    """The host builds the public part once per move (Referee.views); every seat's
    view must be exactly what the core's view(seat) holds, in every kind of position."""
    import random

    for players in (2, 3, 4):
        for options in (Options(), Options(final_tours="all-lines")):
            rng = random.Random(players)
            names = ",".join(f"p{i}" for i in range(players))
            ref = Referee.new("t1", parse_seats(names), seed=players, options=options)
            while True:
                seats = range(players)
                public, views = ref.views(seats)
                assert public == ref.view(None)
                assert views == {s: ref.view(s) for s in seats}
                # One line per seat, the public part encoded once: each decodes to
                # exactly the update that seat's own view would make.
                events = ref.events[-5:]
                lines, public_line = encode_updates("t1", public, views, events)
                for s in seats:
                    assert decode_host(lines[s]) == Update("t1", ref.view(s), events)
                assert decode_host(public_line) == Update("t1", ref.view(None), events)
                # The record built move by move is the record.
                assert json.loads(ref.record_text()) == ref.record().to_json_dict()
                if ref.is_over:
                    break
                seat = ref.to_move
                assert seat is not None
                ref.submit(seat, rng.choice(ref.view(seat).legal_moves), ref.move_count)


def test_the_client_token_store(tmp_path: Path) -> None:
    from paris_tui.net.client import TokenStore

    store = TokenStore(tmp_path / "deep" / "tokens.json")
    assert store.get("h:1", "Ann") is None
    store.put("h:1", "Ann", "a" * 43)
    store.put("h:2", "ann", "b" * 43)
    store.put("h:1", "Bob", "c" * 43)
    assert store.get("h:1", "ANN") == "a" * 43
    assert store.get("h:2", "Ann") == "b" * 43
    assert store.get("h:1", "bob") == "c" * 43
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    store.path.write_text("[1, 2")
    assert store.get("h:1", "Ann") is None
    store.put("h:1", "Ann", "d" * 43)
    assert store.get("h:1", "Ann") == "d" * 43
