"""Train the dice locator (vision/locator.py) on rendered throws and export it to ONNX for ``cv2.dnn``.

A CenterNet-style network: per cell of a grid 4 times coarser than its 320x240 input, the heat of a
die's centre (focal loss on Gaussian peaks), the die's size (log of the diameter of the circle round
its outline, L1), the centre's offset in the cell (L1) and the die's shape (cross-entropy); the last
three only at the cells of true centres. Every epoch sees each throw freshly scaled, shifted,
flipped, relit, blurred and noised. Seeds fixed, torch single-threaded by default: repeatable.
Set-up as for tools/train_face_reader.py; checkpoints in ``--work``, resumed after a stop::

    nice .venv-train/bin/python tools/train_locator.py --renders ~/.cache/dice-companion/renders
"""

from __future__ import annotations

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

from vision.locator import HEADS, INPUT_H, INPUT_W, SHAPES, STRIDE  # noqa: E402

# trained on 256x192 windows of the 320x240 input (the network is fully convolutional: it runs on the
# whole input), which costs two thirds of the whole
TRAIN_W, TRAIN_H = 256, 192
GH, GW = TRAIN_H // STRIDE, TRAIN_W // STRIDE


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Locator(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = conv(3, 16, 2)
        self.d4 = nn.Sequential(conv(16, 32, 2), conv(32, 32))
        self.d8 = nn.Sequential(conv(32, 64, 2), conv(64, 64))
        self.d16 = nn.Sequential(conv(64, 96, 2), conv(96, 96), conv(96, 96))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.u8 = conv(96 + 64, 48)
        self.u4 = nn.Sequential(conv(48 + 32, 32), conv(32, 32))
        self.head = nn.Conv2d(32, HEADS, 1)
        with torch.no_grad():
            self.head.bias.zero_()
            self.head.bias[0] = -2.19

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.d4(self.stem(x))
        f8 = self.d8(f4)
        f16 = self.d16(f8)
        u8 = self.u8(torch.cat([self.up(f16), f8], 1))
        u4 = self.u4(torch.cat([self.up(u8), f4], 1))
        return self.head(u4)


def load(renders: Path, limit: int | None) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each throw as (frame, dice: rows of x, y, diameter, shape index), frame kept at full size. The
    point learnt is the top face's centre (a d4's top vertex), where the face reader looks: seen from
    a camera a little aside, it lies off the outline's centre, towards the camera."""
    out = []
    for f in sorted((renders / "scenes").glob("*.json"))[:limit]:
        doc = json.loads(f.read_text())
        img = cv2.imread(str(f.with_suffix(".jpg")))
        dice = np.array(
            [[*d["top_center"], d["disc"][2], SHAPES.index(d["shape"])] for d in doc["dice"]], np.float32
        ).reshape(-1, 4)
        out.append((img, dice))
    return out


def photos(shared: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """Real photos of pip dice, the even-indexed halves (the odd ones stay held out): the webcam set
    (a box round each die's pips: its centre is the top face's, its size unknown, so not learnt: NaN) and
    epanemu (boxes round whole dice, many backgrounds)."""
    from vision.evaluate import epanemu, matteop65

    out = []
    d6 = SHAPES.index("d6")
    sets = [
        (matteop65, shared / "dice-photos" / "matteop65-webcam-d6" / "Train", False),
        (epanemu, shared / "dice-photos" / "epanemu-roboflow-d6" / "train_one_per_source", True),
    ]
    for items, folder, whole in sets:
        if not folder.is_dir():
            continue
        for i, item in enumerate(items(folder)):
            if i % 2:
                continue
            img = cv2.imread(str(item.path))
            rows = [[*lab.center, 1.15 * lab.size if whole else np.nan, d6] for lab in item.labels]
            out.append((img, np.array(rows, np.float32).reshape(-1, 4)))
    return out


def sample(rng: np.random.Generator, img: np.ndarray, dice: np.ndarray) -> tuple[np.ndarray, dict]:
    """One augmented input and its targets."""
    h, w = img.shape[:2]
    s = INPUT_W / w * rng.uniform(0.75, 1.35)  # as the 320x240 input shows the frame, give or take
    cx, cy = rng.uniform(0.35, 0.65) * w, rng.uniform(0.35, 0.65) * h
    m = np.array([[s, 0, TRAIN_W / 2 - s * cx], [0, s, TRAIN_H / 2 - s * cy]], np.float32)
    if rng.random() < 0.5:
        m[0] = -m[0]
        m[0, 2] += TRAIN_W
    if rng.random() < 0.5:
        m[1] = -m[1]
        m[1, 2] += TRAIN_H
    border = cv2.BORDER_REFLECT if rng.random() < 0.7 else cv2.BORDER_CONSTANT
    x = cv2.warpAffine(img, m, (TRAIN_W, TRAIN_H), flags=cv2.INTER_AREA, borderMode=border)
    x = x.astype(np.float32) / 255.0
    x = x * rng.uniform(0.6, 1.4) * (1 + rng.normal(0, 0.06, 3))[None, None, :]
    x = np.clip(x, 0, 1) ** rng.uniform(0.75, 1.3)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.0))
    x = np.clip(x + rng.normal(0, rng.uniform(0, 0.03), x.shape), 0, 1)
    heat = np.zeros((GH, GW), np.float32)
    size = np.zeros((GH, GW), np.float32)
    off = np.zeros((2, GH, GW), np.float32)
    shape = np.zeros((GH, GW), np.int64)
    mask = np.zeros((GH, GW), np.float32)
    yy, xx = np.mgrid[0:GH, 0:GW].astype(np.float32)
    for dx, dy, dd, sk in dice:
        px, py = m @ np.array([dx, dy, 1.0])
        d = dd * s / STRIDE
        gx, gy = px / STRIDE - 0.5, py / STRIDE - 0.5
        ix, iy = round(gx), round(gy)
        if not (0 <= ix < GW and 0 <= iy < GH):
            continue
        sigma = max(0.6, d / 6) if np.isfinite(d) else 1.0
        heat = np.maximum(heat, np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2)))
        heat[iy, ix] = 1.0
        size[iy, ix] = math.log(max(d, 0.5)) if np.isfinite(d) else np.nan
        off[:, iy, ix] = (gx - ix, gy - iy)
        shape[iy, ix] = int(sk)
        mask[iy, ix] = 1.0
    return ((x - 0.5) / 0.25).transpose(2, 0, 1), {
        "heat": heat,
        "size": size,
        "off": off,
        "shape": shape,
        "mask": mask,
    }


