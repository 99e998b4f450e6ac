"""Train the tiny top-face classifier (vision/facenet.py) and export it to ONNX for ``cv2.dnn``.

Training needs torch and onnx, which are NOT runtime dependencies. Set up a separate venv once::

    python3 -m venv .venv-train
    .venv-train/bin/pip install /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl \\
        onnx numpy opencv-python-headless
    # (elsewhere: pip install torch --index-url https://download.pytorch.org/whl/cpu)

Reproduce the shipped model (two networks, ``MEMBERS``, 150 epochs each: about 8 and 17 minutes of
training on one core of the 2-core dev box, after 1-2 of data preparation; a second run writes the
same file, byte for byte)::

    nice .venv-train/bin/python tools/train_face_net.py --split even --out vision/models/face_net.onnx

and its upright twin (vision/models/face_net_upright.onnx, which the reader asks where the camera's
view gives a die's up; see ``--upright`` and docs/vision.md)::

    nice .venv-train/bin/python tools/train_face_net.py --split even --upright

Since 2026-11-27 (seventh session) a located blob is matched to a label only if it is at least
``MIN_SIDE`` of the label's box (a pip of a large die was taught as the die), and ``--oblique N`` adds N
rendered oblique photos (tools/oblique_dice.py). The shipped files were trained before both, so the
commands above now write different files; docs/benchmarks.md ("2026-11-27, seventh session") has
what models trained with ``--oblique 600`` read.

Splits (``i`` = index of the image in its folder, sorted by name, as in vision/evaluate.py):

* ``even`` (shipped): the even-indexed images of matteop65 ``Train``, epanemu ``train_one_per_source``
  and chase ``train``, and the even-indexed rendered throws of throwbench-dev (the Rollers and
  standard dice's pip faces as their numbers, every other face class 0). The odd-indexed halves, the
  odd throws and chase ``val`` are never seen, so the accuracy bench's "odd, held out" rows and chase
  ``val`` stay honest held-out figures.
* ``quarter``: only ``i % 4 == 0``; ``--calibrate`` then reads ``i % 4 == 2`` (never seen by that model,
  and also not the held-out odd half) with the whole reader and prints, per acceptance threshold,
  dice right and silent errors: this is how the thresholds in vision/reader.py were chosen.
* ``all``: every image of those three folders plus chase ``val`` (no held-out figure is left).

Crops are cut exactly as the reader cuts them (the locator runs on each photo, its candidates are
matched to the labels as the evaluator matches readings); unmatched candidates far from every label
are class 0 ("not a die face"); labelled dice the locator missed (epanemu boxes enclose the die) are
added from their boxes. Every epoch sees fresh augmentations (turn, scale, shift, blur, gamma, noise,
inverted polarity). Seeds are fixed and torch runs single-threaded and deterministic, so the same
data and versions give the same file.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.evaluate import Item, Label, crops, epanemu, matteop65, throwbench  # noqa: E402
from vision.facenet import CLASSES, SIZE, UPRIGHT_MODEL, cut, face_crop, upright  # noqa: E402
from vision.reader import DiceReader, decode_image_file, single_candidate, working_copy  # noqa: E402
from vision.types import Candidate  # noqa: E402

SHARED = Path(os.environ.get("DICE_COMPANION_SHARED", ROOT.parent / "shared"))
PATCH = 96  # stored source patch, pixels; it spans PATCH_SPAN die sides round the die
PATCH_SPAN = 3.0
SEED = 20261122
# the networks whose probabilities the shipped model averages: channels of the three conv blocks and
# units of the hidden layer, per member (docs/vision.md, The face classifier)
WIDTHS = {"small": (24, 48, 64, 64), "wide": (48, 96, 128, 128)}
MEMBERS = ("small", "wide")
SIM_SCENES = 80
LEANING = "leaning"  # a throwbench label of a die with no flat top face: its crop is not learnt
PIP_FACED = {"std-white", "std-red", "rollers-purple", "rollers-black"}  # numbered faces are pips
# --upright: the model that keeps the photo's up (facenet.UPRIGHT_MODEL). Patches are cut with the least
# turn that squares the die (facenet.upright), and only the sources seen from straight above are
# learnt at every quarter turn; the photos (a webcam over a desk, phones) keep their up, where an
# oblique camera puts the top face above the front face
TOP_DOWN = {"throwbench", "sim", "chase"}
UPRIGHT = False  # set by main()
# a located blob less than this share of a labelled die's box (where the label boxes the whole die) is
# not that die: on the even phone half 61 of 385 matched blobs were, most of them a single pip
MIN_SIDE = 0.5
# what ``Sample.source`` starts with (before any "-"), the names ``--source-weight`` takes
SOURCES = ("matteop65", "epanemu", "chase", "throwbench", "sim", "oblique")


@dataclass(slots=True)
class Sample:
    patch: np.ndarray  # PATCH x PATCH grey uint8, die at the centre, edges axis-aligned
    label: int  # 0 = not a die face, 1..6
    source: str  # one of SOURCES, with what the crop is after a "-" ("epanemu-neg", "chase-val")

    @property
    def family(self) -> str:
        """The source the crop came from, one of SOURCES."""
        return self.source.split("-")[0]


def _patch(grey: np.ndarray, center: tuple[float, float], side: float, angle: float) -> np.ndarray:
    return cut(grey, center, PATCH_SPAN * side, upright(angle) if UPRIGHT else angle, PATCH)


def match_label(lab: Label, cands: list[Candidate], scale: float) -> Candidate | None:
    """The located blob nearest ``lab`` within its radius (image scaled by ``scale``), not smaller than
    ``MIN_SIDE`` of its box where the label boxes the whole die (None: no such blob)."""
    lc = (lab.center[0] * scale, lab.center[1] * scale)
    best, best_d = None, math.inf
    for c in cands:
        d = math.hypot(c.center[0] - lc[0], c.center[1] - lc[1])
        if lab.size is not None and c.side < MIN_SIDE * lab.size * scale:
            continue  # a pip or a piece of the die, not the die: its crop would teach a wrong face
        if d < best_d and d <= lab.radius * scale:
            best, best_d = c, d
    return best


def samples_from(
    items: list[Item], source: str, boxes_for_missed: bool, images: list[np.ndarray] | None = None
) -> list[Sample]:
    """Crops of every located die matched to a label, negatives, and (optionally) missed labelled dice.
    ``images``: the items' photos already in memory (else read from their paths)."""
    reader = DiceReader(classifier=False, detector=False)
    out: list[Sample] = []
    for n, item in enumerate(items):
        img = decode_image_file(str(item.path)) if images is None else images[n]
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        if item.single:
            cand = single_candidate(img)
            if cand is not None:
                out.append(
                    Sample(_patch(grey, cand.center, cand.side, cand.angle), int(item.labels[0].face), source)
                )
            continue
        work, _, scale = working_copy(img)
        wgrey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
        cands = reader.locate(work, None)
        free = list(cands)
        for lab in item.labels:
            lc = (lab.center[0] * scale, lab.center[1] * scale)
            best = match_label(lab, free, scale)
            if best is not None:
                free.remove(best)
                if lab.face != LEANING:
                    patch = _patch(wgrey, best.center, best.side, best.angle)
                    out.append(Sample(patch, int(lab.face), source))
            elif boxes_for_missed and lab.face != LEANING:
                side = 0.8 * lab.radius * 2 * scale  # epanemu: radius is half the box (whole die)
                out.append(Sample(_patch(wgrey, lc, side, 0.0), int(lab.face), source + "-box"))
        for c in free:
            far = all(
                math.hypot(c.center[0] - lab.center[0] * scale, c.center[1] - lab.center[1] * scale)
                > max(2 * lab.radius * scale, 1.5 * c.side)
                for lab in item.labels
            )
            if far:
                out.append(Sample(_patch(wgrey, c.center, c.side, c.angle), 0, source + "-neg"))
    return out


