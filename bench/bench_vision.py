"""Vision benchmark: accuracy per labelled set, time per frame (watcher + reader), peak memory.

    .venv/bin/python bench/bench_vision.py            # everything
    .venv/bin/python bench/bench_vision.py speed      # only the timing (one core) and memory
    .venv/bin/python bench/bench_vision.py accuracy   # only the labelled sets
    .venv/bin/python bench/bench_vision.py stress     # held-out photos changed by other light, framing
    .venv/bin/python bench/bench_vision.py stress --upright new.onnx   # a candidate model file instead

``--classifier PATH`` and ``--upright PATH`` read the accuracy and stress parts with another face
classifier file (turn-averaged, upright; tools/train_face_net.py writes them) in place of the shipped
one, so a retrained model is judged on the same rows before it replaces the shipped file. The speed
part always times the shipped files.

Rows say "pip count alone" for the reader without the face classifier (vision/facenet.py); the
shipped classifier was trained on the even halves of the development folders only.
Sets come from ../shared (or $DICE_COMPANION_SHARED); missing folders are listed and skipped.
The speed part runs in a child process so its peak memory is that of watcher + reader alone.
"""

from __future__ import annotations

import os
import sys

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

import cv2  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("DICE_COMPANION_SHARED", ROOT.parent / "shared"))
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from vision.evaluate import Item, Score
    from vision.reader import DiceReader

    Select = Callable[[int, Item], bool]


def speed() -> None:
    cv2.setNumThreads(1)
    from vision.simcam import SimulatedCamera
    from vision.watcher import ThrowWatcher

    cam = SimulatedCamera(seed=42)
    kinds = ["rollers-purple"] * 5 + ["rollers-black"]  # the six Rollers dice

    def frames(cam: SimulatedCamera):  # generated on the fly (not kept): only the watcher's memory counts
        for _ in range(6):
            yield cam.render([])
        for _ in range(5):
            for f in cam.throw(kinds, still=20):
                yield f.image

    watcher = ThrowWatcher()
    times, read_times = [], []
    for f in frames(cam):
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
    detector_speed(cam, kinds)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS of this process): {peak:.0f} MB")
    # the read alone, 20 times on each throw of the same frames played again after the memory figure
    # (the median of 5 frames above moves by a few ms from run to run); the tray's die size is known
    # by then, as on every throw after a new tray's first
    again_watcher, again, throws = ThrowWatcher(), [], 0
    for f in frames(SimulatedCamera(seed=42)):
        if again_watcher.feed(f).throw is None or again_watcher.tray.background is None:
            continue
        throws += 1
        for _ in range(20):
            t = time.perf_counter()
            again_watcher.reader.read(f, background=again_watcher.tray.background)
            again.append((time.perf_counter() - t) * 1000)
    if again:
        print(
            f"the read alone, {throws} throws x 20: median {statistics.median(again):.1f} ms, "
            f"95th percentile {sorted(again)[int(0.95 * len(again))]:.1f} ms"
        )


def detector_speed(cam: object, kinds: list[str]) -> None:
    """The single-photo path (``dice-companion read``, no tray model): the detector alone, and
    locating with and without it. The watcher above has a tray model and never runs the detector."""
    from vision import detect
    from vision.reader import DiceReader

    net = detect.load()
    if net is None:
        print("dice detector NOT loaded: single-photo path is classical only")
        return
    images = [cam.render(cam.random_scene(kinds)) for _ in range(20)]  # type: ignore[attr-defined]
    detect.detect(net, images[0])  # first call sets the network up
    times = []
    for _ in range(3):
        for img in images:
            t = time.perf_counter()
            detect.detect(net, img)
            times.append((time.perf_counter() - t) * 1000)
    med = statistics.median(times)
    print(f"dice detector alone (single-photo path): median {med:.1f} ms per 640x480 image")
    for name, reader in (("classical", DiceReader(detector=False)), ("with detector", DiceReader())):
        times = []
        for img in images:
            t = time.perf_counter()
            reader.locate(img, None)
            times.append((time.perf_counter() - t) * 1000)
        print(f"locating one photo without a tray model, {name}: median {statistics.median(times):.1f} ms")


