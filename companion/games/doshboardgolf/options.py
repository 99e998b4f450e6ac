"""Doshboardgolf options: the tier, per-player professional rule switches, formats.

A professional rule switch names the seats (1-4, in player order) that play it: ``"tier"`` (everyone
when the tier is professional, nobody otherwise), ``"all"``, ``"none"`` or a list such as ``"1,3"``.

>>> seats("1,3", "advanced", 4), seats("tier", "professional", 2)
((0, 2), (0, 1))
"""

from __future__ import annotations

from itertools import combinations

from companion.games.doshboardgolf.board import board_files
from companion.games.doshboardgolf.cards import COLOURS
from companion.protocol import Option

TIERS = ("beginner", "advanced", "professional")
PRO_RULES = ("hit_or_miss", "lost_cards", "card_updown", "call_holeout", "wind", "time_limit")
_SUBSETS = tuple(",".join(str(s) for s in combo)
                 for k in (1, 2, 3) for combo in combinations((1, 2, 3, 4), k))
SEAT_CHOICES = ("tier", "all", "none", *_SUBSETS)


def seats(value: str, tier: str, players: int) -> tuple[int, ...]:
    """The 0-based seats a switch value covers."""
    if value == "tier":
        return tuple(range(players)) if tier == "professional" else ()
    if value == "all":
        return tuple(range(players))
    if value == "none":
        return ()
    return tuple(int(s) - 1 for s in value.split(",") if int(s) <= players)


_PRO_TEXT = {
    "hit_or_miss": "Hit-or-Miss: the white die decides whether big trees, medium trees and targets "
                   "crossed in flight stop the ball",
    "lost_cards": "Lost-Card: landing off the board, in water or in trees may lose the card (white die)",
    "card_updown": "Card-Up and Card-Down: play a card's Distances -2..+2",
    "call_holeout": "Call a Hole-Out: replace the green boxes by one called red number",
    "wind": "Wind: rolled with the white and black dice, a third leg after Distance and Hook",
    "time_limit": "Time limit: one minute per turn, one penalty stroke when it runs out",
}

OPTIONS: tuple[Option, ...] = (
    Option("tier", "beginner", TIERS, "Rules tier: beginner, advanced (own card sets, trees, hills, "
                                      "roll-away) or professional (advanced plus the professional rules)"),
    *(Option(rule, "none" if rule == "time_limit" else "tier", SEAT_CHOICES,
             _PRO_TEXT[rule] + "; seats that play it: tier, all, none or e.g. '1,3'") for rule in PRO_RULES),
    Option("format", "nine", ("nine", "tournament"), "Nine holes, or a 36-hole tournament of four rounds "
                                                     "with the card colours rotating each round"),
    Option("scoring", "stroke", ("stroke", "match", "skins"),
           "Stroke play (fewest strokes), match play (holes won) or skins (holes won outright, ties carry)"),
    Option("teams", "none", ("none", "doubles"),
           "Doubles: four players in two teams (seats 1 and 2, seats 3 and 4); each hole a team scores "
           "the better ball of its two players"),
    Option("hole_cells", "as printed", ("as printed", "chosen"),
           "Tee and target of each hole as the board pairs them, or chosen by the table before each hole "
           "among the board's tee and target cells"),
    Option("doglegs", "none", ("none", "chosen"),
           "Mandatory dog-legs: before each hole the table may place a marker between tee and target; "
           "a ball must pass by it before the target counts"),
    Option("starting_cards", 8, (8, 3), "Cards each player may use: all eight, or three chosen per round"),
    Option("wind_change", "game", ("game", "round", "hole"), "How often the wind is rolled"),
    Option("shared_set", "yellow", COLOURS, "The card set everyone shares under beginner rules"),
    Option("board", "default", tuple(board_files()), "The board file"),
    Option("pickup", 0, (0, 6, 8, 10, 12, 15),
           "House rule: pick up after this many strokes on a hole, scoring that many (0: never)"),
)
