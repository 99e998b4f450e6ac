"""A screenshot of every screen at 800x480 and 720x1280, checked region by region: the prompt bar carries
text, the body is not blank, every touch target is at least 48 px and inside the screen, no two targets
overlap, and no text is drawn too small to read at arm's length."""

from __future__ import annotations

import os
import random

import numpy as np
import pygame
import pytest
from test_ui_app import play_rollers_turn, start_game

from companion.games import all_games
from companion.games.rollers import ApplyMove, sensible_move
from companion.protocol import ChooseMove, DrawCards, RollDice
from companion.sim import random_draw, random_roll
from companion.store import Store
from ui import theme
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # read when the display starts
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def tour(d: Driver):
    """Visit every screen (and dialog); yields its name each time one is showing."""
    app = d.app
    yield "home-empty"
    d.tap("home:new")
    yield "new-game"
    d.tap("game:rollers")
    d.tap("players:add")
    yield "new-players"
    d.tap("name:2")
    yield "keyboard"
    d.tap("key:Cancel")
    d.tap("newgame:next")
    yield "new-rules"
    d.tap("newgame:next")
    yield "table-rolloff"
    d.tap("dice:read")
    yield "table-read"
    d.tap("die:player1")
    yield "face-picker"
    d.tap("picker:cancel")
    d.tap("dice:confirm")
    game = app.screen.game
    rng = random.Random(2)
    shown = set()
    for _ in range(400):
        state = game.state
        if isinstance(state.request(), ChooseMove):
            if state.phase == "decide" and "decide" not in shown:
                shown.add("decide")
                d.tap(f"keep:{next(iter(state.showing))}")
                yield "table-decide"
            if (
                state.phase == "apply"
                and "apply" not in shown
                and state.round >= 0
                and any(b == 2 for b in state.boards[state.current])
            ):
                shown.add("apply")
                yield "table-apply"
                moves = state.legal_moves()
                blocked = [
                    n
                    for n in range(1, 6)
                    if not any(
                        isinstance(m, ApplyMove) and n in (*m.opens, *m.closes, *(s for s, _ in m.collects))
                        for m in moves
                    )
                ]
                if blocked:
                    d.tap(f"section:{blocked[0]}")
                    yield "why-not"
                    d.tap("dialog:OK")
        if app.screen.name != "table" or {"decide", "apply"} <= shown:
            break
        play_rollers_turn(d, rng)
    d.tap("table:history")
    yield "history"
    d.tap("back")
    game = app.screen.game  # finish quickly behind the screen (a whole game by taps is in test_ui_app)
    while not game.state.is_over:
        state = game.state
        req = state.request()
        if isinstance(req, RollDice):
            game.roll(random_roll(req, rng))
        else:
            game.move(sensible_move(state, list(state.legal_moves()), rng))
    app.step()
    yield "end"
    d.tap("end:home")
    yield "home-saved"
    d.tap("home:settings")
    yield "settings"
    d.tap("settings:calibrate")
    app.step()
    app.step()
    yield "progress"
    d.tap("back")
    d.tap("settings:enrol")
    yield "enrol"


def busy(pixels: np.ndarray) -> float:
    """Fraction of pixels that differ clearly from the region's most common colour (every other pixel)."""
    flat = pixels[::2, ::2].reshape(-1, 3).astype(np.int32)
    packed = flat[:, 0] << 16 | flat[:, 1] << 8 | flat[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = values[counts.argmax()]
    common = np.array([top >> 16 & 255, top >> 8 & 255, top & 255])
    return float((np.abs(flat - common).max(axis=1) > 40).mean())


def check_screen(app: App, name: str) -> None:
    w, h = app.size
    m = app.ui.metrics
    arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1)
    top = m.button_h + 2 * m.pad
    assert busy(arr[:top]) > 0.01, f"{name}: the title/prompt bar is blank"
    assert busy(arr[top:]) > 0.02, f"{name}: the body is blank"
    words = arr if app.overlay is not None else arr[:top]  # a dialog shades the bar and carries the words
    text_px = (np.abs(words.astype(int) - theme.TEXT).max(axis=2) < 40).sum() + (
        np.abs(words.astype(int) - theme.ACCENT).max(axis=2) < 40
    ).sum()
    assert text_px > 150, f"{name}: no readable text in the title/prompt bar"
    widgets = app.ui.widgets
    assert widgets, f"{name}: nothing to tap"
    screen = pygame.Rect(0, 0, w, h)
    for wd in widgets:
        assert wd.rect.width >= theme.MIN_TARGET and wd.rect.height >= theme.MIN_TARGET, (
            name,
            wd.id,
            wd.rect,
        )
        assert screen.contains(wd.rect), f"{name}: {wd.id} {wd.rect} is off the {w}x{h} screen"
    live = [wd for wd in widgets if wd.enabled]
    for i, a in enumerate(live):
        for b in live[i + 1 :]:
            assert not a.rect.colliderect(b.rect), f"{name}: {a.id} and {b.id} overlap"
    smallest = min(app.ui.text_sizes)
    assert smallest >= (24 if m.portrait else 20), f"{name}: text of size {smallest} is too small"


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_every_screen_at_both_sizes(size, tmp_path):
    app = App(Store(":memory:"), SimulatedReader(4), size, settings=Settings(sound=False))
    d = Driver(app)
    seen = []
    try:
        for name in tour(d):
            app.ui.text_sizes.clear()
            app.step()
            assert not app.errors, app.errors
            check_screen(app, name)
            app.screenshot(tmp_path / f"{name}-{size[0]}x{size[1]}.png")
            seen.append(name)
    finally:
        pygame.display.quit()
    assert {
        "table-read",
        "face-picker",
        "table-decide",
        "table-apply",
        "why-not",
        "history",
        "end",
        "settings",
        "progress",
        "new-rules",
        "keyboard",
    } <= set(seen)
    assert len(list(tmp_path.glob("*.png"))) == len(seen)


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_game_table_at_both_sizes(game_id, size, tmp_path):
    """Each game's table (its own view, or the standard one) for every kind of request it makes."""
    app = App(Store(":memory:"), SimulatedReader(4), size, settings=Settings(sound=False))
    d = Driver(app)
    info = all_games()[game_id]
    shots = set()
    try:
        start_game(d, game_id, players=max(2, info.min_players))
        game = app.screen.game
        rng = random.Random(1)
        for _ in range(80):
            req = game.state.request()
            kind = type(req).__name__
            if kind not in shots:
                app.ui.text_sizes.clear()
                app.step()
                check_screen(app, f"{game_id} {kind}")
                app.screenshot(tmp_path / f"{game_id}-{kind}-{size[0]}.png")
                shots.add(kind)
            if isinstance(req, RollDice):
                game.roll(random_roll(req, rng))
            elif isinstance(req, DrawCards):
                game.draw(random_draw(req, rng))
            elif isinstance(req, ChooseMove):
                game.move(rng.choice(list(game.state.legal_moves())))
            else:
                break
            app.step()
            assert not app.errors, app.errors
    finally:
        pygame.display.quit()
    assert "ChooseMove" in shots
