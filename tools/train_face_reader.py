"""Train the face reader (vision/facereader.py) on rendered dice and export it to ONNX for ``cv2.dnn``.

The face reader maps a crop round one die to an embedding: a unit vector that lies close to the
embeddings of the same face of the same die, whatever the light, turn, size or surface, and far from
every other face and every other die. Reading a die is then finding the nearest enrolled face, so a
die the model never saw is taught by 1-3 photos per face (``dice-companion enroll``), without
retraining. A second output says whether the die leans (``crooked``).

It learns from the crops ``tools/render_dice.py`` writes: the games' dice (looks.toml) and random
designs, each face of each die one class of a cosine-margin classifier (CosFace) whose weights are
dropped after training. Every epoch sees fresh augmentations (turn, scale, shift, light, colour
balance, blur, camera shake, noise). Seeds are fixed and torch runs single-threaded, so a run is repeatable.
Needs torch and onnx, which are not runtime dependencies (see docs/vision.md, "Training")::

    python3 -m venv .venv-train
    .venv-train/bin/pip install /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl \\
        onnx numpy opencv-python-headless pygame-ce
    nice .venv-train/bin/python tools/train_face_reader.py --renders ~/.cache/dice-companion/renders

Checkpoints go to ``--work`` after every epoch; a stopped run resumes from the last one.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.nn import functional as F  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import training  # noqa: E402
from dicerender.render import shake  # noqa: E402
from render_dice import CROP, CROP_SPAN, crop  # noqa: E402  (the stored crops: side and span)

from vision.facereader import CHANNELS, EMBED, INPUT, PLAIN_D6, SPAN, SPANS, Gallery  # noqa: E402


class FaceNet(nn.Module):
    """A small plain CNN: INPUT x INPUT BGR -> EMBED-dimensional embedding, a lean logit and a
    centred logit (the crop is centred on a die's top face, not beside it or between two dice),
    and the ``descriptor`` an enrolled set's own classifier reads (vision/facehead.py): the last
    feature map's mean and its centre cell, the top face itself."""

    def __init__(self, width: int = 24) -> None:
        super().__init__()

        def conv(cin: int, cout: int, stride: int) -> list[nn.Module]:
            layer = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            return [layer, nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

        w = width
        self.features = nn.Sequential(
            *conv(CHANNELS, w, 2),  # 24
            *conv(w, w, 1),
            *conv(w, w, 1),
            *conv(w, 2 * w, 2),  # 12
            *conv(2 * w, 2 * w, 1),
            *conv(2 * w, 4 * w, 2),  # 6
            *conv(4 * w, 4 * w, 1),
            *conv(4 * w, 6 * w, 2),  # 3
            *conv(6 * w, 6 * w, 1),
        )
        self.embed = nn.Linear(6 * w, EMBED)
        self.lean = nn.Linear(6 * w, 1)
        self.centred = nn.Linear(6 * w, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        maps = self.features(x)  # 3 x 3 cells
        x = maps.mean(dim=(2, 3))
        descriptor = torch.cat([x, maps[:, :, 1, 1]], dim=1)
        return self.embed(x), self.lean(x), self.centred(x), descriptor


class CosFace(nn.Module):
    def __init__(self, classes: int, scale: float = 24.0, margin: float = 0.25) -> None:
        super().__init__()
        self.w = nn.Parameter(torch.randn(classes, EMBED) * 0.05)
        self.scale, self.margin = scale, margin

    def forward(self, e: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        cos = F.normalize(e) @ F.normalize(self.w).T
        onehot = F.one_hot(y, cos.shape[1]).float()
        return F.cross_entropy(self.scale * (cos - self.margin * onehot), y)


def load(
    renders: list[Path],
    limit: int | None = None,
    shared: Path | None = None,
    locator_model: Path | None = None,
    photo_repeat: int = 1,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str], np.ndarray]:
    """Crops, class index, crooked flag, class names and where the top face's
    centre lies in the crop (px from the crop's centre) of every rendered die in the ``renders``
    folders, and of the real photos' dice under ``shared`` if given (each ``photo_repeat`` times; the
    locator ``locator_model`` finds the webcam photos' dice)."""
    crops, names, lean, top = [], [], [], []
    if shared is not None:
        pc, pn = photo_dice(shared, locator_model)
        pc, pn = pc * photo_repeat, pn * photo_repeat
        crops += pc
        names += pn
        lean += [False] * len(pc)
        top += [(0.0, 0.0)] * len(pc)  # boxes round dice seen from above: the top face about centred
    files = [f for r in renders for f in sorted((r / "scenes").glob("*.json"))[:limit]]
    for f in files:
        doc = json.loads(f.read_text())
        c = np.load(f.with_suffix(".npz"))["crops"]
        for d, img in zip(doc["dice"], c, strict=True):
            k = CROP / (CROP_SPAN * d["disc"][2])
            top.append(((d["top_center"][0] - d["disc"][0]) * k, (d["top_center"][1] - d["disc"][1]) * k))
            crops.append(img)
            names.append(d["class"])
            lean.append(d["crooked"])
    classes = sorted(set(names))
    index = {n: i for i, n in enumerate(classes)}
    y = np.array([index[n] for n in names])
    return np.stack(crops), y, np.array(lean, np.float32), classes, np.array(top, np.float32)


PHOTO_SETS = ("webcam", "phone", "casino")


def photo_dice(
    shared: Path, locator_model: Path | None = None, sets: tuple[str, ...] = PHOTO_SETS
) -> tuple[list[np.ndarray], list[str]]:
    """Crops of real pip dice (class ``photo-d6/<face>``) from the even-indexed photos of the shared
    ``sets`` (the odd halves stay held out): the top-down webcam set (cut
    where the locator finds each labelled die, as the reader will: its boxes hold the pips, not the
    die), epanemu's phone photos (boxes round whole dice, many colours) and chase's casino crops (one
    translucent die per crop). Cut as the renders are."""
    from vision import locator
    from vision.evaluate import crops as crop_items
    from vision.evaluate import epanemu, matteop65

    out, names = [], []

    def cut(image: np.ndarray, center: tuple[float, float], diameter: float) -> np.ndarray:
        return crop(image, [center[0], center[1], diameter], cv2.BORDER_REPLICATE)

    net = locator.load(locator_model)
    w = shared / "dice-photos" / "matteop65-webcam-d6" / "Train"
    if "webcam" in sets and w.is_dir() and net is not None:
        for i, item in enumerate(matteop65(w)):
            if i % 2:
                continue
            image = cv2.imread(str(item.path))
            spots = locator.locate(net, image)
            for lab in item.labels:
                near = [p for p in spots if math.dist(p.center, lab.center) <= lab.radius]
                if near:
                    p = min(near, key=lambda p: math.dist(p.center, lab.center))
                    out.append(cut(image, p.center, p.size))
                    names.append(f"photo-d6/{lab.face}")
    photos = shared / "dice-photos"
    e = photos / "epanemu-roboflow-d6" / "train_one_per_source"
    if "phone" in sets and e.is_dir():
        for i, item in enumerate(epanemu(e)):
            if i % 2:
                continue
            image = cv2.imread(str(item.path))
            for lab in item.labels:
                out.append(cut(image, lab.center, 1.15 * lab.size))
                names.append(f"photo-d6/{lab.face}")
    c = photos / "chase-d6-crops" / "train"
    if "casino" in sets and c.is_dir():
        for i, item in enumerate(crop_items(c)):
            if i % 2:
                continue
            image = cv2.imread(str(item.path))
            h, w = image.shape[:2]
            out.append(cut(image, (w / 2, h / 2), 0.9 * max(w, h)))
            names.append(f"photo-d6/{item.labels[0].face}")
    return out, names


#: a die's diameter in a stored crop (px)
DIE = CROP / CROP_SPAN
#: the locator's centre is off by this share of the die (standard deviation); ``--centre-jitter``
CENTRE_JITTER = 0.1
#: the locator's size is off by a factor in this range (log-uniform); ``--size-jitter``
SIZE_JITTER = (0.8, 1.25)
#: a crop centred this near a die's top face (share of the die) is centred on it ...
CENTRED_WITHIN = 0.15
#: ... and one this far or farther is not: beside it, on its edge, or between two touching dice
ASIDE_FROM = 0.25
ASIDE_TO = 0.5
#: share of training views cut aside (taught only "not centred": no face, no lean)
ASIDE_SHARE = 0.3
#: share of training views drawn out by camera shake, and how far the camera moves (share of the
#: die): a webcam's dice held still can still be smeared into dashes (matteop65's two_47, three_29)
SHAKE_SHARE = 0.2
SHAKE = (0.04, 0.2)


def coarsen(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """The stored crop as a camera sees a die 28-56 px across (the tray camera's dice are 30-45 px;
    the renders draw them larger): shrunk to that scale, JPEG-compressed there, and enlarged back."""
    side = round(rng.uniform(28, 56) * CROP_SPAN)
    small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.7:
        _, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 96))])
        small = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR)


