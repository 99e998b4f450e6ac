"""The Roll For It! coach: each card's chance of being matched, and what each move is worth.

- Per face-up card (``extra["cards"]``): the images the player still lacks, the chance that the
  dice the player will roll next match every one of them in that roll, and within three rolls
  (chasing that card alone: after each roll every die that fits it goes beside it, the rest are
  rolled again), and the points per roll it is worth: its points over the expected number of rolls
  to match it that way (0 when the player has fewer dice than it lacks).
- Per move (``roll``, ``take back``, each placement): the points it scores now plus the expected
  points of the player's next roll afterwards, scoring the best set of cards that roll can
  complete (the cards as they lie: a place emptied by a scored card counts for nothing, since its
  replacement is not known yet). The engine plays each move on a copy; a placement is the sum of
  its cards (each card placed and scored on its own), so each (card, faces) is played once per
  answer and the placements (thousands after a six-dice roll) are added up from those.

Exact: rolls are enumerated as multisets of d6 (at most 462 for six dice).
"""

from __future__ import annotations

import copy
from collections import Counter
from functools import cache
from itertools import combinations

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.chance import multisets
from companion.games.roll_for_it import DICE_EACH, WINNING_SCORE, Place, RollForIt
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


def _piece(state: RollForIt, p: int, pos: int, faces: str) -> tuple[int, int, tuple[int, Lacks] | None]:
    """Placing ``faces`` beside card ``pos`` alone, played by the engine on a copy: the points it
    scores, the change of the player's dice in hand, and the card's (points, lacks) after (None:
    scored and gone)."""
    after = _fork(state)
    after.apply(Place(((pos, faces),)))
    text = after.cards[pos - 1]
    left = None if text is None else (card(text).points, lacks(after, pos - 1, p))
    return after.points(p) - state.points(p), after.hand[p] - state.hand[p], left


def _placement(state: RollForIt, p: int, move: Place,
               pieces: dict[tuple[int, str], tuple[int, int, tuple[int, Lacks] | None]]) -> tuple[int, float]:
    """Points now and the next roll's expected points of a placement, from its cards one by one.

    The engine places and scores each card of a placement on its own (dice go beside it, it scores
    when complete, a scored card's dice go home), so a placement is the sum of its cards; each
    (card, faces) is played once per answer and shared by every placement that contains it.
    """
    scored, hand = 0, state.hand[p]
    changed: dict[int, tuple[int, Lacks] | None] = {}
    for pos, faces in move.cards:
        got = pieces.get((pos, faces))
        if got is None:
            got = pieces[(pos, faces)] = _piece(state, p, pos, faces)
        scored += got[0]
        hand += got[1]
        changed[pos - 1] = got[2]
    if state.points(p) + scored >= WINNING_SCORE:
        return scored, 0.0  # the game is over
    cards = tuple(changed[i] if i in changed else (card(t).points, lacks(state, i, p))
                  for i, t in enumerate(state.cards) if t)
    return scored, roll_points(tuple(c for c in cards if c is not None), hand)


def advise(state: RollForIt, *, seed: int = 0) -> Advice:
    """Card chances and move values for the player to choose (exact: ``seed`` is not used)."""
    if state.phase not in ("start", "match"):
        raise NothingToDecide(state.request().prompt)
    p = state.turn
    before = state.points(p)
    moves = []
    pieces: dict[tuple[int, str], tuple[int, int, tuple[int, Lacks] | None]] = {}
    for move in state.legal_moves():
        if not isinstance(move, Place):  # roll, take back: the engine plays it on a copy
            after = _fork(state)
            after.apply(move)
            scored = after.points(p) - before
            future = 0.0 if after.phase == "over" else _next_roll(after, p)
        else:
            scored, future = _placement(state, p, move, pieces)
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
