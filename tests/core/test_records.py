"""Game records (record-format.md): round trips, atomic saves, and a broad corpus of invalid
records, each refused with a RecordError naming the right field or move index."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from paris_tui.core import Game, Move, Options, RecordError
from paris_tui.core.record import (
    MAX_RECORD_BYTES,
    Player,
    Record,
    dumps_record,
    load_record,
    parse_record,
    replay,
    replay_summary,
    save_record,
)

from .helpers import make_setup, play_random, state
from .test_takeovers import c1_game


def record_of(game: Game, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps_record(Record.from_game(game, extra=extra)))
    return data


@pytest.fixture
def mid3() -> dict[str, Any]:
    """A valid 3-player record, 10 moves into the game."""
    game = Game.new(3, seed=1)
    play_random(game, random.Random(1), 10)
    return record_of(game)


@pytest.fixture
def full2() -> dict[str, Any]:
    """A valid complete 2-player record."""
    game = Game.new(2, seed=2)
    play_random(game, random.Random(2))
    return record_of(game)


def crafted_record(n: int, stacks: list[list[str]], moves: list[Any]) -> dict[str, Any]:
    setup = make_setup(n, stacks)
    return {
        "format": "paris-paris-record",
        "version": 1,
        "board": "classic",
        "players": [{"name": f"P{i}", "kind": "human"} for i in range(n)],
        "setup": {
            "stacks": [list(s) for s in setup.stacks],
            "routes": list(setup.routes),
            "public_route": setup.public_route,
        },
        "moves": moves,
    }


LOUVRE = [["louvre/yellow", "louvre/yellow", "opera/pink", "trocadero/blue"]]


def refused(data: Any) -> RecordError:
    with pytest.raises(RecordError) as info:
        parse_record(data)
    err = info.value
    assert isinstance(err, ValueError)
    assert str(err).startswith(f"{err.where}: ")
    assert err.problem and "\n" not in str(err)
    return err


# --- round trips -------------------------------------------------------------------------


def test_record_write_read_round_trip(tmp_path: Path) -> None:
    game = Game.new(["Ann", "Bob", "Cy"], seed=3, options=Options("tile-line", "all-lines"))
    play_random(game, random.Random(3), 25)
    players = (Player("Ann"), Player("Bob", "ai:greedy"), Player("Cy", "ai:strong"))
    record = Record.from_game(game, players=players, extra={"saved_at": "today"})
    path = tmp_path / "sub" / "game.json"
    save_record(record, path)
    loaded = load_record(path)
    assert loaded == record
    assert loaded.players[1].is_ai and loaded.players[1].ai_level == "greedy"
    assert not loaded.players[0].is_ai and loaded.players[0].ai_level is None
    assert state(replay(loaded)) == state(game)
    assert parse_record(json.loads(dumps_record(record))) == record
    assert path.read_text(encoding="utf-8") == dumps_record(record)


def test_record_dumps_is_the_contract_shape(mid3: dict[str, Any]) -> None:
    assert mid3["format"] == "paris-paris-record" and mid3["version"] == 1
    assert mid3["board"] == "classic"
    assert set(mid3["setup"]) == {"stacks", "routes", "public_route"}
    assert mid3["options"] == {"small_tour": "both-lines", "final_tours": "secret"}
    for move in mid3["moves"]:
        assert set(move) in ({"tile"}, {"tile", "evict"})
        if "evict" in move:
            assert type(move["evict"]) is int


def test_record_extra_keys_preserved_and_ignored(mid3: dict[str, Any]) -> None:
    """record-format.md: "Anything else in the object ... is allowed and ignored"."""
    plain = parse_record(copy.deepcopy(mid3))
    mid3["ui"] = {"theme": "dark", "cursor": [1, 2]}
    mid3["comment"] = "a note"
    mid3["timestamp"] = 1700000000
    record = parse_record(mid3)
    assert dict(record.extra) == {
        "ui": {"theme": "dark", "cursor": [1, 2]},
        "comment": "a note",
        "timestamp": 1700000000,
    }
    assert state(replay(record)) == state(replay(plain))
    again = json.loads(dumps_record(record))
    assert again["ui"] == mid3["ui"] and again["comment"] == "a note"
    assert parse_record(again) == record


def test_record_extra_cannot_override_known_keys(mid3: dict[str, Any]) -> None:
    record = parse_record(mid3)
    rogue = Record(
        record.players,
        record.setup,
        record.moves,
        record.options,
        record.board,
        {"format": "other", "moves": [], "x": 1},
    )
    data = rogue.to_json_dict()
    assert data["format"] == "paris-paris-record"
    assert len(data["moves"]) == 10 and data["x"] == 1


def test_record_options_default_when_missing_or_partial(mid3: dict[str, Any]) -> None:
    for options in (None, {}, {"small_tour": "both-lines"}, {"unknown_option": 3}):
        data = copy.deepcopy(mid3)
        if options is None:
            del data["options"]
        else:
            data["options"] = options
        assert parse_record(data).options == Options()
    data = copy.deepcopy(mid3)
    data["options"] = None
    assert parse_record(data).options == Options()
    data["options"] = {"final_tours": "all-lines"}
    assert parse_record(data).options == Options(final_tours="all-lines")


def test_record_without_moves_is_the_start(mid3: dict[str, Any]) -> None:
    mid3["moves"] = []
    record = parse_record(mid3)
    assert record.moves == ()
    assert replay(record).move_count == 0


def test_record_missing_moves_key_is_refused(mid3: dict[str, Any]) -> None:
    """record-format: `moves` is a field of every record; a reader does not guess."""
    del mid3["moves"]
    assert refused(mid3).where == "moves"


def test_record_player_name_must_be_encodable_text(mid3: dict[str, Any]) -> None:
    mid3["players"][0]["name"] = "Ann\ud800"
    assert refused(mid3).where == "players[0].name"


def test_record_may_end_mid_game_and_replay_upto(mid3: dict[str, Any]) -> None:
    record = parse_record(mid3)
    assert replay(record).move_count == 10
    assert replay(record, upto=4).move_count == 4
    assert replay_summary(record)["finished"] is False
    assert replay_summary(record)["final"] is None
    assert len(replay_summary(record)["rounds"]) == 10 // 3


def test_record_complete_summary(full2: dict[str, Any]) -> None:
    record = parse_record(full2)
    summary = replay_summary(record)
    game = replay(record)
    outcome = game.outcome()
    assert outcome is not None and summary["finished"] is True
    assert summary["players"] == 2
    assert summary["rounds"] == [
        {"round": r, "scores": list(s)} for r, s in enumerate(game.round_scores)
    ]
    assert len(summary["rounds"]) == 20
    assert summary["final"] == {
        "scores": list(outcome.scores),
        "sack": list(outcome.sack),
        "on_board": list(outcome.on_board),
        "winners": list(outcome.winners),
    }
    json.dumps(summary)  # JSON-serialisable


def test_record_valid_evict_and_c1_moves_are_accepted() -> None:
    data = crafted_record(
        3, LOUVRE, [{"tile": "louvre/yellow"}, {"tile": "louvre/yellow", "evict": 0}]
    )
    assert parse_record(data).moves == (Move("louvre/yellow"), Move("louvre/yellow", 0))
    data["moves"][0]["evict"] = None  # explicit null where no evict is needed
    assert parse_record(data).moves[0] == Move("louvre/yellow")
    game = c1_game(need_full_stop=True)
    data = record_of(game)
    assert parse_record(data).moves == tuple(game.moves)


def test_load_record_accepts_a_utf8_bom(tmp_path: Path, mid3: dict[str, Any]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(mid3).encode("utf-8"))
    assert len(load_record(path).moves) == 10


def test_record_names_are_free_text(mid3: dict[str, Any]) -> None:
    mid3["players"][0]["name"] = 'Zoë 🚌 "quoted" [b]'
    record = parse_record(mid3)
    assert record.players[0].name.startswith("Zoë")
    assert parse_record(json.loads(dumps_record(record))) == record


# --- atomic save --------------------------------------------------------------------------


def _old_file(tmp_path: Path, mid3: dict[str, Any]) -> tuple[Path, str, Record]:
    path = tmp_path / "save.json"
    old = parse_record(mid3)
    save_record(old, path)
    newer = Record.from_game(Game.new(4, seed=9))
    return path, path.read_text(encoding="utf-8"), newer


def _only(tmp_path: Path, path: Path, text: str) -> None:
    assert path.read_text(encoding="utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == [path.name], "a temporary file was left"


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_record_atomic_save_failure_leaves_the_old_file(
    tmp_path: Path, mid3: dict[str, Any], monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    path, text, newer = _old_file(tmp_path, mid3)

    def boom(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, boom)
    with pytest.raises(OSError):
        save_record(newer, path)
    monkeypatch.undo()
    _only(tmp_path, path, text)


def test_record_atomic_save_failure_mid_write(
    tmp_path: Path, mid3: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write itself dies half-way (disk full, a kill): the old file stays whole."""
    path, text, newer = _old_file(tmp_path, mid3)
    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> HalfWriter:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: str) -> int:
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise KeyboardInterrupt  # not even an Exception: BaseException cleanup

        def __getattr__(self, name: str) -> Any:
            return getattr(self.handle, name)

    def half_fdopen(fd: int, *args: Any, **kwargs: Any) -> HalfWriter:
        return HalfWriter(real_fdopen(fd, *args, **kwargs))

    monkeypatch.setattr(os, "fdopen", half_fdopen)
    with pytest.raises(KeyboardInterrupt):
        save_record(newer, path)
    monkeypatch.undo()
    _only(tmp_path, path, text)
    assert len(load_record(path).moves) == 10


