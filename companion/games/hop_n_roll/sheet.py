"""Hop'n'ROLL score sheets: the sheet definition file, the rule of every row and pyramid, scoring.

A sheet side (``standard`` or ``advanced``) has five areas, one per disco colour. An area is a row
filled left to right or a pyramid filled level by level. Its spaces are kept in one fixed order
(rows: left to right; pyramids: level by level in the order the levels open, each level left to
right), and a player's sheet holds, per area, the list of numbers written there (None where empty).

>>> sheet = sheet_side("standard")
>>> up = sheet.area("up")
>>> refusal(up, [3, 5, None, None, None, None, None], 2, 4)[1]
'Ascending numbers: each number must be equal to or higher than the one before; 4 is lower than 5'
>>> area_score(up, [3, 5, 5, None, None, None, None]) == up.stars[2]
True
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.datafile import check_keys, parse_toml, read_shipped
from companion.errors import DataError

SHEETS_FILE = "hop-n-roll.sheets.toml"
COLOURS = ("yellow", "green", "blue", "pink", "orange")
SIDES = ("standard", "advanced")
MAX_ROW = 7

Cells = list[int | None]


@dataclass(frozen=True, slots=True)
class RuleInfo:
    section: str  # the rulebook section a refusal cites
    summary: str  # the rule in a few plain words, for refusals and the screen
    pyramid: bool = False


ROWS_SECTION = "Hop'n'ROLL §Entering dice results"
PYRAMIDS_SECTION = "Hop'n'ROLL Advanced §Entering dice results"

RULES: dict[str, RuleInfo] = {
    "same": RuleInfo("Hop'n'ROLL §Same numbers", "every number must be the same as the first"),
    "ascending": RuleInfo("Hop'n'ROLL §Ascending Numbers",
                          "each number must be equal to or higher than the one before"),
    "descending": RuleInfo("Hop'n'ROLL §Descending Numbers",
                           "each number must be equal to or lower than the one before"),
    "sum-seven": RuleInfo("Hop'n'ROLL §Sum Seven",
                          "the spaces go in pairs and each pair must add up to 7"),
    "even-odd": RuleInfo("Hop'n'ROLL §Even / Odd", "even and odd numbers must take turns"),
    "two-numbers": RuleInfo("Hop'n'ROLL Advanced §Two numbers",
                            "the first two numbers differ, then only those two follow, taking turns"),
    "pairs-triples": RuleInfo("Hop'n'ROLL Advanced §Pairs and Triples",
                              "all numbers of one pair or triple must be the same"),
    "smaller-larger": RuleInfo("Hop'n'ROLL Advanced §Smaller / Larger",
                               "each number must be smaller, then larger, then smaller... than the one "
                               "before"),
    "calculation-pyramid": RuleInfo(
        "Hop'n'ROLL Advanced §Calculation Pyramid",
        "start on the bottom level; a level opens when the one below is full; each number is the sum "
        "or the difference of the two below it; the top repeats the space below it", pyramid=True),
    "unequal-pyramid": RuleInfo(
        "Hop'n'ROLL Advanced §Unequal Numbers",
        "start at the top; a level opens when the one above is full; every number at most once",
        pyramid=True),
}


@cache
def _starts(levels: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(levels[:k]) for k in range(len(levels)))


@dataclass(frozen=True, slots=True)
class Area:
    """One row or pyramid of a sheet side, as defined in the sheet file."""

    key: str
    name: str
    colour: str
    rule: str
    stars: tuple[int, ...]  # rows: per space; pyramids: per level, in opening order
    bonus: int  # index (in space order) of the fully coloured bonus space
    levels: tuple[int, ...]  # pyramids: level widths in opening order; rows: (length,)
    groups: tuple[int, ...] = ()  # pairs-triples: group sizes, left to right

    @property
    def pyramid(self) -> bool:
        return RULES[self.rule].pyramid

    @property
    def size(self) -> int:
        return sum(self.levels)

    @property
    def info(self) -> RuleInfo:
        return RULES[self.rule]

    def level_starts(self) -> tuple[int, ...]:
        """The index of each level's first space."""
        return _starts(self.levels)

    def space_id(self, index: int) -> str:
        """``"3"`` for the third space of a row, ``"2.1"`` for level 2, position 1 of a pyramid."""
        if not self.pyramid:
            return str(index + 1)
        for level, start in reversed(tuple(enumerate(self.level_starts()))):
            if index >= start:
                return f"{level + 1}.{index - start + 1}"
        raise IndexError(index)

    def space_index(self, space: str) -> int | None:
        """The index of the space written ``space``, or None if this area has no such space."""
        if not self.pyramid:
            if space.isdigit() and 1 <= int(space) <= self.size:
                return int(space) - 1
            return None
        m = re.fullmatch(r"(\d+)\.(\d+)", space)
        if not m:
            return None
        level, pos = int(m[1]) - 1, int(m[2]) - 1
        if not (0 <= level < len(self.levels) and 0 <= pos < self.levels[level]):
            return None
        return self.level_starts()[level] + pos

    def group_start(self, index: int) -> int:
        at = 0
        for size in self.groups:
            if index < at + size:
                return at
            at += size
        raise IndexError(index)


