"""Rendering one scene: dice at rest on a tray surface, seen by a camera above it, with labels.

A light rasteriser in numpy and OpenCV, no 3D package: every face of a convex die is a plane, so its
artwork (a texture drawn by :mod:`art`) maps into the picture by one homography. Faces are lit by a
directional key light plus ambient light (Lambert shading, a specular sheen on glossy bodies), then
shaded within: sunk ink, rims curving into the bevel, the room's lights reflected in glossy bodies.
Rounded edges are the die's silhouette showing between inset faces, lit on the light's side; dice
cast soft shadows and a contact shadow on the surface, and the picture then goes through a camera:
white balance, exposure, vignetting, blur, now and then shake, sensor noise and JPEG. Dice rest on a
face, some touch, and some lean against a neighbour or the tray's wall (``crooked``: top face more
than 12 degrees from level).

Everything random comes from the ``rng`` a scene is given, so a scene is a function of its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from . import art as artmod
from .designs import Design
from .shapes import Solid, solid

TEX = 128  # texture side, pixels
CROOKED_DEG = 12.0
SCALE = 1  # supersampling (1: none; textures are filtered to their size on the picture instead)
# a texture pixel's place from the texture's centre, in half-widths (-1 to 1): x right, y down
_TY, _TX = (np.mgrid[0:TEX, 0:TEX].astype(np.float32) - TEX / 2) / (TEX / 2)


@dataclass
class Camera:
    f: float  # focal length, pixels (in the supersampled picture)
    cx: float
    cy: float
    R: np.ndarray  # world -> camera rotation
    C: np.ndarray  # camera centre, world mm
    k1: float = 0.0

    def project(self, p: np.ndarray) -> np.ndarray:
        q = (p - self.C) @ self.R.T
        z = q[..., 2:3]
        xy = q[..., :2] / z
        if self.k1:
            r2 = (xy**2).sum(axis=-1, keepdims=True)
            xy = xy * (1 + self.k1 * r2)
        return xy * self.f + np.array([self.cx, self.cy])

    def ground(self, uv: np.ndarray) -> np.ndarray:
        """Pixels back onto the ground plane z = 0 (ignoring lens distortion)."""
        d = np.concatenate(
            [(uv - np.array([self.cx, self.cy])) / self.f, np.ones((*uv.shape[:-1], 1))], axis=-1
        )
        dw = d @ self.R  # camera -> world
        t = -self.C[2] / dw[..., 2:3]
        return self.C + t * dw


@dataclass
class Placed:
    design: Design
    solid: Solid
    R: np.ndarray  # body -> world rotation
    t: np.ndarray  # world position of the body origin, mm
    perm: tuple[int, ...]  # label index of each solid face (d4: of each vertex)
    style: dict = field(default_factory=dict)

    def world(self) -> np.ndarray:
        return self.solid.vertices @ self.R.T + self.t


def rot_to(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The rotation taking unit vector ``a`` to unit vector ``b``."""
    v = np.cross(a, b)
    c = float(a @ b)
    if np.linalg.norm(v) < 1e-9:
        if c > 0:
            return np.eye(3)
        axis = np.cross(a, [1, 0, 0]) if abs(a[0]) < 0.9 else np.cross(a, [0, 1, 0])
        axis /= np.linalg.norm(axis)
        return rot_axis(axis, np.pi)
    vx = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + vx + vx @ vx * (1 / (1 + c))


