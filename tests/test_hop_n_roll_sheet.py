"""Hop'n'ROLL score sheets: the rule of every row and pyramid, scoring, and the definition files."""

from __future__ import annotations

from importlib import resources

import pytest

from companion.dice import die_kind
from companion.errors import DataError
from companion.games.hop_n_roll.board import BOARD_FILE, load_board, shipped_board
from companion.games.hop_n_roll.sheet import (
    COLOURS,
    PYRAMIDS_SECTION,
    ROWS_SECTION,
    RULES,
    SHEETS_FILE,
    Area,
    area_score,
    legal_entries,
    load_sheets,
    refusal,
    sheet_side,
)

STD = sheet_side("standard")
ADV = sheet_side("advanced")


def rule_area(rule: str) -> Area:
    return next(a for a in (*STD.areas, *ADV.areas) if a.rule == rule)


def cells(area: Area, values: list[int]) -> list[int | None]:
    out: list[int | None] = [None] * area.size
    out[:len(values)] = values
    return out


def fits(rule: str, written: list[int]) -> set[int]:
    """The numbers a row accepts next after ``written``."""
    area = rule_area(rule)
    return {v for v in range(1, 7) if refusal(area, cells(area, written), len(written), v) is None}


# --- standard side rows -------------------------------------------------------------------------


def test_same_numbers_first_free_then_identical():
    assert fits("same", []) == {1, 2, 3, 4, 5, 6}
    assert fits("same", [4]) == {4}
    assert fits("same", [4, 4, 4]) == {4}
    section, reason = refusal(rule_area("same"), cells(rule_area("same"), [4]), 1, 5)
    assert section == RULES["same"].section and "4s" in reason


def test_ascending_allows_equal_or_higher_and_skipping():
    assert fits("ascending", [2]) == {2, 3, 4, 5, 6}
    assert fits("ascending", [2, 5]) == {5, 6}
    assert fits("ascending", [6]) == {6}


def test_descending_allows_equal_or_lower():
    assert fits("descending", [5]) == {1, 2, 3, 4, 5}
    assert fits("descending", [5, 1]) == {1}


def test_sum_seven_pairs():
    assert fits("sum-seven", [2]) == {5}
    assert fits("sum-seven", [2, 5]) == {1, 2, 3, 4, 5, 6}  # a new pair starts freely
    assert fits("sum-seven", [2, 5, 6]) == {1}


def test_even_odd_alternates():
    assert fits("even-odd", [3]) == {2, 4, 6}
    assert fits("even-odd", [3, 4]) == {1, 3, 5}
    assert fits("even-odd", [3, 4, 3]) == {2, 4, 6}  # numbers may repeat


# --- advanced side rows -------------------------------------------------------------------------


def test_two_numbers_differ_then_alternate():
    assert fits("two-numbers", [2]) == {1, 3, 4, 5, 6}
    assert fits("two-numbers", [2, 5]) == {2}
    assert fits("two-numbers", [2, 5, 2]) == {5}


def test_pairs_and_triples_identical_within_a_group():
    area = rule_area("pairs-triples")
    written: list[int] = []
    starts = {sum(area.groups[:k]) for k in range(len(area.groups))}
    for i in range(area.size):
        expected = {1, 2, 3, 4, 5, 6} if i in starts else {written[area.group_start(i)]}
        assert fits("pairs-triples", written) == expected, i
        written.append(i % 6 + 1 if i in starts else written[area.group_start(i)])


def test_smaller_larger_alternates_strictly():
    assert fits("smaller-larger", [3]) == {1, 2, 4, 5, 6}
    assert fits("smaller-larger", [3, 5]) == {1, 2, 3, 4}
    assert fits("smaller-larger", [3, 1]) == {2, 3, 4, 5, 6}
    assert fits("smaller-larger", [3, 5, 3]) == {4, 5, 6}


