"""R5 Small tour (every round), and its `tile-line` variant."""

from __future__ import annotations

from typing import Any

import pytest

from paris_tui.core import Game, Options, ScoreEvent, TourEvent

from .helpers import crafted, our_state_for_ref, play_all, points, ref_game, ref_state, tours

TILE_LINE = Options(small_tour="tile-line")


def last_small_tour(events: list[Any]) -> TourEvent:
    (tour,) = tours(events, "small_tour")
    return tour


def check_against_reference(game: Game, ref_board: Any) -> None:
    """Replay the crafted game's moves in the reference engine: same state."""
    ref = ref_game(ref_board, Game.from_setup(game.setup, game.players, options=game.options))
    for m in game.moves:
        ref.play(m.tile, m.evict)
    assert our_state_for_ref(game) == ref_state(ref, game.board)


def test_r5_rulebook_example_grey_two_violet_zero(ref_board: Any) -> None:
    """R5 example (rulebook): "S empty, two businesses of grey at distance 2 on either side,
    violet at distance 3 -> grey scores 2, violet 0".

    On the classic board: S = Pont Neuf (plain, yellow line), grey (seat 0) at Concorde and
    Marais (2 stops either side), violet (seat 1) at Bastille (3 stops away).
    """
    game = crafted(
        2,
        [
            ["concorde/yellow", "bastille/yellow", "tour-eiffel/red"],
            ["luxembourg/green", "marais/yellow", "pont-neuf/yellow"],
        ],
    )
    play_all(game, ["concorde/yellow", "bastille/yellow"])  # round 0: grey, violet
    before = list(game.scores)
    events = play_all(game, ["luxembourg/green", "marais/yellow"])  # round 1: violet, grey
    assert game.businesses_at("pont-neuf") == ()
    assert game.businesses_at("louvre") == () and game.businesses_at("pompidou") == ()
    tour = last_small_tour(events)
    assert tour.stop == "pont-neuf" and tour.line == "yellow"
    assert sorted(tour.stops) == ["concorde", "marais"]
    assert points(events, 2, "small_tour") == [2, 0]
    assert [game.scores[p] - before[p] for p in range(2)] == [2, 0]
    reasons = {(e.stop, e.distance, e.origin) for e in events if isinstance(e, ScoreEvent)}
    assert reasons == {("concorde", 2, "pont-neuf"), ("marais", 2, "pont-neuf")}
    check_against_reference(game, ref_board)


def test_r5_occupied_stop_each_business_there_scores(ref_board: Any) -> None:
    """R5: "If S holds any business, each business at S scores 1 point for its owner"."""
    game = crafted(
        3, [["pompidou/yellow", "pompidou/green", "pont-neuf/yellow", "pompidou/yellow"]]
    )
    events = play_all(game, ["pompidou/yellow", "pompidou/green", "pont-neuf/yellow"])
    tour = last_small_tour(events)
    assert tour.stop == "pompidou" and tour.stops == ("pompidou",)
    # seat 2 at Pont Neuf, a neighbour, scores nothing: S itself is occupied
    assert points(events, 3, "small_tour") == [1, 1, 0]
    assert game.scores == [1, 1, 0]
    check_against_reference(game, ref_board)


def test_r5_occupied_crossing_with_two_businesses_of_one_owner(ref_board: Any) -> None:
    """R5: *each business* at S scores 1: two of one owner score 2."""
    game = crafted(
        2,
        [
            ["pompidou/yellow", "trocadero/blue", "etoile/blue"],
            ["tour-eiffel/red", "pompidou/green", "pompidou/yellow"],
        ],
    )
    play_all(game, ["pompidou/yellow", "trocadero/blue"])
    before = list(game.scores)
    events = play_all(game, ["tour-eiffel/red", "pompidou/green"])
    assert game.businesses_at("pompidou") == (0, 0)
    assert points(events, 2, "small_tour") == [2, 0]
    assert game.scores[0] - before[0] == 2 and game.scores[1] == before[1]
    (event,) = [e for e in events if isinstance(e, ScoreEvent)]
    assert event.points == 2 and event.stop == "pompidou" and event.here == 2
    check_against_reference(game, ref_board)