def test_record_atomic_save_unserialisable_leaves_the_old_file(
    tmp_path: Path, mid3: dict[str, Any]
) -> None:
    path, text, newer = _old_file(tmp_path, mid3)
    bad = Record(newer.players, newer.setup, extra={"x": object()})
    with pytest.raises(RecordError, match="x: holds a value that is not JSON"):
        save_record(bad, path)
    _only(tmp_path, path, text)


def test_record_save_replaces_the_old_file(tmp_path: Path, mid3: dict[str, Any]) -> None:
    path, _, newer = _old_file(tmp_path, mid3)
    save_record(newer, path)
    assert load_record(path) == newer
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


# --- invalid records -------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
        target: Any = data
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value

    return mutate


def _del(path: str) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
        target: Any = data
        for k in keys[:-1]:
            target = target[k]
        del target[keys[-1]]

    return mutate


MID3_CASES: list[tuple[str, Mutation, str]] = [
    # format and version
    ("format missing", _del("format"), "format"),
    ("format wrong", _set("format", "paris-paris"), "format"),
    ("format not a string", _set("format", ["paris-paris-record"]), "format"),
    ("version string", _set("version", "1"), "version"),
    ("version float", _set("version", 1.0), "version"),
    ("version true", _set("version", True), "version"),
    ("version 2", _set("version", 2), "version"),
    ("version missing", _del("version"), "version"),
    # board
    ("board unknown", _set("board", "london"), "board"),
    ("board not a string", _set("board", 1), "board"),
    ("board missing", _del("board"), "board"),
    # seats
    ("one seat", lambda d: d["players"].__delitem__(slice(1, None)), "players"),
    ("five seats", lambda d: d["players"].extend([{"name": "X", "kind": "human"}] * 2), "players"),
    ("no seats", _set("players", []), "players"),
    ("players not a list", _set("players", {"name": "A"}), "players"),
    ("players missing", _del("players"), "players"),
    ("player not an object", _set("players.1", "Bob"), "players[1]"),
    ("player name not a string", _set("players.0.name", 7), "players[0].name"),
    ("player name missing", _del("players.2.name"), "players[2].name"),
    ("player kind unknown", _set("players.1.kind", "robot"), "players[1].kind"),
    ("player kind ai without level", _set("players.1.kind", "ai:"), "players[1].kind"),
    ("player kind not a string", _set("players.1.kind", None), "players[1].kind"),
    # options
    ("options not an object", _set("options", "tile-line"), "options"),
    ("small_tour unknown", _set("options.small_tour", "one-line"), "options.small_tour"),
    ("small_tour not a string", _set("options.small_tour", ["tile-line"]), "options.small_tour"),
    ("final_tours unknown", _set("options.final_tours", "none"), "options.final_tours"),
    ("final_tours null", _set("options.final_tours", None), "options.final_tours"),
    # setup
    ("setup missing", _del("setup"), "setup"),
    ("setup not an object", _set("setup", []), "setup"),
    ("stacks missing", _del("setup.stacks"), "setup.stacks"),
    ("stacks not a list", _set("setup.stacks", "stacks"), "setup.stacks"),
    ("a stack not a list", _set("setup.stacks.3", "louvre/yellow"), "setup.stacks[3]"),
    ("a stack an object", _set("setup.stacks.0", {"tile": 1}), "setup.stacks[0]"),
    ("too few stacks", lambda d: d["setup"]["stacks"].pop(), "setup.stacks"),
    ("too many stacks", lambda d: d["setup"]["stacks"].append([]), "setup.stacks"),
    ("a stack too short", lambda d: d["setup"]["stacks"][14].pop(), "setup.stacks[14]"),
    (
        "a stack too long",
        lambda d: d["setup"]["stacks"][5].append("louvre/yellow"),
        "setup.stacks[5]",
    ),
    ("unknown tile", _set("setup.stacks.7.2", "louvre/red"), "setup.stacks[7][2]"),
    ("tile not a string", _set("setup.stacks.7.1", 12), "setup.stacks[7][1]"),
    ("tile null", _set("setup.stacks.9.0", None), "setup.stacks[9][0]"),
    # routes
    ("routes missing", _del("setup.routes"), "setup.routes"),
    ("routes not a list", _set("setup.routes", "blue"), "setup.routes"),
    ("routes too few", lambda d: d["setup"]["routes"].pop(), "setup.routes"),
    ("routes too many", lambda d: d["setup"]["routes"].append("x"), "setup.routes"),
    ("route unknown", _set("setup.routes.1", "purple"), "setup.routes[1]"),
    ("route not a string", _set("setup.routes.2", 3), "setup.routes[2]"),
    # public route with 3 players
    ("public route with 3", _set("setup.public_route", "blue"), "setup.public_route"),
    ("public route not a string", _set("setup.public_route", 1), "setup.public_route"),
    # moves
    ("moves not a list", _set("moves", {"tile": "louvre/yellow"}), "moves"),
    ("moves a string", _set("moves", "louvre/yellow"), "moves"),
    ("a move not an object", _set("moves.4", "louvre/yellow"), "moves[4]"),
    ("a move a list", _set("moves.0", ["louvre/yellow"]), "moves[0]"),
    ("a move without a tile", _set("moves.3", {"evict": 0}), "moves[3]"),
    ("a move's tile not a string", _set("moves.2.tile", 5), "moves[2].tile"),
    ("a move's tile unknown", _set("moves.2.tile", "elysee/blue"), "moves[2].tile"),
]


