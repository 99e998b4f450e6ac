"""Hex-grid geometry for Roll In One: axial coordinates, six directions, board slots.

Spaces are pointy-top hexes in axial coordinates ``(q, r)``: ``r`` grows downwards on the screen,
``q`` to the right. Directions are numbered clockwise from east, so turning right is ``d + 1``.

>>> step((0, 0), 0), step((0, 0), 1)
((1, 0), (0, 1))
>>> turn_degrees(0, 2), turn_degrees(5, 0), turn_degrees(0, 3)
(120, 60, 180)
>>> distance((0, 0), (2, -3))
3
"""

from __future__ import annotations

Pos = tuple[int, int]

DIRECTIONS: tuple[Pos, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "SE", "SW", "W", "NW", "NE")

#: Course boards are hexagons of radius 2 (19 spaces). They sit in *slots* of a board lattice: the
#: board in slot (a, b) has its centre at a * SLOT_A + b * SLOT_B, and neighbouring slots share a
#: full board edge, so boards in neighbouring slots are joined edge to edge.
BOARD_RADIUS = 2
SLOT_A: Pos = (5, -2)
SLOT_B: Pos = (2, 3)
SLOT_NEIGHBOURS: tuple[Pos, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def step(pos: Pos, direction: int) -> Pos:
    dq, dr = DIRECTIONS[direction % 6]
    return (pos[0] + dq, pos[1] + dr)


def neighbours(pos: Pos) -> list[Pos]:
    return [step(pos, d) for d in range(6)]


def distance(a: Pos, b: Pos) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def turn_degrees(a: int, b: int) -> int:
    """The angle between two directions (0, 60, 120 or 180)."""
    k = (b - a) % 6
    return 60 * min(k, 6 - k)


def rotate(pos: Pos, turns: int) -> Pos:
    """``pos`` rotated clockwise about the origin by ``turns`` x 60 degrees."""
    q, r = pos
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def board_spaces() -> list[Pos]:
    """The local spaces of one board, row by row from the top (r = -2 .. 2), left to right."""
    out = []
    for r in range(-BOARD_RADIUS, BOARD_RADIUS + 1):
        for q in range(max(-BOARD_RADIUS, -BOARD_RADIUS - r), min(BOARD_RADIUS, BOARD_RADIUS - r) + 1):
            out.append((q, r))
    return out


def slot_centre(slot: Pos) -> Pos:
    a, b = slot
    return (a * SLOT_A[0] + b * SLOT_B[0], a * SLOT_A[1] + b * SLOT_B[1])


def direction_of(name: str) -> int | None:
    """The direction index for a name such as ``NE`` (case-insensitive), or None."""
    try:
        return DIRECTION_NAMES.index(name.upper())
    except ValueError:
        return None