def focal(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(pred).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def main(argv: list[str] | None = None) -> int:
    ap = training.arguments(__doc__.splitlines()[0], "locator", "dice_locator.onnx", 16, 32, 3e-3)
    ap.add_argument("--renders", type=Path, default=training.CACHE / "renders")
    ap.add_argument("--repeat", type=int, default=3, help="how many times an epoch shows each photo")
    args = ap.parse_args(argv)
    training.begin(args.seed, args.threads, args.work)
    t0 = time.time()
    data = load(args.renders, args.limit)
    if args.photos is not None:
        data += photos(args.photos) * args.repeat
    print(
        f"{len(data)} throws, {sum(len(d) for _, d in data)} dice, loaded in {time.time() - t0:.0f} s",
        flush=True,
    )
    net = Locator()
    modules = {"net": net}
    if args.init is not None:
        training.init_from(args.init, modules)
    steps = math.ceil(len(data) / args.batch)
    opt, sched = training.one_cycle(list(net.parameters()), args.lr, steps * args.epochs)
    ckpt = args.work / "last.pt"
    start = training.resume(ckpt, modules, opt, sched, key=len(data))
    for epoch in range(start, args.epochs):
        rng = np.random.default_rng([args.seed, epoch])
        order = rng.permutation(len(data))
        net.train()
        parts, t1 = [], time.time()
        for b in range(steps):
            items = [sample(rng, *data[i]) for i in order[b * args.batch : (b + 1) * args.batch]]
            x = torch.from_numpy(np.stack([i[0] for i in items]).astype(np.float32))
            t = {k: torch.from_numpy(np.stack([i[1][k] for i in items])) for k in items[0][1]}
            out = net(x)
            n = t["mask"].sum().clamp(min=1)
            l_heat = focal(out[:, 0], t["heat"])
            known = t["mask"] * torch.isfinite(t["size"])
            l_size = (F.l1_loss(out[:, 1], torch.nan_to_num(t["size"]), reduction="none") * known).sum() / n
            l_off = (F.l1_loss(out[:, 2:4], t["off"], reduction="none") * t["mask"][:, None]).sum() / n
            ce = F.cross_entropy(out[:, 4:], t["shape"], reduction="none")
            l_shape = (ce * t["mask"]).sum() / n
            loss = l_heat + l_size + l_off + 0.5 * l_shape
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            parts.append([float(v.detach()) for v in (l_heat, l_size, l_off, l_shape)])
        training.save(ckpt, modules, opt, sched, epoch, key=len(data))
        p = np.mean(parts, axis=0)
        print(
            f"epoch {epoch + 1}/{args.epochs} heat {p[0]:.3f} size {p[1]:.3f} off {p[2]:.3f} shape {p[3]:.3f}"
            f" ({time.time() - t1:.0f} s)",
            flush=True,
        )
    training.export(net, torch.zeros(1, 3, INPUT_H, INPUT_W), args.out, ["frame"], ["maps"], False)
    print(f"done in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
