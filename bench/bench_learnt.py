"""The reader (vision/reader.py) on the shared rendered throws: a table per die kind
(right, wrong with status ok, wrong but flagged, unsure, missed) after enrolling each set's
``enroll/`` photos; the held-out half of the real webcam photos read with the default gallery's
plain d6; and the time to read a settled 640x480 throw on one core.

    .venv/bin/python bench/bench_learnt.py [--locator FILE] [--face FILE]

Sets come from ../shared (or $DICE_COMPANION_SHARED); without them only the timing runs (on a
rendered throw of tools/render_dice.py's kind drawn here).
"""

from __future__ import annotations

import os
import sys

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import facereader, locator  # noqa: E402
from vision.evaluate import evaluate, matteop65, score_sets, set_readers, table  # noqa: E402  # noqa: E402
from vision.facereader import Gallery  # noqa: E402
from vision.reader import LearntReader  # noqa: E402
from vision.sets import default_gallery  # noqa: E402


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--locator", type=Path, default=locator.MODEL)
    ap.add_argument("--face", type=Path, default=facereader.MODEL)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    loc, face = locator.load(args.locator), facereader.load(args.face)
    if loc is None or face is None:
        print("the dice models are missing: nothing to bench")
        return 0
    shared = Path(os.environ.get("DICE_COMPANION_SHARED", ROOT.parent / "shared"))
    t0 = time.perf_counter()
    readers = set_readers(shared, loc, face)
    if readers:
        views = sum(len(r.gallery.dice) for r in readers.values())
        print(f"enrolled {len(readers)} sets, {views} views in {time.perf_counter() - t0:.1f} s")
        print(f"== the reader on {', '.join(readers)} (each read with its own enroll/ photos)")
        print(table(score_sets(shared, readers)))
    else:
        print(f"no shared sets under {shared}: accuracy skipped")
    webcam = shared / "dice-photos" / "matteop65-webcam-d6" / "Train"
    if webcam.is_dir():
        # the odd half was never learnt from; the default gallery's plain d6, nothing enrolled
        beside = args.face.with_name(facereader.DEFAULT_GALLERY.name)  # a candidate model's own faces
        known = Gallery.load(beside) if beside.is_file() else default_gallery()
        plain = LearntReader(known.only({"d6"}), loc, face)
        s = evaluate("webcam odd", matteop65(webcam), plain, select=lambda i, _: i % 2 == 1)
        print(
            f"== webcam photos, held-out odd half, default plain d6: {s.right} of {s.labelled} right "
            f"({100 * s.right / max(1, s.labelled):.1f}%), {s.silent} wrong ok, {s.wrong - s.silent} "
            f"wrong flagged, {s.uncertain} unsure, {s.missed} missed, {s.extra} readings at no die "
            f"({s.extra_ok} ok)"
        )
    reader = next(iter(readers.values()), None) or LearntReader(Gallery(), loc, face)
    frame = (
        next(iter(sorted((shared / "throwbench-dev-poly" / "throws").glob("*.jpg"))), None)
        if readers
        else None
    )
    image = cv2.imread(str(frame)) if frame else None
    if image is None:
        sys.path.insert(0, str(ROOT / "tools"))
        import numpy as np
        from dicerender.designs import game_designs
        from dicerender.render import render_scene

        image = render_scene(np.random.default_rng(1), game_designs()[:5]).image
    times = []
    for _ in range(20):
        t = time.perf_counter()
        reader.read(image)
        times.append(time.perf_counter() - t)
    print(
        f"read a settled 640x480 throw ({len(reader.read(image))} dice), one core: "
        f"median {1000 * statistics.median(times):.1f} ms, worst {1000 * max(times):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
