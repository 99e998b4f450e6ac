"""Roll For It!: invariants over random playouts, replay, undo, and placements against brute force."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import sim
from companion.errors import RuleError
from companion.games.roll_for_it import WINNING_SCORE, Place, RollForIt, sensible_move
from companion.games.roll_for_it_cards import COMPOSITION, card, default_deck
from companion.protocol import ChooseMove, DrawCards, GameState, Move, RollDice
from companion.record import dumps, loads, replay
from companion.session import Game


def chooser(state: GameState, moves: list[Move], rng: random.Random) -> Move:
    """Mostly sensible (games end in a few hundred steps), sometimes any legal move."""
    return (rng.choice if rng.random() < 0.3 else lambda ms: sensible_move(state, ms, rng))(moves)


def check_invariants(state: RollForIt) -> None:
    players = range(len(state.players))
    assert all(state.dice_owned(p) == 6 and state.hand[p] >= 0 for p in players)
    assert state.card_count() == 30 * state.decks
    by_value = Counter(card(t).points for t in state.deck)
    by_value.update(card(t).points for t in state.cards if t is not None)
    by_value.update(card(t).points for pile in state.piles for t in pile)
    assert by_value == Counter({v: n * state.decks for v, n in COMPOSITION.items()})
    assert state.scores() == tuple(float(sum(card(t).points for t in pile)) for pile in state.piles)
    for text, on_card in zip(state.cards, state.dice, strict=True):
        if text is None:
            assert all(faces == [] for faces in on_card)
            continue
        images = Counter(card(text).images)
        for faces in on_card:
            held = Counter(faces)
            assert all(held[f] <= images[f] for f in held) and held != images  # complete = scored
    assert sorted(state.rolled) == state.rolled and len(state.rolled) <= state.hand[state.turn]
    json.dumps(state.view())  # the screen gets plain JSON
    winners = state.outcome()
    if winners is not None:
        assert [p for p in players if state.points(p) >= WINNING_SCORE] == list(winners)


def random_bad_placement(state: RollForIt, rng: random.Random) -> Place:
    faces = [rng.randint(1, 6) for _ in range(rng.randint(1, 3))]
    return Place.of({rng.randint(1, len(state.cards) + 1): faces})


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 400))
def test_random_playouts_keep_invariants_replay_and_undo(players, seed, steps):
    rng = random.Random(seed)
    game = Game.new("roll-for-it", [f"P{i}" for i in range(players)])
    for _ in range(steps):
        state = game.state
        assert isinstance(state, RollForIt)
        if state.is_over:
            break
        before, events = state.clone(), list(game.events)
        req = state.request()
        if isinstance(req, RollDice):
            game.roll(sim.random_roll(req, rng))
        elif isinstance(req, DrawCards):
            game.draw(sim.random_draw(req, rng))
        else:
            assert isinstance(req, ChooseMove)
            moves = state.legal_moves()
            assert moves and len(set(moves)) == len(moves)
            assert all(state.parse_move(str(m)) == m for m in rng.sample(moves, min(5, len(moves))))
            bad = random_bad_placement(state, rng)
            try:
                game.move(bad)
            except RuleError:
                assert game.state == before and game.events == events
            else:
                game.undo()
                assert game.state == before
            game.move(chooser(state, moves, rng))
        check_invariants(game.state)
        if rng.random() < 0.1:
            game.undo()
            assert game.state == before
    assert replay(game.events) == game.state
    assert replay(loads(dumps(game.events))) == game.state


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32 - 1))
def test_whole_games_end_with_one_winner_at_forty(players, seed):
    state = RollForIt.info.new([f"P{i}" for i in range(players)])
    assert isinstance(state, RollForIt)
    sim.playout(state, random.Random(seed), chooser=chooser)
    check_invariants(state)
    (winner,) = state.outcome() or ()
    assert state.points(winner) >= WINNING_SCORE


# --- placements against brute force -------------------------------------------------------------------

CARDS = [*sorted(set(default_deck())), "2:4-4", "5:4-4-6"]


@st.composite
def positions(draw: st.DrawFn) -> RollForIt:
    players = draw(st.sampled_from([2, 5]))
    state = RollForIt.info.new([f"P{i}" for i in range(players)])
    assert isinstance(state, RollForIt)
    slots = len(state.cards)
    state.cards = [draw(st.sampled_from([*CARDS[:6], *CARDS] if k else CARDS)) for k in range(slots)]
    if draw(st.booleans()):  # make two cards alike
        state.cards[1] = state.cards[0]
    for i, text in enumerate(state.cards):
        images = list(card(text).images)
        for p in range(2):
            kept = draw(st.lists(st.booleans(), min_size=len(images), max_size=len(images)))
            state.dice[i][p] = sorted(f for f, k in zip(images, kept, strict=True) if k)
            if Counter(state.dice[i][p]) == Counter(images):
                state.dice[i][p] = state.dice[i][p][1:]
        if i and state.cards[i] == state.cards[0] and draw(st.booleans()):  # alike, with the same dice
            state.dice[i] = [list(f) for f in state.dice[0]]
    state.rolled = sorted(draw(st.lists(st.integers(1, 6), min_size=1, max_size=5)))
    state.hand[0] = len(state.rolled)
    state.phase, state.turn = "match", 0
    return state


def canonical(state: RollForIt, move: Place) -> tuple[str, ...]:
    """The move as what each card receives, with interchangeable cards' shares sorted."""
    got = dict(move.cards)
    per_card = [got.get(i + 1, "") for i in range(len(state.cards))]
    groups: dict[object, list[int]] = {}
    for i in range(len(state.cards)):
        groups.setdefault(state._card_key(i), []).append(i)
    for members in groups.values():
        for i, share in zip(members, sorted((per_card[i] for i in members), reverse=True), strict=True):
            per_card[i] = share
    return tuple(per_card)


@settings(max_examples=60, deadline=None)
@given(state=positions())
def test_placements_are_exactly_the_legal_ones_once_each(state):
    moves = state.legal_moves()
    assert len({canonical(state, m) for m in moves}) == len(moves)  # collapsed: no two alike
    legal = set()
    for targets in itertools.product(range(len(state.cards) + 1), repeat=len(state.rolled)):
        mapping: dict[int, list[int]] = {}
        for face, target in zip(state.rolled, targets, strict=True):
            if target:
                mapping.setdefault(target, []).append(face)
        move = Place.of(mapping)
        try:
            state._check_place(move)
        except RuleError:
            continue
        legal.add(canonical(state, move))
    assert {canonical(state, m) for m in moves} == legal