def throwbench_items() -> list[Item]:
    """throwbench-dev's rendered throws (in throws/labels.jsonl order) with the faces as classes: pip
    faces of the standard and Rollers dice 1-6, every other face (star, zap, the disco and club
    symbols) class 0; a leaning die's crop is neither a face nor "not a die" (LEANING)."""
    root = SHARED / "throwbench-dev"
    out = []
    for item in throwbench(root, with_set=True):
        labels = []
        for lab in item.labels:
            face = lab.face if lab.face.isdigit() and lab.die in PIP_FACED else "0"
            labels.append(replace(lab, face=LEANING if lab.crooked else face))
        out.append(Item(item.path, labels))
    return out


def sim_samples(scenes: int) -> list[Sample]:
    """Dice rendered by the simulated camera (vision/simcam.py, what ``make run`` shows without a camera):
    standard d6 and the Rollers dice (faces 1-5 pipped; their star and zap faces are class 0)."""
    from vision.simcam import SimulatedCamera

    rng = np.random.default_rng(SEED)
    reader = DiceReader(classifier=False, detector=False)
    out: list[Sample] = []
    kinds = ["d6", "d6", "d6", "rollers-purple", "rollers-black"]
    for n in range(scenes):
        tray = tuple(int(v) for v in rng.integers(20, 200, 3))
        cam = SimulatedCamera(
            seed=SEED + n, die_px=int(rng.integers(22, 48)), tray=tray, noise=rng.uniform(1, 6)
        )
        dice = cam.random_scene(
            [kinds[int(rng.integers(len(kinds)))] for _ in range(int(rng.integers(3, 7)))]
        )
        img = cam.render(dice)
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        for c in reader.locate(img, None):
            d = min(dice, key=lambda d: math.hypot(d.x - c.center[0], d.y - c.center[1]))
            if math.hypot(d.x - c.center[0], d.y - c.center[1]) < 0.3 * cam.die_px:
                label = int(d.face) if d.face.isdigit() else 0
                out.append(Sample(_patch(grey, c.center, c.side, c.angle), label, "sim"))
    return out


