"""The core imports no outer layer: companion/ must run anywhere."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"vision", "hardware", "ui", "dice_companion", "pygame", "cv2", "gpiozero", "picamera2"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_core_imports_no_outer_layer():
    offenders = {
        str(p.relative_to(ROOT)): sorted(imported_roots(p) & FORBIDDEN)
        for p in (ROOT / "companion").rglob("*.py")
    }
    offenders = {k: v for k, v in offenders.items() if v}
    assert offenders == {}, f"companion/ must not import outer layers: {offenders}"


def test_vision_hardware_ui_do_not_import_the_composition_root():
    for layer in ("vision", "hardware", "ui"):
        for p in (ROOT / layer).rglob("*.py") if (ROOT / layer).exists() else ():
            assert "dice_companion" not in imported_roots(p), p
