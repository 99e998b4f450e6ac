"""The throw watcher's state on the table screen: one word or three, in a colour, large enough to
read from a chair (the prompt's size), over the bottom of the camera picture.

A reader that watches the tray (:class:`dice_companion.camera.CameraReader`) says its state in
``watch_state``; the stand-ins (simulated camera, no camera) have none, and nothing is drawn.
Colour is never the only cue: every state has its words.
"""

from __future__ import annotations

import pygame

from ui import theme
from ui.widgets import Ui

#: state -> (words, colour)
STATES: dict[str, tuple[str, theme.Colour]] = {
    "learning": ("Learning the tray", theme.MUTED),
    "empty": ("Tray empty", theme.MUTED),
    "rolling": ("Rolling", theme.ACCENT),
    "hand": ("Hand in the tray", theme.WARN),
    "settled": ("Settled", theme.BUTTON_PRESSED),
    "reading": ("Reading", theme.ACCENT),
    "read": ("Read", theme.GOOD),
}


def watch_state(reader: object) -> str | None:
    """The reader's watcher state (a key of STATES), or None when it does not watch the tray."""
    state = getattr(reader, "watch_state", None)
    return state if state in STATES else None


def draw_watch_state(ui: Ui, picture: pygame.Rect, state: str | None) -> pygame.Rect | None:
    """The state's words on a band of its colour across the bottom of ``picture``; the band drawn."""
    if state is None or state not in STATES:
        return None
    words, colour = STATES[state]
    size = ui.metrics.prompt
    # as tall as the prompt, seen from the chair, even where that covers a small picture whole
    height = min(picture.height, ui.font(size).get_linesize() + 2 * ui.metrics.pad)
    band = pygame.Rect(picture.x, picture.bottom - height, picture.width, height)
    ui.panel(band, theme.BG, radius=0)
    pygame.draw.rect(ui.surface, colour, band, 4)
    ui.shape("circle", (band.x + height // 2, band.centery), max(6, height // 4), colour)
    room = band.width - height - ui.metrics.pad
    ui.text(words, (band.x + height, band.centery), size, colour, "midleft", room)
    return band
