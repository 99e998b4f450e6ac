"""Face artwork drawn into a face's texture: pips, numerals in several fonts, symbols, disco balls.

Everything is drawn as an alpha mask first (``ink_mask``), so the same artwork can be inked in any
colour and lit by the renderer. Coordinates are in texture pixels, y down; ``up`` is the angle in
degrees (image convention, 0 = the glyph's top towards -y) the artwork's top points to.
"""

from __future__ import annotations

import glob
import os
from functools import cache

import cv2
import numpy as np

from companion.looks import Art

HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)


@cache
def ttf_fonts() -> tuple[str, ...]:
    """TrueType fonts to draw numerals with: pygame's own, plus the system's bold and plain sans/serif."""
    found: list[str] = []
    try:
        import pygame

        found.append(os.path.join(os.path.dirname(pygame.__file__), "freesansbold.ttf"))
    except ImportError:
        pass
    for pattern in ("/usr/share/fonts/truetype/*/*.ttf",):
        for path in sorted(glob.glob(pattern)):
            name = os.path.basename(path)
            if "Math" in name or "ExtraLight" in name:
                continue
            found.append(path)
    return tuple(p for p in found if os.path.exists(p))


def n_fonts() -> int:
    return len(ttf_fonts()) + len(HERSHEY)


@cache
def _freetype(path: str):
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    return pygame.freetype.Font(path, 96)


