"""The expert's search on its own engine: worlds drawn fairly, the tree kept between turns."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paris_tui.ai import make_ai
from paris_tui.ai.expert import ExpertBot
from paris_tui.ai.expert_search import KeptTree, SearchKnobs, WorldSampler, fast_search
from paris_tui.ai.strong import CODE_SPACE, Node, StrongConfig
from paris_tui.core import Game, Options
from paris_tui.core.sampling import Determinizer

from .conftest import VARIANTS, random_position


@pytest.mark.parametrize("players", [2, 3, 4])
def test_worlds_keep_what_the_seat_knows(players: int) -> None:
    """Every sampled world: the seat's own route, distinct routes among the lines it cannot
    rule out, the face-down tiles a reordering of the unseen ones, the public position."""
    for i in range(8):
        game = random_position(10 * players + i, players, VARIANTS[i % 4])
        seat = game.to_move
        view = game.view(seat)
        det = Determinizer(view)
        board = game.board
        sampler = WorldSampler(det, {})
        rng = random.Random(i)
        unseen = Counter(board.tile_index[t] for t in view.unseen_tiles)
        allowed = {board.line_index[line] for line in det.unknown_lines}
        for _ in range(20):
            world = sampler.sample(rng)
            assert world.routes[seat] == board.line_index[game.route(seat)]
            others = [r for p, r in enumerate(world.routes) if p != seat]
            assert len(set(others)) == len(others) and set(others) <= allowed
            assert Counter(world.future) == unseen
            assert world.scores == game.scores and world.to_move == game.to_move
            assert world.legal() == game.legal_codes()


def test_worlds_follow_the_belief() -> None:
    """A line the belief rules out (weight 0) is never drawn; a likelier line more often."""
    game = random_position(3, 2, Options(), moves=6)
    det = Determinizer(game.view(game.to_move))
    other = 1 - game.to_move
    lines = det.unknown_lines
    weights = {other: {lines[0]: 0.0, lines[1]: 5.0}}
    sampler = WorldSampler(det, weights)
    rng = random.Random(1)
    drawn = Counter(game.board.line_ids[sampler.sample(rng).routes[other]] for _ in range(600))
    assert drawn[lines[0]] == 0
    assert all(drawn[lines[1]] > drawn[line] for line in lines[2:])


def legal_children(bot: ExpertBot, game: Game) -> None:
    kept = bot.kept
    assert kept is not None
    assert set(kept.root.children) <= set(game.legal_codes())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_kept_tree_offers_only_legal_moves(players: int) -> None:
    """Whole games with the tree kept between turns (at a fixed number of simulations):
    every choice legal, every kept root's moves legal now, and the tree is reused."""
    reused = 0
    for i in range(2):
        game = Game.new(players, seed=70 + 10 * players + i, options=VARIANTS[i])
        bot = ExpertBot(i, simulations=60, knobs=SearchKnobs(reuse="always"))
        others = [make_ai("strong", seed=p, simulations=20) for p in range(players)]
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            if seat == 0:
                move = bot.choose(view)
                assert move in view.legal_moves
                if len(view.legal_moves) > 1:
                    legal_children(bot, game)
                    reused += bot.reused > 0
            else:
                move = others[seat].choose(view)
            game.play(move)
    assert reused > 0


def test_a_kept_tree_is_not_followed_into_another_game() -> None:
    """Another deal with the same names and no move in common: the kept tree is dropped."""
    first, second = Game.new(2, seed=1), Game.new(2, seed=2)
    view = first.view(0)
    det = Determinizer(view)
    root = Node(-1)
    root.children = {c: Node(0) for c in first.legal_codes()}
    kept = KeptTree(view, root)
    for _ in range(2):
        second.apply_code(second.legal_codes()[0])
    assert kept.follow(second.view(0), det.base.encode) is None
    first.apply_code(first.legal_codes()[0])
    first.apply_code(first.legal_codes()[0])
    code = first.encode(first.moves[0])
    root.children[code].children[first.encode(first.moves[1])] = Node(1)
    assert kept.follow(first.view(0), det.base.encode) is not None
    assert kept.follow(first.view(1), det.base.encode) is None  # another seat


def test_by_the_clock_only_the_tree_is_kept() -> None:
    """At a fixed number of simulations (the default knobs) nothing is kept, so a choice
    depends on the seed and the view alone; by the clock the tree is kept."""
    game = Game.new(2, seed=5)
    counted = ExpertBot(1, simulations=30)
    timed = ExpertBot(1, budget=0.05)
    view = game.view(0)
    counted.choose(view)
    timed.choose(view)
    assert counted.kept is None and timed.kept is not None


@pytest.mark.parametrize("players", [2, 4])
def test_the_biased_search_is_legal_and_deterministic(players: int) -> None:
    for i in range(3):
        game = random_position(200 + i, players, VARIANTS[i])
        view = game.view(game.to_move)
        moves = [
            ExpertBot(i, simulations=50, knobs=SearchKnobs(bias=1.0)).choose(view) for _ in range(2)
        ]
        assert moves[0] == moves[1] and moves[0] in view.legal_moves


