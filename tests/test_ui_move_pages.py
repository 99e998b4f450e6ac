"""The move lists of real games in portrait (issue 55, defect 8): wherever a game lists many moves
(Hop'n'ROLL's writes and hops, Rollers' ways to apply the dice, Roll For It!'s suggested placements)
a page shows at least four, and no label wraps: every line drawn on a move's button is a run of the
label's whole phrases ("Write 3" / "in UP, space 2"), never a phrase broken across lines."""

from __future__ import annotations

import itertools
import os
import random

import pygame
import pytest
from test_ui_table_board import play_one, start

from companion.protocol import ChooseMove
from ui.app import LANDSCAPE, PORTRAIT
from ui.widgets import Ui

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def whole_phrases(ui: Ui, button) -> bool:
    """The texts drawn inside ``button`` are its label's phrases, in order, each whole on one line."""
    phrases = button.label.split("\n")
    lines = [t for t, _, r in ui.drawn if t and button.rect.contains(r)]
    at = 0
    for line in lines:
        taken: list[str] = []
        while at < len(phrases) and len(" ".join(taken)) < len(line):
            taken.append(phrases[at])
            at += 1
        if " ".join(taken) != line:
            return False
    return at == len(phrases)


def listed(app) -> list:
    return [w for w in app.ui.widgets if w.id.startswith(("move:", "group:")) and w.id != "group:back"]


@pytest.mark.parametrize(
    ("game", "players", "phase"),
    [("hop-n-roll", 4, "write"), ("rollers", 4, "apply"), ("roll-for-it", 4, "match")],
)
def test_four_moves_a_page_in_portrait_none_wrapped(game, players, phase):
    app, d = start(PORTRAIT, game, players)
    rng = random.Random(3)
    checked = 0
    try:
        for _ in range(400):
            state = app.screen.game.state
            if isinstance(state.request(), ChooseMove) and getattr(state, "phase", "") == phase:
                moves = list(state.legal_moves())
                app.ui.cut.clear()
                app.step()
                shown = listed(app)
                if len(moves) >= 6:
                    checked += 1
                    assert len(shown) >= 4, (phase, len(moves), [w.label for w in shown])
                side = app.screen.layout.side
                for w in shown:
                    assert side.contains(w.rect), (w.id, w.rect, side)
                    assert whole_phrases(app.ui, w), (w.label, [t for t, _, r in app.ui.drawn
                                                                if w.rect.contains(r)])
                    sizes = {s for t, s, r in app.ui.drawn if t and w.rect.contains(r)}
                    assert sizes == {app.ui.metrics.body}, (w.label, sizes)  # 3 mm, not shrunk
                assert not app.ui.cut, app.ui.cut
                if checked >= 4:
                    break
            play_one(app, d, rng)
        assert checked >= 1, f"no {phase} state with six moves or more was reached"
    finally:
        pygame.display.quit()


def test_a_phrase_is_never_broken():
    """The packing itself: phrases go whole onto as few lines as fit; one wider than the width is
    refused (the button then wraps it as words, which the test above would catch)."""
    pygame.font.init()
    ui = Ui(pygame.Surface(PORTRAIT))
    body = ui.metrics.body
    width = ui.font(body).size("Write 3 in UP, space 2")[0]
    assert ui.phrase_lines("Write 3\nin UP, space 2", body, width) == ["Write 3 in UP, space 2"]
    assert ui.phrase_lines("Write 3\nin UP, space 2", body, width - 1) == ["Write 3", "in UP, space 2"]
    assert ui.phrase_lines("Write 3\nin UP, space 2", body, ui.font(body).size("Write 3")[0]) is None


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_roll_for_it_lists_all_eight_players_on_the_board(size):
    """Eight players: each is named beside their dice colour on the board (it listed two at 720x1280)."""
    app, d = start(size, "roll-for-it", 8)
    rng = random.Random(5)
    try:
        for _ in range(60):
            if getattr(app.screen.game.state, "phase", "") == "match":
                break
            play_one(app, d, rng)
        app.ui.cut.clear()
        app.step()
        board = app.screen.layout.board
        names = app.screen.game.state.players
        drawn = [(t, r) for t, _, r in app.ui.drawn if board.contains(r)]
        for name in names:
            assert any(t == name or t.startswith((f"{name} (", f"{name}:")) for t, _ in drawn), name
        boxes = [r for t, r in drawn if any(t == n or t.startswith((f"{n} (", f"{n}:")) for n in names)]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not a.colliderect(b), (a, b)
        assert not app.ui.cut, app.ui.cut
    finally:
        pygame.display.quit()


