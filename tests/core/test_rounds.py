"""R3 A round: the bus, the order of play, the taken and the left-over tile."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paris_tui.core import (
    BusinessOpened,
    Game,
    Move,
    RoundStarted,
    ScoreEvent,
    TileDiscarded,
    TourEvent,
)

from .helpers import ALL_OPTIONS, crafted, play_all


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r3_starting_player_is_round_mod_n_and_play_goes_clockwise(n: int) -> None:
    """R3: "The starting player of round r (r = 0, 1, ...) is seat r mod n" and R3.2: "from
    the starting player, clockwise, each player takes one face-up tile"."""
    for seed in range(4):
        game = Game.new(n, seed=seed)
        rng = random.Random(seed)
        i = 0
        started: list[RoundStarted] = []
        while not game.is_over:
            r = i // n
            assert game.round == r
            assert game.starter == r % n
            assert game.to_move == (r + i % n) % n
            assert game.view(None).to_move == game.to_move
            events = game.play(rng.choice(game.legal_moves()))
            opened = [e for e in events if isinstance(e, BusinessOpened)]
            assert all(e.seat == (r + i % n) % n for e in opened)
            started += [e for e in events if isinstance(e, RoundStarted)]
            i += 1
        assert i == game.total_moves == game.rounds_total * n
        assert [e.round for e in started] == list(range(1, game.rounds_total))
        assert all(e.starter == e.round % n for e in started)
        assert all(Counter(e.tiles) == Counter(game.setup.stacks[e.round]) for e in started)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r3_next_stack_is_turned_face_up(n: int) -> None:
    """R3.1: "the next stack is turned face up (n+1 tiles)"; the rounds use the stacks in
    order (R2.2)."""
    game = Game.new(n, seed=8)
    for r in range(game.rounds_total):
        assert game.round == r
        assert Counter(game.face_up) == Counter(game.setup.stacks[r])
        assert len(game.face_up) == n + 1
        for _ in range(n):
            game.play(game.legal_moves()[-1])
    assert game.is_over and game.face_up == ()


def test_r3_the_taken_tile_leaves_the_game() -> None:
    """R3.2: "The taken tile leaves the game"."""
    game = crafted(3, [["louvre/yellow", "louvre/yellow", "opera/pink", "trocadero/blue"]])
    before = Counter(game.face_up)
    out = game.tiles_out
    game.play(Move("louvre/yellow"))
    assert Counter(game.face_up) == before - Counter(["louvre/yellow"])
    assert game.tiles_out == out + 1
    assert game.discard == ()
    game.play(Move("opera/pink"))
    assert Counter(game.face_up) == Counter(["louvre/yellow", "trocadero/blue"])
    assert game.tiles_out == out + 2


def test_r3_small_tour_then_discard_then_grand_tour_on_a_colour_pair() -> None:
    """R3.3-R3.4: the small tour runs at the left-over tile's stop, then the tile is
    discarded; "If a tile of the same colour is already there, a grand tour runs on that
    colour's line (R6), then both tiles leave the game"."""
    game = crafted(
        2,
        [
            ["louvre/yellow", "trocadero/blue", "pont-neuf/yellow"],
            ["luxembourg/green", "tour-eiffel/red", "marais/yellow"],
        ],
    )
    events = play_all(game, ["louvre/yellow", "trocadero/blue"])
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("TourEvent") < kinds.index("TileDiscarded") < kinds.index("RoundStarted")
    assert TileDiscarded(0, "pont-neuf/yellow", False) in events
    assert game.discard == ("yellow",)
    assert game.tiles_out == 2  # the two taken tiles; pont-neuf/yellow is in the discard area

    events = play_all(game, ["luxembourg/green", "tour-eiffel/red"])
    small = [e for e in events if isinstance(e, TourEvent) and e.kind == "small_tour"]
    grand = [e for e in events if isinstance(e, TourEvent) and e.kind == "grand_tour"]
    assert len(small) == 1 and small[0].stop == "marais"
    assert len(grand) == 1 and grand[0].line == "yellow"
    assert grand[0].stops == ("etoile", "concorde", "pompidou", "bastille")
    assert (
        events.index(small[0])
        < events.index(TileDiscarded(1, "marais/yellow", True))
        < events.index(grand[0])
    )
    assert game.discard == ()  # both yellow tiles left the game
    assert game.tiles_out == 4 + 2
    assert game.round == 2


def test_r3_different_colours_wait_in_the_discard_area() -> None:
    game = crafted(
        2,
        [
            ["louvre/yellow", "trocadero/blue", "pont-neuf/yellow"],
            ["luxembourg/green", "tour-eiffel/red", "orsay/red"],
        ],
    )
    events = play_all(game, ["louvre/yellow", "trocadero/blue", "luxembourg/green"])
    events += game.play(Move("tour-eiffel/red"))
    assert not [e for e in events if isinstance(e, TourEvent) and e.kind == "grand_tour"]
    assert sorted(game.discard) == ["red", "yellow"]
    assert game.tiles_out == 4


@pytest.mark.parametrize("options", ALL_OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_r3_discard_area_never_holds_two_of_one_colour(n: int, options: object) -> None:
    """R3.4: "the discard area never holds two tiles of one colour": modelled independently
    from the left-over tiles of whole games."""
    for seed in range(6):
        game = Game.new(n, seed=seed, options=options)  # type: ignore[arg-type]
        rng = random.Random(seed)
        held: set[str] = set()
        while not game.is_over:
            r = game.round
            events = game.play(rng.choice(game.legal_moves()))
            discards = [e for e in events if isinstance(e, TileDiscarded)]
            grand = [e for e in events if isinstance(e, TourEvent) and e.kind == "grand_tour"]
            if not discards:
                assert not grand
                continue
            (d,) = discards
            assert d.round == r
            assert d.tile == game.view(None).leftovers[r]
            colour = d.tile.split("/")[1]
            assert d.grand_tour == (colour in held)
            if colour in held:
                held.remove(colour)
                assert [g.line for g in grand] == [colour]
            else:
                held.add(colour)
                assert not grand
            assert set(game.discard) == held
            assert len(game.discard) == len(set(game.discard))


def test_r3_every_round_has_exactly_one_small_tour() -> None:
    game = Game.new(4, seed=21)
    rng = random.Random(2)
    small_rounds: list[int] = []
    while not game.is_over:
        for e in game.play(rng.choice(game.legal_moves())):
            if isinstance(e, TourEvent) and e.kind == "small_tour":
                small_rounds.append(e.round)
            if isinstance(e, ScoreEvent) and e.kind == "small_tour":
                assert small_rounds and small_rounds[-1] == e.round
    assert small_rounds == list(range(game.rounds_total))
