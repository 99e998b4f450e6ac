"""An enrolled set's own face classifier: its faces told apart by a linear head fitted at enrolment.

The face reader's embedding places every face of every die in one space, learnt on this project's
renders; a set's photos come from the player's own dice, camera and light. Enrolment therefore also
fits, in numpy and in a few seconds, a softmax classifier over the set's faces alone, on the
network's ``descriptor`` (``facereader.DESCRIPTOR`` numbers: the last feature map's mean and its
centre cell) of each photo's die seen many ways (:func:`vision.sets.views`: turned, shifted and
rescaled as the locator errs, relit, washed by a sheen, blurred, noised, JPEG-compressed). Its
probability tells how sure a reading is where the embedding's cosine margins are too small to say
(docs/vision.md, "Name"). No network is retrained: the head is four arrays saved with the set.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

L2 = 2e-3  # weight decay: the head stays unsure of what the photos did not show
STEPS = 400  # full-batch Adam steps (about 2 s for 300 photos on one core)
RATE = 0.05


@dataclass(frozen=True)
class FaceHead:
    """Softmax over ``classes`` ((die, face) pairs) of standardised descriptors:
    ``softmax(((x - mean) / scale) @ weights + bias)``, averaged over a die's quarter turns; with a
    ``temperature`` per class (:func:`calibrated`), the logits of a view divided by that of the
    class it names first (a die whose photos the head did not generalise across speaks softer)."""

    classes: tuple[tuple[str, str], ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: np.ndarray
    temperature: np.ndarray | None = None

    def __post_init__(self) -> None:
        d, c = len(self.mean), len(self.classes)
        shapes = (self.scale.shape, self.weights.shape, self.bias.shape)
        if c < 2 or shapes != ((d,), (d, c), (c,)):
            raise ValueError(f"face head of {c} classes, arrays shaped {shapes} for {d} numbers a descriptor")
        if not all(np.isfinite(a).all() for a in (self.mean, self.scale, self.weights, self.bias)):
            raise ValueError("face head holds numbers that are not finite")
        if (self.scale <= 0).any():
            raise ValueError("face head scales must be positive")
        t = self.temperature
        if t is not None and (t.shape != (c,) or not np.isfinite(t).all() or (t < 1).any()):
            raise ValueError(f"face head temperatures must be {c} finite numbers of 1 or more")

    @cached_property
    def dice(self) -> frozenset[str]:
        """The dice whose faces it tells apart."""
        return frozenset(c[0] for c in self.classes)

    def logits(self, descriptors: np.ndarray) -> np.ndarray:
        """(dice, classes) logits, untempered, for descriptors shaped (dice, turns, numbers): the
        turns' mean."""
        n, turns, d = descriptors.shape
        z = ((descriptors.reshape(-1, d) - self.mean) / self.scale) @ self.weights + self.bias
        return z.reshape(n, turns, -1).mean(axis=1)

    def probabilities(self, descriptors: np.ndarray) -> np.ndarray:
        """(dice, classes) probabilities for descriptors shaped (dice, turns, numbers)."""
        z = self.logits(descriptors)
        if self.temperature is not None:
            z = z / self.temperature[z.argmax(axis=1)][:, None]
        return _softmax(z)

    def only(self, dice: set[str]) -> FaceHead | None:
        """The head over the faces of these dice alone (the others cannot be on the table: its
        probabilities are then given that the die is one of these); None if fewer than two faces."""
        keep = [i for i, c in enumerate(self.classes) if c[0] in dice]
        if len(keep) == len(self.classes):
            return self
        if len(keep) < 2:
            return None
        classes = tuple(self.classes[i] for i in keep)
        t = None if self.temperature is None else self.temperature[keep]
        return FaceHead(classes, self.mean, self.scale, self.weights[:, keep], self.bias[keep], t)

    def arrays(self, prefix: str = "head_") -> dict[str, np.ndarray]:
        """The head as named arrays (to save beside a gallery)."""
        return {
            f"{prefix}dice": np.array([c[0] for c in self.classes]),
            f"{prefix}faces": np.array([c[1] for c in self.classes]),
            f"{prefix}mean": self.mean,
            f"{prefix}scale": self.scale,
            f"{prefix}weights": self.weights,
            f"{prefix}bias": self.bias,
        } | ({} if self.temperature is None else {f"{prefix}temperature": self.temperature})

    @classmethod
    def from_arrays(cls, z: dict, prefix: str = "head_") -> FaceHead | None:
        """The head saved by :meth:`arrays` (None if there is none); a damaged one is a ValueError."""
        if f"{prefix}weights" not in z:
            return None
        classes = tuple(zip(map(str, z[f"{prefix}dice"]), map(str, z[f"{prefix}faces"]), strict=True))
        arrays = (np.asarray(z[f"{prefix}{k}"], np.float32) for k in ("mean", "scale", "weights", "bias"))
        t = np.asarray(z[f"{prefix}temperature"], np.float32) if f"{prefix}temperature" in z else None
        return cls(classes, *arrays, t)


