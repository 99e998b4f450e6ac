"""Dialogs drawn over a screen: a message ('why not?'), a face picker, an on-screen keyboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from companion.dice import die_kind
from ui import theme
from ui.screen import Overlay
from ui.widgets import Ui, draw_die

if TYPE_CHECKING:
    from ui.app import App


def _box(ui: Ui, w_frac: float = 0.8, h_frac: float = 0.7) -> pygame.Rect:
    w, h = ui.size
    r = pygame.Rect(0, 0, int(w * w_frac), int(h * h_frac))
    r.center = (w // 2, h // 2)
    ui.panel(r, theme.PANEL_HI, radius=12, border=theme.ACCENT, width=3)
    return r.inflate(-2 * ui.metrics.pad - 8, -2 * ui.metrics.pad - 8)


class MessageBox(Overlay):
    def __init__(
        self,
        app: App,
        title: str,
        text: str,
        rule: str = "",
        buttons: tuple[tuple[str, Callable[[], None]], ...] = (),
        dismiss: str = "OK",
    ) -> None:
        self.app, self.title, self.text, self.rule, self.buttons = app, title, text, rule, buttons
        self.dismiss = dismiss  # the button that only closes the box ("Keep" when asked to delete)

    def draw(self, ui: Ui) -> None:
        m = ui.metrics
        inner = _box(ui, 0.86, 0.62 if not m.portrait else 0.45)
        ui.text(self.title, (inner.x, inner.y), m.title, theme.ACCENT, width=inner.width)
        y = inner.y + ui.font(m.title).get_linesize() + m.pad
        bottom = inner.bottom - m.button_h - m.pad
        y += ui.paragraph(self.text, pygame.Rect(inner.x, y, inner.width, bottom - y), m.prompt) + m.pad
        if self.rule:
            ui.paragraph(
                f"Rule: {self.rule}", pygame.Rect(inner.x, y, inner.width, bottom - y), m.body, theme.MUTED
            )
        buttons = (*self.buttons, (self.dismiss, lambda: None))
        bw = min(260, (inner.width - (len(buttons) - 1) * m.pad) // len(buttons))
        for i, (label, action) in enumerate(buttons):
            x = inner.right - (len(buttons) - i) * (bw + m.pad) + m.pad
            ui.button(
                pygame.Rect(x, inner.bottom - m.button_h, bw, m.button_h),
                label,
                lambda a=action: (self.app.show(None), a()),
                id=f"dialog:{label}",
            )


class FacePicker(Overlay):
    """Every face of a die kind as a big button; ``on_pick(face)``."""

    def __init__(
        self, app: App, title: str, kind: str, on_pick: Callable[[str], None], current: str | None = None
    ) -> None:
        self.app, self.title, self.kind, self.on_pick, self.current = app, title, kind, on_pick, current

    def draw(self, ui: Ui) -> None:
        m = ui.metrics
        inner = _box(ui, 0.92, 0.86 if not m.portrait else 0.6)
        cw = ui.font(m.body).size("Cancel")[0] + 32
        title = pygame.Rect(inner.x, inner.y, inner.width - cw - m.pad, m.button_h)
        ui.paragraph_fit(self.title, title, (m.prompt, m.body, m.small), theme.ACCENT, "center")
        ui.button(
            pygame.Rect(inner.right - cw, inner.y, cw, m.button_h),
            "Cancel",
            lambda: self.app.show(None),
            id="picker:cancel",
        )
        faces = die_kind(self.kind).faces
        top = inner.y + m.button_h + m.pad
        cols = min(len(faces), 6 if not m.portrait else 3)
        rows = -(-len(faces) // cols)
        cell_w = (inner.width - (cols - 1) * m.pad) // cols
        cell_h = min((inner.bottom - top - (rows - 1) * m.pad) // rows, cell_w + 40)
        for i, f in enumerate(faces):
            r, c = divmod(i, cols)
            rect = pygame.Rect(inner.x + c * (cell_w + m.pad), top + r * (cell_h + m.pad), cell_w, cell_h)
            ui.button(
                rect,
                "",
                lambda f=f.label: (self.app.show(None), self.on_pick(f)),
                id=f"face:{f.label}",
                selected=f.label == self.current,
            )
            side = min(rect.width - 16, rect.height - ui.font(m.small).get_linesize() - 16)
            die = pygame.Rect(0, 0, side, side)
            die.midtop = (rect.centerx, rect.y + 6)
            draw_die(ui, die, self.kind, f.label, f.number)
            ui.text(
                face_caption(f.label),
                (rect.centerx, rect.bottom - 4),
                m.small,
                theme.TEXT,
                "midbottom",
                rect.width - 4,
            )


KEY_ROWS = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")


class Keyboard(Overlay):
    """Type a name with big keys."""

    def __init__(
        self, app: App, title: str, text: str, on_done: Callable[[str], None], limit: int = 14
    ) -> None:
        self.app, self.title, self.text, self.on_done, self.limit = app, title, text, on_done, limit

    def _type(self, ch: str) -> None:
        if len(self.text) < self.limit:
            self.text += ch if not self.text or self.text.endswith(" ") else ch.lower()

    def on_key(self, key: int) -> None:
        if key == pygame.K_RETURN:
            self._done()
        elif key == pygame.K_ESCAPE:
            self.app.show(None)
        elif key == pygame.K_BACKSPACE:
            self.text = self.text[:-1]
        elif pygame.K_a <= key <= pygame.K_z:
            self._type(chr(key).upper())
        elif key == pygame.K_SPACE:
            self._type(" ")

    def _done(self) -> None:
        self.app.show(None)
        self.on_done(self.text.strip())

    def draw(self, ui: Ui) -> None:
        m = ui.metrics
        w, h = ui.size
        ui.panel(pygame.Rect(0, 0, w, h), theme.BG, radius=0)
        ui.text(self.title, (m.pad, m.pad), m.body, theme.MUTED)
        field = pygame.Rect(m.pad, m.pad + ui.font(m.body).get_linesize(), w - 2 * m.pad, m.button_h)
        ui.panel(field, theme.PANEL_HI, border=theme.ACCENT, width=2)
        ui.text(self.text + "_", (field.x + m.pad, field.centery), m.prompt, theme.TEXT, "midleft")
        top = field.bottom + m.pad
        key_h = min(m.button_h + 20, (h - top - 4 * m.pad) // 4 - m.pad)
        key_w = (w - 2 * m.pad - 9 * 4) // 10
        for r, row in enumerate(KEY_ROWS):
            x0 = m.pad + r * key_w // 2
            for c, ch in enumerate(row):
                ui.button(
                    pygame.Rect(x0 + c * (key_w + 4), top + r * (key_h + m.pad), key_w, key_h),
                    ch,
                    lambda ch=ch: self._type(ch),
                    id=f"key:{ch}",
                    size=m.prompt,
                    least=min(key_w, m.target),  # ten keys a row: as wide as the screen allows
                )
        y = top + 3 * (key_h + m.pad)
        third = (w - 2 * m.pad - 3 * m.pad) // 4
        specs = (
            ("Space", lambda: self._type(" ")),
            ("Delete", lambda: setattr(self, "text", self.text[:-1])),
            ("Cancel", lambda: self.app.show(None)),
            ("Done", self._done),
        )
        for i, (label, action) in enumerate(specs):
            ui.button(
                pygame.Rect(m.pad + i * (third + m.pad), y, third, key_h),
                label,
                action,
                id=f"key:{label}",
                enabled=label != "Done" or bool(self.text.strip()),
                colour=theme.GO if label == "Done" else None,
            )


def face_caption(face: str) -> str:
    """A face's caption under its picture: numbers as they are, Roll In One's "dots2" as "2 dots",
    other words in capitals as printed on the die ("STAR")."""
    if face.isdigit():
        return face
    if face.startswith("dots") and face[4:].isdigit():
        n = int(face[4:])
        return f"{n} dot" if n == 1 else f"{n} dots"
    return face.upper()
