"""The Roll For It! view, driven headless through the real app: a complete game played by tapping the
view's own dice, card images and buttons (the engine's strategy choosing), the 'why not?' answer for a
die put beside a card that does not show it, and the table at 800x480 and 720x1280 checked region by
region."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pygame
import pytest
from test_ui_app import start_game
from test_ui_screens import busy, check_screen

from companion.games.roll_for_it import INFO, Place, RollForIt, RollOn, TakeBack
from companion.protocol import ChooseMove, DrawCards, GameOver, RollDice
from companion.record import replay
from companion.sim import random_draw, random_roll
from companion.store import Store
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings
from ui.views.roll_for_it import DIE_RGB, RollForItView

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # read when the display starts
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

SHOTS = Path("/tmp/view-rfi")


def new_app(size=LANDSCAPE, players: int = 2) -> tuple[App, Driver]:
    app = App(Store(":memory:"), SimulatedReader(11), size, settings=Settings(sound=False))
    d = Driver(app)
    start_game(d, "roll-for-it", players=players)
    assert app.screen.name == "table"
    assert isinstance(app.screen.view, RollForItView)
    return app, d


def image_id(d: Driver, state: RollForIt, pos: int, face: int) -> str:
    """The widget of card ``pos``'s first image showing ``face`` (the whole card when images are small)."""
    view = state.view()["cards"][pos - 1]
    j = [im["face"] for im in view["images"]].index(face)
    wid = f"rfi:image:{pos}:{j}"
    return wid if d.find(wid) is not None else f"rfi:card:{pos}"


def place_by_taps(d: Driver, state: RollForIt, move: Place) -> None:
    """Build ``move`` on the board: a rolled die, then an image of that face on the card; then Play."""
    view = d.app.screen.view
    for pos, faces in move.cards:
        for f in faces:
            i = next(k for k, v in enumerate(state.rolled) if v == int(f) and k not in view.assigned)
            d.tap(f"rfi:die:{i}")
            assert view.selected == i
            d.tap(image_id(d, state, pos, int(f)))
            assert view.assigned[i] == pos and view.selected is None
    assert str(view.pending(state.rolled)) == str(move)
    d.tap("rfi:play")


def test_a_complete_game_through_the_view():
    app, d = new_app()
    game = app.screen.game
    rng = random.Random(8)
    steps = placed = takebacks = hinted = 0
    try:
        while app.screen.name == "table":
            state = game.state
            req = state.request()
            before = state.clone()
            if d.answer_chance() is None:
                assert isinstance(req, ChooseMove)
                legal = list(state.legal_moves())
                move = INFO.strategy(state, legal, rng)
                if takebacks == 0 and any(isinstance(m, TakeBack) for m in legal):
                    move = TakeBack()  # the first chance: take the dice back through the view's button
                if isinstance(move, RollOn):
                    d.tap("rfi:roll")
                elif isinstance(move, TakeBack):
                    d.tap("rfi:takeback")
                    takebacks += 1
                elif not move.cards or (hinted == 0 and str(move) == str(state.hints()[0].move)):
                    d.tap_paged(f"move:{move}")  # a suggestion, played in one tap
                    hinted += bool(move.cards)
                else:
                    place_by_taps(d, state, move)
                    placed += 1
                expected = before.clone()
                expected.apply(move)
                assert game.state == expected, move
            assert not app.errors, app.errors
            assert app.overlay is None, getattr(app.overlay, "text", app.overlay)
            steps += 1
            assert steps < 1500
    finally:
        pygame.display.quit()
    assert app.screen.name == "end"
    over = game.state.request()
    assert isinstance(over, GameOver) and max(game.state.scores()) >= 40
    assert replay(game.events) == game.state
    assert placed >= 5 and hinted >= 1 and takebacks >= 1


def play_until(app: App, rng: random.Random, done, limit: int = 400) -> None:
    """Answer the table's requests (the strategy choosing) until ``done(state)``."""
    game = app.screen.game
    for _ in range(limit):
        state = game.state
        if done(state):
            app.step()
            return
        req = state.request()
        if isinstance(req, RollDice):
            game.roll(random_roll(req, rng))
        elif isinstance(req, DrawCards):
            game.draw(random_draw(req, rng))
        elif isinstance(req, ChooseMove):
            game.move(INFO.strategy(state, list(state.legal_moves()), rng))
        else:
            break
        app.step()
    raise AssertionError("the situation never came up")


