"""Hand-worked shots on the default board, one or more per rule (docs/rules/doshboardgolf.md).

The expected cells were worked out on the board map by hand: odd columns sit half a cell lower, so
from an odd column 4 o'clock is one column right and one row down, from an even column it is one column
right in the same row; 3 o'clock is two columns right in the same row; half-way counts round to the
12, 4 or 8 o'clock neighbour (the board's outward arcs).
"""

from __future__ import annotations

import pytest

from companion.games.doshboardgolf.board import axial_of, load_board, name_of
from companion.games.doshboardgolf.cards import Card, load_cards
from companion.games.doshboardgolf.flight import NeedDie, Outcome, Rules, Shot, resolve

BOARD = load_board()
# blue n -> Distance n; red 1-12 -> L3 L2 L1 0 0 R1 R2 R3 L4 R4 0 0, green boxes on red 4-5
CARD = Card("yellow", 1, "Test", tuple(range(1, 13)), (-3, -2, -1, 0, 0, 1, 2, 3, -4, 4, 0, 0), (4, 5))
BEGINNER = Rules()
ADVANCED = Rules(leave_trees=True, hills=True, roll_away=True)
PRO = Rules(leave_trees=True, hills=True, roll_away=True, hit_or_miss=True, lost_cards=True, wind=True)


def shoot(start: str, direction: int, blue: int, red: int, *, rules: Rules = BEGINNER, target: str = "K11",
          elbow: str | None = None, turn_to: int | None = None, card: Card = CARD, white=(), black=(),
          wind=None, hole_out=None, last_card=False) -> Outcome | NeedDie:
    shot = Shot(axial_of(start), axial_of(target), direction, axial_of(elbow) if elbow else None, turn_to,
                card, card.green if hole_out is None else hole_out, last_card)
    return resolve(BOARD, shot, rules, blue, red, list(white), list(black), wind)


def cells(out: Outcome) -> list[str]:
    return [e["cell"] for e in out.path]


# --- beginner ------------------------------------------------------------------------------------

def test_even_direction_counts_one_per_dot():
    out = shoot("B2", 6, 3, 4)
    assert cells(out) == ["B2", "B3", "B4", "B5"]
    assert name_of(out.lie) == "B5" and out.penalty == 0
    assert [e["count"] for e in out.path] == [0, 1, 2, 3]


def test_odd_direction_counts_two_per_dot_and_rounds_half_way_by_the_arcs():
    out = shoot("D5", 3, 4, 4)  # two full dots at 3 o'clock: F5, H5
    assert cells(out)[1:] == ["F5", "H5"] and [e["count"] for e in out.path][1:] == [2, 4]
    out = shoot("D5", 3, 3, 4)  # one dot and a half: the midpoint F5-H5 is covered by G6 (4 o'clock of F5)
    assert cells(out)[1:] == ["F5", "G6"] and "half-way" in out.path[-1]["note"]
    out = shoot("D5", 1, 1, 4)  # half a dot at 1 o'clock rounds to the 12 o'clock neighbour
    assert name_of(out.lie) == "D4"


def test_hook_is_counted_at_ninety_degrees_to_the_direction_of_travel():
    right = shoot("D5", 12, 2, 7)  # D4, D3, then R2 at 3 o'clock: F3
    assert cells(right)[1:] == ["D4", "D3", "F3"] and right.path[-1]["leg"] == "hook"
    left = shoot("D5", 12, 2, 2)  # L2 at 9 o'clock: B3
    assert name_of(left.lie) == "B3"
    zero_distance = shoot("D5", 12, 1, 6, card=Card("yellow", 1, "Zero", (0,) * 12, CARD.hook, (4, 5)))
    assert cells(zero_distance)[1:] == ["E6"]  # no Distance: R1 at 3 o'clock from the lie, half-way to E6


