"""The touchscreen app, driven headless by tapping its real widgets (SDL dummy video driver)."""

from __future__ import annotations

import os
import random

import pygame
import pytest

from companion.games import all_games
from companion.games.rollers import ApplyMove, KeepMove, StopMove, sensible_move
from companion.protocol import ChooseMove, GameOver, RollDice, Source
from companion.record import Amend, RollEvent, replay
from companion.store import Store
from ui.app import LANDSCAPE, App, run_app
from ui.driver import Driver
from ui.reader import NoCamera, ReadDie, ReadResult, SimulatedReader, assign
from ui.settings import Settings
from ui.views import view_for
from ui.views.generic import GenericView

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # read when the display starts
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture
def make_app(tmp_path):
    apps = []

    def make(size=LANDSCAPE, reader=None, store=None, **kw) -> tuple[App, Driver]:
        kw.setdefault("settings", Settings(sound=False))
        app = App(
            store or Store(":memory:"), reader if reader is not None else SimulatedReader(7), size, **kw
        )
        apps.append(app)
        return app, Driver(app)

    yield make
    pygame.display.quit()


def start_game(d: Driver, game_id: str = "rollers", players: int = 2) -> None:
    d.new_game(game_id, players)


def play_rollers_turn(d: Driver, rng: random.Random) -> None:
    """One step of Rollers through the UI, choosing like ``sensible_move``."""
    state = d.app.screen.game.state
    if d.answer_chance() is not None:
        return
    move = sensible_move(state, list(state.legal_moves()), rng)
    if isinstance(move, StopMove):
        d.tap("rollers:stop")
    elif isinstance(move, KeepMove):
        for slot in move.slots:
            d.tap(f"keep:{slot}")
        d.tap("rollers:roll")
    else:
        assert isinstance(move, ApplyMove)
        sections = [*move.opens, *move.closes, *(n for n, _ in move.collects)]
        if sections:
            d.tap(f"section:{sections[0]}")
        d.tap_paged(f"move:{move}")


def test_a_complete_rollers_game_through_the_screen(make_app, tmp_path):
    store = Store(tmp_path / "games.db")
    app, d = make_app(store=store, evidence_dir=tmp_path / "photos")
    start_game(d, players=3)
    assert app.screen.name == "table"
    game = app.screen.game
    rng = random.Random(5)
    steps = 0
    corrected = why_not = False
    while app.screen.name == "table":
        state = game.state
        req = state.request()
        if isinstance(req, RollDice) and not corrected and len(req.dice) == 6:
            # correct a read die before confirming: tap it, pick another face
            d.tap("dice:read")
            slot = req.dice[0].slot
            d.tap(f"die:{slot}")
            face = next(f for f in ("1", "2") if f != app.screen.entries[slot].face)
            d.tap(f"face:{face}")
            d.tap("dice:confirm")
            roll = game.actions()[-1][1].roll
            assert roll.source is Source.CORRECTION and roll.faces()[slot] == face
            corrected = True
            continue
        if isinstance(req, ChooseMove) and state.phase == "apply" and not why_not:
            closed = [n for n in range(1, 6) if state.boards[state.current][n - 1] == 2]
            blocked = [
                n
                for n in range(1, 6)
                if not any(
                    n in (*m.opens, *m.closes, *(s for s, _ in m.collects)) for m in state.legal_moves()
                )
            ]
            if blocked and not closed:
                d.tap(f"section:{blocked[0]}")
                assert app.overlay is not None and app.overlay.title == "Why not?"
                assert app.overlay.rule.startswith("Rollers §") and app.overlay.text
                d.tap("dialog:OK")
                assert app.overlay is None
                why_not = True
        play_rollers_turn(d, rng)
        steps += 1
        assert not app.errors
        assert app.overlay is None, getattr(app.overlay, "text", app.overlay)
        assert steps < 3000
    assert corrected and why_not
    assert app.screen.name == "end"
    assert isinstance(game.state.request(), GameOver)
    saved = {g.id: g for g in store.games()}
    gid = app.screen.gid
    assert saved[gid].finished
    assert replay(store.events(gid)) == game.state
    rolls = [e for e in store.events(gid) if isinstance(e, RollEvent)]
    assert all(e.evidence and os.path.isfile(e.evidence) for e in rolls)
    assert {e.roll.source for e in rolls} >= {Source.SIMULATED, Source.CORRECTION}
    assert max(game.state.scores()) >= 5


def test_undo_and_history_correction_are_kept_in_the_record(make_app):
    app, d = make_app()
    start_game(d)
    game = app.screen.game
    d.tap("dice:read")
    d.tap("dice:confirm")  # the roll-off
    before = game.state.clone()
    d.tap("dice:read")
    d.tap("dice:confirm")
    assert game.state != before
    d.tap("table:undo")
    assert game.state == before
    d.tap("dice:read")
    d.tap("dice:confirm")
    index = game.actions()[-1][0]
    d.tap("table:history")
    assert app.screen.name == "history"
    old = game.actions()[-1][1].roll.faces()["purple-5"]
    new = "star" if old != "star" else "1"
    d.tap(f"fix:{index}:purple-5")
    d.tap(f"face:{new}")
    assert app.overlay is not None and app.overlay.title == "Corrected"
    d.tap("dialog:OK")
    amend = game.events[-1]
    assert isinstance(amend, Amend) and amend.of == index
    assert amend.event.roll.source is Source.CORRECTION and amend.event.roll.faces()["purple-5"] == new
    assert replay(game.events) == game.state
    d.tap("back")
    assert app.screen.name == "table"