def test_dice_are_named_as_players_say_them():
    """A Rollers keep move names its dice "purple 1", not the record's "purple-1"."""
    from companion.games import get_game
    from companion.games.rollers import KeepMove
    from ui.views.rollers import RollersView

    view = RollersView(get_game("rollers"))
    words = view.describe(KeepMove(("purple-1", "black")))
    assert "purple 1" in words and "purple-1" not in words, words
    from ui.views.base import slot_name

    assert slot_name("die1", ("Anna", "Ben")) == "die 1"  # the face picker's "Which face does die 1 show?"
    assert slot_name("player2", ("Anna", "Ben")) == "Ben"


def test_hop_n_roll_moves_name_rows_as_the_sheet_labels_them():
    """One name for a row: the move list says the word the sheet's row label shows."""
    from companion.games import get_game
    from companion.games.hop_n_roll.moves import Write
    from ui.views.hop_n_roll import HopNRollView, area_word

    view = HopNRollView(get_game("hop-n-roll"))
    for key in ("same", "up", "down", "seven", "parity"):
        assert f"in {area_word(key)}," in view.describe(Write(key, "2", 3))


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_hop_n_roll_row_labels_differ_in_words(size):
    """The sheet's row labels differ by more than colour at every width: a word too wide for its label
    is cut to the shortest start no other row's word shares ("SA" and "SE" at 800x480 while hopping,
    where both were "S"), never to '...'."""
    from ui.views.hop_n_roll import area_word

    app, _ = start(size, "hop-n-roll", 5)
    try:
        app.ui.cut.clear()
        app.step()
        view = app.screen.game.state.view()
        words = [area_word(a["key"]) for a in view["sheets"][0]["areas"]]
        board = app.screen.layout.board
        labels = [t for t, _, r in app.ui.drawn
                  if board.contains(r) and t and any(w.startswith(t) for w in words)]
        assert len(labels) == len(words) and len(set(labels)) == len(words), labels
        assert not app.ui.cut, app.ui.cut
    finally:
        pygame.display.quit()


def test_roll_in_ones_golfer_cards_listed_by_name_four_a_page():
    """Golfer cards to tap are listed by the names printed on them ("Beach Bum", not "beach-bum"),
    four a page in portrait (two a page, as ids)."""
    from companion.games.roll_in_one.data import load_cards

    app, d = start(PORTRAIT, "roll-in-one", 5)
    try:
        app.step()
        tiles = [w for w in app.ui.widgets if w.id.startswith("card:")]
        assert len(tiles) >= 4, [w.label for w in tiles]
        names = {c.name for c in load_cards().values()}
        assert all(w.label in names for w in tiles), [w.label for w in tiles]
        d.tap(tiles[0].id)
        chosen = next(w for w in app.ui.widgets if w.id == tiles[0].id)
        assert chosen.label.split("\n") == ["[x]", tiles[0].label]  # chosen: marked in words too
        assert whole_phrases(app.ui, chosen)
    finally:
        pygame.display.quit()


def test_a_ready_made_course_is_named_as_its_file_names_it():
    """Loading a shipped course reads "Course: The Creek" (the history showed the id "the-creek")."""
    from companion.games import get_game
    from companion.games.roll_in_one.course import load_library
    from companion.games.roll_in_one.moves import UseCourse
    from ui.views.roll_in_one import RollInOneView

    view = RollInOneView(get_game("roll-in-one"))
    for key, course in load_library().items():
        assert view.describe(UseCourse(key)) == f"Course: {course.name}"


