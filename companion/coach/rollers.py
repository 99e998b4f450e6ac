"""The Rollers coach: what each keep, stop or apply choice is worth over the rolls left.

The yardstick is the turn's gain: chip value collected from the other players plus
:data:`STEP_VALUE` for every section step (a section opened, a section closed), so that a move's
value is in chip value. For each keep choice the coach plans the rolls left as a strong player
would (after each roll it keeps what is worth most, and stops when rolling on is worth less), and
gives the expected gain and the chance of opening, closing and collecting with each section.

The dice are the six printed ones: five purple (1-5 and a STAR) and the black (1-5 and a ZAP).
The purple dice still to roll are enumerated as one multiset, the black die beside them: exact with
one roll left. With two rolls left the second roll is sampled (seeded, ``trials`` times, the same
rolls for every choice) and the third enumerated, so values carry a standard error. A ZAP cancels
the dice thrown with it (they can neither be kept nor applied; saved dice stay); under the table's
default ``stars`` option every STAR rolled without a ZAP is set aside, and the plan keeps it too.
Final dice (any number of STARs) are applied the engine's way: its apply moves are walked in the
engine's order from the engine's own options per section (each STAR taking the value its move
needs), each valued as the chips the engine collects when it plays a move with those collections
on a copy (once per set of collections) plus the steps; only the best is made. Later
rolls are planned as if dice set aside stay aside (the default rule); under the table option "may
be rolled again" that plan is a lower bound.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import accumulate

import numpy as np

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.chance import mean_and_error, roll_outcomes
from companion.games.rollers import (
    DICE,
    SECTIONS,
    STAR,
    ZAP,
    ApplyMove,
    Chosen,
    RollersState,
    SectionOption,
    apply_move,
    chip_value,
    section_options,
)
from companion.protocol import DieSpec, Move

STEP_VALUE = 5  # a section opened or closed counts as much as a purple chip
TRIALS = 150
NAMES = tuple(f"{what} {n}s" for what in ("open", "close", "collect") for n in SECTIONS)

Vec = tuple[float, ...]  # (gain, P(open 1..5), P(close 1..5), P(collect 1..5))
Counts = int  # dice showing 1..5, then STARs, as six 4-bit digits (adding two is adding dice)
Key = tuple[Counts, int, bool]  # counts kept, purple dice and the black die still to roll
Throw = tuple[tuple[str, ...], str | None, float]  # purple faces (sorted), black (None: not thrown), chance

_PURPLES = tuple(d for d in DICE if d.slot.startswith("purple"))
_BLACK = next(d for d in DICE if d.slot == "black")
_TOKENS = {**{str(n): n - 1 for n in SECTIONS}, STAR: 5}
_STAR_UNIT = 1 << 4 * _TOKENS[STAR]  # one STAR more in the counts


def _add(c: Counts, faces: Sequence[str]) -> Counts:
    """``c`` with ``faces`` added (a ZAP adds nothing)."""
    for f in faces:
        t = _TOKENS.get(f)
        if t is not None:
            c += 1 << 4 * t
    return c


def _digits(c: Counts) -> list[int]:
    return [c >> 4 * i & 15 for i in range(6)]


def _dice(purples: int, black: bool) -> tuple[DieSpec, ...]:
    return (*_PURPLES[:purples], *((_BLACK,) if black else ()))


@cache
def _outcomes(purples: int, black: bool) -> tuple[Throw, ...]:
    """Each throw of the dice left: the purple faces, the black face, its chance."""
    out = []
    for roll, p in roll_outcomes(_dice(purples, black)):
        faces = roll.faces()
        out.append((tuple(faces[d.slot] for d in _PURPLES if d.slot in faces), faces.get("black"), p))
    return tuple(out)


@cache
def _deltas(purples: int, black: bool) -> tuple[tuple[Counts | None, float], ...]:
    """The same throws by what they add (None: a ZAP cancels the throw), merged."""
    merged: dict[Counts | None, float] = {}
    for w, bf, p in _outcomes(purples, black):
        key = None if bf == ZAP else _add(0, [*w, *((bf,) if bf else ())])
        merged[key] = merged.get(key, 0.0) + p
    return tuple(merged.items())


@cache
def _base7(c: Counts) -> int:
    """``c`` with its digits in base 7 (no digit passes 6: six dice in all), to index an array."""
    return sum(d * 7**i for i, d in enumerate(_digits(c)))


def _from7(i: int) -> Counts:
    out = 0
    for n in range(6):
        i, d = divmod(i, 7)
        out += d << 4 * n
    return out


@cache
def _deltas7(purples: int, black: bool) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_deltas` as arrays: what each throw adds in base 7 (a ZAP adds nothing), its chance."""
    deltas = _deltas(purples, black)
    return (np.array([0 if d is None else _base7(d) for d, _ in deltas], dtype=np.int64),
            np.array([p for _, p in deltas]))