@pytest.mark.parametrize(("case", "mutate", "where"), MID3_CASES, ids=[c[0] for c in MID3_CASES])
def test_record_invalid_is_refused_naming_where(
    mid3: dict[str, Any], case: str, mutate: Mutation, where: str
) -> None:
    mutate(mid3)
    err = refused(mid3)
    assert err.where == where, f"{case}: {err}"


@pytest.mark.parametrize("value", [[], "record", 1, None, True])
def test_record_not_an_object(value: Any) -> None:
    assert refused(value).where == "record"


def test_record_duplicate_route(mid3: dict[str, Any]) -> None:
    mid3["setup"]["routes"][2] = mid3["setup"]["routes"][0]
    err = refused(mid3)
    assert err.where == "setup.routes[2]" and "twice" in err.problem


def test_record_stacks_wrong_multiset(mid3: dict[str, Any]) -> None:
    """The stacks' sizes are right but one tile kind is doubled and another missing."""
    stacks = mid3["setup"]["stacks"]
    stacks[-1][-1] = stacks[-1][0] if stacks[-1][0] != stacks[-1][-1] else stacks[-1][1]
    err = refused(mid3)
    assert err.where == "setup.stacks" and "tile" in err.problem


def test_record_stacks_sized_for_another_player_count(mid3: dict[str, Any]) -> None:
    mid3["setup"]["stacks"] = [list(s) for s in Game.new(4, seed=1).setup.stacks]
    err = refused(mid3)
    assert err.where == "setup.stacks" and "15 stacks of 4" in err.problem


