"""The Doshboard: hexagonal cells with centre dots, twelve clock directions, hill lines, and the board file.

Cells are flat-topped hexagons addressed by name (column letter, row number: ``"C7"``); odd columns sit
half a cell lower. Internally a cell is an axial pair ``(q, r)``. Even clock directions step to an
edge neighbour (1 count), odd ones to the next dot along a cell corner (2 counts); the half-way point of
an odd step lies on the edge shared by the two cells flanking the line, and the board's arcs decide
which of them covers it (:func:`half_way`). See docs/rules/doshboardgolf.md.

>>> step_to((0, 0), 1), half_way(1, (12, 4, 8))
((1, -2), 12)
>>> name_of(axial_of("C7"))
'C7'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from companion.datafile import parse_toml, read_shipped, shipped_names
from companion.errors import DataError

Pos = tuple[int, int]  # axial (q, r)

DIRECTIONS = tuple(range(1, 13))
#: Axial step per clock direction; 12 is up (north) on the board, 3 is to the right.
STEP: dict[int, Pos] = {
    12: (0, -1), 2: (1, -1), 4: (1, 0), 6: (0, 1), 8: (-1, 1), 10: (-1, 0),
    1: (1, -2), 3: (2, -1), 5: (1, 1), 7: (-1, 2), 9: (-2, 1), 11: (-1, -1),
}
ARC_CHOICES = ((12, 4, 8), (2, 6, 10))

CELL_CHARS = {
    ".": "grass", "t": "tee", "o": "target", "~": "water", "w": "waterfall",
    "s": "small tree", "m": "medium tree", "B": "big tree",
}
KIND_CHAR = {v: k for k, v in CELL_CHARS.items()}
OFF = " "  # not part of the board
WATERS = frozenset({"water", "waterfall"})
TREES = frozenset({"small tree", "medium tree", "big tree"})
STOPPING_TREES = frozenset({"medium tree", "big tree"})


def turn(direction: int, by: int) -> int:
    """The clock direction ``by`` hours clockwise of ``direction`` (negative: anticlockwise)."""
    return (direction - 1 + by) % 12 + 1


def counts_per_dot(direction: int) -> int:
    """Two counts per dot in odd directions, one in even ones."""
    return 2 if direction % 2 else 1


def angle(a: int, b: int) -> int:
    """The angle between two clock directions in hours (0-6)."""
    d = (b - a) % 12
    return min(d, 12 - d)


def step_to(pos: Pos, direction: int, times: int = 1) -> Pos:
    dq, dr = STEP[direction]
    return pos[0] + dq * times, pos[1] + dr * times


def half_way(direction: int, outward: tuple[int, ...]) -> int:
    """The even direction of the neighbour covering the midpoint of an odd step in ``direction``.

    The midpoint lies on the edge between the neighbours at ``direction - 1`` and ``direction + 1``;
    seen from the first, that edge is its side facing ``direction + 3``. The cell whose side bulges
    outward there covers the midpoint.
    """
    if direction % 2 == 0:
        raise ValueError("only odd directions have half-way points")
    return turn(direction, -1) if turn(direction, 3) in outward else turn(direction, 1)


def one_cell(direction: int, outward: tuple[int, ...]) -> int:
    """The even direction one count (one cell) moves in ``direction`` (used by roll-aways)."""
    return direction if direction % 2 == 0 else half_way(direction, outward)


# --- names ---------------------------------------------------------------------------------------


def axial_of(name: str) -> Pos:
    """``"C7"`` -> axial position (column letter A-Z, row number from 1)."""
    if len(name) < 2 or not name[0].isalpha() or not name[0].isupper() or not name[1:].isdigit():
        raise ValueError(f"{name!r} is not a cell name (a column letter A-Z and a row number, e.g. C7)")
    col, row = ord(name[0]) - ord("A"), int(name[1:]) - 1
    if row < 0:
        raise ValueError(f"{name!r}: rows are numbered from 1")
    return col, row - (col - (col & 1)) // 2


def offset_of(pos: Pos) -> tuple[int, int]:
    q, r = pos
    return q, r + (q - (q & 1)) // 2


def name_of(pos: Pos) -> str:
    col, row = offset_of(pos)
    if not 0 <= col < 26 or row < 0:
        return f"({pos[0]},{pos[1]})"
    return f"{chr(ord('A') + col)}{row + 1}"


def pos_of(name: str) -> Pos:
    """The dot :func:`name_of` names: a cell name, or "(q,r)" for a dot off the board beyond row 1 or
    column A."""
    if name.startswith("("):
        q, r = name[1:-1].split(",")
        return int(q), int(r)
    return axial_of(name)


def centre(pos: Pos) -> tuple[float, float]:
    """Drawing coordinates of a dot: neighbours are 1 apart, x to the right, y downwards."""
    col, row = offset_of(pos)
    return round(col * math.sqrt(3) / 2, 4), row + 0.5 * (col & 1)


def hex_distance(a: Pos, b: Pos) -> int:
    """Cells between two dots: the count of the shortest flight (even steps 1, odd steps 2)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def euclid(a: Pos, b: Pos) -> float:
    (ax, ay), (bx, by) = centre(a), centre(b)
    return math.hypot(ax - bx, ay - by)