@cache
def _thrown(w: tuple[str, ...], bf: str | None) -> tuple[Counts, int, Counts]:
    """What purple faces ``w`` add to the counts, how many STARs they show, what the black adds."""
    return _add(0, w), w.count(STAR), _add(0, [bf]) if bf else 0


@cache
def _keeps(w: tuple[str, ...], stars_aside: bool) -> tuple[tuple[Counts, int], ...]:
    """Each way to keep some of the purple faces ``w`` (sorted; STARs left out when they are set
    aside anyway): what it adds to the counts and how many dice it keeps, in the order a walk face
    by face (each kept 0..n times) meets them."""
    choices = sorted(set(w) - ({STAR} if stars_aside else set()))
    out: list[tuple[Counts, int]] = [(0, 0)]
    for f in reversed(choices):  # the first face varies slowest
        unit, most = 1 << 4 * _TOKENS[f], w.count(f)
        out = [(n * unit + add, n + k) for n in range(most + 1) for add, k in out]
    return tuple(out)


@cache
def _cumulative(purples: int, black: bool) -> list[float]:
    """The chances of :func:`_outcomes` added up in order (to sample them)."""
    return list(accumulate(o[2] for o in _outcomes(purples, black)))


def _picks(purples: int, black: bool, seed: int, trials: int) -> tuple[tuple[int, int], ...]:
    """The throws of the dice left drawn by ``trials`` seeded samples (every choice with these dice
    left draws the same; kept per answer): each throw's index in :func:`_outcomes` with how often it
    is drawn, in the order first drawn."""
    rng = random.Random(seed)
    drawn = rng.choices(range(len(_outcomes(purples, black))), cum_weights=_cumulative(purples, black),
                        k=trials)
    return tuple(Counter(drawn).items())


def _mixed(vecs: list[Vec], chances: list[float]) -> Vec:
    """The sum of ``vecs`` weighted by ``chances``."""
    return tuple((np.array(chances) @ np.array(vecs)).tolist())