def test_record_public_route_rules_with_two_players(full2: dict[str, Any]) -> None:
    """record-format.md: public_route "a line id with 2 players (different from both secret
    routes), null otherwise"."""
    data = copy.deepcopy(full2)
    data["setup"]["public_route"] = None
    assert refused(data).where == "setup.public_route"
    data = copy.deepcopy(full2)
    del data["setup"]["public_route"]
    assert refused(data).where == "setup.public_route"
    data = copy.deepcopy(full2)
    data["setup"]["public_route"] = data["setup"]["routes"][1]
    err = refused(data)
    assert err.where == "setup.public_route" and "secret route" in err.problem
    data = copy.deepcopy(full2)
    data["setup"]["public_route"] = "purple"
    assert refused(data).where == "setup.public_route"


def test_record_move_tile_not_face_up(mid3: dict[str, Any]) -> None:
    game = replay(parse_record(copy.deepcopy(mid3)), upto=5)
    absent = next(t for t in game.board.tile_names if t not in game.face_up)
    mid3["moves"][5] = {"tile": absent}
    err = refused(mid3)
    assert err.where == "moves[5].tile" and "not face up" in err.problem


def test_record_move_tile_taken_twice_in_a_round() -> None:
    data = crafted_record(
        3,
        [["louvre/yellow", "opera/pink", "trocadero/blue", "etoile/blue"]],
        [{"tile": "opera/pink"}, {"tile": "opera/pink"}],
    )
    assert refused(data).where == "moves[1].tile"