def oblique_samples(scenes: int) -> list[Sample]:
    """Dice rendered as oblique phone photos (tools/oblique_dice.py), cut where the locator finds them.
    A die mostly hidden by a nearer one or cut by the photo's edge is not learnt."""
    from oblique_dice import render_photo

    rng = np.random.default_rng(SEED + 1)
    items = []
    images = []
    for _ in range(scenes):
        img, dice = render_photo(rng)
        labels = []
        for d in dice:  # a die mostly hidden is neither learnt nor a negative (as a leaning one)
            face = str(d.face) if d.visible >= 0.75 else LEANING
            labels.append(Label(None, face, d.center, max(0.5 * d.size, 4.0), size=d.size))
        items.append(Item(Path("oblique"), labels))
        images.append(img)
    return samples_from(items, "oblique", True, images)


def collect(split: str, oblique: int = 0) -> list[Sample]:
    photos = SHARED / "dice-photos"
    keep = {
        "even": lambda i: i % 2 == 0,
        "quarter": lambda i: i % 4 == 0,
        "all": lambda i: True,
        "cal": lambda i: i % 4 == 2,
    }[split]
    sets = [
        ("matteop65", list(matteop65(photos / "matteop65-webcam-d6" / "Train")), False),
        ("epanemu", list(epanemu(photos / "epanemu-roboflow-d6" / "train_one_per_source")), True),
        ("chase", list(crops(photos / "chase-d6-crops" / "train")), False),
        ("throwbench", throwbench_items(), False),
    ]
    if split == "all":
        sets.append(("chase-val", list(crops(photos / "chase-d6-crops" / "val")), False))
    out: list[Sample] = []
    for name, items, boxes in sets:
        chosen = [it for i, it in enumerate(items) if keep(i)]
        got = samples_from(chosen, name, boxes)
        counts = np.bincount([s.label for s in got], minlength=CLASSES)
        print(f"{name}: {len(chosen)} images -> {len(got)} crops, per class {counts.tolist()}", flush=True)
        out += got
    got = sim_samples(SIM_SCENES)
    print(f"simulated camera: {SIM_SCENES} scenes -> {len(got)} crops", flush=True)
    out += got
    if oblique:
        got = oblique_samples(oblique)
        counts = np.bincount([s.label for s in got], minlength=CLASSES)
        print(f"oblique renders: {oblique} photos -> {len(got)} crops, per class {counts.tolist()}")
        out += got
    return out


