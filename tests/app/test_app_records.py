"""What the app needs of a save beyond the record format (issue 7, items 8, 9 and 11).

An unknown AI level (``"kind": "ai:bogus"``) was accepted and the bot then
"thought" for ever; a 4,300-digit seed in the ``"app"`` metadata crashed
"Play again". Both are now refused when a save is read, for ``resume FILE``
and the resume offer alike, as a one-line ``RecordError`` naming the field.
The new-game form applies the core's rule for names and bounds the seed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import REFUSED, SHOWN

from paris_tui.app.local.session import MAX_SEED, SeatSpec, Session, check_app_record, next_seed
from paris_tui.app.local.storage import find_unfinished, read_save, saves_dir
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.new_game import NewGameScreen
from paris_tui.app.start import launch
from paris_tui.core import Game, RecordError
from paris_tui.core.record import Player as RecordPlayer
from paris_tui.core.record import Record, dumps_record, load_record, parse_record

from .helpers import all_text, make_app, new_session


def _save(data_dir: Path, name: str = "game-1.json", **changes: Any) -> Path:
    """An unfinished 2-seat save (Ann, and a greedy AI) with ``changes`` applied."""
    session = new_session("Ann,ai:greedy", 5, None)
    data = json.loads(dumps_record(session.record()))
    for key, value in changes.items():
        if key == "kind":
            data["players"][1]["kind"] = value
        else:
            data["app"][key] = value
    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# --- AI levels --------------------------------------------------------------------------------


def test_an_unknown_ai_level_is_refused_when_the_save_is_read(data_dir: Path) -> None:
    path = _save(data_dir, kind="ai:bogus")
    load_record(path)  # a valid record: which levels exist is the app's business
    with pytest.raises(RecordError) as caught:
        read_save(path)
    assert caught.value.where == "players[1].kind"
    assert "unknown AI level 'bogus' (known: random, easy, greedy, strong, expert)" in str(
        caught.value
    )


def test_resume_file_with_an_unknown_ai_level_says_so_in_one_line(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _save(data_dir, kind="ai:bogus")
    before = path.read_bytes()
    assert launch.run_resume(path, ai_delay=0) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "cannot resume" in err and "players[1].kind: unknown AI level 'bogus'" in err
    assert path.read_bytes() == before


def test_the_resume_offer_skips_a_save_with_an_unknown_ai_level(data_dir: Path) -> None:
    _save(data_dir, kind="ai:bogus")
    info, problems = find_unfinished()
    assert info is None
    assert len(problems) == 1 and "players[1].kind: unknown AI level" in problems[0][1]


def test_resume_without_a_file_reports_the_unreadable_save(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _save(data_dir, kind="ai:bogus")
    assert launch.run_resume(None, ai_delay=0) == 2
    assert "1 unreadable save file left untouched" in capsys.readouterr().err


# --- the app metadata -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"seed": int("9" * 4300)}, "app.seed"),
        ({"seed": MAX_SEED + 1}, "app.seed"),
        ({"seed": -1}, "app.seed"),
        ({"seed": True}, "app.seed"),
        ({"seed": "42"}, "app.seed"),
        ({"seed": 1.5}, "app.seed"),
        ({"ai_seeds": [None]}, "app.ai_seeds"),
        ({"ai_seeds": "x"}, "app.ai_seeds"),
        ({"ai_seeds": [None, int("9" * 4300)]}, "app.ai_seeds[1]"),
        ({"ai_seeds": [None, -5]}, "app.ai_seeds[1]"),
        ({"ai_seeds": [[1], None]}, "app.ai_seeds[0]"),
    ],
)
def test_bad_app_metadata_is_refused_naming_the_field(
    data_dir: Path, changes: dict[str, Any], where: str
) -> None:
    path = _save(data_dir, **changes)
    with pytest.raises(RecordError) as caught:
        read_save(path)
    assert caught.value.where == where
    assert "must be" in caught.value.problem
    assert len(str(caught.value)) < 200


def test_app_metadata_that_is_not_an_object_is_refused(data_dir: Path) -> None:
    record = read_save(_save(data_dir)).record
    data = json.loads(dumps_record(record))
    data["app"] = [1, 2]
    with pytest.raises(RecordError, match="app: must be an object"):
        check_app_record(parse_record(data))


@pytest.mark.parametrize(
    "changes", [{}, {"seed": None}, {"seed": 0}, {"seed": MAX_SEED}, {"ai_seeds": [None, None]}]
)
def test_good_app_metadata_is_accepted(data_dir: Path, changes: dict[str, Any]) -> None:
    assert read_save(_save(data_dir, **changes)).record.players[1].ai_level == "greedy"


def test_a_record_without_app_metadata_is_accepted(data_dir: Path) -> None:
    game = Game.new(["Ann", "Bob"], seed=2)
    check_app_record(Record.from_game(game))


# --- seeds and "Play again" ---------------------------------------------------------------------


def test_session_new_refuses_a_seed_out_of_range(data_dir: Path) -> None:
    seats = [SeatSpec("Ann"), SeatSpec("Bob")]
    for seed in (-1, MAX_SEED + 1, int("9" * 4300)):
        with pytest.raises(ValueError, match="must be a whole number from 0 to"):
            Session.new(seats, seed=seed)
    assert Session.new(seats, seed=MAX_SEED).seed == MAX_SEED


def test_next_seed_wraps_at_the_top() -> None:
    assert next_seed(0) == 1
    assert next_seed(MAX_SEED - 1) == MAX_SEED
    assert next_seed(MAX_SEED) == 0


def test_session_ignores_seeds_it_cannot_use() -> None:
    """A record read without the app's checks (a replay) never yields an unusable seed."""
    game = Game.new(["Ann", "Bob"], seed=2)
    record = Record.from_game(game, extra={"app": {"seed": int("9" * 4300), "ai_seeds": [-1, 2]}})
    session = Session.from_record(record)
    assert session.seed is None
    assert 0 <= session.ai_seed_for(0) < 2**32
    assert session.ai_seed_for(1) == 2


