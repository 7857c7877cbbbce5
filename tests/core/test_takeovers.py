"""R4 Opening a business and takeovers, C1 (empty supply), illegal moves."""

from __future__ import annotations

import pytest

from paris_tui.core import (
    BusinessOpened,
    BusinessRemoved,
    Game,
    IllegalMoveError,
    Move,
    NothingOpened,
)

from .helpers import crafted, our_state_for_ref, play_all, ref_game, ref_state


def test_r4_opening_a_business_at_a_free_stop() -> None:
    """R4/R3.2: the taker opens one business at the tile's stop, from their supply."""
    game = crafted(3, [["louvre/yellow", "opera/pink", "trocadero/blue", "etoile/blue"]])
    events = game.play(Move("louvre/yellow"))
    assert BusinessOpened(0, 0, "louvre/yellow", "louvre") in events
    assert game.businesses_at("louvre") == (0,)
    assert game.supply == [18, 19, 19]
    assert game.on_board() == [1, 0, 0]


def test_r4_takeover_at_a_plain_stop_three_players_goes_to_the_sack() -> None:
    """R4: "If the stop is full, the player opening the business first removes one of the
    businesses there"; another's business goes "into the sack (3-4 players)"."""
    game = crafted(
        3,
        [
            ["louvre/yellow", "opera/pink", "trocadero/blue", "etoile/blue"],
            ["louvre/yellow", "luxembourg/green", "tour-eiffel/red", "etoile/blue"],
        ],
    )
    play_all(game, ["louvre/yellow", "opera/pink", "trocadero/blue"])
    assert game.to_move == 1
    full = [m for m in game.legal_moves() if m.tile == "louvre/yellow"]
    assert full == [Move("louvre/yellow", 0)]  # the only choice at a full plain stop
    events = game.play(Move("louvre/yellow", 0))
    assert BusinessRemoved(1, 0, "louvre", 1, "sack") in events
    assert game.businesses_at("louvre") == (1,)
    assert game.sack == [1, 0, 0]
    assert game.supply == [18, 17, 18]
    assert game.view(None).sack_total == 1


def test_r4_takeover_at_a_plain_stop_four_players_goes_to_the_sack() -> None:
    game = crafted(
        4,
        [["louvre/yellow", "louvre/yellow", "opera/pink", "trocadero/blue", "etoile/blue"]],
    )
    game.play(Move("louvre/yellow"))
    events = game.play(Move("louvre/yellow", 0))
    assert BusinessRemoved(0, 0, "louvre", 1, "sack") in events
    assert game.sack == [1, 0, 0, 0]
    assert game.supply == [18, 18, 19, 19]


def test_r4_removing_own_business_returns_it_to_own_supply() -> None:
    """R4: a removed business goes "back to its owner's supply if the remover removed their
    own business"."""
    game = crafted(
        3,
        [
            ["louvre/yellow", "opera/pink", "trocadero/blue", "etoile/blue"],
            ["luxembourg/green", "tour-eiffel/red", "louvre/yellow", "etoile/blue"],
        ],
    )
    play_all(game, ["louvre/yellow", "opera/pink", "trocadero/blue"])
    play_all(game, ["luxembourg/green", "tour-eiffel/red"])
    assert game.to_move == 0 and game.supply[0] == 18
    events = game.play(Move("louvre/yellow", 0))
    assert BusinessRemoved(1, 0, "louvre", 0, "supply") in events
    assert game.businesses_at("louvre") == (0,)
    assert game.supply[0] == 18  # one back, one out again
    assert game.sack == [0, 0, 0]


def test_r4_two_players_another_business_returns_to_its_owner() -> None:
    """R4: "back to its owner's supply in a 2-player game"."""
    game = crafted(2, [["louvre/yellow", "louvre/yellow", "opera/pink"]])
    game.play(Move("louvre/yellow"))
    assert game.supply == [18, 19]
    events = game.play(Move("louvre/yellow", 0))
    assert BusinessRemoved(0, 0, "louvre", 1, "supply") in events
    assert game.businesses_at("louvre") == (1,)
    assert game.supply == [19, 18]
    assert game.sack == [0, 0]