def rot_axis(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def top_label(p: Placed) -> tuple[int, float]:
    """The label index read on the die (top face; d4: top vertex) and its tilt from level, degrees."""
    s = p.solid
    if s.shape == "d4":
        v = s.vertices @ p.R.T
        i = int(np.argmax(v[:, 2]))
        tilt = np.degrees(np.arccos(np.clip(v[i] @ [0, 0, 1] / np.linalg.norm(v[i]), -1, 1)))
        return p.perm[i], float(tilt)
    i = top_face(p)
    up = (p.R @ s.normal(i))[2]
    return p.perm[i], float(np.degrees(np.arccos(np.clip(up, -1, 1))))


def top_face(p: Placed) -> int:
    """The index of the face whose outward normal points most nearly up."""
    s = p.solid
    normals = np.array([s.normal(i) for i in range(len(s.faces))]) @ p.R.T
    return int(np.argmax(normals[:, 2]))


# ---------------------------------------------------------------- textures


def face_polygon(s: Solid, fi: int) -> tuple[np.ndarray, float]:
    """Where face ``fi`` lies on its texture: its vertices (in the face's order) as texture pixels
    (x right, y down; the artwork's top up, the face's centroid at the texture's centre), and mm per
    texture pixel."""
    c = s.centroid(fi)
    up = s.up(fi)
    right = np.cross(up, s.normal(fi))
    pts = s.vertices[list(s.faces[fi])] - c
    local = np.stack([pts @ right, pts @ up], axis=1)
    mm_per_px = 2 * np.abs(local).max() * 1.02 / TEX
    return np.stack([TEX / 2 + local[:, 0] / mm_per_px, TEX / 2 - local[:, 1] / mm_per_px], axis=1), mm_per_px


def face_texture(p: Placed, fi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Face ``fi`` of ``p``: RGB texture (float 0-1), ink alpha, face-polygon mask, mm per texture px."""
    s = p.solid
    face = s.faces[fi]
    poly, mm_per_px = face_polygon(s, fi)
    bevel = p.style.get("bevel", 0.1)
    inset = TEX / 2 + (poly - TEX / 2) * (1 - bevel)
    mask = np.zeros((TEX, TEX), np.uint8)
    cv2.fillPoly(mask, [np.round(inset * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    rounding = int(p.style.get("round", 0.0) * TEX / 2 * 0.6)
    if rounding >= 2:  # corners rounded: an opening by a disc rounds every convex corner
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rounding + 1, 2 * rounding + 1))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc)
    d = p.design
    body = np.array(d.body, np.float32) / 255.0
    tex = np.empty((TEX, TEX, 3), np.float32)
    tex[:] = body
    if p.style.get("marble", 0) > 0:
        tex *= 1 + p.style["marble_field"][:TEX, :TEX, None] * p.style["marble"]
    alpha = np.zeros((TEX, TEX), np.uint8)
    # inscribed radius of the (inset) face
    edges = np.roll(inset, -1, axis=0) - inset
    dists = []
    for a, e in zip(inset, edges, strict=True):
        nn = np.array([-e[1], e[0]]) / (np.linalg.norm(e) + 1e-9)
        dists.append(abs((np.array([TEX / 2, TEX / 2]) - a) @ nn))
    r_in = min(dists)
    colour_layer = None
    inkc = None
    if s.shape == "d4":
        # three labels, one near each corner, their tops towards that corner; how large and how near
        # the corner varies from die to die (real d4s print small marks in the corner or numerals
        # filling half the face), drawn from the die's own seed so every face of it agrees
        d4 = np.random.default_rng([int(p.style.get("seed", 0)), 4])
        reach, height = d4.uniform(0.35, 0.6), d4.uniform(0.5, 1.25)
        for vi, corner in zip(face, poly, strict=True):
            toward = corner - TEX / 2
            ang = np.degrees(np.arctan2(toward[0], -toward[1]))
            pos = np.array([TEX / 2, TEX / 2]) + toward * reach
            li = p.perm[vi]
            artmod.ink_mask(alpha, d.arts[li], tuple(pos), r_in * height, ang, p.style)
        inkc = np.array(d.inks[0], np.float32) / 255.0
    else:
        li = p.perm[fi]
        spin = p.style.get("spin", {}).get(fi, 0.0)
        size = {"d6": 0.95, "d8": 0.95, "d10": 0.9, "d12": 0.95, "d20": 1.0}[s.shape]
        centre = (TEX / 2, TEX / 2 + (r_in * 0.12 if s.shape in ("d8", "d20") else 0.0))
        colour_layer = artmod.ink_mask(alpha, d.arts[li], centre, r_in * size, spin, p.style)
        inkc = np.array(d.inks[li], np.float32) / 255.0
    a = (alpha.astype(np.float32) / 255.0)[..., None]
    if colour_layer is not None:
        tex = tex * (1 - a) + colour_layer.astype(np.float32) / 255.0 * a
    else:
        ink = inkc * 0.85 if p.style.get("engraved", False) else inkc
        tex = tex * (1 - a) + ink * a
    return tex, alpha, mask, mm_per_px


# ---------------------------------------------------------------- surfaces


def surface(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, str]:
    """A tray surface (float RGB 0-1) and its name."""
    kind = str(rng.choice(["felt", "felt", "wood", "paper", "rubber", "cloth", "plain", "mat"]))

    def small(s: int) -> np.ndarray:
        """Smooth noise varying over about ``s`` pixels."""
        noise = rng.standard_normal((max(2, h // s), max(2, w // s))).astype(np.float32)
        return cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)

    if kind == "felt":
        base = rng.choice(
            [
                [0.10, 0.40, 0.15],
                [0.10, 0.20, 0.45],
                [0.45, 0.08, 0.10],
                [0.15, 0.15, 0.15],
                [0.35, 0.10, 0.40],
                [0.05, 0.30, 0.32],
            ]
        ) * rng.uniform(0.6, 1.3)
        tex = 1 + 0.06 * small(64) + 0.05 * rng.standard_normal((h, w)).astype(np.float32)
    elif kind == "wood":
        base = np.array([0.62, 0.42, 0.22]) * rng.uniform(0.5, 1.3)
        y = np.arange(h, dtype=np.float32)[:, None] + 30 * small(128)
        freq = rng.uniform(0.03, 0.12)
        tex = (
            1
            + 0.12 * np.sin(y * freq + 3 * small(256))
            + 0.04 * rng.standard_normal((h, w)).astype(np.float32)
        )
        if rng.random() < 0.5:
            tex = tex.T[:h, :w] if w <= h else cv2.resize(tex.T, (w, h))
    elif kind == "paper":
        base = np.array([0.92, 0.90, 0.86]) * rng.uniform(0.8, 1.05)
        tex = 1 + 0.02 * small(32) + 0.02 * rng.standard_normal((h, w)).astype(np.float32)
    elif kind == "rubber":
        base = np.array([0.14, 0.14, 0.15]) * rng.uniform(0.6, 1.6)
        tex = 1 + 0.08 * small(16) + 0.06 * rng.standard_normal((h, w)).astype(np.float32)
    elif kind == "cloth":
        base = rng.uniform(0.1, 0.8, 3)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(6, 40)
        tex = 1 + 0.08 * np.sign(np.sin(xx / period * np.pi) * np.sin(yy / period * np.pi)) + 0.05 * small(8)
    elif kind == "mat":
        base = rng.uniform(0.2, 0.9, 3)
        tex = 1 + 0.03 * small(64) + 0.03 * rng.standard_normal((h, w)).astype(np.float32)
    else:
        base = rng.uniform(0.05, 0.95, 3)
        tex = 1 + 0.02 * small(128)
    img = np.clip(np.asarray(base, np.float32)[None, None, :] * tex[..., None], 0, 1)
    return img.astype(np.float32), kind


def add_walls(rng: np.random.Generator, img: np.ndarray, floor: np.ndarray) -> None:
    """Tray walls: the picture outside the tray's floor (``floor``, an image polygon) shows a wall top."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(floor * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    wall, _ = surface(rng, h, w)
    wall *= rng.uniform(0.5, 1.0)
    m = (mask.astype(np.float32) / 255.0)[..., None]
    # the wall's inner face in shade along the floor's edge
    edge = cv2.GaussianBlur(255 - mask, (0, 0), 6 * SCALE).astype(np.float32) / 255.0
    img *= 1 - 0.35 * edge[..., None] * m
    img[:] = img * m + wall * (1 - m)


# ---------------------------------------------------------------- the scene


@dataclass
class Scene:
    image: np.ndarray  # uint8 BGR, final size
    labels: list[dict]
    meta: dict


def _camera(rng: np.random.Generator, w: int, h: int, px_per_mm: float) -> Camera:
    height = rng.uniform(280, 650)
    f = px_per_mm * height
    tilt = np.radians(min(15.0, abs(rng.normal(0, 6))))
    az = rng.uniform(0, 2 * np.pi)
    base = np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1]], float)  # looking straight down, north up
    axis = np.array([np.cos(az), np.sin(az), 0.0])
    Rt = rot_axis(axis, tilt)
    # camera centre so the optical axis meets the ground near the origin
    view = Rt @ np.array([0, 0, -1.0])
    C = np.array([height * view[0] / view[2], height * view[1] / view[2], height])
    R = base @ Rt.T
    spin = rng.uniform(0, 2 * np.pi) if rng.random() < 0.5 else rng.choice([0, np.pi / 2, np.pi, 1.5 * np.pi])
    Rz = np.array([[np.cos(spin), -np.sin(spin), 0], [np.sin(spin), np.cos(spin), 0], [0, 0, 1]])
    R = Rz @ R
    k1 = rng.uniform(-0.12, 0.05) if rng.random() < 0.4 else 0.0
    return Camera(f=f * SCALE, cx=w * SCALE / 2, cy=h * SCALE / 2, R=R, C=C, k1=k1)


