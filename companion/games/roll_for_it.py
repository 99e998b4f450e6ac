"""Roll For It! for 2-8 players: roll your dice, match them to face-up cards, first to 40 wins.

Decisions on what the rulebook leaves open are in ``docs/rules/roll-for-it.md``. In short: the
table deals the face-up cards, then everyone rolls two dice for first player; a turn starts with a
choice (roll, or Take Back) whenever some of your dice lie on cards; one roll, then one placement
of any of the rolled dice; every card the placement completes with your own dice scores at once,
its dice go home, the table flips replacements, and you may place the rest of this roll again.

>>> from companion import sim
>>> import random
>>> state = INFO.new(["Anna", "Ben"])
>>> sim.playout(state, random.Random(1)) > 0 and max(state.scores()) >= 40
True
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from companion.errors import DataError, IllegalMove, OutOfTurn
from companion.games.roll_for_it_cards import (
    COMPONENTS,
    COMPOSITION,
    DECK_SIZE,
    ImpossibleCard,
    card,
    default_deck,
)
from companion.protocol import (
    ChooseMove,
    DieSpec,
    Draw,
    DrawCards,
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

GAME = "Roll For It!"
PLAY = f"{GAME} §Game Play"
ROLL = f"{GAME} §Roll for it!"
MATCH = f"{GAME} §Match it!"
SCORE = f"{GAME} §Score it!"
TAKE_BACK = f"{GAME} §Special Rule-Take Back"
MOVES = "Moves"

PALETTE = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")
DICE_EACH = 6
WINNING_SCORE = 40
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six")
_ORDINALS = ("", "first", "second", "third", "fourth", "fifth", "sixth")


def _n(count: int, face: int) -> str:
    """``two 4s``, ``one 4``, ``no 4``."""
    word = _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count)
    return f"{word} {face}" + ("s" if count != 1 else "")


def _faces(faces: list[int] | tuple[int, ...]) -> str:
    return ", ".join(map(str, faces)) if faces else "none"


# --- moves ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOn(PhraseMove):
    """Start the turn without Take Back: roll the dice in hand (with none in hand, the turn passes)."""

    phrase, rule = "roll", MOVES


@dataclass(frozen=True, slots=True)
class TakeBack(PhraseMove):
    """Start the turn by taking all your dice back from the cards, then roll all six."""

    phrase, aliases, rule = "take back", ("takeback",), MOVES


_PLACE_TOKEN = re.compile(r"(\d+)=(\d+)")


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Put rolled dice beside face-up cards: ``(card position from 1, faces ascending)`` per card.

    >>> Place.parse("place 3=6 1=44")
    Place(cards=((1, '44'), (3, '6')))
    >>> str(Place(()))
    'place none'
    """

    cards: tuple[tuple[int, str], ...]

    def __str__(self) -> str:
        if not self.cards:
            return "place none"
        return "place " + " ".join(f"{pos}={faces}" for pos, faces in self.cards)

    @property
    def dice(self) -> int:
        return sum(len(f) for _, f in self.cards)

    @classmethod
    def of(cls, mapping: dict[int, list[int] | tuple[int, ...] | str]) -> Place:
        """The canonical move placing ``mapping[position]`` (faces) on each card position."""
        return cls(tuple((pos, "".join(sorted(str(f) for f in faces)))
                         for pos, faces in sorted(mapping.items()) if faces))

    @classmethod
    def parse(cls, text: str) -> Self:
        words = text.strip().lower().split()
        if not words or words[0] != "place":
            raise IllegalMove(MOVES, f"{text!r} is not a placement; write e.g. 'place 1=44 3=6' or "
                              "'place none'")
        if words[1:] == ["none"]:
            return cls(())
        if len(words) < 2:
            raise IllegalMove(MOVES, "say which dice go beside which card, e.g. 'place 1=44 3=6', "
                              "or 'place none'")
        merged: dict[int, str] = {}
        for w in words[1:]:
            m = _PLACE_TOKEN.fullmatch(w)
            if not m:
                raise IllegalMove(MOVES, f"{w!r} is not card=faces (e.g. 2=46: a 4 and a 6 beside card 2)")
            pos, faces = int(m.group(1)), m.group(2)
            if pos < 1:
                raise IllegalMove(MOVES, f"cards are numbered from 1, not {pos}")
            bad = [f for f in faces if not "1" <= f <= "6"]
            if bad:
                raise IllegalMove(MOVES, f"a die shows 1 to 6 pips, not {bad[0]}")
            merged[pos] = merged.get(pos, "") + faces
        return cls(tuple((pos, "".join(sorted(faces))) for pos, faces in sorted(merged.items())))