def test_manual_entry_without_a_camera(make_app):
    app, d = make_app(reader=NoCamera())
    start_game(d)
    assert not d.find("dice:read").enabled
    assert not d.find("dice:confirm").enabled
    d.tap("die:player1")
    d.tap("face:star")
    assert not d.find("dice:confirm").enabled  # one die still missing
    d.tap("die:player2")
    d.tap("face:2")
    d.tap("dice:confirm")
    game = app.screen.game
    roll = game.actions()[-1][1].roll
    assert roll.source is Source.MANUAL and roll.faces() == {"player1": "star", "player2": "2"}
    assert game.state.request().player == 0  # Anna rolled higher and starts


def test_a_failing_camera_falls_back_to_manual_entry(make_app):
    class Broken(SimulatedReader):
        def read(self, dice):
            raise OSError("camera unplugged")

    app, d = make_app(reader=Broken(1))
    start_game(d)
    d.tap("dice:read")
    assert app.screen.manual and "unplugged" in app.screen.note
    assert not app.errors


def test_read_dice_are_placed_by_slot_then_kind_then_face():
    from companion.games.rollers import DICE

    read = [
        ReadDie("zap", 0.9, (1, 1), kind="rollers-black"),
        ReadDie("3", 0.95, (2, 2)),
        ReadDie("star", 0.7, (3, 3), kind="rollers-purple"),
        ReadDie("5", 0.9, (4, 4), slot="purple-3"),
    ]
    placed = assign(read, DICE)
    assert placed["black"].face == "zap" and placed["purple-1"].face == "star"
    assert placed["purple-3"].face == "5" and placed["purple-2"].face == "3"
    assert "purple-4" not in placed  # not read: the table must enter it


def test_missing_dice_must_be_entered_before_confirming(make_app):
    class Short(SimulatedReader):
        def read(self, dice):
            full = super().read(dice)
            return ReadResult(full.dice[:-1], full.frame, full.source)

    app, d = make_app(reader=Short(2))
    start_game(d)
    d.tap("dice:read")
    assert not d.find("dice:confirm").enabled and "not read" in app.screen.note
    d.tap("die:player2")
    d.tap("face:3")
    d.tap("dice:confirm")
    assert app.screen.game.actions()[-1][1].roll.source is Source.CORRECTION


def test_resume_a_saved_game(make_app, tmp_path):
    path = tmp_path / "games.db"
    app, d = make_app(store=Store(path))
    start_game(d)
    for _ in range(4):
        play_rollers_turn(d, random.Random(1))
    state = app.screen.game.state.clone()
    gid = app.screen.gid
    app2, d2 = make_app(store=Store(path))
    d2.tap(f"resume:{gid}")
    assert app2.screen.name == "table" and app2.screen.game.state == state


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_the_generic_view_plays_any_game(make_app, game_id):
    """Every game the build offers is playable through the fallback view, button by button."""
    app, d = make_app()
    info = all_games()[game_id]
    start_game(d, game_id, players=max(2, info.min_players))
    table = app.screen
    table.view = GenericView(info)
    app.step()  # a frame drawn by the view now in place (taps go where the last frame put things)
    rng = random.Random(3)
    moves = 0
    for _ in range(60):
        req = table.game.state.request()
        if isinstance(req, GameOver):
            break
        if d.answer_chance() is None:
            move = rng.choice(list(table.game.state.legal_moves()))
            d.choose(str(move))
            moves += 1
        assert not app.errors and app.overlay is None
    assert moves >= 3
    assert replay(table.game.events) == table.game.state


def test_every_offered_game_has_a_view():
    for info in all_games().values():
        assert view_for(info) is not None
    assert type(view_for(all_games()["rollers"])).__name__ == "RollersView"


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_rotation_turns_picture_and_touch(make_app, rotation):
    app, d = make_app(settings=Settings(sound=False, rotation=rotation))
    w, h = app.window.get_size()
    assert app.size == ((h, w) if rotation in (90, 270) else (w, h))
    for p in [(0, 0), (10, 300), (app.size[0] - 1, app.size[1] - 1)]:
        assert app.to_logical(app.to_window(p)) == p
    d.tap("home:new")  # the tap lands on the rotated button
    assert app.screen.name == "newgame"


def test_settings_calibration_shows_progress_to_the_end(make_app):
    app, d = make_app()
    d.tap("home:settings")
    d.tap("settings:calibrate")
    seen = []
    for _ in range(20):
        app.step()
        seen.append(app.screen.progress.done)
        if app.screen.finished:
            break
    assert app.screen.finished and not app.screen.failed
    assert seen == sorted(seen) and seen[-1] == 1.0
    d.tap("back")
    d.tap("sound:on")
    assert app.settings.sound


def test_run_app_returns_after_the_events_given(tmp_path):
    frames = run_app(
        Store(":memory:"), SimulatedReader(1), LANDSCAPE, events=[[], [], []], settings=Settings(sound=False)
    )
    assert frames == 3


def test_new_game_names_colours_and_options(make_app):
    app, d = make_app()
    d.tap("home:new")
    d.tap("game:rollers")
    d.tap("name:0")
    for _ in range(4):
        d.tap("key:Delete")
    for ch in "ZOE":
        d.tap(f"key:{ch}")
    d.tap("key:Done")
    d.tap("colour:1")
    d.tap("newgame:next")
    d.tap("option:collect=chip count")
    d.tap("newgame:next")
    game = app.screen.game
    assert game.state.players[0] == "Zoe"
    assert game.start.options["collect"] == "chip count"
    assert app.settings.colours["Zoe"] != app.settings.colours["Ben"]


def test_the_run_command_starts_the_app(tmp_path):
    from dice_companion.cli import main

    db = tmp_path / "games.sqlite3"
    assert main(["run", "--db", str(db), "--frames", "3", "--size", "720x1280"]) == 0
    assert db.is_file()