def test_elbow_turns_the_count_and_the_hook_after_it():
    past = shoot("D5", 6, 4, 4, elbow="D7", turn_to=4)
    assert cells(past)[1:] == ["D6", "D7", "E8", "F8"]
    hooked = shoot("D5", 6, 4, 7, elbow="D7", turn_to=4)  # travel 4 o'clock: R2 is at 7 o'clock
    assert name_of(hooked.lie) == "E10"
    at_elbow = shoot("D5", 6, 2, 7, elbow="D7", turn_to=4)  # stops on the elbow: hook from the first leg
    assert cells(at_elbow)[1:] == ["D6", "D7", "B7"]


def test_off_the_board_is_line_of_flight_with_one_penalty():
    out = shoot("B2", 12, 3, 4)
    assert out.landing == "off board" and out.penalty == 1
    assert name_of(out.lie) == "B1" and out.path[-1]["note"] == "off the board"


def test_water_landing_goes_back_to_the_last_dry_cell_crossing_is_free():
    wet = shoot("D5", 6, 4, 4)  # D6, D7, D8, D9 (water)
    assert wet.landing == "water" and wet.penalty == 1 and name_of(wet.lie) == "D8"
    over = shoot("D5", 6, 6, 4)  # D9, D10 water crossed, D11 grass
    assert name_of(over.lie) == "D11" and over.penalty == 0 and over.landing is None


def test_big_and_medium_trees_stop_the_count_small_trees_do_not():
    big = shoot("D5", 6, 5, 7, elbow="D6", turn_to=4)  # D6, E7, F7: big tree, hook never counted
    assert cells(big)[1:] == ["D6", "E7", "F7"] and big.stopped_by == "big tree"
    medium = shoot("G8", 6, 5, 4)  # G9 (target of another hole), G10, G11 medium tree
    assert name_of(medium.lie) == "G11" and medium.stopped_by == "medium tree"
    small = shoot("I8", 6, 3, 4)  # I9, I10 small tree, I11
    assert name_of(small.lie) == "I11" and small.stopped_by is None


def test_odd_flights_pass_cleanly_between_cells():
    out = shoot("E8", 3, 2, 4)  # E8 -> G8 runs along the edge of the big tree F7 and F8: no hit
    assert cells(out)[1:] == ["G8"] and out.stopped_by is None


def test_the_hook_is_stopped_by_trees_and_can_leave_the_board():
    zero = Card("yellow", 1, "Zero", (0,) * 12, CARD.hook, (4, 5))
    tree = shoot("F8", 3, 1, 2, card=zero)  # no Distance; L2 at 12 o'clock: F7 big tree stops it
    assert cells(tree)[1:] == ["F7"] and tree.stopped_by == "big tree" and tree.path[-1]["leg"] == "hook"
    off = shoot("A5", 12, 1, 2)  # A4, then L2 at 9 o'clock leaves the board at once
    assert off.landing == "off board" and name_of(off.lie) == "A4" and off.path[-1]["leg"] == "hook"


def test_card_up_plays_longer_and_bends_straight_hooks():
    up = CARD.adjusted(1)  # Distances +1; the two green boxes (red 4, 5) are gone: red 4 becomes L1
    out = shoot("B2", 6, 3, 4, card=up, hole_out=up.green)
    assert cells(out)[1:5] == ["B3", "B4", "B5", "B6"]  # blue 3 now counts 4
    assert name_of(out.lie) == "C7"  # L1 while flying 6 o'clock is 3 o'clock: half-way to C7
    down = shoot("B2", 6, 3, 4, card=CARD.adjusted(-2))
    assert name_of(down.lie) == "B3" and down.distance == 1


def test_holing_out_needs_the_target_and_a_green_hook():
    holed = shoot("K13", 12, 2, 4)
    assert holed.holed_out and not holed.on_target
    straight_not_green = shoot("K13", 12, 2, 11)  # 0 hook outside the green boxes
    assert not straight_not_green.holed_out and straight_not_green.on_target
    missed = shoot("K13", 12, 2, 6)  # R1: half-way to L11
    assert name_of(missed.lie) == "L11" and not missed.on_target


# --- advanced ------------------------------------------------------------------------------------

