"""The vision commands of ``dice-companion``: read, watch, enroll, sets.

``dice_companion/cli.py`` calls :func:`register` with its sub-parsers; each command sets
``args.func`` (as the lead's commands do), which returns the exit status.

* ``read [--set NAME] --json IMAGE...``: one JSON object per image per line.
* ``watch [--set NAME] --json VIDEO``: one JSON line per settled throw (VIDEO: a file, a folder
  of frames, a camera number, ``pi`` or ``sim``).
* ``enroll --set NAME DIR``: learn dice from ``DIR/<die id>/<face>/*.jpg|png``.
* ``sets list`` / ``sets delete NAME``.

Errors go to stderr as one line; a bad image in ``read`` gives ``{"image": ..., "error": ...}``
and exit status 1 after the other images are read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from vision.types import VisionError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("read", help="read the dice in photos")
    p.add_argument("--set", dest="set_name", help="an enrolled set of dice to recognise too")
    p.add_argument("--json", action="store_true", help="JSON lines output (the default)")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.set_defaults(func=cmd_read)

    p = subparsers.add_parser("watch", help="watch a video or camera and read each settled throw")
    p.add_argument("--set", dest="set_name", help="an enrolled set of dice to recognise too")
    p.add_argument("--json", action="store_true", help="JSON lines output (the default)")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds without a frame before giving up")
    p.add_argument("--frames", type=int, default=None, help="stop after this many frames")
    p.add_argument(
        "video", metavar="VIDEO", help="video file, folder of frames, camera number, 'pi' or 'sim'"
    )
    p.set_defaults(func=cmd_watch)

    p = subparsers.add_parser("enroll", help="learn dice from photos DIR/<die id>/<face>/*.jpg")
    p.add_argument("--set", dest="set_name", required=True, help="name to store the set under")
    p.add_argument("dir", metavar="DIR")
    p.set_defaults(func=cmd_enroll)

    p = subparsers.add_parser("sets", help="list or delete enrolled sets")
    sp = p.add_subparsers(dest="sets_command", required=True)
    sp.add_parser("list", help="list enrolled sets").set_defaults(func=cmd_sets_list)
    d = sp.add_parser("delete", help="delete an enrolled set")
    d.add_argument("name")
    d.set_defaults(func=cmd_sets_delete)


def _reader(set_name: str | None):
    """The reader with the enrolled set's faces if named (vision/sets.py)."""
    from vision import sets

    return sets.reader_for(set_name)


def _fail(msg: str) -> int:
    print(f"dice-companion: {msg}", file=sys.stderr)
    return 2


def cmd_read(args: argparse.Namespace) -> int:
    from vision.imagefile import decode_image_file

    try:
        reader = _reader(args.set_name)
    except VisionError as exc:
        return _fail(str(exc))
    status = 0
    for path in args.images:
        try:
            dice = reader.read(decode_image_file(path))
            out: dict[str, object] = {"image": path, "dice": [d.to_json() for d in dice]}
        except VisionError as exc:
            out = {"image": path, "dice": [], "error": str(exc)}
            print(f"dice-companion: {exc}", file=sys.stderr)
            status = 1
        print(json.dumps(out), flush=True)
    return status


def cmd_watch(args: argparse.Namespace) -> int:
    from vision.sources import SourceError, SourceStalled, open_source
    from vision.watcher import ThrowWatcher

    try:
        reader = _reader(args.set_name)
        source = open_source(args.video)
    except (VisionError, OSError) as exc:
        return _fail(str(exc))
    watcher = ThrowWatcher(reader)
    n = 0
    try:
        while args.frames is None or n < args.frames:
            try:
                frame = source.read(timeout=args.timeout)
            except SourceStalled as exc:
                return _fail(f"{args.video}: {exc}")
            if frame is None:
                break
            n += 1
            event = watcher.feed(frame)
            if event.throw is not None:
                print(json.dumps(event.throw.to_json()), flush=True)
    except SourceError as exc:
        return _fail(f"{args.video}: {exc}")
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
        watcher.close()
    return 0


def cmd_enroll(args: argparse.Namespace) -> int:
    from vision import sets

    skipped: list[str] = []
    try:
        gallery = sets.learn(args.set_name, args.dir, skipped=skipped)
    except VisionError as exc:
        return _fail(str(exc))
    for line in skipped:
        print(f"skipped {line}", file=sys.stderr)
    dice = sorted(set(gallery.dice))
    faces = len(set(zip(gallery.dice, gallery.faces, strict=True)))
    path = sets.gallery_path(args.set_name)
    print(f"enrolled set {args.set_name!r}: {len(dice)} dice, {faces} faces -> {path}")
    return 0


def cmd_sets_list(args: argparse.Namespace) -> int:
    from vision import sets

    for name in sets.list_sets():
        try:
            own = sets.load_set(name)
            counts: dict[str, set[str]] = {}
            for die, face in zip(own.dice, own.faces, strict=True):
                counts.setdefault(die, set()).add(face)
            desc = ", ".join(f"{die} ({len(f)} faces)" for die, f in sorted(counts.items()))
        except VisionError as exc:
            desc = f"damaged: {exc}"
        print(f"{name}: {desc}")
    return 0


def cmd_sets_delete(args: argparse.Namespace) -> int:
    from vision import sets

    try:
        sets.delete(args.name)
    except VisionError as exc:
        return _fail(str(exc))
    print(f"deleted set {args.name!r}")
    return 0
