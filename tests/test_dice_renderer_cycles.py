"""The path-traced renderer (tools/dicerender/cycles.py): labels where the dice are drawn, one
picture per seed. Runs where Blender's module is installed (``make render-env``, then
``.venv-render/bin/python -m pytest tests/test_dice_renderer_cycles.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("bpy", reason="Blender as a Python module (bpy) is not installed: make render-env")

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))

import cv2  # noqa: E402
import render_dice  # noqa: E402
from dicerender import cycles  # noqa: E402
from dicerender.designs import game_designs  # noqa: E402


def _die(name: str):
    return next(d for d in game_designs() if d.id == name)


def test_a_die_is_drawn_where_its_label_says_with_its_body_colour():
    for seed in range(3):
        rng = np.random.default_rng([77, seed])
        scene = cycles.render_scene(rng, [_die("std-red")], (160, 160), (48.0, 56.0), threads=2)
        (label,) = scene.labels
        x, y = label["top_center"]
        r = label["size_px"] * 0.3
        bgr = scene.image.astype(int)
        redness = bgr[..., 2] - np.maximum(bgr[..., 0], bgr[..., 1])  # a red die, even a washed top
        x0, y0, x1, y1 = label["box"]
        outside = np.ones(redness.shape, bool)
        outside[int(y0) : int(y1) + 1, int(x0) : int(x1) + 1] = False
        top = redness[int(y - r) : int(y + r), int(x - r) : int(x + r)]
        assert top.mean() > redness[outside].mean() + 20, (seed, scene.meta)
        assert x0 < x < x1 and y0 < y < y1


def test_a_scene_is_a_function_of_its_seed(tmp_path):
    (tmp_path / "scenes").mkdir()
    job = (tmp_path, 5, 3, (160, 160), "patches", "cycles", (), 0.1)
    assert render_dice.render_one(job) > 0
    first = cv2.imread(str(tmp_path / "scenes" / "000003.jpg"))
    doc = json.loads((tmp_path / "scenes" / "000003.json").read_text())
    assert doc["engine"] == "cycles" and doc["renderer"] == "cycles"
    for suffix in (".json", ".jpg", ".npz"):
        (tmp_path / "scenes" / f"000003{suffix}").unlink()
    render_dice.render_one(job)
    again = cv2.imread(str(tmp_path / "scenes" / "000003.jpg"))
    assert np.array_equal(first, again)
    assert len(np.load(tmp_path / "scenes" / "000003.npz")["crops"]) == len(doc["dice"])