class _Planner:
    """Values of final dice (through the engine) and of the rolls left, memoised for one position."""

    def __init__(self, state: RollersState) -> None:
        self.probe = state.clone()
        self.me = state.current
        self.before = chip_value(state.chips[self.me])
        self.finals: dict[Counts, tuple[Vec, ApplyMove]] = {}
        self.gains: dict[tuple[tuple[int, int], ...], float] = {}
        self.v3: dict[Key, Vec] = {}
        self.v3_value: dict[Key, float] = {}
        self.thirds: dict[Key, list[tuple[Counts, float]]] = {}
        self.gain7 = np.full(7**6, np.nan)  # the gain of final dice by their counts in base 7
        self.second: dict[tuple[Key, tuple[str, ...], str | None],
                          tuple[float, Counts | None, Key | None]] = {}
        self.stars_aside = state.options["stars"] == "set aside"
        # what the engine reads to list the apply moves (see RollersState._apply_moves)
        self.board = state.boards[self.me]
        self.collecting = state.collecting(self.me)
        self.same_turn = state.options["collect_after_closing"] == "same turn"
        self.options: dict[tuple[int, int], tuple[SectionOption, ...]] = {}
        self.picks: dict[tuple[int, bool, int, int], tuple[tuple[int, int], ...]] = {}

    # -- the engine: the best way to apply final dice ---------------------------------------------
    def _with_dice(self, c: Counts) -> RollersState:
        probe = self.probe
        d = _digits(c)
        faces = [str(n + 1) for n in range(5) for _ in range(d[n])] + [STAR] * d[5]
        probe.phase, probe.rolls, probe.zapped, probe.showing = "apply", 3, False, {}
        probe.saved = {f"d{i}": f for i, f in enumerate(faces)}
        return probe

    def move_value(self, c: Counts, move: ApplyMove) -> float:
        if move.collects not in self.gains:
            trial = self._with_dice(c).clone()
            round_before = trial.round
            trial.apply(move)
            ended = trial.round != round_before or trial.phase == "over"  # chips are reset at a round's end
            after = trial.history[-1]["chips"][self.me] if ended else chip_value(trial.chips[self.me])
            self.gains[move.collects] = after - self.before
        return self.gains[move.collects] + STEP_VALUE * (len(move.opens) + len(move.closes))

    def final(self, c: Counts) -> tuple[Vec, ApplyMove]:
        got = self.finals.get(c)
        if got is None:
            best = self._best_apply(c)
            got = self.finals[c] = (self.vector(c, best), best)
        return got

    def _best_apply(self, c: Counts) -> ApplyMove:
        """The engine's first apply move of most value for final dice ``c``: its choices walked as the
        engine lists them (:func:`~companion.games.rollers.apply_choices`, here with each partial
        choice's steps and chips collected added up as it grows: the hot loop of an answer), valued
        without making each move, and only the best made (and those whose chips collected are not
        valued yet, played by the engine)."""
        d = _digits(c)
        stars = d[5]
        partial: list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], int, Chosen]] = [
            (0, (), (), stars, ())]
        for n in SECTIONS:
            own, grown = d[n - 1], []
            options = self._options(n, own + stars)
            for steps, collects, declared, left, chosen in partial:
                for option in options:
                    deficit = option[3] - own
                    if deficit <= 0:
                        more, rest = declared, left
                    elif deficit <= left:
                        more, rest = declared + (n,) * deficit, left - deficit
                    else:
                        continue
                    grown.append((steps + option[0] + option[1],
                                  (*collects, (n, option[2])) if option[2] else collects, more, rest,
                                  (*chosen, (n, option))))
            partial = grown
        best: tuple[float, int] | None = None
        for i, (steps, collects, declared, _, chosen) in enumerate(partial):
            gain = self.gains.get(collects)
            if gain is None:
                self.move_value(c, apply_move(chosen, declared))
                gain = self.gains[collects]
            v = gain + STEP_VALUE * steps
            if best is None or v > best[0]:  # the first of most value, as max() over the engine's list
                best = (v, i)
        assert best is not None
        _, _, declared, _, chosen = partial[best[1]]
        return apply_move(chosen, declared)

    def _options(self, n: int, have: int) -> tuple[SectionOption, ...]:
        """The engine's options for section ``n`` with ``have`` dice for it (STARs included)."""
        got = self.options.get((n, have))
        if got is None:
            got = section_options(n, self.board[n - 1], have, self.collecting[n - 1], self.same_turn)
            self.options[(n, have)] = got
        return got

    def vector(self, c: Counts, move: ApplyMove) -> Vec:
        flags = [0.0] * 15
        for n in move.opens:
            flags[n - 1] = 1.0
        for n in move.closes:
            flags[5 + n - 1] = 1.0
        for n, _ in move.collects:
            flags[10 + n - 1] = 1.0
        return (self.move_value(c, move), *flags)

    # -- the rolls left ---------------------------------------------------------------------------
    def one_roll_value(self, key: Key) -> float:
        """The expected gain of :meth:`one_roll` alone (fast: the plan compares these, and the final
        dice's values are looked up for every throw at once)."""
        got = self.v3_value.get(key)
        if got is None:
            deltas, chances = _deltas7(*key[1:])
            at = deltas + _base7(key[0])
            values = self.gain7[at]
            if np.isnan(values).any():
                for i in np.unique(at[np.isnan(values)]):
                    self.gain7[i] = self.final(_from7(int(i)))[0][0]
                values = self.gain7[at]
            got = self.v3_value[key] = float(values @ chances)
        return got

    def third(self, key: Key) -> list[tuple[Counts, float]]:
        """The final dice after rolling the dice left once more, with their chances."""
        got = self.thirds.get(key)
        if got is None:
            c = key[0]
            got = [(c if delta is None else c + delta, p) for delta, p in _deltas(*key[1:])]
            self.thirds[key] = got
        return got

    def one_roll(self, key: Key) -> Vec:
        """Roll the dice left once more, then apply the best way."""
        got = self.v3.get(key)
        if got is None:
            third = self.third(key)
            got = self.v3[key] = _mixed([self.final(d)[0] for d, _ in third], [p for _, p in third])
        return got

    def after_second(self, key: Key, w: tuple[str, ...], bf: str | None
                     ) -> tuple[float, Counts | None, Key | None]:
        """The best choice after the second roll showed purple faces ``w`` (sorted) and black ``bf``:
        its expected gain, and either the final dice (stop) or the dice then kept and the dice left
        to roll (keep and roll)."""
        memo = (key, w, bf)
        got = self.second.get(memo)
        if got is None:
            got = self.second[memo] = self._after_second(key, w, bf)
        return got

    def _after_second(self, key: Key, w: tuple[str, ...], bf: str | None
                      ) -> tuple[float, Counts | None, Key | None]:
        c, purples, black = key
        if bf == ZAP:  # nothing thrown can be kept or applied: stop with the saved dice, or throw again
            stop, on = self.final(c)[0][0], self.one_roll_value(key)
            return (stop, c, None) if stop >= on else (on, None, key)
        thrown, stars, black_add = _thrown(w, bf)
        everything = c + thrown + black_add
        best_value = self.final(everything)[0][0]
        best_key: Key | None = None
        if not self.stars_aside:
            stars = 0
        kept0, left0 = c + stars * _STAR_UNIT, purples - stars  # STARs set aside, whatever else is kept
        values, value_of = self.v3_value, self.one_roll_value
        for add, n in _keeps(w, self.stars_aside):
            kept, left = kept0 + add, left0 - n
            if black:  # the black die rolled again, then kept
                k: Key = (kept, left, True)
                v = values.get(k)
                if v is None:
                    v = value_of(k)
                if v > best_value:
                    best_value, best_key = v, k
                if left == 0:
                    continue  # keeping everything is stopping
                k = (kept + black_add, left, False)
            elif left == 0:
                continue
            else:
                k = (kept, left, False)
            v = values.get(k)
            if v is None:
                v = value_of(k)
            if v > best_value:
                best_value, best_key = v, k
        return (best_value, everything, None) if best_key is None else (best_value, None, best_key)

    def two_rolls(self, key: Key, rng_seed: int, trials: int) -> tuple[Vec, float]:
        """Sampled second roll (seeded), best choice after it; the value's standard error. Each
        throw drawn is worked out once, however often it is drawn."""
        outcomes = _outcomes(*key[1:])
        at: dict[Counts, float] = {}  # chance of stopping with these final dice
        going: dict[Key, float] = {}  # chance of rolling a third time with these dice kept
        values = []
        memo, share = self.second, 1 / trials
        drawn = (key[1], key[2], rng_seed, trials)
        picks = self.picks.get(drawn)
        if picks is None:
            picks = self.picks[drawn] = _picks(*drawn)
        for i, times in picks:
            w, bf, _ = outcomes[i]
            got = memo.get((key, w, bf))
            value, stop, then = got if got is not None else self.after_second(key, w, bf)
            values += [value] * times
            if then is None:
                assert stop is not None
                at[stop] = at.get(stop, 0.0) + share * times
            else:
                going[then] = going.get(then, 0.0) + share * times
        for then, q in going.items():
            for d, p in self.third(then):
                at[d] = at.get(d, 0.0) + p * q
        acc = _mixed([self.final(c)[0] for c in at], list(at.values()))
        return acc, mean_and_error(values)[1]


