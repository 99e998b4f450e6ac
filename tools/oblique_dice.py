"""Rendered photos of pipped dice seen obliquely, for training the face classifier (training only).

The simulated camera (vision/simcam.py) draws dice from straight above. Phone photos see them from the
side as well: the top face foreshortened above one or two side faces whose pips are often larger and
rounder than the top face's. This module renders such photos with known top faces: cubes with
rounded corners on a textured table, a pinhole camera 25-90 degrees above the table and upright
(the far side of the table at the top of the photo), one light with soft shadows, opaque or
translucent bodies (the hidden faces' pips showing through), then blur, noise, salt-and-pepper specks,
JPEG and the phone set's stretch to a square.

>>> rng = np.random.default_rng(1)
>>> img, dice = render_photo(rng)
>>> img.shape, all(1 <= d.face <= 6 for d in dice)
((640, 640, 3), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.simcam import PIP_LAYOUT as PIPS  # pips at -1, 0, 1 steps from the centre

TEX = 96  # face texture side, pixels
# body frame: the face whose outward normal is the key carries the value; opposite faces sum to 7
FACES = {
    (0, 0, 1): 1,
    (0, 0, -1): 6,
    (1, 0, 0): 2,
    (-1, 0, 0): 5,
    (0, 1, 0): 3,
    (0, -1, 0): 4,
}
BODIES = [  # BGR body colours, weighted toward the common white die
    (236, 238, 240),
    (236, 238, 240),
    (236, 238, 240),
    (215, 228, 238),
    (30, 30, 30),
    (40, 30, 200),
    (190, 90, 30),
    (60, 140, 40),
    (40, 215, 240),
    (30, 140, 250),
    (150, 50, 110),
    (190, 130, 250),
    (170, 160, 40),
    (120, 120, 120),
]


CORNERS = ((-1, -1), (1, -1), (1, 1), (-1, 1))  # a face's corners in its own axes, half a side out
TEX_CORNERS = np.float32(((0, 0), (TEX - 1, 0), (TEX - 1, TEX - 1), (0, TEX - 1)))  # the same, on a texture


@dataclass(frozen=True, slots=True)
class RenderedDie:
    face: int  # the top face's value
    center: tuple[float, float]  # centre of the die's box in the photo, pixels
    size: float  # the box's longer side, pixels
    visible: float  # share of the die's outline not hidden by nearer dice
    top: tuple[float, float]  # where the centre of its top face lies in the photo, pixels


def _face_texture(
    value: int,
    body: np.ndarray,
    ink: np.ndarray,
    rng: np.random.Generator,
    pip_r: float,
    spread: float,
    red_one: bool,
) -> np.ndarray:
    """One face, ``TEX`` pixels square, float BGR: the body (now and then marbled) and its pips, a lone
    pip of a 1 now and then large and red as on many Asian dice."""
    tex = np.empty((TEX, TEX, 3), np.float32)
    tex[:] = body
    if rng.random() < 0.15:  # marbled or speckled body
        noise = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (TEX, TEX))
        tex += noise[..., None] * rng.uniform(5, 25)
    c = (TEX - 1) / 2
    r = pip_r * TEX * (1.7 if value == 1 and red_one else 1.0)
    colour = np.array((40, 40, 200), np.float32) if value == 1 and red_one else ink
    mask = np.zeros((TEX * 4, TEX * 4), np.uint8)
    for dx, dy in PIPS[value]:
        x, y = c + dx * spread * TEX, c + dy * spread * TEX
        cv2.circle(mask, (int(x * 4), int(y * 4)), int(r * 4), 255, -1, cv2.LINE_AA)
    m = cv2.resize(mask, (TEX, TEX), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    tex = tex * (1 - m) + colour * m
    return tex


def _rounded_mask(radius: float) -> np.ndarray:
    """A face's outline, ``TEX`` pixels square, its corners rounded by ``radius`` of a side (0..1 floats)."""
    m = np.zeros((TEX * 4, TEX * 4), np.uint8)
    r = int(radius * TEX * 4)
    s = TEX * 4 - 1
    cv2.rectangle(m, (r, 0), (s - r, s), 255, -1)
    cv2.rectangle(m, (0, r), (s, s - r), 255, -1)
    for x, y in ((r, r), (s - r, r), (r, s - r), (s - r, s - r)):
        cv2.circle(m, (x, y), r, 255, -1, cv2.LINE_AA)
    return cv2.resize(m, (TEX, TEX), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _rotation_to_top(value: int, yaw: float) -> np.ndarray:
    """The die's rotation (body frame to world) that puts face ``value`` on top, turned ``yaw`` radians."""
    normal = np.array(next(n for n, v in FACES.items() if v == value), np.float64)
    z = np.array((0.0, 0.0, 1.0))
    v = np.cross(normal, z)
    s, c = np.linalg.norm(v), float(normal @ z)
    if s < 1e-9:
        r0 = np.eye(3) if c > 0 else np.diag((1.0, -1.0, -1.0))
    else:
        k = np.array(((0, -v[2], v[1]), (v[2], 0, -v[0]), (-v[1], v[0], 0))) / s
        r0 = np.eye(3) + s * k + (1 - c) * (k @ k)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return np.array(((cy, -sy, 0), (sy, cy, 0), (0, 0, 1))) @ r0


def _table(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A table top, float BGR: plain, wood grain, cloth or a printed board's patches of colour."""
    base = rng.uniform(20, 235, 3)
    low = cv2.resize(rng.normal(0, 1, (rng.integers(3, 9), rng.integers(3, 9), 3)).astype(np.float32), (w, h))
    img = base + low * rng.uniform(0, 30)
    kind = rng.random()
    if kind < 0.3:  # wood grain
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, math.pi)
        t = xx * math.cos(a) + yy * math.sin(a)
        wob = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h)) * rng.uniform(5, 30)
        grain = np.sin((t + wob) / rng.uniform(2, 9))
        img += grain[..., None] * rng.uniform(3, 18)
    elif kind < 0.55:  # cloth
        img += rng.normal(0, rng.uniform(3, 14), (h, w, 1)).astype(np.float32)
    elif kind < 0.7:  # a printed board: patches of colour
        for _ in range(int(rng.integers(2, 8))):
            x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
            cv2.rectangle(
                img,
                (x0, y0),
                (x0 + int(rng.integers(40, 300)), y0 + int(rng.integers(40, 300))),
                tuple(float(v) for v in rng.uniform(20, 235, 3)),
                -1,
            )
    return img.astype(np.float32)


