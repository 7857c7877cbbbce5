"""Property-based tests (hypothesis): many random games, 2/3/4 players, every variant.

Each example is a whole random game (or a random prefix of one); settings keep the whole
``tests/core`` run well under a minute on two cores.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paris_tui.core import BUSINESSES_PER_SEAT, Game, Options, TileDiscarded
from paris_tui.core.record import Record, dumps_record, parse_record, replay, replay_summary
from paris_tui.core.sampling import Determinizer

from .helpers import (
    ALL_OPTIONS,
    BOARD_JSON,
    our_state_for_ref,
    ref_engine,
    ref_game,
    ref_state,
    state,
    twin,
)

REF_BOARD = ref_engine.load_board(BOARD_JSON)

PROPS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

players = st.sampled_from([2, 3, 4])
options = st.sampled_from(ALL_OPTIONS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
fractions = st.floats(min_value=0.0, max_value=1.0)


def new_game(n: int, opts: Options, seed: int) -> tuple[Game, random.Random]:
    return Game.new(n, seed=seed, options=opts), random.Random(seed ^ 0x5EED)


def prefix(n: int, opts: Options, seed: int, fraction: float) -> tuple[Game, random.Random]:
    """A game after a random number of random moves (0 to all of them)."""
    game, rng = new_game(n, opts, seed)
    k = round(fraction * game.total_moves)
    for _ in range(k):
        game.play(rng.choice(game.legal_moves()))
    return game, rng


@PROPS
@given(players, options, seeds)
def test_prop_invariants_through_a_whole_game(n: int, opts: Options, seed: int) -> None:
    """Tiles conserved (R1/R3): 60 = face-up + discard area + out of the game + still in
    stacks; businesses conserved (R1/R4): board + supply + sack = 19 per seat; capacities
    (R4) never exceeded; scores never decrease; the game ends after exactly 60/(n+1) rounds."""
    game, rng = new_game(n, opts, seed)
    board = game.board
    taken = 0
    pairs = 0
    last_scores = list(game.scores)
    rounds_seen = 0
    while not game.is_over:
        events = game.play(rng.choice(game.legal_moves()))
        taken += 1
        pairs += sum(1 for e in events if isinstance(e, TileDiscarded) and e.grand_tour)
        rounds_seen += sum(1 for e in events if isinstance(e, TileDiscarded))
        out = taken + 2 * pairs
        in_stacks = len(game.remaining_stack_tiles())
        assert len(game.face_up) + len(game.discard) + out + in_stacks == 60
        assert game.tiles_out == out
        all_left = Counter(game.face_up) + Counter(game.remaining_stack_tiles())
        assert all_left <= Counter(board.all_tiles)
        assert len(game.discard) == len(set(game.discard))
        on_board = game.on_board()
        for p in range(n):
            assert on_board[p] + game.supply[p] + game.sack[p] == BUSINESSES_PER_SEAT
            assert game.supply[p] >= 0
            assert game.scores[p] >= last_scores[p]
        if n == 2:
            assert game.sack == [0, 0]
        for s, owners in enumerate(game.occupancy()):
            assert len(owners) <= board.capacity[s]
        last_scores = list(game.scores)
    assert rounds_seen == game.rounds_total == 60 // (n + 1)
    assert len(game.round_scores) == game.rounds_total
    assert game.move_count == game.total_moves == game.rounds_total * n
    assert game.face_up == () and game.remaining_stack_tiles() == []


@PROPS
@given(players, options, seeds, fractions)
def test_prop_record_round_trip_at_any_point(
    n: int, opts: Options, seed: int, fraction: float
) -> None:
    """A record saved at any point (dumps_record -> parse_record -> replay) gives the
    identical state."""
    game, _ = prefix(n, opts, seed, fraction)
    text = dumps_record(Record.from_game(game, extra={"note": "saved"}))
    record = parse_record(json.loads(text))
    assert record.extra == {"note": "saved"}
    again = replay(record)
    assert state(again) == state(game)
    assert dumps_record(record) == text


@PROPS
@given(players, options, seeds, fractions, st.data())
def test_prop_views_hide_other_seats_secrets(
    n: int, opts: Options, seed: int, fraction: float, data: st.DataObject
) -> None:
    """R8 by construction: changing what a seat cannot know (other routes, face-down stacks)
    leaves its view equal; the view never holds another seat's route before the end."""
    game, _ = prefix(n, opts, seed, min(fraction, 0.99))
    if game.is_over:
        return
    seat = data.draw(st.sampled_from([None, *range(n)]))
    other = twin(game, seat, random.Random(seed))
    assert other.view(seat) == game.view(seat)
    view = game.view(seat)
    assert view.revealed_routes is None and view.outcome is None
    assert view.own_route == (game.route(seat) if seat is not None else None)


