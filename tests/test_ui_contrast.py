"""Every text colour the app draws stands out from what it is drawn on by at least 4.5:1 (WCAG's
contrast ratio from relative luminance; issue 55, defect 10)."""

from __future__ import annotations

import pytest

from ui import theme
from ui.views.roll_for_it import DIE_RGB, ink


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


PANELS = {"background": theme.BG, "panel": theme.PANEL}
WORDS = {"text": theme.TEXT, "muted": theme.MUTED, "accent": theme.ACCENT, "good": theme.GOOD,
         "warn": theme.WARN, "bad": theme.BAD}
FILLS = {"button": theme.BUTTON, "pressed": theme.BUTTON_PRESSED, "off": theme.BUTTON_OFF, "go": theme.GO,
         "confirm": theme.CONFIRM, "cancel": theme.CANCEL, "caution": theme.CAUTION,
         "green box": theme.GREEN_BOX}


@pytest.mark.parametrize("panel", PANELS)
@pytest.mark.parametrize("words", WORDS)
def test_words_on_panels(words, panel):
    assert contrast(WORDS[words], PANELS[panel]) >= 4.5


@pytest.mark.parametrize("fill", FILLS)
def test_labels_on_buttons(fill):
    assert contrast(theme.TEXT, FILLS[fill]) >= 4.5


def test_tiles_and_disabled_labels():
    # a die's tile (PANEL_HI) carries its status in text, muted, good or warn colours
    for words in ("text", "muted", "good", "warn", "accent"):
        assert contrast(WORDS[words], theme.PANEL_HI) >= 4.5, words
    assert contrast(theme.MUTED, theme.BUTTON_OFF) >= 4.5  # a disabled button's label


def test_letters_on_roll_for_it_dice():
    for colour, rgb in DIE_RGB.items():
        assert contrast(ink(colour), rgb) >= 4.5, colour


def test_dice_are_drawn_in_their_colours_with_readable_faces():
    """Doshboardgolf's blue and red dice (and Rollers' coloured ones) are drawn in their own colours,
    their pips or numbers at 4.5:1 at least on them (issue 55, defect 7)."""
    from companion.games.doshboardgolf.state import DIE_KIND
    from ui.widgets import die_colours

    bodies = {colour: die_colours(kind)[0] for colour, kind in DIE_KIND.items()}
    assert bodies["blue"][2] > bodies["blue"][0] + 80 and bodies["red"][0] > bodies["red"][2] + 80
    assert max(bodies["black"]) < 60 and min(bodies["white"]) > 200
    for kind in (*DIE_KIND.values(), "rollers-purple", "rollers-black", "d6"):
        body, pip = die_colours(kind)
        assert contrast(body, pip) >= 4.5, kind
