"""Roll In One courses: boards placed in slots, greens, validation, the course file format.

A course file is TOML (see docs/rules/roll-in-one.md, section Course files)::

    name = "Over the Lake"
    designer = "Anna"
    greens = [[12, -5]]

    [[boards]]
    board = "tee"      # a board id from roll-in-one.boards.toml
    slot = [0, 0]      # its slot on the board lattice; neighbouring slots share an edge
    turn = 0           # clockwise rotation in 60-degree steps, 0-5

The same course fits on one line (the move text of a design)::

    tee@0,0/0 lake@1,0/0 fairway@2,0/1 green@12,-5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.datafile import parse_toml, read_shipped
from companion.errors import DataError
from companion.words import count_of

from .data import Board, load_boards
from .hexgrid import SLOT_NEIGHBOURS, Pos, rotate, slot_centre


@dataclass(frozen=True, slots=True)
class Placement:
    """One board on the table: which board, in which lattice slot, turned how far clockwise."""

    board: str
    slot: Pos
    turn: int = 0

    def __str__(self) -> str:
        return f"{self.board}@{self.slot[0]},{self.slot[1]}/{self.turn}"


@dataclass(frozen=True, slots=True)
class Rules:
    """What a course must have in a game mode."""

    min_boards: int = 3
    max_boards: int = 5
    greens: int = 1


STANDARD = Rules()


@dataclass(frozen=True, slots=True)
class Course:
    boards: tuple[Placement, ...]
    greens: tuple[Pos, ...]
    name: str = ""
    designer: str = ""

    @property
    def par(self) -> int:
        """About one stroke per board, the tee board included (Hole Design)."""
        return len(self.boards)

    def compact(self) -> str:
        return " ".join([*(str(p) for p in self.boards), *(f"green@{q},{r}" for q, r in self.greens)])


def cells_of(boards: tuple[Placement, ...] | list[Placement],
             catalogue: Mapping[str, Board] | None = None) -> dict[Pos, tuple[str, int]]:
    """Every course space: its terrain and the index of its board. Assumes a valid layout."""
    catalogue = catalogue if catalogue is not None else load_boards()
    out: dict[Pos, tuple[str, int]] = {}
    for i, p in enumerate(boards):
        cq, cr = slot_centre(p.slot)
        for local, terrain in catalogue[p.board].terrain:
            q, r = rotate(local, p.turn)
            out[(cq + q, cr + r)] = (terrain, i)
    return out


def layout_problem(boards: list[Placement] | tuple[Placement, ...],
                   catalogue: Mapping[str, Board] | None = None) -> str | None:
    """Why these boards are not a valid layout so far (overlap, unjoined, tee), or None."""
    catalogue = catalogue if catalogue is not None else load_boards()
    seen: dict[Pos, int] = {}
    used: dict[str, int] = {}
    for i, p in enumerate(boards, 1):
        if p.board not in catalogue:
            return f"board {i} is {p.board!r}, which is not in the board set ({', '.join(catalogue)})"
        if not 0 <= p.turn <= 5:
            return f"board {i} ({p.board}) has turn {p.turn}; turns are 0-5 (60-degree steps)"
        if p.board in used:
            return f"board {i} ({p.board}) is already on the table as board {used[p.board]}"
        used[p.board] = i
        if p.slot in seen:
            return (f"boards {seen[p.slot]} and {i} ({p.board}) overlap: both are in slot "
                    f"{p.slot[0]},{p.slot[1]}")
        seen[p.slot] = i
    if not boards:
        return "no boards: start with the tee board"
    tees = [i for i, p in enumerate(boards, 1) if catalogue[p.board].is_tee]
    if not tees:
        return "no tee: the course needs a tee board"
    if len(tees) > 1:
        return f"boards {tees[0]} and {tees[1]} are both tee boards; a course has one tee"
    # joined edge to edge: every board reachable from the tee board through neighbouring slots
    start = boards[tees[0] - 1].slot
    reached, todo = {start}, [start]
    while todo:
        a, b = todo.pop()
        for da, db in SLOT_NEIGHBOURS:
            n = (a + da, b + db)
            if n in seen and n not in reached:
                reached.add(n)
                todo.append(n)
    for i, p in enumerate(boards, 1):
        if p.slot not in reached:
            return (f"board {i} ({p.board}) in slot {p.slot[0]},{p.slot[1]} is not joined edge to edge "
                    "to the other boards")
    return None


def course_problem(course: Course, rules: Rules = STANDARD,
                   catalogue: Mapping[str, Board] | None = None) -> str | None:
    """Why ``course`` cannot be played under ``rules``, or None."""
    problem = layout_problem(course.boards, catalogue)
    if problem:
        return problem
    n = len(course.boards)
    if not rules.min_boards <= n <= rules.max_boards:
        return (f"the course has {n} boards; it needs the tee board and {rules.min_boards - 1}-"
                f"{rules.max_boards - 1} more" if rules.min_boards != rules.max_boards else
                f"the course has {n} boards; it needs exactly {rules.max_boards}")
    cells = cells_of(course.boards, catalogue)
    if not course.greens:
        return "no green: place the green token on a space"
    for g in course.greens:
        if g not in cells:
            return f"green {g[0]},{g[1]} is off the course (not on any board)"
        if cells[g][0] == "tee":
            return f"green {g[0]},{g[1]} is on the tee"
    if len(set(course.greens)) != len(course.greens):
        return "two greens on the same space"
    if len(course.greens) != rules.greens:
        return f"the course has {count_of(len(course.greens), 'green')}; this game needs {rules.greens}"
    return None


def tee_of(cells: Mapping[Pos, tuple[str, int]]) -> Pos:
    return next(p for p, (t, _) in cells.items() if t == "tee")


# --- text forms ------------------------------------------------------------------------------


def _pair(value: Any, where: str) -> Pos:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise DataError(f"{where} = {value!r} must be a pair of whole numbers [q, r]")
    return (value[0], value[1])


def parse_course(data: Mapping[str, Any], origin: str, rules: Rules = STANDARD,
                 validate: bool = True) -> Course:
    """A course from a parsed course file; :class:`DataError` names the file, key and value."""
    unknown = set(data) - {"name", "designer", "greens", "green", "boards"}
    if unknown:
        raise DataError(f"{origin}: unknown keys {sorted(unknown)}; allowed: name, designer, greens, boards")
    boards_raw = data.get("boards")
    if not isinstance(boards_raw, list) or not boards_raw:
        raise DataError(f"{origin}: boards must be a list of [[boards]] tables; no boards given")
    boards = []
    for i, b in enumerate(boards_raw, 1):
        where = f"{origin}: boards[{i}]"
        if not isinstance(b, Mapping) or set(b) - {"board", "slot", "turn"}:
            raise DataError(f"{where} must be a table with keys board, slot, turn")
        if not isinstance(b.get("board"), str):
            raise DataError(f"{where} board must name a board id")
        turn = b.get("turn", 0)
        if not isinstance(turn, int) or isinstance(turn, bool):
            raise DataError(f"{where} turn = {turn!r} must be a whole number 0-5")
        boards.append(Placement(b["board"], _pair(b.get("slot"), f"{where} slot"), turn))
    if "green" in data and "greens" in data:
        raise DataError(f"{origin}: give green or greens, not both")
    if "green" in data:
        greens = (_pair(data["green"], f"{origin}: green"),)
    else:
        raw = data.get("greens", [])
        if not isinstance(raw, list):
            raise DataError(f"{origin}: greens = {raw!r} must be a list of [q, r] pairs")
        greens = tuple(_pair(g, f"{origin}: greens[{i}]") for i, g in enumerate(raw, 1))
    for key in ("name", "designer"):
        if not isinstance(data.get(key, ""), str):
            raise DataError(f"{origin}: {key} must be a string")
    course = Course(tuple(boards), greens, data.get("name", ""), data.get("designer", ""))
    if validate:
        problem = course_problem(course, rules)
        if problem:
            raise DataError(f"{origin}: {problem}")
    return course


def loads_course(text: str, origin: str = "course file", rules: Rules = STANDARD) -> Course:
    """Read a course file's text."""
    return parse_course(parse_toml(text, origin), origin, rules)


