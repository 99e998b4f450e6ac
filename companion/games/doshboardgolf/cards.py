"""Club cards: a blue Distance table and a red Hook table per d12, green boxes, Card-Up/Down, calls.

>>> card = load_cards()["yellow"][0]
>>> card.name, card.rating
('Driver', 9.0)
>>> up = card.adjusted(+1)
>>> up.distance[0] - card.distance[0], up.green, up.hook[5]
(1, (), -1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.datafile import parse_toml, read_shipped
from companion.errors import DataError

COLOURS = ("yellow", "red", "blue", "green")
CARDS_FILE = "doshboardgolf.cards.toml"
_HOOK = re.compile(r"^(0|[LR][1-9][0-9]?)$")


def hook_text(h: int) -> str:
    return "0" if h == 0 else f"{'L' if h < 0 else 'R'}{abs(h)}"


@dataclass(frozen=True, slots=True)
class Card:
    """One club card. ``hook`` is signed per red die (negative = left); ``green`` the hole-out numbers."""

    colour: str
    number: int
    name: str
    distance: tuple[int, ...]
    hook: tuple[int, ...]
    green: tuple[int, ...]

    @property
    def rating(self) -> float:
        """The overall rating printed on the card: the mean of the twelve Distances."""
        return round(sum(self.distance) / 12, 2)

    def adjusted(self, level: int) -> Card:
        """The card as played after Card-Down (level < 0) or Card-Up (level > 0).

        Card-Down lowers every Distance (not below 0) and leaves the red section alone. Card-Up raises
        every Distance, removes ``level`` green boxes from each end of the green run, and makes every
        Hook outside the remaining run ``level`` longer; a straight (0) Hook that leaves the run bends to
        the side of the card it sits on (red numbers below the middle of the green run: left).
        """
        if level == 0:
            return self
        dist = tuple(max(0, d + level) for d in self.distance)
        if level < 0:
            return Card(self.colour, self.number, self.name, dist, self.hook, self.green)
        lo, hi = (min(self.green), max(self.green)) if self.green else (7, 6)
        middle = (lo + hi) / 2 if self.green else 6.5
        green = tuple(range(lo + level, hi - level + 1))
        hooks = []
        for n, h in enumerate(self.hook, 1):
            if n in green:
                hooks.append(h)
            elif h == 0:
                hooks.append(-level if n < middle else level)
            else:
                hooks.append(h + level if h > 0 else h - level)
        return Card(self.colour, self.number, self.name, dist, tuple(hooks), green)

    def to_view(self) -> dict[str, Any]:
        return {"colour": self.colour, "number": self.number, "name": self.name, "rating": self.rating,
                "distance": list(self.distance), "hook": [hook_text(h) for h in self.hook],
                "green": list(self.green)}


def parse_cards(data: dict[str, Any], origin: str) -> dict[str, tuple[Card, ...]]:
    """Validate a parsed card file: every colour has its cards numbered 1, 2, ... (1-12 cards)."""
    if set(data) != {"cards"} or not isinstance(data["cards"], list):
        raise DataError(f"{origin}: the file holds only a list of [[cards]] tables")
    sets: dict[str, list[Card]] = {c: [] for c in COLOURS}
    for i, raw in enumerate(data["cards"], 1):
        key = f"cards[{i}]"
        if not isinstance(raw, dict):
            raise DataError(f"{origin}: {key}: must be a table")
        want = {"set", "number", "name", "distance", "hook", "green"}
        if set(raw) != want:
            raise DataError(f"{origin}: {key}: keys must be exactly {', '.join(sorted(want))}; "
                            f"got {', '.join(sorted(raw))}")
        colour = raw["set"]
        if colour not in sets:
            raise DataError(f"{origin}: {key}.set: {colour!r} is not one of {', '.join(COLOURS)}")
        number = raw["number"]
        if number != len(sets[colour]) + 1:
            raise DataError(f"{origin}: {key}.number: {number!r}; the {colour} cards are numbered 1, 2, ... "
                            f"in order (expected {len(sets[colour]) + 1})")
        name = raw["name"]
        if not isinstance(name, str) or not name.strip():
            raise DataError(f"{origin}: {key}.name: must be a non-empty string")
        dist = raw["distance"]
        if (not isinstance(dist, list) or len(dist) != 12
                or not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= 30 for d in dist)):
            raise DataError(f"{origin}: {key}.distance: {dist!r} is not twelve whole numbers 0-30")
        hook = raw["hook"]
        if not isinstance(hook, list) or len(hook) != 12 or not all(
                isinstance(h, str) and _HOOK.match(h) for h in hook):
            raise DataError(f"{origin}: {key}.hook: {hook!r} is not twelve hooks like \"L2\", \"0\", \"R1\"")
        hooks = tuple(0 if h == "0" else (-1 if h[0] == "L" else 1) * int(h[1:]) for h in hook)
        green = raw["green"]
        if green == []:
            greens: tuple[int, ...] = ()
        elif (isinstance(green, list) and len(green) == 2 and all(isinstance(g, int) for g in green)
              and 1 <= green[0] <= green[1] <= 12):
            greens = tuple(range(green[0], green[1] + 1))
        else:
            raise DataError(f"{origin}: {key}.green: {green!r} is not [first, last] red numbers (1-12) "
                            f"or []")
        sets[colour].append(Card(colour, number, name.strip(), tuple(dist), hooks, greens))
    for colour, cards in sets.items():
        if not 1 <= len(cards) <= 12:
            raise DataError(f"{origin}: the {colour} set has {len(cards)} cards; it needs 1 to 12")
    return {c: tuple(v) for c, v in sets.items()}


def load_cards_text(text: str, origin: str = CARDS_FILE) -> dict[str, tuple[Card, ...]]:
    return parse_cards(parse_toml(text, origin), origin)


@cache
def load_cards() -> dict[str, tuple[Card, ...]]:
    """The shipped club cards by colour."""
    return parse_cards(read_shipped(CARDS_FILE), CARDS_FILE)
