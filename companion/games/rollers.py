"""Rollers (USAopoly, 2016): roll sets, open and close the five sections, collect chips.

Rules are cited by the rulebook's section titles; decisions on its gaps are in
``docs/rules/rollers.md``.

>>> state = INFO.new(["Anna", "Ben"])
>>> state.request().prompt
'Roll-off: Anna and Ben each roll one die; the highest starts'
>>> state.apply_roll(Roll.of(player1="star", player2="5"))
>>> state.request().prompt
'Anna: first roll, all six dice'
>>> str(ApplyMove.parse("open:1,3 close:3 collect:5x2 star:5,3"))
'open:1,3 close:3 collect:5x2 star:3,5'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any, ClassVar, Self

from companion.errors import IllegalMove, ImpossibleRoll, OutOfTurn
from companion.protocol import (
    ChooseMove,
    DieResult,
    DieSpec,
    GameInfo,
    GameOver,
    GameState,
    Move,
    Option,
    PhraseMove,
    Request,
    Roll,
    RollDice,
)

SECTIONS = (1, 2, 3, 4, 5)
EMPTY, OPEN, CLOSED = 0, 1, 2
STATUS_NAMES = ("empty", "open", "closed")
PURPLE_DICE = 5  # §Contents: six custom dice, five purple (STAR for the 6) and one black (ZAP for the 6)
DICE = (
    *(DieSpec(f"purple-{i}", "rollers-purple") for i in range(1, PURPLE_DICE + 1)),
    DieSpec("black", "rollers-black"),
)
SLOTS = tuple(d.slot for d in DICE)
ROLLOFF_KIND = "rollers-purple"  # §How to play: each player rolls one of the game's dice
STAR, ZAP = "star", "zap"
PURPLE_VALUE, WHITE_VALUE = 5, 1
START_CHIPS = (10, 5)  # purple, white per player
CHIPS_IN_BOX = 5  # the box holds chips for five players
POINTS_TO_WIN = 5
ROLL_NAMES = ("first", "second", "third")

R_HOW = "Rollers §How to play"
R_ROLL = "Rollers §1 Roll the dice"
R_FACES = "Rollers §1 Special dice faces"
R_OPEN = "Rollers §2 Apply the roll: Opening"
R_CLOSE = "Rollers §2 Apply the roll: Closing"
R_COLLECT = "Rollers §2 Apply the roll: Collecting"
R_END = "Rollers §Ending a round & scoring"
R_WIN = "Rollers §Winning the game"


# --- Moves -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeepMove(Move):
    """Between rolls: set ``slots`` aside and roll the rest (``roll`` when none)."""

    slots: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "keep " + " ".join(self.slots) if self.slots else "roll"

    @classmethod
    def parse(cls, text: str) -> Self:
        words = text.split()
        if words == ["roll"]:
            return cls(())
        if len(words) >= 2 and words[0] == "keep" and all(w in SLOTS for w in words[1:]):
            if len(set(words[1:])) != len(words) - 1:
                raise IllegalMove("Moves", f"a die is named twice in {text!r}")
            return cls(tuple(sorted(words[1:], key=SLOTS.index)))
        raise IllegalMove("Moves", f"{text!r} is not a keep move (e.g. 'keep purple-1 black' or 'roll')")


@dataclass(frozen=True, slots=True)
class StopMove(PhraseMove):
    """Stop rolling: the dice showing (less any cancelled by a ZAP) are applied."""

    phrase = "stop"


_APPLY_RE = re.compile(r"^(open|close|collect|star):(\S+)$")


@dataclass(frozen=True, slots=True)
class ApplyMove(Move):
    """How the final dice are applied: sections opened and closed, dice collecting per section,
    and the value declared for each STAR used (``pass`` applies nothing).

    Every STAR gets its own value: ``star:3,5`` is one STAR counted as a 3 and another as a 5."""

    opens: tuple[int, ...] = ()
    closes: tuple[int, ...] = ()
    collects: tuple[tuple[int, int], ...] = ()  # (section, number of dice), sorted
    stars: tuple[int, ...] = ()  # the value of each STAR used, sorted

    def __str__(self) -> str:
        parts = []
        if self.opens:
            parts.append("open:" + ",".join(map(str, self.opens)))
        if self.closes:
            parts.append("close:" + ",".join(map(str, self.closes)))
        if self.collects:
            parts.append("collect:" + ",".join(f"{n}x{k}" for n, k in self.collects))
        if self.stars:
            parts.append("star:" + ",".join(map(str, self.stars)))
        return " ".join(parts) or "pass"

    @classmethod
    def parse(cls, text: str) -> Self:
        words = text.split()
        if words == ["pass"]:
            return cls()
        fields: dict[str, str] = {}
        for w in words:
            m = _APPLY_RE.match(w)
            if not m or m.group(1) in fields:
                raise IllegalMove("Moves", f"{text!r} is not an apply move (e.g. 'open:1,3 close:3')")
            fields[m.group(1)] = m.group(2)
        try:
            opens = tuple(sorted(_section(s) for s in fields["open"].split(","))) if "open" in fields else ()
            closes = (tuple(sorted(_section(s) for s in fields["close"].split(",")))
                      if "close" in fields else ())
            collects: list[tuple[int, int]] = []
            for item in fields.get("collect", "").split(",") if "collect" in fields else ():
                n, _, k = item.partition("x")
                collects.append((_section(n), int(k)))
            stars = tuple(sorted(_section(s) for s in fields["star"].split(","))) if "star" in fields else ()
        except ValueError:
            raise IllegalMove("Moves", f"{text!r} names a section that is not 1-5") from None
        if len(set(opens)) != len(opens) or len(set(closes)) != len(closes):
            raise IllegalMove("Moves", f"{text!r} names a section twice")
        if len({n for n, _ in collects}) != len(collects) or any(k < 1 for _, k in collects):
            raise IllegalMove("Moves", f"{text!r}: collect each section once, with at least one die")
        if not (opens or closes or collects):
            raise IllegalMove("Moves", f"{text!r} applies nothing: write 'pass'")
        return cls(opens, closes, tuple(sorted(collects)), stars)


def _section(text: str) -> int:
    n = int(text)
    if n not in SECTIONS:
        raise ValueError(text)
    return n


RollersMove = KeepMove | StopMove | ApplyMove


def parse_move(text: str) -> RollersMove:
    """Any Rollers move from its text form."""
    head = text.split()[0] if text.split() else ""
    if head in ("keep", "roll"):
        return KeepMove.parse(text)
    if head == "stop":
        return StopMove.parse(text)
    return ApplyMove.parse(text)


# --- Chips -----------------------------------------------------------------------------------


def chip_value(chips: tuple[int, int] | list[int]) -> int:
    return chips[0] * PURPLE_VALUE + chips[1] * WHITE_VALUE


def plan_payment(owed: int, payer: list[int], collector: list[int], box: list[int],
                 by_value: bool) -> tuple[int, int, int, bool]:
    """How ``payer`` settles a debt of ``owed`` to ``collector``.

    Returns (purples, whites, change in whites returned by the collector, whether the collector
    first swaps one purple for five whites from the box to make that change). With ``by_value``
    false the debt is a number of chips, whites first.

    >>> plan_payment(3, [10, 5], [10, 5], [0, 0], True)
    (0, 3, 0, False)
    >>> plan_payment(3, [10, 0], [10, 1], [0, 0], True)  # no exact payment can be made: nothing is paid
    (0, 0, 0, False)
    >>> plan_payment(3, [10, 0], [10, 2], [0, 0], True)
    (1, 0, 2, False)
    >>> plan_payment(3, [10, 0], [10, 0], [10, 5], True)  # the collector breaks a purple at the box
    (1, 0, 2, True)
    """
    p_have, w_have = payer
    if not by_value:
        whites = min(owed, w_have)
        return min(owed - whites, p_have), whites, 0, False
    for amount in range(min(owed, chip_value(payer)), 0, -1):
        purples_min = max(0, -(-(amount - w_have) // PURPLE_VALUE))
        for purples in range(purples_min, min(p_have, -(-amount // PURPLE_VALUE)) + 1):
            rest = amount - purples * PURPLE_VALUE
            if 0 <= rest <= w_have:
                return purples, rest, 0, False
            if rest < 0:
                change = -rest
                if change <= collector[1]:
                    return purples, 0, change, False
                if box[1] >= PURPLE_VALUE and change <= collector[1] + PURPLE_VALUE:
                    return purples, 0, change, True
    return 0, 0, 0, False


# --- State -----------------------------------------------------------------------------------


class RollersState(GameState):
    """A game of Rollers. Players sit clockwise in the order given."""

    info: ClassVar[GameInfo]

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        n = len(players)
        self.phase = "rolloff"  # rolloff, roll, decide, apply, over
        self.contenders: tuple[int, ...] = tuple(range(n))
        self.round = 0
        self.starter = 0
        self.current = 0
        self.points = [0] * n
        self.boards = [[EMPTY] * 5 for _ in range(n)]
        self.chips = [list(START_CHIPS) for _ in range(n)]
        self.box = [(CHIPS_IN_BOX - n) * START_CHIPS[0], (CHIPS_IN_BOX - n) * START_CHIPS[1]]
        self.rolls = 0
        self.saved: dict[str, str] = {}
        self.showing: dict[str, str] = {}  # the last roll's dice not set aside
        self.zapped = False
        self.winners: tuple[int, ...] = ()
        self.history: list[dict[str, Any]] = []  # one entry per finished round

    # --- what next ----------------------------------------------------------------------------
    def request(self) -> Request:
        name = self.players[self.current]
        match self.phase:
            case "rolloff":
                who = [self.players[i] for i in self.contenders]
                names = ", ".join(who[:-1]) + " and " + who[-1]
                again = " again (tied)" if len(self.contenders) < len(self.players) else ""
                return RollDice(None, tuple(DieSpec(f"player{i + 1}", ROLLOFF_KIND) for i in self.contenders),
                                f"Roll-off: {names} each roll one die{again}; the highest starts")
            case "roll":
                kept = tuple(DieResult(s, f) for s, f in self.saved.items())
                dice = tuple(d for d in DICE if d.slot not in self.saved)
                dice_word = "die" if len(kept) == 1 else "dice"
                what = f"{len(kept)} {dice_word} kept" if kept else "all six dice"
                return RollDice(self.current, dice, f"{name}: {ROLL_NAMES[self.rolls]} roll, {what}", kept)
            case "decide":
                zap = " (ZAP: this roll's dice cannot be kept)" if self.zapped else ""
                return ChooseMove(self.current, f"{name}: keep dice and roll again, or stop{zap}")
            case "apply":
                return ChooseMove(self.current, f"{name}: apply the dice")
        names = " and ".join(self.players[i] for i in self.winners)
        return GameOver(self.winners, f"{names} won")

    # --- chance -------------------------------------------------------------------------------
    def check_roll(self, roll: Roll) -> None:
        """As every game checks a roll; a face a die does not have (a 6: the STAR or the ZAP stands
        in its place) cites the rule on the special faces."""
        try:
            super().check_roll(roll)
        except ImpossibleRoll as exc:
            if exc.rule != "Dice":
                raise
            raise ImpossibleRoll(R_FACES, exc.reason) from None

    def _on_roll(self, roll: Roll) -> None:
        faces = roll.faces()
        if self.phase == "rolloff":
            values = {i: _rolloff_value(faces[f"player{i + 1}"]) for i in self.contenders}
            best = max(values.values())
            top = tuple(i for i, v in values.items() if v == best)
            if len(top) == 1:
                self.starter = self.current = top[0]
                self._start_turn()
            else:
                self.contenders = top
            return
        self.rolls += 1
        self.zapped = faces.get("black") == ZAP
        self.showing = dict(sorted(faces.items(), key=lambda kv: SLOTS.index(kv[0])))
        if self.rolls == 3:
            self.phase = "apply"
        else:
            self.phase = "decide"

    # --- moves --------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def final_dice(self) -> dict[str, str]:
        """The dice to apply: everything set aside, plus the last roll unless a ZAP cancelled it."""
        dice = dict(self.saved)
        if not self.zapped:
            dice.update(self.showing)
        return dice

    def legal_moves(self) -> list[Move]:
        if self.phase == "decide":
            return [*self._keep_moves(), StopMove()]
        if self.phase == "apply":
            return list(self._apply_moves())
        return []

    def _rerolling_saved(self) -> bool:
        return self.options["saved_dice"] == "may be rolled again"

    def _keepable(self) -> dict[str, str]:
        """Dice a keep move may name: this roll's (unless ZAPped), and saved ones if they may be re-rolled."""
        dice = dict(self.saved) if self._rerolling_saved() else {}
        if not self.zapped:
            dice.update(self.showing)
        return dice

    def _forced_stars(self) -> list[str]:
        """STARs that must be set aside (§Special dice faces), unless the table lets players choose."""
        if self.options["stars"] != "set aside":
            return []
        return [slot for slot, face in self._keepable().items() if face == STAR]

    def _with_stars(self, move: KeepMove) -> KeepMove:
        """``move`` with every STAR showing set aside too (a STAR thrown with a ZAP is not)."""
        slots = set(move.slots) | set(self._forced_stars())
        return KeepMove(tuple(sorted(slots, key=SLOTS.index)))

    def _keep_moves(self) -> Iterator[KeepMove]:
        forced = self._forced_stars()
        keepable = {s: f for s, f in self._keepable().items() if s not in forced}
        stay = (0 if self._rerolling_saved() else len(self.saved)) + len(forced)
        if stay == len(SLOTS):
            return  # STARs fill the last free places: nothing is left to roll, only 'stop'
        yield KeepMove(tuple(forced))  # 'roll' when no STAR must stay aside
        # Purple dice showing the same face are interchangeable: keep the lowest-numbered ones.
        purples: dict[str, list[str]] = {}
        others = []
        for slot, face in sorted(keepable.items(), key=lambda kv: SLOTS.index(kv[0])):
            if slot.startswith("purple"):
                purples.setdefault(face, []).append(slot)
            else:
                others.append(slot)
        groups = list(purples.values())
        for counts in product(*(range(len(g) + 1) for g in groups)):
            for mask in range(1 << len(others)):
                chosen = [s for g, k in zip(groups, counts, strict=True) for s in g[:k]]
                chosen += [s for b, s in enumerate(others) if mask >> b & 1]
                if not chosen or stay + len(chosen) == len(SLOTS):
                    continue  # keeping nothing more is the first move; keeping everything is 'stop'
                yield KeepMove(tuple(sorted([*forced, *chosen], key=SLOTS.index)))

    def _apply_moves(self) -> Iterator[ApplyMove]:
        counts, stars = _dice_counts(self.final_dice())
        board = self.boards[self.current]
        same_turn = self.options["collect_after_closing"] == "same turn"
        collecting = self.collecting(self.current)
        per_section = [section_options(n, board[n - 1], counts[n] + stars, collecting[n - 1], same_turn)
                       for n in SECTIONS]
        for chosen, declared in apply_choices(per_section, [counts[n] for n in SECTIONS], stars):
            yield apply_move(chosen, declared)

    def collecting(self, seat: int) -> list[bool]:
        """For each section, whether ``seat`` could collect chips on it: it has chips itself and
        another player who has chips has not closed that section (see :meth:`_payers`)."""
        payers = [b for p, b in enumerate(self.boards)
                  if p != seat and chip_value(self.chips[p]) > 0] if chip_value(self.chips[seat]) > 0 else []
        return [any(b[n - 1] != CLOSED for b in payers) for n in SECTIONS]

    def _payers(self, section: int) -> list[int]:
        return [p for p in range(len(self.players)) if p != self.current
                and self.boards[p][section - 1] != CLOSED and chip_value(self.chips[p]) > 0]

    def apply(self, move: Move) -> None:
        if self.phase not in ("decide", "apply"):
            raise OutOfTurn(R_HOW, f"no move now: {self.request().prompt}")
        if self.phase == "decide":
            if isinstance(move, StopMove):
                self.saved = self.final_dice()
                self.showing = {}
                self.zapped = False
                self.phase = "apply"
                return
            if not isinstance(move, KeepMove):
                raise IllegalMove(R_ROLL, "first keep dice and roll again, or stop rolling")
            move = self._with_stars(move)
            self._check_keep(move)
            keepable = self._keepable()
            if self._rerolling_saved():
                self.saved = {}
            for slot in move.slots:
                self.saved[slot] = keepable[slot]
            self.saved = dict(sorted(self.saved.items(), key=lambda kv: SLOTS.index(kv[0])))
            self.showing = {}
            self.zapped = False
            self.phase = "roll"
            return
        if not isinstance(move, ApplyMove):
            raise IllegalMove(R_ROLL, "the rolling is over: apply the dice")
        self._check_apply(move)
        self._do_apply(move)

    def _check_keep(self, move: KeepMove) -> None:
        keepable = self._keepable()
        for slot in move.slots:
            if slot in keepable:
                continue
            if self.zapped and slot in self.showing:
                raise IllegalMove(R_FACES, "a ZAP was rolled: none of the dice thrown with it can be kept")
            if slot in self.saved:
                raise IllegalMove(R_ROLL, f"the {slot} die is already set aside")
            raise IllegalMove(R_ROLL, f"the {slot} die was not rolled this time")
        stay = 0 if self._rerolling_saved() else len(self.saved)
        if stay + len(move.slots) == len(SLOTS):
            stars = " (the STARs showing are set aside too)" if self._forced_stars() else ""
            raise IllegalMove(R_ROLL, f"keeping every die leaves nothing to roll: stop instead{stars}")

    def _check_apply(self, move: ApplyMove) -> None:
        counts, stars = _dice_counts(self.final_dice())
        board = self.boards[self.current]
        need = Counter()
        for n in move.opens:
            if board[n - 1] != EMPTY:
                raise IllegalMove(R_OPEN, f"the {n}s are already {STATUS_NAMES[board[n - 1]]}")
            need[n] += n
        for n in move.closes:
            if board[n - 1] == CLOSED:
                raise IllegalMove(R_CLOSE, f"the {n}s are already closed")
            if board[n - 1] == EMPTY and n not in move.opens:
                raise IllegalMove(R_CLOSE, f"the {n}s must be opened before they can be closed")
            need[n] += 1
        for n, k in move.collects:
            closed_before = board[n - 1] == CLOSED
            if not closed_before and n not in move.closes:
                raise IllegalMove(R_COLLECT, f"only a closed section collects: the {n}s are not closed")
            if not closed_before and self.options["collect_after_closing"] != "same turn":
                raise IllegalMove(R_COLLECT, f"the {n}s were closed this turn; with this table's option, "
                                  "they collect from the next turn on")
            if chip_value(self.chips[self.current]) == 0:
                raise IllegalMove(R_COLLECT, "a player with no chips can no longer collect")
            if not self._payers(n):
                raise IllegalMove(R_COLLECT, f"nobody can pay for {n}s: every other player has closed "
                                  "them or has no chips")
            need[n] += k
        deficit = {n: need[n] - counts[n] for n in sorted(need) if need[n] > counts[n]}
        if sum(deficit.values()) > stars:
            n = next(iter(deficit))
            wild = f" and {_stars_word(stars)}" if stars else ""
            raise IllegalMove(R_OPEN if n in move.opens else R_CLOSE if n in move.closes else R_COLLECT,
                              f"this needs {need[n]} dice showing {n}; you have {counts[n]}{wild}")
        wanted = tuple(n for n, k in deficit.items() for _ in range(k))
        if move.stars != wanted:
            if not wanted:
                raise IllegalMove(R_FACES, "no STAR is needed for this; do not declare one")
            said = ",".join(map(str, wanted))
            raise IllegalMove(R_FACES, f"each STAR used gets its own value: this needs the STARs as "
                              f"{said}; declare star:{said}")

    def _do_apply(self, move: ApplyMove) -> None:
        me = self.current
        board = self.boards[me]
        for n in move.opens:
            board[n - 1] = OPEN
        for n in move.closes:
            board[n - 1] = CLOSED
        for n, k in move.collects:
            for _ in range(k):
                for payer in self._payers(n):
                    self._pay(payer, me, n)
        self.saved, self.showing, self.rolls = {}, {}, 0
        if all(s == CLOSED for s in board):
            self._end_round(me)
        else:
            self.current = (self.current + 1) % len(self.players)
            self._start_turn()

    def _pay(self, payer: int, collector: int, owed: int) -> None:
        by_value = self.options["collect"] == "chip value"
        purples, whites, change, swap = plan_payment(owed, self.chips[payer], self.chips[collector],
                                                     self.box, by_value)
        if swap:
            self.chips[collector][0] -= 1
            self.chips[collector][1] += PURPLE_VALUE
            self.box[0] += 1
            self.box[1] -= PURPLE_VALUE
        self.chips[payer][0] -= purples
        self.chips[payer][1] -= whites - change
        self.chips[collector][0] += purples
        self.chips[collector][1] += whites - change

    def _start_turn(self) -> None:
        self.phase = "roll"
        self.rolls = 0
        self.saved, self.showing, self.zapped = {}, {}, False

    def _end_round(self, finisher: int) -> None:
        values = [chip_value(c) for c in self.chips]
        scored = [0] * len(self.players)
        scored[finisher] += 2 if values[finisher] > 0 else 1
        best = max(values)
        richest = [p for p, v in enumerate(values) if v == best]
        if len(richest) == 1 or self.options["most_chips_tie"] == "all tied score":
            for p in richest:
                scored[p] += 1
        for p, s in enumerate(scored):
            self.points[p] += s
        self.history.append({"round": self.round + 1, "finisher": finisher, "chips": values,
                             "scored": scored, "points": list(self.points)})
        reached = [p for p, pts in enumerate(self.points) if pts >= POINTS_TO_WIN]
        if reached:
            top = max(values[p] for p in reached)
            self.winners = tuple(p for p in reached if values[p] == top)
            self.phase = "over"
            return
        n = len(self.players)
        self.round += 1
        self.boards = [[EMPTY] * 5 for _ in range(n)]
        self.chips = [list(START_CHIPS) for _ in range(n)]
        self.box = [(CHIPS_IN_BOX - n) * START_CHIPS[0], (CHIPS_IN_BOX - n) * START_CHIPS[1]]
        self.starter = self.current = (self.starter - 1) % n
        self._start_turn()

    # --- results ------------------------------------------------------------------------------
    def scores(self) -> tuple[float, ...]:
        return tuple(self.points)

    def chip_values(self) -> tuple[int, ...]:
        return tuple(chip_value(c) for c in self.chips)

    def view(self) -> dict[str, Any]:
        out = super().view()
        out.update(
            round=self.round + 1,
            starter=self.starter,
            phase=self.phase,
            rolls=self.rolls,
            boards=[{str(n): STATUS_NAMES[b[n - 1]] for n in SECTIONS} for b in self.boards],
            chips=[{"purple": c[0], "white": c[1], "value": chip_value(c)} for c in self.chips],
            box={"purple": self.box[0], "white": self.box[1]},
            saved=dict(self.saved),
            showing=dict(self.showing),
            zapped=self.zapped,
            history=list(self.history),
        )
        return out


