"""Render labelled top-down throws of dice for training the dice locator and the face reader.

A development tool, not a runtime dependency: numpy, OpenCV and pygame's font renderer only.
Scene ``i`` is a function of ``--seed`` and ``i`` alone, so a run is deterministic, can be stopped and
resumed (scenes already on disk are kept), and a larger ``--scenes`` adds to a smaller run's output.

    .venv/bin/python tools/render_dice.py --out ~/.cache/dice-companion/renders --scenes 5000 --workers 2

``--kind patches`` renders small pictures (160x160, 1-3 dice at the tray camera's scale) for the
face reader instead of whole throws: each game die drawn in proportion to its number of faces, so
every face of a d20 is seen as often as every face of a d6, and game dice often laid out at random.

Writes ``scenes/NNNNNN.jpg`` (the picture), ``scenes/NNNNNN.json`` (its labels: per die the look,
face, class, centre, top-face centre, box, tilt, crooked, size; and the scene's surface, light and
camera) and ``scenes/NNNNNN.npz`` (each die's crop, CROP px square, CROP_SPAN times the diameter of
the circle round its outline, for the
face reader's training). The JSON is written last, so a scene with a JSON is complete.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np
from dicerender.designs import Design, game_designs, random_design
from dicerender.render import render_scene

CROP = 96
CROP_SPAN = 1.6
RANDOM_DESIGNS = 120
GROUPS = ("d6", "poly", "mixed", "random")

cv2.setNumThreads(1)


def scene_designs(rng: np.random.Generator, games: list[Design]) -> tuple[str, list[Design]]:
    """Which dice scene draws: a group of the games' dice, or random designs with a few of them."""
    group = str(rng.choice(GROUPS, p=[0.25, 0.3, 0.2, 0.25]))
    n = int(rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7]))
    d6 = [d for d in games if d.shape == "d6"]
    poly = [d for d in games if d.shape != "d6"]
    pool = {"d6": d6 or games, "poly": poly or games, "mixed": games}.get(group)
    if pool is not None:  # (--dice may leave a group without dice of its shape: then any of them)
        return group, [pool[int(i)] for i in rng.integers(0, len(pool), n)]
    picks = [random_design(int(i)) for i in rng.integers(0, RANDOM_DESIGNS, max(1, n - 1))]
    return group, [*picks, games[int(rng.integers(len(games)))]]


def patch_designs(rng: np.random.Generator, games: list[Design]) -> tuple[str, list[Design]]:
    """The dice of a patch: 1-3 game dice, each face of each die about as likely; now and then a random
    design beside them."""
    weights = np.array([len(d.labels) for d in games], float)
    n = int(rng.choice([1, 1, 2, 2, 3]))
    picks = [games[int(i)] for i in rng.choice(len(games), n, p=weights / weights.sum())]
    if rng.random() < 0.2:
        picks.append(random_design(int(rng.integers(RANDOM_DESIGNS))))
    return "patch", picks


KINDS = {
    # kind: (designs, picture size, a 16 mm die's width range in px (throws: in a 640 px wide picture,
    # scaled with --size), chance a game die's faces are shuffled)
    "throws": (scene_designs, None, (22.0, 64.0), 0.0),
    "patches": (patch_designs, (160, 160), (28.0, 60.0), 0.5),
}


def crop(image: np.ndarray, disc: list[float], border: int = cv2.BORDER_REFLECT) -> np.ndarray:
    """The die inside ``disc`` (centre x, y and diameter of the circle round its outline), CROP px."""
    cx, cy, diameter = disc
    side = diameter * CROP_SPAN
    s = CROP / side
    m = np.array([[s, 0, CROP / 2 - s * cx], [0, s, CROP / 2 - s * cy]], np.float32)
    return cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_AREA, borderMode=border)


