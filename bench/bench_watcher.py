"""Throw watcher benchmark: time per frame (640x480), the settle-to-reading latency, and the rendered
videos of ../shared played from four starts (on the empty tray, while the dice come in, while they
roll, with them lying still): throws seen (one each), frames from rest to settle, and the faces read
with the set enrolled from the videos' dice (``enroll/`` of both rendered sets, as ``watch --set``
reads them).

    .venv/bin/python bench/bench_watcher.py            # everything
    .venv/bin/python bench/bench_watcher.py --quick    # the shipped reader, no enrolment, no faces

The process (the feeding thread and the watcher's read worker) is pinned to one core and OpenCV runs
on one thread. Frames are fed at the camera's pace, 30 a second, as a live camera gives them: the
watcher starts each read at the first still frame, so how much of it is done by the settle depends
on that pace. Per-frame time is the CPU time of the feeding thread (``time.thread_time``): what
``feed`` costs the thread that draws, the reads and looks on the worker left out. Settle to reading
is wall time from the moment the frame that settles the throw is handed to ``feed`` to the moment
its reading is in hand (``Settle.read``): on a machine shared with other work it includes the
waits for the core. Each is given with the speculative read (as the app runs) and without it (the
settled frame read at settle), under the same load.

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
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("DICE_COMPANION_SHARED", ROOT.parent / "shared"))

from vision.evaluate import Item, Label, Score, score_item  # noqa: E402
from vision.sequences import ON_TIME, Sequence, load, starts  # noqa: E402
from vision.simcam import SimulatedCamera  # noqa: E402
from vision.watcher import Settle, Throw, ThrowWatcher  # noqa: E402

FPS = 30.0


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.2f} ms, 95th percentile {np.percentile(values, 95):.2f} ms"


def one_core() -> str:
    """Pin this process, and so the read worker it starts, to one core."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    except (AttributeError, OSError) as exc:
        return f"not pinned to one core ({exc})"
    return f"pinned to core {cpu}"


@dataclass
class Played:
    """A stream fed at the camera's pace: what settled, each throw's reading, the feeding thread's CPU
    time per frame (ms), the latency from the settling frame fed to the reading in hand (ms), and the
    speculative reads started and used."""

    settles: list[Settle] = field(default_factory=list)
    throws: list[Throw] = field(default_factory=list)
    per_frame: list[float] = field(default_factory=list)
    latency: list[float] = field(default_factory=list)
    worker_ms: list[float] = field(default_factory=list)  # CPU time of each speculative read used
    guesses: int = 0
    used: int = 0


def play(frames: list[np.ndarray], watcher: ThrowWatcher, reader: object, fps: float = FPS) -> Played:
    """Feed ``frames`` at ``fps`` (none is fed before its time; one that comes late is fed at once) and
    read each throw as it settles."""
    out = Played()
    due = time.perf_counter()
    for frame in frames:
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        fed = time.perf_counter()
        due = max(due, fed) + 1 / fps
        t = time.thread_time()
        event = watcher.feed(frame)
        out.per_frame.append((time.thread_time() - t) * 1000)
        if event.settle is not None:
            out.throws.append(event.settle.read(reader))  # type: ignore[arg-type]
            out.latency.append((time.perf_counter() - fed) * 1000)
            out.settles.append(event.settle)
            guess = event.settle.guess
            if guess is not None and guess.future.done() and guess.future.result().reader is reader:
                out.worker_ms.append(guess.future.result().cpu_ms)
    out.guesses, out.used = watcher.guesses, watcher.guesses_used
    watcher.close()
    return out


