"""Doshboardgolf data: the board file, the card file and the dice; bad files give typed errors."""

from __future__ import annotations

from importlib import resources

import pytest

from companion.dice import die_kind
from companion.errors import DataError
from companion.games.doshboardgolf.board import (
    STEP,
    axial_of,
    half_way,
    hex_distance,
    load_board,
    load_board_text,
    name_of,
    step_to,
)
from companion.games.doshboardgolf.cards import COLOURS, load_cards, load_cards_text

BOARD_TEXT = (resources.files("companion") / "data" / "doshboardgolf.board.toml").read_text("utf-8")
CARDS_TEXT = (resources.files("companion") / "data" / "doshboardgolf.cards.toml").read_text("utf-8")


def test_default_board_has_nine_holes_and_every_cell_type():
    board = load_board()
    assert len(board.holes) == 9 and (board.width, board.height) == (24, 16)
    assert set(board.kinds.values()) == {"grass", "tee", "target", "water", "waterfall", "small tree",
                                         "medium tree", "big tree"}
    assert board.hill_lines() and {board.levels[h.tee] for h in board.holes} == {0}
    assert all(6 <= hex_distance(h.tee, h.target) <= 14 for h in board.holes)


def test_geometry_odd_steps_are_two_even_steps_and_half_way_follows_the_arcs():
    for d in range(1, 13, 2):
        a, b = STEP[d - 1 if d > 1 else 12], STEP[d + 1]
        assert STEP[d] == (a[0] + b[0], a[1] + b[1])  # one odd dot = two even counts
        assert hex_distance((0, 0), STEP[d]) == 2
    assert [half_way(d, (12, 4, 8)) for d in (1, 3, 5, 7, 9, 11)] == [12, 4, 4, 8, 8, 12]
    assert [half_way(d, (2, 6, 10)) for d in (1, 3, 5, 7, 9, 11)] == [2, 2, 6, 6, 10, 10]
    assert name_of(step_to(axial_of("B2"), 4)) == "C3" and name_of(step_to(axial_of("C3"), 4)) == "D3"
    assert name_of(step_to(axial_of("D5"), 3)) == "F5"


def replace(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize("old,new,message", [
    ('outward_sides = [12, 4, 8]', 'outward_sides = [1, 5, 9]', "outward_sides"),
    ('"..s.....~.........mm....",', '"..s.....~.........mmX...",', "map U1: unknown cell character 'X'"),
    ('"000000000000001222222222",', '"000000000000001222222202",', "a hill line is one level high"),
    ('"000000000000001222222222",', '"00000000000000122222222",', "levels row 1"),
    ('"000000000000001222222222",', '"00000000000000122222222x",', "levels X1"),
    ('tee = "B2"', 'tee = "C2"', "holes[1].tee: C2 is grass"),
    ('tee = "B2"', 'tee = "Z99"', "holes[1].tee: 'Z99' is not a cell"),
    ('number = 2', 'number = 3', "holes[2].number"),
    ('name = "Companion Links"', 'name = "Companion Links"\ncolour = "green"', "colour: unknown key"),
    ('[[holes]]\nnumber = 9\ntee = "N6"\ntarget = "G9"\n', '', "map N6: a tee cell that no hole uses"),
])
def test_invalid_board_files_name_the_key_and_value(old, new, message):
    with pytest.raises(DataError, match=r"doshboardgolf\.board\.toml") as err:
        load_board_text(replace(BOARD_TEXT, old, new), "doshboardgolf.board.toml")
    assert message in str(err.value)
    assert len(load_board().holes) == 9  # the shipped board is untouched


def test_broken_board_toml():
    with pytest.raises(DataError, match="not valid TOML"):
        load_board_text("map = [", "mine.board.toml")
    with pytest.raises(DataError, match="unknown Doshboardgolf board"):
        load_board("nowhere")


@pytest.mark.parametrize("old,new,message", [
    ('hook = ["L4"', 'hook = ["X4"', "cards[1].hook"),
    ('distance = [7, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 11]', 'distance = [7, 8, 8]', "cards[1].distance"),
    ('distance = [7, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 11]',
     'distance = [7, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, -1]', "cards[1].distance"),
    ('green = [6, 7]', 'green = [7, 6]', "cards[1].green"),
    ('set = "yellow"', 'set = "purple"', "cards[1].set: 'purple'"),
    ('number = 2', 'number = 4', "cards[2].number"),
    ('name = "Driver"', 'name = "Driver"\nrating = 9', "cards[1]: keys must be exactly"),
])
def test_invalid_card_files_name_the_key_and_value(old, new, message):
    with pytest.raises(DataError, match=r"doshboardgolf\.cards\.toml") as err:
        load_cards_text(replace(CARDS_TEXT, old, new))
    assert message in str(err.value)
    assert len(load_cards()["yellow"]) == 8


def test_a_set_with_no_cards_is_refused():
    only_yellow = "\n\n".join(b for b in CARDS_TEXT.split("\n\n") if 'set = "green"' not in b)
    with pytest.raises(DataError, match="the green set has 0 cards"):
        load_cards_text(only_yellow)


def test_default_card_sets_are_statistically_consistent():
    sets = load_cards()
    assert set(sets) == set(COLOURS) and all(len(v) == 8 for v in sets.values())
    for i in range(8):
        cards = [sets[c][i] for c in COLOURS]
        assert len({c.rating for c in cards}) == 1  # same overall rating (mean Distance)
        assert len({len(c.green) for c in cards}) == 1
        assert len({sum(abs(h) for h in c.hook) for c in cards}) == 1
        assert cards[0].rating == sum(cards[0].distance) / 12
    ratings = [c.rating for c in sets["yellow"]]
    assert ratings == sorted(ratings, reverse=True)
    assert len({tuple(sets[col][0].distance) for col in COLOURS}) == 4  # the spreads differ


def test_dice_kinds_are_d12s():
    for colour in ("blue", "red", "black", "white"):
        kind = die_kind(f"dosh-{colour}")
        assert [f.number for f in kind.faces] == list(range(1, 13))
