"""The ``dice-companion`` command."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dice-companion")
    parser.add_subparsers(dest="command", required=True)
    args = parser.parse_args(argv)
    return 0 if args else 1


if __name__ == "__main__":
    sys.exit(main())
