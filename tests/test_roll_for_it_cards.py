"""Roll For It! cards: the card notation and the shipped, editable deck file."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from companion.errors import DataError
from companion.games.roll_for_it_cards import (
    COMPOSITION,
    DECK_FILE,
    IMAGES_FOR_POINTS,
    ImpossibleCard,
    card,
    default_deck,
    parse_deck,
)


def shipped() -> dict:
    return tomllib.loads((resources.files("companion") / "data" / DECK_FILE).read_text("utf-8"))


def test_the_default_deck_has_the_public_composition():
    deck = [card(t) for t in default_deck()]
    assert len(deck) == 30 and sum(c.points for c in deck) == 212
    for points, count in COMPOSITION.items():
        assert sum(c.points == points for c in deck) == count
    assert all(len(c.images) == IMAGES_FOR_POINTS[c.points] for c in deck)


@pytest.mark.parametrize(("text", "expected"), [
    ("10:6-3-1-3", "10:1-3-3-6"), (" 5 : 4, 2 4 ", "5:2-4-4"), ("15:654321", "15:1-2-3-4-5-6"),
    ("2:1-1", "2:1-1"),
])
def test_cards_may_be_written_loosely_and_are_kept_in_one_form(text, expected):
    assert card(text).text == expected
    assert card(expected).text == expected


@pytest.mark.parametrize(("text", "why"), [
    ("5:1-7-2", "a die image shows 1 to 6 pips"), ("2:0-1", "shows 0"),
    ("10:1-2-3", "a 10-point card shows 4"), ("5:1-2-3-4", "shows 4"), ("20:1-2-3-4", "not 20"),
    ("x:1-2", "not a number of points"), ("1-2-3", "not a card"),
    ("5:1-a-2", "'a' is not a number of pips"),
])
def test_impossible_cards_say_what_is_wrong(text, why):
    with pytest.raises(ImpossibleCard, match=why) as err:
        card(text)
    assert err.value.rule == "Roll For It! §Game Components"


def test_an_edited_deck_file_is_validated_with_file_key_and_value():
    data = shipped()
    data["cards"][3]["images"] = [4, 7]
    where = r"roll-for-it.cards.toml: cards\[4\] \(points = 2, images = \[4, 7\]\)"
    with pytest.raises(DataError, match=where):
        parse_deck(data, DECK_FILE)
    data = shipped()
    data["cards"][0]["points"] = 5
    with pytest.raises(DataError, match="a 5-point card shows 3 dice"):
        parse_deck(data, DECK_FILE)
    data = shipped()
    data["cards"][0] = {"points": 5, "images": [1, 2, 3]}
    with pytest.raises(DataError, match="a deck holds 6 cards worth 2 points, this one 5"):
        parse_deck(data, DECK_FILE)
    data = shipped()
    data["cards"][0]["colour"] = "red"
    with pytest.raises(DataError, match=r"cards\[1\] has unknown keys \['colour'\]"):
        parse_deck(data, DECK_FILE)
    with pytest.raises(DataError, match="'cards' must be a list"):
        parse_deck({"name": "x"}, DECK_FILE)


def test_a_deck_with_other_images_is_accepted():
    data = shipped()
    data["cards"][0]["images"] = [3, 6]
    assert parse_deck(data, DECK_FILE)[0] == "2:3-6"