def _str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dumps_course(course: Course) -> str:
    """The course file text for ``course`` (:func:`loads_course` reads it back)."""
    lines = ["# Roll In One course file (docs/rules/roll-in-one.md, section Course files)",
             f"name = {_str(course.name)}", f"designer = {_str(course.designer)}",
             "greens = [" + ", ".join(f"[{q}, {r}]" for q, r in course.greens) + "]",
             f"# par {course.par}"]
    for p in course.boards:
        lines += ["", "[[boards]]", f"board = {_str(p.board)}", f"slot = [{p.slot[0]}, {p.slot[1]}]",
                  f"turn = {p.turn}"]
    return "\n".join(lines) + "\n"


def parse_compact(text: str) -> Course | None:
    """A course from its one-line form, or None if the text is malformed (not validated)."""
    boards, greens = [], []
    try:
        for token in text.split():
            what, _, where = token.partition("@")
            if what == "green":
                q, r = where.split(",")
                greens.append((int(q), int(r)))
                continue
            slot, _, turn = where.partition("/")
            a, b = slot.split(",")
            boards.append(Placement(what, (int(a), int(b)), int(turn)))
    except ValueError:
        return None
    if not boards:
        return None
    return Course(tuple(boards), tuple(greens))


# --- the shipped course library --------------------------------------------------------------


@cache
def load_library() -> dict[str, Course]:
    """Ready-made courses from ``roll-in-one.courses.toml``, by id (each table is a course file)."""
    name = "roll-in-one.courses.toml"
    data = read_shipped(name)
    out = {}
    for key, body in data.get("courses", {}).items():
        if not isinstance(body, Mapping):
            raise DataError(f"{name}: [courses.{key}] must be a table")
        out[key] = parse_course(body, f"{name}: [courses.{key}]", Rules(3, 8, len(body.get("greens", []))))
    return out
