"""The opponent model: other seats' routes judged from their public moves (R8)."""

from __future__ import annotations

import random

import pytest

from paris_tui.ai import make_ai
from paris_tui.ai.belief import RouteBelief
from paris_tui.core import Game, Options
from paris_tui.core.sampling import Determinizer

from .test_fairness import twin_games


def greedy_game(seed: int, players: int = 2, upto: int = 24) -> Game:
    """A game of greedy bots, played to move ``upto``."""
    game = Game.new(players, seed=seed)
    bots = [make_ai("greedy", seed=seed * 10 + p) for p in range(players)]
    while game.move_count < upto:
        game.apply(bots[game.to_move].choose(game.view(game.to_move)))
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_view_same_belief(players: int) -> None:
    for i in range(3):
        game, other, seat = twin_games(700 + 10 * players + i, players, Options())
        view = game.view(seat)
        assert view == other.view(seat)
        first = RouteBelief().weights(Determinizer(view))
        second = RouteBelief().weights(Determinizer(other.view(seat)))
        assert first == second


@pytest.mark.parametrize("players", [2, 3, 4])
def test_weights_are_a_distribution_over_the_lines_left(players: int) -> None:
    game = greedy_game(3, players, upto=3 * players)
    seat = game.to_move
    det = Determinizer(game.view(seat))
    weights = RouteBelief().weights(det)
    assert set(weights) == set(det.unknown_seats) == set(range(players)) - {seat}
    for lines in weights.values():
        assert set(lines) == set(det.unknown_lines)
        assert seat not in lines
        assert sum(lines.values()) == pytest.approx(1.0)
        assert all(0.0 < w < 1.0 for w in lines.values())


def test_no_move_yet_means_no_preference() -> None:
    game = Game.new(2, seed=4)
    weights = RouteBelief().weights(Determinizer(game.view(0)))
    assert list(weights[1].values()) == pytest.approx([1 / 3] * 3)


def test_routes_that_score_nothing_at_the_end_are_not_guessed() -> None:
    game = Game.new(2, seed=4, options=Options(final_tours="all-lines"))
    bots = [make_ai("greedy", seed=p) for p in range(2)]
    while game.move_count < 8:
        game.apply(bots[game.to_move].choose(game.view(game.to_move)))
    assert RouteBelief().weights(Determinizer(game.view(game.to_move))) == {}


def test_a_greedy_players_route_shows_in_its_moves() -> None:
    """Against greedy players the true route gets more than its uniform share on average."""
    shares = []
    for seed in range(12):
        game = greedy_game(seed)
        seat = game.to_move
        other = 1 - seat
        weights = RouteBelief().weights(Determinizer(game.view(seat)))
        shares.append(weights[other][game.route(other)])
    assert sum(shares) / len(shares) > 0.45


def test_what_was_worked_out_is_kept_and_gives_the_same_answer() -> None:
    game = greedy_game(5, upto=20)
    belief = RouteBelief()
    det = Determinizer(game.view(game.to_move))
    first = belief.weights(det)
    kept = len(belief._cache)
    assert kept > 0
    assert belief.weights(det) == first
    assert len(belief._cache) == kept
    assert RouteBelief().weights(det) == first


def test_weighted_routes_follow_the_weights() -> None:
    game = Game.new(2, seed=9)
    det = Determinizer(game.view(0))
    lines = det.unknown_lines
    assert len(lines) == 3
    rng = random.Random(1)
    only = {1: {lines[0]: 0.0, lines[1]: 1.0, lines[2]: 0.0}}
    assert {det.sample(rng, only).route(1) for _ in range(50)} == {lines[1]}
    skewed = {1: {lines[0]: 0.8, lines[1]: 0.2, lines[2]: 0.0}}
    drawn = [det.sample(rng, skewed).route(1) for _ in range(2000)]
    assert lines[2] not in drawn
    assert 0.75 < drawn.count(lines[0]) / len(drawn) < 0.85
    assert {det.sample(rng).route(1) for _ in range(100)} == set(lines)


def test_weighted_routes_stay_distinct_with_four_players() -> None:
    game = Game.new(4, seed=2)
    det = Determinizer(game.view(1))
    lines = det.unknown_lines
    favourite = {p: {lines[0]: 10.0} for p in det.unknown_seats}
    rng = random.Random(3)
    for _ in range(100):
        sample = det.sample(rng, favourite)
        routes = [sample.route(p) for p in range(4)]
        assert len(set(routes)) == 4
        assert routes[1] == game.route(1)


def test_imagine_replays_the_public_past_with_the_guessed_route() -> None:
    game = greedy_game(6, upto=14)
    det = Determinizer(game.view(0))
    for line in det.unknown_lines:
        past = det.imagine({1: line}, 9)
        assert past.moves == game.moves[:9]
        assert past.route(1) == line
        assert past.route(0) == game.route(0)
        assert past.view(None).occupancy == replay_to(game, 9).view(None).occupancy


def replay_to(game: Game, upto: int) -> Game:
    again = Game.from_setup(game.setup, game.names, options=game.options, board=game.board)
    for move in game.moves[:upto]:
        again.apply(move)
    return again
