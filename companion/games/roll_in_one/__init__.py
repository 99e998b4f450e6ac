"""Roll In One: build a golf course from hex boards, then play it with club dice.

The engine is :class:`~companion.games.roll_in_one.state.RollInOneState`; the decisions taken where
the rulebook is silent are in docs/rules/roll-in-one.md.
"""

from __future__ import annotations

from typing import Any

from companion.protocol import GameInfo, Option

from .state import RollInOneState
from .strategy import aim_move


def _new(players: tuple[str, ...], options: dict[str, Any]) -> RollInOneState:
    return RollInOneState(players, options)


OPTIONS = (
    Option("mode", "standard", ("standard", "solo", "campaign", "bumper-game"),
           "standard holes; solo three-hole round (one player: par 3, 4, 5); campaign (one big course, "
           "several greens); Bumper Golf the Game (five boards, three greens, ten penalties lose)"),
    Option("golfers", "dealt", ("dealt", "chosen", "shared-1", "shared-2", "shared-3", "none"),
           "golfer cards: dealt at random, chosen by the players, or 1-3 shared golfers for everyone"),
    Option("cards", "secret", ("secret", "open"),
           "caddie cards in hand: the screen shows only how many (secret) or which (open)"),
    Option("mean_cards", "off", ("off", "on"),
           "on: players may play Gust of Wind cards in other players' turns"),
    Option("bumper", "off", ("off", "on"),
           "bumper golf: landing on a ball, move it or yours to any neighbouring space"),
    Option("handicap", "0", ("0", "3", "6", "9"),
           "handicap points each (6 in the rulebook): change rolled numbers, fly over out of bounds"),
    Option("campaign_greens", "3", ("2", "3"), "greens on a campaign course"),
    Option("round_limit", "none", ("none", "10", "20", "30"),
           "a hole (or a campaign or bumper game) also ends after this many rounds"),
)

INFO = GameInfo(
    id="roll-in-one",
    name="Roll In One",
    min_players=1,
    max_players=5,
    options=OPTIONS,
    factory=_new,
    rules="roll-in-one.txt",
    strategy=aim_move,
)

RollInOneState.info = INFO

__all__ = ["INFO", "RollInOneState"]