@dataclass(frozen=True, slots=True)
class Sheet:
    """One side of the sheet: its five areas in printed order (top to bottom)."""

    side: str
    name: str
    areas: tuple[Area, ...]

    def area(self, key: str) -> Area:
        for a in self.areas:
            if a.key == key:
                return a
        raise KeyError(key)

    def keys(self) -> tuple[str, ...]:
        return tuple(a.key for a in self.areas)


# --- Rules --------------------------------------------------------------------------------------


def filled(cells: Sequence[int | None]) -> int:
    return sum(v is not None for v in cells)


def is_complete(cells: Sequence[int | None]) -> bool:
    return all(v is not None for v in cells)


def open_spaces(area: Area, cells: Sequence[int | None]) -> list[int]:
    """The empty spaces that may be written next, before looking at the number (no gaps)."""
    if not area.pyramid:
        n = filled(cells)
        return [n] if n < area.size else []
    for start, width in zip(area.level_starts(), area.levels, strict=True):
        empty = [i for i in range(start, start + width) if cells[i] is None]
        if empty:
            return empty
    return []


def calc_options(a: int, b: int) -> set[int]:
    """What may go above ``a`` and ``b`` in the calculation pyramid: their sum or difference, 1-6."""
    return {v for v in (a + b, abs(a - b)) if 1 <= v <= 6}


def refusal(area: Area, cells: Sequence[int | None], index: int, value: int) -> tuple[str, str] | None:
    """Why ``value`` may not be written in space ``index`` of ``area``: (rule section, reason).

    None when it may. ``cells`` is the area's current content.
    """
    info = area.info
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        return ROWS_SECTION, f"only the numbers 1 to 6 can be written, not {value!r}"
    if not 0 <= index < area.size:
        return ROWS_SECTION, f"{area.name} has no such space"
    if cells[index] is not None:
        return ROWS_SECTION, f"{area.name} space {area.space_id(index)} already holds a {cells[index]}"
    if not area.pyramid:
        n = filled(cells)
        if index != n:
            return ROWS_SECTION, (f"no gaps: {area.name} is filled from the left, so the next number goes "
                                  f"in space {n + 1}, not {index + 1}")
        return _row_refusal(area, cells, index, value)
    starts = area.level_starts()
    level = next(lv for lv in range(len(starts) - 1, -1, -1) if index >= starts[lv])
    for lv in range(level):
        if not is_complete(cells[starts[lv]:starts[lv] + area.levels[lv]]):
            direction = "below" if area.rule == "calculation-pyramid" else "above"
            return PYRAMIDS_SECTION, (f"no gaps: in the {area.name} a level opens only once the level "
                                      f"{direction} it is full; level {lv + 1} is not")
    name = area.name
    if area.rule == "unequal-pyramid":
        if value in cells:
            return info.section, f"{name}: every number only once; {value} is already there"
        return None
    # calculation pyramid
    if level == 0:
        return None
    below = starts[level - 1]
    pos = index - starts[level]
    if area.levels[level] == area.levels[level - 1]:
        v = cells[below + pos]
        if value != v:
            return info.section, f"{name}: this space repeats the number below it, {v}"
        return None
    a, b = cells[below + pos], cells[below + pos + 1]
    assert a is not None and b is not None  # the level below is full
    options = calc_options(a, b)
    if not options:
        return info.section, (f"{name}: nothing can be written above two {a}s side by side "
                              f"(their sum is over 6 and their difference is 0)")
    if value not in options:
        fits = " or ".join(str(v) for v in sorted(options))
        return info.section, (f"{name}: each number is the sum or the difference of the two below it; "
                              f"above {a} and {b} only {fits} fits")
    return None