def accuracy(models: dict[str, object]) -> None:
    """Every labelled set; ``models``: DiceReader keyword arguments naming candidate model files."""
    from vision.enroll import EnrolledSet
    from vision.evaluate import HEADER, evaluate, size_group, standard_sets, throwbench
    from vision.reader import DiceReader

    print(f"shared data: {SHARED}")
    photos = SHARED / "dice-photos"
    for wanted in (
        "matteop65-webcam-d6/Valid",
        "epanemu-roboflow-d6/valid",
        "epanemu-roboflow-d6/test",
        "chase-d6-crops/test",
    ):
        if not (photos / wanted).is_dir():
            print(f"absent (not scored): {wanted}")
    reader = DiceReader(**models)
    classical = DiceReader(classifier=False)  # the pip count alone, for comparison on held-out folds
    if reader.net is None:
        print("face classifier NOT loaded: every row is the pip count alone")
    print(HEADER)
    for name, items, role in standard_sets(SHARED):
        if role == "dev":
            # development folders: the even-indexed half was looked at while tuning, the odd half was not
            for half, sel in (
                ("even, dev", lambda i, it: i % 2 == 0),
                ("odd, held out", lambda i, it: i % 2 == 1),
            ):
                t = time.perf_counter()
                per_size: dict[str, Score] = {}
                s = evaluate(f"{name} ({half})", items(), reader, sel, per_size, size_group)
                _print_score(s, f"{time.perf_counter() - t:.0f} s")
                _print_by_size(per_size)
                _print_at_labels(reader, items(), sel)
                if half.startswith("odd"):
                    s = evaluate(f"{name} ({half}), pip count alone", items(), classical, sel)
                    print(s.row(), flush=True)
        else:
            per_size = {}
            s = evaluate(f"{name} (test)", items(), reader, kinds=per_size, group=size_group)
            _print_score(s)
            _print_by_size(per_size)
            _print_at_labels(reader, items())
            s = evaluate(f"{name} (test), pip count alone", items(), classical)
            print(s.row(), flush=True)
    tb = SHARED / "throwbench-dev"
    if (tb / "throws" / "labels.jsonl").exists():
        # the models learnt from the even-indexed throws (tools/train_*.py): the odd ones are held out
        es = EnrolledSet.learn("throwbench", tb / "enroll")
        print(f"(enrolment skipped {len(es.skipped)} of its photos)", flush=True)
        with_set = DiceReader(es, **models)
        for half, sel in (
            ("even, trained on", lambda i, it: i % 2 == 0),
            ("odd, held out", lambda i, it: i % 2 == 1),
        ):
            s = evaluate(f"throwbench std pips, no set ({half})", throwbench(tb), reader, sel)
            _print_score(s)
            kinds = throwbench(tb, with_set=True)
            per_kind: dict[str, Score] = {}
            s = evaluate(f"throwbench all kinds, --set ({half})", kinds, with_set, sel, per_kind)
            _print_score(s)
            by_kind = ", ".join(f"{k} {v.right}/{v.labelled}" for k, v in sorted(per_kind.items()))
            print(f"  by kind, right / dice: {by_kind}", flush=True)
    else:
        print("absent (not scored): throwbench-dev")
    if (tb / "enroll" / "labels.jsonl").exists():
        items = throwbench(tb, "enroll/labels.jsonl")
        s = evaluate("throwbench enroll photos, std pips, no set", items, reader)
        print(s.row(), flush=True)
        print(enroll_leave_one_out(tb).row(), flush=True)


def stress(models: dict[str, object]) -> None:
    """The held-out webcam and phone photos and the chase ``val`` crops read again as another camera,
    lamp or framing would show them (vision.evaluate.PERTURBATIONS): do right readings hold, and is
    any wrong one passed on as ``ok``? The phone half takes longest. ``models``: as for :func:`accuracy`."""
    from vision.evaluate import HEADER, PERTURBATIONS, crops, epanemu, evaluate, matteop65
    from vision.reader import DiceReader

    photos = SHARED / "dice-photos"
    webcam, chase = photos / "matteop65-webcam-d6/Train", photos / "chase-d6-crops/val"
    phone = photos / "epanemu-roboflow-d6/train_one_per_source"
    sets = [
        ("webcam odd", webcam, lambda: matteop65(webcam), lambda i, it: i % 2 == 1),
        ("chase val", chase, lambda: crops(chase), lambda i, it: True),
        ("phone odd", phone, lambda: epanemu(phone), lambda i, it: i % 2 == 1),
    ]
    reader = DiceReader(**models)
    print(HEADER)
    for name, folder, items, sel in sets:
        if not folder.is_dir():
            print(f"absent (not scored): {name}")
            continue
        print(evaluate(f"{name}, as taken", items(), reader, sel).row(), flush=True)
        silent = dice = 0
        for change in PERTURBATIONS:
            s = evaluate(f"{name}, {change}", items(), reader, sel, perturb=change)
            print(s.row(), flush=True)
            silent, dice = silent + s.silent + s.extra_ok, dice + s.labelled
            for e in s.errors:
                if e.startswith("SILENT"):
                    print(f"  {e}", flush=True)
        print(f"  {name}: {silent} read ok wrongly or where no die is, of {dice} changed dice", flush=True)


