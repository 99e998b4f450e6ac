"""The Coach toggle on the table: off by default, worked out off the frame loop, drawn over the board."""

from __future__ import annotations

import os
import random
import threading
import time

import numpy as np
import pygame
import pytest
from test_ui_app import start_game

from companion.coach import advise, advise_in_stages
from companion.protocol import ChooseMove, RollDice
from companion.sim import random_roll
from companion.store import Store
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.coach_panel import CoachPanel
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture
def table():
    def make(game_id: str, size=LANDSCAPE, players: int = 2):
        app = App(Store(":memory:"), SimulatedReader(4), size, settings=Settings(sound=False))
        d = Driver(app)
        start_game(d, game_id, players=players)
        return app, d

    yield make
    pygame.display.quit()


def until_chosen(app: App, rng: random.Random) -> None:
    """Answer chance (random dice, the first cards) until the game waits for a player's choice."""
    game = app.screen.game
    for _ in range(200):
        req = game.state.request()
        if isinstance(req, ChooseMove):
            app.step()
            return
        if isinstance(req, RollDice):
            game.roll(random_roll(req, rng))
        else:
            from companion.sim import random_draw

            game.draw(random_draw(req, rng))
        app.step()
    raise AssertionError("the game never asked for a choice")


def wait_advice(app: App, timeout: float = 60.0):
    panel = app.screen.coach
    end = time.monotonic() + timeout
    while panel.advice is None and time.monotonic() < end:
        app.step()
        time.sleep(0.01)
    assert panel.advice is not None, panel.note
    return panel.advice


def test_coach_is_off_by_default_and_works_nothing_out(table):
    app, _ = table("rollers")
    until_chosen(app, random.Random(3))
    panel = app.screen.coach
    assert not panel.on and panel.advice is None and not panel.busy
    assert not any(t.name.startswith("coach") for t in threading.enumerate())


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_coach_shows_the_same_advice_as_the_core_over_the_board(table, size):
    app, d = table("rollers", size)
    until_chosen(app, random.Random(3))
    before = pygame.surfarray.array3d(app.ui.surface).copy()
    d.tap("table:coach")
    advice = wait_advice(app)
    state = app.screen.game.state
    want = advise(state.clone())
    assert [m.move for m in advice.moves] == [m.move for m in want.moves]
    assert advice.best is not None and advice.best.move == want.best.move
    app.step()
    after = pygame.surfarray.array3d(app.ui.surface)
    assert np.any(before != after)  # the panel is drawn
    assert not app.errors


def test_a_new_position_is_worked_out_again_and_a_stale_answer_dropped():
    calls = []
    gate = threading.Event()

    def slow(state):
        calls.append(len(state.legal_moves()))
        gate.wait(5)
        return advise(state)

    from companion.games import get_game

    info = get_game("rollers")
    state = info.new(["A", "B"])
    rng = random.Random(1)
    from companion.sim import step

    while not isinstance(state.request(), ChooseMove):
        step(state, rng)
    panel = CoachPanel(slow)
    panel.toggle()
    panel.update(state, 1)
    panel.update(state, 2)  # a new event while the first is being worked out
    gate.set()
    end = time.monotonic() + 30
    while panel.advice is None and time.monotonic() < end:
        panel.update(state, 2)
        time.sleep(0.01)
    assert panel.advice is not None and len(calls) == 2  # the first answer, stale, was not shown
    panel.close()


def test_the_first_stage_of_an_answer_is_shown_while_the_rest_is_worked_out():
    """Roll In One's landings come before the strokes to hole out: the panel shows them meanwhile."""
    from tests.rio_helpers import new_game

    gate = threading.Event()
    state = new_game()
    stages = advise_in_stages(state.clone())
    quick, whole = next(stages), next(stages)
    assert "strokes" not in quick.extra and "strokes" in whole.extra

    def staged(state):
        yield quick
        gate.wait(5)
        yield whole

    panel = CoachPanel(staged)
    panel.toggle()
    end = time.monotonic() + 30
    while panel.advice is None and time.monotonic() < end:
        panel.update(state, 1)
        time.sleep(0.01)
    assert panel.advice is quick and panel.busy  # shown while the rest is being worked out
    gate.set()
    while panel.advice is quick and time.monotonic() < end:
        panel.update(state, 1)
        time.sleep(0.01)
    assert panel.advice is whole and not panel.busy
    panel.close()


@pytest.mark.parametrize("game_id", ["doshboardgolf", "hop-n-roll"])
def test_golf_heat_map_and_number_distribution_are_drawn(table, game_id):
    app, d = table(game_id)
    until_chosen(app, random.Random(2))
    d.tap("table:coach")
    advice = wait_advice(app, timeout=120)
    app.step()
    assert not app.errors
    if game_id == "doshboardgolf":
        assert advice.extra["heat"] and advice.best is not None


@pytest.mark.parametrize("game_id", ["doshboardgolf", "roll-in-one"])
def test_the_landing_heat_map_colours_the_course_cells_only_while_the_coach_is_on(table, game_id):
    """Real surfaces: the pixels at the best shot's landing cells (clear of the panel) change colour
    when the Coach is turned on, and are as before once it is off again."""
    from ui.coach_panel import board_cells

    app, d = table(game_id)
    until_chosen(app, random.Random(2))
    if game_id == "roll-in-one":  # to the first aim: the game's own strategy, fair dice, cards dealt
        from companion.sim import random_draw

        game = app.screen.game
        rng = random.Random(5)
        for _ in range(300):
            s = game.state
            if s.phase == "play" and s.turn and s.turn.stage == "aim" and not s.turn.interrupts:
                break
            req = s.request()
            if isinstance(req, ChooseMove):
                game.move(s.info.strategy(s, list(s.legal_moves()), rng))
            elif isinstance(req, RollDice):
                game.roll(random_roll(req, rng))
            else:
                game.draw(random_draw(req, rng))
            app.step()
    app.step()
    off = pygame.surfarray.array3d(app.ui.surface).copy()
    d.tap("table:coach")
    wait_advice(app, timeout=120)
    app.step()
    on = pygame.surfarray.array3d(app.ui.surface).copy()
    # the advice this frame drew: answers come in stages (Doshboardgolf's elbows after its straight
    # aims), and a later stage's best shot may land elsewhere
    advice = app.screen.coach.advice
    panel = app.screen.coach.drawn
    at, _ = board_cells(advice, app.screen.view)
    cells = [at(c) for c, p in advice.best.outcomes if p > 0]
    clear = [xy for xy in cells if xy is not None and not panel.collidepoint(xy)]
    assert clear, "no landing cell clear of the panel"
    for x, y in clear:
        assert tuple(on[x, y]) != tuple(off[x, y]), (x, y)
    d.tap("table:coach")  # off again
    app.step()
    again = pygame.surfarray.array3d(app.ui.surface)
    for x, y in clear:
        assert tuple(again[x, y]) == tuple(off[x, y]), (x, y)
    assert not app.errors
