"""The six dice solids as vertices and faces, scaled to a die's size in millimetres.

Each :class:`Solid` has its faces as vertex-index polygons, counter-clockwise seen from outside, so a
face's outward normal is ``(b - a) x (c - a)``. A face's ``up`` is the in-plane direction its artwork's
top points to (towards its first vertex, or its first edge on a d6); a d4's labels sit at vertices.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

PHI = (1 + 5**0.5) / 2


@dataclass(frozen=True)
class Solid:
    shape: str
    vertices: np.ndarray  # (V, 3) float, centred on the origin
    faces: tuple[tuple[int, ...], ...]

    def normal(self, i: int) -> np.ndarray:
        p = self.vertices[list(self.faces[i])]
        n = np.cross(p[1] - p[0], p[2] - p[0])
        return n / np.linalg.norm(n)

    def centroid(self, i: int) -> np.ndarray:
        return self.vertices[list(self.faces[i])].mean(axis=0)

    def up(self, i: int) -> np.ndarray:
        """The unit in-plane direction from the face's centre to the top of its artwork."""
        face = self.faces[i]
        c = self.centroid(i)
        target = self.vertices[face[0]] if self.shape != "d6" else self.vertices[list(face[:2])].mean(axis=0)
        u = target - c
        n = self.normal(i)
        u = u - n * (u @ n)
        return u / np.linalg.norm(u)


def _hull_faces(v: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """The faces of the convex polyhedron with vertices ``v`` (all on its hull), each ordered CCW."""
    faces: list[tuple[int, ...]] = []
    seen: set[frozenset[int]] = set()
    n = len(v)
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                normal = np.cross(v[b] - v[a], v[c] - v[a])
                if np.linalg.norm(normal) < 1e-9:
                    continue
                normal /= np.linalg.norm(normal)
                d = v @ normal - v[a] @ normal
                if (d > 1e-6).any() and (d < -1e-6).any():
                    continue
                if (d > 1e-6).any():
                    normal, d = -normal, -d
                on = frozenset(np.flatnonzero(np.abs(d) < 1e-6).tolist())
                if on in seen:
                    continue
                seen.add(on)
                idx = sorted(on)
                centre = v[idx].mean(axis=0)
                ref = v[idx[0]] - centre
                ref /= np.linalg.norm(ref)
                other = np.cross(normal, ref)
                ang = [np.arctan2((v[i] - centre) @ other, (v[i] - centre) @ ref) for i in idx]
                faces.append(tuple(i for _, i in sorted(zip(ang, idx, strict=True))))
    return tuple(faces)


def _raw(shape: str) -> np.ndarray:
    if shape == "d4":
        return np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], float)
    if shape == "d6":
        return np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    if shape == "d8":
        return np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
    if shape == "d12":
        pts = [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
        for a in (-1, 1):
            for b in (-1, 1):
                pts += [[0, a / PHI, b * PHI], [a / PHI, b * PHI, 0], [a * PHI, 0, b / PHI]]
        return np.array(pts, float)
    if shape == "d20":
        pts = []
        for a in (-1, 1):
            for b in (-1, 1):
                pts += [[0, a, b * PHI], [a, b * PHI, 0], [a * PHI, 0, b]]
        return np.array(pts, float)
    if shape == "d10":
        # pentagonal trapezohedron: apices at +-h, two rings of five at +-a, a set so the kites are flat
        h = 1.0
        c36 = np.cos(np.pi / 5)
        a = h * (1 - c36) / (1 + c36)
        pts = [[0, 0, h], [0, 0, -h]]
        for k in range(5):
            t = 2 * np.pi * k / 5
            pts.append([np.cos(t), np.sin(t), a])
            t2 = t + np.pi / 5
            pts.append([np.cos(t2), np.sin(t2), -a])
        return np.array(pts, float)
    raise ValueError(f"unknown shape {shape!r}")


@cache
def _unit(shape: str) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    v = _raw(shape)
    return v, _hull_faces(v)


def solid(shape: str, size_mm: float) -> Solid:
    """The ``shape`` solid scaled so its extent across (the d6's edge, others' width) is ``size_mm``."""
    v, faces = _unit(shape)
    # a d6's edge; the others' width across, about what a ruler across the die reads
    reach = 1.0 if shape == "d6" else np.linalg.norm(v[:, :2], axis=1).max() * 0.9
    scale = size_mm / (2 * reach)
    out = Solid(shape, v * scale, faces)
    return out
