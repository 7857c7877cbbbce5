"""R6 Grand tour (when triggered), C2."""

from __future__ import annotations

from typing import Any

from paris_tui.core import Game, ScoreEvent

from .helpers import (
    crafted,
    grand_tour_points,
    our_state_for_ref,
    play_all,
    points,
    ref_game,
    ref_state,
    tours,
)

YELLOW_CROSSINGS = ("etoile", "concorde", "pompidou", "bastille")


def check_against_reference(game: Game, ref_board: Any) -> None:
    ref = ref_game(ref_board, Game.from_setup(game.setup, game.players, options=game.options))
    for m in game.moves:
        ref.play(m.tile, m.evict)
    assert our_state_for_ref(game) == ref_state(ref, game.board)


def grand_events(events: list[Any]) -> list[ScoreEvent]:
    return [e for e in events if isinstance(e, ScoreEvent) and e.kind == "grand_tour"]


def test_r6_online_guide_pompidou_example_green_1_yellow_3(ref_board: Any) -> None:
    """R6 example (online guide): "a tour reaches Pompidou; green has one business there,
    yellow one business there and businesses on two of Pompidou's neighbours -> green 1,
    yellow 3". Green is seat 0, yellow seat 1; yellow's neighbours are Pont Neuf (on the
    yellow line) and Saint-Nicolas (on the green line: "whatever line joins them")."""
    game = crafted(
        2,
        [
            ["pompidou/green", "pompidou/yellow", "etoile/yellow"],  # yellow tile discarded
            ["pont-neuf/yellow", "luxembourg/green", "tour-eiffel/red"],
            ["trocadero/blue", "saint-nicolas/green", "bastille/yellow"],  # the second yellow
        ],
    )
    play_all(game, ["pompidou/green", "pompidou/yellow"])
    play_all(game, ["pont-neuf/yellow", "luxembourg/green"])
    expected = grand_tour_points(game, "yellow")
    events = play_all(game, ["trocadero/blue", "saint-nicolas/green"])
    (tour,) = tours(events, "grand_tour")
    assert tour.line == "yellow" and tour.stops == YELLOW_CROSSINGS
    grand = grand_events(events)
    assert points(events, 2, "grand_tour") == [1, 3]
    assert {(e.seat, e.points, e.stop, e.line) for e in grand} == {
        (0, 1, "pompidou", "yellow"),
        (1, 3, "pompidou", "yellow"),
    }
    # the independent R6 computation, made on the board before the last two moves, differs
    # only by yellow's Saint-Nicolas business
    assert [expected[0], expected[1] + 1] == [1, 3]
    assert grand_tour_points(game, "yellow") == [1, 3]
    check_against_reference(game, ref_board)


def test_c2_two_businesses_of_one_owner_count_the_neighbours_once(ref_board: Any) -> None:
    """C2: "owning both businesses at C does not count the neighbours twice": yellow (seat 1)
    holds both at Pompidou and two neighbours -> 2 + 2 = 4, not 2 + 4."""
    game = crafted(
        2,
        [
            ["trocadero/blue", "pompidou/yellow", "etoile/yellow"],
            ["pompidou/green", "luxembourg/green", "tour-eiffel/red"],
            ["gare-du-nord/blue", "pont-neuf/yellow", "madeleine/pink"],
            ["saint-nicolas/green", "opera/blue", "bastille/yellow"],
        ],
    )
    play_all(game, ["trocadero/blue", "pompidou/yellow"])
    play_all(game, ["pompidou/green", "luxembourg/green"])
    play_all(game, ["gare-du-nord/blue", "pont-neuf/yellow"])
    events = play_all(game, ["saint-nicolas/green", "opera/blue"])
    assert game.businesses_at("pompidou") == (1, 1)
    assert points(events, 2, "grand_tour") == [0, 4]
    (event,) = grand_events(events)
    assert event.stop == "pompidou" and event.here == 2
    assert event.near == 2
    check_against_reference(game, ref_board)


