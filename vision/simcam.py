"""A simulated camera: synthetic top-down throws of any die kinds in ``companion/data/*.toml``.

Deterministic by seed. Faces with a number 1-6 on a die of at most six faces get pips; other
faces get a glyph drawn from their label (a star, a lightning bolt, a coloured disc for colour
names, otherwise the label as text), so enrolment and reading can be exercised for custom dice.

>>> cam = SimulatedCamera(seed=3)
>>> scene = cam.random_scene(["d6", "rollers-black"])
>>> len(scene), cam.render(scene).shape
(2, (480, 640, 3))
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from companion.dice import DieKind, die_kind

COLOURS: dict[str, tuple[int, int, int]] = {  # BGR
    "white": (235, 238, 240),
    "red": (40, 30, 200),
    "purple": (150, 50, 110),
    "black": (35, 35, 35),
    "green": (60, 140, 40),
    "blue": (190, 90, 30),
    "yellow": (40, 215, 240),
    "orange": (30, 140, 250),
    "pink": (190, 130, 250),
    "grey": (140, 140, 140),
}

PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def body_colour(kind_id: str) -> tuple[int, int, int]:
    """A body colour named in the kind id (``rollers-purple``), else one derived from the id."""
    for word in kind_id.lower().replace("_", "-").split("-"):
        if word in COLOURS:
            return COLOURS[word]
    if kind_id.startswith("d"):
        return COLOURS["white"]
    h = hashlib.sha256(kind_id.encode()).digest()
    return (int(h[0]) // 2 + 60, int(h[1]) // 2 + 60, int(h[2]) // 2 + 60)


def ink_colour(body: tuple[int, int, int]) -> tuple[int, int, int]:
    return (20, 20, 20) if sum(body) > 450 else (245, 245, 245)


def _uses_pips(kind: DieKind, label: str) -> int | None:
    face = kind.face(label)
    if len(kind.faces) <= 6 and face.number is not None and 1 <= face.number <= 6:
        return face.number
    return None


def _kind(kind: str | DieKind) -> DieKind:
    return kind if isinstance(kind, DieKind) else die_kind(kind)


def render_face(kind_or_id: str | DieKind, label: str, size: int = 64) -> np.ndarray:
    """The top face of a die as a ``size`` x ``size`` BGR image (rounded corners on black)."""
    kind = _kind(kind_or_id)
    body = body_colour(kind.id)
    ink = ink_colour(body)
    img = np.zeros((size, size, 3), np.uint8)
    r = max(2, size // 8)
    cv2.rectangle(img, (r, 0), (size - 1 - r, size - 1), body, -1)
    cv2.rectangle(img, (0, r), (size - 1, size - 1 - r), body, -1)
    for cx, cy in ((r, r), (size - 1 - r, r), (r, size - 1 - r), (size - 1 - r, size - 1 - r)):
        cv2.circle(img, (cx, cy), r, body, -1, cv2.LINE_AA)
    c = size / 2
    n = _uses_pips(kind, label)
    if n is not None:
        for dx, dy in PIP_LAYOUT[n]:
            px, py = c + dx * size * 0.27, c + dy * size * 0.27
            rad = size * (0.1 if n > 1 else 0.13)
            cv2.circle(img, (round(px), round(py)), round(rad), ink, -1, cv2.LINE_AA)
        return img
    word = label.lower()
    if word in COLOURS:
        cv2.circle(img, (round(c), round(c)), round(size * 0.3), COLOURS[word], -1, cv2.LINE_AA)
        cv2.circle(
            img, (round(c), round(c)), round(size * 0.3), (60, 60, 60), max(1, size // 32), cv2.LINE_AA
        )
    elif word == "star":
        pts = []
        for i in range(10):
            rad = size * (0.36 if i % 2 == 0 else 0.15)
            t = -math.pi / 2 + i * math.pi / 5
            pts.append((c + rad * math.cos(t), c + rad * math.sin(t)))
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], ink, cv2.LINE_AA)
    elif word == "triangle":
        tri = np.array([[c, size * 0.18], [size * 0.2, size * 0.78], [size * 0.8, size * 0.78]])
        cv2.fillPoly(img, [np.round(tri).astype(np.int32)], ink, cv2.LINE_AA)
    elif word in ("curve", "dotted-curve"):
        cv2.ellipse(
            img,
            (round(c), round(size * 0.7)),
            (round(size * 0.3), round(size * 0.3)),
            0,
            180,
            360,
            ink,
            max(2, size // 12),
            cv2.LINE_AA,
        )
        if word == "dotted-curve":
            cv2.circle(img, (round(c), round(size * 0.62)), max(2, size // 12), ink, -1, cv2.LINE_AA)
    elif word == "zap":
        s = size / 64
        bolt = np.array([[36, 8], [18, 36], [31, 36], [24, 56], [46, 26], [33, 26], [40, 8]], np.float64)
        cv2.fillPoly(img, [np.round(bolt * s).astype(np.int32)], COLOURS["yellow"], cv2.LINE_AA)
    else:
        text = label[:3]
        scale = size / 40 / max(1, len(text)) * 1.6
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, size // 20))
        org = (round(c - tw / 2), round(c + th / 2))
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, size // 20), cv2.LINE_AA)
    return img


@dataclass(frozen=True, slots=True)
class SimDie:
    kind: str
    face: str
    x: float
    y: float
    angle: float  # degrees


@dataclass(frozen=True, slots=True)
class SimFrame:
    """A rendered frame with its truth: what a perfect watcher would say."""

    image: np.ndarray
    truth: str  # empty / moving / hand / still / removed
    dice: tuple[SimDie, ...]


class SimulatedCamera:
    """Renders trays with dice; ``frames()`` yields endless throw sequences (the ``sim`` source)."""

    def __init__(
        self,
        seed: int = 0,
        size: tuple[int, int] = (640, 480),
        die_px: int = 36,
        tray: tuple[int, int, int] = (50, 110, 40),
        noise: float = 2.0,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.w, self.h = size
        self.die_px = die_px
        self.noise = noise
        yy, xx = np.mgrid[0 : self.h, 0 : self.w].astype(np.float32)
        shade = 1.0 - 0.12 * (((xx - self.w / 2) / self.w) ** 2 + ((yy - self.h / 2) / self.h) ** 2)
        self.tray = np.clip(np.array(tray, np.float32)[None, None, :] * shade[:, :, None], 0, 255)
        self._face_cache: dict[tuple[str, str], np.ndarray] = {}
        self.kinds: dict[str, DieKind] = {}

    def register(self, kind: DieKind) -> None:
        """Make a die kind that is not in the data files drawable (tests of custom faces)."""
        self.kinds[kind.id] = kind

    def kind(self, kind_id: str) -> DieKind:
        return self.kinds.get(kind_id) or die_kind(kind_id)

    def random_scene(
        self, kinds: Sequence[str | DieKind], faces: Sequence[str] | None = None
    ) -> list[SimDie]:
        """Dice of ``kinds`` at random non-overlapping places, random faces unless given."""
        out: list[SimDie] = []
        margin = self.die_px * 1.2
        for i, k in enumerate(kinds):
            kind = k if isinstance(k, DieKind) else self.kind(k)
            self.kinds.setdefault(kind.id, kind)
            face = faces[i] if faces else kind.labels[int(self.rng.integers(len(kind.labels)))]
            for _ in range(200):
                x = float(self.rng.uniform(margin, self.w - margin))
                y = float(self.rng.uniform(margin, self.h - margin))
                if all(math.hypot(x - d.x, y - d.y) > self.die_px * 1.8 for d in out):
                    break
            out.append(SimDie(kind.id, face, x, y, float(self.rng.uniform(0, 90))))
        return out

    def _face(self, kind: str, face: str) -> np.ndarray:
        key = (kind, face)
        if key not in self._face_cache:
            self._face_cache[key] = render_face(self.kind(kind), face, 96)
        return self._face_cache[key]

    def render(
        self,
        dice: Sequence[SimDie],
        hand: tuple[float, float] | None = None,
        blur: float = 0.0,
    ) -> np.ndarray:
        """One frame: tray, soft shadows, dice, an optional hand (centre) and motion blur."""
        canvas = self.tray.copy()
        s = self.die_px
        for d in dice:
            cv2.circle(canvas, (round(d.x + 3), round(d.y + 4)), round(s * 0.62), (0, 0, 0), -1)
        canvas = cv2.GaussianBlur(canvas, (0, 0), 3)
        canvas = np.where(canvas < self.tray * 0.7, self.tray * 0.7, canvas)
        for d in dice:
            face = self._face(d.kind, d.face).astype(np.float32)
            m = cv2.getRotationMatrix2D((48, 48), d.angle, s / 96)
            m[0, 2] += d.x - 48
            m[1, 2] += d.y - 48
            warped = cv2.warpAffine(face, m, (self.w, self.h), flags=cv2.INTER_LINEAR)
            alpha = cv2.warpAffine(np.full((96, 96), 1.0, np.float32), m, (self.w, self.h))
            body = np.array(body_colour(d.kind), np.float32)
            # rounded corners of the face image are black: fill them with a darker body edge
            dark = (warped.sum(axis=2) < 1)[:, :, None] & (alpha[:, :, None] > 0.5)
            warped = np.where(dark, body * 0.75, warped)
            canvas = canvas * (1 - alpha[:, :, None]) + warped * alpha[:, :, None]
        if hand is not None:
            hx, hy = hand
            cv2.ellipse(canvas, (round(hx), round(hy)), (120, 80), 30, 0, 360, (120, 150, 205), -1)
            cv2.rectangle(
                canvas, (round(hx), round(hy) - 45), (self.w + 200, round(hy) + 45), (110, 140, 195), -1
            )
        if blur > 0:
            k = max(3, int(blur) | 1)
            canvas = cv2.blur(canvas, (k, 1))
        if self.noise:
            canvas = canvas + self.rng.normal(0, self.noise, canvas.shape).astype(np.float32)
        return np.clip(canvas, 0, 255).astype(np.uint8)

    def throw(
        self,
        kinds: Sequence[str],
        faces: Sequence[str] | None = None,
        still: int = 12,
        empty: int = 4,
    ) -> Iterator[SimFrame]:
        """One throw: empty tray, a hand comes in, dice roll and settle, stay, a hand removes them."""
        final = self.random_scene(kinds, faces)
        for _ in range(empty):
            yield SimFrame(self.render([]), "empty", ())
        for t in np.linspace(0, 1, 4):
            yield SimFrame(self.render([], hand=(self.w + 60 - t * 260, self.h / 2)), "hand", ())
        start = [(self.w - 120.0, self.h / 2 + self.rng.uniform(-40, 40)) for _ in final]
        for t in np.linspace(0.15, 0.95, 6):
            moving = []
            for d, (sx, sy) in zip(final, start, strict=True):
                kind = self.kind(d.kind)
                face = kind.labels[int(self.rng.integers(len(kind.labels)))]
                e = 1 - (1 - t) ** 2
                moving.append(
                    replace(
                        d,
                        face=face,
                        x=sx + (d.x - sx) * e,
                        y=sy + (d.y - sy) * e,
                        angle=d.angle + 300 * (1 - t),
                    )
                )
            yield SimFrame(self.render(moving, blur=8 * (1 - t)), "moving", tuple(moving))
        for _ in range(still):
            yield SimFrame(self.render(final), "still", tuple(final))
        for t in np.linspace(0, 1, 4):
            yield SimFrame(self.render(final, hand=(self.w + 60 - t * 500, self.h / 2)), "hand", tuple(final))
        yield SimFrame(self.render([]), "removed", ())

    def enrolment_photos(self, folder: str | Path, kinds: Sequence[str | DieKind], per_face: int = 3) -> None:
        """Write ``folder/<die id>/<face>/<n>.png``: one die, that face up, the layout ``enroll`` reads."""
        for k in kinds:
            kind = k if isinstance(k, DieKind) else self.kind(k)
            self.kinds.setdefault(kind.id, kind)
            for label in kind.labels:
                d = Path(folder) / kind.id / label
                d.mkdir(parents=True, exist_ok=True)
                for n in range(per_face):
                    scene = self.random_scene([kind.id], [label])
                    cv2.imwrite(str(d / f"{n + 1}.png"), self.render(scene))

    def frames(self, kinds: Sequence[str] = ("d6",) * 5) -> Iterator[np.ndarray]:
        """Endless throws of ``kinds`` (the frames only)."""
        while True:
            for f in self.throw(kinds):
                yield f.image
