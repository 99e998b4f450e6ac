"""The dice renderer (tools/dicerender, tools/render_dice.py): solids, labels and determinism."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))

from dicerender.designs import game_designs, random_design  # noqa: E402
from dicerender.render import Placed, rot_to, shake, top_label  # noqa: E402
from dicerender.shapes import solid  # noqa: E402

SHAPES = {
    "d4": (4, 4, 6),
    "d6": (6, 8, 12),
    "d8": (8, 6, 12),
    "d10": (10, 12, 20),
    "d12": (12, 20, 30),
    "d20": (20, 12, 30),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_each_solid_is_a_closed_convex_polyhedron_with_outward_faces(shape):
    s = solid(shape, 16.0)
    faces, vertices, edges = SHAPES[shape]
    assert len(s.faces) == faces
    assert len(s.vertices) == vertices
    assert len({frozenset((f[i], f[(i + 1) % len(f)])) for f in s.faces for i in range(len(f))}) == edges
    for i, face in enumerate(s.faces):
        n = s.normal(i)
        assert n @ s.centroid(i) > 0  # outward
        assert np.allclose((s.vertices[list(face)] - s.centroid(i)) @ n, 0, atol=1e-6)  # flat
        assert abs(s.up(i) @ n) < 1e-9


@pytest.mark.parametrize("shape", SHAPES)
def test_a_die_resting_on_a_face_reads_the_face_pointing_up(shape):
    s = solid(shape, 16.0)
    design = next(d for d in game_designs() + [random_design(i) for i in range(40)] if d.shape == shape)
    n_labels = len(s.vertices) if shape == "d4" else len(s.faces)
    perm = tuple(range(n_labels))
    for down in range(len(s.faces)):
        R = rot_to(s.normal(down), np.array([0.0, 0.0, -1.0]))
        label, tilt = top_label(Placed(design, s, R, np.zeros(3), perm))
        if shape == "d4":
            # the vertex not on the face it rests on
            assert label == ({0, 1, 2, 3} - set(s.faces[down])).pop()
            assert tilt < 1e-3
        else:
            # every other solid is centrally symmetric: the face up is the one opposite (the d10 too)
            opposite = int(np.argmin([s.normal(i) @ s.normal(down) for i in range(len(s.faces))]))
            assert label == opposite
            assert tilt < 1e-3


def test_a_scene_is_a_function_of_its_seed_and_index(tmp_path):
    import render_dice

    for out in (tmp_path / "a", tmp_path / "b"):
        (out / "scenes").mkdir(parents=True)
        assert render_dice.render_one((out, 5, 3, (320, 240), "throws", "raster", (), 0.1)) > 0
    a = (tmp_path / "a" / "scenes" / "000003.jpg").read_bytes()
    b = (tmp_path / "b" / "scenes" / "000003.jpg").read_bytes()
    assert a == b
    doc = json.loads((tmp_path / "a" / "scenes" / "000003.json").read_text())
    crops = np.load(tmp_path / "a" / "scenes" / "000003.npz")["crops"]
    assert len(crops) == len(doc["dice"])
    # a 16 mm die as wide, in a picture half as wide, as in a 640 px one: half as many px (22-64 there)
    assert 11.0 <= doc["die_px"] <= 32.0
    for d in doc["dice"]:
        diameter = d["disc"][2]
        assert 0 < diameter < 320
        assert d["class"] == f"{d['kind']}/{d['face']}"
        assert d["crooked"] == (d["tilt"] > 12)
    # a scene already on disk is kept, not rendered again
    assert render_dice.render_one((tmp_path / "a", 5, 3, (320, 240), "throws", "raster", (), 0.1)) == 0


def test_random_designs_have_distinct_faces_and_readable_ink():
    for i in range(30):
        d = random_design(i)
        assert len(set(d.arts)) == len(d.arts) == len(d.labels)
        luma = lambda c: 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]  # noqa: E731
        assert abs(luma(d.ink) - luma(d.body)) > 70


def test_a_game_die_keeps_its_face_layout_unless_shuffled():
    from dicerender.render import Camera, place_dice

    d20 = next(d for d in game_designs() if d.shape == "d20")
    cam = Camera(f=800.0, cx=320.0, cy=240.0, R=np.diag([1.0, -1.0, -1.0]), C=np.array([0.0, 0.0, 450.0]))
    rect = np.array([0.0, 0.0, 640.0, 480.0])
    identity = tuple(range(20))
    kept = [place_dice(np.random.default_rng(i), [d20], cam, rect)[0].perm for i in range(10)]
    assert all(p == identity for p in kept)
    shuffled = [
        place_dice(np.random.default_rng(i), [d20], cam, rect, shuffle=1.0)[0].perm for i in range(10)
    ]
    assert all(sorted(p) == list(identity) for p in shuffled)  # each face label once
    assert sum(p != identity for p in shuffled) == 10
    # the label read is the shuffled layout's: the face pointing up carries perm[face]
    p = place_dice(np.random.default_rng(3), [d20], cam, rect, shuffle=1.0)[0]
    assert (
        top_label(p)[0]
        == p.perm[int(np.argmax((np.array([p.solid.normal(i) for i in range(20)]) @ p.R.T)[:, 2]))]
    )


def test_a_leaning_die_tips_towards_the_die_it_touches_or_the_wall_and_is_labelled_crooked():
    from dicerender.render import Camera, place_dice

    d6 = next(d for d in game_designs() if d.shape == "d6")
    radius = np.linalg.norm(solid("d6", d6.size_mm).vertices, axis=1).max()
    cam = Camera(f=800.0, cx=320.0, cy=240.0, R=np.diag([1.0, -1.0, -1.0]), C=np.array([0.0, 0.0, 450.0]))
    rect = np.array([40.0, 30.0, 600.0, 450.0])  # the floor seen, walls round it

    def tip(p: Placed) -> np.ndarray:
        """Where the top face's normal leans, on the floor."""
        normals = np.array([p.R @ p.solid.normal(k) for k in range(len(p.solid.faces))])
        return normals[int(np.argmax(normals[:, 2]))][:2]

    flat = [place_dice(np.random.default_rng(i), [d6, d6], cam, rect, lean=0.0) for i in range(10)]
    assert all(top_label(p)[1] < 1e-6 for dice in flat for p in dice)
    on_die = on_wall = 0
    for i in range(30):
        first, second = place_dice(np.random.default_rng(i), [d6, d6], cam, rect, lean=1.0, walls=True)
        assert all(14 - 1e-6 <= top_label(p)[1] <= 40 + 1e-6 for p in (first, second))  # all crooked
        apart = second.t[:2] - first.t[:2]
        u, v = cam.project(second.t[None])[0]
        edges = {(-1, 0): u - rect[0], (1, 0): rect[2] - u, (0, -1): v - rect[1], (0, 1): rect[3] - v}
        side, gap = min(edges.items(), key=lambda e: e[1])
        if np.linalg.norm(apart) < 2 * radius:  # resting on the first die: tipped towards it
            assert tip(second) @ -apart > 0, i
            on_die += 1
        elif gap < 2 * radius * cam.f / cam.C[2]:  # by a wall: tipped towards it (y flips on the floor)
            assert tip(second) @ np.array([side[0], -side[1]]) > 0, i
            on_wall += 1
    assert on_die >= 5 and on_wall >= 5