def test_leaving_a_tree_reduces_the_distance_not_below_zero():
    big = shoot("F7", 12, 7, 4, rules=ADVANCED)  # 7 - 5 = 2: F6, F5
    assert big.distance == 2 and name_of(big.lie) == "F5"
    medium = shoot("G11", 12, 4, 4, rules=ADVANCED)  # 4 - 3 = 1
    assert medium.distance == 1 and name_of(medium.lie) == "G10"
    small = shoot("I10", 6, 4, 4, rules=ADVANCED)  # 4 - 2 = 2
    assert name_of(small.lie) == "I12"
    stuck = shoot("F7", 12, 3, 6, rules=ADVANCED)  # 3 - 5 -> 0, the hook still moves it: half-way to G8
    assert stuck.distance == 0 and name_of(stuck.lie) == "G8"
    assert shoot("F7", 12, 3, 4, rules=BEGINNER).distance == 3  # beginners ignore the grip


def test_hills_downhill_adds_one_uphill_takes_one_and_may_stop_below():
    flat = shoot("R9", 6, 2, 4, rules=BEGINNER)
    assert name_of(flat.lie) == "R11"
    down = shoot("R9", 6, 2, 4, rules=ADVANCED)  # R9 (level 1) -> R10 (level 0): one further
    assert name_of(down.lie) == "R12" and "downhill" in down.path[1]["note"]
    up = shoot("R12", 12, 4, 4, rules=ADVANCED, black=[12])  # R11, R10, R9 costs two
    assert cells(up)[1:4] == ["R11", "R10", "R9"] and name_of(up.lie) == "R9"
    short = shoot("R12", 12, 3, 4, rules=ADVANCED)  # one left at R10 cannot climb: stops, 1 forfeited
    assert name_of(short.lie) == "R10" and "forfeited" in short.path[-1]["note"]
    # the Hook climbs separately: R5 -> T5, then L2 at 12 o'clock: T4, and T3 is a level up (costs 2)
    hook_short = shoot("R5", 3, 2, 2, rules=ADVANCED)
    assert name_of(hook_short.lie) == "T4" and "forfeited" in hook_short.path[-1]["note"]
    hook_up = shoot("R5", 3, 2, 1, rules=ADVANCED, black=[12])  # L3 pays for the climb
    assert name_of(hook_up.lie) == "T3" and hook_up.path[-1]["leg"] == "hook"
    assert name_of(shoot("R5", 3, 2, 2).lie) == "T3"  # beginners ignore hills


def test_roll_away_with_the_black_die_repeats_and_follows_the_arcs():
    need = shoot("R12", 12, 4, 4, rules=ADVANCED)  # ends on R9 beside the hill line
    assert isinstance(need, NeedDie) and need.die == "black"
    assert "3, 4, 5, 6, 7, 8, 9" in need.reason  # 3 and 9 o'clock round down the slope by the arcs
    stays = shoot("R12", 12, 4, 4, rules=ADVANCED, black=[1])
    assert name_of(stays.lie) == "R9"
    rolls = shoot("R12", 12, 4, 4, rules=ADVANCED, black=[3])
    assert name_of(rolls.lie) == "S10" and rolls.path[-1]["leg"] == "roll-away"
    cascade = shoot("P4", 12, 3, 4, rules=ADVANCED, target="W7", black=[10, 8])  # P3 (up), P2; O2, N2
    assert name_of(cascade.lie) == "N2" and [e["cell"] for e in cascade.path[-2:]] == ["O2", "N2"]


def test_roll_away_exceptions():
    into_water = shoot("U7", 6, 2, 4, rules=ADVANCED, black=[6])  # U8, U9, rolls into U10 water
    assert into_water.landing == "water" and name_of(into_water.lie) == "U9" and into_water.penalty == 1
    # a line-of-flight lie atop the hill never rolls: U8 -> U9 -> U10 (water) comes back to U9
    back = shoot("U7", 6, 3, 4, rules=ADVANCED)
    assert isinstance(back, Outcome) and name_of(back.lie) == "U9" and back.penalty == 1
    holed = shoot("R12", 12, 4, 4, rules=ADVANCED, target="R9")  # a target beside a downhill line
    assert isinstance(holed, Outcome) and holed.holed_out  # holed out: no roll-away
    on_target = shoot("R12", 12, 4, 11, rules=ADVANCED, target="R9")  # not holed out: it may roll away
    assert isinstance(on_target, NeedDie) and on_target.die == "black"
    rolled_off = shoot("R12", 12, 4, 11, rules=ADVANCED, target="R9", black=[6])
    assert name_of(rolled_off.lie) == "R10" and not rolled_off.on_target


