"""Is a located die flat? Its outline, and the tests that find a flat die beside its shadow.

A blob that is not square may be a leaning die (``crooked``), or a flat die with its shadow, or a
flat die of the surface's colour: these tests tell them apart (docs/vision.md, Statuses)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.crop import crop_candidate
from vision.locate import core_shape, disk, label_map
from vision.pips import convex_fill, face_region
from vision.types import Candidate

BODY_CONTRAST = 12.0  # Lab distance from the surface round it under which a blob is the surface's own
# a flat die's core outline (locate.core_shape): short / long side and area / hull area at least
CROOKED_SQUARE = 0.72
CROOKED_SOLID = 0.78
# a non-square blob is a flat die and its shadow when the body-coloured top face is this square and
# the rest is shadow (see shadow_only); body and surface chromaticities must differ by SHADOW_CHROMA
SHADOW_FACE_SQUARE = 0.85
SHADOW_CHROMA = 0.08
# per-pixel shadow (flat_without_shadow): brightness ratio to the surface, chromaticity L1 distances
SHADOW_DARK = 0.15
SHADOW_HUE = 0.1
SHADOW_BODY = 0.06
BODY_HUE = 0.1  # flat_body: body and surface chromaticities at least this far apart (L1)
# a die leans only on something (a wall, a die, an object), which shows in the surface round it
# (_surface_ring): as strong edges (Canny 40/120 after a 3x3 blur) over more than LEAN_EDGES of it, or
# as pixels unlike the surface over more than LEAN_UNLIKE of it (3x3 means: chromaticity at least
# LEAN_HUE from the ring's median (L1), brighter than LEAN_BRIGHT times its brightness, or darker than
# SHADOW_DARK; a die's own shadow, darker with the surface's chromaticity, is the surface). The die
# leaning on a rendered tray's wall: 0.19 edges, 0.39 unlike; flat dice on the real photos' wood,
# cloth and paper: 0.053 and 0.048 at most (docs/benchmarks.md, 2026-11-27, third session)
LEAN_EDGES = 0.1
LEAN_UNLIKE = 0.15
LEAN_HUE = 0.08
LEAN_BRIGHT = 1.25


def body_contrast(image: np.ndarray, cand: Candidate) -> float:
    """Lab distance between the die's body and the surface just around it (0: looks like the table)."""
    h, w = image.shape[:2]
    cx, cy = cand.center
    r_in, r_out = 0.8 * cand.side, 1.3 * cand.side
    xa, ya = max(0, int(cx - r_out)), max(0, int(cy - r_out))
    xb, yb = min(w, int(cx + r_out) + 1), min(h, int(cy + r_out) + 1)
    sub = cv2.cvtColor(image[ya:yb, xa:xb], cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[ya:yb, xa:xb]
    d = np.hypot(xx - cx, yy - cy)
    ring = sub[(d > r_in) & (d < r_out)]
    core = sub[d < 0.45 * cand.side]
    if len(ring) < 5 or len(core) < 3:
        return 0.0
    return float(np.linalg.norm(np.median(core, axis=0) - np.median(ring, axis=0)))


def is_crooked(cand: Candidate) -> bool:
    """A flat die seen from above is a square; a leaning one shows sides and is not. The shape is
    judged without thin appendages (:func:`vision.locate.core_shape`)."""
    if cand.crooked:
        return True
    squareness, solidity = core_shape(cand)
    return squareness < CROOKED_SQUARE or solidity < CROOKED_SOLID


def _surface_ring(mask: np.ndarray, side: float) -> np.ndarray:
    """The surface round a die's ``mask``: a band from 0.15 to 0.45 die sides beyond it (bool)."""
    return (cv2.dilate(mask, disk(0.45 * side)) > 0) & (cv2.dilate(mask, disk(0.15 * side)) == 0)


def nothing_to_lean_on(image: np.ndarray, cand: Candidate, others: list[Candidate]) -> bool:
    """Whether the surface round ``cand`` (0.15 to 0.45 die sides beyond its hull) holds nothing a die
    could lean on: it lies wholly inside ``image``, no blob of ``others`` reaches into it, and it looks
    like one surface (at most LEAN_EDGES of it strong edges, at most LEAN_UNLIKE of it unlike the
    surface: a wall's foot, an object's side). A die with nothing to lean on lies flat, whatever its
    outline shows."""
    reach = round(0.45 * cand.side) + 1
    crop = crop_candidate(image, cand, pad=reach / cand.side)
    (x0, y0), (h, w) = crop.origin, crop.image.shape[:2]
    mh, mw = cand.mask.shape
    if (h, w) != (mh + 2 * reach, mw + 2 * reach):
        return False  # the image's edge cuts the surface round it: what lies beyond is unknown
    ring = _surface_ring(convex_fill(crop.mask), cand.side)
    if not ring.any():
        return False
    if (ring & (label_map(others, image.shape[:2])[y0 : y0 + h, x0 : x0 + w] > 0)).any():
        return False  # another blob reaches into it
    grey = cv2.cvtColor(crop.image, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(grey, (3, 3), 0), 40, 120) > 0
    if float(edges[ring].mean()) > LEAN_EDGES:
        return False
    total, chroma = _brightness_chroma(crop.image)
    light = total / float(np.median(total[ring]))
    hue = np.abs(chroma - np.median(chroma[ring], axis=0)).sum(axis=2)
    unlike = (hue >= LEAN_HUE) | (light > LEAN_BRIGHT) | (light < SHADOW_DARK)
    return float(unlike[ring].mean()) <= LEAN_UNLIKE


def _brightness_chroma(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel of ``image`` (3x3 means): brightness b + g + r, and chromaticity (each channel over it)."""
    f = cv2.blur(image, (3, 3)).astype(np.float32) + 1.0
    total = f.sum(axis=2)
    return total, f / total[:, :, None]


@dataclass(slots=True)
class _Colours:
    """A blob and the surface round it (3x3 means), as the per-pixel shadow tests see them."""

    mask: np.ndarray  # the blob in the crop
    origin: tuple[int, int]  # the crop's top-left corner in the image
    light: np.ndarray  # per pixel: brightness (b + g + r) over the surface's median
    apart: float  # L1 distance between the body's and the surface's median chromaticities
    to_surf: np.ndarray  # per pixel: L1 distance of its chromaticity to the surface's median
    to_body: np.ndarray  # ... and to the body's (the blob's core)


def _colours(image: np.ndarray, cand: Candidate) -> _Colours | None:
    """The blob with room for a ring of surface round it; None when ring or core is too small."""
    crop = crop_candidate(image, cand, pad=0.6)
    ring = _surface_ring(crop.mask, cand.side)
    core = cv2.erode(crop.mask, disk(0.2 * cand.side)) > 0
    if ring.sum() < 10 or core.sum() < 10:
        return None
    total, chroma = _brightness_chroma(crop.image)
    surface, body = np.median(chroma[ring], axis=0), np.median(chroma[core], axis=0)
    return _Colours(
        crop.mask,
        crop.origin,
        total / float(np.median(total[ring])),
        float(np.abs(body - surface).sum()),
        np.abs(chroma - surface).sum(axis=2),
        np.abs(chroma - body).sum(axis=2),
    )


def _flat_piece(part: np.ndarray, cand: Candidate, origin: tuple[int, int], fill: bool) -> bool:
    """True when the largest piece of binary ``part`` (a crop at ``origin``) is at least half a top
    face and a flat die's outline; ``fill``: its holes filled, else kept."""
    cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return False
    c = max(cs, key=cv2.contourArea)
    if cv2.contourArea(c) < 0.5 * cand.side**2:
        return False
    bx, by, bw, bh = cv2.boundingRect(c)
    one = cv2.drawContours(np.zeros_like(part), [c], -1, 255, -1)
    if not fill:
        one &= part
    piece = replace(cand, mask=one[by : by + bh, bx : bx + bw], origin=(origin[0] + bx, origin[1] + by))
    sq, so = core_shape(piece)
    return sq >= CROOKED_SQUARE and so >= CROOKED_SOLID


def flat_beside_shadow(image: np.ndarray, cand: Candidate) -> bool:
    """True when one of the shadow tests finds a flat die in the blob: :func:`shadow_only`,
    :func:`flat_without_shadow` or :func:`flat_body` (the last two share their colour layers)."""
    if shadow_only(image, cand):
        return True
    c = _colours(image, cand)
    return c is not None and (_without_shadow(c, cand) or _body_only(c, cand))


def flat_without_shadow(image: np.ndarray, cand: Candidate) -> bool:
    """True when the blob, without the pixels that look like the surface in shadow, is a flat die.

    Per pixel (3x3 mean), a shadow is the surface round the die, darker (brightness ``SHADOW_DARK``
    to 0.95 of the surface's) with the surface's chromaticity (L1 distance under ``SHADOW_HUE``) and
    at least twice as near to it as to the body's. Unlike :func:`shadow_only` this needs no square
    body-coloured region: a die's rounded, shaded edges keep the body's colour and stay in the mask.
    Body and surface of alike chromaticity (``SHADOW_BODY``) cannot be told apart: False, the die
    stays flagged.
    """
    c = _colours(image, cand)
    return c is not None and _without_shadow(c, cand)


def _without_shadow(c: _Colours, cand: Candidate) -> bool:
    if c.apart < SHADOW_BODY:
        return False  # body and surface alike: a shadow cannot be told from a side face
    hue = (c.to_surf < SHADOW_HUE) & (c.to_surf < 0.5 * c.to_body)
    shadow = (c.mask > 0) & (c.light >= SHADOW_DARK) & (c.light < 0.95) & hue
    clean = np.where(shadow, 0, c.mask).astype(np.uint8)
    clean = cv2.morphologyEx(clean, cv2.MORPH_OPEN, disk(1))
    return _flat_piece(clean, cand, c.origin, fill=False)


def flat_body(image: np.ndarray, cand: Candidate) -> bool:
    """True when the blob's pixels of the body's own chromaticity (holes for pips filled) make a
    flat die's outline: a coloured die's shadow on a grey or white table takes the table's
    chromaticity, however dark, while a side face of the die keeps the body's. Needs body and
    surface of clearly different chromaticity (``BODY_HUE`` apart, L1); else False."""
    c = _colours(image, cand)
    return c is not None and _body_only(c, cand)


def _body_only(c: _Colours, cand: Candidate) -> bool:
    if c.apart < BODY_HUE:
        return False
    body = ((c.mask > 0) & (c.to_body < c.to_surf)).astype(np.uint8) * 255
    return _flat_piece(body, cand, c.origin, fill=True)


def shadow_only(image: np.ndarray, cand: Candidate) -> bool:
    """True when what makes the blob non-square is the die's shadow, not a side of the die.

    The top face is the body-coloured region of the blob (:func:`vision.pips.face_region`); it must be
    square, and the rest of the blob must be darker than the surface round the die and of the
    surface's chromaticity, clearly unlike the body's (a side face keeps the body's chromaticity).
    When body and surface have about the same chromaticity (a white die on white paper) nothing can
    be told apart and the answer is False: the die stays flagged.
    """
    crop = crop_candidate(image, cand, pad=0.6)  # room for the ring of surface round the die
    sub, mask = crop.image, crop.mask
    mask = convex_fill(mask)
    lab = cv2.cvtColor(sub, cv2.COLOR_BGR2LAB)
    face = face_region(lab, mask, cand.side)
    cs, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return False
    c = max(cs, key=cv2.contourArea)
    _, (fw, fh), _ = cv2.minAreaRect(c)
    area = cv2.contourArea(c)
    if min(fw, fh) < SHADOW_FACE_SQUARE * max(fw, fh) or area < 0.5 * cand.side**2:
        return False

    rest = (mask > 0) & (cv2.dilate(face, disk(0.08 * cand.side)) == 0)
    ring = _surface_ring(mask, cand.side)
    light = lab[:, :, 0].astype(np.float32)
    body_l = float(np.median(light[face > 0]))
    body = (face > 0) & (np.abs(light - body_l) < 25)  # the body without its pips
    if rest.sum() < 0.05 * (mask > 0).sum() or ring.sum() < 10 or body.sum() < 10:
        return False
    f = sub.astype(np.float32) + 1.0
    chroma = f / f.sum(axis=2, keepdims=True)
    cb, cf, cr = (np.median(chroma[m], axis=0) for m in (body, ring, rest))
    body_floor = float(np.linalg.norm(cb - cf))
    rest_floor, rest_body = float(np.linalg.norm(cr - cf)), float(np.linalg.norm(cr - cb))
    darker = float(np.median(light[rest])) < float(np.median(light[ring])) - 10
    return body_floor > SHADOW_CHROMA and rest_floor < 0.5 * rest_body and darker
