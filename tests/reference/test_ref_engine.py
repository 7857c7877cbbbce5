"""Tests of the reference engine on hand-built situations (rules.md R1-R7)."""

import random
from collections import Counter
from pathlib import Path

import pytest

from tests.reference.ref_engine import (
    RefGame,
    deal,
    load_board,
    play_random_games,
    random_record,
    replay_summary,
    tile_line,
    tile_stop,
)

BOARD_PATH = Path(__file__).resolve().parents[2] / "paris_tui/core/data/board-classic.json"


@pytest.fixture(scope="module")
def board():
    return load_board(BOARD_PATH)


def make_game(board, n=3, options=None, seed=0):
    """A fresh game at round 0 with an empty board."""
    return RefGame.from_setup(board, n, deal(board, n, random.Random(seed)), options)


def put(game, stop, *seats):
    """Place businesses taken from the seats' supplies."""
    for seat in seats:
        game.businesses[stop].append(seat)
        game.supply[seat] -= 1


# ---------------------------------------------------------------- R1 board


def test_board_components(board):
    assert len(board.stops) == 25
    assert len(board.crossings) == 10
    assert len(board.tiles) == 60
    assert Counter(tile_line(t) for t in board.tiles) == dict.fromkeys(board.line_ids, 12)
    for line in board.line_ids:
        assert len(board.lines[line]) == 7
        assert len(board.line_crossings(line)) == 4
    for stop in board.crossings:
        assert len(board.neighbours[stop]) in (3, 4)
        assert board.capacity(stop) == 2
    tiles = Counter(tile_stop(t) for t in board.tiles)
    assert tiles["trocadero"] == 1  # plain end stop
    assert tiles["gare-du-nord"] == 2  # plain middle stop
    assert tiles["pompidou"] == 4  # crossing in the middle of both lines
    assert tiles["etoile"] == 3  # crossing at yellow's end
    assert sorted(board.neighbours["pompidou"]) == sorted(
        ["pont-neuf", "marais", "saint-nicolas", "hotel-de-ville"]
    )


# ---------------------------------------------------------------- R5 small tour


def test_small_tour_rulebook_example(board):
    # gare-du-nord is a plain blue stop: opera and pere-lachaise at distance 2,
    # etoile at distance 3.
    g = make_game(board)
    put(g, "opera", 0)
    put(g, "pere-lachaise", 0)
    put(g, "etoile", 1)
    g.small_tour("gare-du-nord/blue")
    assert g.scores == [2, 0, 0]


def test_small_tour_occupied_stop_scores_only_there(board):
    g = make_game(board)
    put(g, "pompidou", 2, 2)
    put(g, "pont-neuf", 0)
    g.small_tour("pompidou/green")
    assert g.scores == [0, 0, 2]


def test_small_tour_crossing_looks_along_both_lines(board):
    # pompidou: yellow neighbour marais (distance 1), green stop notre-dame
    # at distance 2: only the nearest scores.
    g = make_game(board)
    put(g, "marais", 0)
    put(g, "notre-dame", 1)
    g.small_tour("pompidou/green")
    assert g.scores == [1, 0, 0]
    # equal distances on the two lines: both score
    g = make_game(board)
    put(g, "marais", 0)
    put(g, "saint-nicolas", 1)
    put(g, "hotel-de-ville", 2, 1)
    g.small_tour("pompidou/yellow")
    assert g.scores == [1, 2, 1]


def test_small_tour_tile_line_variant(board):
    g = make_game(board, options={"small_tour": "tile-line"})
    put(g, "marais", 0)  # yellow, distance 1
    put(g, "notre-dame", 1)  # green, distance 2
    g.small_tour("pompidou/green")
    assert g.scores == [0, 1, 0]
    g.small_tour("pompidou/yellow")
    assert g.scores == [1, 1, 0]


def test_small_tour_nobody(board):
    g = make_game(board)
    g.small_tour("pompidou/green")
    assert g.scores == [0, 0, 0]
    g = make_game(board, options={"small_tour": "tile-line"})
    put(g, "marais", 0)
    g.small_tour("luxembourg/green")
    assert g.scores == [0, 0, 0]


# ---------------------------------------------------------------- R6 grand tour


def test_grand_tour_pompidou_example(board):
    g = make_game(board)
    put(g, "pompidou", 0, 1)  # green seat 0, yellow seat 1
    put(g, "pont-neuf", 1)
    put(g, "saint-nicolas", 1)
    g.grand_tour("yellow")
    assert g.scores == [1, 3, 0]


