"""Property tests (hypothesis) for Pool Party: random legal games end, the 12 tiles are
conserved, inference finds the move that was made, replay and undo agree, and path
generation agrees with path checking."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.poolparty import Pass, PoolParty, Reveal
from companion.games.poolparty.board import DIRECTIONS, Board
from companion.games.poolparty.movement import BAR_INDEX, EMPTY, OPPONENT, OWN, MoveRules, check_path, gait, paths
from companion.games.poolparty.play import play_randomly
from companion.games.records import game_from_record

SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

house_rules = st.fixed_dictionaries({
    "start_layout": st.sampled_from(["observed", "placeholder", "alternate_placement"]),
    "goal_end": st.sampled_from(["far", "near"]),
    "bar_entry": st.sampled_from(["orthogonal_from_step", "any_from_step"]),
    "no_legal_move": st.sampled_from(["pass", "end_game"]),
    "tiebreak_sum": st.sampled_from(["visible_crocodiles", "flip_all"]),
    "steps_are_water": st.booleans(),
    "empty_pool_ends": st.booleans(),
    "allow_reversal": st.booleans(),
})


def new_game(seed: int, rules: dict, refereed: bool) -> PoolParty:
    return PoolParty(["Red", "Yellow"], rules, seed=None if refereed else seed)


def tile_census(game: PoolParty) -> Counter:
    return Counter(t.colour.value for t in game.position.tiles())


@SLOW
@given(seed=st.integers(0, 10**6), rules=house_rules, refereed=st.booleans())
def test_random_legal_games_end_and_conserve_the_twelve_tiles(seed, rules, refereed):
    game = new_game(seed, rules, refereed)
    rng = random.Random(seed)
    for _ in range(6000):
        if game.is_over():
            break
        legal = game.legal_actions()
        assert legal, "a game that is not over always has a legal action"
        game.apply(rng.choice(legal))
        if game.position.phase != "placing":
            assert tile_census(game) == {"red": 6, "yellow": 6}
            for colour in ("red", "yellow"):
                numbers = [t.number for t in game.position.tiles() if t.colour.value == colour and t.number]
                assert len(numbers) == len(set(numbers))
    assert game.is_over()
    outcome = game.outcome()
    assert sum(outcome.scores.values()) == sum(len(b) for b in game.position.bars.values())
    assert len(game.position.pool_owners()) <= 1 or outcome.termination == "no_legal_move"


@SLOW
@given(seed=st.integers(0, 10**6), rules=house_rules, refereed=st.booleans(), plies=st.integers(0, 300))
def test_inference_finds_the_move_that_was_made(seed, rules, refereed, plies):
    game = new_game(seed, rules, refereed)
    rng = random.Random(seed)
    play_randomly(game, rng, plies)
    legal = game.legal_actions()
    for action in rng.sample(legal, min(len(legal), 8)):
        if isinstance(action, Reveal):
            continue  # turning swimmers over at a bar does not change what the camera sees
        before = game.observation()
        game.apply(action)
        after = game.observation()
        game.undo()
        assert game.observation() == before
        explanation = game.explain(after)
        assert action in explanation.candidates, (action, explanation.to_json())
        if not isinstance(action, Pass):
            assert not explanation.unchanged


@SLOW
@given(seed=st.integers(0, 10**6), rules=house_rules, plies=st.integers(1, 400))
def test_replay_and_undo_return_the_same_states(seed, rules, plies):
    game = new_game(seed, rules, refereed=False)
    rng = random.Random(seed)
    states = [game.state_json()]
    for _ in range(plies):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
        states.append(game.state_json())
    replayed = game_from_record(game.record())
    assert replayed.state_json() == game.state_json() and replayed.outcome() == game.outcome()
    for index in range(len(states) - 1, 0, -1):
        assert game.state_json() == states[index]
        game.undo()
    assert game.state_json() == states[0]


def brute_force_paths(board: Board, origin: int, lengths: tuple[int, ...], diagonal: bool) -> set[tuple[int, ...]]:
    """Every sequence of single steps from ``origin``, any shape; a step onto a bar square
    is written as the bar when it is the last one, as that square otherwise."""
    directions = DIRECTIONS if diagonal else DIRECTIONS[:4]
    out = set()
    for length in lengths:
        for seq in itertools.product(range(len(directions)), repeat=length):
            pos, path = origin, []
            for k, d in enumerate(seq):
                pos = board.neighbour[pos][d]
                if pos < 0:
                    break
                path.append(BAR_INDEX if board.bar_cell_end[pos] and k == length - 1 else pos)
            else:
                out.add(tuple(path))
    return out


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_path_generation_agrees_with_path_checking(data):
    board = Board.default(goal_end=data.draw(st.sampled_from(["far", "near"])))
    rng = data.draw(st.randoms(use_true_random=False))
    fill = data.draw(st.floats(0.0, 0.6))
    cells = [EMPTY if rng.random() > fill else rng.choice([OWN, OPPONENT]) for _ in range(board.size)]
    steps = [i for i in board.water if board.step_end[i]]  # where the bar rules bite
    origin = data.draw(st.one_of(st.sampled_from(steps), st.sampled_from(board.water)))
    cells[origin] = OWN
    rules = MoveRules(data.draw(st.booleans()), data.draw(st.booleans()), data.draw(st.booleans()))
    mover = gait(data.draw(st.sampled_from([None, 1, 2, 3, 4, 5, 6])), rules)
    goal = data.draw(st.sampled_from(["red_end", "yellow_end"]))
    bar_allowed = data.draw(st.booleans())
    generated = paths(board, cells, origin, mover, goal, rules, bar_allowed)
    assert len(generated) == len(set(generated))
    checked = {p for p in brute_force_paths(board, origin, mover.lengths, mover.diagonal)
               if check_path(board, cells, origin, mover, p, goal, rules, bar_allowed) is None}
    assert set(generated) == checked