def _row_refusal(area: Area, cells: Sequence[int | None], i: int, v: int) -> tuple[str, str] | None:
    info, name = area.info, area.name
    prev = cells[i - 1] if i else None

    def no(detail: str) -> tuple[str, str]:
        return info.section, f"{name}: {info.summary}; {detail}"

    match area.rule:
        case "same":
            if i and v != cells[0]:
                return no(f"this row holds {cells[0]}s")
        case "ascending":
            if prev is not None and v < prev:
                return no(f"{v} is lower than {prev}")
        case "descending":
            if prev is not None and v > prev:
                return no(f"{v} is higher than {prev}")
        case "sum-seven":
            if i % 2 and prev is not None and prev + v != 7:
                return no(f"after {prev} only {7 - prev} makes 7")
        case "even-odd":
            if prev is not None and v % 2 == prev % 2:
                kind = "even" if prev % 2 == 0 else "odd"
                return no(f"{prev} is {kind}, so an {'odd' if kind == 'even' else 'even'} number comes next")
        case "two-numbers":
            if i == 1 and v == cells[0]:
                return no(f"the second number must differ from the first, {v}")
            if i >= 2 and v != cells[i - 2]:
                return no(f"this space takes {cells[i - 2]}")
        case "pairs-triples":
            start = area.group_start(i)
            if i != start and v != cells[start]:
                return no(f"this group holds {cells[start]}s")
        case "smaller-larger":
            if prev is not None and v == prev:
                return no(f"{v} is neither smaller nor larger than {prev}")
            if i >= 2 and prev is not None:
                before = cells[i - 2]
                assert before is not None
                if prev > before and v > prev:
                    return no(f"the row went up to {prev}, so a smaller number comes next")
                if prev < before and v < prev:
                    return no(f"the row went down to {prev}, so a larger number comes next")
    return None


ANY_VALUE = frozenset(range(1, 7))


def fits(area: Area, cells: Sequence[int | None], index: int) -> frozenset[int]:
    """The numbers that may go in ``index``, one of :func:`open_spaces` (the fast form of :func:`refusal`)."""
    i = index
    if area.pyramid:
        if area.rule == "unequal-pyramid":
            return ANY_VALUE.difference(cells)
        starts = area.level_starts()
        level = next(lv for lv in range(len(starts) - 1, -1, -1) if i >= starts[lv])
        if level == 0:
            return ANY_VALUE
        below, pos = starts[level - 1], i - starts[level]
        if area.levels[level] == area.levels[level - 1]:
            return frozenset((cells[below + pos],))
        a, b = cells[below + pos], cells[below + pos + 1]
        assert a is not None and b is not None
        return frozenset(calc_options(a, b))
    if i == 0:
        return ANY_VALUE
    prev = cells[i - 1]
    assert prev is not None
    match area.rule:
        case "same":
            return frozenset((prev,))
        case "ascending":
            return frozenset(range(prev, 7))
        case "descending":
            return frozenset(range(1, prev + 1))
        case "sum-seven":
            return frozenset((7 - prev,)) if i % 2 else ANY_VALUE
        case "even-odd":
            return frozenset(v for v in ANY_VALUE if v % 2 != prev % 2)
        case "two-numbers":
            return ANY_VALUE - {prev} if i == 1 else frozenset((cells[i - 2],))
        case "pairs-triples":
            start = area.group_start(i)
            return ANY_VALUE if i == start else frozenset((cells[start],))
        case "smaller-larger":
            before = cells[i - 2] if i >= 2 else None
            if before is None:
                return ANY_VALUE - {prev}
            return frozenset(range(1, prev)) if prev > before else frozenset(range(prev + 1, 7))
    raise ValueError(area.rule)