def test_rows_fill_left_to_right_without_gaps():
    for area in (*STD.areas, *ADV.areas):
        if area.pyramid:
            continue
        section, reason = refusal(area, cells(area, [1]), 2, 1)
        assert section == ROWS_SECTION and "no gaps" in reason and "space 2" in reason
        assert refusal(area, cells(area, [1]), 0, 1) is not None  # already written
    full = rule_area("same")
    assert legal_entries(full, cells(full, [3] * full.size), range(1, 7)) == []


def test_values_outside_one_to_six_are_refused_everywhere():
    for area in (*STD.areas, *ADV.areas):
        for bad in (0, 7, -1):
            assert "1 to 6" in refusal(area, [None] * area.size, 0, bad)[1]


# --- pyramids -----------------------------------------------------------------------------------

CALC = ADV.area("calc")
UNEQUAL = ADV.area("unequal")


def test_calculation_pyramid_starts_anywhere_on_the_bottom_and_opens_upwards():
    empty = [None] * CALC.size
    bottom = CALC.levels[0]
    assert {i for i, _ in legal_entries(CALC, empty, [1])} == set(range(bottom))
    partial = list(empty)
    partial[bottom - 1] = 2
    section, reason = refusal(CALC, partial, bottom, 2)
    assert section == PYRAMIDS_SECTION and "level below" in reason


def test_calculation_pyramid_sum_or_difference_and_blocked_pairs():
    c = [None] * CALC.size
    c[0:3] = [2, 3, 4]  # bottom level of the shipped 3-2-1-1 pyramid
    above_23 = {v for v in range(1, 7) if refusal(CALC, c, 3, v) is None}
    above_34 = {v for v in range(1, 7) if refusal(CALC, c, 4, v) is None}
    assert above_23 == {5, 1} and above_34 == {1}  # 3+4 = 7 does not fit
    for twin in (4, 5, 6):
        d = [None] * CALC.size
        d[0:3] = [twin, twin, 1]
        assert {v for v in range(1, 7) if refusal(CALC, d, 3, v) is None} == set()
        assert f"two {twin}s" in refusal(CALC, d, 3, 1)[1]
    c[3:5] = [5, 1]
    assert {v for v in range(1, 7) if refusal(CALC, c, 5, v) is None} == {4, 6}
    c[5] = 4
    assert {v for v in range(1, 7) if refusal(CALC, c, 6, v) is None} == {4}  # the top copies


def test_unequal_pyramid_starts_at_the_top_and_uses_each_number_once():
    empty = [None] * UNEQUAL.size
    assert {i for i, _ in legal_entries(UNEQUAL, empty, [3])} == {0}
    c = list(empty)
    c[0] = 3
    assert {v for v in range(1, 7) if refusal(UNEQUAL, c, 1, v) is None} == {1, 2, 4, 5, 6}
    assert "already there" in refusal(UNEQUAL, c, 1, 3)[1]
    assert "level above" in refusal(UNEQUAL, c, 3, 1)[1]  # level 3 before level 2 is full


# --- scoring ------------------------------------------------------------------------------------


def test_row_scores_the_star_above_the_last_number_plus_the_bonus_space():
    up = STD.area("up")
    assert area_score(up, [None] * up.size) == 0
    written = [1, 2, 3, 4, 5, 5, 6][:up.bonus]  # stop just before the bonus space
    assert area_score(up, cells(up, written)) == up.stars[len(written) - 1]
    with_bonus = [1, 2, 3, 4, 5, 5, 6][:up.bonus + 1]
    assert area_score(up, cells(up, with_bonus)) == up.stars[up.bonus] + with_bonus[up.bonus]


def test_pyramid_scores_the_last_full_level_plus_the_bonus_even_on_an_open_level():
    c = [None] * CALC.size
    assert area_score(CALC, c) == 0
    c[0:3] = [2, 3, 4]
    assert area_score(CALC, c) == CALC.stars[0]
    c[CALC.bonus] = 1  # the shipped bonus space is on level 2, which stays open
    assert area_score(CALC, c) == CALC.stars[0] + 1
    u = [None] * UNEQUAL.size
    u[0:3] = [6, 5, 4]
    assert area_score(UNEQUAL, u) == UNEQUAL.stars[1] + (u[UNEQUAL.bonus] or 0)


