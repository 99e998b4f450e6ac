"""Roll In One courses: the board lattice, course files, validation errors, designing a hole."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rio_helpers import INFO

from companion.errors import DataError, IllegalMove
from companion.games.roll_in_one.course import (
    Course,
    Placement,
    cells_of,
    dumps_course,
    load_library,
    loads_course,
)
from companion.games.roll_in_one.data import load_boards, parse_boards, parse_cards, parse_clubs
from companion.games.roll_in_one.hexgrid import SLOT_NEIGHBOURS, board_spaces, neighbours, rotate, slot_centre
from companion.protocol import Roll


def test_boards_in_neighbouring_slots_tile_the_plane_and_share_an_edge():
    spaces = board_spaces()
    assert len(spaces) == 19
    seen: dict = {}
    for a in range(-3, 4):
        for b in range(-3, 4):
            cq, cr = slot_centre((a, b))
            for q, r in spaces:
                assert (cq + q, cr + r) not in seen  # no overlap
                seen[(cq + q, cr + r)] = (a, b)
    # no gaps near the middle
    assert all((q, r) in seen for q in range(-6, 7) for r in range(-6, 7))
    home = {(q, r) for q, r in spaces}
    for slot in SLOT_NEIGHBOURS:
        cq, cr = slot_centre(slot)
        other = {(cq + q, cr + r) for q, r in spaces}
        touching = {(p, n) for p in home for n in neighbours(p) if n in other}
        assert len(touching) >= 3  # a whole board edge, not a corner


def test_rotation_keeps_a_board_on_its_own_spaces():
    spaces = set(board_spaces())
    for k in range(6):
        assert {rotate(p, k) for p in spaces} == spaces


COURSE = """
name = "Test"
designer = "Anna"
greens = [[12, -6]]

[[boards]]
board = "tee"
slot = [0, 0]

[[boards]]
board = "fairway"
slot = [1, 0]
turn = 2

