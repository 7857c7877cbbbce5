"""Ratings (issue 22): openskill's Plackett-Luce, kept by the host, counted once.

The store tests run against both stores (``ratings``: SQLite in a data folder,
and the hosts' PostgreSQL database on the throwaway server of tests/pg.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from pg import PostgresServer

from paris_tui.host.ratings.store import (
    MU,
    SIGMA,
    GameResult,
    Rating,
    RatingStore,
    game_key,
    judge,
    new_ratings,
    open_ratings,
    ranks,
    shown,
)

HUMANS = {2: ["human"] * 2, 3: ["human"] * 3, 4: ["human"] * 4}


@pytest.fixture(params=["sqlite", "postgres"])
def ratings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RatingStore]:
    if request.param == "sqlite":
        store: RatingStore = open_ratings(tmp_path / "host")
    else:
        from paris_tui.host.ratings.postgres import PostgresRatings
        from paris_tui.host.store.postgres import connect_pool, ensure_schema

        server: PostgresServer = request.getfixturevalue("postgres")
        pool = connect_pool(server.dsn(server.create_database()), max_size=2)
        ensure_schema(pool)
        store = PostgresRatings(pool)
        request.addfinalizer(pool.close)
    yield store
    store.close()


def library(
    ratings_before: list[tuple[float, float]], places: list[int]
) -> list[tuple[float, float]]:
    """openskill's own answer, from a model made here with its defaults."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings_before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=places)]


# --- the rules ------------------------------------------------------------------------


def test_places_follow_r7_3_for_every_place_and_share_full_ties() -> None:
    # Higher score first; equal scores: fewer businesses on the board first.
    assert ranks([10, 12, 10, 8], [3, 5, 2, 1]) == [3, 1, 2, 4]
    # Level on both: a shared place (R7.3's shared win), the next place skipped.
    assert ranks([12, 12, 9], [4, 4, 1]) == [1, 1, 3]
    assert ranks([9, 12, 9, 9], [2, 1, 2, 7]) == [2, 1, 2, 4]


def test_a_leaver_is_ranked_last_whatever_they_scored() -> None:
    assert ranks([20, 10, 5], [1, 1, 1], leavers=[0]) == [3, 1, 2]
    assert ranks([20, 10, 5, 1], [1, 1, 1, 1], leavers=[0, 2]) == [3, 1, 3, 2]


def test_judge_rates_only_accounts_playing_to_the_end() -> None:
    owners = {0: 11, 1: 12, 2: 13}
    assert judge(HUMANS[3], owners, {}) == (None, ())
    assert judge(["human", "ai:strong", "human"], {0: 11, 2: 13}, {}) == ("ai_seat", ())
    assert judge(HUMANS[3], owners, {1: "returned"}) == ("takeover", ())
    assert judge(HUMANS[3], owners, {1: "takeover", 2: "returned"}) == ("leaver", (1,))
    assert judge(HUMANS[3], {0: 11, 1: 12}, {}) == ("no_account", ())
    assert judge(HUMANS[2], {0: 11, 1: 11}, {}) == ("same_person", ())
    # Two seats seen at one address (a digest of it): one person, as far as we can tell.
    assert judge(HUMANS[2], {0: 11, 1: 12}, {}, {0: {"x"}, 1: {"y"}}) == (None, ())
    assert judge(HUMANS[2], {0: 11, 1: 12}, {}, {0: {"x"}, 1: {"y", "x"}}) == (
        "same_person",
        (),
    )


@pytest.mark.parametrize(
    "places",
    [
        [1, 2],
        [2, 1],
        [1, 2, 3],
        [3, 1, 2],
        [1, 2, 3, 4],
        [2, 4, 1, 3],
        [1, 1],
        [1, 1, 3],
        [2, 1, 2, 4],
    ],
)
def test_an_update_is_openskills_own(places: list[int]) -> None:
    before = [Rating(i + 1, MU + 3 * i, SIGMA - i) for i in range(len(places))]
    after = new_ratings(before, places)
    expected = library([(r.mu, r.sigma) for r in before], places)
    assert [(r.mu, r.sigma) for r in after] == pytest.approx(expected, rel=1e-12)
    assert [r.games for r in after] == [1] * len(places)
    assert [r.account for r in after] == [r.account for r in before]


def test_the_shown_value_is_the_ordinal() -> None:
    assert shown(MU, SIGMA) == 0.0
    model = PlackettLuce()
    rating = model.rating(mu=31.2, sigma=4.1)
    assert shown(31.2, 4.1) == round(rating.ordinal(), 1)


def test_the_game_key_names_the_deal() -> None:
    one = {"setup": {"stacks": [["a"]]}, "players": [{"name": "ann"}], "moves": []}
    more = dict(one, moves=[{"tile": "x"}])
    other = dict(one, setup={"stacks": [["b"]]})
    assert game_key("t1", one) == game_key("t1", more)  # the moves do not change it
    assert game_key("t1", one) != game_key("t1", other)
    assert game_key("t1", one) != game_key("t2", one)