# --- the definition files -----------------------------------------------------------------------


def shipped_text(name: str) -> str:
    return (resources.files("companion") / "data" / name).read_text(encoding="utf-8")


def test_shipped_sheets_have_one_area_per_disco_colour():
    for sheet in (STD, ADV):
        assert sorted(a.colour for a in sheet.areas) == sorted(COLOURS)
    assert {a.rule for a in STD.areas} == {"same", "ascending", "descending", "sum-seven", "even-odd"}
    assert {a.rule for a in ADV.areas} == {"two-numbers", "calculation-pyramid", "unequal-pyramid",
                                           "pairs-triples", "smaller-larger"}


def test_disco_die_faces_are_the_colours_and_any():
    assert set(die_kind("disco").labels) == {*COLOURS, "any"}


def test_disco_die_labels_match_the_vision_set(shared):
    enrolled = shared / "throwbench-dev" / "enroll" / "disco"
    assert {p.name for p in enrolled.iterdir() if p.is_dir()} == set(die_kind("disco").labels)


@pytest.mark.parametrize(("old", "new", "needles"), [
    ("stars = [1, 2, 4, 6, 9, 12, 16]", "stars = [1, 2, 4]", ["same", "'stars'", "[1, 2, 4]"]),
    ('rule = "same"', 'rule = "identical"', ["'rule'", "'identical'"]),
    ('colour = "green"\nrule = "ascending"', 'colour = "yellow"\nrule = "ascending"', ["colour"]),
    ("length = 6", "length = 5", ["seven", "'length'", "5", "even"]),
    ("groups = [2, 2, 3]", "groups = [2, 2, 2]", ["pairs", "'groups'", "[2, 2, 2]"]),
    ("levels = [3, 2, 1, 1]", "levels = [3, 1, 1, 1]", ["calc", "'levels'"]),
    ("levels = [1, 2, 3]\nstars = [1, 4, 9]", "levels = [1, 2, 3, 4]\nstars = [1, 4, 9, 16]",
     ["unequal", "at most 6"]),
    ('bonus = "2.2"', 'bonus = "3.2"', ["calc", "'bonus'", "3.2"]),
    ("bonus = 4\n", "bonus = 8\n", ["same", "'bonus'", "8"]),
    ('key = "up"', 'key = "Up Row"', ["'key'", "Up Row"]),
    ("length = 7\nstars = [1, 2, 4", "length = 7\nwidth = 3\nstars = [1, 2, 4", ["same", "width"]),
    ("[advanced]", "[advanced\n", ["not valid TOML"]),
])
def test_an_invalid_sheet_definition_names_file_key_and_value(old, new, needles):
    text = shipped_text(SHEETS_FILE)
    assert old in text
    with pytest.raises(DataError) as err:
        load_sheets(text.replace(old, new, 1))
    message = str(err.value)
    assert SHEETS_FILE in message
    for needle in needles:
        assert needle in message


def test_the_shipped_sheet_file_loads_unchanged():
    assert load_sheets(shipped_text(SHEETS_FILE)) == {"standard": STD, "advanced": ADV}


@pytest.mark.parametrize(("old", "new", "needles"), [
    ("rows = 6", "rows = 5", ["'rows'", "5"]),
    ("start = { 2 = 4, 3 = 3, 4 = 2, 5 = 1 }", "start = { 2 = 5, 3 = 3, 4 = 2, 5 = 1 }", ["start.2", "5"]),
    ('effect = "dj"', 'effect = "disco"', ["'effect'", "'disco'"]),
    ("other = 4", "other = 6", ["'other'", "6"]),
    ('column = "right"', 'column = "middle"', ["'column'", "'middle'"]),
])
def test_an_invalid_board_definition_names_file_key_and_value(old, new, needles):
    text = shipped_text(BOARD_FILE)
    assert old in text
    with pytest.raises(DataError) as err:
        load_board(text.replace(old, new, 1))
    assert BOARD_FILE in str(err.value)
    for needle in needles:
        assert needle in str(err.value)
    assert load_board(text) == shipped_board()