[[boards]]
board = "links"
slot = [2, 0]
"""


def test_a_course_file_round_trips_and_knows_its_par():
    course = loads_course(COURSE)
    assert course.par == 3 and course.greens == ((12, -6),)
    assert loads_course(dumps_course(course)) == course
    for cid, c in load_library().items():
        assert loads_course(dumps_course(c), cid, _rules_for(c)) == c


def _rules_for(c: Course):
    from companion.games.roll_in_one.course import Rules

    return Rules(3, 8, len(c.greens))


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.replace("slot = [1, 0]", "slot = [0, 0]"), "overlap"),
    (lambda t: t.replace("slot = [2, 0]", "slot = [3, 0]"), "not joined"),
    (lambda t: t.replace('board = "tee"', 'board = "dogleg"'), "no tee"),
    (lambda t: t.replace("greens = [[12, -6]]", "greens = []"), "no green"),
    (lambda t: t.replace("greens = [[12, -6]]", "greens = [[40, 40]]"), "off the course"),
    (lambda t: t.replace("greens = [[12, -6]]", "greens = [[0, 0]]"), "on the tee"),
    (lambda t: t.replace('"links"', '"moon"'), "not in the board set"),
    (lambda t: t.replace('"links"', '"fairway"'), "already on the table"),
    (lambda t: t.replace("turn = 2", "turn = 7"), "turns are 0-5"),
    (lambda t: t.replace("slot = [2, 0]", 'slot = "east"'), "slot"),
    (lambda t: t.split("[[boards]]\nboard = \"links\"")[0], "needs the tee board and 2-4 more"),
    (lambda t: t + "\n[[boards", "not valid TOML"),
    (lambda t: "wind = 3\n" + t, "unknown keys"),
])
def test_an_invalid_course_file_is_a_data_error_naming_the_problem(edit, message):
    with pytest.raises(DataError, match=message) as info:
        loads_course(edit(COURSE), "my-hole.toml")
    assert "my-hole.toml" in str(info.value)


def test_invalid_board_card_and_club_data_name_file_and_key():
    good = {"rows": ["r r r", "r r r r", "r r T r r", "r r r r", "r r r"]}
    assert parse_boards({"t": good}, "b.toml")["t"].is_tee
    with pytest.raises(DataError, match=r"b.toml: \[x\] rows\[2\]"):
        bad = {"rows": ["r r r", "r r r", "r r r r r", "r r r r", "r r r"]}
        parse_boards({"t": good, "x": bad}, "b.toml")
    with pytest.raises(DataError, match="unknown terrain letter 'L'"):
        parse_boards({"t": {"rows": ["r r r", "r r r r", "r r T r L", "r r r r", "r r r"]}}, "b.toml")
    with pytest.raises(DataError, match=r"c.toml: \[caddie.zap\] effect = 'teleport'"):
        parse_cards({"caddie": {"zap": {"effect": "teleport"}}, "golfer": {"g": {"effect": "fore"}}},
                    "c.toml")
    with pytest.raises(DataError, match="shed-penalty"):
        parse_cards({"caddie": {"a": {"effect": "fore"}}, "golfer": {"g": {"effect": "shed-penalty"}}},
                    "c.toml")
    with pytest.raises(DataError, match="means nothing in Roll In One"):
        parse_clubs({"dice": {"name": "d6", "die": "rollers-black"}}, "k.toml")


def test_design_a_hole_board_by_board():
    s = INFO.new(("Anna", "Ben"), {"golfers": "none"})
    s.apply_roll(Roll.of(p1="3", p2="1"))
    assert s.first == 1 and s.request().player == 1  # Ben rolled lowest: he designs
    with pytest.raises(IllegalMove, match="start with the tee board"):
        s.apply(s.parse_move("board lake@0,0/0"))
    s.apply(s.parse_move("board tee@0,0/0"))
    before = s.clone()
    with pytest.raises(IllegalMove, match="overlap"):
        s.apply(s.parse_move("board lake@0,0/1"))
    with pytest.raises(IllegalMove, match="not joined"):
        s.apply(s.parse_move("board lake@2,0/0"))
    with pytest.raises(IllegalMove, match="needs the tee board and 2-4 more"):
        s.apply(s.parse_move("tee off"))
    with pytest.raises(IllegalMove, match="off the course"):
        s.apply(s.parse_move("green 30,30"))
    assert s == before
    s.apply(s.parse_move("board lake@1,0/0"))
    s.apply(s.parse_move("board creek@1,-1/3"))
    with pytest.raises(IllegalMove, match="no green"):
        s.apply(s.parse_move("tee off"))
    s.apply(s.parse_move("green 5,-2"))
    assert "tee off" in [str(m) for m in s.legal_moves()]
    s.apply(s.parse_move("tee off"))
    assert s.phase == "deal" and s.course.par == 3 and s.course.designer == "Ben"
    assert s.request().player == 1 and s.request().count == 3  # three cards each on the first hole


def test_a_shared_course_is_loaded_in_one_move():
    s = INFO.new(("Anna", "Ben"), {"golfers": "none"})
    s.apply_roll(Roll.of(p1="1", p2="2"))
    course = loads_course(COURSE)
    move = s.parse_move(f"layout {course.compact()}")
    s.apply(move)
    assert s.course.boards == course.boards and s.phase == "deal"
    t = INFO.new(("Anna", "Ben"), {"golfers": "none"})
    t.apply_roll(Roll.of(p1="1", p2="2"))
    with pytest.raises(IllegalMove, match="overlap"):
        t.apply(t.parse_move("layout tee@0,0/0 lake@0,0/0 creek@1,0/0 green@5,-2"))
    assert t.phase == "design"


def test_the_library_courses_are_valid_and_cells_carry_terrain():
    boards = load_boards()
    for c in load_library().values():
        cells = cells_of(c.boards)
        assert len(cells) == 19 * len(c.boards)
        assert sum(1 for t, _ in cells.values() if t == "tee") == 1
        assert all(c.boards[i].board in boards for _, i in cells.values())
    assert Placement("tee", (0, 0), 0) == loads_course(COURSE).boards[0]


def test_solo_round_needs_par_3_4_and_5():
    s = INFO.new(("Solo",), {"mode": "solo", "golfers": "none"})
    s.apply(s.parse_move("course over-the-lake"))  # par 4
    assert s.pars_left == [3, 4, 5]
    s.pars_left.remove(4)
    s.phase = "design"
    assert "course over-the-lake" not in [str(m) for m in s.legal_moves()]
    with pytest.raises(IllegalMove, match="par 3 or 5"):
        s.apply(s.parse_move("course the-creek"))


@st.composite
def random_courses(draw):
    """A random valid layout: boards added one by one in free slots next to the placed ones."""
    boards = [b for b in load_boards() if b != "tee"]
    n = draw(st.integers(2, 4))
    chosen = draw(st.permutations(boards))[:n]
    placed = [Placement("tee", (0, 0), draw(st.integers(0, 5)))]
    for board in chosen:
        taken = {p.slot for p in placed}
        free = sorted({(a + da, b + db) for a, b in taken for da, db in SLOT_NEIGHBOURS} - taken)
        placed.append(Placement(board, draw(st.sampled_from(free)), draw(st.integers(0, 5))))
    cells = cells_of(placed)
    green = draw(st.sampled_from(sorted(p for p, (t, _) in cells.items() if t != "tee")))
    return Course(tuple(placed), (green,), "random", "hypothesis")


@settings(max_examples=60, deadline=None)
@given(course=random_courses(), data=st.data())
def test_random_courses_are_valid_and_round_trip(course, data):
    from companion.games.roll_in_one.course import course_problem, parse_compact

    assert course_problem(course) is None
    assert loads_course(dumps_course(course)) == course
    again = parse_compact(course.compact())
    assert again is not None and again.boards == course.boards and again.greens == course.greens
    assert len(cells_of(course.boards)) == 19 * len(course.boards)  # boards never overlap
    # moving one board onto another's slot is an overlap; far away it is not joined
    i = data.draw(st.integers(1, len(course.boards) - 1))
    j = data.draw(st.integers(0, len(course.boards) - 1).filter(lambda k: k != i))
    moved = list(course.boards)
    moved[i] = Placement(moved[i].board, course.boards[j].slot, moved[i].turn)
    assert "overlap" in course_problem(Course(tuple(moved), course.greens))
    moved[i] = Placement(moved[i].board, (40, 40), moved[i].turn)
    assert "not joined" in course_problem(Course(tuple(moved), course.greens))