def test_patches_show_one_to_a_few_game_dice_at_the_tray_cameras_scale(tmp_path):
    import render_dice

    (tmp_path / "scenes").mkdir()
    sizes = []
    for i in range(6):
        assert render_dice.render_one((tmp_path, 2, i, (640, 480), "patches", "raster", (), 0.1)) > 0
        doc = json.loads((tmp_path / "scenes" / f"{i:06d}.json").read_text())
        assert doc["group"] == "patch"
        assert 1 <= len(doc["dice"]) <= 4
        assert any(d["game"] for d in doc["dice"])
        sizes.append(doc["die_px"])
    import cv2

    assert cv2.imread(str(tmp_path / "scenes" / "000000.jpg")).shape == (160, 160, 3)
    assert all(28 <= s <= 60 for s in sizes)


@pytest.mark.parametrize("kind", ["patches", "throws"])
def test_patches_and_throws_can_draw_only_the_dice_named(tmp_path, kind):
    """``--dice``: more views of the dice a model reads worst (a d4's marks at its top vertex). A
    throw's group of d6 dice, with only a d4 named, draws that d4 (it once drew from no dice)."""
    import render_dice

    assert render_dice.main(["--kind", kind, "--scenes", "12", "--seed", "3", "--workers", "1", "--size",
                             "320x240", "--dice", "roll-in-one-putter", "--out", str(tmp_path)]) == 0
    kinds = set()
    for f in (tmp_path / "scenes").glob("*.json"):
        kinds |= {d["kind"] for d in json.loads(f.read_text())["dice"] if d["game"]}
    assert kinds == {"roll-in-one-putter"}


def test_an_unknown_die_to_draw_is_refused_by_name(capsys):
    import render_dice

    with pytest.raises(SystemExit):
        render_dice.main(["--kind", "patches", "--dice", "putter", "--scenes", "1"])
    assert "no game die named putter" in capsys.readouterr().err


@pytest.mark.parametrize(("angle", "axis"), [(0.0, 1), (np.pi / 2, 0)])
def test_camera_shake_draws_a_point_out_into_a_line_along_the_cameras_path(angle, axis):
    """The renderer's and the training views' camera shake: a pip becomes a dash as long as the
    camera moved, in its direction, and no light is made or lost."""
    img = np.zeros((41, 41), np.float32)
    img[20, 20] = 1.0
    out = shake(img, 9, angle)
    lit = np.argwhere(out > 1e-6)
    along, across = np.ptp(lit[:, axis]) + 1, np.ptp(lit[:, 1 - axis]) + 1
    assert (along, across) == (9, 1)
    assert out.sum() == pytest.approx(1.0)
    assert np.array_equal(shake(img, 1, angle), img)
