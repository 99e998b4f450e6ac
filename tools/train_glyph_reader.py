"""Train the glyph reader (vision/glyphreader.py): what a die's top face shows, whatever the die.

The face reader (tools/train_face_reader.py) tells each face of each die apart; this second network,
trained from scratch on the same renders and photos, names the face's artwork alone (``pips:4``,
``text:11``, ``curve``, ``disco:#2fa84a``: the art of ``companion/data/looks.toml`` and of the
random designs), pooled over every die that shows it: four pips on a white, red, purple or random
die are one class. Its errors are its own, so the reader calls a face ``ok`` only where the two
agree (docs/vision.md, "Judge"). A d4's value at its top vertex is its own class (``d4/text:3``):
it is read from three squashed faces, not one. Unmarked 6 and 9 are one class (a turn apart).

Same views as the face reader (vision/facereader.cut: the whole die and its top face close up),
same augmentation, seeded and resumable; needs torch and onnx (docs/models.md)::

    .venv-train/bin/python tools/train_glyph_reader.py --renders ~/.cache/dice-companion/renders \\
        ~/.cache/dice-companion/patches --photos ../shared --out /tmp/glyph_reader.onnx
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

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.nn import functional as F  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import train_face_reader  # noqa: E402
import training  # noqa: E402
from dicerender.designs import random_design  # noqa: E402
from train_face_reader import batch, load, size_jitter_argument  # noqa: E402

from companion.looks import all_looks  # noqa: E402
from vision.facereader import INPUT  # noqa: E402
from vision.glyphreader import SPANS, glyph_of  # noqa: E402
from vision.glyphreader import load as load_glyphs  # noqa: E402

CHANNELS = 3 * len(SPANS)


def class_glyph(name: str) -> str:
    """The glyph a training class (``look/face``, ``randNNNN/fK`` or ``photo-d6/N``) shows."""
    die, face = name.split("/", 1)
    if die == "photo-d6":
        return f"pips:{face}"
    looks = all_looks()
    if die in looks:
        look = looks[die]
        return glyph_of(look.shape, look.art_for(face))
    design = random_design(int(die[4:]))
    return glyph_of(design.shape, design.arts[design.labels.index(face)])


class GlyphNet(nn.Module):
    """A small residual CNN: the views of ``vision.glyphreader.SPANS`` -> one logit per glyph."""

    def __init__(self, glyphs: int, width: int = 32) -> None:
        super().__init__()
        w = width

        def conv(cin: int, cout: int, stride: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
            )

        self.stem = conv(CHANNELS, w, 2)  # 24
        self.stages = nn.ModuleList()
        self.blocks = nn.ModuleList()
        for cin, cout in ((w, w), (w, 2 * w), (2 * w, 4 * w), (4 * w, 6 * w)):
            self.stages.append(conv(cin, cout, 1 if cin == cout else 2))  # 24, 12, 6, 3
            self.blocks.append(
                nn.Sequential(
                    conv(cout, cout, 1),
                    nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
                    nn.BatchNorm2d(cout),
                )
            )
        self.head = nn.Linear(6 * w, glyphs)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        for stage, block in zip(self.stages, self.blocks, strict=True):
            x = stage(x)
            x = F.relu(x + block(x))
        return self.head(x.mean(dim=(2, 3)))


def main(argv: list[str] | None = None) -> int:
    ap = training.arguments(__doc__.splitlines()[0], "glyph", "glyph_reader.onnx", 14, 128, 3e-3)
    ap.add_argument("--renders", type=Path, nargs="+", default=[training.CACHE / "renders"])
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--photo-repeat", type=int, default=3, help="times an epoch shows each photo's die")
    ap.add_argument("--smoothing", type=float, default=0.1, help="label smoothing")
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="start from this exported model, keeping its glyphs (its batch norms stay frozen)")
    size_jitter_argument(ap)
    args = ap.parse_args(argv)
    train_face_reader.SIZE_JITTER = tuple(args.size_jitter)
    training.begin(args.seed, args.threads, args.work)
    t0 = time.time()
    crops, y, _, classes, top = load(args.renders, args.limit, args.photos, None, args.photo_repeat)
    glyph_names = [class_glyph(c) for c in classes]
    glyphs = sorted(set(glyph_names))
    if args.init_onnx is not None:  # its outputs, in its order: the renders may not show every one
        shipped = load_glyphs(args.init_onnx)  # its description read and checked as the reader does
        if shipped is None:
            raise SystemExit(f"{args.init_onnx} or its .json is not usable (see the warning above)")
        if unknown := set(glyphs) - set(shipped.names):
            raise SystemExit(f"{args.init_onnx} does not know the glyphs {sorted(unknown)[:5]}: use --init")
        glyphs = list(shipped.names)
    index = {g: i for i, g in enumerate(glyphs)}
    g = np.array([index[glyph_names[c]] for c in y])
    print(f"{len(crops)} dice, {len(classes)} classes, {len(glyphs)} glyphs, loaded in "
          f"{time.time() - t0:.0f} s", flush=True)
    net = GlyphNet(len(glyphs), args.width)
    modules = {"net": net}
    if args.init is not None:
        training.init_from(args.init, modules, glyphs)
    if args.init_onnx is not None:
        training.init_from_onnx(args.init_onnx, net)
    steps = math.ceil(len(crops) / args.batch)
    opt, sched = training.one_cycle(list(net.parameters()), args.lr, steps * args.epochs)
    ckpt = args.work / "last.pt"
    start = training.resume(ckpt, modules, opt, sched, key=(glyphs, len(crops)))
    for epoch in range(start, args.epochs):
        rng = np.random.default_rng([args.seed, epoch])
        order = rng.permutation(len(crops))
        training.train_mode(net, frozen_norms=args.init_onnx is not None)
        losses, right, t1 = [], 0, time.time()
        for b in range(steps):
            idx = order[b * args.batch : (b + 1) * args.batch]
            x, _, _ = batch(rng, crops, top, idx, 0.0, SPANS)
            target = torch.from_numpy(g[idx])
            logits = net(x)
            loss = F.cross_entropy(logits, target, label_smoothing=args.smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(float(loss.detach()))
            right += int((logits.argmax(1) == target).sum())
        training.save(ckpt, modules, opt, sched, epoch, key=(glyphs, len(crops)))
        print(f"epoch {epoch + 1}/{args.epochs} loss {np.mean(losses):.3f} train top-1 "
              f"{right / len(crops):.3f} ({time.time() - t1:.0f} s)", flush=True)
    training.export(net, torch.zeros(1, CHANNELS, INPUT, INPUT), args.out, ["crop"], ["glyph"], True)
    args.out.with_suffix(".json").write_text(json.dumps({"glyphs": glyphs, "spans": SPANS}, indent=0) + "\n")
    print(f"done in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
