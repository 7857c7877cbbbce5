"""R2 Set-up: stacks, route markers, seeding."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paris_tui.core import BUSINESSES_PER_SEAT, Board, Game, RecordError, Setup, deal

from .helpers import make_setup


@pytest.mark.parametrize(("n", "stacks", "size"), [(2, 20, 3), (3, 15, 4), (4, 12, 5)])
def test_r2_stack_counts_and_sizes(board: Board, n: int, stacks: int, size: int) -> None:
    """R2.2: "Shuffle the 60 tiles into stacks of n+1 tiles: 20 stacks of 3 (n=2), 15 of 4
    (n=3), 12 of 5 (n=4)"."""
    for seed in range(5):
        game = Game.new(n, seed=seed)
        setup = game.setup
        assert len(setup.stacks) == stacks
        assert all(len(s) == size for s in setup.stacks)
        assert Counter(t for s in setup.stacks for t in s) == Counter(board.all_tiles)
        assert game.rounds_total == stacks
        assert game.total_moves == stacks * n


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_routes_all_different_public_only_with_two(board: Board, n: int) -> None:
    """R2.3: one secret marker per seat; "With 2 players one more marker is placed face up
    (the public route)"."""
    for seed in range(30):
        game = Game.new(n, seed=seed)
        routes = game.setup.routes
        assert len(routes) == n
        assert len(set(routes)) == n
        assert set(routes) <= set(board.line_ids)
        assert [game.route(p) for p in range(n)] == list(routes)
        if n == 2:
            assert game.public_route in board.line_ids
            assert game.public_route not in routes
            assert game.setup.public_route == game.public_route
        else:
            assert game.public_route is None
            assert game.setup.public_route is None


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_initial_state(n: int) -> None:
    """R2.1 seat 0 starts; R1: each player has 19 businesses in supply at the start."""
    game = Game.new(n, seed=11)
    assert BUSINESSES_PER_SEAT == 19
    assert game.round == 0 and game.to_move == 0 and game.starter == 0
    assert game.supply == [19] * n
    assert game.scores == [0] * n
    assert game.sack == [0] * n
    assert sorted(game.face_up) == sorted(game.setup.stacks[0])
    assert game.discard == ()
    assert all(not o for o in game.occupancy())
    assert not game.is_over and game.outcome() is None
    assert game.stacks_left() == game.rounds_total - 1
    assert game.moves == [] and game.round_scores == []


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_same_seed_same_game(n: int) -> None:
    a = Game.new(n, seed=1234)
    b = Game.new(n, seed=1234)
    assert a.setup == b.setup
    rng_a, rng_b = random.Random(5), random.Random(5)
    while not a.is_over:
        a.play(rng_a.choice(a.legal_moves()))
        b.play(rng_b.choice(b.legal_moves()))
    assert a.outcome() == b.outcome()
    assert Game.new(n, rng=random.Random(1234)).setup == a.setup


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_different_seeds_differ(n: int) -> None:
    setups = [Game.new(n, seed=s).setup for s in range(40)]
    assert len({s.stacks for s in setups}) == 40
    assert len({s.routes for s in setups}) > 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_deal_is_the_setup_of_new(board: Board, n: int) -> None:
    """``deal(board, n, Random(s))`` is the setup of ``Game.new(n, seed=s)``."""
    for seed in range(20):
        assert deal(board, n, random.Random(seed)) == Game.new(n, seed=seed).setup


def test_r2_names_or_count() -> None:
    game = Game.new(["Ann", "Bob", "Cy"], seed=3)
    assert game.names == ("Ann", "Bob", "Cy")
    assert game.players == 3
    assert Game.new(3, seed=3).setup == game.setup


@pytest.mark.parametrize("n", [0, 1, 5, 6])
def test_r2_two_to_four_players_only(n: int) -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        Game.new(n, seed=1)
    setup = make_setup(3, [])
    with pytest.raises(RecordError) as info:
        Game.from_setup(setup, n)
    assert info.value.where == "players"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_from_setup_reproduces_the_deal(n: int) -> None:
    game = Game.new(n, seed=99)
    again = Game.from_setup(game.setup, n)
    assert again.setup == game.setup
    assert again.face_up == game.face_up
    assert [again.route(p) for p in range(n)] == [game.route(p) for p in range(n)]


def test_r2_from_setup_accepts_lists() -> None:
    setup = make_setup(2, [])
    listy = Setup(
        [list(s) for s in setup.stacks],  # type: ignore[arg-type]
        list(setup.routes),  # type: ignore[arg-type]
        setup.public_route,
    )
    assert Game.from_setup(listy, 2).setup == setup