# --- professional --------------------------------------------------------------------------------

def test_hit_or_miss_with_the_white_die():
    need = shoot("D5", 6, 5, 4, rules=PRO, elbow="D6", turn_to=4)
    assert isinstance(need, NeedDie) and need.die == "white" and "big tree F7" in need.reason
    assert [e["cell"] for e in need.path][1:] == ["D6", "E7", "F7"]  # the count so far, for the screen
    hit = shoot("D5", 6, 5, 4, rules=PRO, elbow="D6", turn_to=4, white=[2, 1])
    assert name_of(hit.lie) == "F7" and hit.stopped_by == "big tree"
    missed = shoot("D5", 6, 5, 4, rules=PRO, elbow="D6", turn_to=4, white=[1])
    assert name_of(missed.lie) == "H8" and missed.stopped_by is None  # G7, H8 after the miss
    # G9 is hole 9's target: every target can be hit (12 only), then the medium tree G11 (5 or more)
    medium_miss = shoot("G8", 6, 5, 4, rules=PRO, white=[11, 4])
    assert name_of(medium_miss.lie) == "G13"
    medium_hit = shoot("G8", 6, 5, 4, rules=PRO, white=[1, 5, 1])
    assert name_of(medium_hit.lie) == "G11" and not medium_hit.lost_card
    other_target = shoot("G8", 6, 5, 4, rules=PRO, white=[12])
    assert name_of(other_target.lie) == "G9" and not other_target.holed_out and not other_target.on_target


def test_targets_are_hit_only_on_twelve():
    over = shoot("K13", 12, 4, 4, rules=PRO, white=[11])  # flies over K11 to K9
    assert name_of(over.lie) == "K9" and not over.holed_out
    stopped = shoot("K13", 12, 4, 4, rules=PRO, white=[12])
    assert stopped.holed_out and name_of(stopped.lie) == "K11"
    # ending the Hook on the target with a hole-out number holes out: no die, even with wind to come
    windy = shoot("K13", 12, 2, 4, rules=PRO, wind=(3, 12))
    assert isinstance(windy, Outcome) and windy.holed_out
    # without a hole-out number the wind may still blow it off: the target's white die decides
    assert isinstance(shoot("K13", 12, 2, 11, rules=PRO, wind=(3, 12)), NeedDie)
    blown = shoot("K13", 12, 2, 11, rules=PRO, wind=(3, 12), white=[5])  # missed: 1 count half-way to L11
    assert name_of(blown.lie) == "L11" and not blown.on_target


def test_lost_card_thresholds():
    def lost(start, d, blue, white, **kw):
        out = shoot(start, d, blue, 4, rules=PRO, white=white, **kw)
        assert isinstance(out, Outcome), out
        return out.lost_card
    assert lost("B2", 12, 3, [2]) and not lost("B2", 12, 3, [1])  # off the board: 2 or more
    assert lost("D5", 6, 4, [5]) and not lost("D5", 6, 4, [4])  # water: 5 or more
    assert lost("S9", 4, 1, [2]) and not lost("S9", 4, 1, [1])  # waterfall T9: 2 or more
    assert lost("D5", 6, 5, [2, 9], elbow="D6", turn_to=4)  # hit and stopped in the big tree F7: 9+
    assert not lost("D5", 6, 5, [2, 8], elbow="D6", turn_to=4)
    assert lost("I8", 6, 2, [12]) and not lost("I8", 6, 2, [11])  # small tree: only 12
    out = shoot("F7", 12, 3, 4, rules=PRO, card=CARD)  # stays in the big tree (3 - 5 = 0)
    assert isinstance(out, Outcome) and not out.lost_card and "same tree" in out.notes[-1]
    last = shoot("B2", 12, 3, 4, rules=PRO, last_card=True)
    assert isinstance(last, Outcome) and not last.lost_card


