"""The Doshboardgolf view in the real app, headless: a whole game played by tapping the view's own
controls (the clock dial around the ball, the cards), and the table's screenshots checked region by
region at 800x480 and 720x1280."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pygame
import pytest
from test_ui_app import start_game
from test_ui_screens import check_screen

from companion.games import all_games
from companion.games.doshboardgolf.moves import Aim, Club, Keep
from companion.protocol import ChooseMove, GameOver, RollDice
from companion.record import replay
from companion.store import Store
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings
from ui.views.doshboardgolf import FILL, HILL, LEG_COLOUR, PATH_PLAN, DoshView, cell_xy

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

SHOTS = Path("/tmp/view-dosh")


def new_app(size=LANDSCAPE, seed: int = 4) -> tuple[App, Driver]:
    app = App(Store(":memory:"), SimulatedReader(seed), size, settings=Settings(sound=False))
    return app, Driver(app)


@pytest.fixture
def quit_display():
    yield
    pygame.display.quit()


def play_step(d: Driver, rng: random.Random) -> str:
    """One step through the view's own controls, choosing with the game's strategy."""
    table = d.app.screen
    state = table.game.state
    req = state.request()
    if d.answer_chance() == "roll":
        return "roll"
    assert isinstance(req, ChooseMove)
    move = all_games()["doshboardgolf"].strategy(state, list(state.legal_moves()), rng)
    if isinstance(move, Aim):
        d.tap(f"dosh:aim:{move.direction}")
        assert table.view.direction == move.direction
        if move.elbow is None:
            d.tap("dosh:straight")
        else:
            d.tap_paged(f"dosh:elbow:{move.elbow}")
            d.tap_paged(f"move:{move}")
        return "aim"
    if isinstance(move, Club | Keep):
        d.tap_paged(f"move:{move}")
        return "card"
    d.choose(str(move))
    return "list"


def test_a_complete_game_through_the_dedicated_view(quit_display):
    app, d = new_app()
    start_game(d, "doshboardgolf", players=2)
    table = app.screen
    assert isinstance(table.view, DoshView)
    game = table.game
    rng = random.Random(11)
    kinds: dict[str, int] = {}
    tables_seen = False
    for _ in range(1500):
        if app.screen.name != "table":
            break
        state = game.state
        if state.phase == "card" and not tables_seen:  # read a card's table, then play it from there
            d.tap("dosh:mode")
            card = state.cards_left(state.current)[-1].number
            d.tap(f"dosh:table:{card}")
            assert f"dosh:play:{card}" in d.ids()
            before = len(game.events)
            d.tap(f"dosh:play:{card}")
            assert len(game.events) == before + 1 and game.state.plan["card"] == card
            assert table.view.mode == "board"  # back to the board after the move
            tables_seen = True
            continue
        kind = play_step(d, rng)
        kinds[kind] = kinds.get(kind, 0) + 1
        assert not app.errors, app.errors
        assert app.overlay is None, getattr(app.overlay, "text", app.overlay)
    assert app.screen.name == "end", f"unfinished after the step limit: {game.state.request().prompt}"
    assert isinstance(game.state.request(), GameOver)
    assert replay(game.events) == game.state
    assert tables_seen and kinds["aim"] >= 18 and kinds["card"] >= 9  # nine holes, two players
    assert len(game.state.strokes[0]) == 9


def _pixels(surface: pygame.Surface, centre: tuple[int, int], r: int) -> list[tuple[int, int, int]]:
    out = []
    for x in range(centre[0] - r, centre[0] + r + 1):
        for y in range(centre[1] - r, centre[1] + r + 1):
            if surface.get_rect().collidepoint(x, y):
                out.append(tuple(surface.get_at((x, y)))[:3])
    return out


def _near(a, b, tol: int = 30) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def _advance_to(d: Driver, rng: random.Random, want) -> None:
    for _ in range(400):
        if want(d.app.screen.game.state):
            return
        play_step(d, rng)
    raise AssertionError("state not reached")


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_table_screenshots_region_by_region(size, quit_display):
    SHOTS.mkdir(parents=True, exist_ok=True)
    app, d = new_app(size)
    start_game(d, "doshboardgolf", players=3)
    table = app.screen
    view: DoshView = table.view
    rng = random.Random(2)
    tag = f"{size[0]}x{size[1]}"
    # after a shot or two, at an aim: the board, balls, the last counted path, the dial
    _advance_to(d, rng, lambda s: s.phase == "aim" and s.last_shot and len(s.last_shot["path"]) >= 3)
    app.ui.text_sizes.clear()
    app.step()
    check_screen(app, f"dosh aim {tag}")
    state = table.game.state
    v = state.view()
    d.tap("dosh:aim:3")
    app.screenshot(SHOTS / f"aim-{tag}.png")
    shot = pygame.image.load(str(SHOTS / f"aim-{tag}.png"))
    g = view.geometry
    assert g is not None and g.u >= (16 if size == LANDSCAPE else 26)  # cells big enough to see
    cells = {c["cell"]: c for c in v["board"]["cells"]}
    dial = {w.id: w for w in app.ui.widgets if w.id.startswith("dosh:aim:")}
    covered = [w.rect for w in dial.values()]

    def free(p):  # a board point not under the dial or the ball markers
        return not any(r.inflate(8, 8).collidepoint(p) for r in covered)

    def sample(kind):
        for c in v["board"]["cells"]:
            p = g.px((c["x"], c["y"]))
            if c["kind"] == kind and c["level"] == 0 and free(p) and c["cell"] not in v["lies"]:
                return c["cell"], p
        raise AssertionError(f"no free {kind} cell")

    # cell types: water is blue with pale waves, grass green with the white centre dot, trees dark symbols
    _, p = sample("water")
    px = _pixels(shot, p, round(g.u * 0.35))
    assert sum(1 for c in px if _near(c, FILL["water"])) > len(px) // 3
    assert any(c[2] > 200 and c[0] > 150 for c in px), "water has no wave symbol"
    name, p = sample("grass")
    assert _near(tuple(shot.get_at(p))[:3], (235, 235, 225), 20), f"no centre dot on {name}"
    assert _near(tuple(shot.get_at((p[0] + round(g.u * 0.3), p[1])))[:3], FILL["grass"], 10)
    _, p = sample("big tree")
    assert any(_near(c, (25, 55, 25), 12) for c in _pixels(shot, p, round(g.u * 0.3)))
    # a hill line is drawn on the edge between its upper and lower cells
    upper, lower = next(pair for pair in v["board"]["hill_lines"] if all(free(g.cell(c)) for c in pair))
    (ax, ay), (bx, by) = cell_xy(upper), cell_xy(lower)
    mid = g.px(((ax + bx) / 2, (ay + by) / 2))
    assert any(_near(c, HILL, 20) for c in _pixels(shot, mid, 2))
    # every ball in play, in its player's colour, at its lie
    for i, lie in enumerate(v["lies"]):
        if v["holed"][i]:
            continue
        rgb = table.colour(i).rgb
        assert any(_near(c, rgb, 12) for c in _pixels(shot, g.cell(lie), round(g.u * 1.2))), (i, lie)
    # the counted path of the last shot: a dot in its leg's colour at each counted cell on the board
    counted = [
        e
        for e in v["counted_path"][1:]
        if e["cell"] in cells and free(g.cell(e["cell"])) and e["cell"] not in v["lies"]  # balls on top
    ]
    assert counted
    for e in counted:
        colour = LEG_COLOUR[e["leg"]]
        assert any(_near(c, colour, 12) for c in _pixels(shot, g.cell(e["cell"]), round(g.u * 0.3))), e
    # the dial: twelve tappable clock numbers, the chosen one highlighted
    assert len(dial) == 12 and all(w.rect.width >= 48 and w.rect.height >= 48 for w in dial.values())
    assert _near(tuple(shot.get_at(dial["dosh:aim:3"].rect.center))[:3], (255, 220, 90), 40) or any(
        _near(c, (255, 220, 90), 10) for c in _pixels(shot, dial["dosh:aim:3"].rect.center, 12)
    )
    assert "dosh:straight" in d.ids()
    # aim straight: the planned path is drawn, dot by dot, along the line
    d.tap("dosh:straight")
    state = table.game.state
    assert state.phase == "card"
    app.ui.text_sizes.clear()
    app.step()
    check_screen(app, f"dosh card {tag}")
    app.screenshot(SHOTS / f"card-{tag}.png")
    shot = pygame.image.load(str(SHOTS / f"card-{tag}.png"))
    planned = state.view()["plan"]["planned_path"]
    assert planned
    hits = [c for c in planned if any(_near(px, PATH_PLAN, 25) for px in _pixels(shot, g.cell(c), 3))]
    assert len(hits) >= len(planned) * 0.7, (planned, hits)
    # the cards: one tappable tile per card left, and its Distance/Hook table on tap
    left = state.cards_left(state.current)
    assert all(f"move:card {c.number}" in d.ids() or "page:next" in d.ids() for c in left)
    # four cards a page at both sizes (the page buttons share a row with the mode button), the board's
    # cells as big as when aiming
    shown = [w for w in app.ui.widgets if w.id.startswith("move:card ")]
    assert len(shown) >= min(4, len(left)), [w.id for w in shown]
    assert view.geometry.u >= (16 if size == LANDSCAPE else 26)
    d.tap("dosh:mode")
    app.ui.text_sizes.clear()
    app.step()
    check_screen(app, f"dosh cards {tag}")
    app.screenshot(SHOTS / f"cards-{tag}.png")
    assert {f"dosh:table:{c.number}" for c in left} <= set(d.ids())
    d.tap(f"dosh:table:{left[0].number}")
    app.ui.text_sizes.clear()
    app.step()
    check_screen(app, f"dosh table {tag}")
    app.screenshot(SHOTS / f"table-{tag}.png")
    assert f"dosh:play:{left[0].number}" in d.ids()
    # the roll: the board stays drawn in portrait beside the dice
    d.tap(f"dosh:play:{left[0].number}")
    _advance_to(d, random.Random(1), lambda s: isinstance(s.request(), RollDice) and s.phase == "roll")
    app.ui.text_sizes.clear()
    app.step()
    check_screen(app, f"dosh roll {tag}")
    app.screenshot(SHOTS / f"roll-{tag}.png")
    assert not app.errors


def start_with(d: Driver, options: dict[str, str]) -> None:
    """A two-player Doshboardgolf game with ``options`` set on the new-game screens."""
    d.tap("home:new")
    d.tap_paged("game:doshboardgolf")
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


def test_the_turn_clock_counts_down_and_records_the_time_penalty(quit_display):
    """§Time Limit: one minute a turn; when it runs out the table records one penalty stroke."""
    app, d = new_app()
    start_with(d, {"time_limit": "all"})
    table = app.screen
    view = table.view
    assert isinstance(view, DoshView) and table.game.state.options["time_limit"] == "all"
    now = [1000.0]
    view.clock = lambda: now[0]
    app.step()  # the view sees Ann's turn: her minute starts
    game = table.game
    assert view.seconds_left(game.state, game.state.view()) == 60
    now[0] += 50.5
    app.step()
    assert view.seconds_left(game.state, game.state.view()) == pytest.approx(9.5)
    assert not any(getattr(e, "move", None) == "time penalty" for e in game.events)
    now[0] += 10
    app.step()  # time is up
    assert [getattr(e, "move", None) for e in game.events].count("time penalty") == 1
    assert game.state.strokes[0][0] == 1 and game.state.current_player == 0
    now[0] += 120
    app.step()
    app.step()
    assert [getattr(e, "move", None) for e in game.events].count("time penalty") == 1  # once a turn
    assert replay(game.events) == game.state


def test_no_clock_without_the_time_limit(quit_display):
    app, d = new_app()
    start_game(d, "doshboardgolf", players=2)
    view = app.screen.view
    now = [0.0]
    view.clock = lambda: now[0]
    app.step()
    now[0] += 600
    app.step()
    state = app.screen.game.state
    assert view.seconds_left(state, state.view()) is None and state.strokes[0][0] == 0
