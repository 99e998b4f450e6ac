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


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """`make fuzz`: the cases tried per surface by tests/test_fuzz.py, and whether any failed."""
    import sys

    fuzz = sys.modules.get("tests.test_fuzz") or sys.modules.get("test_fuzz")
    if fuzz is None or not getattr(fuzz, "CASES", None):
        return
    failed = {r.nodeid.split("::")[-1] for r in terminalreporter.stats.get("failed", [])
              if "test_fuzz" in r.nodeid}
    terminalreporter.section("fuzz: cases tried per surface")
    for surface, n in sorted(fuzz.CASES.items()):
        terminalreporter.write_line(f"{surface:<15} {n:>7} cases")
    names = f" ({', '.join(sorted(failed))})" if failed else ""
    terminalreporter.write_line(f"failed: {len(failed)}{names}")
