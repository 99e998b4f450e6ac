"""Simulated chance: random dice and cards answering a state's request, and random playouts.

Used by ``make run`` without a camera, by the property tests and by the benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.dice import die_kind
from companion.protocol import (
    ChooseMove,
    DieResult,
    Draw,
    DrawCards,
    GameOver,
    GameState,
    Move,
    Roll,
    RollDice,
    Source,
)

Chooser = Callable[[GameState, list[Move], random.Random], Move]


def random_roll(request: RollDice, rng: random.Random) -> Roll:
    """Fair dice for every die in the request."""
    return Roll(tuple(DieResult(d.slot, rng.choice(die_kind(d.kind).labels))
                      for d in request.dice), Source.SIMULATED)


def random_draw(request: DrawCards, rng: random.Random) -> Draw:
    """``count`` cards picked from the candidates without replacement (as from a shuffled deck)."""
    pool = list(request.candidates)
    if len(pool) < request.count:
        raise ValueError(f"cannot draw {request.count} cards from {len(pool)} candidates")
    return Draw(tuple(rng.sample(pool, request.count)), Source.SIMULATED)


def random_choice(state: GameState, moves: list[Move], rng: random.Random) -> Move:
    return rng.choice(moves)


def step(state: GameState, rng: random.Random, chooser: Chooser = random_choice) -> object:
    """Advance ``state`` by one chance event or move; returns what was applied."""
    req = state.request()
    match req:
        case RollDice():
            roll = random_roll(req, rng)
            state.apply_roll(roll)
            return roll
        case DrawCards():
            draw = random_draw(req, rng)
            state.apply_draw(draw)
            return draw
        case ChooseMove():
            moves = list(state.legal_moves())
            if not moves:
                raise AssertionError(f"no legal move for {req.prompt!r}: the game is stuck")
            move = chooser(state, moves, rng)
            state.apply(move)
            return move
        case GameOver():
            raise ValueError("the game is over")
    raise TypeError(f"unknown request {req!r}")


def playout(state: GameState, rng: random.Random, max_steps: int = 100_000,
            chooser: Chooser = random_choice) -> int:
    """Play random chance and moves until the game ends; returns the number of steps."""
    for n in range(max_steps):
        if state.is_over:
            return n
        step(state, rng, chooser)
    raise AssertionError(f"game not over after {max_steps} steps")
