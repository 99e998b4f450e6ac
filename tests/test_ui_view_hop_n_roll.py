"""The Hop'n'ROLL view in the real app, headless: whole games played by tapping the drawn dice board and
score sheet (the engine's strategy choosing), "why not?" for illegal taps, and screenshots at both
sizes checked region by region (legal spaces framed and marked, pawns, dice, pyramids)."""

from __future__ import annotations

import copy
import os
import random

import numpy as np
import pygame
import pytest
from test_ui_screens import check_screen

from companion.games.hop_n_roll import INFO, Hop, Pass, Write
from companion.protocol import ChooseMove, RollDice
from companion.store import Store
from ui import theme
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings
from ui.views.hop_n_roll import HopNRollView

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def start(d: Driver, players: int, options: dict[str, str]) -> None:
    d.tap("home:new")
    d.tap_paged("game:hop-n-roll")
    for _ in range(players - 2):
        d.tap("players:add")
    chosen: set[str] = set()
    while d.app.screen.name == "newgame":
        for key, value in options.items():
            if d.find(f"option:{key}={value}") is not None:
                d.tap(f"option:{key}={value}")
                chosen.add(key)
        nxt = d.find("opt:next")
        if nxt is not None and nxt.enabled and set(options) - chosen:
            d.tap("opt:next")
            continue
        d.tap("newgame:next")
    assert chosen == set(options)
    assert d.app.screen.game.state.options | options == d.app.screen.game.state.options


def pixels(app: App, rect: pygame.Rect) -> np.ndarray:
    arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1)
    return arr[rect.top : rect.bottom, rect.left : rect.right].astype(int)


def count_colour(app: App, rect: pygame.Rect, rgb: tuple[int, int, int], tol: int = 30) -> int:
    return int((np.abs(pixels(app, rect) - rgb).max(axis=2) < tol).sum())


def play_step(d: Driver, rng: random.Random, used: dict[str, int]) -> None:
    """One step through the UI: roll by reading the tray, else tap the board or sheet for the move the
    engine's strategy picks (narrowing the list when a space allows several moves)."""
    app = d.app
    game = app.screen.game
    state = game.state
    req = state.request()
    if d.answer_chance() is not None:
        return
    assert isinstance(req, ChooseMove)
    move = INFO.strategy(state, list(state.legal_moves()), rng)
    expected = copy.deepcopy(state)
    expected.apply(move)
    events = len(game.events)
    if sum(used.values()) % 7 == 3 and not isinstance(move, Pass):  # now and then from the move list
        d.choose(str(move))
        used["list"] += 1
    elif isinstance(move, Hop):
        # the free space, or now and then the die beside it
        die = d.find(f"board:die:{move.row}") if used["board"] % 2 else None
        d.tap(die.id if die is not None else f"space:{move.row}")
        used["board"] += 1
        used["die"] += die is not None
    elif isinstance(move, Write):
        pyramid = state.sheet.area(move.area).pyramid
        d.tap(f"sheet:{move.area}:{move.space}" if pyramid else f"sheet:{move.area}")
        used["sheet"] += 1
    else:
        assert isinstance(move, Pass)
        d.choose("pass")
        used["list"] += 1
    if len(game.events) == events:  # the space allows several moves: the list narrowed to them
        assert d.find("group:back") is not None
        d.tap_paged(f"move:{move}")
        used["narrowed"] += 1
    assert game.state == expected, move
    assert app.overlay is None, getattr(app.overlay, "text", app.overlay)


def why_not(d: Driver, wid: str) -> str:
    d.tap(wid)
    overlay = d.app.overlay
    assert overlay is not None and overlay.title == "Why not?", wid
    rule = overlay.rule
    assert rule.startswith("Hop'n'ROLL") and overlay.text
    d.tap("dialog:OK")
    assert d.app.overlay is None
    return rule