def fit(
    descriptors: np.ndarray, labels: list[tuple[str, str]], l2: float = L2, steps: int = STEPS
) -> FaceHead:
    """The head for descriptors shaped (views, turns, numbers), one (die, face) label a view: each
    turn of each view one example; multinomial logistic regression, full batch, Adam."""
    classes = tuple(sorted(set(labels)))
    if len(classes) < 2:
        raise ValueError(f"a face head needs two faces or more, not {len(classes)}")
    _, turns, d = descriptors.shape
    index = {c: i for i, c in enumerate(classes)}
    y = np.repeat(np.array([index[c] for c in labels]), turns)
    x = descriptors.reshape(-1, d).astype(np.float64)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    x = (x - mean) / scale
    target = np.eye(len(classes))[y]
    w, b = np.zeros((d, len(classes))), np.zeros(len(classes))
    moments = [np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)]
    for t in range(1, steps + 1):
        g = (_softmax(x @ w + b) - target) / len(x)
        for p, grad, m, v in ((w, x.T @ g + l2 * w, *moments[:2]), (b, g.sum(axis=0), *moments[2:])):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            p -= RATE * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    f32 = np.float32
    return FaceHead(classes, mean.astype(f32), scale.astype(f32), w.astype(f32), b.astype(f32))


def calibrated(descriptors: np.ndarray, labels: list[tuple[str, str]], photos: list[int]) -> FaceHead:
    """:func:`fit`, with each die's temperature (:func:`temperatures`) for its faces: a view the head
    reads as a face of a die whose photos, one held out at a time, it did not read right from the
    others gets a flatter say, so that a sure wrong face does not outweigh the set's other opinions."""
    head = fit(descriptors, labels)
    t = temperatures(descriptors, labels, photos)
    per_class = np.array([t.get(die, 1.0) for die, _ in head.classes], np.float32)
    return FaceHead(head.classes, head.mean, head.scale, head.weights, head.bias, per_class)


#: the temperatures tried per die (1: the head as fitted)
TEMPERATURES = (1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)


def temperatures(
    descriptors: np.ndarray, labels: list[tuple[str, str]], photos: list[int]
) -> dict[str, float]:
    """Per die, the temperature (of :data:`TEMPERATURES`) under which the head's chances of the right
    face are likeliest on photos it was not fitted on: each photo number (``photos``: a view's photo
    among its face's photos, 0, 1, ...) held out in turn, the head fitted on the rest read its views.
    A die with one photo a face, or whose faces are held out with none left, keeps 1."""
    photo = np.asarray(photos)
    held: dict[str, list[tuple[np.ndarray, int]]] = {}
    for k in sorted(set(photos)):
        train = photo != k
        kept = [lab for lab, t in zip(labels, train, strict=True) if t]
        if len(set(kept)) < 2:
            continue
        head = fit(descriptors[train], kept)
        index = {c: i for i, c in enumerate(head.classes)}
        rows = [i for i in np.flatnonzero(~train) if labels[i] in index]
        if not rows:
            continue
        for i, zi in zip(rows, head.logits(descriptors[rows]), strict=True):
            held.setdefault(labels[i][0], []).append((zi, index[labels[i]]))
    out = {}
    for die, rows in held.items():
        z = np.stack([r[0] for r in rows])
        y = np.array([r[1] for r in rows])
        nll = [-np.log(_softmax(z / t)[np.arange(len(y)), y] + 1e-12).mean() for t in TEMPERATURES]
        out[die] = TEMPERATURES[int(np.argmin(nll))]
    return out


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)
