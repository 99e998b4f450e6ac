"""Salt-and-pepper noise: lone pixels set to black or white.

Some phone pipelines and the augmentation of public dice datasets sprinkle such pixels over a photo. On
a die they look like tiny pips (black specks on a white die) or glints, and they upset the pip
reader's tests for ghost pips and stray ink. A speck is a pixel near black or white that differs
strongly from the median of its 3x3 neighbourhood. Noise of this kind is nearly all such specks, while
a real photo's sharp details (glints on glossy dice, printed edges) jump by as much at middling grey
levels too: a photo whose jumps are at least SPECKLE_PURE specks, and at least SPECKLE_MIN of its
pixels (and SPECKLE_COUNT), has each speck replaced by that median, every other pixel left as it is
(a switching median filter).
"""

from __future__ import annotations

import cv2
import numpy as np

SPECKLE_MIN = 0.001  # part of the pixels: fewer specks (a real camera's frame) are left alone
SPECKLE_COUNT = 50  # ... and at least this many (a small crop's few glints are not noise)
SPECKLE_PURE = 0.5  # part of the strong jumps that are specks
SPECKLE_JUMP = 60  # grey levels between a speck and its neighbourhood's median
DARK, LIGHT = 40, 215  # a speck is darker or lighter than these


def specks(image: np.ndarray) -> tuple[np.ndarray, int]:
    """The speck mask of a BGR ``image``, and how many pixels jump from their neighbourhood at all."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    jump = np.abs(grey.astype(np.int16) - cv2.medianBlur(grey, 3)) > SPECKLE_JUMP
    return jump & ((grey < DARK) | (grey > LIGHT)), int(np.count_nonzero(jump))


def salt_and_pepper(mask: np.ndarray, jumps: int) -> bool:
    """Whether the specks of ``mask`` (out of ``jumps``) are noise sprinkled over the photo."""
    n = int(np.count_nonzero(mask))
    return n >= max(SPECKLE_COUNT, SPECKLE_MIN * mask.size) and n >= SPECKLE_PURE * jumps


def despeckle(image: np.ndarray) -> np.ndarray:
    """``image`` with its salt-and-pepper specks replaced by their neighbourhood's median; the image
    itself when it holds no such noise."""
    mask, jumps = specks(image)
    if not salt_and_pepper(mask, jumps):
        return image
    out = image.copy()
    out[mask] = cv2.medianBlur(image, 3)[mask]
    return out
