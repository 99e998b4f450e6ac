"""What the table says in words (issue 55): undo names what it took back, instructions wrap instead of
being cut, saved games show local time, players with scores, and can be deleted after a question, from
the screen and from the CLI."""

from __future__ import annotations

import os
import random
from datetime import UTC, datetime

import pygame
import pytest

from companion.protocol import RollDice
from companion.store import Store
from dice_companion.cli import main
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.screens.home import local_time
from ui.settings import Settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def table(size=LANDSCAPE, store=None) -> tuple[App, Driver]:
    app = App(store or Store(":memory:"), SimulatedReader(4), size, settings=Settings(sound=False))
    d = Driver(app)
    d.tap("home:new")
    d.tap_paged("game:rollers")
    while app.screen.name == "newgame":
        d.tap("newgame:next")
    return app, d


def test_undo_names_the_throw_it_took_back():
    app, d = table()
    try:
        d.answer_chance()
        roll = app.screen.game.actions()[-1][1].roll
        d.tap("table:undo")
        faces = " ".join(r.face for r in roll.results)
        assert app.screen.note == f"Undone: the throw {faces}."
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_a_long_instruction_wraps_whole(size):
    app, _ = table(size)
    try:
        assert isinstance(app.screen.game.state.request(), RollDice)
        note = (
            "Look at white-2 (unsure), white-4 (crooked), purple (unsure): marked CHECK. "
            "Tap to correct, then confirm."
        )
        app.screen.note = note
        app.ui.cut.clear()
        app.step()
        assert not app.ui.cut, app.ui.cut
        lines = [t for t, _, _ in app.ui.drawn if len(t) > 8 and t in note]
        assert " ".join(lines) == note  # every word drawn, in order, on as many lines as it needs
    finally:
        pygame.display.quit()


def test_local_time_of_a_saved_game():
    stamp = "2026-11-29T08:05:00.000+00:00"
    local = datetime.fromisoformat(stamp).astimezone()
    assert local_time(stamp) == local.strftime("%d %b %H:%M")
    assert local.tzinfo is not None and datetime.fromisoformat(stamp).tzinfo == UTC


def test_a_saved_game_is_listed_with_scores_and_deleted_after_asking():
    store = Store(":memory:")
    app, d = table(store=store)
    try:
        gid = app.screen.gid
        d.tap("table:menu")
        row = d.find(f"resume:{gid}")
        assert row is not None
        app.step()
        words = " ".join(t for t, _, r in app.ui.drawn if row.rect.contains(r))
        assert "Rollers" in words and "Anna 0" in words and "Ben 0" in words
        d.tap(f"delete:{gid}")
        d.tap("dialog:Keep")  # asked first: keeping it changes nothing
        assert [g.id for g in store.games()] == [gid]
        d.tap(f"delete:{gid}")
        d.tap("dialog:Delete")
        assert store.games() == []
        app.step()
        assert d.find(f"resume:{gid}") is None
    finally:
        pygame.display.quit()


def test_the_cli_deletes_a_game_only_when_told_yes(tmp_path, monkeypatch, capsys):
    db = tmp_path / "games.sqlite3"
    with Store(db) as store:
        gid, _ = store.create("rollers", ["Anna", "Ben"])
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    assert main(["games", "--db", str(db), "--delete", str(gid)]) == 1
    with Store(db) as store:
        assert [g.id for g in store.games()] == [gid]
    monkeypatch.setattr("builtins.input", lambda prompt: "yes")
    assert main(["games", "--db", str(db), "--delete", str(gid)]) == 0
    assert main(["games", "--db", str(db), "--delete", str(gid)]) == 2  # no such game: said plainly
    assert f"no saved game with id {gid}" in capsys.readouterr().err
    with Store(db) as store:
        assert store.games() == []


def test_the_turn_passing_shows_the_next_players_name_large_for_a_moment():
    app, d = table()
    now = [100.0]
    try:
        cue = app.screen.turn_cue
        cue.clock = lambda: now[0]
        game = app.screen.game
        rng = random.Random(1)
        seen = []
        for _ in range(300):  # play until a second player's turn comes
            if d.answer_chance() is None:
                state = game.state
                move = state.info.strategy(state, list(state.legal_moves()), rng)
                app.screen.view.tap_move(d, move, state)
            player = game.state.request().player
            if player is not None and player not in seen:
                seen.append(player)
            if len(seen) == 2:
                break
        assert len(seen) == 2
        app.step()
        name = game.state.players[game.state.request().player]
        cue = [(t, s) for t, s, _ in app.ui.drawn if t in (f"{name}'s turn", f"{name}'s", "turn")]
        assert " ".join(t for t, _ in cue) == f"{name}'s turn"  # on one line or two
        assert min(s for _, s in cue) >= app.ui.metrics.body  # as large as the scores' width allows
        now[0] += 2.0  # the moment has passed
        app.step()
        assert not [t for t, _, _ in app.ui.drawn if t.endswith("'s turn")]
    finally:
        pygame.display.quit()


