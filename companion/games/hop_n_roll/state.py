"""The Hop'n'ROLL game state: rounds of rolling, hopping across the dice board and writing numbers.

A round: the first player in pawn order rolls every die (:class:`RollDice`); the dice are sorted onto
the board; in pawn order each player hops (:class:`Hop`) to a free space beside a die; then, in the
new pawn order, each player writes the number taken (:class:`Write`, or :class:`Pass` when it fits
nowhere). Decisions on the rulebook's open points are in docs/rules/hop-n-roll.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.dice import die_kind
from companion.errors import IllegalMove, OutOfTurn
from companion.games.hop_n_roll.board import COLUMNS, EFFECTS, Board, Effect, shipped_board
from companion.games.hop_n_roll.moves import Hop, Pass, Write, parse_move
from companion.games.hop_n_roll.sheet import (
    Area,
    Sheet,
    area_score,
    fits,
    is_complete,
    legal_entries,
    open_spaces,
    refusal,
    sheet_side,
    star_points,
)
from companion.protocol import ChooseMove, DieSpec, GameOver, GameState, Move, Request, Roll, RollDice

DISCO_KIND = "disco"
DISCO_SLOT = "disco"
ANY = "any"

HOP_RULE = "Hop'n'ROLL §Gameplay 3"
ONE_PAWN_RULE = "Hop'n'ROLL §Gameplay 3 (only one pawn per space)"
EFFECT_RULE = "Hop'n'ROLL B-side §Effects"
DISCO_RULE = "Hop'n'ROLL §Entering dice results (disco die)"
ENTRY_RULE = "Hop'n'ROLL §Gameplay 4"
END_RULE = "Hop'n'ROLL §End of the game"

Pending = tuple[int | None, str | None]  # (value, None) from a standard die; (None, colour) from disco


def die_slots(players: int) -> tuple[str, ...]:
    return tuple(f"die{i}" for i in range(1, players + 1))


class HopNRollState(GameState):
    """State of one game. Everything here is plain data (ints, strings, lists, dicts, tuples)."""

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        n = len(players)
        self.round = 1
        self.phase = "roll"  # roll | hop | write | over
        self.column = 0  # where the pawns stand: 0 left, 1 right (round 1 hops left to right)
        self.pawns: list[int] = list(range(1, n + 1))  # each player's pawn row
        self.on_dj: list[bool] = [False] * n  # landed on a DJ space this round
        self.order: list[int] = list(range(n))  # pawn order: hops, then entries, then next round
        self.turn = 0  # index into order during hop and write phases
        self.dice: dict[int, tuple[str, str]] = {}  # board row -> (slot, face label)
        self.taken: list[dict[str, Any] | None] = [None] * n  # what each player hopped to this round
        self.pending: list[Pending | None] = [None] * n
        self.sheets: list[dict[str, list[int | None]]] = [
            {a.key: [None] * a.size for a in self.sheet.areas} for _ in players]
        self.last_round: int | None = None
        self.written: list[str | None] = [None] * n  # each player's last entry (for the screen)

    # --- definitions ---------------------------------------------------------------------------
    @property
    def sheet(self) -> Sheet:
        return sheet_side(self.options["sheet"])

    @property
    def board(self) -> Board:
        return shipped_board()

    @property
    def side(self) -> str:
        return self.options["board"]

    @property
    def target(self) -> int:
        """The column pawns hop into this round: right in odd rounds, left in even ones."""
        return 1 if self.round % 2 else 0

    def effect_at(self, column: int, row: int) -> Effect | None:
        return self.board.effect(self.side, self.options["effects"] == "on", column, row)

    # --- requests ------------------------------------------------------------------------------
    def request(self) -> Request:
        n = len(self.players)
        if self.phase == "over":
            winners = self.winners()
            return GameOver(winners, self._over_prompt(winners))
        player = self.order[self.turn]
        name = self.players[player]
        last = " (last round)" if self.last_round == self.round else ""
        if self.phase == "roll":
            dice = (*tuple(DieSpec(s, "d6") for s in die_slots(n)), DieSpec(DISCO_SLOT, DISCO_KIND))
            return RollDice(player, dice, f"{name}: roll all {n + 1} dice, round {self.round}{last}")
        if self.phase == "hop":
            way = "left to right" if self.target == 1 else "right to left"
            return ChooseMove(player, f"{name}: choose a die and hop {way}, round {self.round}{last}")
        pend = self.pending[player]
        assert pend is not None
        if not self._can_write(player):
            return ChooseMove(player, f"{name}: {self._pending_words(pend)} fits nowhere on the sheet: pass")
        return ChooseMove(player, f"{name}: write {self._pending_words(pend)}")

    @staticmethod
    def _pending_words(pend: Pending) -> str:
        value, colour = pend
        if value is not None:
            return f"your {value}"
        return "any number in any row" if colour == ANY else f"any number in the {colour} row"

    def _over_prompt(self, winners: tuple[int, ...]) -> str:
        total = self.scores()[winners[0]]
        names = " and ".join(self.players[w] for w in winners)
        if len(winners) > 1:
            return f"{names} share the victory with {total} points"
        return f"{names} won with {total} points"

    # --- chance --------------------------------------------------------------------------------
    def _on_roll(self, roll: Roll) -> None:
        n = len(self.players)
        faces = roll.faces()
        values = sorted((die_kind("d6").face(faces[s]).number or 0, s) for s in die_slots(n))
        rows = self.board.dice_rows(self.side, n)
        self.dice = {row: (slot, str(value)) for row, (value, slot) in zip(rows, values, strict=True)}
        self.dice[self.board.disco_row(self.side, n)] = (DISCO_SLOT, faces[DISCO_SLOT])
        self.phase = "hop"
        self.turn = 0
        self.taken = [None] * n
        self.pending = [None] * n
        self.on_dj = [False] * n

    # --- hopping -------------------------------------------------------------------------------
    def _occupied(self) -> dict[int, int]:
        """Rows of the target column taken by pawns that already hopped this round -> player."""
        return {self.pawns[p]: p for p in self.order[:self.turn]}

    def _die_value(self, row: int) -> int | None:
        slot, face = self.dice[row]
        return None if slot == DISCO_SLOT else int(face)

    def _standard_values(self) -> list[int]:
        return sorted({int(face) for slot, face in self.dice.values() if slot != DISCO_SLOT})

    def _hops_at(self, row: int) -> list[Hop]:
        """Every way to use the (free) space in ``row`` of the target column."""
        eff = self.effect_at(self.target, row)
        kind = eff.kind if eff else None
        if kind == "dj":
            return [Hop(row, dj=v) for v in self._standard_values()]
        if kind == "either":
            assert eff is not None
            return [Hop(row, die=d) for d in sorted({row, eff.other}) if d in self.dice]
        if row not in self.dice:
            return []
        hops = [Hop(row)]
        value = self._die_value(row)
        if value is not None and kind in ("minus", "plus-minus") and value > 1:
            hops.append(Hop(row, change=-1))
        if value is not None and kind == "plus-minus" and value < 6:
            hops.append(Hop(row, change=1))
        return hops

    def _hop_moves(self) -> list[Hop]:
        taken = self._occupied()
        return [h for row in range(1, self.board.rows + 1) if row not in taken for h in self._hops_at(row)]

    def _check_hop(self, hop: Hop) -> tuple[Pending, dict[str, Any]]:
        """What ``hop`` gives the player, or IllegalMove explaining the refusal."""
        rows = self.board.rows
        if not 1 <= hop.row <= rows:
            raise IllegalMove(HOP_RULE, f"the board has rows 1 to {rows}, not {hop.row}")
        col = COLUMNS[self.target]
        taken = self._occupied()
        if hop.row in taken:
            who = self.players[taken[hop.row]]
            raise IllegalMove(ONE_PAWN_RULE, f"{who}'s pawn already stands on row {hop.row} of the {col} "
                                             f"column")
        eff = self.effect_at(self.target, hop.row)
        kind = eff.kind if eff else None
        if kind == "dj":
            if hop.change or hop.die is not None:
                raise IllegalMove(EFFECT_RULE, "on the DJ space choose a standard die's value: 'hop "
                                               f"{hop.row} dj V'")
            if hop.dj not in self._standard_values():
                shown = ", ".join(map(str, self._standard_values()))
                raise IllegalMove(EFFECT_RULE, f"on the DJ space take the rolled value of a standard die "
                                               f"({shown}), not {hop.dj}")
            return (hop.dj, None), {"row": hop.row, "die": None, "effect": "dj", "value": hop.dj}
        if hop.dj is not None:
            raise IllegalMove(EFFECT_RULE, f"row {hop.row} of the {col} column is not the DJ space")
        if kind == "either":
            assert eff is not None
            pair = sorted({hop.row, eff.other})
            if hop.change:
                raise IllegalMove(EFFECT_RULE, "an either-die space does not change the value")
            if hop.die not in pair or hop.die not in self.dice:
                choices = " or ".join(str(d) for d in pair if d in self.dice)
                raise IllegalMove(EFFECT_RULE, f"from row {hop.row} of the {col} column take the die in "
                                               f"row {choices}: 'hop {hop.row} die D'")
            die_row = hop.die
        else:
            if hop.die is not None:
                raise IllegalMove(EFFECT_RULE, f"row {hop.row} of the {col} column is not an either-die "
                                               f"space: the pawn takes the die beside it")
            if hop.row not in self.dice:
                raise IllegalMove(HOP_RULE, f"no die lies beside row {hop.row}: hop to the space next to "
                                            f"the die you choose")
            die_row = hop.row
        value = self._die_value(die_row)
        if hop.change:
            allowed = {"minus": (-1,), "plus-minus": (-1, 1)}.get(kind or "", ())
            if hop.change not in allowed:
                what = EFFECTS[kind] if kind else "a plain space"
                raise IllegalMove(EFFECT_RULE, f"row {hop.row} of the {col} column is {what}; it cannot "
                                               f"change the value by {hop.change:+d}")
            if value is None:
                raise IllegalMove(EFFECT_RULE, "the disco die has no value to change: its number is chosen "
                                               "freely anyway")
            if not 1 <= value + hop.change <= 6:
                raise IllegalMove(EFFECT_RULE, f"a {value} cannot become {value + hop.change}: values stay "
                                               f"within 1-6 and do not wrap around")
        info = {"row": hop.row, "die": die_row, "effect": kind, "value": None}
        if value is None:
            return (None, self.dice[die_row][1]), info
        info["value"] = value + hop.change
        return (value + hop.change, None), info

    def hop_result(self, hop: Hop) -> Pending:
        """What a legal ``hop`` would give the player to write (IllegalMove if it is not legal)."""
        return self._check_hop(hop)[0]

    def _apply_hop(self, player: int, hop: Hop) -> None:
        pend, info = self._check_hop(hop)
        self.pawns[player] = hop.row
        self.pending[player] = pend
        self.taken[player] = info
        self.on_dj[player] = info["effect"] == "dj"
        self.turn += 1
        if self.turn == len(self.players):
            self.column = self.target
            # pawn order from the top; a pawn on a DJ space goes last (B-side §Effects)
            self.order = sorted(range(len(self.players)), key=lambda p: (self.on_dj[p], self.pawns[p]))
            self.turn = 0
            self.phase = "write"

    # --- writing -------------------------------------------------------------------------------
    def _areas_for(self, pend: Pending) -> list[Area]:
        value, colour = pend
        if value is None and colour != ANY:
            return [a for a in self.sheet.areas if a.colour == colour]
        return list(self.sheet.areas)

    def _entries(self, player: int) -> list[Write]:
        pend = self.pending[player]
        return [] if pend is None else self.entries_for(player, pend)

    def entries_for(self, player: int, pend: Pending) -> list[Write]:
        """Every entry the player could make with ``pend`` (a number, or the disco die's colour)."""
        values = list(range(1, 7)) if pend[0] is None else [pend[0]]
        sheet = self.sheets[player]
        return [Write(a.key, a.space_id(i), v) for a in self._areas_for(pend)
                for i, v in legal_entries(a, sheet[a.key], values)]

    def _can_write(self, player: int) -> bool:
        """Whether the player's pending number fits anywhere (stops at the first space that takes it)."""
        pend = self.pending[player]
        if pend is None:
            return False
        sheet = self.sheets[player]
        for a in self._areas_for(pend):
            cells = sheet[a.key]
            for i in open_spaces(a, cells):
                allowed = fits(a, cells, i)
                if allowed if pend[0] is None else pend[0] in allowed:
                    return True
        return False

    def _check_write(self, player: int, move: Write) -> tuple[Area, int]:
        pend = self.pending[player]
        assert pend is not None
        try:
            area = self.sheet.area(move.area)
        except KeyError:
            raise IllegalMove(ENTRY_RULE, f"the {self.sheet.name} has no row {move.area!r}; its rows are "
                                          f"{', '.join(self.sheet.keys())}") from None
        index = area.space_index(move.space)
        if index is None:
            raise IllegalMove(ENTRY_RULE, f"{area.name} has no space {move.space!r}")
        if not 1 <= move.value <= 6:
            raise IllegalMove(ENTRY_RULE, f"only the numbers 1 to 6 can be written, not {move.value}")
        value, colour = pend
        if value is not None and move.value != value:
            raise IllegalMove(ENTRY_RULE, f"you took a {value}: write {value}, not {move.value}")
        if value is None and colour != ANY and area.colour != colour:
            row = self._areas_for(pend)[0]
            raise IllegalMove(DISCO_RULE, f"the disco die shows {colour}: its number goes in the {colour} "
                                          f"row ({row.name}), not in {area.name}")
        why = refusal(area, self.sheets[player][area.key], index, move.value)
        if why is not None:
            raise IllegalMove(*why)
        return area, index

    def _apply_write(self, player: int, move: Write | Pass) -> None:
        if isinstance(move, Pass):
            if self._can_write(player):
                pend = self.pending[player]
                assert pend is not None
                raise IllegalMove(ENTRY_RULE, f"{self._pending_words(pend)} fits on the sheet, so it must "
                                              f"be written; pass only when it fits nowhere")
            self.written[player] = "pass"
        else:
            area, index = self._check_write(player, move)
            self.sheets[player][area.key][index] = move.value
            self.written[player] = str(move)
        self.pending[player] = None
        self.turn += 1
        if self.turn == len(self.players):
            self._end_round()

    def _end_round(self) -> None:
        self.turn = 0
        if self.last_round is None and any(self.completed(p) >= 2 for p in range(len(self.players))):
            self.last_round = self.round + 1  # one more round, then scoring (§End of the game)
        if self.last_round == self.round:
            self.phase = "over"
            return
        self.round += 1
        self.phase = "roll"
        self.dice = {}

    # --- moves ---------------------------------------------------------------------------------
    def legal_moves(self) -> Sequence[Move]:
        if self.phase == "hop":
            return self._hop_moves()
        if self.phase == "write":
            entries = self._entries(self.order[self.turn])
            return entries if entries else [Pass()]
        return []

    def apply(self, move: Move) -> None:
        if self.phase in ("roll", "over"):
            raise OutOfTurn("Play", f"no move now: {self.request().prompt}")
        player = self.order[self.turn]
        if self.phase == "hop":
            if not isinstance(move, Hop):
                raise OutOfTurn(HOP_RULE, f"{self.players[player]} must hop first: every pawn hops before "
                                          f"anyone writes")
            self._apply_hop(player, move)
            return
        if not isinstance(move, Write | Pass):
            raise OutOfTurn(ENTRY_RULE, f"all pawns have hopped: {self.players[player]} writes a number now")
        self._apply_write(player, move)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    # --- scores --------------------------------------------------------------------------------
    def completed(self, player: int) -> int:
        """How many areas of the player's sheet are full."""
        return sum(is_complete(cells) for cells in self.sheets[player].values())

    def sixes(self, player: int) -> int:
        return sum(cells.count(6) for cells in self.sheets[player].values())

    def score_of(self, player: int) -> int:
        sheet = self.sheets[player]
        return sum(area_score(a, sheet[a.key]) for a in self.sheet.areas) + self.sixes(player)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.score_of(p) for p in range(len(self.players)))

    def winners(self) -> tuple[int, ...]:
        """Highest total; a tie goes to more completed rows; still tied, the victory is shared."""
        key = [(self.score_of(p), self.completed(p)) for p in range(len(self.players))]
        best = max(key)
        return tuple(p for p, k in enumerate(key) if k == best)

    # --- the screen ----------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        out = super().view()
        req_player = self.order[self.turn] if self.phase in ("hop", "write") else None
        legal_by_player = {p: self._entries(p) for p in range(len(self.players))} \
            if self.phase == "write" else {}
        out.update({
            "round": self.round,
            "last_round": self.last_round,
            "phase": self.phase,
            "options": dict(self.options),
            "order": list(self.order),
            "board": self._board_view(req_player),
            "sheets": [self._sheet_view(p, legal_by_player.get(p, [])) for p in range(len(self.players))],
        })
        return out

    def _board_view(self, player: int | None) -> dict[str, Any]:
        n = len(self.players)
        hopped = set(self.order[:self.turn]) if self.phase == "hop" else set()
        spaces = []
        for col in (0, 1):
            for row in range(1, self.board.rows + 1):
                eff = self.effect_at(col, row)
                spaces.append({"column": COLUMNS[col], "row": row,
                               "effect": eff.kind if eff else None,
                               "other": eff.other if eff and eff.kind == "either" else None})
        pawns = []
        for p in range(n):
            col = self.target if p in hopped else self.column
            pawns.append({"player": p, "column": COLUMNS[col], "row": self.pawns[p],
                          "on_dj": self.on_dj[p], "took": self.taken[p]})
        hops = []
        for h in self._hop_moves() if self.phase == "hop" else []:
            (value, colour), took = self._check_hop(h)
            hops.append({"move": str(h), "row": h.row, "die": took["die"], "effect": took["effect"],
                         "value": value, "colour": colour})
        return {
            "side": self.side,
            "effects": self.side == "B" and self.options["effects"] == "on",
            "rows": self.board.rows,
            "hop_to": COLUMNS[self.target] if self.phase in ("roll", "hop") else None,
            "dice": [{"row": row, "slot": slot, "kind": DISCO_KIND if slot == DISCO_SLOT else "d6",
                      "face": face} for row, (slot, face) in sorted(self.dice.items())],
            "spaces": spaces,
            "pawns": pawns,
            "legal_hops": hops,
            "player": player,
        }

    def _sheet_view(self, player: int, legal: list[Write]) -> dict[str, Any]:
        sheet = self.sheets[player]
        by_space: dict[tuple[str, str], list[int]] = {}
        for w in legal:
            by_space.setdefault((w.area, w.space), []).append(w.value)
        areas = []
        for a in self.sheet.areas:
            cells = sheet[a.key]
            nexts = set(open_spaces(a, cells))
            spaces = []
            for i, v in enumerate(cells):
                sid = a.space_id(i)
                level, pos = (sid.split(".") if a.pyramid else ("1", sid))
                spaces.append({
                    "id": sid, "level": int(level), "position": int(pos), "value": v,
                    "bonus": i == a.bonus, "stars": None if a.pyramid else a.stars[i],
                    "open": i in nexts, "legal": by_space.get((a.key, sid), []),
                    "group": a.group_start(i) if a.groups else (i // 2 if a.rule == "sum-seven" else None),
                })
            areas.append({
                "key": a.key, "name": a.name, "colour": a.colour, "rule": a.rule,
                "summary": a.info.summary, "shape": "pyramid" if a.pyramid else "row",
                "grows": ("up" if a.rule == "calculation-pyramid" else "down") if a.pyramid else "right",
                "levels": list(a.levels), "level_stars": list(a.stars) if a.pyramid else None,
                "spaces": spaces, "complete": is_complete(cells),
                "stars": star_points(a, cells), "bonus_value": cells[a.bonus] or 0,
                "score": area_score(a, cells),
            })
        pend = self.pending[player]
        return {
            "player": player, "name": self.players[player], "side": self.sheet.side,
            "areas": areas, "sixes": self.sixes(player), "completed": self.completed(player),
            "total": self.score_of(player),
            "pending": None if pend is None else {"value": pend[0], "colour": pend[1],
                                                  "words": self._pending_words(pend)},
            "last_entry": self.written[player],
        }
