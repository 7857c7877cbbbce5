"""The core reports codes and numbers, never sentences: each illegal move has its code."""

from __future__ import annotations

import pytest

from paris_tui.core import Game, Illegal, IllegalMoveError, Move


def _full_stop_game() -> tuple[Game, str]:
    """A game where the seat to move faces a full stop (a takeover is on offer)."""
    for seed in range(200):
        game = Game.new(["Ann", "Bob", "Cy"], seed=seed)
        while not game.is_over:
            moves = game.legal_moves()
            taking = [m for m in moves if m.evict is not None]
            if taking:
                return game, taking[0].tile
            game.play(moves[0])
    raise AssertionError("no takeover in 200 games")  # pragma: no cover


def test_each_illegal_move_has_its_code() -> None:
    game = Game.new(["Ann", "Bob"], seed=3)
    up = game.face_up[0]
    assert game.check(Move(up)) is None
    assert game.check(Move("nowhere/blue")) == Illegal("unknown_tile", tile="'nowhere/blue'")
    hidden = next(t for t in game.board.tile_index if t not in game.face_up)
    illegal = game.check(Move(hidden))
    assert illegal is not None and illegal.code == "not_face_up"
    assert illegal.face_up == tuple(game.face_up)
    illegal = game.check(Move(up, evict=0))
    assert illegal is not None and illegal.code == "not_full"
    board = game.board
    assert illegal.stop == board.stop_ids[board.tile_stop[board.tile_index[up]]]


def test_a_full_stop_wants_a_removal_of_a_business_that_is_there() -> None:
    game, tile = _full_stop_game()
    illegal = game.check(Move(tile))
    assert illegal is not None and illegal.code == "must_remove" and illegal.seats
    stranger = next(p for p in range(4) if p not in illegal.seats)
    wrong = game.check(Move(tile, evict=stranger))
    assert wrong is not None and wrong.code == "no_such_business"
    assert wrong.stop == illegal.stop


def test_the_error_carries_the_code_and_an_english_line() -> None:
    game = Game.new(["Ann", "Bob"], seed=3)
    with pytest.raises(IllegalMoveError) as info:
        game.play(Move("nowhere/blue"))
    assert info.value.illegal is not None and info.value.illegal.code == "unknown_tile"
    assert "is not a tile of this board" in str(info.value)
    assert game.why_illegal(Move("nowhere/blue")) == info.value.illegal.explain(game.board)


def test_a_finished_game_refuses_with_game_over() -> None:
    game = Game.new(["Ann", "Bob"], seed=5)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert game.check(Move("louvre/blue")) == Illegal("game_over")