@dataclass(frozen=True, slots=True)
class Hint:
    """A legal placement with what it brings: points scored now, dice left committed to cards, why."""

    move: Place
    points: int
    committed: int
    reason: str


# --- the state --------------------------------------------------------------------------------------


class RollForIt(GameState):
    """A game of Roll For It!. All fields are plain data (see ``docs/rules/roll-for-it.md``).

    ``cards[i]`` is the card text at face-up position ``i`` (None while empty), ``dice[i][p]`` the
    faces of player ``p``'s dice beside it, ``hand[p]`` the dice player ``p`` holds (including the
    unplaced dice of a roll, listed in ``rolled``), ``piles[p]`` the cards ``p`` has scored.
    """

    info: ClassVar[GameInfo]

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        colours = _colours(players, options)
        self.colours = colours
        self.decks = 1 if len(players) <= 4 else 2
        self.deck: list[str] = list(default_deck()) * self.decks
        slots = 3 if self.decks == 1 else 4
        self.cards: list[str | None] = [None] * slots
        self.dice: list[list[list[int]]] = [[[] for _ in players] for _ in range(slots)]
        self.hand = [DICE_EACH] * len(players)
        self.piles: list[list[str]] = [[] for _ in players]
        self.phase = "deal"  # deal, first, start, roll, match, draw, over
        self.turn = 0
        self.turns = 0
        self.rolled: list[int] = []
        self.contenders = list(range(len(players)))  # of the first-player roll-off
        self.rolloff: list[list[list[int]]] = [[]]  # rounds of [player, total]
        self.first: int | None = None
        self.winner: int | None = None
        self.last = ""

    # --- what the table does next -----------------------------------------------------------------
    def request(self) -> Request:
        p = self.turn
        name = self.players[p] if self.phase not in ("deal", "over") else ""
        match self.phase:
            case "deal":
                n = len(self.cards)
                return DrawCards(None, "deck", n, f"Shuffle the deck and deal {n} cards face up",
                                 tuple(self.deck))
            case "first":
                who = self._next_in_rolloff()
                c = self.colours[who]
                again = " again (tie)" if len(self.rolloff) > 1 else ""
                return RollDice(who, (DieSpec(f"{c}-1", "d6"), DieSpec(f"{c}-2", "d6")),
                                f"First player: {self.players[who]} rolls two {c} dice{again}")
            case "start":
                on = DICE_EACH - self.hand[p]
                roll = f"roll {self.hand[p]} dice" if self.hand[p] else "pass (no dice in hand)"
                return ChooseMove(p, f"{name}: {roll}, or Take Back the {on} on cards and roll all six")
            case "roll":
                c = self.colours[p]
                return RollDice(p, tuple(DieSpec(f"{c}-{i + 1}", "d6") for i in range(self.hand[p])),
                                f"{name}: roll {self.hand[p]} {c} dice")
            case "match":
                return ChooseMove(p, f"{name}: place your {_faces(self.rolled)} beside the cards, or none")
            case "draw":
                n = self._to_flip()
                return DrawCards(p, "deck", n, f"Flip {n} new card{'s' if n > 1 else ''} "
                                 f"for {name}'s scored card{'s' if n > 1 else ''}", tuple(self.deck))
        assert self.winner is not None
        w = self.winner
        return GameOver((w,), f"{self.players[w]} wins with {self.points(w)} points")

    def _next_in_rolloff(self) -> int:
        done = {p for p, _ in self.rolloff[-1]}
        return next(p for p in self.contenders if p not in done)

    def _to_flip(self) -> int:
        return min(self.cards.count(None), len(self.deck))

    # --- chance ---------------------------------------------------------------------------------------
    def _on_roll(self, roll: Roll) -> None:
        faces = sorted(int(f) for f in roll.faces().values())
        if self.phase == "first":
            self._rolloff(sum(faces))
            return
        p = self.turn
        self.rolled = faces
        if self._placeable():
            self.phase = "match"
            self.last = f"{self.players[p]} rolled {_faces(faces)}"
        else:
            self._end_turn(f"{self.players[p]} rolled {_faces(faces)}: nothing matches")

    def _rolloff(self, total: int) -> None:
        who = self._next_in_rolloff()
        self.rolloff[-1].append([who, total])
        if len(self.rolloff[-1]) < len(self.contenders):
            return
        best = max(t for _, t in self.rolloff[-1])
        tied = [p for p, t in self.rolloff[-1] if t == best]
        if len(tied) > 1:
            self.contenders = tied
            self.rolloff.append([])
            self.last = f"{' and '.join(self.players[p] for p in tied)} tie on {best}: they roll again"
            return
        self.first = self.turn = tied[0]
        self.last = f"{self.players[tied[0]]} rolled highest ({best}) and goes first"
        self.phase = "roll"

    def apply_draw(self, draw: Draw) -> None:
        if self.phase not in ("deal", "draw"):
            super().apply_draw(draw)
        wanted = len(self.cards) if self.phase == "deal" else self._to_flip()
        if len(draw.cards) != wanted:
            raise ImpossibleCard(SCORE if self.phase == "draw" else COMPONENTS,
                                 f"{wanted} card{'s are' if wanted != 1 else ' is'} to be flipped, "
                                 f"not {len(draw.cards)}")
        texts = [card(t).text for t in draw.cards]  # ImpossibleCard for a card no deck holds
        deck = list(self.deck)
        for text in texts:
            deck.remove(self._deck_entry(text, deck))
        # valid: now change the state
        self.deck = deck
        slots = [i for i, c in enumerate(self.cards) if c is None]
        for i, text in zip(slots, texts, strict=False):
            self.cards[i] = text
        shown = ", ".join(f"card {i + 1} {t}" for i, t in zip(slots, texts, strict=False))
        if self.phase == "deal":
            self.phase = "first"
            self.last = f"dealt {shown}"
            return
        self.last += f"; flipped {shown}"
        self._after_scoring()

    def _deck_entry(self, text: str, deck: list[str]) -> str:
        """The card of ``deck`` that ``text`` stands for: itself, else one of the same value."""
        if text in deck:
            return text
        points = card(text).points
        same = next((t for t in deck if card(t).points == points), None)
        if same is None:
            total = COMPOSITION[points] * self.decks
            raise ImpossibleCard(COMPONENTS, f"all {total} cards worth {points} points are already out "
                                 f"(face up or scored), so {text} cannot be flipped now")
        return same

    # --- players' choices -----------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.phase == "start":
            return [RollOn(), TakeBack()]
        if self.phase == "match":
            return list(self._placements())
        return []

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise IllegalMove(MOVES, f"{text!r} is not a move")
        word = text.strip().lower()
        if word == "roll":
            return RollOn()
        if word.startswith("take"):
            return TakeBack.parse(text)
        if word.startswith("place"):
            return Place.parse(text)
        raise IllegalMove(MOVES, f"{text!r} is no Roll For It! move; moves are 'roll', 'take back', "
                          "'place 1=44 3=6' and 'place none'")

    def apply(self, move: Move) -> None:
        p = self.turn
        match move:
            case TakeBack():
                self._check_take_back()
                taken = DICE_EACH - self.hand[p]
                for on_card in self.dice:
                    on_card[p] = []
                self.hand[p] = DICE_EACH
                self.phase = "roll"
                self.last = f"{self.players[p]} took back {taken} dice"
            case RollOn():
                if self.phase != "start":
                    raise OutOfTurn(ROLL, f"'roll' answers the start of a turn; now: {self.request().prompt}")
                if self.hand[p]:
                    self.phase = "roll"
                else:
                    self._end_turn(f"{self.players[p]} has no dice in hand and passes")
            case Place():
                move = Place.parse(str(move))  # one entry per card, faces 1-6: as if typed
                self._check_place(move)
                self._place(move)
            case _:
                raise IllegalMove(MOVES, f"{move!r} is no Roll For It! move")

    def _check_take_back(self) -> None:
        p = self.turn
        if self.phase == "start":
            return
        if self.phase == "roll" and self.hand[p] == DICE_EACH:
            raise IllegalMove(TAKE_BACK, f"{self.players[p]} has no dice on the cards: there is nothing "
                              "to take back; roll all six")
        if self.phase in ("roll", "match", "draw"):
            when = "already rolled" if self.phase != "roll" else "chosen to roll"
            raise IllegalMove(TAKE_BACK, f"Take Back is only at the start of a turn, before rolling; "
                              f"{self.players[p]} has {when} this turn")
        raise OutOfTurn(TAKE_BACK, f"no Take Back now: {self.request().prompt}")

    def _check_place(self, move: Place) -> None:
        """Refuse ``move`` (rule and reason) unless it is a legal placement now; changes nothing."""
        if self.phase != "match":
            raise OutOfTurn(MATCH, f"dice are placed after a roll; now: {self.request().prompt}")
        p = self.turn
        have = Counter(self.rolled)
        want = Counter(int(f) for _, faces in move.cards for f in faces)
        for face, n in sorted(want.items()):
            if n > have[face]:
                raise IllegalMove(MATCH, f"{self.players[p]} has {_n(have[face], face)} to place from this "
                                  f"roll, not {n} (unplaced: {_faces(self.rolled)})")
        for pos, faces in move.cards:
            if not 1 <= pos <= len(self.cards):
                raise IllegalMove(MATCH, f"there are {len(self.cards)} face-up card positions; "
                                  f"card {pos} does not exist")
            text = self.cards[pos - 1]
            if text is None:
                raise IllegalMove(MATCH, f"no card lies at position {pos} (the deck is used up)")
            c = card(text)
            mine = Counter(self.dice[pos - 1][p])
            for face, n in sorted(Counter(int(f) for f in faces).items()):
                shown, held = c.count(face), mine[face]
                if shown == 0:
                    raise IllegalMove(MATCH, f"card {pos} ({text}) shows no {face}: a die must match "
                                      "an image")
                if held + n > shown:
                    raise IllegalMove(MATCH, self._full_image(pos, text, face, shown, held, n))

    def _full_image(self, pos: int, text: str, face: int, shown: int, held: int, n: int) -> str:
        """Why ``n`` more dice showing ``face`` of the player's do not fit beside card ``pos``."""
        where, rule = f"card {pos} ({text}) shows {_n(shown, face)}", "an image takes one die of each colour"
        if held == shown:
            covered = {1: "it already holds", 2: "both already hold"}.get(shown, f"all {shown} already hold")
            return f"{where} and {covered} a die of yours; {rule}, so another {face} of yours cannot go there"
        fit = shown - held
        fits = "fits" if fit == 1 else "fit"
        if held == 0:
            return f"{where}: {_n(fit, face)} of yours {fits} there, not {n}; {rule}"
        more = f"{_NUMBER_WORDS[fit]} more {face}" + ("s" if fit > 1 else "")
        return (f"{where} and {_NUMBER_WORDS[held]} already hold{'s' if held == 1 else ''} a die of yours: "
                f"only {more} of yours {fits} there, not {n}; {rule}")

    def _place(self, move: Place) -> None:
        p = self.turn
        for pos, faces in move.cards:
            mine = self.dice[pos - 1][p]
            mine.extend(int(f) for f in faces)
            mine.sort()
            for f in faces:
                self.rolled.remove(int(f))
        self.hand[p] -= move.dice
        name = self.players[p]
        self.last = f"{name} placed " + (", ".join(f"{', '.join(faces)} by card {pos}"
                                                   for pos, faces in move.cards) or "nothing")
        scored = []
        for pos, _ in move.cards:
            text = self.cards[pos - 1]
            assert text is not None
            if Counter(self.dice[pos - 1][p]) == Counter(card(text).images):
                scored.append(pos)
                self.piles[p].append(text)
                for q, faces in enumerate(self.dice[pos - 1]):
                    self.hand[q] += len(faces)
                self.dice[pos - 1] = [[] for _ in self.players]
                self.cards[pos - 1] = None
            elif any(others for _, _, others in self._needs(pos, p)):
                self.last += f"; card {pos} is not scored: {self.why_not_scored(pos, p)}"
        if scored:
            self.last += "; " + "; ".join(f"scored card {pos}" for pos in scored)
            self.last += f" ({self.points(p)} points)"
        if self.points(p) >= WINNING_SCORE:
            self.winner = p
            self.phase = "over"
            return
        if not move.cards:
            self._end_turn(f"{name} placed nothing" + (" more" if self.piles[p] and self.rolled else ""))
        elif not scored:
            self._end_turn(self.last)
        elif self._to_flip():
            self.phase = "draw"
        else:
            self._after_scoring()

    def _after_scoring(self) -> None:
        """After cards scored (and replacements flipped): place the rest of the roll, or end the turn."""
        if self._placeable():
            self.phase = "match"
        else:
            self._end_turn(self.last)

    def _end_turn(self, why: str) -> None:
        self.last = why
        self.rolled = []
        self.turn = (self.turn + 1) % len(self.players)
        self.turns += 1
        self.phase = "start" if self.hand[self.turn] < DICE_EACH else "roll"

    # --- placements -----------------------------------------------------------------------------------
    def _placeable(self) -> bool:
        """Whether any unplaced die of this roll fits beside some card."""
        p = self.turn
        for text, on_card in zip(self.cards, self.dice, strict=True):
            if text is None:
                continue
            c = card(text)
            mine = on_card[p]
            if any(c.count(f) > mine.count(f) for f in set(self.rolled)):
                return True
        return False

    def _placements(self) -> list[Place]:
        """Every distinct placement of the unplaced dice: identical dice and identical cards collapse.

        Card by card (in table order), every share of the dice still unplaced that fits beside it.
        Interchangeable cards (see ``_card_key``) take non-increasing shares, so each placement
        comes up once, with the larger share on the card further left.
        """
        p = self.turn
        have = Counter(self.rolled)
        faces = tuple(sorted(have))
        columns: list[tuple[int, tuple[int, ...], int]] = []  # position, room per face, group
        groups: dict[tuple[Any, ...], int] = {}
        for i, text in enumerate(self.cards):
            if text is None:
                continue
            c, mine = card(text), self.dice[i][p]
            room = tuple(c.count(f) - mine.count(f) for f in faces)
            if any(room):
                columns.append((i + 1, room, groups.setdefault(self._card_key(i), len(groups))))
        if not columns:
            return [Place(())]
        if len(groups) == len(columns):  # no two cards alike: no ordering constraint
            columns = [(pos, room, -1) for pos, room, _ in columns]
        # Dice left are counted per face in 4-bit digits with a guard bit (8): taking a share off is
        # one subtraction, and the share fits if every guard bit survives it.
        guard = sum(8 << 4 * j for j in range(len(faces)))
        counts = tuple(have[f] for f in faces)
        # per card, every share that fits it: (count per face, those counts as digits, (position, faces))
        full = [[(vec, used, (pos, got) if got else None) for vec, used, got in _shares(faces, room, counts)]
                for pos, room, _ in columns]
        memo: dict[tuple[int, int], list[tuple[tuple[int, ...], int, tuple[int, str] | None]]] = {}
        last: dict[int, tuple[int, ...]] = {}
        out: list[Place] = []
        chosen: list[tuple[int, str]] = []
        end = len(columns) - 1

        def shares(k: int, left: int) -> list[tuple[tuple[int, ...], int, tuple[int, str] | None]]:
            got = memo.get((k, left))
            if got is None:
                got = memo[(k, left)] = [s for s in full[k] if (left - s[1]) & guard == guard]
            return got

        def walk(k: int, left: int) -> None:
            group = columns[k][2]
            floor = last.get(group)
            if k == end:  # the leaves: most of the work, so one comprehension
                base = tuple(chosen)
                out.extend([Place((*base, pair) if pair else base) for vec, _, pair in shares(k, left)
                            if floor is None or vec <= floor])
                return
            for vec, used, pair in shares(k, left):
                if floor is not None and vec > floor:
                    continue
                if group >= 0:
                    last[group] = vec
                if pair:
                    chosen.append(pair)
                    walk(k + 1, left - used)
                    chosen.pop()
                else:
                    walk(k + 1, left)
            if group >= 0:
                if floor is None:
                    last.pop(group, None)
                else:
                    last[group] = floor

        walk(0, guard + sum(have[f] << 4 * j for j, f in enumerate(faces)))
        return out

    def _card_key(self, i: int) -> tuple[Any, ...]:
        """Cards with equal keys are interchangeable: same images, same dice of every colour beside."""
        return (self.cards[i], tuple(tuple(f) for f in self.dice[i]))

    # --- the referee ----------------------------------------------------------------------------------
    def _needs(self, pos: int, player: int) -> list[tuple[int, str, list[str]]]:
        """The images of card ``pos`` that ``player`` has not covered: face, name ("the second 4"),
        and the other colours beside the card that cover that image (which never count for ``player``)."""
        text = self.cards[pos - 1]
        if text is None:
            return []
        c = card(text)
        on_card = self.dice[pos - 1]
        needs = []
        for face in sorted(set(c.images)):
            shown, mine = c.count(face), on_card[player].count(face)
            for k in range(mine + 1, shown + 1):
                image = f"the {_ORDINALS[k]} {face}" if shown > 1 else f"the {face}"
                needs.append((face, image, [self._colour_name(q) for q, faces in enumerate(on_card)
                                            if q != player and faces.count(face) >= k]))
        return needs

    def why_not_scored(self, pos: int, player: int) -> str:
        """What ``player`` still lacks to score the card at ``pos`` (1-based), in plain words.

        Other colours beside the card never count for ``player``; the text says whose they are:
        "the second 4 on card 3 needs a die of yours; the one there is Blue's".
        """
        if self.cards[pos - 1] is None:
            return f"no card lies at position {pos}"
        needs = self._needs(pos, player)
        if len(needs) == 1:
            _, image, others = needs[0]
            text = f"{image} on card {pos} needs a die of yours"
            if others:
                one = "the one there is" if len(others) == 1 else "the dice there are"
                text += f"; {one} {' and '.join(others)}'s"
            return text
        wanted = Counter(face for face, _, _ in needs)
        listed = [f"a {face}" if n == 1 else _n(n, face) for face, n in sorted(wanted.items())]
        listing = listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} and {listed[-1]}"
        text = f"card {pos} needs {listing} of yours"
        for face in sorted(wanted):
            taken = [cs for f, _, cs in needs if f == face and cs]
            if taken:
                whose = " and ".join(sorted({c for cs in taken for c in cs}))
                what = f"the {face} there is" if len(taken) == 1 else f"the {face}s there are"
                text += f"; {what} {whose}'s, not yours"
        return text

    def _colour_name(self, q: int) -> str:
        return self.colours[q].capitalize()

    def hints(self) -> list[Hint]:
        """The legal placements ranked: most points scored now, then most dice put toward cards."""
        if self.phase != "match":
            return []
        p = self.turn
        hints = []
        for move in self._placements():
            points, committed, scored, toward = 0, 0, [], []
            for pos, faces in move.cards:
                text = self.cards[pos - 1]
                assert text is not None
                c = card(text)
                after = Counter(self.dice[pos - 1][p]) + Counter(int(f) for f in faces)
                if after == Counter(c.images):
                    points += c.points
                    scored.append(f"scores card {pos} ({c.points} points)")
                else:
                    committed += len(faces)
                    left = len(c.images) - after.total()
                    toward.append(f"{len(faces)} beside card {pos} ({c.points} points, {left} to go)")
            kept = len(self.rolled) - move.dice
            parts = scored + ([f"puts {', '.join(toward)}"] if toward else [])
            parts.append(f"keeps {kept or 'no'} {'die' if kept == 1 else 'dice'} in hand")
            hints.append(Hint(move, points, committed, "; ".join(parts)))
        hints.sort(key=lambda h: (-h.points, -h.committed, str(h.move)))
        return hints

    # --- results and the screen -----------------------------------------------------------------------
    def points(self, player: int) -> int:
        return sum(card(t).points for t in self.piles[player])

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.points(p)) for p in range(len(self.players)))

    def view(self) -> dict[str, Any]:
        out = super().view()
        cards = []
        for i, text in enumerate(self.cards):
            if text is None:
                cards.append(None)
                continue
            c = card(text)
            on_card = self.dice[i]
            images = []
            for k, face in enumerate(c.images):
                nth = k - c.images.index(face) + 1  # 1 for the first image of this face
                images.append({"face": face, "dice": [self.colours[q] for q, faces in enumerate(on_card)
                                                      if faces.count(face) >= nth]})
            cards.append({
                "position": i + 1, "card": text, "points": c.points, "images": images,
                "dice": {self.colours[q]: list(faces) for q, faces in enumerate(on_card) if faces},
                "needs": (self.why_not_scored(i + 1, self.turn)
                          if self.phase in ("start", "roll", "match") else ""),
            })
        out.update({
            "phase": self.phase,
            "colours": list(self.colours),
            "cards": cards,
            "deck": len(self.deck),
            "dice_in_hand": list(self.hand),
            "dice_on_cards": [DICE_EACH - h for h in self.hand],
            "rolled": list(self.rolled) if self.phase in ("match", "draw") else [],
            "score_piles": [{"player": self.players[q], "colour": self.colours[q], "cards": list(pile),
                             "points": self.points(q)} for q, pile in enumerate(self.piles)],
            "first_player": {"rounds": [[[self.players[q], t] for q, t in r] for r in self.rolloff if r],
                             "first": None if self.first is None else self.players[self.first]},
            "winning_score": WINNING_SCORE,
            "last": self.last,
        })
        return out

    # --- checks for tests and the referee -----------------------------------------------------------
    def card_count(self) -> int:
        """Deck + face-up + scored: always 30 per deck in play."""
        return len(self.deck) + sum(t is not None for t in self.cards) + sum(map(len, self.piles))

    def dice_owned(self, player: int) -> int:
        """Dice in hand plus dice beside cards: always six."""
        return self.hand[player] + sum(len(on_card[player]) for on_card in self.dice)