def test_r5_occupied_plain_stop_nearer_businesses_do_not_matter(ref_board: Any) -> None:
    game = crafted(
        3,
        [
            ["louvre/yellow", "pont-neuf/yellow", "concorde/yellow", "trocadero/blue"],
            ["etoile/blue", "opera/pink", "luxembourg/green", "louvre/yellow"],
        ],
    )
    play_all(game, ["louvre/yellow", "pont-neuf/yellow", "concorde/yellow"])
    before = list(game.scores)
    events = play_all(game, ["etoile/blue", "opera/pink", "luxembourg/green"])
    assert points(events, 3, "small_tour") == [1, 0, 0]
    assert [game.scores[p] - before[p] for p in range(3)] == [1, 0, 0]
    check_against_reference(game, ref_board)


def test_r5_crossing_looks_along_both_lines(ref_board: Any) -> None:
    """R5: "look along every line through S (both lines at a crossing)": the nearest
    business is on the other line than the left-over tile's colour."""
    game = crafted(2, [["madeleine/pink", "pont-neuf/yellow", "concorde/yellow"]])
    events = play_all(game, ["madeleine/pink", "pont-neuf/yellow"])
    tour = last_small_tour(events)
    assert tour.stop == "concorde" and tour.stops == ("madeleine",)
    assert points(events, 2, "small_tour") == [1, 0]
    check_against_reference(game, ref_board)


def test_r5_crossing_equal_distance_on_both_lines_all_score(ref_board: Any) -> None:
    """R5: "Every business at every stop at distance d (on any of those lines, in any
    direction) scores"."""
    game = crafted(3, [["louvre/yellow", "invalides/pink", "trocadero/blue", "concorde/pink"]])
    events = play_all(game, ["louvre/yellow", "invalides/pink", "trocadero/blue"])
    assert sorted(last_small_tour(events).stops) == ["invalides", "louvre"]
    assert points(events, 3, "small_tour") == [1, 1, 0]
    check_against_reference(game, ref_board)


def test_r5_every_business_at_the_nearest_stops_scores(ref_board: Any) -> None:
    """At distance 2 from Louvre: Étoile (seat 2) and Pompidou (seats 0 and 1) all score."""
    game = crafted(3, [["pompidou/yellow", "pompidou/green", "etoile/blue", "louvre/yellow"]])
    events = play_all(game, ["pompidou/yellow", "pompidou/green", "etoile/blue"])
    assert sorted(last_small_tour(events).stops) == ["etoile", "pompidou"]
    assert points(events, 3, "small_tour") == [1, 1, 1]
    check_against_reference(game, ref_board)


def test_r5_the_bus_does_not_change_lines(ref_board: Any) -> None:
    """R5: "distance is counted in stops along that line, and the bus does not change lines":
    Madeleine is two hops from Louvre via Concorde, but not on the yellow line."""
    game = crafted(2, [["madeleine/pink", "bastille/yellow", "louvre/yellow"]])
    events = play_all(game, ["madeleine/pink", "bastille/yellow"])
    tour = last_small_tour(events)
    assert tour.stops == ("bastille",)
    assert points(events, 2, "small_tour") == [0, 1]
    assert [(e.distance, e.origin) for e in events if isinstance(e, ScoreEvent)] == [(4, "louvre")]
    check_against_reference(game, ref_board)


def test_r5_nobody_scores_when_no_line_through_s_has_a_business(ref_board: Any) -> None:
    """R5: "If no line through S has any business, nobody scores"."""
    game = crafted(2, [["trocadero/blue", "tour-eiffel/red", "luxembourg/green"]])
    events = play_all(game, ["trocadero/blue", "tour-eiffel/red"])
    tour = last_small_tour(events)
    assert tour.stop == "luxembourg" and tour.stops == ()
    assert not [e for e in events if isinstance(e, ScoreEvent)]
    assert game.scores == [0, 0]
    assert game.round_scores == [(0, 0)]
    check_against_reference(game, ref_board)


