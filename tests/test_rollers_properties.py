"""Property tests over random legal Rollers playouts."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.rollers import CLOSED, EMPTY, OPEN, chip_value, sensible_move
from companion.protocol import ChooseMove, GameOver, Roll
from companion.record import replay
from companion.session import Game
from companion.sim import random_choice, step

PLAYERS = ["Anna", "Ben", "Chloe", "Dan", "Eve"]


def mixed(state, moves, rng):
    """Mostly sensible, sometimes any legal move: reaches the end yet explores odd corners."""
    return (random_choice if rng.random() < 0.3 else sensible_move)(state, moves, rng)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 5),
       collect=st.sampled_from(["chip value", "chip count"]),
       saved=st.sampled_from(["stay aside", "may be rolled again"]),
       after=st.sampled_from(["same turn", "next turn"]))
def test_random_games_keep_the_invariants(seed, n, collect, saved, after):
    rng = random.Random(seed)
    options = {"collect": collect, "collect_after_closing": after, "saved_dice": saved}
    game = Game.new("rollers", PLAYERS[:n], options)
    for _ in range(20_000):
        state = game.state
        if isinstance(state.request(), GameOver):
            break
        values = [chip_value(c) for c in state.chips]
        assert sum(values) == 55 * n  # total chip value in play is conserved
        assert all(c[0] >= 0 and c[1] >= 0 for c in state.chips) and min(state.box) >= 0
        assert all(s in (EMPTY, OPEN, CLOSED) for b in state.boards for s in b)
        if isinstance(state.request(), ChooseMove):
            moves = state.legal_moves()
            assert moves, "the game must always be able to continue"
            assert len(set(map(str, moves))) == len(moves), "no duplicate legal moves"
        applied = step(state.clone(), rng, mixed)
        before = state.clone()
        game.roll(applied) if isinstance(applied, Roll) else game.move(applied)
        if rng.random() < 0.05:  # undo returns the previous state exactly; then play on
            game.undo()
            assert game.state == before
    else:
        raise AssertionError("game did not end")
    assert max(game.state.scores()) >= 5
    assert replay(game.events) == game.state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_move_is_accepted_and_round_trips(seed):
    rng = random.Random(seed)
    game = Game.new("rollers", ["Anna", "Ben", "Chloe"])
    for _ in range(200):
        state = game.state
        if isinstance(state.request(), GameOver):  # a quick game (seed 40672) ends within 200 steps
            break
        if isinstance(state.request(), ChooseMove):
            for move in state.legal_moves():
                assert state.parse_move(str(move)) == move
                assert state.explain(move) is None
        applied = step(state.clone(), rng, mixed)
        game.roll(applied) if isinstance(applied, Roll) else game.move(applied)