def render_photo(
    rng: np.random.Generator, dice: int | None = None, elevation: tuple[float, float] = (25.0, 90.0)
) -> tuple[np.ndarray, list[RenderedDie]]:
    """One 640x640 BGR photo of ``dice`` (default 1-7, sometimes 8-24 packed) pipped dice and what lies
    on top of each; the camera looks down at an angle drawn from ``elevation`` (degrees above the table)."""
    w = int(rng.choice((640, 800, 853, 480)))
    h = 640
    packed = dice is None and rng.random() < 0.15  # many dice, small and close together
    n = int(dice if dice is not None else rng.integers(8, 25) if packed else rng.integers(1, 8))
    elev = math.radians(rng.uniform(*elevation))
    die_px = rng.uniform(30, 70) if packed else rng.uniform(35, 190)  # a die's side mid-photo, pixels
    f = rng.uniform(500, 1100)
    dist = f / die_px
    target = np.array((0.0, 0.0, 0.0))
    cam = target + dist * np.array((0.0, -math.cos(elev), math.sin(elev)))
    fwd = (target - cam) / np.linalg.norm(target - cam)
    right = np.cross(fwd, (0.0, 0.0, 1.0))
    if np.linalg.norm(right) < 1e-6:
        right = np.array((1.0, 0.0, 0.0))
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    roll = math.radians(rng.normal(0, 6))
    right, down = (
        math.cos(roll) * right + math.sin(roll) * down,
        -math.sin(roll) * right + math.cos(roll) * down,
    )

    def project(p: np.ndarray) -> np.ndarray:
        d = p - cam
        z = d @ fwd
        return np.stack((w / 2 + f * (d @ right) / z, h / 2 + f * (d @ down) / z), -1)

    # table extent seen: spread dice over it, apart from each other
    spread = max(0.2, (0.25 if packed else 0.42) * w / die_px - 0.75)  # dice mostly inside the photo
    depth = max(math.sin(elev), 0.4)  # a low camera sees further across the table
    placed: list[np.ndarray] = []
    for _ in range(600):
        if len(placed) == n:
            break
        p = np.array((rng.uniform(-spread, spread), rng.uniform(-spread, spread) / depth, 0.0))
        if rng.random() < (0.8 if packed else 0.35) and placed:  # touching a die already placed
            q = placed[int(rng.integers(len(placed)))]
            a = rng.uniform(0, 2 * math.pi)
            p = q + rng.uniform(1.05, 1.5) * np.array((math.cos(a), math.sin(a), 0.0))
        if all(np.linalg.norm(p - q) > 1.45 for q in placed):
            placed.append(p)
    light = np.array((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.8, 2.5)))
    light /= np.linalg.norm(light)
    img = _table(w, h, rng)
    # soft shadows first
    shade = np.zeros((h, w), np.float32)
    for p in placed:
        foot = np.array([p + np.array((sx * 0.5, sy * 0.5, 0.0)) for sx, sy in CORNERS])
        cast = foot - np.array((light[0], light[1], 0.0)) / light[2]  # where the top's corners fall
        pts = project(np.concatenate((foot, cast)))
        if np.all(np.isfinite(pts)):
            hull = cv2.convexHull(np.round(pts).astype(np.int32))
            cv2.fillConvexPoly(shade, hull, 1.0, cv2.LINE_AA)
    k = max(3, int(die_px * 0.25) | 1)
    shade = cv2.GaussianBlur(shade, (k, k), 0)
    img *= (1 - rng.uniform(0.2, 0.5) * shade)[..., None]
    ids = np.full((h, w), -1, np.int32)
    out: list[RenderedDie] = []
    order = sorted(range(len(placed)), key=lambda i: -float((placed[i] + (0, 0, 0.5) - cam) @ fwd))
    round_r = rng.uniform(0.08, 0.2)
    rmask = _rounded_mask(round_r)
    infos: dict[int, tuple[int, np.ndarray, np.ndarray]] = {}
    for i in order:
        p = placed[i]
        value = int(rng.integers(1, 7))
        rot = _rotation_to_top(value, rng.uniform(0, 2 * math.pi))
        body = np.array(BODIES[int(rng.integers(len(BODIES)))], np.float32) * rng.uniform(0.8, 1.1)
        body = np.clip(body, 0, 255)
        light_body = float(body.mean()) > 110
        ink = np.array((25, 25, 25) if light_body else (240, 240, 240), np.float32) * rng.uniform(0.8, 1.05)
        if light_body and rng.random() < 0.15:
            ink = np.array(rng.choice(((40, 40, 180), (150, 60, 20), (40, 110, 40))), np.float32)
        translucent = rng.random() < 0.25
        alpha = rng.uniform(0.55, 0.85) if translucent else 1.0
        pip_r = rng.uniform(0.075, 0.12)
        pip_spread = rng.uniform(0.24, 0.3)
        red_one = rng.random() < 0.1
        centre = p + np.array((0.0, 0.0, 0.5))
        faces = []
        for normal, v in FACES.items():
            nb = np.array(normal, np.float64)
            nw = rot @ nb
            u = np.array((nb[1], nb[2], nb[0])) if nb[0] == 0 else np.array((0.0, 1.0, 0.0))
            u = u - (u @ nb) * nb
            u /= np.linalg.norm(u)
            vv = np.cross(nb, u)
            fc = centre + rot @ (0.5 * nb)
            corners = np.array([fc + rot @ (0.5 * (a * u + b * vv)) for a, b in CORNERS])
            facing = float(nw @ (cam - fc)) > 0
            faces.append((facing, nw, v, corners))
        silhouette = np.zeros((h, w), np.float32)
        for back_pass in (False,) if not translucent else (True, False):
            for facing, nw, v, corners in faces:
                if facing == back_pass:
                    continue
                pts = project(corners).astype(np.float32)
                if not np.all(np.isfinite(pts)):
                    continue
                x0, y0 = np.floor(pts.min(0)).astype(int) - 1
                x1, y1 = np.ceil(pts.max(0)).astype(int) + 2
                x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
                if x1 <= x0 or y1 <= y0:
                    continue
                tex = _face_texture(v, body, ink, rng, pip_r, pip_spread, red_one)
                lit = 0.35 + 0.75 * max(0.0, float(nw @ light))
                tex = tex * lit
                hm = cv2.getPerspectiveTransform(TEX_CORNERS, (pts - np.float32((x0, y0))).astype(np.float32))
                size = (x1 - x0, y1 - y0)
                wt = cv2.warpPerspective(tex, hm, size, flags=cv2.INTER_LINEAR)
                wm = cv2.warpPerspective(rmask, hm, size, flags=cv2.INTER_LINEAR)
                a = wm * (alpha if not back_pass else 0.5)
                if back_pass:
                    wt = cv2.GaussianBlur(wt, (0, 0), max(0.5, die_px / 60))
                roi = img[y0:y1, x0:x1]
                roi[:] = roi * (1 - a[..., None]) + wt * a[..., None]
                if not back_pass:
                    silhouette[y0:y1, x0:x1] = np.maximum(silhouette[y0:y1, x0:x1], wm)
        sil = silhouette > 0.5
        ids[sil] = i
        infos[i] = (value, sil, project(centre + np.array((0.0, 0.0, 0.5))))
    for i in range(len(placed)):  # every die was drawn
        value, sil, top = infos[i]
        area = int(sil.sum())
        if area < 30:
            continue
        ys, xs = np.nonzero(sil)
        x0, x1, y0, y1 = xs.min(), xs.max(), ys.min(), ys.max()
        cut = x0 <= 0 or y0 <= 0 or x1 >= w - 1 or y1 >= h - 1  # by the photo's edge: not learnt
        vis = 0.0 if cut else float((ids[sil] == i).sum()) / area
        sx = 640 / w  # the phone set's photos were stretched to 640x640
        box = ((x0 + x1) / 2 * sx, (y0 + y1) / 2)
        size = float(max((x1 - x0) * sx, y1 - y0))
        out.append(RenderedDie(value, box, size, vis, (float(top[0]) * sx, float(top[1]))))
    # the camera
    img = np.clip(img, 0, 255)
    if rng.random() < 0.7:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.6))
    img += rng.normal(0, rng.uniform(1, 7), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if w != 640:
        img = cv2.resize(img, (640, 640), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:  # salt-and-pepper specks
        specks = rng.random(img.shape[:2]) < rng.uniform(0.002, 0.01)
        img[specks] = rng.choice((0, 255), (int(specks.sum()), 1))
    _, buf = cv2.imencode(".jpg", img, (cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))))
    img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img, out
