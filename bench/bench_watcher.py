"""Throw watcher benchmark: time per frame (one core, 640x480), the settle-to-reading latency, and the
rendered videos of ../shared played from four starts (on the empty tray, while the dice come in,
while they roll, with them lying still): throws seen (one each), frames from rest to settle, and
the faces read with the set enrolled from the videos' dice (``enroll/`` of both rendered sets, as
``watch --set`` reads them), and how long each read took from the settle.

    .venv/bin/python bench/bench_watcher.py            # everything
    .venv/bin/python bench/bench_watcher.py --quick    # no enrolment, no faces (under a minute)

Times are CPU time of the watching thread (``time.thread_time``), OpenCV on one thread: what a
frame costs one core, whatever else the machine runs (wall-clock time on a shared machine adds the
waits for a core).

Videos come from ../shared (or $DICE_COMPANION_SHARED)/throwbench-dev-poly/sequences; absent, only the
simulated camera's part runs.
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
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("DICE_COMPANION_SHARED", ROOT.parent / "shared"))

from vision.evaluate import Item, Label, Score, score_item  # noqa: E402
from vision.sequences import ON_TIME, Sequence, load, starts, watch  # noqa: E402
from vision.simcam import SimulatedCamera  # noqa: E402
from vision.watcher import ThrowWatcher  # noqa: E402


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.2f} ms, 95th percentile {np.percentile(values, 95):.2f} ms"


def simulated() -> None:
    """The simulated camera: six dice per throw, five throws with a hand each, read in place."""
    cam = SimulatedCamera(seed=42)
    kinds = ["d6"] * 4 + ["rollers-purple", "rollers-black"]
    frames = [cam.render([]) for _ in range(6)]
    for _ in range(5):
        frames += [f.image for f in cam.throw(kinds, still=20)]
    watcher = ThrowWatcher(defer=True)
    reader = watcher.reader  # the shipped models and faces, as ``watch`` without ``--set``
    per_frame, latency = [], []
    for f in frames:
        t = time.thread_time()
        event = watcher.feed(f)
        per_frame.append((time.thread_time() - t) * 1000)
        if event.settle is not None:  # from the settle to the reading (the app does this on a worker)
            t = time.thread_time()
            event.settle.read(reader)
            latency.append((time.thread_time() - t) * 1000)
    print(f"simulated camera, {len(frames)} frames 640x480, {len(latency)} throws (six dice), one core")
    print(f"  watcher per frame: {ms(per_frame)}, max {max(per_frame):.2f} ms")
    print(f"  settle to reading: {ms(latency)}")


def labels(seq: Sequence) -> Item:
    """The dice of a video as they lie at its end, for scoring a reading."""
    labs = [
        Label(d["kind"], d["face"], tuple(d["top_center"]), 0.6 * d["size_px"], d["crooked"], d["size_px"])
        for d in seq.dice
    ]
    return Item(Path(seq.name), labs)


def both_sets() -> list[Path] | None:
    """The ``enroll/`` folders of both rendered sets (the videos hold dice of each), or None."""
    folders = [SHARED / "throwbench-dev" / "enroll", SHARED / "throwbench-dev-poly" / "enroll"]
    return folders if all(f.is_dir() for f in folders) else None


def enrolled_reader() -> object | None:
    """The reader (``watch --set``) with every die of both sets enrolled, or None."""
    from vision.reader import LearntReader
    from vision.sets import enrol_folder, models

    folders, nets = both_sets(), models()
    if folders is None or nets is None:
        return None
    t = time.thread_time()
    gallery = None
    for folder in folders:  # one gallery of both sets' dice, each folder enrolled into it
        gallery = enrol_folder(folder, *nets, gallery)
    print(f"  (both sets' enroll/ enrolled in {time.thread_time() - t:.0f} s of CPU)")
    return LearntReader(gallery, *nets)


def videos(faces: bool) -> None:
    folder = SHARED / "throwbench-dev-poly" / "sequences"
    if not folder.is_dir():
        print(f"{folder} absent: the videos are skipped")
        return
    seqs = load(folder)
    reader = enrolled_reader() if faces else None
    print(f"rendered videos ({folder}), 640x480, one core")
    print("| video | stream starts | throws | settled - still_from (frames) | tray | dice right | read in |")
    print("|---|---|---|---|---|---|---|")
    per_frame, checks, late, wrong_count = [], [], 0, 0
    score, took_ms = Score("videos"), []
    for seq in seqs:
        for start, first in starts(seq).items():
            run = watch(seq, first)
            looked = set(run.looks)
            per_frame += [t for k, t in enumerate(run.times_ms) if k not in looked]
            checks += [t for k, t in enumerate(run.times_ms) if k in looked]
            wrong_count += len(run.settles) != 1
            if not run.settles:
                print(f"| {seq.name} | {start} | 0 | - | - | - | - |")
                continue
            s = run.settles[0]
            delay = s.settled_frame - max(first, seq.still_from)
            late += delay > ON_TIME
            cells = []
            for r, total, times in ((reader, score, took_ms),):
                if r is None:
                    cells += ["-", "-"]
                    continue
                t = time.thread_time()
                throw = s.read(r)
                times.append((time.thread_time() - t) * 1000)
                one = Score(seq.name)
                score_item(labels(seq), throw.dice, one)
                score_item(labels(seq), throw.dice, total)
                cells += [f"{one.right} of {one.labelled}", f"{times[-1]:.0f} ms"]
            tray = "learnt" if s.background is not None else "none (single photo)"
            row = [seq.name, start, str(len(run.settles)), f"{delay:+d}", tray, *cells]
            print(f"| {' | '.join(row)} |")
    print(f"videos not giving exactly one throw: {wrong_count}; "
          f"throws settled later than {ON_TIME} frames: {late}")
    print(f"  watcher per frame: {ms(per_frame)} ({len(per_frame)} frames)")
    print(f"  frames that looked for dice with the locator (no tray known yet): {len(checks)}, {ms(checks)}")
    if reader is not None:
        print(f"  faces: {score.right} of {score.labelled} dice right, {score.silent} wrong but ok "
              f"(silent), {score.missed} missed; settle to reading {ms(took_ms)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="no enrolment, no faces")
    args = parser.parse_args(argv[1:])
    cv2.setNumThreads(1)
    simulated()
    videos(faces=not args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
