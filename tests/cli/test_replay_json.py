"""``paris-tui replay FILE --json`` (record-format.md): the contract output, exit statuses,
and no traceback whatever the file holds."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # ``tests.reference`` must import however pytest is run
    sys.path.insert(0, str(ROOT))

from paris_tui.cli import main  # noqa: E402
from tests.reference import ref_engine  # noqa: E402

REF_BOARD = ref_engine.load_board(ROOT / "paris_tui" / "core" / "data" / "board-classic.json")
REQUIRED = {"players", "rounds", "finished", "final"}
FINAL_KEYS = {"scores", "sack", "on_board", "winners"}


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    elif isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    return path


def run(path: Path | str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, out: str, err: str, *words: str) -> str:
    """record-format.md: "nothing on standard output, a one-line message on standard error
    naming the problem and where it is, exit status 2"."""
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert "Traceback" not in err
    for word in words:
        assert word in err, f"{word!r} not in {err!r}"
    return err


def record(n: int, seed: int, options: dict[str, str] | None = None, limit: int | None = None):  # type: ignore[no-untyped-def]
    return ref_engine.random_record(REF_BOARD, n, seed, options, limit)


# --- good records ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize(
    "options",
    [None, {"small_tour": "tile-line"}, {"final_tours": "all-lines"}],
    ids=["default", "tile-line", "all-lines"],
)
@pytest.mark.parametrize("complete", [True, False], ids=["complete", "mid-game"])
def test_replay_json_good_record_matches_the_reference(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    n: int,
    options: dict[str, str] | None,
    complete: bool,
) -> None:
    for seed in range(3):
        limit = None if complete else random.Random(seed).randrange(0, 60 // (n + 1) * n)
        data = record(n, seed, options, limit)
        code, out, err = run(write(tmp_path, data), capsys)
        assert (code, err) == (0, "")
        assert out.endswith("\n") and out.count("\n") == 1
        summary = json.loads(out)
        assert set(summary) >= REQUIRED
        expected = ref_engine.replay_summary(REF_BOARD, data)
        assert {k: summary[k] for k in REQUIRED} == expected
        assert summary["players"] == n
        assert isinstance(summary["finished"], bool)
        assert summary["finished"] is complete
        for i, entry in enumerate(summary["rounds"]):
            assert entry["round"] == i
            assert len(entry["scores"]) == n
            assert all(type(s) is int for s in entry["scores"])
        if complete:
            assert len(summary["rounds"]) == 60 // (n + 1)
            assert set(summary["final"]) >= FINAL_KEYS
            for key in FINAL_KEYS - {"winners"}:
                assert len(summary["final"][key]) == n
            assert 1 <= len(summary["final"]["winners"]) <= n
        else:
            assert summary["final"] is None
            assert len(summary["rounds"]) == (limit or 0) // n


def test_replay_json_contract_example_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The shape of the example in record-format.md, on a complete 3-player game."""
    data = record(3, 11)
    code, out, _ = run(write(tmp_path, data), capsys)
    assert code == 0
    summary = json.loads(out)
    assert type(summary["players"]) is int
    assert all(set(r) >= {"round", "scores"} for r in summary["rounds"])
    assert summary["finished"] is True
    final = summary["final"]
    assert all(type(v) is int for key in FINAL_KEYS for v in final[key])
    top = max(final["scores"])
    assert all(final["scores"][w] == top for w in final["winners"])


def test_replay_json_ignores_extra_keys_and_accepts_missing_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = record(4, 5)
    expected = ref_engine.replay_summary(REF_BOARD, data)
    data["ui"] = {"zoom": 2}
    data["comment"] = "extra keys are allowed"
    del data["options"]
    code, out, err = run(write(tmp_path, data), capsys)
    assert (code, err) == (0, "")
    assert {k: v for k, v in json.loads(out).items() if k in REQUIRED} == expected


def test_replay_json_no_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record(2, 3, limit=0)
    code, out, _ = run(write(tmp_path, data), capsys)
    assert code == 0
    summary = json.loads(out)
    assert summary["rounds"] == [] and summary["finished"] is False and summary["final"] is None


# --- bad records -----------------------------------------------------------------------------


def _mut(data: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    target: Any = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


BAD = [
    ("format", ["format"], "paris"),
    ("version", ["version"], "1"),
    ("version", ["version"], 1.0),
    ("version", ["version"], True),
    ("players", ["players"], [{"name": "A", "kind": "human"}]),
    ("setup.stacks[2]", ["setup", "stacks", 2], ["louvre/yellow"]),
    ("setup.stacks[0][0]", ["setup", "stacks", 0, 0], "nowhere/blue"),
    ("setup.routes[1]", ["setup", "routes", 1], "purple"),
    ("setup.public_route", ["setup", "public_route"], "blue"),
    ("moves[3]", ["moves", 3], "louvre/yellow"),
    ("moves[0].tile", ["moves", 0, "tile"], "nowhere/blue"),
    ("moves[1].evict", ["moves", 1, "evict"], True),
    ("moves", ["moves"], {"tile": "x"}),
]


@pytest.mark.parametrize(("where", "path", "value"), BAD, ids=[f"{b[0]}={b[2]!r}" for b in BAD])
def test_replay_json_bad_record_one_line_naming_where(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    where: str,
    path: list[Any],
    value: Any,
) -> None:
    data = _mut(record(3, 2, limit=12), path, value)
    code, out, err = run(write(tmp_path, data), capsys)
    assert_refused(code, out, err, where, "game.json")


def test_replay_json_move_tile_not_face_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = record(3, 4, limit=9)
    face_up_now = {m["tile"] for m in data["moves"][6:9]} | set(data["setup"]["stacks"][2])
    absent = next(t for t in REF_BOARD.tiles if t not in face_up_now)
    data["moves"][7] = {"tile": absent}
    code, out, err = run(write(tmp_path, data), capsys)
    assert_refused(code, out, err, "moves[7].tile", "not face up")


def test_replay_json_too_many_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record(4, 4)
    data["moves"].append({"tile": "louvre/yellow"})
    code, out, err = run(write(tmp_path, data), capsys)
    assert_refused(code, out, err, "moves[48]")


UNREADABLE: list[tuple[str, bytes, list[str]]] = [
    ("empty", b"", ["not valid JSON"]),
    ("blank", b"   \n", ["not valid JSON"]),
    ("not-json", b"not json at all", ["not valid JSON"]),
    ("nan", b'{"format": NaN}', ["NaN"]),
    ("infinity", b"[1, -Infinity]", ["Infinity"]),
    ("bad-utf8", b"\xff\xfe\xfa", ["UTF-8"]),
    ("bad-utf8-inside", b'{"format": "paris-paris-record", "x": "\xc3\x28"}', ["UTF-8"]),
    ("nested-100000", b"[" * 100_000 + b"]" * 100_000, ["nested"]),
    ("nested-unclosed", b"[" * 100_000, ["file"]),
    ("nested-objects", b'{"a": ' * 100_000, ["file"]),
    ("huge-integer", b"1" * 5000, ["file"]),
    ("null", b"null", ["record"]),
    ("list", b"[]", ["record"]),
    ("string", b'"paris-paris-record"', ["record"]),
    ("empty-object", b"{}", ["format"]),
]


@pytest.mark.parametrize(
    ("content", "words"), [u[1:] for u in UNREADABLE], ids=[u[0] for u in UNREADABLE]
)
def test_replay_json_unreadable_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, words: list[str]
) -> None:
    code, out, err = run(write(tmp_path, content), capsys)
    assert_refused(code, out, err, *words)


def test_replay_json_huge_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Over 4 MiB: refused without being parsed (even if it would be valid JSON)."""
    data = json.dumps(record(2, 1))
    path = write(tmp_path, data + " " * (4 * 1024 * 1024 + 10))
    code, out, err = run(path, capsys)
    assert_refused(code, out, err, "too large")


def test_replay_json_directory_and_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(tmp_path, capsys)
    assert_refused(code, out, err, "directory")
    code, out, err = run(tmp_path / "missing.json", capsys)
    assert_refused(code, out, err, "missing.json", "cannot read")


def test_replay_json_file_name_with_a_newline_stays_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The message is one line even when the file's name is not (a legal POSIX name)."""
    path = write(tmp_path, b"not json", name="two\nlines.json")
    code, out, err = run(path, capsys)
    assert_refused(code, out, err, "not valid JSON")


WRONG_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    7,
    10**30,
    1.5,
    1e308,
    "",
    "x",
    "louvre/yellow",
    [],
    [None],
    {},
    {"tile": None},
    [[[[[]]]]],
]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a record: all keys, and the first, second and last item of each list."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list) and value:
        for i in sorted({0, min(1, len(value) - 1), len(value) - 1}):
            out += _paths(value[i], (*prefix, i))
    return out


