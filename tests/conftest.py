"""Shared test fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("DICE_COMPANION_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared() -> Path:
    """``../shared`` beside the checkout (rulebooks, real dice photos, rendered throws)."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent: it is beside the checkout in CI, not in a stranger's clone")
    return SHARED