def test_a_result_reads_back_and_refuses_junk() -> None:
    result = GameResult(True, None, (1, 2), (), (0.0, 0.0), (1.5, -1.5))
    assert GameResult.from_json(result.to_json()) == result
    for junk in (
        {"rated": "yes"},
        {"rated": True, "reason": "x"},
        {"rated": True, "ranks": [9]},
        [],
    ):
        with pytest.raises(ValueError):
            GameResult.from_json(junk)


# --- the stores -----------------------------------------------------------------------


def test_a_rated_game_moves_every_rating_as_the_library_does(ratings: RatingStore) -> None:
    result = ratings.finish("t1:a", "t1", HUMANS[3], {0: 1, 1: 2, 2: 3}, [10, 14, 10], [2, 5, 1])
    assert result.rated and result.reason is None and result.ranks == (3, 1, 2)
    expected = library([(MU, SIGMA)] * 3, [3, 1, 2])
    held = ratings.ratings([1, 2, 3])
    assert [(held[a].mu, held[a].sigma) for a in (1, 2, 3)] == pytest.approx(expected)
    assert result.before == (0.0, 0.0, 0.0)
    assert result.after == tuple(shown(mu, sigma) for mu, sigma in expected)
    # A second game starts from the first's ratings (a tie for first place).
    ratings.finish("t2:b", "t2", HUMANS[2], {0: 2, 1: 1}, [9, 9], [3, 3])
    expected2 = library([expected[1], expected[0]], [1, 1])
    held = ratings.ratings([1, 2, 3])
    assert (held[2].mu, held[2].sigma) == pytest.approx(expected2[0])
    assert (held[1].mu, held[1].sigma) == pytest.approx(expected2[1])
    assert (held[1].games, held[2].games, held[3].games) == (2, 2, 1)
    board = ratings.leaderboard()
    assert [r.account for r in board] == sorted((1, 2, 3), key=lambda a: -held[a].shown)
    assert ratings.leaderboard(1) == board[:1]


def test_a_game_counts_once(ratings: RatingStore) -> None:
    first = ratings.finish("t1:a", "t1", HUMANS[2], {0: 1, 1: 2}, [10, 4], [1, 1])
    held = ratings.ratings([1, 2])
    again = ratings.finish("t1:a", "t1", HUMANS[2], {0: 1, 1: 2}, [10, 4], [1, 1])
    assert again == first and again.replayed and not first.replayed
    assert ratings.ratings([1, 2]) == held
    assert ratings.result("t1:a") == first
    assert ratings.result("t9:z") is None


@pytest.mark.parametrize(
    ("kinds", "owners", "marks", "reason", "places"),
    [
        (["human", "ai:greedy"], {0: 1}, {}, "ai_seat", (2, 1)),
        (HUMANS[2], {0: 1, 1: 2}, {1: "returned"}, "takeover", (2, 1)),
        (HUMANS[3], {0: 1, 1: 2, 2: 3}, {1: "takeover"}, "leaver", (2, 3, 1)),
    ],
)
def test_unrated_games_move_no_rating(
    ratings: RatingStore,
    kinds: list[str],
    owners: dict[int, int],
    marks: dict[int, str],
    reason: str,
    places: tuple[int, ...],
) -> None:
    for seat, state in marks.items():
        ratings.mark("t5", seat, "takeover")
        ratings.mark("t5", seat, state)  # the latest state counts
    assert ratings.marks("t5") == marks
    scores = [8, 12, 20][: len(kinds)]
    result = ratings.finish("t5:x", "t5", kinds, owners, scores, [1] * len(kinds))
    assert (result.rated, result.reason, result.ranks) == (False, reason, places)
    assert result.leavers == tuple(s for s, m in marks.items() if m == "takeover")
    assert ratings.ratings([1, 2, 3]) == {} and ratings.leaderboard() == []
    assert ratings.marks("t5") == {}  # the game is counted: its marks are done with


def test_sqlite_ratings_survive_a_reopen(tmp_path: Path) -> None:
    store = open_ratings(tmp_path / "host")
    store.finish("t1:a", "t1", HUMANS[2], {0: 1, 1: 2}, [10, 4], [1, 1])
    held = store.ratings([1, 2])
    store.close()
    again = open_ratings(tmp_path / "host")
    assert again.ratings([1, 2]) == held
    assert again.finish("t1:a", "t1", HUMANS[2], {0: 1, 1: 2}, [10, 4], [1, 1]).replayed
    assert again.ratings([1, 2]) == held
    again.close()


def test_a_return_counts_only_where_the_ai_moved(ratings: RatingStore) -> None:
    # Taken over, back before the AI's first move for the seat: still rated.
    ratings.mark("t6", 0, "returned")
    assert ratings.marks("t6") == {}
    result = ratings.finish("t6:x", "t6", HUMANS[2], {0: 1, 1: 2}, [5, 4], [1, 1])
    assert result.rated