def test_wind_is_a_third_leg_per_distance_and_skipped_after_a_hole_out():
    wind = Rules(wind=True)
    # low wind (white 2-4): one count per 6 of Distance; D11 -> D5, then 1 count at 9 o'clock: half-way C6
    low = shoot("D11", 12, 6, 4, rules=wind, wind=(9, 3))
    assert low.wind == 1 and low.path[-1]["leg"] == "wind" and name_of(low.lie) == "C6"
    assert shoot("D11", 12, 5, 4, rules=wind, wind=(9, 3)).wind == 0  # 5 // 6 rounds down
    storm = shoot("D5", 12, 4, 4, rules=wind, wind=(3, 12))  # 4 // 2 = 2 counts at 3 o'clock: one dot
    assert storm.wind == 2 and name_of(storm.lie) == "F1"
    calm = shoot("D5", 12, 4, 4, rules=wind, wind=(3, 1))
    assert calm.wind == 0 and name_of(calm.lie) == "D1"
    holed = shoot("K13", 12, 2, 4, rules=wind, wind=(3, 12))
    assert holed.holed_out and holed.wind == 1 and holed.path[-1]["leg"] == "distance"
    grip = shoot("F7", 12, 7, 4, rules=Rules(leave_trees=True, wind=True), wind=(3, 12))
    assert grip.distance == 2 and grip.wind == 1  # wind counted on the Distance after the tree's grip
    through = shoot("F2", 6, 4, 4, rules=PRO, wind=(6, 12), white=[1])  # wind 2: F7 missed, on to F8
    assert [e["cell"] for e in through.path if e["leg"] == "wind"] == ["F7", "F8"]
    assert "missed (white 1)" in through.path[-2]["note"]
    hit = shoot("F2", 6, 4, 4, rules=PRO, wind=(6, 12), white=[2, 1])
    assert name_of(hit.lie) == "F7" and hit.stopped_by == "big tree"
    blocked = shoot("F4", 6, 2, 4, rules=wind, wind=(6, 12))  # F5, F6, wind 1 count: F7 big tree stops it
    assert name_of(blocked.lie) == "F7" and blocked.stopped_by is None


def test_card_up_and_card_down():
    driver = load_cards()["yellow"][0]
    down = driver.adjusted(-2)
    assert down.distance == tuple(max(0, d - 2) for d in driver.distance) and down.hook == driver.hook
    assert down.green == driver.green
    putter = load_cards()["yellow"][7]  # green boxes on red 3-10
    up = putter.adjusted(1)
    assert up.green == tuple(range(4, 10)) and up.distance == tuple(d + 1 for d in putter.distance)
    assert up.hook[2] == putter.hook[2] - 1 and up.hook[9] == putter.hook[9] + 1  # the two ends grow
    assert up.hook[3] == putter.hook[3] == 0  # still green: unchanged
    assert up.hook[0] == putter.hook[0] - 1 and up.hook[11] == putter.hook[11] + 1
    assert putter.adjusted(2).green == tuple(range(5, 9))
    assert driver.adjusted(1).green == ()  # a two-box run vanishes: no hole-out possible


def test_called_hole_out_replaces_the_green_boxes():
    called = shoot("K13", 12, 2, 4, hole_out=(9,))  # on the target with a 0 hook, but 9 was called
    assert not called.holed_out and called.on_target
    via_hook = shoot("J12", 12, 2, 6, hole_out=(6,))  # J11, J10, then R1 at 3 o'clock: half-way -> K11
    assert via_hook.holed_out and name_of(via_hook.lie) == "K11"


@pytest.mark.parametrize("white,strength,per", [(1, "none", 0), (2, "low", 6), (4, "low", 6),
                                                (5, "medium", 4), (8, "medium", 4), (9, "high", 3),
                                                (11, "high", 3), (12, "storm", 2)])
def test_wind_bands(white, strength, per):
    from companion.games.doshboardgolf.flight import wind_band
    assert wind_band(white) == (strength, per)