def test_grand_tour_c2_both_businesses_count_neighbours_once(board):
    g = make_game(board)
    put(g, "pompidou", 0, 0)
    put(g, "marais", 0)
    g.grand_tour("green")
    assert g.scores == [3, 0, 0]


def test_grand_tour_neighbour_crossing_counts_each_business(board):
    # montmartre (blue/green crossing) neighbours opera (a crossing)
    g = make_game(board)
    put(g, "montmartre", 1)
    put(g, "opera", 1, 1)
    g.grand_tour("green")  # visits montmartre, not opera
    assert g.scores == [0, 3, 0]
    g.grand_tour("blue")  # opera: 2 + 1 (montmartre), montmartre: 1 + 2
    assert g.scores == [0, 9, 0]


def test_grand_tour_no_business_at_crossing_scores_nothing(board):
    g = make_game(board)
    put(g, "pont-neuf", 0)
    put(g, "marais", 0)
    put(g, "gare-du-nord", 1)  # plain stop on blue: not visited
    g.grand_tour("yellow")
    g.grand_tour("blue")
    assert g.scores == [0, 0, 0]


# ---------------------------------------------------------------- R4 takeovers


def test_takeover_plain_stop_three_players_goes_to_sack(board):
    g = make_game(board, n=3)
    put(g, "trocadero", 2)
    g.open_business(1, "trocadero", 2)
    assert g.businesses["trocadero"] == [1]
    assert g.sack == [0, 0, 1]
    assert g.supply == [19, 18, 18]


def test_takeover_own_business_returns_to_supply(board):
    g = make_game(board, n=4)
    put(g, "trocadero", 3)
    g.open_business(3, "trocadero", 3)
    assert g.businesses["trocadero"] == [3]
    assert g.sack == [0, 0, 0, 0]
    assert g.supply[3] == 18


def test_takeover_two_players_returns_to_owner_supply(board):
    g = make_game(board, n=2)
    put(g, "pompidou", 0, 0)
    g.open_business(1, "pompidou", 0)
    assert sorted(g.businesses["pompidou"]) == [0, 1]
    assert g.supply == [18, 18]
    assert g.sack == [0, 0]


def test_takeover_crossing_choice(board):
    g = make_game(board, n=4)
    put(g, "pompidou", 0, 1)
    g.face_up = ["pompidou/green", "pompidou/yellow", "trocadero/blue"]
    g.turn = 2  # round 0: seat 2 to move
    assert g.current_seat() == 2
    assert g.legal_moves() == [
        ("pompidou/green", 0),
        ("pompidou/green", 1),
        ("pompidou/yellow", 0),
        ("pompidou/yellow", 1),
        ("trocadero/blue", None),
    ]
    g.play("pompidou/yellow", 1)
    assert sorted(g.businesses["pompidou"]) == [0, 2]
    assert g.sack == [0, 1, 0, 0]
    assert g.face_up == ["pompidou/green", "trocadero/blue"]


def test_full_crossing_one_owner_one_choice(board):
    g = make_game(board, n=3)
    put(g, "pompidou", 0, 0)
    g.face_up = ["pompidou/green", "pompidou/green"]
    assert g.legal_moves() == [("pompidou/green", 0)]


def test_c1_empty_supply(board):
    g = make_game(board, n=2)
    put(g, "trocadero", 1)
    g.supply[0] = 0
    g.face_up = ["trocadero/blue", "etoile/blue", "opera/blue"]
    assert g.legal_moves() == [
        ("trocadero/blue", None),
        ("etoile/blue", None),
        ("opera/blue", None),
    ]
    g.play("trocadero/blue", None)
    assert g.businesses["trocadero"] == [1]
    assert g.supply == [0, 18]
    assert g.face_up == ["etoile/blue", "opera/blue"]


# ---------------------------------------------------------------- R3 round flow


def test_round_end_small_tour_and_discard_grand_tour(board):
    g = make_game(board, n=2)
    put(g, "pompidou", 0)
    put(g, "marais", 0)
    g.discard = ["trocadero/blue", "luxembourg/green"]
    g.face_up = ["pompidou/green", "madeleine/pink", "orsay/red"]
    g.play("madeleine/pink")  # seat 0
    g.play("orsay/red")  # seat 1
    # small tour at pompidou: 1; grand tour green at pompidou: 1 + 1 (marais)
    assert g.scores == [3, 0]
    assert g.discard == ["trocadero/blue"]
    assert g.round == 1 and g.round_scores == [{"round": 0, "scores": [3, 0]}]
    assert g.current_seat() == 1
    assert g.face_up == g.stacks[1]