def test_why_not_for_a_die_beside_a_card_without_its_face():
    app, d = new_app()
    try:
        rng = random.Random(2)

        def mismatch(state) -> bool:
            if state.phase != "match":
                return False
            return any(
                c is not None
                and any(f not in [int(x) for x in c.split(":")[1].split("-")] for f in state.rolled)
                for c in state.cards
            )

        play_until(app, rng, mismatch)
        state = app.screen.game.state
        before = state.clone()
        pos, face = next(
            (i + 1, f)
            for i, c in enumerate(state.cards)
            if c is not None
            for f in state.rolled
            if f not in [int(x) for x in c.split(":")[1].split("-")]
        )
        i = state.rolled.index(face)
        d.tap(f"rfi:die:{i}")
        wid = next(w for w in d.ids() if w.startswith(f"rfi:image:{pos}:") or w == f"rfi:card:{pos}")
        d.tap(wid)
        assert app.overlay is not None and app.overlay.title == "Why not?"
        assert app.overlay.rule == "Roll For It! §Match it!"
        assert f"shows no {face}" in app.overlay.text
        d.tap("dialog:OK")
        assert app.screen.view.assigned == {} and app.screen.game.state == before
        assert app.screen.view.selected == i  # still in hand: try another card, or tap it to let go
        d.tap(f"rfi:die:{i}")
        assert app.screen.view.selected is None
        assert not d.find("rfi:play").enabled  # nothing placed yet
        # with no die chosen, an image no rolled die matches: the note says what the card still needs
        spots = [
            (p, j, im["face"])
            for p, c in enumerate(state.view()["cards"], 1)
            for j, im in enumerate(c["images"])
            if im["face"] not in state.rolled
        ]
        assert spots  # the card above shows a face not rolled
        p, j, f = spots[0]
        d.tap(f"rfi:image:{p}:{j}")
        note = app.screen.note
        assert note.startswith(f"No rolled die of yours shows {f}") and f"card {p}" in note, note
        assert app.screen.view.assigned == {} and app.overlay is None
    finally:
        pygame.display.quit()


def colour_px(arr: np.ndarray, rgb) -> int:
    return int((np.abs(arr.astype(int) - rgb).max(axis=2) < 12).sum())


@pytest.mark.parametrize("players", [2, 5], ids=["3 cards", "4 cards"])
@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_the_table_at_both_sizes(size, players):
    SHOTS.mkdir(parents=True, exist_ok=True)
    app, d = new_app(size, players)
    tag = f"{size[0]}x{size[1]}-{players}p"
    try:
        rng = random.Random(5)
        play_until(app, rng, lambda s: s.phase == "start" and any(s.piles))
        app.ui.text_sizes.clear()
        app.step()
        check_screen(app, f"roll-for-it start {tag}")
        app.screenshot(SHOTS / f"start-{tag}.png")
        assert d.find("rfi:roll").enabled and d.find("rfi:takeback").enabled
        state = app.screen.game.state
        me = state.colours[state.turn]
        # the board: every face-up card carries its points, and the dice on cards show as letter chips
        arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1)
        for c in state.cards:
            assert c is not None
        on_cards = {state.colours[q] for pos in state.dice for q, f in enumerate(pos) if f}
        for colour in on_cards:
            assert colour_px(arr, DIE_RGB[colour]) > 30, f"{tag}: no {colour} dice drawn on the cards"

        play_until(app, rng, lambda s: s.phase == "match" and len(s.rolled) >= 2)
        state = app.screen.game.state
        me = state.colours[state.turn]
        hint = state.hints()[0].move
        assert hint.cards
        pos, faces = hint.cards[0]
        i = state.rolled.index(int(faces[0]))
        d.tap(f"rfi:die:{i}")
        d.tap(image_id(d, state, pos, int(faces[0])))
        j = next(k for k in range(len(state.rolled)) if k not in app.screen.view.assigned)
        d.tap(f"rfi:die:{j}")  # one more chosen, waiting for its card
        app.ui.text_sizes.clear()
        app.step()
        check_screen(app, f"roll-for-it match {tag}")
        app.screenshot(SHOTS / f"match-{tag}.png")
        assert d.find("rfi:play").enabled and d.find("rfi:clear").enabled
        assert d.find(f"move:{hint}") is not None  # the best suggestion is on the first page
        arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1)
        dice = [d.find(f"rfi:die:{k}").rect for k in range(len(state.rolled))]
        row = pygame.Rect(dice[0]).unionall(dice[1:])
        strip = arr[row.top : row.bottom, row.left : row.right]
        assert colour_px(strip, DIE_RGB[me]) > 200 * len(state.rolled) // 2, f"{tag}: rolled dice not drawn"
        assert busy(strip) > 0.2
        # the cards, each image a target of its own when it is big enough, else the card itself
        targets = [w for w in app.ui.widgets if w.id.startswith(("rfi:image:", "rfi:card:"))]
        assert {int(w.id.split(":")[2]) for w in targets} == set(range(1, len(state.cards) + 1))
        if len(state.cards) == 3:  # three cards leave room for a target per die image at both sizes
            assert all(w.id.startswith("rfi:image:") for w in targets)
            assert len(targets) == sum(len(c.split(":")[1].split("-")) for c in state.cards)
        board = pygame.Rect(targets[0].rect).unionall([w.rect for w in targets[1:]])
        assert busy(arr[board.top : board.bottom, board.left : board.right]) > 0.1
        assert board.bottom <= row.top  # the roll lies below the cards
        d.tap("rfi:clear")
        assert app.screen.view.assigned == {} and app.screen.view.selected is None

        play_until(app, rng, lambda s: s.phase == "roll" and any(s.piles))
        app.ui.text_sizes.clear()
        app.step()
        check_screen(app, f"roll-for-it roll {tag}")
        app.screenshot(SHOTS / f"roll-{tag}.png")
        assert not app.errors
    finally:
        pygame.display.quit()