SectionOption = tuple[bool, bool, int, int]  # a section's choice: open, close, chips collected, dice used
Chosen = tuple[tuple[int, SectionOption], ...]  # an option per section, by section number


def apply_choices(per_section: list[tuple[SectionOption, ...]], own: list[int], stars: int
                  ) -> list[tuple[Chosen, tuple[int, ...]]]:
    """Every way to apply final dice, as the engine lists its apply moves: an option of each section
    (``per_section``, from :func:`section_options`), section by section (each option of section 1, then
    of 2, ...: a depth-first walk), with the STARs declared where a section lacks dice of its own
    (``own[n - 1]`` for section ``n``); a partial choice is dropped as soon as it needs more STARs than
    ``stars``."""
    partial: list[tuple[Chosen, tuple[int, ...], int]] = [((), (), stars)]  # chosen, STARs declared, left
    for n, options in zip(SECTIONS, per_section, strict=True):
        grown = []
        for chosen, declared, stars_left in partial:
            for option in options:
                deficit = option[3] - own[n - 1]
                if deficit <= 0:
                    grown.append(((*chosen, (n, option)), declared, stars_left))
                elif deficit <= stars_left:
                    grown.append(((*chosen, (n, option)), declared + (n,) * deficit, stars_left - deficit))
        partial = grown
    return [(chosen, declared) for chosen, declared, _ in partial]


