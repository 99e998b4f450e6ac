"""Roll In One's own view, driven headless by tapping it: a whole game chosen by the engine's strategy and
played through the course editor, the club buttons and the direction arrows; screenshots at both sizes
checked region by region (terrain, flag, balls, arrows, path)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pygame
import pytest
from test_ui_screens import check_screen

from companion.games import get_game
from companion.games.roll_in_one.hexgrid import DIRECTION_NAMES
from companion.games.roll_in_one.moves import Curve, PlaceGreen, TeeOff
from companion.protocol import ChooseMove
from companion.record import replay
from companion.store import Store
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings
from ui.views.roll_in_one import TERRAIN, RollInOneView

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

INFO = get_game("roll-in-one")
SHOTS = Path("/tmp/view-rio")


@pytest.fixture
def make_app():
    def make(size=LANDSCAPE, store=None) -> tuple[App, Driver]:
        app = App(store or Store(":memory:"), SimulatedReader(3), size, settings=Settings(sound=False))
        app.reader.card_rng = random.Random(8)  # the "Random cards" button draws from it
        return app, Driver(app)

    yield make
    pygame.display.quit()


def start(d: Driver, options: dict[str, str], players: int = 2) -> None:
    """New game of Roll In One for ``players`` players, with ``options`` set on the rules page."""
    d.tap("home:new")
    d.tap_paged("game:roll-in-one")
    for _ in range(players - 2):
        d.tap("players:add")
    for _ in range(2 - players):
        d.tap("players:remove")
    todo = dict(options)
    for _ in range(40):
        if d.app.screen.name != "newgame":
            return
        for key, value in list(todo.items()):
            if d.find(f"option:{key}={value}") is not None:
                d.tap(f"option:{key}={value}")
                del todo[key]
        nxt = d.find("opt:next")
        if todo and nxt is not None and nxt.enabled:
            d.tap("opt:next")
        else:
            d.tap("newgame:next")
    raise AssertionError("the table did not open")


def view_of(d: Driver) -> RollInOneView:
    view = d.app.screen.view
    assert isinstance(view, RollInOneView)
    return view


def tap_move(d: Driver, move) -> None:
    """Play ``move`` as a player would: on the drawn course when the view offers it, else from the list."""
    view_of(d).tap_move(d, move, d.app.screen.game.state)


def step(d: Driver, rng: random.Random) -> str:
    """One step of the game through the UI; returns the kind of the move played."""
    state = d.app.screen.game.state
    req = state.request()
    chance = d.answer_chance()
    if chance is not None:
        return chance
    assert isinstance(req, ChooseMove)
    move = INFO.strategy(state, list(state.legal_moves()), rng)
    before = len(d.app.screen.game.events)
    tap_move(d, move)
    assert d.app.overlay is None, getattr(d.app.overlay, "text", d.app.overlay)
    assert len(d.app.screen.game.events) == before + 1, f"{move} was not played"
    return type(move).__name__


def test_a_whole_game_through_the_course_editor_and_the_arrows(make_app, tmp_path):
    store = Store(tmp_path / "games.db")
    app, d = make_app(store=store)
    start(d, {"round_limit": "10", "golfers": "none", "mode": "standard"})
    assert app.screen.name == "table"
    game = app.screen.game
    rng = random.Random(4)
    played: dict[str, int] = {}
    why_not = {"teeoff": False, "curve": False}
    for _ in range(1500):
        if app.screen.name != "table":
            break
        state = game.state
        if isinstance(state.request(), ChooseMove):
            if state.phase == "design" and TeeOff() not in state.legal_moves() and not why_not["teeoff"]:
                d.tap("rio:teeoff")  # not ready: the rule and the reason, nothing played
                assert app.overlay is not None and app.overlay.title == "Why not?"
                assert app.overlay.rule.startswith("Roll In One §Hole Design"), app.overlay.rule
                d.tap("dialog:OK")
                why_not["teeoff"] = True
            t = state.turn
            if state.phase == "play" and t is not None and t.stage == "curve" and not why_not["curve"]:
                straight = DIRECTION_NAMES[t.direction]
                if Curve(t.direction) not in state.legal_moves():
                    d.tap(f"rio:dir:{straight}")
                    assert app.overlay is not None and app.overlay.title == "Why not?"
                    assert "Roll In One §" in app.overlay.rule
                    d.tap("dialog:OK")
                    why_not["curve"] = True
        kind = step(d, rng)
        played[kind] = played.get(kind, 0) + 1
        assert not app.errors
    assert app.screen.name == "end", played
    assert game.state.is_over
    assert played.get("Shot", 0) > 10 and played.get("roll", 0) > 10
    assert played.get("PlaceBoard", 0) >= 3 and played.get("PlaceGreen", 0) >= 1, played
    assert played.get("TeeOff", 0) + played.get("UseCourse", 0) == game.state.holes_total
    assert why_not["teeoff"]
    assert replay(store.events(app.screen.gid)) == game.state


# --- screenshots ------------------------------------------------------------------------------


def pixels(app: App) -> np.ndarray:
    return pygame.surfarray.array3d(app.logical).swapaxes(0, 1).astype(int)


def share(arr: np.ndarray, rgb, tol: int = 12) -> float:
    return float((np.abs(arr - np.array(rgb)).max(axis=2) <= tol).mean())


def save(app: App, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    pygame.image.save(app.logical, str(SHOTS / f"{name}.png"))


def region(arr: np.ndarray, rect: pygame.Rect) -> np.ndarray:
    return arr[rect.top : rect.bottom, rect.left : rect.right]


def advance(d: Driver, rng: random.Random, until, limit: int = 1000) -> None:
    for _ in range(limit):
        if until(d.app.screen.game.state):
            d.app.step()
            return
        step(d, rng)
    raise AssertionError("the state wanted never came")


def designing_third_board(s) -> bool:
    return s.phase == "design" and len(s.design) == 2 and not s.design_greens


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_screens_of_the_course_at_both_sizes(make_app, size):
    app, d = make_app(size)
    tag = "landscape" if size == LANDSCAPE else "portrait"
    start(d, {"golfers": "none"})
    game = app.screen.game
    rng = random.Random(11)
    view = view_of(d)
    advance(d, rng, designing_third_board)
    # the editor: a + slot chosen shows the board to place there, in place
    slot = next(w.id for w in app.ui.widgets if w.id.startswith("rio:slot:"))
    d.tap(slot)
    d.tap("rio:board:next")
    d.tap("rio:turn")
    save(app, f"{tag}-editor")
    check_screen(app, f"{tag}-editor")
    arr = pixels(app)
    course = region(arr, view.area)
    assert share(course, TERRAIN["tee"][0]) > 0.0003, "the tee is not drawn"
    assert sum(share(course, fill) for fill, _, _ in TERRAIN.values()) > 0.02, "the boards are not drawn"
    assert share(course, theme_selected()) > 0.001, "the chosen slot is not outlined"
    for wid in ("rio:board:prev", "rio:board:next", "rio:turn", "rio:place", "rio:teeoff", "rio:list"):
        assert d.find(wid) is not None, wid
    d.tap("rio:place")
    assert len(game.state.design) == 3
    # green mode: tap a board, it fills the board area with spaces big enough to tap
    d.tap("rio:mode:green")
    d.tap("rio:zoom:2")
    save(app, f"{tag}-editor-green")
    check_screen(app, f"{tag}-editor-green")
    spaces = [w for w in app.ui.widgets if w.id.startswith("rio:space:")]
    assert len(spaces) >= 15
    target = next(
        w for w in spaces if PlaceGreen(tuple(map(int, w.id[10:].split(",")))) in game.state.legal_moves()
    )
    d.tap(target.id)
    assert game.state.design_greens
    # play until a shot is being aimed: clubs, arrows around the ball, the flag, every ball
    advance(d, rng, lambda s: s.phase == "play" and s.turn.stage == "aim" and s.strokes[s.turn.player] >= 1)
    d.tap("rio:club:wood")
    save(app, f"{tag}-aim")
    check_screen(app, f"{tag}-aim")
    arr = pixels(app)
    course = region(arr, view.area)
    assert share(course, TERRAIN["fairway"][0]) + share(course, TERRAIN["rough"][0]) > 0.03
    assert share(course, (200, 70, 70), 20) > 0.0002, "no flag on the green"
    arrows = [w for w in app.ui.widgets if w.id.startswith("rio:dir:")]
    assert len(arrows) == 6
    ring = (sum(w.rect.centerx for w in arrows) // 6, sum(w.rect.centery for w in arrows) // 6)
    assert (
        view.ball_at is not None
        and abs(ring[0] - view.ball_at[0]) <= 2
        and abs(ring[1] - view.ball_at[1]) <= 2
    )
    me = game.state.turn.player
    colour = app.screen.colour(me).rgb
    bx, by = view.ball_at
    assert share(arr[by - 6 : by + 7, bx - 6 : bx + 7], colour, 30) > 0.2, (
        "the ball is not drawn at its space"
    )
    assert d.find("rio:club:wood").rect.width >= 48
    # a shot in progress: the path from where it started
    advance(
        d,
        rng,
        lambda s: (
            s.phase == "play"
            and s.turn
            and len(s.turn.path) > 2
            and isinstance(s.request(), ChooseMove)
            and s.turn.stage != "aim"
        ),
    )
    save(app, f"{tag}-shot")
    check_screen(app, f"{tag}-shot")
    course = region(pixels(app), view.area)
    assert share(course, (255, 255, 255), 8) > 0.001, "the shot's path is not drawn"


@pytest.mark.parametrize(
    ("size", "players", "options"),
    [
        (PORTRAIT, 1, {"mode": "solo", "golfers": "chosen", "handicap": "6"}),
        (LANDSCAPE, 3, {"mode": "campaign", "cards": "open", "bumper": "on", "round_limit": "10"}),
    ],
    ids=["solo-portrait", "campaign-landscape"],
)
def test_other_modes_play_through_the_view_and_every_screen_passes(make_app, size, players, options):
    """Solo with chosen golfers and handicap points, a campaign course with several greens and bumper golf:
    every step is played by taps and every screen passes the region checks."""
    app, d = make_app(size)
    start(d, options, players)
    game = app.screen.game
    assert len(game.state.players) == players and game.state.mode == options["mode"]
    rng = random.Random(6)
    kinds: set[str] = set()
    greens_drawn = False
    view = view_of(d)
    for n in range(120):
        if app.screen.name != "table":
            break
        if n % 3 == 0:
            check_screen(app, f"{options['mode']} step {n}")
        state = game.state
        if state.phase == "play" and isinstance(state.request(), ChooseMove) and not greens_drawn:
            save(app, f"{options['mode']}-{'portrait' if size == PORTRAIT else 'landscape'}")
            arr = region(pixels(app), view.area)
            assert share(arr, (150, 235, 120), 4) > 0.0005 * len(state.greens), "the greens are not drawn"
            greens_drawn = True
        kinds.add(step(d, rng))
        assert not app.errors
    assert "Shot" in kinds and "roll" in kinds, kinds
    assert greens_drawn
    if options["mode"] == "campaign":
        assert len(game.state.greens) >= 2


def theme_selected():
    from ui import theme

    return theme.SELECTED


def test_the_header_says_the_scored_holes_penalty_tokens_were_discarded():
    view = RollInOneView(INFO)
    after = {"phase": "design", "hole": 2, "holes": 4, "penalties_discarded": [1, 0, 2]}
    assert "3 penalty tokens of hole 1 discarded" in view._header(after)
    assert "discarded" not in view._header({**after, "penalties_discarded": [0, 0, 0]})


def targets_in_mm(app: App, where: str) -> list[float]:
    """Every target's smaller side in millimetres (each checked to be 9 mm at least, none overlapping)."""
    m = app.ui.metrics
    sides = []
    for w in app.ui.widgets:
        side = min(w.rect.size) / m.px_per_mm
        assert side >= 9.0, f"{where}: {w.id} {w.rect} is {side:.1f} mm"
        sides.append(side)
    live = [w for w in app.ui.widgets if w.enabled]
    for i, a in enumerate(live):
        for b in live[i + 1 :]:
            assert not a.rect.colliderect(b.rect), f"{where}: {a.id} and {b.id} overlap"
    return sides


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_the_course_editors_targets_are_9_mm(make_app, size):
    """Issue 55, defect 5: every target of the course editor (its + slots, the boards to zoom into, the
    spaces of a zoomed board, the pickers) measures at least 9 mm each way at the screen's density."""
    app, d = make_app(size)
    start(d, {"golfers": "none"})
    rng = random.Random(11)
    advance(d, rng, designing_third_board)
    targets_in_mm(app, "editor")
    slots = [w.id for w in app.ui.widgets if w.id.startswith("rio:slot:") and w.id[9:10] in "-0123456789"]
    if size == LANDSCAPE:  # at 800x480 the slots are far enough apart to be tapped on the course
        assert slots
    if slots:
        d.tap(slots[0])
    else:
        d.tap("rio:slot:next")
    d.tap("rio:board:next")
    targets_in_mm(app, "a slot chosen")
    d.tap("rio:place")
    d.tap("rio:mode:green")
    targets_in_mm(app, "green mode")
    assert d.find("rio:zoom:2") is not None
    d.tap("rio:zoom:2")
    sides = targets_in_mm(app, "a board zoomed into")
    assert len([w for w in app.ui.widgets if w.id.startswith("rio:space:")]) >= 15
    assert min(sides) >= 9.0