def augment(
    rng: np.random.Generator,
    crop: np.ndarray,
    top: np.ndarray,
    shift: np.ndarray,
    spans: tuple[float, ...] = SPANS,
) -> np.ndarray:
    """One training view of a stored crop, as :func:`vision.facereader.cut` shows a die (the whole die
    and its top face close up, or the ``spans`` given, all centred ``shift`` px from its top face,
    which lies ``top`` px from the crop's centre): turned, scaled, relit, shaken, blurred, noisy."""
    if rng.random() < SHAKE_SHARE:
        length = round(rng.uniform(*SHAKE) * DIE)
        crop = shake(crop, length, rng.uniform(0, np.pi))
    if rng.random() < 0.5:
        crop = coarsen(rng, crop)
    jitter = float(np.exp(rng.uniform(*np.log(SIZE_JITTER))))  # the locator's size errs
    c = CROP / 2 + top + shift
    turn = float(rng.uniform(0, 360))
    views = []
    for span in spans:
        side = CROP * span / CROP_SPAN * jitter
        m = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), turn, INPUT / side)
        m[:, 2] += np.array([INPUT / 2, INPUT / 2]) - c
        flags = {"flags": cv2.INTER_LINEAR, "borderMode": cv2.BORDER_REFLECT}
        views.append(cv2.warpAffine(crop, m, (INPUT, INPUT), **flags))
    x = np.dstack(views).astype(np.float32) / 255.0
    gain = rng.uniform(0.6, 1.4) * np.tile(1 + rng.normal(0, 0.05, 3), len(spans))
    x = x * gain[None, None, :] + rng.normal(0, 0.05)
    x = np.clip(x, 0, 1) ** rng.uniform(0.75, 1.3)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.2))
    x = x + rng.normal(0, rng.uniform(0, 0.04), x.shape)
    return np.clip(x, 0, 1).astype(np.float32)