def apply_move(chosen: Chosen, declared: tuple[int, ...]) -> ApplyMove:
    """The apply move of one choice of :func:`apply_choices`."""
    return ApplyMove(tuple(n for n, c in chosen if c[0]), tuple(n for n, c in chosen if c[1]),
                     tuple((n, c[2]) for n, c in chosen if c[2]), declared)


@cache
def section_options(n: int, status: int, have: int, collecting: bool, same_turn: bool
                    ) -> tuple[SectionOption, ...]:
    """What section ``n`` can do with ``have`` dice for it (STARs included): (open, close, chips
    collected, dice used), doing nothing first."""
    steps = {EMPTY: [(True, False, n), (True, True, n + 1)], OPEN: [(False, True, 1)]}.get(status, [])
    options = [(False, False, 0, 0)] + [(op, cl, 0, used) for op, cl, used in steps]
    if collecting:
        if status == CLOSED:
            options += [(False, False, k, k) for k in range(1, have + 1)]
        elif same_turn:
            op, cl, used = steps[-1]
            options += [(op, cl, k, used + k) for k in range(1, have - used + 1)]
    return tuple(o for o in options if o[3] <= have)


def _rolloff_value(face: str) -> int:
    """A roll-off die's value: its number, or 6 for the STAR, which stands where the 6 would be."""
    return 6 if face == STAR else int(face)