def _shares(faces: tuple[int, ...], room: tuple[int, ...], left: tuple[int, ...]
            ) -> list[tuple[tuple[int, ...], int, str]]:
    """Every share of the ``left`` dice (count per face) that fits ``room`` (free images per face):
    how many of each face, those counts as 4-bit digits, and the faces as move text."""
    out: list[tuple[tuple[int, ...], int, str]] = [((), 0, "")]
    for j, (face, r, n) in enumerate(zip(faces, room, left, strict=True)):
        out = [((*vec, k), used + (k << 4 * j), got + str(face) * k)
               for vec, used, got in out for k in range(min(r, n) + 1)]
    return out


def _colours(players: tuple[str, ...], options: dict[str, Any]) -> tuple[str, ...]:
    """Each player's colour: as chosen, else the seat's palette colour, else the first one free.

    >>> _colours(("A", "B", "C"), {"colour-3": "red"})
    ('green', 'blue', 'red')
    """
    given = [options.get(f"colour-{i + 1}", PALETTE[i]) for i in range(len(players))]
    chosen = {i: c for i, c in enumerate(given) if c != PALETTE[i]}
    for i, c in chosen.items():
        j = next(j for j, d in chosen.items() if d == c)
        if j != i:
            raise DataError(f"{players[j]} and {players[i]} would both play {c} dice; give one of them "
                            f"another colour (options colour-{j + 1} / colour-{i + 1})")
    used = set(chosen.values())
    out: list[str | None] = []
    for i, c in enumerate(given):
        if i in chosen or c not in used:
            out.append(c)
            used.add(c)
        else:
            out.append(None)  # its seat's colour was chosen by another player
    for i, c in enumerate(out):
        if c is None:
            out[i] = next(d for d in PALETTE if d not in used)
            used.add(out[i])
    return tuple(c for c in out if c is not None)