@PROPS
@given(players, options, seeds, fractions)
def test_prop_copy_is_independent(n: int, opts: Options, seed: int, fraction: float) -> None:
    game, rng = prefix(n, opts, seed, fraction)
    before = state(game)
    clone = game.copy()
    assert state(clone) == before
    clone_rng = random.Random(seed)
    while not clone.is_over:
        clone.play(clone_rng.choice(clone.legal_moves()))
    assert state(game) == before
    snapshot = state(clone)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert state(clone) == snapshot


@PROPS
@given(players, options, seeds)
def test_prop_apply_and_play_agree(n: int, opts: Options, seed: int) -> None:
    """The fast, unchecked ``apply`` / ``apply_code`` and the checked ``play`` make the same
    game."""
    played, rng = new_game(n, opts, seed)
    applied = Game.new(n, seed=seed, options=opts)
    coded = Game.new(n, seed=seed, options=opts)
    while not played.is_over:
        move = rng.choice(played.legal_moves())
        assert played.legal_codes() == coded.legal_codes()
        played.play(move)
        applied.apply(move)
        coded.apply_code(coded.encode(move))
        assert state(applied) == state(played)
        assert state(coded) == state(played)


@PROPS
@given(players, st.sampled_from([None, *ALL_OPTIONS]), seeds, st.one_of(st.none(), fractions))
def test_prop_replay_summary_equals_the_reference_engine(
    n: int, opts: Options | None, seed: int, fraction: float | None
) -> None:
    """Our ``replay_summary`` equals the independent reference engine's on random records,
    with and without options, complete and partial."""
    ref_options = (
        None if opts is None else {"small_tour": opts.small_tour, "final_tours": opts.final_tours}
    )
    limit = None if fraction is None else round(fraction * 60 // (n + 1) * n)
    data = ref_engine.random_record(REF_BOARD, n, seed, ref_options, limit)
    if opts is None:
        data.pop("options")
    expected = ref_engine.replay_summary(REF_BOARD, data)
    got = replay_summary(parse_record(json.loads(json.dumps(data))))
    assert got == expected


@PROPS
@given(players, options, seeds)
def test_prop_every_position_agrees_with_the_reference_engine(
    n: int, opts: Options, seed: int
) -> None:
    """Move by move, the legal moves and the whole public state equal the reference's."""
    game, rng = new_game(n, opts, seed)
    ref = ref_game(REF_BOARD, game)
    while not game.is_over:
        legal = game.legal_moves()
        assert sorted((m.tile, m.evict) for m in legal) == sorted(
            ref.legal_moves(), key=lambda m: (m[0], -1 if m[1] is None else m[1])
        )
        assert game.to_move == ref.current_seat()
        move = rng.choice(legal)
        game.play(move)
        ref.play(move.tile, move.evict)
        assert our_state_for_ref(game) == ref_state(ref, game.board)
    outcome = game.outcome()
    assert outcome is not None
    assert list(outcome.winners) == ref.winners()
    assert [list(s) for s in game.round_scores] == [r["scores"] for r in ref.round_scores]


@PROPS
@given(players, options, seeds, fractions, st.data())
def test_prop_determinizer_samples_are_consistent_with_the_view(
    n: int, opts: Options, seed: int, fraction: float, data: st.DataObject
) -> None:
    """A sampled full game (sampling.py) gives the seat exactly the view it was built from,
    holds the 60 tiles, and can be played to the end."""
    game, _ = prefix(n, opts, seed, fraction)
    seat = data.draw(st.sampled_from([None, *range(n)]))
    view = game.view(seat)
    sample = Determinizer(view).sample(random.Random(seed))
    assert sample.view(seat) == view
    assert Counter(t for st_ in sample.setup.stacks for t in st_) == Counter(game.board.all_tiles)
    sample.play_random(random.Random(seed))
    assert sample.is_over