def legal_entries(area: Area, cells: Sequence[int | None], values: Sequence[int]) -> list[tuple[int, int]]:
    """Every (space index, value) with a value from ``values`` that may be written now."""
    return [(i, v) for i in open_spaces(area, cells) for v in values if v in fits(area, cells, i)]


# --- Scoring ------------------------------------------------------------------------------------


def completed_levels(area: Area, cells: Sequence[int | None]) -> int:
    """How many pyramid levels are full, counted in opening order (they fill in that order)."""
    n = 0
    for start, width in zip(area.level_starts(), area.levels, strict=True):
        if not is_complete(cells[start:start + width]):
            break
        n += 1
    return n


def star_points(area: Area, cells: Sequence[int | None]) -> int:
    """Rows: the stars above the last number; pyramids: the stars of the last level completed."""
    n = completed_levels(area, cells) if area.pyramid else filled(cells)
    return area.stars[n - 1] if n else 0


def area_score(area: Area, cells: Sequence[int | None]) -> int:
    """Star points plus the number in the bonus space (the bonus counts even on an open level)."""
    return star_points(area, cells) + (cells[area.bonus] or 0)


# --- The definition file ------------------------------------------------------------------------

_KEY = re.compile(r"[a-z][a-z0-9-]*")
ROW_KEYS = {"key", "name", "colour", "rule", "length", "stars", "bonus", "groups"}
PYRAMID_KEYS = {"key", "name", "colour", "rule", "levels", "stars", "bonus"}


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: Any) -> bool:
    return isinstance(value, list) and all(_int(v) for v in value)


def parse_sheets(data: Mapping[str, Any], origin: str = SHEETS_FILE) -> dict[str, Sheet]:
    """Validate a parsed sheet file; :class:`DataError` names the file, the area, the key and value."""
    unknown = set(data) - set(SIDES)
    if unknown:
        raise DataError(f"{origin}: unknown sides {sorted(unknown)}; the sides are {', '.join(SIDES)}")
    return {side: _parse_side(data.get(side), side, origin) for side in SIDES}


def _parse_side(body: Any, side: str, origin: str) -> Sheet:
    if not isinstance(body, Mapping):
        raise DataError(f"{origin}: [{side}] is missing or not a table")
    check_keys(body, ("name", "areas"), f"{origin}: [{side}]")
    name = body.get("name", side)
    if not isinstance(name, str):
        raise DataError(f"{origin}: [{side}] name must be a string, not {name!r}")
    raw = body.get("areas")
    if not isinstance(raw, list) or not all(isinstance(a, Mapping) for a in raw):
        raise DataError(f"{origin}: [{side}] needs a list of [[{side}.areas]] tables")
    areas = tuple(_parse_area(a, f"{origin}: [[{side}.areas]] #{n}", ) for n, a in enumerate(raw, 1))
    keys = [a.key for a in areas]
    if len(set(keys)) != len(keys):
        raise DataError(f"{origin}: [{side}] two areas share a key: {keys}")
    colours = sorted(a.colour for a in areas)
    if colours != sorted(COLOURS):
        raise DataError(f"{origin}: [{side}] needs exactly one area of each disco colour "
                        f"({', '.join(COLOURS)}); its colours are {', '.join(colours)}")
    return Sheet(side, name, areas)