def render_one(args: tuple[Path, int, int, tuple[int, int], str, str, tuple[str, ...], float]) -> int:
    out, seed, i, size, kind, engine, only, lean = args
    stem = out / "scenes" / f"{i:06d}"
    if stem.with_suffix(".json").exists():
        return 0
    rng = np.random.default_rng([seed, i])
    pick, kind_size, die_px, shuffle = KINDS[kind]
    if kind_size is None:  # a throw: the dice as large in a smaller picture as in a 640 px wide one
        die_px = (die_px[0] * size[0] / 640, die_px[1] * size[0] / 640)
    games = [d for d in game_designs() if not only or d.id in only]
    group, designs = pick(rng, games)
    if engine == "cycles":  # Blender's path tracer, from .venv-render (make render-env)
        from dicerender import cycles

        scene = cycles.render_scene(rng, designs, kind_size or size, die_px, shuffle, lean)
    else:
        scene = render_scene(rng, designs, kind_size or size, die_px, shuffle, lean)
    cv2.imwrite(str(stem.with_suffix(".jpg")), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    crops = (
        np.stack([crop(scene.image, d["disc"]) for d in scene.labels])
        if scene.labels
        else np.zeros((0, CROP, CROP, 3), np.uint8)
    )
    np.savez_compressed(stem.with_suffix(".npz"), crops=crops)
    doc = {
        "image": f"scenes/{i:06d}.jpg",
        "group": group,
        "seed": seed,
        "index": i,
        "engine": engine,
        **scene.meta,
        "dice": scene.labels,
    }
    tmp = stem.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc))
    tmp.replace(stem.with_suffix(".json"))
    return len(scene.labels)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path.home() / ".cache" / "dice-companion" / "renders")
    ap.add_argument("--scenes", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--size", default="640x480", help="picture size of --kind throws")
    ap.add_argument("--kind", choices=sorted(KINDS), default="throws")
    ap.add_argument(
        "--engine",
        choices=("raster", "cycles"),
        default="raster",
        help="raster: this package's light rasteriser; cycles: Blender's path tracer (bpy, .venv-render)",
    )
    ap.add_argument(
        "--dice",
        default="",
        help="comma-separated game dice (looks of companion/data/looks.toml) to draw instead of all: "
        "more views of the dice a model reads worst",
    )
    ap.add_argument(
        "--lean",
        type=float,
        default=0.1,
        help="chance each die leans on a neighbour or the floor's edge (labelled crooked past 12 degrees); "
        "more gives a model of leaning dice more examples",
    )
    args = ap.parse_args(argv)
    if not 0.0 <= args.lean <= 1.0:
        ap.error(f"--lean: a chance from 0 to 1, not {args.lean}")
    only = tuple(n for n in args.dice.split(",") if n)
    names = {d.id for d in game_designs()}
    if unknown := sorted(set(only) - names):
        ap.error(f"--dice: no game die named {', '.join(unknown)} (known: {', '.join(sorted(names))})")
    w, h = (int(v) for v in args.size.split("x"))
    (args.out / "scenes").mkdir(parents=True, exist_ok=True)
    job = (args.kind, args.engine, only, args.lean)
    jobs = [(args.out, args.seed, i, (w, h), *job) for i in range(args.scenes)]
    t0 = time.time()
    dice = 0
    done = 0
    with contextlib.ExitStack() as stack:
        results = map(render_one, jobs)  # one worker: in this process, in order
        if args.workers > 1:
            # started afresh (spawn): a forked copy of a process that runs threads (a test session's,
            # Blender's) can inherit a lock some thread held, and wait forever
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(args.workers))
            results = pool.imap_unordered(render_one, jobs, chunksize=1 if args.engine == "cycles" else 4)
        for n in results:
            dice += n
            done += 1
            if done % 100 == 0:
                rate = (time.time() - t0) / done
                print(f"{done}/{args.scenes} scenes, {dice} new dice, {rate:.2f} s/scene", flush=True)
    print(f"done: {args.scenes} scenes in {args.out}, {dice} new dice, {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