def test_record_evict_missing_where_required() -> None:
    data = crafted_record(3, LOUVRE, [{"tile": "louvre/yellow"}, {"tile": "louvre/yellow"}])
    err = refused(data)
    assert err.where == "moves[1].evict" and "missing" in err.problem and "Louvre" in err.problem
    data["moves"][1]["evict"] = None
    assert refused(data).where == "moves[1].evict"


def test_record_evict_present_where_not_full() -> None:
    data = crafted_record(3, LOUVRE, [{"tile": "louvre/yellow", "evict": 0}])
    err = refused(data)
    assert err.where == "moves[0].evict" and "not full" in err.problem


def test_record_evict_present_with_an_empty_supply_c1() -> None:
    """C1: with an empty supply nothing is removed, even at a full stop."""
    game = c1_game(need_full_stop=True)
    board = game.board
    tile = next(
        t
        for t in game.face_up
        if len(game.businesses_at(t.split("/")[0]))
        >= board.capacity[board.stop_index[t.split("/")[0]]]
    )
    victim = game.businesses_at(tile.split("/")[0])[0]
    data = record_of(game)
    index = len(data["moves"])
    data["moves"].append({"tile": tile, "evict": victim})
    err = refused(data)
    assert err.where == f"moves[{index}].evict"
    assert "C1" in err.problem
    data["moves"][-1] = {"tile": tile}
    assert parse_record(data).moves[-1] == Move(tile)


@pytest.mark.parametrize("seat", [1, 2, 3, -1, 99])
def test_record_evict_names_a_seat_with_no_business_there(seat: int) -> None:
    data = crafted_record(
        3, LOUVRE, [{"tile": "louvre/yellow"}, {"tile": "louvre/yellow", "evict": seat}]
    )
    err = refused(data)
    assert err.where == "moves[1].evict" and f"seat {seat}" in err.problem