@pytest.mark.parametrize("n", [2, 3])
def test_replay_json_wrong_types_everywhere_never_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], n: int
) -> None:
    """Every field of a record, replaced by every kind of JSON value: exit 0 with a summary,
    or exit 2 with one line; never an exception."""
    base = record(n, 8, limit=2 * n + 1)
    paths = _paths(base)
    assert len(paths) > 30
    path = tmp_path / "mutant.json"
    outcomes = {0: 0, 2: 0}
    for place in paths:
        for value in WRONG_VALUES:
            path.write_text(json.dumps(_mut(base, list(place), value)), encoding="utf-8")
            code, out, err = run(path, capsys)
            assert code in (0, 2), (place, value)
            if code == 0:
                assert err == "" and set(json.loads(out)) >= REQUIRED
            else:
                assert_refused(code, out, err)
            outcomes[code] += 1
        # and the field removed
        mutant = copy.deepcopy(base)
        target: Any = mutant
        for key in place[:-1]:
            target = target[key]
        del target[place[-1]]
        path.write_text(json.dumps(mutant), encoding="utf-8")
        code, out, err = run(path, capsys)
        assert code in (0, 2)
        if code == 2:
            assert_refused(code, out, err)
    assert outcomes[2] > outcomes[0] > 0


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_replay_json_fuzzed_records_never_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject
) -> None:
    base = record(data.draw(st.sampled_from([2, 3, 4])), data.draw(st.integers(0, 50)), limit=7)
    place = data.draw(st.sampled_from(_paths(base)))
    mutant = _mut(base, list(place), data.draw(json_values))
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(mutant), encoding="utf-8")
    code, out, err = run(path, capsys)
    assert code in (0, 2)
    if code == 2:
        assert_refused(code, out, err)
    else:
        assert err == "" and set(json.loads(out)) >= REQUIRED


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.binary(max_size=300))
def test_replay_json_random_bytes_never_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = tmp_path / "bytes.json"
    path.write_bytes(content)
    code, out, err = run(path, capsys)
    assert_refused(code, out, err)