def _style(rng: np.random.Generator) -> dict:
    return {
        "font": int(rng.integers(0, artmod.n_fonts())),
        "bold": bool(rng.random() < 0.6),
        "pip": float(rng.uniform(0.14, 0.24)),
        "weight": float(rng.uniform(0.08, 0.16)),
        "text": float(rng.uniform(0.8, 1.1)),
        "bevel": float(rng.uniform(0.04, 0.18)),
        "gloss": float(rng.uniform(0, 1) ** 2),
        "marble": float(rng.uniform(0.05, 0.25)) if rng.random() < 0.12 else 0.0,
        "engraved": bool(rng.random() < 0.3),
        # paint sunk into the body: its walls shade on the side away from the light
        "sunk": float(rng.uniform(0.5, 3.0)) if rng.random() < 0.7 else 0.0,
        # the face's corners rounded into the bevel (a share of the face's half-width)
        "round": float(rng.uniform(0.05, 0.35)),
        # the room's lights reflected in a glossy body: washes the face towards the light's colour
        "sheen": float(rng.uniform(0, 1) ** 1.5) if rng.random() < 0.75 else 0.0,
        "seed": int(rng.integers(2**31)),
    }


def _rest_pose(rng: np.random.Generator, s: Solid) -> np.ndarray:
    """A rotation resting ``s`` on a random face, turned a random amount about the vertical."""
    fi = int(rng.integers(len(s.faces)))
    R = rot_to(s.normal(fi), np.array([0.0, 0.0, -1.0]))
    yaw = rng.uniform(0, 2 * np.pi)
    Rz = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    return Rz @ R