def test_r4_choice_of_victim_at_a_full_crossing_with_two_owners() -> None:
    """R4: "removes one of the businesses there, of their choice (any owner, their own
    included). The choice matters only at a full crossing with two different owners"."""
    game = crafted(3, [["pompidou/yellow", "pompidou/green", "pompidou/yellow", "opera/pink"]])
    play_all(game, ["pompidou/yellow", "pompidou/green"])
    assert game.businesses_at("pompidou") == (0, 1)
    legal = game.legal_moves()
    assert Move("pompidou/yellow", 0) in legal
    assert Move("pompidou/yellow", 1) in legal
    assert Move("pompidou/yellow") not in legal
    assert Move("opera/pink") in legal

    first = game.copy()
    events = first.play(Move("pompidou/yellow", 0))
    assert BusinessRemoved(0, 0, "pompidou", 2, "sack") in events
    assert sorted(first.businesses_at("pompidou")) == [1, 2]
    assert first.sack == [1, 0, 0]

    second = game.copy()
    second.play(Move("pompidou/yellow", 1))
    assert sorted(second.businesses_at("pompidou")) == [0, 2]
    assert second.sack == [0, 1, 0]


def test_r4_one_owner_may_hold_both_businesses_at_a_crossing() -> None:
    """R4: "One player may own both businesses at a crossing"; the next taker can only remove
    that owner's business."""
    game = crafted(
        2,
        [
            ["pompidou/yellow", "trocadero/blue", "opera/pink"],
            ["tour-eiffel/red", "pompidou/green", "etoile/blue"],
            ["pompidou/yellow", "luxembourg/green", "etoile/blue"],
        ],
    )
    play_all(game, ["pompidou/yellow", "trocadero/blue"])  # round 0: seats 0, 1
    play_all(game, ["tour-eiffel/red", "pompidou/green"])  # round 1: seats 1, 0
    assert game.businesses_at("pompidou") == (0, 0)
    assert game.supply == [17, 17]
    assert game.to_move == 0  # round 2 starts with seat 0
    mine = [m for m in game.legal_moves() if m.tile == "pompidou/yellow"]
    assert mine == [Move("pompidou/yellow", 0)]
    own = game.copy()
    own.play(Move("pompidou/yellow", 0))  # own business back to own supply, opened again
    assert own.businesses_at("pompidou") == (0, 0)
    assert own.supply == [17, 17]

    game.play(Move("etoile/blue"))
    assert game.to_move == 1
    theirs = [m for m in game.legal_moves() if m.tile == "pompidou/yellow"]
    assert theirs == [Move("pompidou/yellow", 0)]
    with pytest.raises(IllegalMoveError, match="seat 1 has no business at Pompidou"):
        game.play(Move("pompidou/yellow", 1))
    events = game.play(Move("pompidou/yellow", 0))
    assert BusinessRemoved(2, 0, "pompidou", 1, "supply") in events
    assert sorted(game.businesses_at("pompidou")) == [0, 1]
    assert game.supply == [17, 16]


def test_r4_full_crossing_choice_with_mover_as_one_owner() -> None:
    """At a crossing held by the mover and another seat, both removals are legal; removing
    one's own returns it to the supply, removing the other's (3 players) goes to the sack."""
    game = crafted(
        3,
        [
            ["pompidou/yellow", "pompidou/green", "opera/pink", "etoile/blue"],
            ["trocadero/blue", "luxembourg/green", "pompidou/yellow", "etoile/blue"],
        ],
    )
    play_all(game, ["pompidou/yellow", "pompidou/green", "opera/pink"])
    play_all(game, ["trocadero/blue", "luxembourg/green"])  # seats 1 and 2
    assert game.to_move == 0
    legal = [m for m in game.legal_moves() if m.tile == "pompidou/yellow"]
    assert legal == [Move("pompidou/yellow", 0), Move("pompidou/yellow", 1)]
    own = game.copy()
    events = own.play(Move("pompidou/yellow", 0))
    assert BusinessRemoved(1, 0, "pompidou", 0, "supply") in events
    assert own.sack == [0, 0, 0] and own.supply[0] == 18
    other = game.copy()
    events = other.play(Move("pompidou/yellow", 1))
    assert BusinessRemoved(1, 1, "pompidou", 0, "sack") in events
    assert other.sack == [0, 1, 0] and other.supply[0] == 17
    assert sorted(other.businesses_at("pompidou")) == [0, 0]


