"""Colours, sizes and the player palette. Colour is never the only cue: each player colour has a name
and a shape drawn beside the player's name."""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[int, int, int]

BG: Colour = (24, 28, 36)
PANEL: Colour = (40, 46, 58)
PANEL_HI: Colour = (58, 66, 82)
TEXT: Colour = (240, 240, 235)
MUTED: Colour = (170, 176, 188)
ACCENT: Colour = (255, 196, 64)
BUTTON: Colour = (62, 98, 158)
BUTTON_PRESSED: Colour = (110, 150, 215)
BUTTON_OFF: Colour = (70, 74, 84)
GOOD: Colour = (70, 170, 100)
WARN: Colour = (230, 150, 40)
BAD: Colour = (200, 70, 70)
SELECTED: Colour = (255, 220, 90)

MIN_TARGET = 48  # px: the smallest side of anything tappable


@dataclass(frozen=True, slots=True)
class PlayerColour:
    name: str
    rgb: Colour
    shape: str  # circle, square, triangle, diamond, star, cross


PALETTE: tuple[PlayerColour, ...] = (
    PlayerColour("red", (220, 70, 70), "circle"),
    PlayerColour("blue", (70, 130, 230), "square"),
    PlayerColour("green", (70, 180, 90), "triangle"),
    PlayerColour("yellow", (235, 200, 60), "diamond"),
    PlayerColour("purple", (160, 100, 210), "star"),
    PlayerColour("orange", (240, 140, 50), "cross"),
)


def colour_named(name: str) -> PlayerColour:
    return next((c for c in PALETTE if c.name == name), PALETTE[0])


@dataclass(frozen=True, slots=True)
class Metrics:
    """Text and spacing sizes for one screen size (landscape 800x480 or portrait 720x1280)."""

    portrait: bool
    title: int
    prompt: int
    body: int
    small: int
    button_h: int
    pad: int


def metrics_for(size: tuple[int, int]) -> Metrics:
    w, h = size
    if h > w:
        return Metrics(True, title=56, prompt=44, body=36, small=28, button_h=84, pad=12)
    return Metrics(False, title=40, prompt=32, body=28, small=24, button_h=56, pad=8)
