"""Text is sized by the measured height of its capitals in millimetres on the glass, and touch targets
by millimetres too (issue 55, defect 5): prompts, moves and scores at least 3 mm, nothing under 2 mm,
anything tappable at least 9 mm each way. Heights are measured on rendered glyphs."""

from __future__ import annotations

import os
import random

import pygame
import pytest

from companion.games import get_game
from companion.protocol import ChooseMove
from companion.store import Store
from ui import theme
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def cap_mm(size: int, px_per_mm: float) -> float:
    """The height of a rendered capital H at font ``size``, in millimetres."""
    glyph = pygame.font.Font(None, size).render("H", True, (255, 255, 255))
    return glyph.get_bounding_rect().height / px_per_mm


def test_the_official_displays_pixel_density():
    # 7-inch diagonals: 800x480 (the original display) and 720x1280 (Touch Display 2)
    assert theme.px_per_mm((800, 480)) == pytest.approx(5.25, abs=0.01)
    assert theme.px_per_mm((720, 1280)) == pytest.approx(8.26, abs=0.01)
    assert theme.px_per_mm((800, 480), dpi=254) == pytest.approx(10.0)


@pytest.mark.parametrize("dpi", [None, 96, 267])
@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_metrics_meet_the_millimetres(size, dpi):
    pygame.font.init()
    m = theme.metrics_for(size, dpi)
    for name in ("prompt", "body"):
        assert cap_mm(getattr(m, name), m.px_per_mm) >= 3.0, name
    assert cap_mm(m.tiny, m.px_per_mm) >= 2.0
    assert cap_mm(m.tiny - 1, m.px_per_mm) < 2.0  # the floor is the smallest size that makes 2 mm
    assert m.target / m.px_per_mm >= 9.0 and m.button_h >= m.target


def drive_to_choice(app: App, d: Driver, game: str) -> None:
    d.tap("home:new")
    d.tap_paged(f"game:{game}")
    while app.screen.name == "newgame":
        d.tap("newgame:next")
    rng = random.Random(2)
    for _ in range(200):
        state = app.screen.game.state
        if isinstance(state.request(), ChooseMove) and len(app.screen.game.events) > 3:
            return
        if d.answer_chance() is None:
            move = get_game(game).strategy(state, list(state.legal_moves()), rng)
            app.screen.view.tap_move(d, move, state)
    raise AssertionError("no choice of moves reached")


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_the_table_as_drawn_meets_the_millimetres(size):
    app = App(Store(":memory:"), SimulatedReader(3), size, settings=Settings(sound=False))
    d = Driver(app)
    try:
        drive_to_choice(app, d, "rollers")
        app.step()
        m = app.ui.metrics
        drawn = app.ui.drawn
        state = app.screen.game.state
        prompt_words = state.request().prompt.split()[0]
        prompt = [s for t, s, _ in drawn if t.startswith(prompt_words)]
        assert prompt and cap_mm(prompt[0], m.px_per_mm) >= 3.0
        moves = {w.id for w in app.ui.widgets if w.id.startswith(("move:", "rollers:"))}
        assert moves
        for w in app.ui.widgets:
            if w.id in moves:
                sizes = [s for t, s, r in drawn if t and w.rect.contains(r)]
                assert sizes and min(sizes) >= 1 and cap_mm(max(sizes), m.px_per_mm) >= 3.0, w.id
        for name in state.players:
            sizes = [s for t, s, r in drawn if t.endswith(name) and r.x > 0]
            assert sizes and cap_mm(max(sizes), m.px_per_mm) >= 3.0, name
        for text, s, _ in drawn:
            assert cap_mm(s, m.px_per_mm) >= 2.0, f"{text!r} is under 2 mm"
        for w in app.ui.widgets:
            assert min(w.rect.size) / m.px_per_mm >= 9.0, f"{w.id} {w.rect} is under 9 mm"
    finally:
        pygame.display.quit()


def mm_of(ui_metrics, size: int) -> float:
    return theme.cap_height(max(size, ui_metrics.tiny)) / ui_metrics.px_per_mm


@pytest.mark.parametrize("game", ["hop-n-roll", "roll-for-it", "doshboardgolf"])
@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_each_games_table_meets_the_millimetres_as_it_is_played(game, size):
    """Frame after frame of a game played by taps: every target at least 9 mm each way, the prompt, the
    moves offered and the scores (text giving points) at least 3 mm, nothing under 2 mm."""
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    from test_ui_table_board import play_one, start

    app, d = start(size, game, 3)
    rng = random.Random(4)
    checked = {"prompt": 0, "move": 0, "score": 0}
    try:
        for _ in range(36):
            if app.screen.name != "table":
                break
            app.step()
            m = app.ui.metrics
            drawn = app.ui.drawn
            for w in app.ui.widgets:
                assert m.mm(min(w.rect.size)) >= 9.0, f"{game}: {w.id} {w.rect} is under 9 mm"
            for text, s, _ in drawn:
                assert mm_of(m, s) >= 2.0, f"{game}: {text!r} is under 2 mm"
            words = getattr(app.screen.game.state.request(), "prompt", "").split()
            if words and app.overlay is None:
                prompt = [s for t, s, _ in drawn if t.startswith(words[0])]
                assert prompt and mm_of(m, max(prompt)) >= 3.0, f"{game}: the prompt is under 3 mm"
                checked["prompt"] += 1
            for w in app.ui.widgets:
                if w.id.startswith("move:"):
                    sizes = [s for t, s, r in drawn if t and w.rect.contains(r)]
                    assert sizes and mm_of(m, max(sizes)) >= 3.0, f"{game}: move {w.label!r} under 3 mm"
                    checked["move"] += 1
            for text, s, _ in drawn:
                if " points" in text or " pts" in text:
                    assert mm_of(m, s) >= 3.0, f"{game}: score {text!r} is under 3 mm"
                    checked["score"] += 1
            play_one(app, d, rng)
        assert checked["prompt"] >= 10 and checked["move"] + checked["score"] > 0, checked
    finally:
        pygame.display.quit()