def _print_score(s: Score, *after: str) -> None:
    """A set's row (then ``after``, e.g. its time) and, below it, what the ``crooked`` flag cost there."""
    print(s.row(), *after, flush=True)
    print(f"  {s.flags()}", flush=True)
    print(f"  {s.causes_line()}", flush=True)


def _print_at_labels(reader: DiceReader, items: Iterator[Item], select: Select = lambda i, it: True) -> None:
    """How far reading alone holds a set back: its classifier at the labels' own boxes
    (evaluate.at_labels; only sets whose labels box the whole die, and a reader with a classifier)."""
    from vision.evaluate import at_labels

    if reader.net is not None and (at := at_labels(items, reader.net, select)).dice:
        print(f"  {at.line()}", flush=True)


def _print_by_size(per_size: dict) -> None:
    """Right and missed per die size (sets whose labels box the whole die; see evaluate.size_group)."""
    if per_size:
        from vision.evaluate import SIZE_GROUPS

        parts = [
            f"{k} {v.right}/{v.labelled} right, {v.missed} missed"
            for _, k in SIZE_GROUPS
            if (v := per_size.get(k)) is not None
        ]
        print(f"  by die size (box side): {'; '.join(parts)}", flush=True)


def enroll_leave_one_out(tb: Path) -> object:
    """Each enrolment photo read with a set learnt from the *other* photos (never from itself)."""
    from vision.enroll import EnrolledSet
    from vision.evaluate import Score, evaluate, throwbench
    from vision.reader import DiceReader

    total = Score("throwbench enroll photos, --set, leave one photo out")
    photos = sorted((tb / "enroll").glob("*/*/*.jpg"))
    for k in sorted({p.stem for p in photos}):
        with tempfile.TemporaryDirectory() as tmp:
            for p in photos:
                if p.stem != k:
                    dst = Path(tmp) / p.relative_to(tb / "enroll")
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    dst.symlink_to(p)
            es = EnrolledSet.learn("loo", tmp)
        items = throwbench(tb, "enroll/labels.jsonl", with_set=True)
        s = evaluate("part", items, DiceReader(es), lambda i, it, k=k: it.path.stem == k)
        fields = ("images", "labelled", "right", "uncertain", "wrong", "silent", "missed", "extra")
        fields += ("extra_ok",)
        for f in fields:
            setattr(total, f, getattr(total, f) + getattr(s, f))
    return total


def candidate_models(classifier: Path | None, upright: Path | None) -> dict[str, object]:
    """DiceReader keyword arguments for candidate model files; SystemExit naming a file that is
    missing or that OpenCV cannot run as a face classifier (the reader itself would fall back to
    the pip count, and the bench would score the wrong thing)."""
    from vision import facenet

    out: dict[str, object] = {}
    for key, path, load in (
        ("classifier", classifier, facenet.load),
        ("upright", upright, facenet.load_upright),
    ):
        if path is None:
            continue
        if not path.is_file():
            raise SystemExit(f"--{key}: no such file: {path}")
        if load(path) is None:
            raise SystemExit(f"--{key}: {path} is not a face classifier OpenCV can run (see the log)")
        out[key] = path
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "part", nargs="?", default="all", choices=["all", "speed", "speed-child", "accuracy", "stress"]
    )
    ap.add_argument("--classifier", type=Path, help="a turn-averaged face classifier file to read with")
    ap.add_argument("--upright", type=Path, help="an upright face classifier file to read with")
    args = ap.parse_args(argv[1:])
    part = args.part
    models = candidate_models(args.classifier, args.upright)
    if models:
        print("candidate models: " + ", ".join(f"{k} {v}" for k, v in models.items()), flush=True)
    if part == "speed":
        speed()
        return 0
    if part in ("all", "speed-child"):
        print("## speed (child process)", flush=True)
        subprocess.run([sys.executable, __file__, "speed"], check=True)
    if part in ("all", "accuracy"):
        print("## accuracy", flush=True)
        accuracy(models)
    if part in ("all", "stress"):
        print("## stress: held-out photos under other light and framing", flush=True)
        stress(models)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