def place_dice(
    rng: np.random.Generator,
    designs: list[Design],
    cam: Camera,
    rect: np.ndarray,
    shuffle: float = 0.0,
    lean: float = 0.1,
    walls: bool = False,
) -> list[Placed]:
    """Dice at rest on the floor seen in image rectangle ``rect`` (x0, y0, x1, y1): apart, touching or
    leaning (each die with chance ``lean``: tilted towards the die it touches, against the tray's
    wall at the rectangle's edge if ``walls`` show, or any way). A random design's faces are laid out
    at random; a game die's with chance ``shuffle`` (real dice of one look differ in which face sits
    next to which, so a model must read the top face rather than learn its neighbours)."""
    placed: list[Placed] = []
    for d in designs:
        s = solid(d.shape, d.size_mm)
        radius = np.linalg.norm(s.vertices, axis=1).max()
        perm = tuple(range(len(s.vertices) if d.shape == "d4" else len(s.faces)))
        if not d.game or (shuffle > 0 and rng.random() < shuffle):
            perm = tuple(int(i) for i in rng.permutation(len(perm)))
        style = _style(rng)
        style["spin"] = {
            fi: float(rng.choice([0, 0, 0, 90, 180, 270]) if d.shape == "d6" else 0.0)
            for fi in range(len(s.faces))
        }
        if style["marble"]:
            f = rng.standard_normal((16, 16)).astype(np.float32)
            style["marble_field"] = cv2.resize(f, (TEX, TEX), interpolation=cv2.INTER_CUBIC) * 0.5
        R = _rest_pose(rng, s)
        leans = rng.random() < lean
        for _ in range(60):
            towards = None  # the direction of the die it touches
            if placed and (rng.random() < 0.35 or (leans and rng.random() < 0.6)):
                # touch (or lean on) a die already placed
                other = placed[int(rng.integers(len(placed)))]
                orad = np.linalg.norm(other.solid.vertices, axis=1).max()
                ang = rng.uniform(0, 2 * np.pi)
                gap = (radius + orad) * rng.uniform(0.72, 0.95)
                xy = other.t[:2] + gap * np.array([np.cos(ang), np.sin(ang)])
                towards = ang + np.pi
            elif leans and walls and rng.random() < 0.7:
                xy, towards = _by_wall(rng, cam, rect, radius)
            else:
                m = radius * cam.f / cam.C[2] * 1.1
                m = min(m, (rect[2] - rect[0]) / 2 - 1, (rect[3] - rect[1]) / 2 - 1)  # a small picture
                uv = np.array([rng.uniform(rect[0] + m, rect[2] - m), rng.uniform(rect[1] + m, rect[3] - m)])
                xy = cam.ground(uv)[:2]
            Rl = R
            if leans:
                # the top tips towards the direction ``a``: at the die it rests on, if any
                a = rng.uniform(0, 2 * np.pi) if towards is None else towards + rng.normal(0, 0.3)
                axis = np.array([-np.sin(a), np.cos(a), 0])
                Rl = rot_axis(axis, np.radians(rng.uniform(14, 40))) @ R
            v = s.vertices @ Rl.T
            t = np.array([xy[0], xy[1], -v[:, 2].min()])
            if leans:
                t[2] += rng.uniform(0, 0.25) * radius
            cand = Placed(d, s, Rl, t, perm, style)
            if all(_apart(cand, q) for q in placed):
                placed.append(cand)
                break
    return placed


