"""Vision benchmark on the simulated camera (vision/simcam.py, the ``sim`` source of ``watch``): time
per frame (watcher + reader, one core), peak memory, and how many of its dice the reader reads.

    .venv/bin/python bench/bench_vision.py            # everything
    .venv/bin/python bench/bench_vision.py speed      # only the timing (one core) and memory
    .venv/bin/python bench/bench_vision.py sim        # only the simulated camera's dice read

The speed part runs in a child process so its peak memory is that of watcher + reader alone. The
reader's figures on the shared rendered throws and the real webcam photos: bench/bench_learnt.py.
"""

from __future__ import annotations

import os
import sys

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import math  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ROLLERS = ["rollers-purple"] * 5 + ["rollers-black"]  # the six Rollers dice


def speed() -> None:
    cv2.setNumThreads(1)
    from vision.simcam import SimulatedCamera
    from vision.watcher import ThrowWatcher

    def frames(cam: SimulatedCamera):  # generated on the fly (not kept): only the watcher's memory counts
        for _ in range(6):
            yield cam.render([])
        for _ in range(5):
            for f in cam.throw(ROLLERS, still=20):
                yield f.image

    watcher = ThrowWatcher(speculate=False)  # each throw read whole at settle (on its worker, waited for)
    times, read_times = [], []
    for f in frames(SimulatedCamera(seed=42)):
        t = time.perf_counter()
        ev = watcher.feed(f)
        dt = (time.perf_counter() - t) * 1000
        (read_times if ev.throw is not None else times).append(dt)
    all_times = times + read_times
    print(f"frames: {len(all_times)} (640x480, six dice per throw, {len(read_times)} throws read), one core")
    print(f"median per frame, watcher + reader: {statistics.median(all_times):.2f} ms")
    print(f"95th percentile per frame: {sorted(all_times)[int(0.95 * len(all_times))]:.2f} ms")
    print(
        f"the frame that is read (watcher + full read): median {statistics.median(read_times):.1f} ms, "
        f"max {max(read_times):.1f} ms"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS of this process): {peak:.0f} MB")
    again = []
    cam = SimulatedCamera(seed=43)
    for _ in range(10):
        image = cam.render(cam.random_scene(ROLLERS))
        for _ in range(5):
            t = time.perf_counter()
            watcher.reader.read(image)
            again.append((time.perf_counter() - t) * 1000)
    print(
        f"the read alone, 10 throws x 5: median {statistics.median(again):.1f} ms, "
        f"95th percentile {sorted(again)[int(0.95 * len(again))]:.1f} ms"
    )


def sim_dice(scenes: int = 40) -> None:
    """The simulated camera's dice read with the shipped faces alone (no set enrolled), as ``watch sim``
    reads them: right (``ok``, the face drawn), wrong with status ``ok``, flagged, missed."""
    cv2.setNumThreads(1)
    from vision.sets import reader_for
    from vision.simcam import SimulatedCamera

    reader = reader_for(None)
    print("| dice per throw | dice | right | wrong ok | flagged | missed |")
    print("|---|---|---|---|---|---|")
    for kinds in (["d6"] * 5, ROLLERS):
        cam = SimulatedCamera(seed=42)
        dice = right = wrong_ok = flagged = missed = 0
        for _ in range(scenes):
            scene = cam.random_scene(kinds)
            readings = reader.read(cam.render(scene))
            for d in scene:
                dice += 1
                near = [r for r in readings if math.dist(r.center, (d.x, d.y)) < 0.6 * cam.die_px]
                if not near:
                    missed += 1
                elif near[0].status != "ok":
                    flagged += 1
                elif near[0].face == d.face and near[0].die in (d.kind, "d6"):
                    right += 1
                else:
                    wrong_ok += 1
        name = f"{len(kinds)} x {kinds[0]}" if len(set(kinds)) == 1 else "the six Rollers dice"
        share = f"{right} ({100 * right / dice:.1f}%)"
        print(f"| {name} | {dice} | {share} | {wrong_ok} | {flagged} | {missed} |")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("part", nargs="?", default="all", choices=["all", "speed", "sim"])
    part = ap.parse_args(argv[1:]).part
    if part == "speed":
        speed()
        return 0
    if part == "all":
        print("## speed (child process)", flush=True)
        subprocess.run([sys.executable, __file__, "speed"], check=True)
    print("## the simulated camera's dice, shipped faces only", flush=True)
    sim_dice()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