def beside(rng: np.random.Generator, crop: np.ndarray, other: np.ndarray, angle: float) -> np.ndarray:
    """``crop`` with the die of ``other`` pasted touching it, towards ``angle``: a die's whole view
    takes in its neighbour, which must not decide which die or face it is."""
    shift = DIE * rng.uniform(0.85, 1.05) * np.array([np.cos(angle), np.sin(angle)])
    m = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
    moved = cv2.warpAffine(other, m, (CROP, CROP), borderMode=cv2.BORDER_REFLECT)
    mask = np.zeros((CROP, CROP), np.float32)
    cv2.circle(mask, (round(CROP / 2 + shift[0]), round(CROP / 2 + shift[1])), round(0.45 * DIE), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.5)[..., None]
    return (crop * (1 - mask) + moved * mask).astype(np.uint8)


def size_jitter_argument(ap: argparse.ArgumentParser) -> None:
    """``--size-jitter LO HI``: the range of the locator's size errors the views are cut with."""
    ap.add_argument("--size-jitter", type=float, nargs=2, default=SIZE_JITTER, metavar=("LO", "HI"),
                    help="the die's size in a view is off by a factor in [LO, HI] (log-uniform): the "
                    "locator's size errors; the path-traced d4s are measured at 0.75 of their circle")


