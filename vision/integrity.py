"""SHA-256 sums recorded beside model files and enrolled sets, checked before either is loaded.

A folder's sums live in its ``SHA256SUMS`` file, in ``sha256sum`` format (``<hex>  <name>``, one file a
line), so ``sha256sum -c SHA256SUMS`` checks it by hand too. The shipped models
(``vision/models/SHA256SUMS``) and every enrolled set saved by this build have one.

After retraining a model, record its new sum (the training tools do it when they write into
``vision/models``)::

    python -m vision.integrity vision/models/face_reader.onnx
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

SUMS = "SHA256SUMS"


class IntegrityError(ValueError):
    """A file's SHA-256 differs from the one recorded for it, or none is recorded where one must be."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_sums(folder: Path) -> dict[str, str]:
    sums: dict[str, str] = {}
    try:
        text = (folder / SUMS).read_text(encoding="utf-8")
    except FileNotFoundError:
        return sums
    for line in text.splitlines():
        digest, sep, name = line.partition("  ")
        if sep and len(digest) == 64:
            sums[name.lstrip("*")] = digest.lower()
    return sums


def recorded(path: Path) -> str | None:
    """The SHA-256 recorded for ``path`` in its folder's ``SHA256SUMS``, or None."""
    return _read_sums(path.parent).get(path.name)


def check(path: Path, required: bool) -> bool:
    """Compare ``path`` with its recorded sum: True if it matches, False if none is recorded and
    ``required`` is False. :class:`IntegrityError` if it differs, or if none is recorded and
    ``required`` is True."""
    want = recorded(path)
    if want is None:
        if required:
            raise IntegrityError(f"{path} has no SHA-256 recorded in {path.parent / SUMS}")
        return False
    got = sha256_of(path)
    if got != want:
        raise IntegrityError(f"{path} has SHA-256 {got[:12]}..., not the {want[:12]}... recorded in "
                             f"{path.parent / SUMS}: the file was changed or damaged")
    return True


def _write_sums(folder: Path, sums: dict[str, str]) -> None:
    tmp = folder / f".{SUMS}.tmp"
    tmp.write_text("".join(f"{d}  {n}\n" for n, d in sorted(sums.items())), encoding="utf-8")
    os.replace(tmp, folder / SUMS)


def record(path: Path) -> str:
    """Record ``path``'s SHA-256 in its folder's ``SHA256SUMS`` (replacing an older entry)."""
    sums = _read_sums(path.parent)
    sums[path.name] = sha256_of(path)
    _write_sums(path.parent, sums)
    return sums[path.name]


def forget(path: Path) -> None:
    """Drop ``path``'s entry (the file was deleted)."""
    sums = _read_sums(path.parent)
    if sums.pop(path.name, None) is not None:
        _write_sums(path.parent, sums)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for name in argv:
        print(f"{record(Path(name))}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
