"""Settings: camera calibration and dice enrolment (with progress), sound, screen rotation."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import numpy as np
import pygame

from companion.dice import all_kinds
from ui import theme
from ui.reader import Progress
from ui.screen import Screen
from ui.screens.common import header, split_h, split_v
from ui.settings import ROTATIONS
from ui.views.base import paged_buttons
from ui.widgets import Picture, Ui

if TYPE_CHECKING:
    from ui.app import App

log = logging.getLogger(__name__)


class SettingsScreen(Screen):
    name = "settings"

    def draw(self, ui: Ui) -> None:
        m = ui.metrics
        area = header(ui, "Settings", self.back)
        s = self.app.settings
        y = area.y
        line = ui.font(m.small).get_linesize()
        reader = self.app.reader
        state = "" if reader.live else " (not connected)"
        if hasattr(reader, "calibration"):  # a real camera: say whether the empty tray is known
            state += ", calibrated" if reader.calibration is not None else ", not calibrated yet"
        ui.text(
            f"Camera: {reader.name}{state}",
            (area.x, y),
            m.small,
            theme.MUTED,
            width=area.width,
        )
        y += line + 4
        half = (area.width - m.pad) // 2
        ui.button(
            pygame.Rect(area.x, y, half, m.button_h),
            "Calibrate camera",
            self.calibrate,
            id="settings:calibrate",
        )
        ui.button(
            pygame.Rect(area.x + half + m.pad, y, half, m.button_h),
            "Enrol dice",
            self.enrol,
            id="settings:enrol",
        )
        y += m.button_h + 2 * m.pad
        # sound, and auto-confirm of a read whose every die is sure: side by side at 800x480 (a quarter of
        # the width each button), a row each in portrait
        w = half if m.portrait else (area.width - 3 * m.pad) // 4
        rows = (
            ("Sound", (("Sound on", True, "sound:on"), ("Sound off", False, "sound:off")), "sound",
             self.set_sound),
            ("Confirm a read by itself when every die is sure (a short countdown, a tap cancels)",
             (("On", True, "auto:on"), ("Off", False, "auto:off")), "auto_confirm", self.set_auto),
        )
        for r, (caption, choices, field, setter) in enumerate(rows):
            x = area.x if m.portrait or r == 0 else area.x + 2 * (w + m.pad)
            room = area.width if m.portrait else 2 * w + m.pad
            size = next((z for z in (m.small, m.tiny) if ui.font(z).size(caption)[0] <= room), m.tiny)
            if ui.font(size).size(caption)[0] > room:
                caption = caption.split(" (")[0]  # the countdown's note goes first when it cannot fit
            ui.text(caption, (x, y), size, theme.MUTED, width=room)
            for k, (label, value, wid) in enumerate(choices):
                chosen = getattr(s, field) == value
                ui.button(
                    pygame.Rect(x + k * (w + m.pad), y + line + 4, w, m.button_h),
                    ("[x] " if chosen else "") + label,
                    lambda v=value, set_=setter: set_(v),
                    id=wid,
                    selected=chosen,
                    colour=theme.GO if chosen else theme.PANEL_HI,
                )
            if m.portrait or r == 1:
                y += line + 4 + m.button_h + 2 * m.pad
        y += ui.paragraph(  # wrapped, not cut
            "Screen rotation (turns the picture and the touch; portrait when turned 90 or 270)",
            pygame.Rect(area.x, y, area.width, 2 * line),
            m.small,
            theme.MUTED,
        ) + 4
        q = (area.width - 3 * m.pad) // 4
        for k, deg in enumerate(ROTATIONS):
            chosen = s.rotation == deg
            ui.button(
                pygame.Rect(area.x + k * (q + m.pad), y, q, m.button_h),
                ("[x] " if chosen else "") + f"{deg}",
                lambda d=deg: self.app.set_rotation(d),
                id=f"rotation:{deg}",
                selected=chosen,
                colour=theme.GO if chosen else theme.PANEL_HI,
            )

    def set_sound(self, on: bool) -> None:
        self.app.settings.sound = on
        self.app.settings.save()
        self.app.beep("ok")

    def set_auto(self, on: bool) -> None:
        self.app.settings.auto_confirm = on
        self.app.settings.save()
        self.app.beep("ok")

    def calibrate(self) -> None:
        self.app.go(ProgressScreen(self.app, "Camera calibration", self.app.setup.calibrate, self))

    def enrol(self) -> None:
        self.app.go(EnrolScreen(self.app, self))


class EnrolScreen(Screen):
    """Choose which die to enrol."""

    name = "enrol"

    def __init__(self, app: App, parent: Screen) -> None:
        super().__init__(app)
        self.parent = parent
        self.page = 0

    def back(self) -> None:
        self.app.go(self.parent)

    def draw(self, ui: Ui) -> None:
        area = header(ui, "Enrol dice: which die?", self.back)
        items = [(k.name, lambda k=k.id: self.start(k), f"enrol:{k.id}") for k in all_kinds().values()]
        self.page = paged_buttons(ui, area, items, self.page, lambda p: setattr(self, "page", p))

    def start(self, kind: str) -> None:
        self.app.go(
            ProgressScreen(
                self.app,
                f"Enrolling {all_kinds()[kind].name}",
                lambda: self.app.setup.enrol(kind),
                self.parent,
            )
        )


class ProgressScreen(Screen):
    """Runs long work one step per frame, showing how far it got, what to do, and (when the work sends
    one) the camera's picture. A step may offer a button (``Progress.action``, e.g. "Take photo"): a tap
    sends True into the work on its next step. Cancel closes the work."""

    name = "progress"

    def __init__(self, app: App, title: str, work: Callable[[], Iterator[Progress]], parent: Screen) -> None:
        super().__init__(app)
        self.title = title
        self.parent = parent
        self.work: Iterator[Progress] | None = None
        self.start_work = work
        self.progress = Progress(0.0, "Starting")
        self.finished = False
        self.failed = ""
        self.pressed = False
        self._picture = Picture()

    def back(self) -> None:
        if self.work is not None:
            close = getattr(self.work, "close", None)
            if close is not None:
                close()
        self.app.go(self.parent)

    def press(self) -> None:
        self.pressed = True

    def advance(self) -> None:
        if self.finished:
            return
        try:
            if self.work is None:
                self.work = iter(self.start_work())
                self.progress = next(self.work)
            else:
                send = getattr(self.work, "send", None)
                pressed, self.pressed = self.pressed, False
                self.progress = send(pressed or None) if send is not None else next(self.work)
            if not self.progress.ok:
                self.failed = self.progress.message
                self.finished = True
        except StopIteration:
            self.finished = True
        except Exception as exc:  # calibration problems are the table's to fix, not a crash
            log.warning("%s failed: %s", self.title, exc)
            self.failed = str(exc)
            self.finished = True

    def draw(self, ui: Ui) -> None:
        self.advance()
        m = ui.metrics
        area = header(ui, self.title, self.back, "< Done" if self.finished else "Cancel")
        frame = self.progress.frame
        if frame is not None:  # the picture beside (landscape) or above (portrait) the words
            if m.portrait:
                pic, area = split_v(area, area.height * 2 // 5, m.pad)
            else:
                pic, area = split_h(area, area.width * 2 // 5, m.pad)
            self._draw_picture(ui, pic, frame)
        bar = pygame.Rect(area.x, area.y, area.width, m.button_h)
        pygame.draw.rect(ui.surface, theme.PANEL_HI, bar, border_radius=8)
        done = max(0.0, min(1.0, self.progress.done))
        fill = bar.copy()
        fill.width = int(bar.width * done)
        pygame.draw.rect(ui.surface, theme.BAD if self.failed else theme.GOOD, fill, border_radius=8)
        ui.text(f"{done:.0%}", bar.center, m.prompt, theme.TEXT, "center")
        msg = (
            f"Failed: {self.failed}"
            if self.failed
            else self.progress.message + (" - done" if self.finished else "")
        )
        action = self.progress.action if not self.finished else ""
        bottom = area.bottom - (m.button_h + m.pad if action else 0)
        ui.paragraph(
            msg,
            pygame.Rect(area.x, bar.bottom + 2 * m.pad, area.width, bottom - bar.bottom - 2 * m.pad),
            m.prompt if frame is None else m.body,
            theme.BAD if self.failed else theme.TEXT,
        )
        if action:
            ui.button(
                pygame.Rect(area.x, area.bottom - m.button_h, min(area.width, 320), m.button_h),
                action,
                self.press,
                id="progress:action",
                colour=theme.CONFIRM,
            )

    def _draw_picture(self, ui: Ui, rect: pygame.Rect, frame: np.ndarray) -> None:
        pygame.draw.rect(ui.surface, (10, 10, 12), rect, border_radius=6)
        self._picture.draw(ui, rect, frame)