# --- the `tile-line` variant -------------------------------------------------------


def test_r5_variant_tile_line_looks_only_along_the_tiles_line(ref_board: Any) -> None:
    """R5 variant `small-tour: tile-line`: "look only along the line of the remaining tile's
    colour". Left-over Concorde (yellow): Madeleine (pink, 1 away) is ignored, Pont Neuf
    (yellow, 2 away) scores."""
    steps = ["madeleine/pink", "pont-neuf/yellow"]
    stacks = [["madeleine/pink", "pont-neuf/yellow", "concorde/yellow"]]
    both = crafted(2, stacks)
    both_events = play_all(both, steps)
    tile_line = crafted(2, stacks, options=TILE_LINE)
    tile_events = play_all(tile_line, steps)
    assert points(both_events, 2, "small_tour") == [1, 0]
    assert points(tile_events, 2, "small_tour") == [0, 1]
    assert last_small_tour(tile_events).stops == ("pont-neuf",)
    check_against_reference(tile_line, ref_board)


def test_r5_variant_tile_line_pink_tile_at_the_same_crossing(ref_board: Any) -> None:
    stacks = [["louvre/yellow", "invalides/pink", "trocadero/blue", "concorde/pink"]]
    steps = ["louvre/yellow", "invalides/pink", "trocadero/blue"]
    game = crafted(3, stacks, options=TILE_LINE)
    events = play_all(game, steps)
    assert last_small_tour(events).stops == ("invalides",)
    assert points(events, 3, "small_tour") == [0, 1, 0]
    check_against_reference(game, ref_board)


def test_r5_variant_tile_line_nobody_scores_although_the_other_line_has_one(
    ref_board: Any,
) -> None:
    stacks = [["madeleine/pink", "trocadero/blue", "concorde/yellow"]]
    game = crafted(2, stacks, options=TILE_LINE)
    events = play_all(game, ["madeleine/pink", "trocadero/blue"])
    assert last_small_tour(events).stops == ()
    assert game.scores == [0, 0]
    default = crafted(2, stacks)
    play_all(default, ["madeleine/pink", "trocadero/blue"])
    assert default.scores == [1, 0]
    check_against_reference(game, ref_board)


def test_r5_variant_tile_line_occupied_stop_still_scores(ref_board: Any) -> None:
    """The variant changes where the bus looks, not R5's first sentence."""
    game = crafted(
        3,
        [["pompidou/yellow", "pompidou/green", "pont-neuf/yellow", "pompidou/yellow"]],
        options=TILE_LINE,
    )
    events = play_all(game, ["pompidou/yellow", "pompidou/green", "pont-neuf/yellow"])
    assert points(events, 3, "small_tour") == [1, 1, 0]
    check_against_reference(game, ref_board)


@pytest.mark.parametrize("mode", ["both-lines", "tile-line"])
def test_r5_plain_stop_same_result_in_both_modes(mode: str, ref_board: Any) -> None:
    """At a plain stop there is one line through S: both modes agree (rulebook example)."""
    game = crafted(
        2,
        [
            ["concorde/yellow", "bastille/yellow", "tour-eiffel/red"],
            ["luxembourg/green", "marais/yellow", "pont-neuf/yellow"],
        ],
        options=Options(small_tour=mode),  # type: ignore[arg-type]
    )
    play_all(game, ["concorde/yellow", "bastille/yellow", "luxembourg/green", "marais/yellow"])
    assert game.round_scores[1][0] - game.round_scores[0][0] == 2
    assert game.round_scores[1][1] - game.round_scores[0][1] == 0
    check_against_reference(game, ref_board)
