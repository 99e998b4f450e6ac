"""Reading a small file from outside the program: only a regular file, and only up to a limit.

A FIFO, device or directory is refused at once (opened without blocking, never read) and so is a
file longer than the limit (by its size when the file says it, else after reading one byte more), so
a hostile path can neither hang the program nor fill its memory. Each caller says in its own words
what it could not read; the reasons here are phrased to follow ``cannot read PATH:``.

>>> size_text(16 * 1024 * 1024), size_text(256 * 1024), size_text(300)
('16 MiB', '256 KiB', '300 bytes')
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotRegularFile(ValueError):
    """The path names a FIFO, a device, a directory or another file that is not a regular file."""

    def __init__(self) -> None:
        super().__init__("it is not a regular file")


class FileTooLong(ValueError):
    """The file holds more than ``limit`` bytes; ``size`` is its size when the file system says it."""

    def __init__(self, limit: int, size: int | None = None) -> None:
        super().__init__(f"it is longer than {size_text(limit)}")
        self.limit = limit
        self.size = size


def size_text(n: int) -> str:
    """A byte count in words: ``16 MiB``, ``256 KiB`` or ``300 bytes``."""
    for unit, name in ((1024 * 1024, "MiB"), (1024, "KiB")):
        if n and n % unit == 0:
            return f"{n // unit} {name}"
    return f"{n} bytes"


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises :class:`NotRegularFile` or :class:`FileTooLong` (both :class:`ValueError`) for a file
    refused, and :class:`OSError` for one that cannot be opened or read.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, without a writer
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # checked before fdopen, which refuses a directory itself
        os.close(fd)
        raise NotRegularFile()
    with os.fdopen(fd, "rb") as f:
        if info.st_size > limit:
            raise FileTooLong(limit, info.st_size)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise FileTooLong(limit)
    return data