def test_a_deck_with_copies_lists_each_card_once():
    """Dealing caddie cards (a deck holding several copies of a card): each card once by name, a second
    tap on it choosing another copy; pages of distinct cards, not of every copy (1 of 15 at 800x480)."""
    from companion.protocol import DrawCards

    app, d = start(LANDSCAPE, "roll-in-one", 2)
    rng = random.Random(3)
    try:
        for _ in range(80):
            req = app.screen.game.state.request()
            if isinstance(req, DrawCards) and len(set(req.candidates)) < len(req.candidates):
                break
            play_one(app, d, rng)
        req = app.screen.game.state.request()
        assert isinstance(req, DrawCards) and len(set(req.candidates)) < len(req.candidates)
        seen: list[str] = []
        while True:
            app.step()
            seen += [w.label for w in app.ui.widgets if w.id.startswith("card:")]
            nxt = app.ui.find("page:next")
            if nxt is None or not nxt.enabled:
                break
            d.tap("page:next")
        assert len(seen) == len(set(seen)) == len(set(req.candidates)), seen
        while app.ui.find("page:prev") is not None and app.ui.find("page:prev").enabled:
            d.tap("page:prev")
        first = next(w for w in app.ui.widgets if w.id.startswith("card:"))
        copies = req.candidates.count(req.candidates[int(first.id[5:])])
        d.tap(first.id)
        if copies > 1:
            d.tap(first.id)  # a second copy of the same card
            assert len(app.screen.cards) == 2
            assert app.ui.find(first.id).label.startswith("[x] 2\n")
    finally:
        pygame.display.quit()


@pytest.mark.parametrize(("size", "players"), [(PORTRAIT, 2), (PORTRAIT, 5), (LANDSCAPE, 2)],
                         ids=["720x1280-2p", "720x1280-5p", "800x480-2p"])
def test_roll_in_ones_caddie_deal_shows_four_cards_a_page_in_portrait(size, players):
    """Dealing caddie cards in portrait (a real game played to the deal): four cards or more on every
    page but the last, each label whole on its lines at 3 mm, inside the side panel, as a card chosen
    twice ("[x] 2" over its name) takes a second line; every card reachable by paging; the page row
    keeps Random and Confirm (it once showed two cards a page over five pages). At 800x480 too, the
    Random and Confirm labels each stay on one line (they wrapped)."""
    from companion.protocol import DrawCards

    app, d = start(size, "roll-in-one", players)
    rng = random.Random(3)
    try:
        for _ in range(200):
            req = app.screen.game.state.request()
            if isinstance(req, DrawCards) and req.deck == "caddie":
                break
            play_one(app, d, rng)
        assert isinstance(req, DrawCards) and req.deck == "caddie", req
        distinct = len(set(req.candidates))
        assert distinct > 4, req.candidates
        app.step()
        twice = next(w.id for w in app.ui.widgets if w.id.startswith("card:")
                     and req.candidates.count(req.candidates[int(w.id[5:])]) >= 2)
        d.tap(twice)
        d.tap(twice)  # a second copy of it: "[x] 2" over its name
        seen: list[str] = []
        for _ in range(distinct):
            app.ui.cut.clear()
            app.step()
            cards = [w for w in app.ui.widgets if w.id.startswith("card:")]
            seen += [w.id for w in cards]
            side = app.screen.layout.side
            for w in cards:
                assert side.contains(w.rect), (w.id, w.rect, side)
                assert whole_phrases(app.ui, w), w.label
                assert {s for t, s, r in app.ui.drawn if t and w.rect.contains(r)} == {app.ui.metrics.body}
            for wid in ("cards:random", "cards:confirm"):
                button = app.ui.find(wid)
                assert button is not None and side.contains(button.rect), wid
                lines = [t for t, _, r in app.ui.drawn if t and button.rect.contains(r)]
                assert lines == [button.label], (wid, lines)  # one line, not wrapped
            assert not app.ui.cut, app.ui.cut
            nxt = app.ui.find("page:next")
            if nxt is None or not nxt.enabled:
                break
            assert len(cards) >= 4 or size == LANDSCAPE, [w.label for w in cards]
            d.tap("page:next")
        assert len(set(seen)) == distinct, (seen, distinct)
    finally:
        pygame.display.quit()


def side_list_area(app) -> pygame.Rect:
    """Where the side panel's move list goes: the panel below its hint line."""
    side, m = app.screen.layout.side, app.ui.metrics
    top = app.ui.font(m.small).get_linesize() + 4  # the hint over the list
    return pygame.Rect(side.x, side.y + top, side.width, side.height - top)


