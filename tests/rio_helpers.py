"""Helpers for the Roll In One tests: get a game to the first shot, paint terrain, roll faces."""

from __future__ import annotations

from companion.games import get_game
from companion.games.roll_in_one.hexgrid import Pos
from companion.games.roll_in_one.state import RollInOneState
from companion.protocol import Draw, Roll

INFO = get_game("roll-in-one")


def new_game(players: tuple[str, ...] = ("Anna", "Ben"), course: str = "short-links",
             **options: object) -> RollInOneState:
    """A game at its first shot: no golfers, Anna wins the roll-off, ``course`` loaded, no cards."""
    opts = {"golfers": "none", **options}
    s = INFO.new(players, opts)
    assert isinstance(s, RollInOneState)
    if len(players) > 1:
        s.apply_roll(Roll.of(**{f"p{i + 1}": ("1" if i == 0 else "3") for i in range(len(players))}))
    s.apply(s.parse_move(f"course {course}"))
    deal_nothing_useful(s)
    return s


def deal_nothing_useful(s: RollInOneState) -> None:
    """Deal the caddie cards, then put them on the discard pile so that no card window opens."""
    while s.phase == "deal":
        req = s.request()
        s.apply_draw(Draw(tuple(req.candidates[:req.count])))
    for hand in s.hands:
        s.discard.extend(hand)
        hand.clear()


def paint(s: RollInOneState, spaces: dict[Pos, str]) -> None:
    """Set the terrain of course spaces (the rulebook's examples need a particular lie)."""
    for pos, terrain in spaces.items():
        assert pos in s.cells, pos
        s.cells[pos] = (terrain, s.cells[pos][1])


def line(start: Pos, direction: int, n: int) -> list[Pos]:
    from companion.games.roll_in_one.hexgrid import step

    out, pos = [], start
    for _ in range(n):
        pos = step(pos, direction)
        out.append(pos)
    return out


def roll(s: RollInOneState, *faces: str) -> None:
    for f in faces:
        s.apply_roll(Roll.of(club=f))