def augment(patch: np.ndarray, rng: np.random.Generator, turn: bool = True) -> np.ndarray:
    """One random view of a stored patch, cut by the reader's own :func:`face_crop`. With UPRIGHT the
    view keeps the patch's up (mirrored at random: a mirrored face is the same face, and its top stays
    above its front), and is turned by a random quarter turn only when ``turn`` (a die seen from
    straight above looks alike at every turn)."""
    g = patch.astype(np.float32)
    if rng.random() < 0.5:
        s = rng.uniform(0.3, 1.6)
        g = cv2.GaussianBlur(g, (0, 0), s)
    if rng.random() < 0.2:  # motion blur
        k = int(rng.integers(3, 7))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2] = 1.0 / k
        ker = cv2.warpAffine(
            ker, cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1), (k, k)
        )
        g = cv2.filter2D(g, -1, ker / max(ker.sum(), 1e-6))
    g = 255.0 * (np.clip(g, 0, 255) / 255.0) ** rng.uniform(0.6, 1.6)
    g = g * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    g += rng.normal(0, rng.uniform(0, 8), g.shape)
    if rng.random() < 0.3:
        g = 255.0 - g
    g = np.clip(g, 0, 255).astype(np.uint8)
    if UPRIGHT:
        if rng.random() < 0.5:
            g = g[:, ::-1]
        if turn:
            g = np.rot90(g, int(rng.integers(0, 4)))
        g = np.ascontiguousarray(g)
    side = PATCH / PATCH_SPAN * rng.uniform(0.85, 1.18)
    c = PATCH / 2 + rng.uniform(-0.08, 0.08, 2) * side
    angle = rng.uniform(-12, 12) if UPRIGHT else rng.integers(0, 4) * 90 + rng.uniform(-12, 12)
    return face_crop(g, (float(c[0]), float(c[1])), side, float(angle), keep_up=UPRIGHT)


def build_model(widths: tuple[int, int, int, int] = WIDTHS["small"]):  # torch is imported lazily
    import torch.nn as nn

    def block(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2)]

    a, b, c, hidden = widths
    return nn.Sequential(
        *block(1, a),  # 16x16
        *block(a, b),  # 8x8
        *block(b, c),  # 4x4
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(c * 4 * 4, hidden),
        nn.ReLU(),
        nn.Linear(hidden, CLASSES),
    )


def draw_weights(samples: list[Sample], source_weight: dict[str, float] | None = None) -> np.ndarray:
    """Each sample's chance to be drawn in an epoch: the classes balanced (a rarer class is drawn more
    often), then a source's samples ``source_weight[source]`` times as often (the source is the part
    :attr:`Sample.family`: ``chase`` covers ``chase-neg``).

    >>> s = [Sample(np.zeros((1, 1), np.uint8), lab, src) for lab, src in [(0, "a"), (1, "a"), (1, "b")]]
    >>> draw_weights(s).round(2).tolist()
    [0.5, 0.25, 0.25]
    >>> draw_weights(s, {"b": 3.0}).round(3).tolist()
    [0.333, 0.167, 0.5]
    """
    labels = np.array([s.label for s in samples])
    w = 1.0 / np.bincount(labels, minlength=CLASSES)[labels]
    for name, k in (source_weight or {}).items():
        if not k > 0:
            raise ValueError(f"source weight for {name!r} must be positive, got {k}")
        w[[s.family == name for s in samples]] *= k
    return w / w.sum()


