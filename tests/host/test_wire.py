"""Wire forms of the core's values: exact round trips, strict readers (issue 9)."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paris_tui.core import Game, Move, Options
from paris_tui.net.wire import (
    WireError,
    event_from_json,
    event_to_json,
    events_from_json,
    move_from_json,
    move_to_json,
    outcome_from_json,
    outcome_to_json,
    view_from_json,
    view_to_json,
)

VARIANTS = (
    Options(),
    Options(small_tour="tile-line"),
    Options(final_tours="all-lines"),
)


def _games() -> list[Game]:
    """Positions of 2-4 player games at the start, mid-game and over, every variant."""
    out = []
    for players in (2, 3, 4):
        for i, options in enumerate(VARIANTS):
            rng = random.Random(players * 10 + i)
            game = Game.new(players, rng=rng, options=options)
            out.append(game.copy())
            for _ in range(game.total_moves // 2):
                game.apply_code(rng.choice(game.legal_codes()))
            out.append(game.copy())
            game.play_random(rng)
            out.append(game)
    return out


GAMES = _games()


def _through_json(value: Any) -> Any:
    """What the other end decodes: the form as JSON text and back."""
    return json.loads(json.dumps(value))


def test_move_uses_the_record_form() -> None:
    assert move_to_json(Move("louvre/yellow")) == {"tile": "louvre/yellow"}
    assert move_to_json(Move("opera/pink", 2)) == {"tile": "opera/pink", "evict": 2}
    assert move_from_json({"tile": "opera/pink", "evict": None}) == Move("opera/pink")


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_seat_view_round_trips(index: int) -> None:
    game = GAMES[index]
    for seat in (None, *range(game.players)):
        view = game.view(seat)
        assert view_from_json(_through_json(view_to_json(view))) == view


def test_events_of_whole_games_round_trip() -> None:
    kinds = set()
    for seed in range(6):
        rng = random.Random(seed)
        game = Game.new(2 + seed % 3, rng=rng, options=VARIANTS[seed % 3])
        while not game.is_over:
            for event in game.play(rng.choice(game.legal_moves())):
                kinds.add(type(event).__name__)
                assert event_from_json(_through_json(event_to_json(event))) == event
        outcome = game.outcome()
        assert outcome is not None
        assert outcome_from_json(_through_json(outcome_to_json(outcome))) == outcome
    # Every kind of event was met.
    assert kinds == {
        "BusinessOpened",
        "BusinessRemoved",
        "TourEvent",
        "ScoreEvent",
        "TileDiscarded",
        "RoundStarted",
        "GameOver",
    } | ({"NothingOpened"} & kinds)


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ("louvre/yellow", "move"),
        ({}, "move.tile"),
        ({"tile": 3}, "move.tile"),
        ({"tile": "x" * 65}, "move.tile"),
        ({"tile": "a", "evict": True}, "move.evict"),
        ({"tile": "a", "evict": 7}, "move.evict"),
        ({"tile": "a", "evict": "1"}, "move.evict"),
        ({"tile": "a", "spare": 1}, "move"),
    ],
)
def test_move_reader_names_the_bad_field(value: object, where: str) -> None:
    with pytest.raises(WireError) as info:
        move_from_json(value)
    assert info.value.where == where


def test_view_reader_refuses_each_broken_field() -> None:
    good = view_to_json(GAMES[4].view(1))
    view_from_json(good)
    for key in good:
        broken = dict(good)
        del broken[key]
        with pytest.raises(WireError):
            view_from_json(broken)
    for key, bad in [
        ("board", "moon"),
        ("seat", 9),
        ("scores", [1, "2"]),
        ("occupancy", [[0]] * 100),
        ("moves", [{"tile": None}]),
        ("outcome", {"scores": []}),
        ("names", ["solo"]),
        ("options", {"small_tour": "x", "final_tours": "secret"}),
    ]:
        with pytest.raises(WireError):
            view_from_json({**good, key: bad})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_readers_raise_only_wire_errors(value: object) -> None:
    for reader in (move_from_json, view_from_json, event_from_json, events_from_json):
        with contextlib.suppress(WireError):
            reader(value)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_mutated_events_raise_only_wire_errors(data: st.DataObject) -> None:
    game = Game.new(3, seed=1)
    events = [event_to_json(e) for e in game.play(game.legal_moves()[0])]
    event = dict(data.draw(st.sampled_from(events)))
    key = data.draw(st.sampled_from(sorted(event)))
    event[key] = data.draw(JSON)
    with contextlib.suppress(WireError):
        event_from_json(event)