@pytest.mark.parametrize(
    "knobs",
    [
        SearchKnobs(leftover=True),
        SearchKnobs(leftover=True, leftover_eps=0.2, own_evict=False),
        SearchKnobs(greedy=0.5),
        SearchKnobs(split=True),
        SearchKnobs(bias_decay=0.5),
        SearchKnobs(bias=0.2, bias_decay=0.0),
    ],
)
def test_each_knob_searches_legally_and_deterministically(knobs: SearchKnobs) -> None:
    """With a guided playout policy, a tree split by route or a slow-fading bias, the search
    runs its simulations, chooses a legal move, the same one from the same seed and view."""
    for i, players in enumerate((2, 2, 4)):
        game = random_position(300 + i, players, VARIANTS[i])
        view = game.view(game.to_move)
        bots = [ExpertBot(i, simulations=60, knobs=knobs) for _ in range(2)]
        moves = [bot.choose(view) for bot in bots]
        assert moves[0] == moves[1] and moves[0] in view.legal_moves
        assert all(bot.last_simulations == 60 for bot in bots if len(view.legal_moves) > 1)


def _opponent_keys(root: Node) -> set[int]:
    """The keys of every node below the root's moves (the next seats' moves, mostly)."""
    keys: set[int] = set()
    for child in root.children.values():
        keys.update(child.children)
    return keys


@pytest.mark.parametrize("players", [2, 4])
def test_split_keys_the_other_seats_moves_by_their_route(players: int) -> None:
    """With ``split`` a hidden-route seat's moves are keyed by its route in the sampled
    world (one key per move and route, each route one the seat cannot rule out); without
    it, by the move alone. The root's moves, the seat's own, are never split."""
    game = random_position(41, players, Options(), moves=players)
    seat = game.to_move
    view = game.view(seat)
    det = Determinizer(view)
    allowed = {game.board.line_index[line] for line in det.unknown_lines}
    legal = set(game.legal_codes())
    for split in (False, True):
        sampler = WorldSampler(det, {})
        knobs = SearchKnobs(split=split)
        root, sims = fast_search(sampler, random.Random(5), StrongConfig(), 400, 0.0, knobs=knobs)
        assert sims == 400 and set(root.children) <= legal
        keys = _opponent_keys(root)
        assert keys
        if split:
            assert all(k >= CODE_SPACE for k in keys)
            assert {k // CODE_SPACE - 1 for k in keys} <= allowed
            assert len({k // CODE_SPACE for k in keys}) > 1
        else:
            assert all(k < CODE_SPACE for k in keys)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    "knobs",
    [
        SearchKnobs(horizon=2),
        SearchKnobs(horizon=4, horizon_small=0.6, horizon_grand=0.5),
        SearchKnobs(lookahead=1.0),
        SearchKnobs(lookahead=0.5, lookahead_rounds=1, horizon=2),
    ],
)
def test_truncated_playouts_search_legally_and_deterministically(
    players: int, knobs: SearchKnobs
) -> None:
    """With playouts stopped at a horizon and scored by the fast evaluation, or playouts
    that look a move ahead, the search runs
    its simulations and chooses a legal move, the same one from the same seed and view,
    early in a game, late in it and in its last round."""
    for i, moves in enumerate((3, 20, None)):
        game = random_position(400 + i, players, VARIANTS[i], moves=moves)
        if moves is None:
            game = random_position(400 + i, players, VARIANTS[i], moves=game.total_moves - 2)
        view = game.view(game.to_move)
        bots = [ExpertBot(i, simulations=60, knobs=knobs) for _ in range(2)]
        chosen = [bot.choose(view) for bot in bots]
        assert chosen[0] == chosen[1] and chosen[0] in view.legal_moves
        assert all(bot.last_simulations == 60 for bot in bots if len(view.legal_moves) > 1)


def test_a_truncated_search_scores_by_the_evaluation() -> None:
    """The rewards at the horizon come from the evaluation: on the same worlds, the root's
    totals differ from those of playouts to the end (the search is not ignoring the
    knob), and every backed-up reward stays in [0, 1]."""
    game = random_position(450, 2, VARIANTS[0], moves=4)
    det = Determinizer(game.view(game.to_move))
    sampler = WorldSampler(det, {})
    totals = []
    for knobs in (SearchKnobs(), SearchKnobs(horizon=2)):
        root, sims = fast_search(sampler, random.Random(3), StrongConfig(), 200, 0.0, knobs=knobs)
        assert sims == 200
        assert all(0.0 <= c.total <= c.visits for c in root.children.values())
        totals.append(sorted((code, c.visits, c.total) for code, c in root.children.items()))
    assert totals[0] != totals[1]
