"""The Roll For It! coach: each card's chance of being matched, and what each move is worth.

- Per face-up card (``extra["cards"]``): the images the player still lacks, the chance that the
  dice the player will roll next match every one of them in that roll, and within three rolls
  (chasing that card alone: after each roll every die that fits it goes beside it, the rest are
  rolled again), and the points per roll it is worth: its points over the expected number of rolls
  to match it that way (0 when the player has fewer dice than it lacks).
- Per move (``roll``, ``take back``, each placement): the points it scores now plus the expected
  points of the player's next roll afterwards, scoring the best set of cards that roll can
  complete (the cards as they lie: a place emptied by a scored card counts for nothing, since its
  replacement is not known yet). The engine plays each move on a copy.

Exact: rolls are enumerated as multisets of d6 (at most 462 for six dice).
"""

from __future__ import annotations

import copy
from collections import Counter
from functools import cache
from itertools import combinations

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.chance import multisets
from companion.games.roll_for_it import DICE_EACH, RollForIt
from companion.games.roll_for_it_cards import card

Lacks = tuple[int, ...]  # the faces a card still lacks, ascending


def lacks(state: RollForIt, pos: int, player: int) -> Lacks:
    """The images of the card at index ``pos`` that ``player`` has not covered."""
    text = state.cards[pos]
    if text is None:
        return ()
    missing = Counter(card(text).images) - Counter(state.dice[pos][player])
    return tuple(sorted(missing.elements()))


@cache
def _rolls(n: int) -> tuple[tuple[Counter[int], float], ...]:
    return tuple((Counter(int(f) for f in faces), p) for faces, p in multisets("d6", n))


@cache
def chase(missing: Lacks, dice: int, rolls: int) -> float:
    """The chance of covering ``missing`` within ``rolls`` rolls, starting with ``dice`` in hand."""
    if not missing:
        return 1.0
    if rolls == 0 or dice < len(missing):
        return 0.0
    need = Counter(missing)
    total = 0.0
    for got, p in _rolls(dice):
        placed = need & got
        left = tuple(sorted((need - placed).elements()))
        total += p * chase(left, dice - placed.total(), rolls - 1)
    return total


@cache
def rolls_to_match(missing: Lacks, dice: int) -> float:
    """Expected rolls to cover ``missing`` chasing it alone (infinite with too few dice)."""
    if not missing:
        return 0.0
    if dice < len(missing):
        return float("inf")
    need = Counter(missing)
    stay, rest = 0.0, 1.0
    for got, p in _rolls(dice):
        placed = need & got
        if not placed:
            stay += p
            continue
        rest += p * rolls_to_match(tuple(sorted((need - placed).elements())), dice - placed.total())
    return rest / (1 - stay)


def roll_points(cards: tuple[tuple[int, Lacks], ...], dice: int) -> float:
    """Expected points of one roll of ``dice``: the best set of these (points, lacks) it completes."""
    return _roll_points(tuple(sorted(cards)), dice)


@cache
def _roll_points(cards: tuple[tuple[int, Lacks], ...], dice: int) -> float:
    useful = [(pts, Counter(m)) for pts, m in cards if m and len(m) <= dice]
    if not useful:
        return 0.0
    sets = [(sum(p for p, _ in group), sum((m for _, m in group), Counter()))
            for k in range(1, len(useful) + 1) for group in combinations(useful, k)]
    sets = [s for s in sets if s[1].total() <= dice]
    sets.sort(key=lambda s: -s[0])
    total = 0.0
    for got, p in _rolls(dice):
        total += p * next((pts for pts, need in sets if not need - got), 0)
    return total


def _next_roll(state: RollForIt, player: int) -> float:
    """Expected points of ``player``'s next roll in ``state``: the dice in hand, or six after a Take Back
    that this state is about to make (its dice already home)."""
    cards = tuple((card(t).points, lacks(state, i, player)) for i, t in enumerate(state.cards) if t)
    return roll_points(cards, state.hand[player])


def _fork(state: RollForIt) -> RollForIt:
    """A copy to play one move on: what a move changes is copied, the rest (colours, log) shared."""
    out = copy.copy(state)
    out.deck, out.cards, out.hand, out.rolled = list(state.deck), list(state.cards), list(state.hand), \
        list(state.rolled)
    out.dice = [[list(faces) for faces in on_card] for on_card in state.dice]
    out.piles = [list(pile) for pile in state.piles]
    return out


def advise(state: RollForIt, *, seed: int = 0) -> Advice:
    """Card chances and move values for the player to choose (exact: ``seed`` is not used)."""
    if state.phase not in ("start", "match"):
        raise NothingToDecide(state.request().prompt)
    p = state.turn
    before = state.points(p)
    moves = []
    for move in state.legal_moves():
        after = _fork(state)
        after.apply(move)
        scored = after.points(p) - before
        if after.turn == p and after.phase == "roll":  # roll or take back: this turn's roll is next
            future = _next_roll(after, p)
        elif after.phase == "over":
            future = 0.0
        else:  # the turn ends (or goes on after a draw): the next roll is the dice then in hand
            future = _next_roll(after, p)
        moves.append(MoveAdvice(str(move), scored + future,
                                details=(("points now", float(scored)), ("next roll", future))))
    table = []
    hand = state.hand[p]
    for i, text in enumerate(state.cards):
        if text is None:
            table.append(None)
            continue
        m = lacks(state, i, p)
        expected = rolls_to_match(m, hand)
        points = card(text).points
        table.append({"position": i + 1, "card": text, "points": points, "lacks": list(m),
                      "next_roll": chase(m, hand, 1), "three_rolls": chase(m, hand, 3),
                      "points_per_roll": 0.0 if expected == float("inf") else
                      (points / expected if expected else float(points))})
    name = state.players[p]
    question = (f"{name}: roll the {hand} dice in hand, or take back and roll all {DICE_EACH}"
                if state.phase == "start" else f"{name}: where to place {''.join(map(str, state.rolled))}")
    return mark_best(Advice("roll-for-it", p, question,
                            "expected points: scored now plus the next roll", moves=tuple(moves),
                            extra={"cards": table, "dice_in_hand": hand}))