@pytest.mark.parametrize("evict", [True, False, "0", 0.0, 1.5, [0], {"seat": 0}])
def test_record_evict_of_the_wrong_type(evict: Any) -> None:
    data = crafted_record(
        3, LOUVRE, [{"tile": "louvre/yellow"}, {"tile": "louvre/yellow", "evict": evict}]
    )
    err = refused(data)
    assert err.where == "moves[1].evict"
    # also where no evict is wanted at all
    data = crafted_record(3, LOUVRE, [{"tile": "opera/pink", "evict": evict}])
    assert refused(data).where == "moves[0].evict"


def test_record_more_moves_than_the_game_has(full2: dict[str, Any]) -> None:
    assert len(full2["moves"]) == 40
    full2["moves"].append(copy.deepcopy(full2["moves"][-1]))
    err = refused(full2)
    assert err.where == "moves[40]" and "too many" in err.problem
    full2["moves"][-1] = "anything at all"
    assert refused(full2).where == "moves[40]"


def test_record_first_problem_wins_and_later_moves_are_not_guessed(
    mid3: dict[str, Any],
) -> None:
    mid3["moves"][2] = {"tile": "nowhere/blue"}
    mid3["moves"][7] = "junk"
    assert refused(mid3).where == "moves[2].tile"


# --- reading files ---------------------------------------------------------------------


BAD_FILES = [
    ("empty", b"", "not valid JSON"),
    ("unclosed", b"{", "not valid JSON"),
    ("not-json", b"not json", "not valid JSON"),
    ("nan", b'{"format": NaN}', "NaN"),
    ("infinity", b"[Infinity]", "Infinity"),
    ("bad-utf8", b"\xff\xfe\x00", "UTF-8"),
    ("trailing", b'{"format": "paris-paris-record", "version": 1} trailing', "not valid JSON"),
    ("nested-lists", b"[" * 100_000 + b"]" * 100_000, "nested"),
    ("nested-objects", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "nested"),
]


@pytest.mark.parametrize(
    ("content", "words"), [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES]
)
def test_load_record_bad_files(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert info.value.where == "file"
    assert words in str(info.value)
    assert "\n" not in str(info.value)


def test_load_record_too_large(tmp_path: Path, mid3: dict[str, Any]) -> None:
    path = tmp_path / "huge.json"
    text = json.dumps(mid3)
    path.write_text(text + " " * (MAX_RECORD_BYTES + 1 - len(text)), encoding="utf-8")
    with pytest.raises(RecordError, match="too large") as info:
        load_record(path)
    assert info.value.where == "file"
    path.write_text(text + " " * (MAX_RECORD_BYTES - len(text)), encoding="utf-8")
    assert len(load_record(path).moves) == 10  # exactly the limit is still read


def test_load_record_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read") as info:
        load_record(tmp_path / "missing.json")
    assert info.value.where == "file"
    with pytest.raises(RecordError, match="directory") as info:
        load_record(tmp_path)
    assert info.value.where == "file"


@pytest.mark.parametrize(
    "mutate",
    [
        _set("players.0.name", "\ud800"),
        _set("comment", "half an emoji \udc9a"),
    ],
    ids=["name", "extra"],
)
def test_record_accepted_by_parse_can_be_saved_again(
    tmp_path: Path, mid3: dict[str, Any], mutate: Mutation
) -> None:
    """A record that reads as valid must save again (the app autosaves a resumed game).

    JSON's ``\\ud800`` escape decodes to a lone surrogate, which UTF-8 cannot encode: the
    reader must refuse it with a RecordError naming the field, or the writer must still
    write a file that reads back the same. Either way, no UnicodeEncodeError on save.
    """
    mutate(mid3)
    try:
        record = parse_record(json.loads(json.dumps(mid3)))
    except RecordError as err:
        assert err.where in ("players[0].name", "comment")
        return
    path = tmp_path / "again.json"
    save_record(record, path)
    assert load_record(path) == record
