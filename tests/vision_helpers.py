"""Small real inputs for the vision tests: a square die's candidate; the repo's scripts as modules."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from vision.types import Candidate


def square(x0: int, y0: int, side: int = 40, crooked: bool = False) -> Candidate:
    """A located flat die: a ``side`` x ``side`` square blob whose top-left corner is at (x0, y0)."""
    mask = np.full((side, side), 255, np.uint8)
    box = np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], np.float32)
    return Candidate((x0 + side / 2, y0 + side / 2), float(side), box, 0.0, mask, (x0, y0), 1.0, 1.0, crooked)


def load_script(path: Path) -> ModuleType:
    """A script outside the packages (tools/, bench/) imported as a module named after its file, once."""
    if path.stem in sys.modules:
        return sys.modules[path.stem]
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module