def test_r6_two_businesses_on_one_neighbour_both_count(ref_board: Any) -> None:
    """R6: "1 more point for every business of theirs on the neighbours of C": two at the
    neighbouring crossing Hôtel de Ville count 2."""
    game = crafted(
        2,
        [
            ["trocadero/blue", "pompidou/yellow", "etoile/yellow"],
            ["hotel-de-ville/red", "luxembourg/green", "tour-eiffel/red"],
            ["pere-lachaise/blue", "hotel-de-ville/green", "madeleine/pink"],
            ["gare-du-nord/blue", "opera/blue", "bastille/yellow"],
        ],
    )
    play_all(game, ["trocadero/blue", "pompidou/yellow"])
    play_all(game, ["hotel-de-ville/red", "luxembourg/green"])
    play_all(game, ["pere-lachaise/blue", "hotel-de-ville/green"])
    events = play_all(game, ["gare-du-nord/blue", "opera/blue"])
    assert game.businesses_at("hotel-de-ville") == (1, 1)
    assert points(events, 2, "grand_tour") == [0, 3]
    check_against_reference(game, ref_board)


def test_r6_no_business_at_the_crossing_scores_nothing_for_neighbours(ref_board: Any) -> None:
    """R6: "a player with no business at C scores nothing there, even for businesses on its
    neighbours": seat 0 at Marais and Hôtel de Ville, next to Pompidou, scores 0."""
    game = crafted(
        2,
        [
            ["marais/yellow", "pompidou/yellow", "etoile/yellow"],
            ["luxembourg/green", "hotel-de-ville/green", "tour-eiffel/red"],
            ["trocadero/blue", "pere-lachaise/blue", "bastille/yellow"],
        ],
    )
    play_all(game, ["marais/yellow", "pompidou/yellow"])
    play_all(game, ["luxembourg/green", "hotel-de-ville/green"])
    events = play_all(game, ["trocadero/blue", "pere-lachaise/blue"])
    assert tours(events, "grand_tour")
    assert points(events, 2, "grand_tour") == [0, 1]
    assert all(e.seat == 1 for e in grand_events(events))
    check_against_reference(game, ref_board)


def test_r6_plain_stops_are_not_visited(ref_board: Any) -> None:
    """R6: "Plain stops on L are not visited": businesses on yellow's plain stops (Louvre,
    Pont Neuf, Marais) score nothing in a yellow grand tour when no crossing is held."""
    game = crafted(
        2,
        [
            ["louvre/yellow", "marais/yellow", "etoile/yellow"],
            ["pont-neuf/yellow", "luxembourg/green", "tour-eiffel/red"],
            ["trocadero/blue", "gare-du-nord/blue", "bastille/yellow"],
        ],
    )
    play_all(game, ["louvre/yellow", "marais/yellow"])
    play_all(game, ["pont-neuf/yellow", "luxembourg/green"])
    events = play_all(game, ["trocadero/blue", "gare-du-nord/blue"])
    (tour,) = tours(events, "grand_tour")
    assert tour.stops == YELLOW_CROSSINGS
    assert points(events, 2, "grand_tour") == [0, 0]
    assert not grand_events(events)
    check_against_reference(game, ref_board)


def test_r6_every_crossing_of_the_line_is_visited(ref_board: Any) -> None:
    """All four crossings score: Étoile (seat 0) with Trocadéro next to it, Bastille (seat 1)."""
    game = crafted(
        2,
        [
            ["etoile/blue", "bastille/red", "etoile/yellow"],
            ["marais/yellow", "trocadero/blue", "tour-eiffel/red"],
            ["concorde/pink", "luxembourg/green", "bastille/yellow"],
        ],
    )
    play_all(game, ["etoile/blue", "bastille/red"])
    play_all(game, ["marais/yellow", "trocadero/blue"])
    expected = grand_tour_points(game, "yellow")
    events = play_all(game, ["concorde/pink", "luxembourg/green"])
    # seat 0: Étoile 1 + Trocadéro 1 + Concorde 1 + (Étoile is Concorde's neighbour) 1
    #         + (Concorde is Étoile's neighbour) 1 = 5; seat 1: Bastille 1 + Marais 1 = 2
    assert points(events, 2, "grand_tour") == [5, 2]
    assert expected == [2 + 0, 2]  # before Concorde was opened
    assert grand_tour_points(game, "yellow") == [5, 2]
    stops = [e.stop for e in grand_events(events)]
    assert stops == ["etoile", "concorde", "bastille"]  # in line order
    check_against_reference(game, ref_board)