def test_round_end_discard_without_pair(board):
    g = make_game(board, n=2)
    g.discard = ["trocadero/blue"]
    g.face_up = ["pompidou/green", "madeleine/pink", "orsay/red"]
    g.play("madeleine/pink")
    g.play("orsay/red")
    assert g.discard == ["trocadero/blue", "pompidou/green"]


# ---------------------------------------------------------------- R7 game end


def test_special_tours_secret_routes_and_public_route(board):
    g = make_game(board, n=2)
    put(g, "pompidou", 0)
    put(g, "invalides", 1)
    g.routes = ["green", "red"]
    g.public_route = "yellow"
    g.end_game()
    # pompidou visited by green and yellow, invalides by red only
    assert g.finished and g.scores == [2, 1] and g.sack == [0, 0]


def test_special_tours_all_lines(board):
    g = make_game(board, n=3, options={"final_tours": "all-lines"})
    put(g, "pompidou", 0)
    put(g, "trocadero", 1)
    g.routes = ["blue", "blue", "blue"]  # ignored by the variant
    g.end_game()
    assert g.scores == [2, 0, 0]


def test_sack_strict_maximum(board):
    g = make_game(board, n=3)
    g.sack = [3, 1, 0]
    g.routes = ["blue", "red", "pink"]
    g.end_game()
    assert g.scores == [3, 0, 0]
    g = make_game(board, n=4)
    g.sack = [2, 2, 0, 1]
    g.end_game()
    assert g.scores == [0, 0, 0, 0]


def test_winners_tie_breaks(board):
    g = make_game(board, n=3)
    g.scores = [10, 10, 9]
    put(g, "trocadero", 0)
    put(g, "opera", 0)
    put(g, "luxembourg", 1)
    put(g, "marais", 2)
    assert g.winners() == [1]
    put(g, "bastille", 1)
    assert g.winners() == [0, 1]
    g.scores = [10, 11, 11]
    assert g.winners() == [2]


@pytest.mark.parametrize("n,rounds", [(2, 20), (3, 15), (4, 12)])
def test_number_of_rounds_and_conservation(board, n, rounds):
    for seed in range(5):
        rec = random_record(board, n, seed)
        assert Counter(t for s in rec["setup"]["stacks"] for t in s) == Counter(board.tiles)
        assert all(len(s) == n + 1 for s in rec["setup"]["stacks"])
        assert len(rec["moves"]) == rounds * n
        summary = replay_summary(board, rec)
        assert [r["round"] for r in summary["rounds"]] == list(range(rounds))
        assert summary["finished"] and summary["players"] == n
        g = RefGame.from_setup(board, n, rec["setup"], rec["options"])
        for _k, move in enumerate(rec["moves"]):
            # "evict" only when the stop is full and the mover has supply
            stop = tile_stop(move["tile"])
            required = g.is_full(stop) and g.supply[g.current_seat()] > 0
            assert ("evict" in move) == required
            g.play(move["tile"], move.get("evict"))
            # tile conservation: gone + face-up + discard + future stacks = 60
            future = [t for s in g.stacks[g.round + 1 :] for t in s]
            assert Counter(g.gone + g.face_up + g.discard + future) == Counter(board.tiles)
            assert len({tile_line(t) for t in g.discard}) == len(g.discard)
            # business conservation
            counts = g.on_board()
            for seat in range(n):
                assert g.supply[seat] + counts[seat] + g.sack[seat] == 19
        assert g.finished and g.final() == summary["final"]
        if n == 2:
            assert summary["final"]["sack"] == [0, 0]


def test_partial_record(board):
    rec = random_record(board, 3, 7, moves_limit=10)
    assert len(rec["moves"]) == 10
    summary = replay_summary(board, rec)
    assert len(summary["rounds"]) == 3  # 10 moves = 3 full rounds + 1
    assert summary["finished"] is False and summary["final"] is None


def test_record_shape_and_determinism(board):
    rec = random_record(board, 2, 3, options={"small_tour": "tile-line"})
    assert rec == random_record(board, 2, 3, options={"small_tour": "tile-line"})
    assert rec["format"] == "paris-paris-record" and rec["version"] == 1
    assert rec["players"] == [{"name": "P0", "kind": "human"}, {"name": "P1", "kind": "human"}]
    assert rec["options"] == {"small_tour": "tile-line", "final_tours": "secret"}
    routes = rec["setup"]["routes"] + [rec["setup"]["public_route"]]
    assert len(set(routes)) == 3
    assert random_record(board, 3, 3)["setup"]["public_route"] is None


def test_play_random_games(board):
    assert play_random_games(board, 4, 3, 1) == 3
