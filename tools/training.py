"""What the training scripts share: resumable checkpoints, the learning-rate schedule, ONNX export.

A checkpoint (``WORK/last.pt``) holds the modules' weights, the optimiser and schedule, the last
finished epoch and a ``key`` describing the data (class names, number of samples): a run resumes
only from a checkpoint made on the same data, so a stopped run picks up where it left off and a run
on other data starts afresh. Development extra: needs torch and onnx (see docs/rendering.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch
from torch import nn

CACHE = Path.home() / ".cache" / "dice-companion"
MODELS = Path(__file__).resolve().parent.parent / "vision" / "models"


def arguments(
    description: str, name: str, model: str, epochs: int, batch: int, lr: float
) -> argparse.ArgumentParser:
    """A training script's parser with the options every script has: its checkpoints (``--work``,
    default ``~/.cache/dice-companion/train-NAME``), the model written (``--out``, default
    ``vision/models/MODEL``), the schedule, threads, seed, a limit on the scenes, the shared photos
    and a checkpoint to start from."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--work", type=Path, default=CACHE / f"train-{name}")
    ap.add_argument("--out", type=Path, default=MODELS / model)
    ap.add_argument("--epochs", type=int, default=epochs)
    ap.add_argument("--batch", type=int, default=batch)
    ap.add_argument("--lr", type=float, default=lr)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--limit", type=int, default=None, help="use only the first N scenes of each folder")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--photos", type=Path, default=None, help="the shared folder: learn its real photos too")
    ap.add_argument("--init", type=Path, default=None, help="start from this checkpoint's weights")
    return ap


def begin(seed: int, threads: int, work: Path) -> None:
    """A run's start: torch seeded (a run is repeatable), ``threads`` threads, ``work`` made."""
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    work.mkdir(parents=True, exist_ok=True)


def one_cycle(params: list[nn.Parameter], lr: float, steps: int) -> tuple[torch.optim.Optimizer, object]:
    """AdamW with a one-cycle schedule over ``steps`` steps (a tenth warming up)."""
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    return opt, sched


def save(path: Path, modules: dict[str, nn.Module], opt, sched, epoch: int, key: object) -> None:
    """Write the checkpoint after ``epoch`` (written aside and renamed: a kill never leaves half)."""
    state = {name: m.state_dict() for name, m in modules.items()}
    state.update(opt=opt.state_dict(), sched=sched.state_dict(), epoch=epoch, key=key)
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    tmp.replace(path)


def resume(path: Path, modules: dict[str, nn.Module], opt, sched, key: object) -> int:
    """The epoch to start at: after the checkpoint's, with its state loaded, if it was made on data
    with this ``key``; else 0."""
    if not path.exists():
        return 0
    state = torch.load(path, weights_only=False)
    if state.get("key") != key:
        print(f"{path} was made on other data: starting afresh", flush=True)
        return 0
    for name, m in modules.items():
        m.load_state_dict(state[name])
    opt.load_state_dict(state["opt"])
    sched.load_state_dict(state["sched"])
    print(f"resumed after epoch {state['epoch'] + 1}", flush=True)
    return state["epoch"] + 1


def init_from(path: Path, modules: dict[str, nn.Module], classes: list[str] | None = None) -> None:
    """Start ``modules`` from another run's weights: each one the checkpoint has, where shapes agree.
    With ``classes`` (this run's class names), a per-class weight (one row a class, such as a cosine
    head's) made on other classes keeps the rows of the classes both runs have; new classes start
    afresh."""
    state = torch.load(path, weights_only=False)
    key = state.get("key")
    theirs = key[0] if classes is not None and isinstance(key, tuple) else None
    rows = None if theirs is None else {c: i for i, c in enumerate(theirs)}
    for name, m in modules.items():
        if name not in state:
            continue
        own = m.state_dict()
        fits = {k: v for k, v in state[name].items() if k in own and own[k].shape == v.shape}
        for k, v in state[name].items():
            per_class = rows is not None and v.ndim > 0 and len(v) == len(rows) and own.get(k) is not None
            if k in fits or not per_class or own[k].shape != (len(classes), *v.shape[1:]):
                continue
            w = own[k].clone()
            kept = [(i, rows[c]) for i, c in enumerate(classes) if c in rows]
            for i, j in kept:
                w[i] = v[j]
            fits[k] = w
            print(f"{name}.{k}: {len(kept)} of {len(classes)} classes from {path}", flush=True)
        m.load_state_dict(fits, strict=False)
        print(f"{name}: {len(fits)} of {len(own)} tensors from {path}", flush=True)


def export(
    net: nn.Module, example: torch.Tensor, out: Path, inputs: list[str], outputs: list[str], batch_axis: bool
) -> None:
    """``net`` as an ONNX file OpenCV's dnn reads (opset 13); ``batch_axis``: any number of inputs."""
    net.eval()
    axes = {n: {0: "n"} for n in inputs + outputs} if batch_axis else None
    torch.onnx.export(
        net,
        example,
        str(out),
        input_names=inputs,
        output_names=outputs,
        opset_version=13,
        dynamic_axes=axes,
        dynamo=False,
    )
    print(f"wrote {out} ({out.stat().st_size} bytes)", flush=True)


def init_from_onnx(path: Path, net: nn.Module) -> None:
    """Start ``net`` from a shipped ONNX file exported from the same architecture (the checkpoint it
    came from may be gone): its convolutions in order, each batch norm after one set to pass the
    folded bias through (keep them frozen while fine-tuning: :func:`train_mode`), and every named
    weight (the linear heads) where the names and shapes agree."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    layers = list(net.modules())
    mine = [m for m in layers if isinstance(m, nn.Conv2d)]
    if len(convs) != len(mine):
        raise ValueError(f"{path}: {len(convs)} convolutions, the network has {len(mine)}")
    # by the module each node was exported from (``/stem/stem.0/Conv``: ``stem.0``), where the names
    # say it: the order of execution is not the order of definition when stages and blocks alternate
    named_modules = dict(net.named_modules())
    by_name = [named_modules.get(n.name.rsplit("/", 2)[-2]) if n.name.count("/") > 1 else None for n in convs]
    if all(isinstance(m, nn.Conv2d) for m in by_name) and len({id(m) for m in by_name}) == len(mine):
        mine = by_name
    with torch.no_grad():
        for node, conv in zip(convs, mine, strict=True):
            w = weights[node.input[1]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: {node.name} is {w.shape}, the network's {conv.weight.shape}")
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            bias = torch.from_numpy(np.array(weights[node.input[2]]))
            after = layers.index(conv) + 1
            norm = layers[after] if after < len(layers) else None  # a last convolution: a head
            if isinstance(norm, nn.BatchNorm2d):
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
            elif conv.bias is not None:
                conv.bias.copy_(bias)
        own = net.state_dict()
        named = {
            k: torch.from_numpy(np.array(v))
            for k, v in weights.items()
            if k in own and own[k].shape == v.shape
        }
        net.load_state_dict(named, strict=False)
    print(f"{len(convs)} convolutions and {len(named)} named tensors from {path}", flush=True)


def train_mode(net: nn.Module, frozen_norms: bool = False) -> None:
    """``net`` in training mode; with ``frozen_norms`` its batch norms stay in eval mode (their
    statistics fixed: the norms :func:`init_from_onnx` made pass a folded bias through)."""
    net.train()
    if frozen_norms:
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()