def sensible_move(state: GameState, moves: list[Move], rng: Any) -> Move:
    """A plain strategy for simulated players (``make run``, tests, benchmarks).

    Take Back when at most one die is left in hand, else roll. Place to score; otherwise to bring
    cards nearer completion (worth the card's points times the square of the share covered, so
    dice go together rather than scattered), each die committed costing a little. Ties: the first.
    """
    assert isinstance(state, RollForIt)
    if state.phase == "start":
        return TakeBack() if state.hand[state.turn] <= 1 else RollOn()
    p = state.turn

    def value(move: Move) -> float:
        if not isinstance(move, Place):
            return 0.0
        total = 0.0
        for pos, faces in move.cards:
            text = state.cards[pos - 1]
            assert text is not None
            c = card(text)
            size, before = len(c.images), len(state.dice[pos - 1][p])
            after = before + len(faces)
            total += 2 * c.points if after == size else c.points * (after**2 - before**2) / size**2
            total -= 0.75 * len(faces) if after < size else 0.0
        return total

    return max(moves, key=value)


def _colour_options() -> tuple[Option, ...]:
    return tuple(Option(f"colour-{i + 1}", PALETTE[i], PALETTE,
                        f"dice colour of player {i + 1} (players' colours must differ)") for i in range(8))


INFO = GameInfo(
    id="roll-for-it",
    name=GAME,
    min_players=2,
    max_players=8,
    options=_colour_options(),
    factory=RollForIt,
    rules="roll-for-it.txt",
    strategy=sensible_move,
)
RollForIt.info = INFO

__all__ = ["DECK_SIZE", "INFO", "Hint", "Place", "RollForIt", "RollOn", "TakeBack", "sensible_move"]
