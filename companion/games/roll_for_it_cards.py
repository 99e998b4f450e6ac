"""Roll For It! cards: what a card is, how it is written, and the default deck file.

A card is written ``points:images``, the images being the pips shown on its dice, ascending:

>>> card("10:6-3-1-3").text
'10:1-3-3-6'
>>> card("5:2 4 4").images
(2, 4, 4)
>>> card("5:1-7-2")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.games.roll_for_it_cards.ImpossibleCard: a die image shows 1 to 6 pips; card '5:1-7-2' shows 7 ...
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.datafile import check_keys, read_shipped
from companion.errors import DataError, RuleError

COMPONENTS = "Roll For It! §Game Components"
DECK_FILE = "roll-for-it.cards.toml"

IMAGES_FOR_POINTS = {2: 2, 5: 3, 10: 4, 15: 6}
"""How many dice images a card of each value shows."""
COMPOSITION = {2: 6, 5: 12, 10: 8, 15: 4}
"""How many cards of each value one deck holds (30 cards, 212 points)."""
DECK_SIZE = sum(COMPOSITION.values())


class ImpossibleCard(RuleError):
    """A card entered at the table that no Roll For It! deck holds."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card: its points and the pips on its die images, ascending."""

    points: int
    images: tuple[int, ...]

    @property
    def text(self) -> str:
        return f"{self.points}:{'-'.join(map(str, self.images))}"

    def count(self, face: int) -> int:
        return self.images.count(face)

    def __str__(self) -> str:
        return self.text


def _describe(text: str) -> str:
    return repr(text.strip()) if len(text) < 40 else repr(text[:37] + "...")


@cache
def card(text: str) -> Card:
    """The card written as ``text`` (``"points:images"``); :class:`ImpossibleCard` says what is wrong."""
    if not isinstance(text, str) or ":" not in text:
        raise ImpossibleCard(COMPONENTS, f"{_describe(str(text))} is not a card; write points:images, "
                             "for example 10:1-3-3-6")
    head, _, tail = text.strip().partition(":")
    try:
        points = int(head.strip())
    except ValueError:
        raise ImpossibleCard(COMPONENTS, f"card {_describe(text)}: {head.strip()!r} is not a number of "
                             "points") from None
    if points not in IMAGES_FOR_POINTS:
        raise ImpossibleCard(COMPONENTS, f"card {_describe(text)}: cards are worth 2, 5, 10 or 15 points, "
                             f"not {points}")
    tokens = [t for t in re.split(r"[\s,;/+-]+", tail.strip()) if t]
    if len(tokens) == 1 and len(tokens[0]) > 1 and tokens[0].isdigit():
        tokens = list(tokens[0])  # "1336"
    images = []
    for t in tokens:
        if not t.isdigit():
            raise ImpossibleCard(COMPONENTS, f"card {_describe(text)}: {t!r} is not a number of pips")
        if not 1 <= int(t) <= 6:
            raise ImpossibleCard(COMPONENTS, f"a die image shows 1 to 6 pips; card {_describe(text)} shows "
                                 f"{int(t)}")
        images.append(int(t))
    wanted = IMAGES_FOR_POINTS[points]
    if len(images) != wanted:
        raise ImpossibleCard(COMPONENTS, f"a {points}-point card shows {wanted} dice; card {_describe(text)} "
                             f"shows {len(images)}")
    return Card(points, tuple(sorted(images)))


# --- the deck file ----------------------------------------------------------------------------------


def parse_deck(data: dict[str, Any], origin: str) -> tuple[str, ...]:
    """The cards of a parsed deck file, as card texts; :class:`DataError` names file, key and value."""
    unknown = set(data) - {"name", "cards"}
    if unknown:
        raise DataError(f"{origin}: unknown keys {sorted(unknown)}; allowed: name, cards")
    raw = data.get("cards")
    if not isinstance(raw, list):
        raise DataError(f"{origin}: 'cards' must be a list of {{ points = ..., images = [...] }}")
    cards: list[Card] = []
    for i, entry in enumerate(raw, 1):
        where = f"{origin}: cards[{i}]"
        if not isinstance(entry, dict):
            raise DataError(f"{where} must be a table {{ points = ..., images = [...] }}, not {entry!r}")
        check_keys(entry, ("points", "images"), where)
        points, images = entry.get("points"), entry.get("images")
        if not isinstance(points, int) or isinstance(points, bool):
            raise DataError(f"{where}.points must be 2, 5, 10 or 15, not {points!r}")
        if not isinstance(images, list) or not all(
                isinstance(f, int) and not isinstance(f, bool) for f in images):
            raise DataError(f"{where}.images must be a list of pips (1-6), not {images!r}")
        try:
            cards.append(card(f"{points}:{'-'.join(map(str, images))}"))
        except ImpossibleCard as exc:
            raise DataError(f"{where} (points = {points}, images = {images}): {exc.reason}") from None
    counts = Counter(c.points for c in cards)
    for points, wanted in COMPOSITION.items():
        if counts[points] != wanted:
            raise DataError(f"{origin}: a deck holds {wanted} cards worth {points} points, this one "
                            f"{counts[points]}")
    return tuple(c.text for c in cards)


@cache
def default_deck() -> tuple[str, ...]:
    """The 30 cards of the shipped deck file, in file order."""
    return parse_deck(read_shipped(DECK_FILE), DECK_FILE)