def _by_wall(
    rng: np.random.Generator, cam: Camera, rect: np.ndarray, radius: float
) -> tuple[np.ndarray, float]:
    """A floor point by one of the walls at the edges of picture rectangle ``rect``, a die's
    ``radius`` (mm) in from it, and the direction (radians, on the floor) towards that wall."""
    x0, y0, x1, y1 = rect
    inset = radius * cam.f / cam.C[2] * rng.uniform(0.6, 0.9)
    side = int(rng.integers(4))
    along = rng.uniform(0.1, 0.9)
    edge = [(x0, y0 + along * (y1 - y0)), (x1, y0 + along * (y1 - y0)),
            (x0 + along * (x1 - x0), y0), (x0 + along * (x1 - x0), y1)][side]
    inward = [(1, 0), (-1, 0), (0, 1), (0, -1)][side]
    at_wall = cam.ground(np.array(edge, float))[:2]
    xy = cam.ground(np.array(edge, float) + inset * np.array(inward, float))[:2]
    out = at_wall - xy
    return xy, float(np.arctan2(out[1], out[0]))


def _apart(a: Placed, b: Placed) -> bool:
    """The two dice's footprints (convex hulls seen from above) do not overlap by much."""
    pa = a.world()[:, :2].astype(np.float32)
    pb = b.world()[:, :2].astype(np.float32)
    ha, hb = cv2.convexHull(pa), cv2.convexHull(pb)
    inter, _ = cv2.intersectConvexConvex(ha, hb)
    return inter < 0.03 * min(cv2.contourArea(ha), cv2.contourArea(hb))


def scene_frame(
    rng: np.random.Generator, size: tuple[int, int], die_px_range: tuple[float, float]
) -> tuple[float, Camera, bool, np.ndarray]:
    """What a scene's picture frames, drawn the same way by every engine: a 16 mm die's width in px
    (log-uniform in ``die_px_range``), the camera, whether the tray's walls show, and the tray's
    floor as a picture rectangle (x0, y0, x1, y1; supersampled px), a little less than the whole
    picture where the walls show at its edges."""
    w, h = size
    W, H = w * SCALE, h * SCALE
    lo, hi = die_px_range
    die_px = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    cam = _camera(rng, w, h, die_px / 16.0)
    walls = bool(rng.random() < 0.55)
    sx, sy = (rng.uniform(0.82, 0.97), rng.uniform(0.82, 0.97)) if walls else (1.0, 1.0)
    rect = np.array([W / 2 * (1 - sx), H / 2 * (1 - sy), W / 2 * (1 + sx), H / 2 * (1 + sy)])
    return die_px, cam, walls, rect