async def test_play_again_after_a_game_dealt_from_the_largest_seed(data_dir: Path) -> None:
    """ "Play again" deals from the next seed, wrapping at the top."""
    session = Session.new([SeatSpec("Ann"), SeatSpec("Bob")], seed=MAX_SEED, path=None)
    app = make_app(session)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.play_again()
        await pilot.pause()
        assert app.session is not None and app.session is not session
        assert app.session.seed == 0


async def test_play_again_after_a_record_with_a_4300_digit_seed(data_dir: Path) -> None:
    """Issue 7 item 9: a 4,300-digit seed in the app metadata crashed "Play again"
    (seed + 1 has 4,301 digits: ValueError turning it into text). A save holding one is
    refused when read; a session made from such a record without that check ignores it."""
    game = Game.new(["Ann", "Bob"], seed=2)
    huge = int("9" * 4300)
    record = Record.from_game(
        game,
        players=(RecordPlayer("Ann"), RecordPlayer("Bob", "ai:random")),
        extra={"app": {"seed": huge, "ai_seeds": [None, huge]}},
    )
    session = Session.from_record(record)
    app = make_app(session)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.play_again()
        await pilot.pause()
        assert app.session is not None and app.session is not session
        assert app.session.seed is not None and 0 <= app.session.seed <= MAX_SEED


# --- the new-game form ---------------------------------------------------------------------------


async def _form_start(pilot: Any, name: str, seed: str = "") -> None:
    screen = pilot.app.screen
    assert isinstance(screen, NewGameScreen)
    screen.query_one("#name-0").value = "Seat one"
    screen.query_one("#name-1").value = name
    screen.query_one("#seed").value = seed
    await pilot.press("f5")
    await pilot.pause()


def _error_line(app: Any) -> str:
    from textual.widgets import Static

    widget = app.screen.query_one("#new-error", Static)
    content = widget.content
    return str(getattr(content, "plain", content))


async def test_the_form_refuses_every_hostile_name_with_the_core_message(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[list[SeatSpec]] = []
    app = make_app(None)
    monkeypatch.setattr(app, "start_new", lambda seats, **_: started.append(seats))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        for case in REFUSED:
            await _form_start(pilot, case.text)
            line = _error_line(app)
            assert line.startswith("Seat 2: the name "), (case.label, line)
            assert "\x1b" not in line and "\u202e" not in line
        assert started == []
        for case in SHOWN:
            await _form_start(pilot, case.text)
            assert started[-1][1].name == case.shown, case.label


@pytest.mark.parametrize(
    ("name", "seed", "words"),
    [
        ("seat ONE", "", "Seat 2: two seats are called Seat one and seat ONE"),
        ("Bob", "9" * 5000, "The seed must be a whole number from 0 to"),
        ("Bob", str(MAX_SEED + 1), "The seed must be a whole number from 0 to"),
    ],
    ids=["duplicate ignoring case", "5000-digit seed", "seed 2**63"],
)
async def test_the_form_refuses_duplicates_and_seeds_out_of_range(
    data_dir: Path, name: str, seed: str, words: str
) -> None:
    app = make_app(None)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await _form_start(pilot, name, seed)
        assert isinstance(app.screen, NewGameScreen)
        assert words in _error_line(app)
    assert list(saves_dir().glob("*.json")) == []


async def test_the_form_starts_a_game_with_the_largest_seed(data_dir: Path) -> None:
    app = make_app(None)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await _form_start(pilot, "Bob", str(MAX_SEED))
        assert isinstance(app.screen, HandoffScreen)
        assert app.session is not None and app.session.seed == MAX_SEED
        assert "Seat one" in all_text(app)


# --- the resume offer meets hostile saves -------------------------------------------------------


def test_the_resume_offer_refuses_every_save_with_a_hostile_name(data_dir: Path) -> None:
    folder = saves_dir()
    folder.mkdir(parents=True)
    game = Game.new(["Ann", "Bob"], seed=4)
    good = json.loads(dumps_record(Record.from_game(game)))
    for i, case in enumerate(REFUSED):
        good["players"][1]["name"] = case.text
        (folder / f"game-{i}.json").write_text(json.dumps(good), encoding="utf-8")
    info, problems = find_unfinished()
    assert info is None
    assert len(problems) == len(REFUSED)
    for _path, why in problems:
        assert why.startswith("players[1].name: "), why
        assert "\x1b" not in why and "\x9b" not in why and "\u202e" not in why


def test_the_resume_offer_notes_escape_hostile_file_names(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = saves_dir()
    folder.mkdir(parents=True)
    (folder / "evil\x1b]2;pwned\x07.json").write_text("{broken", encoding="utf-8")
    (folder / "c1\x9b2J.json").write_text("[]", encoding="utf-8")
    apps: list[Any] = []
    monkeypatch.setattr(launch, "_terminal_problem", lambda: None)
    monkeypatch.setattr(launch, "_run", lambda app: apps.append(app) or 0)
    assert launch.run_default(ai_delay=0) == 0
    (app,) = apps
    notes = sorted(app.problems)
    assert len(notes) == 2
    assert notes[0].startswith("c1\\x9b2J.json: ")
    assert notes[1].startswith("evil\\x1b]2;pwned\\x07.json: ")
    assert not any(ch in "".join(notes) for ch in "\x1b\x07\x9b")