# --- C1: empty supply ----------------------------------------------------------


def _c1_policy(game: Game) -> Move:
    """Seat 0 never removes its own business; seat 1 removes seat 0's only when forced.

    Seat 0 is then never evicted (almost always) and empties its supply after 19 moves.
    """
    legal = game.legal_moves()
    if game.to_move == 0:
        pref = [m for m in legal if m.evict is None] or [m for m in legal if m.evict == 1]
    else:
        pref = [m for m in legal if m.evict in (None, 1)]
    return (pref or legal)[0]


def c1_game(need_full_stop: bool = False) -> Game:
    """A 2-player game at a move where seat 0's supply is empty (found deterministically)."""
    for seed in range(400):
        game = Game.new(2, seed=seed)
        while not game.is_over:
            if game.supply[game.to_move] == 0:
                full = [
                    t
                    for t in game.face_up
                    if len(game.businesses_at(t.split("/")[0]))
                    >= game.board.capacity[game.board.stop_index[t.split("/")[0]]]
                ]
                if full or not need_full_stop:
                    return game
            game.play(_c1_policy(game))
    raise AssertionError("no C1 position found")


def test_c1_empty_supply_takes_a_tile_and_opens_nothing(ref_board: object) -> None:
    """C1: "a player whose supply is empty still takes a tile (it leaves the game as usual)
    but opens no business and removes nothing. This can only happen in a 2-player game"."""
    game = c1_game(need_full_stop=True)
    seat = game.to_move
    assert game.supply[seat] == 0
    assert game.on_board()[seat] == 19
    legal = game.legal_moves()
    assert legal and all(m.evict is None for m in legal)
    assert sorted({m.tile for m in legal}) == sorted(set(game.face_up))
    occupancy = game.occupancy()
    out = game.tiles_out
    full_tile = next(
        t
        for t in game.face_up
        if len(game.businesses_at(t.split("/")[0]))
        >= game.board.capacity[game.board.stop_index[t.split("/")[0]]]
    )
    victim = game.businesses_at(full_tile.split("/")[0])[0]
    with pytest.raises(IllegalMoveError, match="C1"):
        game.copy().play(Move(full_tile, victim))
    events = game.play(Move(full_tile))
    assert any(
        isinstance(e, NothingOpened) and e.seat == seat and e.tile == full_tile for e in events
    )
    assert not [e for e in events if isinstance(e, BusinessOpened | BusinessRemoved)]
    assert game.supply[seat] == 0
    assert game.moves[-1] == Move(full_tile)
    assert game.tiles_out >= out + 1  # the tile left the game
    # nothing moved on the board (tours, if the round ended, do not move businesses)
    assert game.occupancy() == occupancy


def test_c1_matches_the_reference_engine(ref_board: object) -> None:
    game = c1_game(need_full_stop=True)
    moves = game.moves
    fresh = Game.from_setup(game.setup, 2)
    ref = ref_game(ref_board, fresh)  # type: ignore[arg-type]
    for m in moves:
        fresh.play(m)
        ref.play(m.tile, m.evict)
    while not fresh.is_over:
        m = fresh.legal_moves()[0]
        assert (m.tile, m.evict) in ref.legal_moves()
        fresh.play(m)
        ref.play(m.tile, m.evict)
        assert our_state_for_ref(fresh) == ref_state(ref, fresh.board)