def simulated(reader: object) -> None:
    """The simulated camera: six dice per throw, five throws with a hand each, read in place."""
    cam = SimulatedCamera(seed=42)
    kinds = ["d6"] * 4 + ["rollers-purple", "rollers-black"]
    frames = [cam.render([]) for _ in range(6)]
    for _ in range(5):
        frames += [f.image for f in cam.throw(kinds, still=20)]
    print(f"simulated camera, {len(frames)} frames 640x480 at {FPS:.0f} fps, five throws of six dice")
    for speculate in (True, False):
        watcher = ThrowWatcher(reader, defer=True, speculate=speculate)  # type: ignore[arg-type]
        run = play(frames, watcher, reader)
        how = (f"speculative read ({run.used} of {run.guesses} started used)" if speculate
               else "read at settle")
        print(f"  {how}: {len(run.throws)} throws")
        print(f"    watcher per frame: {ms(run.per_frame)}, max {max(run.per_frame):.2f} ms")
        print(f"    settle to reading: {ms(run.latency)}")
        if speculate:
            print(f"    the speculative reads' CPU time on the worker: {ms(run.worker_ms)}")


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
    """The reader (``watch --set``) with every die of both sets enrolled as one set (one classifier
    over all their faces, as a player enrolling all their dice gets), or None."""
    from vision.reader import LearntReader
    from vision.sets import enrol_folder, models

    folders, nets = both_sets(), models()
    if folders is None or nets is None:
        return None
    t = time.thread_time()
    gallery = enrol_folder(folders, *nets)
    print(f"  (both sets' enroll/ enrolled as one set in {time.thread_time() - t:.0f} s of CPU)")
    return LearntReader(gallery, *nets)


def videos(reader: object, faces: bool) -> None:
    folder = SHARED / "throwbench-dev-poly" / "sequences"
    if not folder.is_dir():
        print(f"{folder} absent: the videos are skipped")
        return
    seqs = load(folder)
    print(f"rendered videos ({folder}), 640x480 at {FPS:.0f} fps")
    for speculate in (True, False):
        print(f"{'speculative read' if speculate else 'read at settle'}:")
        print("| video | stream starts | throws | settled - still_from (frames) | tray | dice right "
              "| settle to reading |")
        print("|---|---|---|---|---|---|---|")
        per_frame, latency, worker_ms, late, wrong_count, guesses, used = [], [], [], 0, 0, 0, 0
        score = Score("videos")
        for seq in seqs:
            for start, first in starts(seq).items():
                watcher = ThrowWatcher(reader, defer=True, speculate=speculate)  # type: ignore[arg-type]
                run = play(seq.frames[first:], watcher, reader)
                per_frame += run.per_frame
                latency += run.latency
                worker_ms += run.worker_ms
                guesses, used = guesses + run.guesses, used + run.used
                wrong_count += len(run.settles) != 1
                if not run.settles:
                    print(f"| {seq.name} | {start} | 0 | - | - | - | - |")
                    continue
                s, throw = run.settles[0], run.throws[0]
                delay = s.settled_frame + first - max(first, seq.still_from)
                late += delay > ON_TIME
                right = "-"
                if faces:
                    one = Score(seq.name)
                    score_item(labels(seq), throw.dice, one)
                    score_item(labels(seq), throw.dice, score)
                    right = f"{one.right} of {one.labelled}"
                tray = "learnt" if s.tray is not None else "none (single photo)"
                row = [seq.name, start, str(len(run.settles)), f"{delay:+d}", tray, right,
                       f"{run.latency[0]:.0f} ms"]
                print(f"| {' | '.join(row)} |")
        print(f"  videos not giving exactly one throw: {wrong_count}; "
              f"throws settled later than {ON_TIME} frames: {late}")
        print(f"  watcher per frame: {ms(per_frame)}, max {max(per_frame):.2f} ms ({len(per_frame)} frames)")
        print(f"  settle to reading: {ms(latency)}"
              + (f" ({used} of {guesses} speculative reads started were used)" if speculate else ""))
        if speculate:
            print(f"  the speculative reads' CPU time on the worker (look and read): {ms(worker_ms)}")
        if faces:
            print(f"  faces: {score.right} of {score.labelled} dice right, {score.silent} wrong but ok "
                  f"(silent), {score.missed} missed")
            for line in score.errors:
                if line.startswith("SILENT"):
                    print(f"    {line}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="no enrolment, no faces")
    args = parser.parse_args(argv[1:])
    cv2.setNumThreads(1)
    print(f"one core: {one_core()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    from vision.sets import reader_for

    shipped = reader_for(None)  # the shipped models and faces, as ``watch`` without ``--set``
    simulated(shipped)
    enrolled = None if args.quick else enrolled_reader()
    videos(enrolled or shipped, faces=enrolled is not None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
