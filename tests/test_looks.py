"""Die looks (companion/data/looks.toml): every die of the games drawn from data a player can edit."""

from __future__ import annotations

import pytest

from companion.dice import all_kinds
from companion.errors import DataError
from companion.looks import SHAPE_FACES, Art, all_looks, parse_looks


def test_every_shipped_look_carries_its_kinds_faces_on_a_solid_with_as_many():
    looks = all_looks()
    kinds = all_kinds()
    for look in looks.values():
        assert look.labels == tuple(f.label for f in kinds[look.kind].faces)
        assert SHAPE_FACES[look.shape] == len(look.labels)
        for label in look.labels:
            assert isinstance(look.art_for(label), Art)


def test_the_games_dice_are_all_there_with_the_shapes_the_rulebooks_give():
    looks = all_looks()
    shapes = {k: looks[k].shape for k in looks}
    # Roll In One's club dice are d4 .. d20 (its Clubs section); Doshboardgolf plays four d12 told
    # apart by colour; the Rollers, disco and standard dice are d6
    assert shapes["roll-in-one-putter"] == "d4"
    assert shapes["roll-in-one-9-iron"] == "d8"
    assert shapes["roll-in-one-7-iron"] == "d10"
    assert shapes["roll-in-one-4-iron"] == "d12"
    assert shapes["roll-in-one-wood"] == "d20"
    assert {shapes[f"dosh-{c}"] for c in ("blue", "red", "black", "white")} == {"d12"}
    assert len({looks[f"dosh-{c}"].body for c in ("blue", "red", "black", "white")}) == 4
    assert looks["rollers-purple"].art_for("star") == Art("star")
    assert looks["rollers-black"].art_for("zap") == Art("zap")
    assert looks["rollers-black"].ink_for("zap") != looks["rollers-black"].ink


def test_faces_with_no_art_entry_are_drawn_from_their_label():
    club = all_looks()["roll-in-one-4-iron"]
    assert club.art_for("curve") == Art("curve")
    assert club.art_for("dotted-curve") == Art("dotted-curve")
    assert club.art_for("11") == Art("text", "11")
    with pytest.raises(DataError, match="no face 'star'"):
        club.art_for("star")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            {"kind": "nope", "shape": "d6", "size_mm": 16, "body": "#ffffff", "ink": "#000000"},
            "not a die kind",
        ),
        ({"kind": "d6", "shape": "d7", "size_mm": 16, "body": "#ffffff", "ink": "#000000"}, "shape must be"),
        (
            {"kind": "d6", "shape": "d8", "size_mm": 16, "body": "#ffffff", "ink": "#000000"},
            "carries 8 labels",
        ),
        ({"kind": "d6", "shape": "d6", "size_mm": 16, "body": "white", "ink": "#000000"}, "body: colour"),
        ({"kind": "d6", "shape": "d6", "size_mm": 0, "body": "#ffffff", "ink": "#000000"}, "size_mm"),
        (
            {
                "kind": "d6",
                "shape": "d6",
                "size_mm": 16,
                "body": "#ffffff",
                "ink": "#000000",
                "art": {"1": "pips:7"},
            },
            "pips must be 1-6",
        ),
        (
            {
                "kind": "d6",
                "shape": "d6",
                "size_mm": 16,
                "body": "#ffffff",
                "ink": "#000000",
                "art": {"7": "pips:1"},
            },
            "no face '7'",
        ),
        (
            {"kind": "d6", "shape": "d6", "size_mm": 16, "body": "#ffffff", "ink": "#000000", "glow": 1},
            "unknown keys",
        ),
    ],
)
def test_a_broken_look_is_refused_naming_the_file_the_look_and_the_problem(entry, message):
    with pytest.raises(DataError, match=message) as err:
        parse_looks({"my-die": entry}, "my-looks.toml")
    assert "my-looks.toml: [my-die]" in str(err.value)
