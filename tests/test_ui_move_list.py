"""The list of moves at the table (issue 55, defect 8): at least four moves a page in portrait even with
eight players' scores above it, no group of one move costing a tap, labels on one line."""

from __future__ import annotations

import os

import pygame
import pytest

from companion.games import get_game
from ui.app import PORTRAIT
from ui.screens.table_layout import table_layout
from ui.views.generic import GenericView
from ui.widgets import Ui

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
pygame.font.init()

# move texts as games write them: grouped by their first words when they do not fit one page
MOVES = [f"aim {n} {d}" for n in (4, 6, 8, 10, 12, 20) for d in ("NE", "E", "SE", "SW", "W", "NW")] + [
    "pass",
    "play fore 2",
    "bump 1 NE",
    "card mulligan",
]


class Table:
    """The actions a view asks of the table; the moves played are kept."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, move) -> bool:
        self.played.append(move)
        return True

    def why_not(self, move) -> None: ...

    def say(self, text: str) -> None: ...


def side_panel(ui: Ui, players: int) -> pygame.Rect:
    m = ui.metrics
    prompt_h = 2 * ui.font(m.prompt).get_linesize() + 2 * ui.font(m.small).get_linesize() + 2 * m.pad
    score_row = ui.font(m.body).get_linesize() + ui.font(m.small).get_linesize() + 8
    return table_layout(ui.size, m, players, score_row, prompt_h).side


def shown(ui: Ui) -> list:
    return [w for w in ui.widgets if w.id.startswith(("move:", "group:")) and w.id != "group:back"]


@pytest.mark.parametrize("players", [2, 8])
@pytest.mark.parametrize("moves", [MOVES, [m for m in MOVES if m.startswith("aim 1")]], ids=["groups", "few"])
def test_four_moves_a_page_in_portrait_on_one_line(players, moves):
    surface = pygame.Surface(PORTRAIT)
    ui = Ui(surface)
    m = ui.metrics
    rect = side_panel(ui, players)
    view = GenericView(get_game("rollers"))
    table = Table()
    view.draw_choices(ui, rect, None, moves, table)
    items = shown(ui)
    assert len(items) >= min(4, len(moves)), [w.label for w in items]
    for w in items:
        assert rect.contains(w.rect), (w.id, w.rect, rect)
        assert m.mm(w.rect.height) >= 9 and m.mm(w.rect.width) >= 9, (w.id, w.rect)
        # one line: the label fits the button at the small size at least
        assert ui.font(m.small).size(w.label)[0] <= w.rect.width - 12, w.label
        if w.id.startswith("group:"):
            assert not w.label.endswith("(1)"), w.label
    lines = {(text, r.y) for text, _, r in ui.drawn}
    labels = {w.label for w in items}
    assert all(any(t == label for t, _ in lines) for label in labels), "a label was wrapped"


def test_a_group_of_one_is_the_move_itself():
    ui = Ui(pygame.Surface(PORTRAIT))
    rect = side_panel(ui, 8)
    view = GenericView(get_game("rollers"))
    table = Table()
    view.draw_choices(ui, rect, None, MOVES, table)
    ids = {w.id for w in shown(ui)}
    # "pass", "play ...", "bump ..." and "card ..." each start a group of one: shown as the move
    for move in ("pass", "play fore 2", "bump 1 NE", "card mulligan"):
        assert f"move:{move}" in ids or ui.find("page:next") is not None
    assert not [i for i in ids if i.startswith("group:") and i[6:] in ("play", "bump", "card")]
    # every move reached in at most two taps from the first page
    target = "card mulligan"
    for _ in range(6):
        w = ui.find(f"move:{target}")
        if w is not None:
            w.action()
            break
        nxt = ui.find("page:next")
        assert nxt is not None
        nxt.action()
        ui.widgets.clear()
        view.draw_choices(ui, rect, None, MOVES, table)
    assert table.played == [target]


def test_a_long_label_wraps_at_3_mm_and_keeps_two_columns():
    """A label too long for half the width at 3 mm ("Aim 9 o'clock, straight") is wrapped
    on two lines at 3 mm, not drawn on one line at 2.4 mm nor the list sent back to one column."""
    from ui.views.base import paged_buttons

    ui = Ui(pygame.Surface(PORTRAIT))
    m = ui.metrics
    rect = side_panel(ui, 2)
    items = [(f"aim {n} ... (7)", lambda: None, f"group:aim {n}") for n in range(1, 13)]
    items[8] = ("Aim 9 o'clock, straight", lambda: None, "move:aim 9")
    assert ui.font(m.body).size(items[8][0])[0] > (rect.width - m.pad) // 2 - 12  # the case in point
    page = 0
    seen = []
    for _ in range(12):
        ui.widgets.clear()
        ui.drawn = []
        page = paged_buttons(ui, rect, items, page, lambda p: None)
        shown = [w for w in ui.widgets if w.id.startswith(("group:", "move:"))]
        assert len({w.rect.x for w in shown}) == 2 or len(shown) == 1, "one column"
        for w in shown:
            sizes = {s for t, s, r in ui.drawn if t and w.rect.contains(r)}
            assert sizes == {m.body}, (w.label, sizes)
        seen += [w.id for w in shown]
        if "move:aim 9" in seen:
            break
        page += 1
    assert "move:aim 9" in seen


@pytest.mark.parametrize("height", [90, 130])
def test_a_list_with_room_for_one_row_pages_it_without_overlap(height):
    """Eight players' scores can leave the list room for one row of buttons: one move a page between
    '<' and '>' (the paging row was laid over the moves)."""
    from ui.views.base import paged_buttons

    ui = Ui(pygame.Surface(PORTRAIT))
    m = ui.metrics
    rect = pygame.Rect(12, 1000, 696, height)
    items = [(f"card 1: 4, 4; card 2: {n}; card 4: 3", lambda: None, f"move:{n}") for n in range(12)]
    seen = set()
    page = 0
    for _ in range(12):
        ui.widgets.clear()
        page = paged_buttons(ui, rect, items, page, lambda p: None)
        live = [w for w in ui.widgets if w.enabled]
        for i, a in enumerate(live):
            for b in live[i + 1 :]:
                assert not a.rect.colliderect(b.rect), (a.id, b.id)
        for w in ui.widgets:
            assert m.mm(min(w.rect.size)) >= 9
        seen |= {w.id for w in ui.widgets if w.id.startswith("move:")}
        page += 1
    assert len(seen) == 12


@pytest.mark.parametrize("size", [(800, 480), PORTRAIT], ids=["800x480", "720x1280"])
def test_common_move_labels_fit_one_line_at_3_mm(size):
    """The moves played most are labelled in words short enough for one line at 3 mm where each size
    puts them: the 216 px side panel at 800x480, half the width (two columns) at 720x1280. (They were
    'Pass (apply nothing)', 'Open and close 3s', "Aim 3 o'clock, straight", 'card 1: 4; card 3: 2',
    'Curve NW (Fore card)', 'Pass (no card)': two lines each.)"""
    from companion.games.doshboardgolf.moves import Aim
    from companion.games.roll_for_it import Place
    from companion.games.roll_in_one.moves import Curve, Pass
    from companion.games.rollers import ApplyMove
    from ui.screens.table_layout import SIDE_W
    from ui.views.doshboardgolf import DoshView
    from ui.views.roll_for_it import placement_words
    from ui.views.roll_in_one import RollInOneView
    from ui.views.rollers import RollersView

    ui = Ui(pygame.Surface(size))
    m = ui.metrics
    width = (SIDE_W if not m.portrait else (size[0] - 2 * m.pad - m.pad) // 2) - 12
    rollers = RollersView(get_game("rollers"))
    dosh = DoshView(get_game("doshboardgolf"))
    rio = RollInOneView(get_game("roll-in-one"))
    labels = [
        rollers.describe(ApplyMove()),
        rollers.describe(ApplyMove(opens=(3,), closes=(3,))),
        rollers.describe(ApplyMove(collects=((2, 4),))),
        dosh.describe(Aim(12)),
        placement_words(Place(((1, ("4",)), (3, ("1", "2"))))),
        rio.describe(Curve(0, True)),
        rio.describe(Pass()),
    ]
    font = ui.font(m.body)
    for label in labels:
        assert font.size(label)[0] <= width, (label, font.size(label)[0], width)


def test_doshboardgolfs_aim_list_shows_six_directions_a_page_in_portrait():
    """Aiming from the list (the dial on the board is the other way): the directions as the dial has
    them, six a page on one line each at 3 mm, where the grouped list showed two a page."""
    from companion.store import Store
    from ui.app import App
    from ui.driver import Driver
    from ui.reader import SimulatedReader
    from ui.settings import Settings

    app = App(Store(":memory:"), SimulatedReader(7), PORTRAIT, settings=Settings(sound=False))
    d = Driver(app)
    try:
        d.new_game("doshboardgolf", 4)
        app.step()
        side = app.screen.layout.side
        shown = [w for w in app.ui.widgets if w.id.startswith("dosh:dir:")]
        assert len(shown) >= 6, [w.id for w in app.ui.widgets]
        for w in shown:
            assert side.contains(w.rect), (w.rect, side)
            texts = [(t, s) for t, s, r in app.ui.drawn if w.rect.contains(r)]
            assert texts == [(w.label, app.ui.metrics.body)], texts  # one line at 3 mm
        d.tap("dosh:dir:3")
        assert app.screen.view.direction == 3
        d.tap("dosh:straight")
        assert str(app.screen.game.events[-1].move) == "aim 3"
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [(800, 480), PORTRAIT], ids=["800x480", "720x1280"])
def test_doshboardgolfs_card_list_cuts_nothing(size):
    """Choosing a card: the mode button shares the page row only in portrait (at 800x480 a third of the
    side panel cut 'Card tables' to 'Car...')."""
    from companion.store import Store
    from ui.app import App
    from ui.driver import Driver
    from ui.reader import SimulatedReader
    from ui.settings import Settings

    app = App(Store(":memory:"), SimulatedReader(7), size, settings=Settings(sound=False))
    d = Driver(app)
    try:
        d.new_game("doshboardgolf", 2)
        d.tap("dosh:dir:3")
        d.tap("dosh:straight")
        assert app.screen.game.state.phase == "card"
        app.ui.cut.clear()
        app.step()
        assert app.ui.find("dosh:mode") is not None
        assert not app.ui.cut, app.ui.cut
    finally:
        pygame.display.quit()