def train(
    samples: list[Sample],
    epochs: int,
    widths: tuple[int, int, int, int],
    source_weight: dict[str, float] | None = None,
):  # -> torch.nn.Module
    """One member: ``build_model(widths)`` trained from ``SEED`` (weights, draws and augmentations),
    its crops drawn by :func:`draw_weights` with ``source_weight``."""
    import torch

    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(SEED)
    model = build_model(widths)
    labels = np.array([s.label for s in samples])
    top_down = [s.family in TOP_DOWN for s in samples]
    w = draw_weights(samples, source_weight)
    per_epoch = max(2000, len(samples))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=3e-3, total_steps=epochs * math.ceil(per_epoch / 128)
    )
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.0)
    t0 = time.perf_counter()
    for ep in range(epochs):
        idx = rng.choice(len(samples), per_epoch, p=w)
        x = np.stack([augment(samples[i].patch, rng, top_down[i]) for i in idx])[:, None]
        y = labels[idx]
        model.train()
        total, correct, loss_sum = 0, 0, 0.0
        for b in range(0, per_epoch, 128):
            xb = torch.from_numpy(x[b : b + 128])
            yb = torch.from_numpy(y[b : b + 128]).long()
            opt.zero_grad()
            logits = model(xb)
            loss = loss_fn(logits, yb)
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach()) * len(yb)
            correct += int((logits.argmax(1) == yb).sum())
            total += len(yb)
        if ep % 5 == 4 or ep == epochs - 1:
            print(
                f"epoch {ep + 1}/{epochs}: loss {loss_sum / total:.3f}, train acc {correct / total:.3f} "
                f"({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
    return model.eval()


def export(models: list, out: Path) -> None:
    """Write ``models`` as one ONNX file: a single member's logits as they are; several members as
    the log of their averaged class probabilities (a deep ensemble: what ``facenet.classify`` turns
    back into probabilities with its softmax is exactly that average)."""
    import torch
    import torch.nn as nn

    class Average(nn.Module):
        def __init__(self, members: list) -> None:
            super().__init__()
            self.members = nn.ModuleList(members)

        def forward(self, x):
            total = self.members[0](x).softmax(1)
            for m in self.members[1:]:
                total = total + m(x).softmax(1)
            return torch.log(total * (1.0 / len(self.members)) + 1e-12)

    model = models[0] if len(models) == 1 else Average(models).eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        torch.zeros(1, 1, SIZE, SIZE),
        str(out),
        input_names=["crop"],
        output_names=["logits"],
        dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}},
        opset_version=13,
        dynamo=False,
    )
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KB)")
    if (out.parent / "SHA256SUMS").exists():  # vision/models: the reader checks the sum before loading
        from vision.integrity import record

        print(f"recorded SHA-256 {record(out)[:12]}... in {out.parent / 'SHA256SUMS'}")


