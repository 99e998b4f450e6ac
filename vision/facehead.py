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
    ``softmax(((x - mean) / scale) @ weights + bias)``, averaged over a die's quarter turns."""

    classes: tuple[tuple[str, str], ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: np.ndarray

    def __post_init__(self) -> None:
        d, c = len(self.mean), len(self.classes)
        shapes = (self.scale.shape, self.weights.shape, self.bias.shape)
        if c < 2 or shapes != ((d,), (d, c), (c,)):
            raise ValueError(f"face head of {c} classes, arrays shaped {shapes} for {d} numbers a descriptor")
        if not all(np.isfinite(a).all() for a in (self.mean, self.scale, self.weights, self.bias)):
            raise ValueError("face head holds numbers that are not finite")
        if (self.scale <= 0).any():
            raise ValueError("face head scales must be positive")

    @cached_property
    def dice(self) -> frozenset[str]:
        """The dice whose faces it tells apart."""
        return frozenset(c[0] for c in self.classes)

    def probabilities(self, descriptors: np.ndarray) -> np.ndarray:
        """(dice, classes) probabilities for descriptors shaped (dice, turns, numbers)."""
        n, turns, d = descriptors.shape
        z = ((descriptors.reshape(-1, d) - self.mean) / self.scale) @ self.weights + self.bias
        return _softmax(z.reshape(n, turns, -1).mean(axis=1))

    def only(self, dice: set[str]) -> FaceHead | None:
        """The head over the faces of these dice alone (the others cannot be on the table: its
        probabilities are then given that the die is one of these); None if fewer than two faces."""
        keep = [i for i, c in enumerate(self.classes) if c[0] in dice]
        if len(keep) == len(self.classes):
            return self
        if len(keep) < 2:
            return None
        classes = tuple(self.classes[i] for i in keep)
        return FaceHead(classes, self.mean, self.scale, self.weights[:, keep], self.bias[keep])

    def arrays(self, prefix: str = "head_") -> dict[str, np.ndarray]:
        """The head as named arrays (to save beside a gallery)."""
        return {
            f"{prefix}dice": np.array([c[0] for c in self.classes]),
            f"{prefix}faces": np.array([c[1] for c in self.classes]),
            f"{prefix}mean": self.mean,
            f"{prefix}scale": self.scale,
            f"{prefix}weights": self.weights,
            f"{prefix}bias": self.bias,
        }

    @classmethod
    def from_arrays(cls, z: dict, prefix: str = "head_") -> FaceHead | None:
        """The head saved by :meth:`arrays` (None if there is none); a damaged one is a ValueError."""
        if f"{prefix}weights" not in z:
            return None
        classes = tuple(zip(map(str, z[f"{prefix}dice"]), map(str, z[f"{prefix}faces"]), strict=True))
        arrays = (np.asarray(z[f"{prefix}{k}"], np.float32) for k in ("mean", "scale", "weights", "bias"))
        return cls(classes, *arrays)


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


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)
