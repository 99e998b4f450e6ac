"""The ``dice-companion`` command."""

from __future__ import annotations

import argparse
import sys

from vision import commands as vision_commands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dice-companion")
    sub = parser.add_subparsers(dest="command", required=True)
    vision_commands.register(sub)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
