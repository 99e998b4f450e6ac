"""Screenshots of every screen and state of every game at 800x480 and 720x1280, for judging by eye.

``make screenshots`` runs it in a real window under Xvfb (or SDL's dummy driver when Xvfb cannot be
had). The app is driven by taps as a player would: the home screen, each New game step, settings, and
for every game a whole game played by its strategy, a picture saved the first time each kind of state
shows (what the table asks, the game's phase, the view's mode), the face picker, the history and the
end screen with its ranking. Files: ``<out>/<size>/<game>/<nn>-<state>.png``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from pathlib import Path

import pygame

from companion.games import all_games, get_game
from companion.protocol import ChooseMove, DrawCards, RollDice
from companion.store import Store
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings

SIZES = {"800x480": LANDSCAPE, "720x1280": PORTRAIT}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


class Shooter:
    def __init__(self, app: App, folder: Path) -> None:
        self.app, self.folder, self.n = app, folder, 0
        folder.mkdir(parents=True, exist_ok=True)

    def shot(self, what: str) -> None:
        self.app.step()
        self.app.screenshot(self.folder / f"{self.n:02d}-{slug(what)}.png")
        self.n += 1


def new_app(store: Store, size: tuple[int, int], seed: int) -> tuple[App, Driver]:
    app = App(store, SimulatedReader(seed), size, settings=Settings(sound=False))
    return app, Driver(app)


def screens(out: Path, size: tuple[int, int]) -> None:
    """Home, New game's three steps (eight players where the game allows), every game's rules, settings."""
    app, d = new_app(Store(":memory:"), size, 1)
    s = Shooter(app, out / "screens")
    try:
        s.shot("home")
        d.tap("home:new")
        s.shot("new-game-games")
        d.tap_paged("game:roll-for-it")
        for _ in range(6):
            d.tap("players:add")
        s.shot("new-game-eight-players")
        d.tap("name:0")
        s.shot("new-game-keyboard")
        d.tap("key:Cancel")
        d.tap("newgame:next")
        if app.screen.name == "newgame":
            s.shot("new-game-rules")
        for game in sorted(all_games()):  # every game's rules, every page
            app.nav.home()
            app.step()
            d.tap("home:new")
            d.tap_paged(f"game:{game}")
            d.tap("newgame:next")
            for page in range(10):
                if app.screen.name != "newgame":
                    break
                s.shot(f"rules-{game}-{page + 1}")
                nxt = app.ui.find("opt:next")
                if nxt is None or not nxt.enabled:
                    break
                d.tap("opt:next")
        app.nav.settings()
        s.shot("settings")
    finally:
        pygame.display.quit()


def state_key(app: App) -> str:
    table = app.screen
    state = table.game.state
    req = state.request()
    view = state.view()
    bits = [type(req).__name__, str(view.get("phase", "")), str(getattr(table.view, "mode", ""))]
    if isinstance(req, RollDice):
        bits.append("read" if table.read is not None else "waiting")
    return "-".join(b for b in bits if b)


def one_game(out: Path, size: tuple[int, int], game: str, players: int, seed: int, limit: int = 24) -> None:
    store = Store(":memory:")
    app, d = new_app(store, size, seed)
    s = Shooter(app, out / game)
    info = get_game(game)
    rng = random.Random(seed)
    try:
        d.new_game(game, players)
        seen: set[str] = set()
        picked = undone = False
        for _ in range(5000):
            if app.screen.name != "table":
                break
            state = app.screen.game.state
            req = state.request()
            key = state_key(app)
            if key not in seen and len(seen) < limit:
                seen.add(key)
                s.shot(f"table-{key}")
            if isinstance(req, RollDice):
                d.tap("dice:read")
                d.wait_read()
                key = state_key(app)
                if key not in seen and len(seen) < limit:
                    seen.add(key)
                    s.shot(f"table-{key}")
                if not picked:
                    picked = True
                    d.tap(f"die:{req.dice[0].slot}")
                    s.shot("face-picker")
                    app.show(None)
                    app.step()
                d.tap("dice:confirm")
            elif isinstance(req, DrawCards):
                d.tap("cards:random")
                d.tap("cards:confirm")
            elif isinstance(req, ChooseMove):
                moves = list(state.legal_moves())
                move = info.strategy(state, moves, rng) if info.strategy else rng.choice(moves)
                app.screen.view.tap_move(d, move, state)
                if not undone and len(app.screen.game.events) > 6:
                    undone = True
                    d.tap("table:undo")
                    s.shot("after-undo")
                    d.tap("table:history")
                    s.shot("history")
                    d.tap("back")
        if app.screen.name == "end":
            s.shot("end")
        app.nav.home()
        s.shot("home-saved-games")
    finally:
        pygame.display.quit()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=Path("screenshots"))
    p.add_argument("--size", choices=sorted(SIZES), action="append", help="default: both")
    p.add_argument("--game", action="append", help="default: every game")
    args = p.parse_args(argv)
    driver = os.environ.get("SDL_VIDEODRIVER") or ("x11" if os.environ.get("DISPLAY") else "none")
    print(f"drawing with SDL video driver: {driver}")
    for name in args.size or sorted(SIZES):
        size = SIZES[name]
        out = args.out / name
        screens(out, size)
        for game in args.game or sorted(all_games()):
            info = get_game(game)
            for players in sorted({max(2, info.min_players), min(8, info.max_players)}):
                one_game(out / f"{players}p", size, game, players, seed=3)
                print(f"{name} {game} {players} players: done", flush=True)
    total = sum(1 for _ in args.out.rglob("*.png"))
    print(f"{total} screenshots in {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