@cache
def glyph_mask(text: str, font: int, bold: bool = False) -> np.ndarray:
    """``text`` drawn white on black, cropped to its ink (uint8), about 96 px high, by font index."""
    fonts = ttf_fonts()
    if font < len(fonts):
        f = _freetype(fonts[font])
        f.strong = bold
        surf, _ = f.render(text, (255, 255, 255), (0, 0, 0))
        import pygame

        arr = pygame.surfarray.array3d(surf)[:, :, 0].T.copy()
    else:
        hf = HERSHEY[(font - len(fonts)) % len(HERSHEY)]
        thick = 9 if bold else 6
        (w, h), base = cv2.getTextSize(text, hf, 3.0, thick)
        arr = np.zeros((h + base + 20, w + 20), np.uint8)
        cv2.putText(arr, text, (10, h + 10), hf, 3.0, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(arr > 40)
    if len(ys) == 0:
        return np.zeros((8, 8), np.uint8)
    return arr[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def paste(alpha: np.ndarray, mask: np.ndarray, center: tuple[float, float], height: float, up: float) -> None:
    """Max-blend ``mask`` scaled to ``height`` px and turned so its top points ``up`` into ``alpha``."""
    mh, mw = mask.shape
    s = height / mh
    m = cv2.getRotationMatrix2D((mw / 2, mh / 2), -up, s)
    m[0, 2] += center[0] - mw / 2
    m[1, 2] += center[1] - mh / 2
    out = cv2.warpAffine(mask, m, (alpha.shape[1], alpha.shape[0]), flags=cv2.INTER_LINEAR)
    np.maximum(alpha, out, out=alpha)


def _rot(points: np.ndarray, up: float) -> np.ndarray:
    t = np.deg2rad(up)
    c, s = np.cos(t), np.sin(t)
    return points @ np.array([[c, s], [-s, c]])


def _poly(alpha: np.ndarray, pts: np.ndarray, center, r: float, up: float) -> None:
    p = _rot(pts * r, up) + np.array(center)
    cv2.fillPoly(alpha, [np.round(p * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)


def _circle(alpha: np.ndarray, c, r: float) -> None:
    cv2.circle(alpha, (round(c[0] * 16), round(c[1] * 16)), max(1, round(r * 16)), 255, -1, cv2.LINE_AA, 4)


STAR = np.array(
    [
        [
            np.sin(k * np.pi / 5) * (1.0 if k % 2 == 0 else 0.42),
            -np.cos(k * np.pi / 5) * (1.0 if k % 2 == 0 else 0.42),
        ]
        for k in range(10)
    ]
)
ZAP = np.array(
    [[0.05, -1.0], [0.55, -1.0], [0.2, -0.2], [0.6, -0.2], [-0.3, 1.0], [-0.05, 0.12], [-0.5, 0.12]]
)
TRIANGLE = np.array([[0.0, -0.95], [0.85, 0.55], [-0.85, 0.55]])

PIP_SPOTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _arc(alpha: np.ndarray, center, r: float, up: float, dotted: bool, weight: float) -> None:
    """A curved arrow: an arc of about 200 degrees with a head at its end."""
    angles = np.linspace(np.deg2rad(200), np.deg2rad(-10), 40)
    rr = 0.55 * r
    pts = np.stack([np.cos(angles) * rr, -np.sin(angles) * rr + 0.15 * r], axis=1)
    pts = _rot(pts, up) + np.array(center)
    w = max(1.0, weight * r)
    if dotted:
        for p in pts[::6][:-1]:
            _circle(alpha, p, w * 0.75)
    else:
        cv2.polylines(
            alpha, [np.round(pts * 16).astype(np.int32)], False, 255, max(1, round(w * 1.2)), cv2.LINE_AA, 4
        )
    end, before = pts[-1], pts[-4]
    d = end - before
    d /= np.linalg.norm(d) + 1e-9
    nrm = np.array([-d[1], d[0]])
    head = np.array([end + d * w * 2.2, end + nrm * w * 2.0, end - nrm * w * 2.0])
    cv2.fillPoly(alpha, [np.round(head * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)


def ink_mask(
    alpha: np.ndarray,
    art: Art,
    center: tuple[float, float],
    radius: float,
    up: float,
    style: dict,
) -> np.ndarray | None:
    """Draw ``art`` within ``radius`` of ``center`` into ``alpha``; returns a colour layer for disco balls
    (whose colour is their own), else None. ``style``: font, bold, pip (pip size), weight (strokes)."""
    kind, value = art.kind, art.value
    if kind == "pips":
        n = int(value)
        step = radius * 0.52
        pr = radius * style.get("pip", 0.2)
        for sx, sy in PIP_SPOTS[n]:
            p = _rot(np.array([[sx * step, sy * step]]), up)[0] + np.array(center)
            _circle(alpha, p, pr)
    elif kind == "dots":
        n = int(value)
        # dots as large as the pips of the same style, or smaller where a row of them must fit the face
        pr = radius * min(1.2 * style.get("pip", 0.2), 1.7 / (2.6 * (n - 1) + 2))
        gap = pr * 2.6
        xs = (np.arange(n) - (n - 1) / 2) * gap
        for x in xs:
            p = _rot(np.array([[x, 0.0]]), up)[0] + np.array(center)
            _circle(alpha, p, pr)
    elif kind == "text":
        text = value.rstrip("_")
        underline = value.endswith("_")
        mask = glyph_mask(text, style.get("font", 0) % n_fonts(), style.get("bold", False))
        h = radius * (1.05 if len(text) == 1 else 0.85) * style.get("text", 1.0)
        aspect = mask.shape[1] / mask.shape[0]
        if aspect * h > 1.7 * radius:
            h = 1.7 * radius / aspect
        shift = -0.12 * h if underline else 0.0
        c = _rot(np.array([[0.0, shift]]), up)[0] + np.array(center)
        paste(alpha, mask, tuple(c), h, up)
        if underline:
            w = aspect * h * 0.8
            bar = np.array([[-w / 2, 0.45 * h], [w / 2, 0.45 * h], [w / 2, 0.55 * h], [-w / 2, 0.55 * h]])
            p = _rot(bar, up) + np.array(center)
            cv2.fillPoly(alpha, [np.round(p * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    elif kind == "star":
        _poly(alpha, STAR, center, radius * 0.85, up)
    elif kind == "zap":
        _poly(alpha, ZAP, center, radius * 0.8, up)
    elif kind == "triangle":
        _poly(alpha, TRIANGLE, center, radius * 0.75, up)
    elif kind in ("curve", "dotted-curve"):
        _arc(alpha, center, radius, up, kind == "dotted-curve", style.get("weight", 0.12))
    elif kind == "disco":
        colour = tuple(int(value[i : i + 2], 16) for i in (1, 3, 5))
        layer = np.zeros((*alpha.shape, 3), np.uint8)
        ball = np.zeros_like(alpha)
        r = radius * 0.7
        _circle(ball, center, r)
        layer[:] = colour
        # mirror tiles: a darker grid on the ball, and a light glint
        grid = np.zeros_like(alpha)
        for k in np.linspace(-r, r, 6):
            a = _rot(np.array([[k, -r], [k, r]]), up) + np.array(center)
            b = _rot(np.array([[-r, k], [r, k]]), up) + np.array(center)
            for seg in (a, b):
                cv2.line(
                    grid,
                    tuple(np.round(seg[0]).astype(int)),
                    tuple(np.round(seg[1]).astype(int)),
                    255,
                    max(1, round(r * 0.06)),
                    cv2.LINE_AA,
                )
        shade = (grid.astype(np.float32) / 255.0 * 0.45)[..., None]
        layer = (layer.astype(np.float32) * (1 - shade)).astype(np.uint8)
        glint = _rot(np.array([[-0.35 * r, -0.35 * r]]), up)[0] + np.array(center)
        cv2.circle(
            layer,
            tuple(np.round(glint).astype(int)),
            max(1, round(r * 0.18)),
            (255, 255, 255),
            -1,
            cv2.LINE_AA,
        )
        np.maximum(alpha, ball, out=alpha)
        # a hanger line above the ball
        top = _rot(np.array([[0, -r], [0, -r * 1.35]]), up) + np.array(center)
        cv2.line(
            alpha,
            tuple(np.round(top[0]).astype(int)),
            tuple(np.round(top[1]).astype(int)),
            255,
            max(1, round(r * 0.08)),
            cv2.LINE_AA,
        )
        return layer
    else:  # random designs: shapes by name
        _random_symbol(alpha, kind, value, center, radius, up)
    return None


RANDOM_SYMBOLS = ("ngon", "ring", "cross", "arrow", "moon", "bar", "diamond", "heart", "spiral", "grid")


def _random_symbol(alpha: np.ndarray, kind: str, value: str, center, radius: float, up: float) -> None:
    k = int(value or 0)
    r = radius * 0.8
    c = np.array(center)
    if kind == "ngon":
        n = 3 + k % 6
        pts = np.array([[np.sin(2 * np.pi * i / n), -np.cos(2 * np.pi * i / n)] for i in range(n)])
        _poly(alpha, pts, center, r, up)
    elif kind == "ring":
        _circle(alpha, c, r * 0.8)
        hole = np.zeros_like(alpha)
        _circle(hole, c, r * (0.35 + 0.1 * (k % 3)))
        alpha[hole > 0] = 0
    elif kind == "cross":
        w = 0.18 + 0.06 * (k % 3)
        for pts in (
            np.array([[-w, -1], [w, -1], [w, 1], [-w, 1]]),
            np.array([[-1, -w], [1, -w], [1, w], [-1, w]]),
        ):
            _poly(alpha, pts, center, r, up + 45 * (k % 2))
    elif kind == "arrow":
        pts = np.array(
            [[0, -1], [0.7, -0.2], [0.25, -0.2], [0.25, 1], [-0.25, 1], [-0.25, -0.2], [-0.7, -0.2]]
        )
        _poly(alpha, pts, center, r, up + 90 * (k % 4))
    elif kind == "moon":
        _circle(alpha, c, r * 0.8)
        off = _rot(np.array([[0.35 * r, -0.2 * r]]), up + 60 * k)[0] + c
        hole = np.zeros_like(alpha)
        _circle(hole, off, r * 0.7)
        alpha[hole > 0] = 0
    elif kind == "bar":
        n = 1 + k % 3
        for i in range(n):
            y = (i - (n - 1) / 2) * 0.55
            _poly(
                alpha,
                np.array([[-0.9, y - 0.15], [0.9, y - 0.15], [0.9, y + 0.15], [-0.9, y + 0.15]]),
                center,
                r,
                up,
            )
    elif kind == "diamond":
        _poly(
            alpha,
            np.array([[0, -1], [0.55 + 0.1 * (k % 3), 0], [0, 1], [-0.55 - 0.1 * (k % 3), 0]]),
            center,
            r,
            up,
        )
    elif kind == "heart":
        t = np.linspace(0, 2 * np.pi, 40)
        pts = np.stack(
            [np.sin(t) ** 3, -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) / 16],
            axis=1,
        )
        _poly(alpha, pts, center, r * 0.9, up + 180 * (k % 2))
    elif kind == "spiral":
        t = np.linspace(0, 4 * np.pi, 80)
        rr = t / (4 * np.pi) * r
        pts = np.stack([np.cos(t) * rr, np.sin(t) * rr], axis=1)
        pts = _rot(pts, up) + c
        cv2.polylines(
            alpha, [np.round(pts * 16).astype(np.int32)], False, 255, max(1, round(r * 0.15)), cv2.LINE_AA, 4
        )
    elif kind == "grid":
        n = 2 + k % 2
        for i in range(n):
            for j in range(n):
                p = _rot(np.array([[(i - (n - 1) / 2) * 0.7 * r, (j - (n - 1) / 2) * 0.7 * r]]), up)[0] + c
                _circle(alpha, p, r * 0.16)
    else:
        raise ValueError(f"unknown art {kind!r}")
