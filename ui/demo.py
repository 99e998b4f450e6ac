"""The headless show: drive the real app through a complete game with simulated dice and players.

``dice-companion run`` uses it when there is no screen at all (no display, no SDL video driver
chosen): every prompt, read and move is printed, and screenshots of the table are saved, so the main
job does something a person can follow on a machine without camera, GPIO or display.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TextIO

from companion.protocol import GameOver
from companion.store import Store
from ui.app import App
from ui.driver import Driver
from ui.reader import SimulatedReader


def show(store: Store, out: TextIO, game_id: str = "rollers", players: int = 2, seed: int | None = None,
         shots: Path | None = None, size: tuple[int, int] = (800, 480), max_steps: int = 20_000) -> int:
    """Play one complete game through the touchscreen app's own buttons; returns the saved game id."""
    app = App(store, SimulatedReader(seed), size, False)
    d = Driver(app)
    d.new_game(game_id, players)
    table = app.screen
    game = table.game
    info = game.state.info
    choose = info.strategy
    rng = random.Random(seed)
    out.write(f"{info.name} on the touchscreen app (headless, simulated camera): "
              f"{', '.join(game.state.players)}\n")
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    for step in range(max_steps):
        state = game.state
        req = state.request()
        if isinstance(req, GameOver):
            break
        if shots is not None and step % 50 == 0:
            app.screenshot(shots / f"table-{step:05d}.png")
        chance = d.answer_chance()
        if chance == "roll":
            read = game.actions()[-1][1].roll
            out.write(f"{req.prompt}\n  read: {' '.join(f'{r.slot}={r.face}' for r in read.results)}\n")
        elif chance == "draw":
            out.write(f"{req.prompt}\n  cards: {' '.join(game.actions()[-1][1].draw.cards)}\n")
        else:
            moves = list(state.legal_moves())
            move = choose(state, moves, rng) if choose else rng.choice(moves)
            table.view.tap_move(d, move, state)
            scores = ", ".join(f"{n} {s:g}" for n, s in zip(state.players, game.state.scores(), strict=True))
            out.write(f"{req.prompt}\n  {len(moves)} legal moves; tapped: {move}\n  scores: {scores}\n")
        if app.errors:
            raise RuntimeError(f"the app reported: {app.errors[-1]}")
    else:
        raise RuntimeError(f"the game did not end within {max_steps} steps")
    if shots is not None:
        app.screenshot(shots / "end.png")
    gid = table.gid
    out.write(f"\nGame over: {game.state.request().prompt}. Saved as game {gid}.\n")
    return gid
