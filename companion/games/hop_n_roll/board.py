"""Hop'n'ROLL dice board: the board file (rows, B-side dice placement and effect spaces).

Rows are numbered from 1 at the top. Columns: 0 is the left pawn column, 1 the right one; the dice
lie in the middle column.

>>> board = shipped_board()
>>> board.dice_rows("A", 3), board.disco_row("A", 3)
((1, 2, 3), 4)
>>> board.dice_rows("B", 3), board.disco_row("B", 3)
((3, 4, 5), 6)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.datafile import check_keys, check_table, parse_toml, read_shipped
from companion.errors import DataError

BOARD_FILE = "hop-n-roll.board.toml"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
COLUMNS = ("left", "right")
EFFECTS = {
    "minus": "-1: the value may be lowered by 1",
    "plus-minus": "-1/+1: the value may be lowered or raised by 1",
    "either": "either die: take the die beside or the one next to it",
    "dj": "DJ: take the rolled value of any standard die; go last next round",
}


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str  # a key of EFFECTS
    other: int = 0  # "either": the second die row


@dataclass(frozen=True, slots=True)
class Board:
    rows: int
    start: dict[int, int]  # B side: first standard-die row per number of players
    effects: dict[tuple[int, int], Effect]  # B side: (column, row) -> effect

    def dice_rows(self, side: str, players: int) -> tuple[int, ...]:
        first = 1 if side == "A" else self.start[players]
        return tuple(range(first, first + players))

    def disco_row(self, side: str, players: int) -> int:
        return players + 1 if side == "A" else self.rows

    def effect(self, side: str, use_effects: bool, column: int, row: int) -> Effect | None:
        if side != "B" or not use_effects:
            return None
        return self.effects.get((column, row))


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_board(data: Mapping[str, Any], origin: str = BOARD_FILE) -> Board:
    """Validate a parsed board file; :class:`DataError` names the file, key and value."""
    extra = set(data) - {"rows", "B"}
    if extra:
        raise DataError(f"{origin}: unknown keys {sorted(extra)}; allowed: rows, B")
    rows = data.get("rows")
    if not _int(rows) or rows < MAX_PLAYERS + 1:
        raise DataError(f"{origin}: key 'rows' = {rows!r}: needs a whole number of at least "
                        f"{MAX_PLAYERS + 1} ({MAX_PLAYERS} standard dice and the disco die)")
    b = data.get("B")
    if not isinstance(b, Mapping):
        raise DataError(f"{origin}: [B] is missing or not a table")
    check_keys(b, ("start", "spaces"), f"{origin}: [B]")
    raw_start = b.get("start")
    if not isinstance(raw_start, Mapping):
        raise DataError(f"{origin}: [B] key 'start' must be a table of players = first row")
    start: dict[int, int] = {}
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        first = raw_start.get(str(n))
        if not _int(first) or first < 1 or first + n - 1 >= rows:
            raise DataError(f"{origin}: [B] key 'start.{n}' = {first!r}: {n} standard dice from this row "
                            f"must fit above the disco die in row {rows}")
        start[n] = first
    extra = set(raw_start) - {str(n) for n in start}
    if extra:
        raise DataError(f"{origin}: [B] key 'start' has entries for unknown player counts {sorted(extra)}")
    effects: dict[tuple[int, int], Effect] = {}
    spaces = b.get("spaces", [])
    if not isinstance(spaces, list):
        raise DataError(f"{origin}: [B] key 'spaces' must be a list of [[B.spaces]] tables")
    for i, sp in enumerate(spaces, 1):
        where = f"{origin}: [[B.spaces]] #{i}"
        sp = check_table(sp, ("column", "row", "effect", "other"), where)
        column, row, kind = sp.get("column"), sp.get("row"), sp.get("effect")
        if column not in COLUMNS:
            raise DataError(f"{where} key 'column' = {column!r}: must be left or right")
        if not _int(row) or not 1 <= row <= rows:
            raise DataError(f"{where} key 'row' = {row!r}: must be a row from 1 to {rows}")
        if kind not in EFFECTS:
            raise DataError(f"{where} key 'effect' = {kind!r}: must be one of {', '.join(EFFECTS)}")
        other = sp.get("other", 0)
        if kind == "either":
            if not _int(other) or abs(other - row) != 1 or not 1 <= other <= rows:
                raise DataError(f"{where} key 'other' = {other!r}: an either-die space needs the row "
                                f"just above or below it (row {row} ± 1)")
        elif "other" in sp:
            raise DataError(f"{where} key 'other' = {other!r}: only an either-die space has one")
        pos = (COLUMNS.index(column), row)
        if pos in effects:
            raise DataError(f"{where}: the {column} column row {row} has two effects")
        effects[pos] = Effect(kind, other if kind == "either" else 0)
    return Board(rows, start, effects)


def load_board(text: str, origin: str = BOARD_FILE) -> Board:
    return parse_board(parse_toml(text, origin), origin)


@cache
def shipped_board() -> Board:
    """The board file shipped in ``companion/data``."""
    return parse_board(read_shipped(BOARD_FILE), BOARD_FILE)