@pytest.mark.parametrize(
    ("players", "options", "size"),
    [
        (2, {}, LANDSCAPE),
        (3, {"board": "B", "sheet": "advanced"}, LANDSCAPE),
        (4, {"board": "B", "sheet": "standard"}, PORTRAIT),
    ],
    ids=["A-standard-2p", "B-advanced-3p", "B-standard-4p-portrait"],
)
def test_a_complete_game_by_tapping_the_board_and_sheets(players, options, size):
    app = App(Store(":memory:"), SimulatedReader(11), size, settings=Settings(sound=False))
    d = Driver(app)
    try:
        start(d, players, options)
        assert isinstance(app.screen.view, HopNRollView)
        game = app.screen.game
        rng = random.Random(players)
        used = {"board": 0, "die": 0, "sheet": 0, "list": 0, "narrowed": 0}
        refused: set[str] = set()
        for _ in range(1500):
            if app.screen.name != "table":
                break
            state = game.state
            me = state.current_player
            if state.phase == "hop" and state.turn >= 1 and "hop" not in refused:
                # a pawn already stands there: one pawn per space
                taken = state.pawns[state.order[0]]
                assert "one pawn" in why_not(d, f"space:{taken}")
                refused.add("hop")
            if state.phase == "write" and "write" not in refused:
                legal_areas = {m.area for m in state.legal_moves() if isinstance(m, Write)}
                rows = [a.key for a in state.sheet.areas if not a.pyramid and a.key not in legal_areas]
                if rows:
                    why_not(d, f"sheet:{rows[0]}")
                    refused.add("write")
            if state.phase == "write" and "sheets" not in refused:
                # look at every other sheet (not tappable), and come back to one's own
                for _ in range(players - 1):
                    d.tap("sheet:next")
                    assert not any(w.startswith("sheet:") and w != "sheet:next" for w in d.ids())
                d.tap("sheet:next")
                assert any(w.startswith(f"sheet:{a.key}") for w in d.ids() for a in state.sheet.areas)
                assert game.state.current_player == me
                refused.add("sheets")
            play_step(d, rng, used)
            assert not app.errors, app.errors
        print(options or "A standard", players, "players:", used, "rounds", game.state.round)
        assert app.screen.name == "end", "the game did not end"
        assert game.state.request().__class__.__name__ == "GameOver"
        assert {"hop", "write", "sheets"} <= refused
        assert used["list"] >= 5 and used["die"] >= 5, used
        assert used["board"] >= 8 * players and used["sheet"] >= 8 * players, used
        if options.get("board") == "B":
            assert used["narrowed"] > 0, used  # an effect space offers several moves
    finally:
        pygame.display.quit()