def rollers_apply_lists(view, games: int):
    """The apply moves' list items, ``(label, None, id)``, of every apply position of ``games``
    simulated Rollers games (2-5 players, seeded by game)."""
    from companion.games import get_game
    from companion.games.rollers import ApplyMove
    from companion.sim import step

    info = get_game("rollers")
    for g in range(games):
        rng = random.Random(g)
        state = info.new(tuple("ABCDE"[: 2 + g % 4]), {})
        for _ in range(3000):
            if state.is_over:
                break
            if state.phase == "apply":
                yield [(view.label(mv), None, f"move:{mv}") for mv in state.legal_moves()
                       if isinstance(mv, ApplyMove)]
            step(state, rng, info.strategy)


def test_rollers_apply_moves_four_a_page_in_portrait_over_many_positions():
    """Every apply position of 40 simulated Rollers games (2-5 players), laid out in the portrait side
    panel: four moves on every page but the last, the few labels needing four lines at half the width
    included (they once sent the whole list to one column, two a page); then one such position on the
    real table screen, every label whole at 3 mm inside the panel."""
    from ui.views.base import lines_at_body
    from ui.views.rollers import apply_pages

    app, d = start(PORTRAIT, "rollers", 5)
    try:
        view, ui, m = app.screen.view, app.ui, app.ui.metrics
        area = side_list_area(app)
        half = (area.width - m.pad) // 2 - 12
        positions = tall = 0
        for items in rollers_apply_lists(view, 40):
            tall += any(lines_at_body(ui, label, half) > 3 for label, _, _ in items)
            pages = apply_pages(ui, area, items)
            assert pages is not None, [label for label, _, _ in items]
            ids = sorted(it[2] for p in pages for row in p for it in row)
            assert ids == sorted(it[2] for it in items)  # every move, once
            assert all(sum(map(len, p)) >= 4 for p in pages[:-1]), [list(map(len, p)) for p in pages]
            positions += 1
        assert positions > 500 and tall >= 20, (positions, tall)  # the four-line labels were met
        rng = random.Random(1)
        for _ in range(2000):
            state = app.screen.game.state
            if state.phase == "apply" and any(lines_at_body(ui, view.label(mv), half) > 3
                                              for mv in state.legal_moves()):
                break
            play_one(app, d, rng)
        assert state.phase == "apply"
        moves = list(state.legal_moves())
        app.ui.cut.clear()
        app.step()
        shown = listed(app)
        assert len(shown) >= min(4, len(moves)), [w.label for w in shown]
        for w in shown:
            assert app.screen.layout.side.contains(w.rect), (w.id, w.rect)
            assert whole_phrases(app.ui, w), w.label
            assert {s for t, s, r in app.ui.drawn if t and w.rect.contains(r)} == {m.body}, w.label
        assert not app.ui.cut, app.ui.cut
    finally:
        pygame.display.quit()


def test_rollers_apply_moves_fill_the_landscape_panel():
    """At 800x480 the apply list is one column; each row is as tall as its own label (one to three lines),
    not as the list's tallest, so a page holds every row that fits over the paging row: more moves a
    page than rows all sized for the tallest label (they showed two a page in most paged positions)."""
    from ui.views.base import lines_at_body
    from ui.views.rollers import column_pages

    app, _ = start(LANDSCAPE, "rollers", 3)
    try:
        view, ui, m = app.screen.view, app.ui, app.ui.metrics
        area = side_list_area(app)
        body, least = ui.font(m.body).get_linesize(), max(m.button_h, m.target)
        room = area.height - least - m.pad  # over the paging row

        def height(item) -> int:
            return max(least, lines_at_body(ui, item[0], area.width - 12) * body + 8)

        shown, uniform = [], []
        for items in rollers_apply_lists(view, 20):
            pages = column_pages(ui, area, items)
            assert pages is not None
            assert [row[0] for p in pages for row in p] == items  # in order, each once
            if len(pages) > 1:
                for p, after in itertools.pairwise(pages):
                    used = sum(height(row[0]) + m.pad for row in p)
                    assert used - m.pad <= room, used
                    assert used + height(after[0][0]) > room, "a page left a row off that fit"
                shown.append(sum(len(p) for p in pages[:-1]) / (len(pages) - 1))
                tallest = max(height(it) for it in items)
                uniform.append(max(1, room // (tallest + m.pad)))
        assert len(shown) > 200
        assert sum(shown) / len(shown) > sum(uniform) / len(uniform), (sum(shown) / len(shown),
                                                                       sum(uniform) / len(uniform))
    finally:
        pygame.display.quit()