def batch(
    rng, crops, top, idx, aside_share: float = ASIDE_SHARE, spans: tuple[float, ...] = SPANS
) -> tuple[torch.Tensor, np.ndarray, np.ndarray]:
    """A batch of training views (of ``spans``: :func:`augment`) of the dice ``idx``; whether each
    view is centred on its die's top face (1), cut aside (0) or in between (0.5, not taught); and
    which views show a die to read (the ones not cut aside; ``aside_share`` of them are). Views cut
    aside go towards a pasted neighbour half the time: the locator's worst point lies between two
    touching dice."""
    d = CROP * SPAN / CROP_SPAN  # a die's size in a stored crop
    views, centred = [], []
    for i in idx:
        aside = rng.random() < aside_share
        angle = rng.uniform(0, 2 * np.pi)
        c = crops[i]
        if rng.random() < (0.6 if aside else 0.3):
            c = beside(rng, c, crops[rng.integers(len(crops))], angle)
            if aside and rng.random() < 0.5:
                angle += rng.normal(0, 0.3)  # towards the neighbour
            else:
                angle = rng.uniform(0, 2 * np.pi)
        if aside:
            r = rng.uniform(ASIDE_FROM, ASIDE_TO) * d
            shift = r * np.array([np.cos(angle), np.sin(angle)])
        else:
            shift = rng.normal(0, CENTRE_JITTER * d, 2)
        off = float(np.hypot(*shift)) / d
        centred.append(1.0 if off <= CENTRED_WITHIN else 0.0 if off >= ASIDE_FROM else 0.5)
        views.append(augment(rng, c, top[i], shift, spans))
    xs = np.stack(views)
    x = torch.from_numpy(((xs - 0.5) / 0.25).transpose(0, 3, 1, 2).copy())
    centred = np.array(centred, np.float32)
    return x, centred, centred != 0.0


def class_means(net: FaceNet, rng: np.random.Generator, crops, top, y, classes: int) -> torch.Tensor:
    """Each class's mean unit embedding over one training view of each of its dice: a cosine head's
    starting weights when the network starts trained and the head does not (``--init-onnx``)."""
    net.eval()
    sums = torch.zeros(classes, EMBED)
    with torch.no_grad():
        for b in range(0, len(crops), 256):
            idx = np.arange(b, min(b + 256, len(crops)))
            e = F.normalize(net(batch(rng, crops, top, idx, 0.0)[0])[0])
            sums.index_add_(0, torch.from_numpy(y[idx]), e)
    return F.normalize(sums)


