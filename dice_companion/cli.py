"""The ``dice-companion`` command."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def data_dir() -> Path:
    """Where games, photos and settings live: systemd's StateDirectory on the Pi, else the user's data dir."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "dice-companion"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 800x480") from None
    return w, h


def run(args: argparse.Namespace) -> int:
    """Start the touchscreen app (the simulated camera when asked or when no camera is present)."""
    from companion.store import Store
    from ui.app import run_app
    from ui.reader import NoCamera, SimulatedReader
    from ui.settings import Settings

    root = Path(args.data) if args.data else data_dir()
    reader = SimulatedReader() if args.camera == "sim" else NoCamera()
    with Store(root / "games.db") as store:
        run_app(
            store,
            reader,
            args.size,
            args.fullscreen,
            max_frames=args.frames,
            settings=Settings.load(root / "ui-settings.json"),
            evidence_dir=root / "photos",
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dice-companion")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="start the touchscreen app")
    p.add_argument("--size", type=_size, default=(800, 480), help="window size, e.g. 800x480 or 720x1280")
    p.add_argument("--fullscreen", action="store_true", help="fill the screen (the Pi's display)")
    p.add_argument(
        "--camera",
        choices=("sim", "none"),
        default="sim",
        help="sim: simulated dice reads; none: enter dice by hand",
    )
    p.add_argument("--data", help="folder for games.db, photos and settings (default: the user data dir)")
    p.add_argument("--frames", type=int, default=None, help="stop after this many frames (tests)")
    p.set_defaults(func=run)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