def test_c1_cannot_happen_with_three_or_four_players() -> None:
    """C1: only in a 2-player game: 15 (12) rounds never use up 19 businesses."""
    for n in (3, 4):
        game = Game.new(n, seed=1)
        while not game.is_over:
            legal = game.legal_moves()
            game.play(next((m for m in legal if m.evict is None), legal[0]))
            assert min(game.supply) > 0


# --- illegal moves ---------------------------------------------------------------


@pytest.fixture
def full_plain() -> Game:
    """3 players, round 0: seat 0 opened at Louvre; seat 1 to move with a second Louvre tile."""
    game = crafted(3, [["louvre/yellow", "louvre/yellow", "opera/pink", "trocadero/blue"]])
    game.play(Move("louvre/yellow"))
    return game


def _illegal(game: Game, move: Move) -> str:
    before = (game.to_move, game.face_up, game.occupancy(), list(game.supply), game.moves)
    assert not game.is_legal(move)
    assert game.why_illegal(move)
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    after = (game.to_move, game.face_up, game.occupancy(), list(game.supply), game.moves)
    assert before == after, "an illegal move changed the game"
    return str(info.value)


def test_r4_illegal_tile_not_face_up(full_plain: Game) -> None:
    message = _illegal(full_plain, Move("pompidou/green"))
    assert "not face up" in message and "pompidou/green" in message


def test_r4_illegal_tile_taken_already_this_round() -> None:
    game = crafted(3, [["louvre/yellow", "opera/pink", "trocadero/blue", "etoile/blue"]])
    game.play(Move("louvre/yellow"))
    assert "not face up" in _illegal(game, Move("louvre/yellow"))


@pytest.mark.parametrize("tile", ["nowhere/blue", "louvre/blue", "", "LOUVRE/yellow"])
def test_r4_illegal_unknown_tile(full_plain: Game, tile: str) -> None:
    assert "not a tile" in _illegal(full_plain, Move(tile))


def test_r4_illegal_evict_missing_at_a_full_stop(full_plain: Game) -> None:
    message = _illegal(full_plain, Move("louvre/yellow"))
    assert "Louvre is full" in message and "seat 0" in message


def test_r4_illegal_evict_at_a_non_full_stop(full_plain: Game) -> None:
    message = _illegal(full_plain, Move("opera/pink", 0))
    assert "not full" in message and "Opéra" in message


def test_r4_illegal_evict_of_a_seat_with_no_business_there(full_plain: Game) -> None:
    for seat in (1, 2, 3, -1, 7):
        message = _illegal(full_plain, Move("louvre/yellow", seat))
        assert f"seat {seat} has no business" in message and "Louvre" in message


@pytest.mark.parametrize("evict", [False, True, 0.0, "0"])
def test_r4_illegal_evict_of_the_wrong_type(full_plain: Game, evict: object) -> None:
    """``evict`` is a seat number: ``False`` is not seat 0."""
    _illegal(full_plain, Move("louvre/yellow", evict))  # type: ignore[arg-type]


def test_r4_illegal_once_the_game_is_over() -> None:
    game = Game.new(2, seed=4)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert game.legal_moves() == [] and game.legal_codes() == []
    tile = game.setup.stacks[-1][0]
    assert "game is over" in _illegal(game, Move(tile))


def test_r4_illegal_move_message_names_the_seat(full_plain: Game) -> None:
    with pytest.raises(IllegalMoveError, match="seat 1"):
        full_plain.play(Move("louvre/yellow"))
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_r4_legal_moves_are_exactly_the_legal_ones() -> None:
    """Every legal move passes ``why_illegal``; every other (tile, evict) fails it."""
    for n in (2, 3, 4):
        game = Game.new(n, seed=n)
        while not game.is_over:
            legal = set(game.legal_moves())
            assert len(legal) == len(game.legal_moves())  # distinct
            assert [game.decode(c) for c in game.legal_codes()] == game.legal_moves()
            for tile in set(game.face_up):
                for evict in (None, *range(n)):
                    move = Move(tile, evict)
                    assert game.is_legal(move) == (move in legal)
            game.play(sorted(legal)[-1])