def main(argv: list[str] | None = None) -> int:
    global CENTRE_JITTER, SIZE_JITTER  # --centre-jitter and --size-jitter set them for augment()
    ap = training.arguments(__doc__.splitlines()[0], "face", "face_reader.onnx", 24, 128, 2e-3)
    ap.add_argument(
        "--renders", type=Path, nargs="+", default=[training.CACHE / "renders"], help="render_dice.py outputs"
    )
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="start from this exported model (its batch norms then stay frozen)")
    ap.add_argument("--locator", type=Path, default=None, help="locator model cutting the webcam photos")
    ap.add_argument("--photo-repeat", type=int, default=3, help="times an epoch shows each photo's die")
    ap.add_argument("--margin", type=float, default=0.25, help="CosFace margin between a face and the others")
    ap.add_argument("--scale", type=float, default=24.0, help="CosFace scale (inverse temperature)")
    ap.add_argument("--centre-jitter", type=float, default=CENTRE_JITTER,
                    help="standard deviation of the crop centre's offset, in die sizes")
    size_jitter_argument(ap)
    args = ap.parse_args(argv)
    CENTRE_JITTER, SIZE_JITTER = args.centre_jitter, tuple(args.size_jitter)
    training.begin(args.seed, args.threads, args.work)
    t0 = time.time()
    crops, y, lean, classes, top = load(
        args.renders, args.limit, args.photos, args.locator, args.photo_repeat
    )
    print(f"{len(crops)} dice, {len(classes)} classes, loaded in {time.time() - t0:.0f} s", flush=True)
    net, head = FaceNet(), CosFace(len(classes), args.scale, args.margin)
    modules = {"net": net, "head": head}
    if args.init is not None:
        training.init_from(args.init, modules, classes)
    if args.init_onnx is not None:
        training.init_from_onnx(args.init_onnx, net)
        with torch.no_grad():
            head.w.copy_(class_means(net, np.random.default_rng(args.seed), crops, top, y, len(classes)))
    steps_per_epoch = math.ceil(len(crops) / args.batch)
    opt, sched = training.one_cycle(
        [*net.parameters(), *head.parameters()], args.lr, steps_per_epoch * args.epochs
    )
    ckpt = args.work / "last.pt"
    start = training.resume(ckpt, modules, opt, sched, key=(classes, len(crops)))
    for epoch in range(start, args.epochs):
        rng = np.random.default_rng([args.seed, epoch])
        order = rng.permutation(len(crops))
        training.train_mode(net, frozen_norms=args.init_onnx is not None)
        losses, t1 = [], time.time()
        for b in range(steps_per_epoch):
            idx = order[b * args.batch : (b + 1) * args.batch]
            x, centred, read = batch(rng, crops, top, idx)
            e, lg, cg, _ = net(x)
            keep = torch.from_numpy(read)
            taught = torch.from_numpy(centred != 0.5)
            loss = (
                head(e[keep], torch.from_numpy(y[idx][read]))
                + 0.5 * F.binary_cross_entropy_with_logits(lg[keep, 0], torch.from_numpy(lean[idx][read]))
                + F.binary_cross_entropy_with_logits(cg[taught, 0], torch.from_numpy(centred)[taught])
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(float(loss.detach()))
        training.save(ckpt, modules, opt, sched, epoch, key=(classes, len(crops)))
        print(
            f"epoch {epoch + 1}/{args.epochs} loss {np.mean(losses):.3f} ({time.time() - t1:.0f} s)",
            flush=True,
        )
    outputs = ["embedding", "lean", "centred", "descriptor"]
    training.export(net, torch.zeros(1, CHANNELS, INPUT, INPUT), args.out, ["crop"], outputs, True)
    gallery = default_gallery(head, classes)
    gallery.save(args.out.with_name("face_gallery.npz"))
    print(f"default gallery: {len(set(gallery.dice))} dice, {len(gallery.dice)} faces", flush=True)
    print(f"done in {time.time() - t0:.0f} s", flush=True)
    return 0


def default_gallery(head: CosFace, classes: list[str]) -> Gallery:
    """The faces every reader knows before any enrolment: the learnt class centres of the games' dice
    (a look of companion/data/looks.toml) and of the photos' pip dice. Plain pip dice, whatever their
    colours, are one die ``d6`` (the white and red standard dice and the photos' dice)."""
    from companion.looks import all_looks

    looks = all_looks()
    weights = F.normalize(head.w.detach()).numpy()
    gallery = Gallery()
    for i, name in enumerate(classes):
        look, face = name.split("/", 1)
        if look not in looks and look != "photo-d6":
            continue
        die = "d6" if look in ("photo-d6", *PLAIN_D6) else look
        gallery.add(die, face, weights[i])
    return gallery


if __name__ == "__main__":
    raise SystemExit(main())