def render_scene(
    rng: np.random.Generator,
    designs: list[Design],
    size: tuple[int, int] = (640, 480),
    die_px_range: tuple[float, float] = (22.0, 64.0),
    shuffle: float = 0.0,
    lean: float = 0.1,
) -> Scene:
    """A picture of ``designs`` thrown on a random surface, and each die's label. ``die_px_range``:
    how wide a 16 mm die may look (drawn log-uniformly); ``shuffle``, ``lean``: see :func:`place_dice`."""
    w, h = size
    W, H = w * SCALE, h * SCALE
    die_px, cam, walls, rect = scene_frame(rng, size, die_px_range)
    img, surf = surface(rng, H, W)
    if walls:
        add_walls(rng, img, rect[[0, 1, 2, 1, 2, 3, 0, 3]].reshape(4, 2))
    # light: a key light from above at an angle, an ambient fill, a colour temperature
    elev = np.radians(rng.uniform(35, 88))
    az = rng.uniform(0, 2 * np.pi)
    L = np.array([np.cos(elev) * np.cos(az), np.cos(elev) * np.sin(az), np.sin(elev)])
    ambient = rng.uniform(0.3, 0.6)
    key = rng.uniform(0.5, 0.9)
    tint = np.array([1.0, 1.0, 1.0]) + rng.normal(0, 0.06, 3)
    # light falloff across the tray (a lamp off to one side)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    g = rng.normal(0, 0.25, 2)
    falloff = 1 + g[0] * (xx / W - 0.5) + g[1] * (yy / H - 0.5)
    img *= ((ambient + key * L[2]) * falloff)[..., None] * tint[None, None, ::-1]
    dice = place_dice(rng, designs, cam, rect, shuffle, lean, walls)
    # shadows first, on the surface: each die's cast shadow, and a thin dark line of contact shadow
    # where it meets the floor
    shadow = np.zeros((H, W), np.uint8)
    contact = np.zeros((H, W), np.uint8)
    for p in dice:
        v = p.world()
        low = v[:, 2] < 0.5
        g_pts = v - L[None, :] * (v[:, 2:3] / L[2])
        pts = np.concatenate([v[low], g_pts])
        pts[:, 2] = 0
        hull = cv2.convexHull(cam.project(pts).astype(np.float32))
        cv2.fillPoly(shadow, [np.round(hull[:, 0] * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        foot = v[low] if low.sum() >= 3 else v[np.argsort(v[:, 2])[:3]]
        hull = cv2.convexHull(cam.project(foot * [1, 1, 0]).astype(np.float32))
        cv2.fillPoly(contact, [np.round(hull[:, 0] * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    soft = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(1.5, 6) * SCALE).astype(np.float32) / 255.0
    if rng.random() < 0.5:  # a path tracer's grain, strongest where the light is least
        soft *= 1 + rng.uniform(0.1, 0.5) * rng.standard_normal(soft.shape).astype(np.float32)
    img *= np.clip(1 - rng.uniform(0.35, 0.7) * soft, 0, 1)[..., None]
    contact = cv2.GaussianBlur(contact, (0, 0), rng.uniform(0.8, 2.0) * SCALE).astype(np.float32) / 255.0
    img *= (1 - rng.uniform(0.3, 0.7) * contact)[..., None]
    env = float(rng.uniform(0.2, 0.9))  # how bright the lights a glossy die reflects are
    # dice, farthest from the camera first
    order = sorted(dice, key=lambda p: -np.linalg.norm(p.t - cam.C))
    view_dir = lambda pt: (cam.C - pt) / np.linalg.norm(cam.C - pt)  # noqa: E731
    labels_by_id = {}
    for p in order:
        _draw_die(img, p, cam, L, ambient, key, tint, view_dir, env)
    for p in dice:
        labels_by_id[id(p)] = _label(p, cam)
    img = np.clip(img, 0, 1)
    out = _camera_effects(rng, img, w, h)
    labels = [labels_by_id[id(p)] for p in dice]
    meta = {
        "surface": surf,
        "walls": walls,
        "light_elevation": float(np.degrees(elev)),
        "camera_height_mm": float(cam.C[2]),
        "tilt_deg": float(np.degrees(np.arccos(-cam.R[2, 2]))),
        "die_px": die_px,
    }
    return Scene(out, labels, meta)


def _relief(lit, ink, mask, light, style: dict, key: float) -> np.ndarray:
    """Sunk ink and rounded rims on a face's texture. ``light``: the key light's direction along the
    texture's x and y axes. A sunk pip or numeral shades its wall on the side the light comes from and
    catches the light on the far wall; the face's rim, curving into the bevel, catches it on the
    light's side and darkens on the other."""
    depth = style.get("sunk", 0.0)
    out = lit
    if depth > 0:
        h = cv2.GaussianBlur(ink.astype(np.float32) / 255.0, (0, 0), 1.5)
        gx = cv2.Sobel(h, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(h, cv2.CV_32F, 0, 1, ksize=3)
        # a pit is ink raised negatively: its slope faces the light where the ink's gradient does not
        slope = gx * light[0] + gy * light[1]
        out = out * np.clip(1 + 0.25 * depth * key * slope, 0.3, 1.6)[..., None]
    m = mask.astype(np.float32) / 255.0
    inner = cv2.erode(m, np.ones((7, 7), np.uint8))
    rim = np.clip(m - inner, 0, 1)
    towards = _TX * light[0] + _TY * light[1]
    return out * (1 + 0.5 * key * rim * np.clip(towards, -1, 1))[..., None]


def _sheen(style: dict, n_w: np.ndarray, env: float, fi: int) -> np.ndarray:
    """The room's lights reflected in a glossy face: an even wash with a gradient across the face (an
    area light's reflection seldom covers a face evenly), strongest on faces turned up at the lights."""
    strength = env * style.get("sheen", 0.0) * max(0.0, float(n_w[2])) ** 2
    if strength <= 0.01:
        return np.zeros((TEX, TEX), np.float32)
    rng = np.random.default_rng([style.get("seed", 0), fi])
    ang = rng.uniform(0, 2 * np.pi)
    ramp = _TX * np.cos(ang) + _TY * np.sin(ang)
    wash = strength * rng.uniform(0.3, 1.0) * (1 + rng.uniform(0, 0.9) * ramp)
    return np.clip(wash, 0, None).astype(np.float32)


def _draw_die(img, p: Placed, cam: Camera, L, ambient, key, tint, view_dir, env: float = 0.0) -> None:
    H, W = img.shape[:2]
    v = p.world()
    uv = cam.project(v)
    hull = cv2.convexHull(uv.astype(np.float32))[:, 0]
    x0, y0 = np.floor(uv.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(uv.max(axis=0)).astype(int) + 2
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    body = np.array(p.design.body, np.float32)[::-1] / 255.0  # BGR
    gloss = p.style.get("gloss", 0.3)
    # silhouette: the rounded edges, lit about as a face half-turned to the light
    m = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillPoly(m, [np.round((hull - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    a = (m.astype(np.float32) / 255.0)[..., None]
    # the rounded edges turn outwards: lit on the side towards the light, in shade on the other
    centre = cam.project(p.t[None])[0] - [x0, y0]
    radius = max(1.0, float(np.linalg.norm(hull - [x0, y0] - centre, axis=1).max()))
    yy, xx = np.mgrid[0 : y1 - y0, 0 : x1 - x0].astype(np.float32)
    towards = (cam.R @ L)[:2]
    out = ((xx - centre[0]) * towards[0] + (yy - centre[1]) * towards[1]) / radius
    edge_shade = ambient + key * np.clip(0.5 * max(0.2, L[2]) + 0.7 * out, 0.05, 1.0)
    roi[:] = roi * (1 - a) + body[None, None, :] * (edge_shade[..., None] * tint[::-1]) * a
    s = p.solid
    for fi in range(len(s.faces)):
        n_w = p.R @ s.normal(fi)
        c_w = p.R @ s.centroid(fi) + p.t
        vd = view_dir(c_w)
        if n_w @ vd <= 0.02:
            continue
        tex, ink, mask, mmpp = face_texture(p, fi)
        tex = tex[..., ::-1]  # BGR
        up = p.R @ s.up(fi)
        right = np.cross(up, n_w)
        diffuse = max(0.0, float(n_w @ L))
        hvec = (L + vd) / np.linalg.norm(L + vd)
        spec = gloss * (max(0.0, float(n_w @ hvec)) ** 60) * 0.25
        shade = (ambient + key * diffuse) * tint[::-1]
        lit = tex * shade[None, None, :]
        lit = _relief(lit, ink, mask, np.array([L @ right, -(L @ up)]), p.style, key)
        lit = lit + spec + _sheen(p.style, n_w, env, fi)[..., None] * tint[None, None, ::-1]
        # texture corners -> image
        half = TEX / 2 * mmpp
        corners3 = np.array(
            [
                c_w - right * half + up * half,
                c_w + right * half + up * half,
                c_w + right * half - up * half,
                c_w - right * half - up * half,
            ]
        )
        dst = cam.project(corners3) - np.array([x0, y0])
        src = np.array([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]], np.float32)
        # the texture filtered down to about twice its size on the picture first (no aliasing)
        span = float(np.linalg.norm(dst[1] - dst[0]) + np.linalg.norm(dst[2] - dst[1])) / 2
        side = int(np.clip(2 * span, 8, TEX))
        if side < TEX:
            lit = cv2.resize(lit.astype(np.float32), (side, side), interpolation=cv2.INTER_AREA)
            mask = cv2.resize(mask, (side, side), interpolation=cv2.INTER_AREA)
        src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) if side < TEX else src
        Hm = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(lit.astype(np.float32), Hm, size, flags=cv2.INTER_LINEAR)
        wm = cv2.warpPerspective(mask, Hm, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255.0
        roi[:] = roi * (1 - wm) + warped * wm
    if gloss > 0.4 and np.random.default_rng(int(abs(p.t[0] * 1000))).random() < 0.5:
        # a glint where the key light reflects off a glossy die
        c = cam.project(p.t[None])[0] - [x0, y0]
        spot = np.zeros(roi.shape[:2], np.float32)
        cv2.circle(
            spot,
            (int(c[0] + (x1 - x0) * 0.15), int(c[1] - (y1 - y0) * 0.15)),
            max(1, (x1 - x0) // 10),
            1.0,
            -1,
        )
        spot = cv2.GaussianBlur(spot, (0, 0), max(1, (x1 - x0) / 14))
        roi += (spot * gloss * 0.6)[..., None] * a


def _label(p: Placed, cam: Camera) -> dict:
    li, tilt = top_label(p)
    s = p.solid
    v = p.world()
    uv = cam.project(v) / SCALE
    fi = top_face(p)
    if s.shape == "d4":
        vi = int(np.argmax((s.vertices @ p.R.T)[:, 2]))
        top_c = cam.project(v[vi][None])[0] / SCALE
    else:
        top_c = cam.project((p.R @ s.centroid(fi) + p.t)[None])[0] / SCALE
        face_uv = cam.project(v[list(s.faces[fi])]) / SCALE
    centre = cam.project(p.t[None])[0] / SCALE
    up_w = p.R @ s.up(fi)
    cw = p.R @ s.centroid(fi) + p.t
    a, b = cam.project(np.array([cw, cw + up_w]))
    up_angle = float(np.degrees(np.arctan2(b[0] - a[0], -(b[1] - a[1]))))
    x0, y0 = uv.min(axis=0)
    x1, y1 = uv.max(axis=0)
    (ex, ey), er = cv2.minEnclosingCircle(uv.astype(np.float32))
    # the top face's width (d4: an edge's length), as the shared development sets measure it
    size_px = float(np.linalg.norm(uv[0] - uv[1])) if s.shape == "d4" else float(np.ptp(face_uv[:, 0]))
    d = p.design
    return {
        "kind": d.id,
        "face": d.labels[li],
        "class": d.class_name(d.labels[li]),
        "game": d.game,
        "shape": s.shape,
        "center": [round(float(centre[0]), 1), round(float(centre[1]), 1)],
        "top_center": [round(float(top_c[0]), 1), round(float(top_c[1]), 1)],
        "box": [round(float(x0), 1), round(float(y0), 1), round(float(x1), 1), round(float(y1), 1)],
        "disc": [round(float(ex), 1), round(float(ey), 1), round(float(2 * er), 1)],
        "tilt": round(tilt, 1),
        "crooked": bool(tilt > CROOKED_DEG),
        "size_px": round(size_px, 1),
        "up_angle": round(up_angle, 1),
    }


def shake(img: np.ndarray, length: int, angle: float) -> np.ndarray:
    """``img`` as a camera that moves ``length`` px along ``angle`` (radians) while its shutter is
    open sees it: each point drawn out into a line that long (shorter than 2 px: unchanged)."""
    if length < 2:
        return img
    kern = np.zeros((length, length), np.float32)
    c, dx, dy = length / 2, np.cos(angle) * length / 2, np.sin(angle) * length / 2
    cv2.line(kern, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, 1)
    return cv2.filter2D(img, -1, kern / kern.sum())


def _camera_effects(rng: np.random.Generator, img: np.ndarray, w: int, h: int) -> np.ndarray:
    """Supersampled linear picture -> the camera's 8-bit BGR frame."""
    if rng.random() < 0.06:  # camera shake (dice are read at rest)
        k = int(rng.integers(3, 6)) * SCALE
        img = shake(img, k, rng.uniform(0, np.pi))
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    sigma = rng.uniform(0, 0.9) if rng.random() < 0.6 else 0.0
    if sigma > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    wb = 1 + rng.normal(0, 0.07, 3)
    exposure = float(np.exp(rng.normal(0, 0.3)))
    img = img * wb[None, None, :] * exposure
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    img *= (1 - rng.uniform(0, 0.35) * r2)[..., None]
    img = np.clip(img, 0, 1) ** rng.uniform(0.8, 1.2)
    out = img * 255.0
    out += rng.normal(0, rng.uniform(0.5, 6.0), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    q = int(rng.integers(45, 96))
    _, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)
