"""Terminal play: prints each turn's dice, the legal moves, the move taken and the scores.

Used by ``dice-companion play`` and by ``make run`` on machines without a screen.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TextIO

from companion.protocol import ChooseMove, DrawCards, GameOver, Move, RollDice
from companion.session import Game
from companion.sim import random_choice, random_draw, random_roll

MAX_LISTED = 12


def _scores(game: Game) -> str:
    state = game.state
    return ", ".join(f"{name} {score:g}" for name, score in zip(state.players, state.scores(), strict=True))


def play(
    game: Game,
    rng: random.Random,
    out: TextIO,
    max_steps: int = 100_000,
    chooser: Callable[..., Move] | None = None,
) -> Game:
    """Play ``game`` to the end with simulated dice and players, narrating to ``out``."""
    info = game.state.info
    choose = chooser or info.strategy or random_choice
    out.write(f"{info.name}: {', '.join(game.state.players)}\n")
    for _ in range(max_steps):
        state = game.state
        req = state.request()
        match req:
            case GameOver():
                out.write(f"\nGame over: {req.prompt}. Final scores: {_scores(game)}\n")
                return game
            case RollDice():
                roll = random_roll(req, rng)
                game.roll(roll)
                kept = " ".join(f"{d.slot}={d.face}" for d in req.kept)
                thrown = " ".join(f"{r.slot}={r.face}" for r in roll.results)
                out.write(f"\n{req.prompt}\n  dice: {thrown}" + (f"  | kept: {kept}" if kept else "") + "\n")
            case DrawCards():
                draw = random_draw(req, rng)
                game.draw(draw)
                out.write(f"\n{req.prompt}\n  cards: {' '.join(draw.cards)}\n")
            case ChooseMove():
                moves = list(state.legal_moves())
                move = choose(state, moves, rng)
                listed = ", ".join(map(str, moves[:MAX_LISTED]))
                more = f" ... and {len(moves) - MAX_LISTED} more" if len(moves) > MAX_LISTED else ""
                out.write(
                    f"{req.prompt}\n  legal moves ({len(moves)}): {listed}{more}\n"
                    f"  move: {move}\n  scores: {_scores(game)}\n"
                )
                game.move(move)
    raise RuntimeError(f"the game did not end within {max_steps} steps")
