"""R8 Hidden information: what ``game.view(seat)`` holds, tested by construction.

Two games identical in public information but differing in hidden information (the other
seats' routes, the order and content of the face-down stacks) must give equal views.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from paris_tui.core import Game, Move, SeatView

from .helpers import ALL_OPTIONS, play_random, play_to_end, twin


@pytest.mark.parametrize("options", ALL_OPTIONS[:2])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_r8_equal_views_for_equal_public_information(n: int, options: Any) -> None:
    """R8: a seat may see the board, face-up tiles, discard area, scores, supplies and its own
    route; nobody sees the other routes or the stack order: changing only those leaves the
    seat's view equal (dataclass equality, field by field)."""
    rng = random.Random(n)
    for seed in range(4):
        game = Game.new(n, seed=seed, options=options)
        for stop_after in (0, 1, n, 7, game.total_moves // 2, game.total_moves - 1):
            probe = game.copy()
            play_random(probe, random.Random(seed), stop_after)
            for seat in [None, *range(n)]:
                other = twin(probe, seat, rng)
                assert other.setup != probe.setup
                assert other.view(seat) == probe.view(seat)
                # ... and the test is not vacuous: a seat whose route changed sees it
                changed = [p for p in range(n) if other.route(p) != probe.route(p)]
                assert changed and seat not in changed
                assert other.view(changed[0]) != probe.view(changed[0])


def test_r8_a_view_holds_only_its_own_route() -> None:
    """R8: "a seat's secret route marker: that seat only"; the public route: everyone."""
    for n in (2, 3, 4):
        game = Game.new(n, seed=n)
        for seat in range(n):
            view = game.view(seat)
            assert view.own_route == game.route(seat)
            assert view.public_route == game.public_route
            assert view.revealed_routes is None
            known = {view.own_route, view.public_route} - {None}
            assert set(view.unknown_routes()) == set(game.board.line_ids) - known
        spectator = game.view(None)
        assert spectator.own_route is None and spectator.seat is None
        assert spectator.revealed_routes is None
        assert spectator.legal_moves == ()
        assert not spectator.my_turn


def test_r8_no_per_seat_sack_count_before_the_end() -> None:
    """R8: "no panel shows a per-player sack count; the total in the sack is public"."""
    names = {f.name for f in dataclasses.fields(SeatView)}
    assert "sack" not in names
    assert {name for name in names if "sack" in name} == {"sack_total"}
    game = Game.new(4, seed=3)
    rng = random.Random(3)
    while sum(game.sack) == 0:
        game.play(rng.choice(game.legal_moves()))
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert view.sack_total == sum(game.sack)
        assert view.outcome is None


def test_r8_stack_order_is_not_in_the_view() -> None:
    """R8: "order of the face-down stacks: nobody"; the unseen tiles are given sorted."""
    game = Game.new(3, seed=9)
    play_random(game, random.Random(1), 10)
    view = game.view(1)
    assert list(view.unseen_tiles) == sorted(game.remaining_stack_tiles())
    assert view.stacks_left == game.stacks_left()
    for field in dataclasses.fields(SeatView):
        value = getattr(view, field.name)
        assert not isinstance(value, Game)
        if isinstance(value, list | dict | set):
            raise AssertionError(f"{field.name} is mutable")


def test_r8_view_public_fields_match_the_game() -> None:
    game = Game.new(3, seed=2)
    play_random(game, random.Random(2), 17)
    view = game.view(2)
    assert view.round == game.round and view.starter == game.starter
    assert view.to_move == game.to_move
    assert view.face_up == game.face_up and view.discard == game.discard
    assert view.scores == tuple(game.scores) and view.supply == tuple(game.supply)
    assert view.occupancy == game.occupancy()
    assert view.moves == tuple(game.moves)
    assert view.round_scores == tuple(game.round_scores)
    assert view.on_board() == tuple(game.on_board())
    # the left-over tile of each finished round is public
    for r, tile in enumerate(view.leftovers):
        taken = Counter(m.tile for m in game.moves[r * 3 : (r + 1) * 3])
        assert Counter(game.setup.stacks[r]) - taken == Counter([tile])
    assert len(view.leftovers) == game.round


def test_r8_legal_moves_only_for_the_seat_to_move() -> None:
    game = Game.new(3, seed=4)
    play_random(game, random.Random(4), 5)
    for seat in range(3):
        view = game.view(seat)
        if seat == game.to_move:
            assert view.my_turn and list(view.legal_moves) == game.legal_moves()
        else:
            assert not view.my_turn and view.legal_moves == ()


def test_r8_view_is_a_snapshot() -> None:
    game = Game.new(2, seed=6)
    view = game.view(0)
    again = game.view(0)
    game.play(game.legal_moves()[0])
    assert view == again
    assert view != game.view(0)


def test_r8_after_the_end_routes_and_outcome_are_revealed() -> None:
    """R7.1 "every seat's secret route marker is revealed" at the end."""
    for n in (2, 3, 4):
        game = Game.new(n, seed=n + 10)
        play_to_end(game)
        for seat in (None, *range(n)):
            view = game.view(seat)
            assert view.is_over
            assert view.revealed_routes == tuple(game.route(p) for p in range(n))
            assert view.outcome == game.outcome()
            assert view.to_move is None and view.legal_moves == () and view.face_up == ()
            assert view.unseen_tiles == ()


def test_r8_view_of_a_seat_that_does_not_exist() -> None:
    game = Game.new(2, seed=1)
    for seat in (-1, 2, 5):
        with pytest.raises(ValueError, match="no seat"):
            game.view(seat)


def test_r8_move_list_is_public_and_equal_across_seats() -> None:
    game = Game.new(4, seed=12)
    play_random(game, random.Random(12), 21)
    views = [game.view(s) for s in (None, 0, 1, 2, 3)]
    assert len({v.moves for v in views}) == 1
    assert all(isinstance(m, Move) for m in views[0].moves)