def _parse_area(body: Mapping[str, Any], where: str, ) -> Area:
    def bad(key: str, problem: str) -> DataError:
        return DataError(f"{where} key {key!r} = {body.get(key)!r}: {problem}")

    key = body.get("key")
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise bad("key", "must be lowercase letters, digits and '-', starting with a letter")
    where = f"{where} ({key})"
    rule = body.get("rule")
    if rule not in RULES:
        raise bad("rule", f"unknown rule; the rules are {', '.join(RULES)}")
    pyramid = RULES[rule].pyramid
    allowed = PYRAMID_KEYS if pyramid else ROW_KEYS
    extra = set(body) - allowed
    if extra:
        raise DataError(f"{where} has unknown keys {sorted(extra)}; a {rule} area allows "
                        f"{', '.join(sorted(allowed))}")
    name = body.get("name", key)
    if not isinstance(name, str) or not name:
        raise bad("name", "must be a non-empty string")
    colour = body.get("colour")
    if colour not in COLOURS:
        raise bad("colour", f"must be one of {', '.join(COLOURS)}")
    stars = body.get("stars")
    groups: tuple[int, ...] = ()
    if pyramid:
        levels = body.get("levels")
        if not _int_list(levels) or not levels or any(w < 1 for w in levels):
            raise bad("levels", "must be a list of level widths, each at least 1")
        if rule == "calculation-pyramid":
            for lower, upper in itertools.pairwise(levels):
                if not (upper == lower - 1 or upper == lower == 1):
                    raise bad("levels", "each level above must be one space narrower than the level "
                                        "below it (or a single space above a single space)")
        else:
            for upper, lower in itertools.pairwise(levels):
                if lower != upper + 1:
                    raise bad("levels", "each level below must be one space wider than the level above")
            if sum(levels) > 6:
                raise bad("levels", "every number is used once, so the pyramid has at most 6 spaces")
        count = len(levels)
        bonus_raw = body.get("bonus")
        m = re.fullmatch(r"(\d+)\.(\d+)", bonus_raw) if isinstance(bonus_raw, str) else None
        if not m or not (1 <= int(m[1]) <= len(levels) and 1 <= int(m[2]) <= levels[int(m[1]) - 1]):
            raise bad("bonus", "must be \"level.position\" of a space of this pyramid, e.g. \"2.1\"")
        bonus = sum(levels[:int(m[1]) - 1]) + int(m[2]) - 1
    else:
        length = body.get("length")
        if not _int(length) or not 1 <= length <= MAX_ROW:
            raise bad("length", f"must be a whole number of spaces from 1 to {MAX_ROW}")
        if rule == "sum-seven" and length % 2:
            raise bad("length", "a sum-seven row is made of pairs, so its length must be even")
        if rule == "pairs-triples":
            g = body.get("groups")
            if not _int_list(g) or any(s not in (2, 3) for s in g) or sum(g) != length:
                raise bad("groups", f"must list group sizes of 2 or 3 adding up to the length, {length}")
            groups = tuple(g)
        levels = [length]
        count = length
        bonus_raw = body.get("bonus")
        if not _int(bonus_raw) or not 1 <= bonus_raw <= length:
            raise bad("bonus", f"must be the position of a space, 1 to {length}")
        bonus = bonus_raw - 1
    if not _int_list(stars) or len(stars) != count or any(s < 0 for s in stars):
        what = "level" if pyramid else "space"
        raise bad("stars", f"must list {count} star values (one per {what}), none negative")
    return Area(key, name, colour, rule, tuple(stars), bonus, tuple(levels), groups)


def load_sheets(text: str, origin: str = SHEETS_FILE) -> dict[str, Sheet]:
    """Parse and validate the text of a sheet file."""
    return parse_sheets(parse_toml(text, origin), origin)


@cache
def shipped_sheets() -> dict[str, Sheet]:
    """The sheet file shipped in ``companion/data``."""
    return parse_sheets(read_shipped(SHEETS_FILE), SHEETS_FILE)


def sheet_side(side: str) -> Sheet:
    return shipped_sheets()[side]