def _decided(state: RollersState) -> RollersState:
    """A copy to play a keep or stop move on: such a move changes only the dice (saved, showing, the
    ZAP) and the phase, so the rest (boards, chips, history) is shared rather than deep-copied."""
    out = copy.copy(state)
    out.saved, out.showing = dict(state.saved), dict(state.showing)
    return out


def _key(state: RollersState) -> Key:
    """The dice set aside and the dice still to roll, as the plan counts them."""
    saved = state.saved
    purples = sum(1 for d in _PURPLES if d.slot not in saved)
    return _add(0, list(saved.values())), purples, _BLACK.slot not in saved


def advise(state: RollersState, *, seed: int = 0, trials: int = TRIALS) -> Advice:
    """The value of each legal move of the player to choose (see the module docstring)."""
    if state.phase not in ("decide", "apply"):
        raise NothingToDecide(state.request().prompt)
    plan = _Planner(state)
    moves: list[MoveAdvice] = []
    exact = True
    if state.phase == "apply":
        c = _add(0, list(state.final_dice().values()))
        for m in state.legal_moves():
            assert isinstance(m, ApplyMove)
            moves.append(_entry(m, plan.vector(c, m), 0.0))
        question = f"{state.players[state.current]}: how to apply the dice"
    else:
        for m in state.legal_moves():
            after = _decided(state)
            after.apply(m)
            if after.phase == "apply":  # stop
                vec, err = plan.final(_add(0, list(after.final_dice().values())))[0], 0.0
            elif after.rolls == 2:
                vec, err = plan.one_roll(_key(after)), 0.0
            else:
                vec, err = plan.two_rolls(_key(after), seed, trials)
                exact = False
            moves.append(_entry(m, vec, err))
        left = 3 - state.rolls
        question = (f"{state.players[state.current]}: keep which dice, or stop "
                    f"({left} roll{'s' if left > 1 else ''} left)")
    return mark_best(Advice("rollers", state.current, question,
                            f"expected gain in chip value (a section opened or closed counts {STEP_VALUE})",
                            exact=exact, trials=0 if exact else trials, moves=tuple(moves)))


def _entry(move: Move, vec: Vec, err: float) -> MoveAdvice:
    return MoveAdvice(str(move), vec[0], err, details=tuple(zip(NAMES, vec[1:], strict=True)))
