"""Immediate-mode drawing and hit-testing: each frame the screen draws its widgets and registers the
tappable ones; the next tap is matched against what was drawn. Text surfaces are cached."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pygame

from ui import theme
from ui.theme import Colour, Metrics

Action = Callable[[], None]


@dataclass(slots=True)
class Widget:
    """Something tappable drawn this frame."""

    rect: pygame.Rect
    label: str
    action: Action | None
    enabled: bool = True
    id: str = ""
    kind: str = "button"
    meta: dict = field(default_factory=dict)


class Ui:
    """Drawing helpers bound to one surface, plus this frame's tappable widgets."""

    CACHE = 600

    def __init__(self, surface: pygame.Surface, dpi: float | None = None) -> None:
        self.surface = surface
        self.dpi = dpi  # the screen's pixels per inch; None: a 7-inch screen (theme.px_per_mm)
        self.metrics: Metrics = theme.metrics_for(surface.get_size(), dpi)
        self.widgets: list[Widget] = []
        self.pressed: str | None = None  # id of the widget under a finger that is down
        self._fonts: dict[int, pygame.font.Font] = {}
        self._text: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self.text_sizes: set[int] = set()  # every text size drawn (tests check readability)
        self.cut: list[str] = []  # every text shortened with '...' to fit (tests check none is)
        self.drawn: list[tuple[str, int, pygame.Rect]] = []  # this frame's texts: words, size, place
        # the board's places (a cell, a piece) with what the game state holds there, when asked for
        # (the last-move outline compares them); None: not recorded
        self.places: dict[str, tuple[pygame.Rect, object]] | None = None

    def place(self, key: str, rect: pygame.Rect, value: object) -> None:
        """Record a place of the board drawn at ``rect`` holding ``value`` (when places are recorded)."""
        if self.places is not None:
            self.places[key] = (pygame.Rect(rect), value)

    def set_surface(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.metrics = theme.metrics_for(surface.get_size(), self.dpi)
        self._fonts.clear()
        self._text.clear()

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    # --- text ---------------------------------------------------------------------------------
    def font(self, size: int) -> pygame.font.Font:
        """The font drawn at ``size``, never under the screen's floor (capitals 2 mm tall)."""
        size = max(size, self.metrics.tiny)
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = pygame.font.Font(None, size)
        return f

    def render(self, text: str, size: int, colour: Colour = theme.TEXT) -> pygame.Surface:
        size = max(size, self.metrics.tiny)
        key = (text, size, colour)
        if text:
            self.text_sizes.add(size)
        surf = self._text.get(key)
        if surf is None:
            surf = self.font(size).render(text, True, colour)
            self._text[key] = surf
            if len(self._text) > self.CACHE:
                self._text.popitem(last=False)
        else:
            self._text.move_to_end(key)
        return surf

    def fit(self, text: str, size: int, width: int) -> str:
        """``text`` shortened with '...' to fit ``width`` pixels at ``size``."""
        font = self.font(size)
        if font.size(text)[0] <= width:
            return text
        self.cut.append(text)
        while text and font.size(text + "...")[0] > width:
            text = text[:-1]
        return text + "..."

    def words_that_fit(self, wordings: tuple[str, ...] | list[str], size: int, width: int) -> str:
        """The first (fullest) of ``wordings`` that fits ``width`` at ``size``; else the last."""
        font = self.font(size)
        return next((w for w in wordings if font.size(w)[0] <= width), wordings[-1])

    def phrase_lines(self, label: str, size: int, width: int) -> list[str] | None:
        """A button label written as phrases (separated by newlines: "Write 3\\nin UP, space 2") packed
        into as few lines as fit ``width`` at ``size``, each phrase whole and joined by a space on its
        line; None when one phrase alone is wider than ``width``."""
        font = self.font(size)
        lines: list[str] = []
        for phrase in label.split("\n"):
            if font.size(phrase)[0] > width:
                return None
            trial = f"{lines[-1]} {phrase}" if lines else phrase
            if lines and font.size(trial)[0] <= width:
                lines[-1] = trial
            else:
                lines.append(phrase)
        return lines

    def wrap(self, text: str, size: int, width: int) -> list[str]:
        font = self.font(size)
        lines: list[str] = []
        for para in text.split("\n"):
            line = ""
            for word in para.split(" "):
                trial = f"{line} {word}".strip()
                if font.size(trial)[0] <= width or not line:
                    line = trial
                else:
                    lines.append(line)
                    line = word
            lines.append(line)
        return lines

    def text(
        self,
        text: str,
        pos: tuple[int, int],
        size: int | None = None,
        colour: Colour = theme.TEXT,
        anchor: str = "topleft",
        width: int | None = None,
        within: pygame.Rect | None = None,
    ) -> pygame.Rect:
        """Draw ``text`` at ``pos`` by ``anchor``; ``within``: moved (not cut) to lie inside that rect."""
        size = size or self.metrics.body
        if width is not None:
            text = self.fit(text, size, width)
        surf = self.render(text, size, colour)
        rect = surf.get_rect(**{anchor: pos})
        if within is not None:
            rect = rect.clamp(within)
        self.surface.blit(surf, rect)
        self.drawn.append((text, max(size, self.metrics.tiny), rect))
        return rect

    def paragraph(
        self,
        text: str,
        rect: pygame.Rect,
        size: int | None = None,
        colour: Colour = theme.TEXT,
        max_lines: int | None = None,
    ) -> int:
        """Wrapped text inside ``rect``; returns the height used."""
        size = size or self.metrics.body
        lines = self.wrap(text, size, rect.width)
        step = self.font(size).get_linesize()
        limit = max(1, rect.height // step) if max_lines is None else max_lines
        if len(lines) > limit:
            lines = lines[:limit]
            lines[-1] = self.fit(lines[-1] + " ...", size, rect.width)
        for i, line in enumerate(lines):
            self._blit_line(line, size, colour, (rect.x, rect.y + i * step))
        return len(lines) * step

    def _blit_line(self, line: str, size: int, colour: Colour, pos: tuple[int, int]) -> None:
        surf = self.render(line, size, colour)
        self.drawn.append((line, max(size, self.metrics.tiny), surf.get_rect(topleft=pos)))
        self.surface.blit(surf, pos)

    def paragraph_fit(
        self,
        text: str,
        rect: pygame.Rect,
        sizes: tuple[int, ...],
        colour: Colour = theme.TEXT,
        anchor: str = "top",
    ) -> int:
        """Wrapped text at the largest of ``sizes`` whose lines all fit ``rect`` (never cut short:
        at the smallest size every line is drawn); ``anchor`` "center" centres it in height. Returns
        the size used."""
        for size in sizes:
            lines = self.wrap(text, size, rect.width)
            step = self.font(size).get_linesize()
            if len(lines) * step <= rect.height:
                break
        top = rect.y if anchor == "top" else rect.centery - len(lines) * step // 2
        for i, line in enumerate(lines):
            self._blit_line(line, size, colour, (rect.x, top + i * step))
        return size

    # --- shapes -------------------------------------------------------------------------------
    def panel(
        self,
        rect: pygame.Rect,
        colour: Colour = theme.PANEL,
        radius: int = 8,
        border: Colour | None = None,
        width: int = 0,
    ) -> None:
        pygame.draw.rect(self.surface, colour, rect, border_radius=radius)
        if border is not None:
            pygame.draw.rect(self.surface, border, rect, width or 3, border_radius=radius)

    def shape(self, kind: str, centre: tuple[int, int], r: int, colour: Colour) -> None:
        """A player's marker shape, so that colour is not the only cue."""
        x, y = centre
        s = self.surface
        if kind == "circle":
            pygame.draw.circle(s, colour, centre, r)
        elif kind == "square":
            pygame.draw.rect(s, colour, (x - r, y - r, 2 * r, 2 * r))
        elif kind == "triangle":
            pygame.draw.polygon(s, colour, [(x, y - r), (x + r, y + r), (x - r, y + r)])
        elif kind == "diamond":
            pygame.draw.polygon(s, colour, [(x, y - r), (x + r, y), (x, y + r), (x - r, y)])
        elif kind == "star":
            pygame.draw.polygon(s, colour, star_points(centre, r))
        elif kind == "ring":
            pygame.draw.circle(s, colour, centre, r, max(3, r // 3))
        elif kind == "hexagon":
            pts = [(x + r * math.cos(math.pi / 3 * k), y + r * math.sin(math.pi / 3 * k)) for k in range(6)]
            pygame.draw.polygon(s, colour, pts)
        else:  # cross
            w = max(3, r // 2)
            pygame.draw.rect(s, colour, (x - r, y - w // 2, 2 * r, w))
            pygame.draw.rect(s, colour, (x - w // 2, y - r, w, 2 * r))

    # --- tappables ----------------------------------------------------------------------------
    def add(self, widget: Widget) -> Widget:
        if not widget.id:
            widget.id = widget.label
        self.widgets.append(widget)
        return widget

    def button(
        self,
        rect: pygame.Rect,
        label: str,
        action: Action | None,
        *,
        enabled: bool = True,
        id: str = "",
        colour: Colour | None = None,
        text_colour: Colour = theme.TEXT,
        size: int | None = None,
        selected: bool = False,
        sub: str = "",
        least: int | None = None,
    ) -> Widget:
        """A labelled button at least 9 mm on each side (the rect is grown if smaller); a dense grid
        (a keyboard's keys) may ask for ``least`` pixels instead."""
        rect = pygame.Rect(rect)
        t = self.metrics.target if least is None else least
        if rect.width < t or rect.height < t:
            rect = rect.inflate(max(0, t - rect.width), max(0, t - rect.height))
        w = self.add(Widget(rect, label, action if enabled else None, enabled, id or label))
        pressed = self.pressed == w.id and enabled
        fill = (theme.BUTTON_PRESSED if pressed else colour or theme.BUTTON) if enabled else theme.BUTTON_OFF
        self.panel(rect, fill, border=theme.SELECTED if selected else None, width=4)
        size = size or self.metrics.body
        tc = text_colour if enabled else theme.MUTED
        if sub:
            self.text(label, (rect.centerx, rect.centery - 2), size, tc, "midbottom", rect.width - 12)
            self.text(
                sub, (rect.centerx, rect.centery + 2), self.metrics.small, tc, "midtop", rect.width - 12
            )
        else:
            lines = self.phrase_lines(label, size, rect.width - 12) or self.wrap(
                label.replace("\n", " "), size, rect.width - 12)
            if len(lines) > 1 and len(lines) * self.font(size).get_linesize() <= rect.height - 4:
                step = self.font(size).get_linesize()
                top = rect.centery - step * len(lines) // 2
                for i, line in enumerate(lines):
                    self.text(line, (rect.centerx, top + i * step), size, tc, "midtop")
            else:
                self.text(" ".join(lines), rect.center, size, tc, "center", rect.width - 12)
        return w

    def hit(self, pos: tuple[int, int]) -> Widget | None:
        for w in reversed(self.widgets):  # topmost first
            if w.rect.collidepoint(pos):
                return w
        return None

    def find(self, label_or_id: str) -> Widget | None:
        for w in self.widgets:
            if w.id == label_or_id or w.label == label_or_id:
                return w
        return None


def star_points(centre: tuple[int, int], r: int, points: int = 5) -> list[tuple[float, float]]:
    x, y = centre
    out = []
    for i in range(points * 2):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / points
        out.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    return out


def bolt_points(rect: pygame.Rect) -> list[tuple[float, float]]:
    x, y, w, h = rect
    pts = [(0.55, 0.05), (0.2, 0.55), (0.45, 0.55), (0.35, 0.95), (0.8, 0.4), (0.55, 0.4), (0.7, 0.05)]
    return [(x + px * w, y + py * h) for px, py in pts]


PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}

DIE_BODIES: dict[str, tuple[Colour, Colour]] = {  # kind id -> (body, pips)
    "rollers-purple": ((128, 70, 180), (255, 255, 255)),
    "rollers-black": ((20, 20, 24), (255, 255, 255)),
    "dosh-blue": ((35, 80, 175), (255, 255, 255)),  # Doshboardgolf's d12s in their colours
    "dosh-red": ((185, 35, 35), (255, 255, 255)),
    "dosh-black": ((20, 20, 24), (255, 255, 255)),
}


DISCO_BALLS: dict[str, Colour] = {  # Hop'n'ROLL's disco die: its faces are coloured balls
    "yellow": (240, 205, 60),
    "green": (95, 185, 95),
    "blue": (90, 150, 235),
    "pink": (235, 125, 185),
    "orange": (245, 150, 60),
}


def die_colours(kind: str) -> tuple[Colour, Colour]:
    return DIE_BODIES.get(kind, ((245, 245, 240), (20, 20, 20)))


def draw_die(ui: Ui, rect: pygame.Rect, kind: str, face: str | None, number: int | None = None) -> None:
    """A die seen from above: pips for 1-6, a star for STAR, a bolt for ZAP, else the face label."""
    body, pip = die_colours(kind)
    pygame.draw.rect(ui.surface, body, rect, border_radius=rect.width // 6)
    pygame.draw.rect(ui.surface, (120, 120, 120), rect, 2, border_radius=rect.width // 6)
    if face is None:
        ui.text("?", rect.center, int(rect.height * 0.8), pip, "center")
        return
    if face == "star":
        pygame.draw.polygon(ui.surface, theme.ACCENT, star_points(rect.center, int(rect.width * 0.42)))
        return
    if face == "zap":
        pygame.draw.polygon(
            ui.surface, (255, 220, 0), bolt_points(rect.inflate(-rect.width // 5, -rect.height // 8))
        )
        return
    if face in DISCO_BALLS:  # a ball in the face's colour with its initial (colour is not the only cue)
        pygame.draw.circle(ui.surface, DISCO_BALLS[face], rect.center, rect.width // 2 - 3)
        ui.text(face[:1].upper(), rect.center, max(ui.metrics.tiny, int(rect.height * 0.5)), (20, 20, 20),
                "center")
        return
    if face.startswith("dots") and face[4:].isdigit() and int(face[4:]) in PIPS:  # Roll In One's dot faces:
        r = max(3, rect.width // 9)  # rings, told apart from a number's pips by more than size
        for px, py in PIPS[int(face[4:])]:
            centre = (rect.x + px * rect.width, rect.y + py * rect.height)
            pygame.draw.circle(ui.surface, pip, centre, r, max(2, r // 2))
        return
    n = number if number is not None else (int(face) if face.isdigit() else None)
    if n in PIPS:
        r = max(3, rect.width // 11)
        for px, py in PIPS[n]:
            pygame.draw.circle(ui.surface, pip, (rect.x + px * rect.width, rect.y + py * rect.height), r)
        return
    size = max(ui.metrics.tiny, int(rect.height * 0.5))  # the whole word, smaller if need be, never cut
    while size > ui.metrics.tiny and ui.font(size).size(face)[0] > rect.width - 4:
        size -= 1
    ui.text(face, rect.center, size, pip, "center")


def frame_surface(frame: np.ndarray) -> pygame.Surface:
    """An RGB HxWx3 uint8 frame as a surface (no copy beyond what pygame needs)."""
    h, w = frame.shape[:2]
    return pygame.image.frombuffer(np.ascontiguousarray(frame[:, :, :3]).tobytes(), (w, h), "RGB")


class Picture:
    """A camera frame drawn fitted and centred in a rectangle. The surface is made once per new frame
    and held with it (frame ids get reused once a frame is gone)."""

    def __init__(self) -> None:
        self._held: tuple[np.ndarray, pygame.Surface] | None = None

    def draw(self, ui: Ui, rect: pygame.Rect, frame: np.ndarray) -> tuple[pygame.Rect, float]:
        """Draw ``frame``; returns where it went and its scale (image pixels to screen pixels)."""
        if self._held is None or self._held[0] is not frame:
            self._held = (frame, frame_surface(frame))
        src = self._held[1]
        fw, fh = src.get_size()
        scale = min(rect.width / fw, rect.height / fh)
        dst = pygame.Rect(0, 0, int(fw * scale), int(fh * scale))
        dst.center = rect.center
        ui.surface.blit(pygame.transform.scale(src, dst.size), dst)
        return dst, scale
