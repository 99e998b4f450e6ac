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
BUTTON_PRESSED: Colour = (40, 70, 120)
BUTTON_OFF: Colour = (55, 58, 66)
GOOD: Colour = (90, 200, 120)
WARN: Colour = (245, 170, 60)
BAD: Colour = (235, 110, 110)
SELECTED: Colour = (255, 220, 90)
GO: Colour = (75, 95, 55)  # buttons that start or play (New game, Play card, Done)
CONFIRM: Colour = (40, 110, 60)  # Confirm buttons
CANCEL: Colour = (150, 45, 45)  # Cancel and Delete buttons
CAUTION: Colour = (120, 85, 25)  # a button that asks for attention (calibrate the camera)
GREEN_BOX: Colour = (30, 100, 50)  # Doshboardgolf's green boxes on a card table

MIN_TARGET = 48  # px: the smallest side of anything tappable


@dataclass(frozen=True, slots=True)
class PlayerColour:
    name: str
    rgb: Colour
    shape: str  # circle, square, triangle, diamond, star, cross, ring, hexagon


PALETTE: tuple[PlayerColour, ...] = (
    PlayerColour("red", (220, 70, 70), "circle"),
    PlayerColour("blue", (70, 130, 230), "square"),
    PlayerColour("green", (70, 180, 90), "triangle"),
    PlayerColour("yellow", (235, 200, 60), "diamond"),
    PlayerColour("purple", (160, 100, 210), "star"),
    PlayerColour("orange", (240, 140, 50), "cross"),
    PlayerColour("pink", (240, 120, 190), "ring"),
    PlayerColour("white", (235, 235, 230), "hexagon"),
)


def colour_named(name: str) -> PlayerColour:
    return next((c for c in PALETTE if c.name == name), PALETTE[0])


@dataclass(frozen=True, slots=True)
class Metrics:
    """Text and spacing sizes for one screen, in pixels, chosen from millimetres on the glass: text
    sizes are font sizes whose capitals measure at least the height asked for (:data:`CAP_MM`)."""

    portrait: bool
    title: int
    prompt: int
    body: int
    small: int
    button_h: int
    pad: int
    px_per_mm: float = 5.2
    tiny: int = 20  # the floor: no text is drawn smaller (its capitals are 2 mm)
    target: int = MIN_TARGET  # the smallest side of anything tappable (9 mm)

    def mm(self, px: float) -> float:
        return px / self.px_per_mm


SCREEN_INCHES = 7.0  # the official Raspberry Pi displays (800x480, and 720x1280 Touch Display 2)
CAP_MM = {"title": 4.5, "prompt": 3.6, "body": 3.0, "small": 2.4, "tiny": 2.0}
TARGET_MM = 9.0


def px_per_mm(size: tuple[int, int], dpi: float | None = None) -> float:
    """The screen's pixel density: from ``dpi`` when configured, else from a 7-inch diagonal."""
    if dpi:
        return dpi / 25.4
    w, h = size
    return (w * w + h * h) ** 0.5 / (SCREEN_INCHES * 25.4)


_CAP: dict[int, int] = {}


def cap_height(size: int) -> int:
    """The measured height in pixels of a capital (H) drawn at font ``size`` (needs pygame.font)."""
    if size not in _CAP:
        import pygame

        glyph = pygame.font.Font(None, size).render("H", True, (255, 255, 255))
        _CAP[size] = glyph.get_bounding_rect().height
    return _CAP[size]


def size_for_cap(mm: float, ppmm: float) -> int:
    """The smallest font size whose capitals are at least ``mm`` tall at ``ppmm`` pixels per mm."""
    want = mm * ppmm
    size = max(8, int(want * 1.6))
    while cap_height(size) < want:
        size += 1
    while size > 8 and cap_height(size - 1) >= want:
        size -= 1
    return size


def metrics_for(size: tuple[int, int], dpi: float | None = None) -> Metrics:
    w, h = size
    ppmm = px_per_mm(size, dpi)
    sizes = {k: size_for_cap(mm, ppmm) for k, mm in CAP_MM.items()}
    target = round(TARGET_MM * ppmm + 0.5)
    portrait = h > w
    button_h = max(target, 56)
    pad = 12 if portrait else 8
    return Metrics(portrait, sizes["title"], sizes["prompt"], sizes["body"], sizes["small"], button_h, pad,
                   ppmm, sizes["tiny"], target)