def play_until(game, rng, done) -> None:
    for _ in range(500):
        if done(game.state):
            return
        req = game.state.request()
        if isinstance(req, RollDice):
            from companion.sim import random_roll

            game.roll(random_roll(req, rng))
        else:
            game.move(INFO.strategy(game.state, list(game.state.legal_moves()), rng))
    raise AssertionError("never reached")


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_screens_at_both_sizes(size, tmp_path):
    app = App(Store(":memory:"), SimulatedReader(5), size, settings=Settings(sound=False))
    d = Driver(app)
    try:
        start(d, 3, {"board": "B", "sheet": "advanced"})
        game = app.screen.game
        rng = random.Random(8)
        view = app.screen.view
        play_until(game, rng, lambda s: s.round == 4 and s.phase == "roll")
        app.step()
        check_screen(app, "hop-n-roll roll")
        app.screenshot(tmp_path / f"roll-{size[0]}.png")

        # hop phase, after one pawn hopped: legal spaces framed and arrowed, the others not
        play_until(game, rng, lambda s: s.phase == "hop" and s.turn == 1)
        app.step()
        check_screen(app, "hop-n-roll hop")
        app.screenshot(tmp_path / f"hop-{size[0]}.png")
        state = game.state
        legal_rows = {m.row for m in state.legal_moves()}
        for row in range(1, 7):
            w = d.find(f"space:{row}")
            assert w is not None
            framed = count_colour(app, w.rect, theme.SELECTED)
            assert (framed > 40) == (row in legal_rows), (row, framed, legal_rows)
        hopped = state.order[0]
        w = d.find(f"space:{state.pawns[hopped]}")
        assert count_colour(app, w.rect, app.screen.colour(hopped).rgb, 20) > 30, "the pawn is not drawn"
        for row in state.dice:
            die = d.find(f"board:die:{row}")
            assert die is not None
            if state.dice[row][0] != "disco":
                assert count_colour(app, die.rect, (245, 245, 240), 12) > 200, "a white die is missing"

        # write phase: the acting player's sheet, legal spaces framed with a tick
        play_until(game, rng, lambda s: s.phase == "write" and s.round >= 4 and any(
            isinstance(m, Write) and s.sheet.area(m.area).pyramid for m in s.legal_moves()))
        app.step()
        check_screen(app, "hop-n-roll write")
        app.screenshot(tmp_path / f"write-{size[0]}.png")
        state = game.state
        moves = [m for m in state.legal_moves() if isinstance(m, Write)]
        for m in moves:
            pyramid = state.sheet.area(m.area).pyramid
            w = d.find(f"sheet:{m.area}:{m.space}" if pyramid else f"sheet:{m.area}")
            assert w is not None, m
            assert count_colour(app, w.rect, theme.SELECTED) > 40, m
            assert count_colour(app, w.rect, (25, 25, 30), 12) > 10, m  # the tick
        for a in state.sheet.areas:
            if not a.pyramid and all(m.area != a.key for m in moves):
                w = d.find(f"sheet:{a.key}")
                assert count_colour(app, w.rect, theme.SELECTED) < 10, a.key
        # another player's sheet: drawn, but not tappable
        d.tap("sheet:next")
        app.step()
        check_screen(app, "hop-n-roll other sheet")
        app.screenshot(tmp_path / f"other-sheet-{size[0]}.png")
        assert view.shown is not None and view.shown != state.current_player
        assert not [w for w in d.ids() if w.startswith("sheet:") and w != "sheet:next"]
        if os.environ.get("HOP_SHOTS"):
            import shutil

            for png in tmp_path.glob("*.png"):
                shutil.copy(png, os.environ["HOP_SHOTS"])
    finally:
        pygame.display.quit()


class Quiet:
    """The table's actions as the board needs them to draw (colours only)."""

    def colour(self, player: int):
        return theme.PALETTE[player]

    def play(self, move) -> bool:
        return True

    def why_not(self, move) -> None: ...

    def say(self, text: str) -> None: ...


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_the_sheets_star_numbers_stay_inside_their_spaces(size):
    """Beside the dice board the sheet is narrow: a space's stars (up to 16) are drawn inside the space,
    the star left out when the number alone fits (a "16" ran over into the next space)."""
    from ui.widgets import Ui

    pygame.font.init()
    state = INFO.new(("Anna", "Ben", "Chloe"), {"sheet": "advanced", "board": "B"})
    ui = Ui(pygame.Surface(size))
    ui.places = {}
    m = ui.metrics
    rect = pygame.Rect(m.pad, 300, size[0] - 2 * m.pad, 440 if size == PORTRAIT else 320)
    HopNRollView(INFO).draw_board(ui, rect, state, state.view(), Quiet())
    spaces = [r for k, (r, _) in ui.places.items() if k.startswith("sheet:")]
    assert len(spaces) > 20
    checked = 0
    for text, _, tr in ui.drawn:
        if not text.isdigit():
            continue
        home = [r for r in spaces if r.collidepoint(tr.topleft)]
        if home:
            assert home[0].contains(tr), (text, tr, home[0])
            checked += 1
    assert checked > 20
