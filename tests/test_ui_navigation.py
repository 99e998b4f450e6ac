"""Screens do not import one another nor the app (no import circle through ui/app.py): moving between
screens goes through ui/navigation.py alone."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parent.parent / "ui"
SHARED = {  # drawing pieces, not screens
    "ui.screens.common", "ui.screens.overlays", "ui.screens.table_layout", "ui.screens.table_cues",
    "ui.screens.table_cards", "ui.screens.table_last",
}


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function (TYPE_CHECKING blocks excluded)."""
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    names = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return names


def test_no_screen_imports_another_screen_or_the_app():
    screens = sorted((UI / "screens").glob("*.py"))
    assert len(screens) >= 8
    for path in screens:
        mod = f"ui.screens.{path.stem}"
        bad = {
            m for m in imported(path)
            if m in ("ui.app", "ui.navigation")
            or (m.startswith("ui.screens.") and m not in SHARED | {mod})
        }
        assert not bad, f"{path.name} imports {sorted(bad)}: go through app.nav instead"


def test_the_screen_base_does_not_import_the_app():
    assert "ui.app" not in imported(UI / "screen.py")
    assert {m for m in imported(UI / "navigation.py") if m.startswith("ui.screens.")} >= {
        "ui.screens.home", "ui.screens.table", "ui.screens.endgame", "ui.screens.newgame",
    }
