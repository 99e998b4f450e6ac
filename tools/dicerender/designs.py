"""Die designs to render: the games' dice from ``companion/data/looks.toml``, and random ones.

A :class:`Design` is what the renderer draws: a solid, colours and one :class:`Art` per face label,
each label with a class name (``look/label``) the face reader learns. Random designs use shapes,
colours, glyphs and symbols the real games do not, so a model learns to tell faces apart rather than
to remember these games' artwork.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

from companion.looks import SHAPE_FACES, Art, all_looks


@dataclass(frozen=True)
class Design:
    id: str
    shape: str
    size_mm: float
    body: tuple[int, int, int]
    ink: tuple[int, int, int]
    labels: tuple[str, ...]
    arts: tuple[Art, ...]
    inks: tuple[tuple[int, int, int], ...]
    game: bool  # one of the games' dice (False: a random design)

    def class_name(self, label: str) -> str:
        return f"{self.id}/{label}"


def game_designs() -> list[Design]:
    """One design per shipped look."""
    out = []
    for look in all_looks().values():
        out.append(
            Design(
                id=look.id,
                shape=look.shape,
                size_mm=look.size_mm,
                body=look.body,
                ink=look.ink,
                labels=look.labels,
                arts=tuple(look.art_for(label) for label in look.labels),
                inks=tuple(look.ink_for(label) for label in look.labels),
                game=True,
            )
        )
    return out


GLYPHS = string.ascii_uppercase + "0123456789" + "#&%@+=?!$"
SYMBOL_KINDS = ("ngon", "ring", "cross", "arrow", "moon", "bar", "diamond", "heart", "spiral", "grid")
GAME_SYMBOLS = ("star", "zap", "triangle", "curve", "dotted-curve")


def _colour(rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(0, 256, 3))


def _luma(c) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def random_design(index: int, seed: int = 7) -> Design:
    """Random design ``index``: a random solid, body and ink with enough contrast, and distinct faces."""
    rng = np.random.default_rng([seed, 991, index])
    shape = str(rng.choice(["d4", "d6", "d6", "d6", "d8", "d10", "d12", "d12", "d20"]))
    n = SHAPE_FACES[shape]
    body = _colour(rng)
    while True:
        ink = _colour(rng) if rng.random() < 0.5 else ((245, 245, 245) if _luma(body) < 128 else (20, 20, 20))
        if abs(_luma(ink) - _luma(body)) > 70:
            break
    arts: list[Art] = []
    seen: set[tuple[str, str]] = set()
    mode = rng.choice(["glyph", "symbol", "mixed", "numbers"])
    while len(arts) < n:
        pick = rng.random()
        if shape == "d4" or mode == "numbers" or (mode == "glyph") or (mode == "mixed" and pick < 0.5):
            if mode == "numbers" or shape == "d4":
                text = str(int(rng.integers(1, 21)))
            else:
                text = "".join(rng.choice(list(GLYPHS), size=int(rng.integers(1, 3))))
            if text in ("6", "9") and rng.random() < 0.7:
                text += "_"
            art = Art("text", text)
        elif pick < 0.75:
            art = Art(str(rng.choice(SYMBOL_KINDS)), str(int(rng.integers(0, 12))))
        elif pick < 0.9:
            art = (
                Art("pips", str(int(rng.integers(1, 7))))
                if shape == "d6"
                else Art("dots", str(int(rng.integers(1, 5))))
            )
        else:
            art = Art(str(rng.choice(GAME_SYMBOLS)))
        key = (art.kind, art.value)
        if key in seen:
            continue
        seen.add(key)
        arts.append(art)
    labels = tuple(f"f{i}" for i in range(n))
    return Design(
        id=f"rand{index:04d}",
        shape=shape,
        size_mm=float(rng.uniform(13, 22)),
        body=body,
        ink=ink,
        labels=labels,
        arts=tuple(arts),
        inks=tuple(ink for _ in range(n)),
        game=False,
    )