def _stars_word(stars: int) -> str:
    return "the STAR" if stars == 1 else f"{stars} STARs"


def _dice_counts(dice: dict[str, str]) -> tuple[Counter[int], int]:
    counts: Counter[int] = Counter()
    stars = 0
    for face in dice.values():
        if face == STAR:
            stars += 1
        elif face != ZAP and face.isdigit() and 1 <= int(face) <= 5:
            counts[int(face)] += 1
    return counts, stars




def sensible_move(state: RollersState, moves: list[Move], rng: Any) -> Move:
    """A plain strategy for simulated players (``make run``, tests, benchmarks).

    Between rolls it keeps the dice showing the number whose section is nearest to being opened or
    closed (and any STAR); when applying it takes a move that uses the most dice.
    """
    if state.phase == "apply":
        def used(m: ApplyMove) -> int:
            return sum(m.opens) + len(m.closes) + sum(k for _, k in m.collects)

        best = max(used(m) for m in moves)  # type: ignore[arg-type]
        return rng.choice([m for m in moves if used(m) == best])  # type: ignore[arg-type]
    board = state.boards[state.current]
    dice = {**state.saved, **({} if state.zapped else state.showing)}
    counts, _ = _dice_counts(dice)

    def need(n: int) -> int:
        return {EMPTY: n + 1, OPEN: 1, CLOSED: 99}[board[n - 1]]

    target = max(SECTIONS, key=lambda n: (min(counts[n], need(n)) / need(n), n))
    keep = tuple(s for s, f in state._keepable().items() if f in (str(target), STAR))
    move = KeepMove(tuple(sorted(keep, key=SLOTS.index)))
    if move in moves:
        return move
    return StopMove() if keep else KeepMove(())


INFO = GameInfo(
    id="rollers",
    name="Rollers",
    min_players=2,
    max_players=5,
    options=(
        Option("saved_dice", "stay aside", ("stay aside", "may be rolled again"),
               "Dice set aside after one roll stay aside for the turn, or may be picked up and rolled "
               "again after a later roll (a keep move then names every die kept)."),
        Option("collect", "chip value", ("chip value", "chip count"),
               "Each collecting die takes its face value in chip value (making change), "
               "or that many chips, white first."),
        Option("collect_after_closing", "same turn", ("same turn", "next turn"),
               "A section closed this turn may collect with further dice this turn, or from the next "
               "turn on."),
        Option("most_chips_tie", "all tied score", ("all tied score", "nobody scores"),
               "When several players share the highest chip value, each scores the point, or nobody does."),
        Option("stars", "set aside", ("set aside", "player's choice"),
               "A STAR rolled is set aside at once (any keep move keeps it; one thrown with a ZAP is "
               "cancelled like the others), or the player chooses whether to keep it."),
    ),
    factory=RollersState,
    rules="rollers.txt",
    strategy=sensible_move,
)
RollersState.info = INFO