# --- the board -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hole:
    number: int
    tee: Pos
    target: Pos


@dataclass(frozen=True)
class Board:
    """A validated board: cell kinds and levels by position, the arcs, the holes in play order."""

    id: str
    name: str
    outward: tuple[int, ...]
    kinds: dict[Pos, str] = field(repr=False)
    levels: dict[Pos, int] = field(repr=False)
    holes: tuple[Hole, ...]
    width: int
    height: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:  # immutable: share it
        return self

    def on(self, pos: Pos) -> bool:
        return pos in self.kinds

    def kind(self, pos: Pos) -> str:
        return self.kinds[pos]

    def downhill(self, pos: Pos) -> tuple[int, ...]:
        """Clock directions in which a one-cell move from ``pos`` crosses a hill line downhill."""
        here = self.levels[pos]
        out = []
        for d in DIRECTIONS:
            nxt = step_to(pos, one_cell(d, self.outward))
            if nxt in self.levels and self.levels[nxt] < here:
                out.append(d)
        return tuple(out)

    def aligned(self, start: Pos, direction: int) -> list[Pos]:
        """The board cells on the dots of the straight line from ``start`` (excluded) in ``direction``."""
        out, k = [], 1
        limit = self.width + self.height + 2
        while k <= limit:
            p = step_to(start, direction, k)
            if p in self.kinds:
                out.append(p)
            k += 1
        return out

    def hill_lines(self) -> list[tuple[str, str]]:
        """Every hill line as (upper cell, lower cell) pairs of edge neighbours."""
        out = []
        for p, lv in self.levels.items():
            for d in (12, 2, 4, 6, 8, 10):
                n = step_to(p, d)
                if n in self.levels and self.levels[n] < lv:
                    out.append((name_of(p), name_of(n)))
        return sorted(out)

    def ascii(self, marks: dict[Pos, str] | None = None) -> str:
        """The board as text: row N's even columns (A, C, ...) on line N, odd columns half a line lower."""
        marks = marks or {}
        lines = ["     " + " ".join(chr(ord("A") + c) for c in range(self.width))]
        for row in range(self.height):
            for parity in (0, 1):
                chars = []
                for col in range(self.width):
                    if col % 2 != parity:
                        chars.append(" ")
                        continue
                    pos = (col, row - (col - (col & 1)) // 2)
                    chars.append(marks.get(pos, KIND_CHAR.get(self.kinds.get(pos, ""), OFF)))
                label = f"{row + 1:>3}  " if parity == 0 else "     "
                lines.append((label + " ".join(chars)).rstrip())
        return "\n".join(lines) + "\n"


def _err(origin: str, key: str, problem: str) -> DataError:
    return DataError(f"{origin}: {key}: {problem}")


def parse_board(data: dict[str, Any], origin: str, board_id: str = "board") -> Board:
    """Validate a parsed board file; :class:`DataError` names the file, key and value."""
    allowed = {"name", "outward_sides", "map", "levels", "holes"}
    extra = set(data) - allowed
    if extra:
        raise _err(origin, ", ".join(sorted(extra)), f"unknown key; allowed: {', '.join(sorted(allowed))}")
    name = data.get("name", board_id)
    if not isinstance(name, str) or not name.strip():
        raise _err(origin, "name", f"must be a non-empty string, not {name!r}")
    outward = data.get("outward_sides", [12, 4, 8])
    if not isinstance(outward, list) or tuple(outward) not in ARC_CHOICES:
        raise _err(origin, "outward_sides", f"{outward!r} is not [12, 4, 8] or [2, 6, 10]")
    rows = data.get("map")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise _err(origin, "map", "must be a non-empty list of strings, one per row")
    width = max(len(r) for r in rows)
    if width > 26:
        raise _err(origin, "map", f"{width} columns; at most 26 (columns are lettered A-Z)")
    levels_raw = data.get("levels", ["0" * len(r) for r in rows])
    if not isinstance(levels_raw, list) or len(levels_raw) != len(rows) or not all(
            isinstance(r, str) for r in levels_raw):
        raise _err(origin, "levels", f"must be a list of {len(rows)} strings like the map")
    kinds: dict[Pos, str] = {}
    levels: dict[Pos, int] = {}
    for ri, (line, lline) in enumerate(zip(rows, levels_raw, strict=True)):
        if len(lline) != len(line):
            raise _err(origin, f"levels row {ri + 1}", f"{len(lline)} characters, the map row {len(line)}")
        line, lline = line.ljust(width), lline.ljust(width)
        for ci, ch in enumerate(line):
            cell = f"{chr(ord('A') + ci)}{ri + 1}"
            lv = lline[ci]
            if ch == OFF:
                if lv != OFF:
                    raise _err(origin, f"levels {cell}", f"{lv!r} for a cell that is not on the board")
                continue
            if ch not in CELL_CHARS:
                raise _err(origin, f"map {cell}", f"unknown cell character {ch!r}; known: "
                                                  f"{' '.join(repr(c) for c in CELL_CHARS)} and ' '")
            if not lv.isdigit():
                raise _err(origin, f"levels {cell}", f"{lv!r} is not a level digit 0-9")
            pos = axial_of(cell)
            kinds[pos] = CELL_CHARS[ch]
            levels[pos] = int(lv)
    if not kinds:
        raise _err(origin, "map", "has no cells")
    for p, lv in levels.items():
        for d in (12, 2, 4, 6, 8, 10):
            n = step_to(p, d)
            if n in levels and abs(levels[n] - lv) > 1:
                raise _err(origin, f"levels {name_of(p)}", f"level {lv} beside {name_of(n)} at level "
                                                           f"{levels[n]}: a hill line is one level high")
    holes_raw = data.get("holes")
    if not isinstance(holes_raw, list) or not holes_raw:
        raise _err(origin, "holes", "must be a non-empty list of [[holes]] tables")
    holes: list[Hole] = []
    used: dict[Pos, int] = {}
    for i, h in enumerate(holes_raw, 1):
        key = f"holes[{i}]"
        if not isinstance(h, dict) or set(h) != {"number", "tee", "target"}:
            raise _err(origin, key, "needs exactly the keys number, tee, target")
        if h["number"] != i:
            raise _err(origin, f"{key}.number", f"{h['number']!r}; holes are numbered 1, 2, ... in order")
        pair = []
        for part, want in (("tee", "tee"), ("target", "target")):
            raw = h[part]
            try:
                pos = axial_of(raw) if isinstance(raw, str) else None
            except ValueError:
                pos = None
            if pos is None or pos not in kinds:
                raise _err(origin, f"{key}.{part}", f"{raw!r} is not a cell on the board")
            if kinds[pos] != want:
                raise _err(origin, f"{key}.{part}", f"{raw} is {kinds[pos]}, not a {want} cell")
            if pos in used:
                raise _err(origin, f"{key}.{part}", f"{raw} already belongs to hole {used[pos]}")
            used[pos] = i
            pair.append(pos)
        holes.append(Hole(i, pair[0], pair[1]))
    for pos, kind in kinds.items():
        if kind in ("tee", "target") and pos not in used:
            raise _err(origin, f"map {name_of(pos)}", f"a {kind} cell that no hole uses")
    height = len(rows)
    return Board(board_id, name.strip(), tuple(outward), kinds, levels, tuple(holes), width, height)


BOARD_SUFFIX = ".board.toml"
PREFIX = "doshboardgolf"


def load_board_text(text: str, origin: str, board_id: str = "board") -> Board:
    return parse_board(parse_toml(text, origin), origin, board_id)


def board_files() -> dict[str, str]:
    """Shipped board ids -> file names (``doshboardgolf[-ID].board.toml``; the plain one is 'default')."""
    out = {}
    for n in shipped_names():
        if n.startswith(PREFIX) and n.endswith(BOARD_SUFFIX):
            stem = n[len(PREFIX):-len(BOARD_SUFFIX)].lstrip("-.")
            out[stem or "default"] = n
    return out


@cache
def load_board(board_id: str = "default") -> Board:
    files = board_files()
    if board_id not in files:
        raise DataError(f"unknown Doshboardgolf board {board_id!r}; shipped: {', '.join(files)}")
    name = files[board_id]
    return parse_board(read_shipped(name), name, board_id)