def calibrate(model: Path, part: int) -> None:
    """Read images ``i % 4 == part`` once with the whole reader, then score several thresholds."""
    import copy
    import re

    from vision.evaluate import Score, score_item
    from vision.facenet import FaceGuess
    from vision.reader import combine
    from vision.types import CROOKED

    photos = SHARED / "dice-photos"
    sets = [
        ("matteop65", matteop65(photos / "matteop65-webcam-d6" / "Train")),
        ("epanemu", epanemu(photos / "epanemu-roboflow-d6" / "train_one_per_source")),
        ("chase", crops(photos / "chase-d6-crops" / "train")),
        ("throwbench", throwbench(SHARED / "throwbench-dev")),
    ]
    reader = DiceReader(classifier=model)
    read: dict[str, list] = {}
    for name, items in sets:
        read[name] = []
        for i, item in enumerate(items):
            if i % 4 != part:
                continue
            img = decode_image_file(str(item.path))
            rs = reader.read(img)  # as `dice-companion read` reads it (a crop of one die too)
            read[name].append((item, rs))
    pat = re.compile(r"pip (\d) ([\d.]+) net (\w+) ([\d.]+)")
    place_pat = re.compile(r" place=([\d.]+)")  # the confidence a lone pip lost to its place
    print("net_ok pip_min | " + " | ".join(f"{n}: right/dice silent" for n, _ in sets))
    for net_ok in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98):
        for pip_min in (0.0, 0.1, 0.2, 0.3, 0.5):
            cells = []
            for name, _ in sets:
                s = Score(name)
                for item, rs in read[name]:
                    rs = copy.deepcopy(rs)
                    for r in rs:
                        m = next((m for n in r.notes if (m := pat.search(n))), None)
                        if m is None:
                            continue
                        gv = None if m.group(3) == "None" else int(m.group(3))
                        g = FaceGuess(gv, float(m.group(4)), 0.0, np.zeros(CLASSES))
                        place = next((float(p.group(1)) for n in r.notes if (p := place_pat.search(n))), 0.0)
                        v, c, st = combine(int(m.group(1)), float(m.group(2)), g, net_ok, pip_min, place)
                        r.value, r.face, r.confidence = v, str(v), c
                        r.status = CROOKED if r.status == CROOKED else st
                    score_item(item, rs, s)
                cells.append(f"{s.right}/{s.labelled} ({100 * s.accuracy:.1f}%) {s.silent}")
            print(f"{net_ok:.2f} {pip_min:.1f} | " + " | ".join(cells), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=["even", "quarter", "all"], default="even")
    ap.add_argument("--epochs", type=int, default=150)
    ap.add_argument("--out", type=Path, help="default: the shipped model (--upright: the upright one)")
    ap.add_argument("--upright", action="store_true", help="the model that keeps the photo's up")
    ap.add_argument(
        "--members", default=",".join(MEMBERS), help=f"networks averaged, of: {', '.join(WIDTHS)}"
    )
    ap.add_argument("--oblique", type=int, default=0, metavar="N", help="add N rendered oblique photos")
    ap.add_argument(
        "--source-weight",
        action="append",
        default=[],
        metavar="SOURCE=W",
        help=f"draw a source's crops W times as often (SOURCE one of {', '.join(SOURCES)})",
    )
    ap.add_argument("--calibrate", type=int, metavar="PART", help="score images i %% 4 == PART with --out")
    args = ap.parse_args()
    global UPRIGHT
    UPRIGHT = args.upright
    if args.out is None:
        args.out = UPRIGHT_MODEL if UPRIGHT else ROOT / "vision" / "models" / "face_net.onnx"
    cv2.setNumThreads(1)
    if args.calibrate is not None:
        calibrate(args.out, args.calibrate)
        return 0
    members = args.members.split(",")
    if len(set(members)) != len(members) or not set(members) <= set(WIDTHS):
        ap.error(f"--members: distinct names of {', '.join(WIDTHS)}; got {args.members!r}")
    weights: dict[str, float] = {}
    for spec in args.source_weight:
        name, _, value = spec.partition("=")
        if name not in SOURCES:
            ap.error(f"--source-weight: SOURCE is one of {', '.join(SOURCES)}; got {spec!r}")
        try:
            weights[name] = float(value)
        except ValueError:
            ap.error(f"--source-weight: SOURCE=W with W a number; got {spec!r}")
        if not weights[name] > 0:
            ap.error(f"--source-weight: W must be positive; got {spec!r}")
    samples = collect(args.split, args.oblique)
    print(f"{len(samples)} crops", flush=True)
    export([train(samples, args.epochs, WIDTHS[m], weights) for m in members], args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
