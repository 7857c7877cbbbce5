"""The hint (issue 11): the strong search's view of each move, from the mover's view only."""

from __future__ import annotations

import pytest

from paris_tui.ai.hint import hint
from paris_tui.core import Game

from .conftest import VARIANTS, random_position
from .test_fairness import twin_games

SIMS = 200


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_view_same_hint(players: int) -> None:
    """Games differing only in others' routes and the stack order give the same hint."""
    for i in range(4):
        options = VARIANTS[i % len(VARIANTS)]
        game, other, seat = twin_games(300 * players + i, players, options)
        assert game.setup != other.setup
        view, other_view = game.view(seat), other.view(seat)
        assert view == other_view
        assert hint(view, seed=i, simulations=SIMS) == hint(other_view, seed=i, simulations=SIMS)


def test_every_legal_move_once_and_the_best_is_legal_and_most_visited() -> None:
    for i in range(12):
        game = random_position(40 + i, 2 + i % 3, VARIANTS[i % len(VARIANTS)])
        view = game.view(game.to_move)
        result = hint(view, seed=i, simulations=SIMS)
        assert sorted(e.move for e in result.moves) == sorted(view.legal_moves)
        assert result.best in view.legal_moves
        assert result.seat == game.to_move
        if len(view.legal_moves) > 1:
            assert result.simulations == SIMS
            assert sum(e.visits for e in result.moves) == SIMS
            best = result.for_move(result.best)
            assert best.visits == max(e.visits for e in result.moves)


def test_deterministic_for_a_seed() -> None:
    game = random_position(7, 3, VARIANTS[0], moves=10)
    view = game.view(game.to_move)
    assert hint(view, seed=5, simulations=SIMS) == hint(view, seed=5, simulations=SIMS)


def test_the_hint_is_the_strong_bots_move() -> None:
    from paris_tui.ai import make_ai

    for i in range(4):
        game = random_position(60 + i, 2 + i % 3, VARIANTS[0])
        view = game.view(game.to_move)
        bot = make_ai("strong", seed=i, simulations=SIMS)
        assert hint(view, seed=i, simulations=SIMS).best == bot.choose(view)


def test_the_reason_matches_the_engine() -> None:
    """The opened stop, and on a round's last move the left-over tile and its points."""
    checked = 0
    next_to_seen: list[bool] = []
    for i in range(30):
        game = random_position(80 + i, 2 + i % 3, VARIANTS[0])
        seat = game.to_move
        view = game.view(seat)
        result = hint(view, seed=i, simulations=SIMS)
        reason = result.reason
        after = game.copy()
        events = after.play(result.best)
        if game.supply[seat]:
            stop = result.best.tile.split("/")[0]
            assert reason.opened == stop
            assert reason.count_there == after.businesses_at(stop).count(seat)
            board = after.board
            near = board.neighbours[board.stop_index[stop]]
            mine = {board.stop_ids[s] for s in near if seat in after.businesses_at(s)}
            assert set(reason.next_to) == mine
            next_to_seen.append(bool(mine))
        else:
            assert reason.opened is None
        assert (reason.removed is None) == (result.best.evict is None)
        last = game.move_count % game.players == game.players - 1
        if last:
            checked += 1
            left = [t for t in game.face_up if t != result.best.tile] or [result.best.tile]
            assert reason.leftover_certain and reason.leftover == left[0]
            gained = after.scores[seat] - game.scores[seat]
            assert reason.small_points + reason.grand_points == gained or after.is_over
        else:
            assert not reason.leftover_certain
        del events
    assert checked >= 3
    assert any(next_to_seen) and not all(next_to_seen)  # both cases were checked


def test_refuses_a_view_without_the_turn() -> None:
    game = Game.new(2, seed=1)
    with pytest.raises(ValueError):
        hint(game.view(1 - game.to_move))
    with pytest.raises(ValueError):
        hint(game.view(None))
    with pytest.raises(ValueError):
        hint(game.view(game.to_move), simulations=0)


def test_cancelled_stops_the_search() -> None:
    from paris_tui.ai.hint import CANCEL_CHECK, HintCancelled

    game = random_position(9, 2, VARIANTS[0], moves=2)
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) >= 3

    with pytest.raises(HintCancelled):
        hint(game.view(game.to_move), simulations=100_000, cancelled=cancelled)
    assert len(asked) == 3  # after 3 * CANCEL_CHECK simulations, not 100,000
    assert CANCEL_CHECK < 1000
    # Never cancelled: the same hint as without the callback.
    view = game.view(game.to_move)
    assert hint(view, simulations=SIMS, cancelled=lambda: False) == hint(view, simulations=SIMS)


def test_the_list_is_sorted_by_its_own_shown_numbers() -> None:
    """Issue 18.10: the moves are listed by their margin as shown (one decimal), highest first
    (`−12.0` above `−12.2`); among equal shown margins the AI's choice comes first."""
    for i in range(12):
        game = random_position(140 + i, 2 + i % 3, VARIANTS[i % len(VARIANTS)])
        result = hint(game.view(game.to_move), seed=i, simulations=SIMS)
        shown = [round(e.margin, 1) for e in result.moves]
        assert shown == sorted(shown, reverse=True), shown
        top = [e.move for e in result.moves if round(e.margin, 1) == shown[0]]
        assert result.best not in top or top[0] == result.best