def test_auto_confirm_counts_down_a_sure_read_and_a_tap_cancels_it():
    app, d = table()
    app.settings.auto_confirm = True
    now = [50.0]
    try:
        screen = app.screen
        screen.auto.clock = lambda: now[0]
        for _ in range(30):  # read until every die is sure
            d.tap("dice:read")
            d.wait_read()
            if screen.sure_read():
                break
        assert screen.sure_read()
        app.step()
        assert d.find("dice:confirm").label == "Confirming in 3"
        d.tap("dice:cancel")  # cancelled: nothing confirmed, however long it waits
        now[0] += 10
        app.step()
        assert isinstance(screen.game.state.request(), RollDice) and d.find("dice:confirm").label == "Confirm"
        before = len(screen.game.events)
        d.tap("dice:read")  # a new read counts down afresh
        d.wait_read()
        if screen.sure_read():
            app.step()
            now[0] += 3.1
            app.step()
            assert len(screen.game.events) == before + 1  # confirmed by itself
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_the_turn_banner_fits_a_single_row_of_scores(size):
    """Portrait with two players gives the banner one row of scores: the name is drawn whole inside it,
    at 3 mm at least (it was pushed under the shape and out of the banner)."""
    from ui.screens.table_cues import TurnCue
    from ui.theme import PALETTE
    from ui.widgets import Ui

    pygame.font.init()
    ui = Ui(pygame.Surface(size))
    m = ui.metrics
    # the scores panel with one row: the table's score row (name and score, a note) and 8 px
    row = ui.font(m.body).get_linesize() + ui.font(m.small).get_linesize() + 8
    area = pygame.Rect(m.pad, 180, size[0] - 2 * m.pad, row + 8)
    cue = TurnCue(clock=lambda: 10.0)
    cue.since = 10.0
    cue.draw(ui, area, "Anna", PALETTE[1])
    words = [(t, s, r) for t, s, r in ui.drawn if t in ("Anna's turn", "Anna's", "turn")]
    assert " ".join(t for t, _, _ in words) == "Anna's turn"
    for _, s, r in words:
        assert area.inflate(-12, -12).contains(r), (r, area)  # inside the banner's 6 px border
        assert s >= m.body


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_auto_confirm_is_turned_on_and_off_in_settings(size, tmp_path):
    """Auto-confirm is the players' choice on the Settings screen (it was only in the settings file),
    kept across restarts; the screen cuts nothing and its buttons do not overlap."""
    path = tmp_path / "settings.json"
    settings = Settings(sound=False, path=str(path))
    app = App(Store(":memory:"), SimulatedReader(4), size, settings=settings)
    d = Driver(app)
    try:
        app.nav.settings()
        app.step()
        assert app.ui.find("auto:off").meta is not None and not settings.auto_confirm
        d.tap("auto:on")
        assert settings.auto_confirm and Settings.load(str(path)).auto_confirm
        app.ui.cut.clear()
        app.step()
        assert not app.ui.cut, app.ui.cut
        buttons = [w for w in app.ui.widgets if w.kind == "button"]
        for i, a in enumerate(buttons):
            assert pygame.Rect((0, 0), size).contains(a.rect), a.id
            for b in buttons[i + 1 :]:
                assert not a.rect.colliderect(b.rect), (a.id, b.id)
        d.tap("auto:off")
        assert not Settings.load(str(path)).auto_confirm
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_face_labels_over_the_tray_picture_stay_whole_inside_it(size):
    """A die read at the picture's edge or corner has its face named inside the picture, not cut off at
    its edge (an "orange" at the right edge showed as "orang")."""
    app, d = table(size)
    try:
        screen = app.screen
        d.tap("dice:read")
        d.wait_read()
        placed = []
        real_draw = screen._preview.draw

        def draw(ui, rect, frame):  # the real drawing, noting where the picture went
            placed.append(real_draw(ui, rect, frame))
            return placed[-1]

        screen._preview.draw = draw
        h, w = screen.read.frame.shape[:2]
        corners = [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1), (w / 2, 0)]
        for entry, corner in zip(screen.entries.values(), corners, strict=False):
            entry.centre = corner
            entry.face = "orange"
        app.ui.drawn.clear()
        app.step()
        dst, scale = placed[-1]
        assert scale >= 0.3  # big enough to carry labels
        labels = [r for t, _, r in app.ui.drawn if t.startswith("orange")]
        assert len(labels) == min(len(screen.entries), len(corners))
        assert all(dst.contains(r) for r in labels)
    finally:
        pygame.display.quit()
