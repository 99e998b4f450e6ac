"""Image files as outside input: only regular files, only known formats, the size read from the header.

:func:`decode_image_file` refuses, before OpenCV decodes anything:

* a path that is not a regular file (a FIFO, a device, a directory): opened without blocking and
  refused at once, never read;
* a file longer than :data:`MAX_FILE_BYTES`;
* a format whose header this module cannot read (see :data:`FORMATS`): a decoder would otherwise
  allocate whatever the file declares;
* an image whose header declares more than :data:`MAX_PIXELS` pixels (a decompression bomb: a 1 MB
  file can declare 20000x20000).

As a second guard, ``OPENCV_IO_MAX_IMAGE_PIXELS`` is set to the same limit before OpenCV is used
(``vision/__init__.py``), so OpenCV's own decoders refuse a larger image too.
"""

from __future__ import annotations

import re

import numpy as np

from companion import regular_file
from vision.types import VisionError

MAX_PIXELS = 40_000_000  # width x height; the Pi camera's largest still is 12 MP
MAX_FILE_BYTES = 64 * 1024 * 1024
FORMATS = ("PNG", "JPEG", "WebP", "TIFF", "BMP", "GIF", "PNM/PAM/PFM", "Sun raster", "Radiance HDR")

Size = tuple[int, int]


class HeaderError(ValueError):
    """The header is cut short or inconsistent."""


def _u16be(d: bytes, i: int) -> int:
    return int.from_bytes(_at(d, i, 2), "big")


def _u32be(d: bytes, i: int) -> int:
    return int.from_bytes(_at(d, i, 4), "big")


def _at(d: bytes, i: int, n: int) -> bytes:
    if i < 0 or i + n > len(d):
        raise HeaderError("the header is cut short")
    return d[i : i + n]


def _png(d: bytes) -> Size:
    if _at(d, 12, 4) != b"IHDR":
        raise HeaderError("no IHDR chunk first")
    return _u32be(d, 16), _u32be(d, 20)


_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg(d: bytes) -> Size:
    i = 2
    while True:
        while _at(d, i, 1) == b"\xff" and _at(d, i + 1, 1) == b"\xff":
            i += 1  # fill bytes
        if _at(d, i, 1) != b"\xff":
            raise HeaderError("a marker was expected")
        marker = _at(d, i + 1, 1)[0]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        if marker in (0xD9, 0xDA):
            raise HeaderError("no frame header before the image data")
        if marker in _SOF:
            return _u16be(d, i + 7), _u16be(d, i + 5)
        i += 2 + _u16be(d, i + 2)


def _webp(d: bytes) -> Size:
    chunk = _at(d, 12, 4)
    if chunk == b"VP8 ":
        if _at(d, 23, 3) != b"\x9d\x01\x2a":
            raise HeaderError("no VP8 start code")
        width, height = (int.from_bytes(_at(d, i, 2), "little") & 0x3FFF for i in (26, 28))
        return width, height
    if chunk == b"VP8L":
        if _at(d, 20, 1) != b"\x2f":
            raise HeaderError("no VP8L signature")
        bits = int.from_bytes(_at(d, 21, 4), "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return int.from_bytes(_at(d, 24, 3), "little") + 1, int.from_bytes(_at(d, 27, 3), "little") + 1
    raise HeaderError(f"unknown WebP chunk {chunk!r}")


def _tiff(d: bytes) -> Size:
    order = "little" if d[:2] == b"II" else "big"

    def u(i: int, n: int) -> int:
        return int.from_bytes(_at(d, i, n), order)

    ifd = u(4, 4)
    width = height = None
    for k in range(u(ifd, 2)):
        entry = ifd + 2 + 12 * k
        tag, kind = u(entry, 2), u(entry + 2, 2)
        if tag in (256, 257):
            value = u(entry + 8, 2) if kind == 3 else u(entry + 8, 4)
            if tag == 256:
                width = value
            else:
                height = value
    if width is None or height is None:
        raise HeaderError("the first image has no width or height")
    return width, height


def _bmp(d: bytes) -> Size:
    header = int.from_bytes(_at(d, 14, 4), "little")
    if header == 12:  # OS/2 core header
        return int.from_bytes(_at(d, 18, 2), "little"), int.from_bytes(_at(d, 20, 2), "little")
    w = int.from_bytes(_at(d, 18, 4), "little", signed=True)
    h = int.from_bytes(_at(d, 22, 4), "little", signed=True)
    return abs(w), abs(h)  # a negative height is a top-down bitmap


def _gif(d: bytes) -> Size:
    return int.from_bytes(_at(d, 6, 2), "little"), int.from_bytes(_at(d, 8, 2), "little")


_PNM_TOKENS = re.compile(rb"\A(?:\s|#[^\n]*\n)*(\d{1,10})(?:\s|#[^\n]*\n)+(\d{1,10})")


def _pnm(d: bytes) -> Size:
    head = d[2:4096]
    if d[:2] == b"P7":
        w = re.search(rb"^WIDTH\s+(\d{1,10})\s*$", head, re.M)
        h = re.search(rb"^HEIGHT\s+(\d{1,10})\s*$", head, re.M)
        if not (w and h):
            raise HeaderError("no WIDTH and HEIGHT")
        return int(w.group(1)), int(h.group(1))
    m = _PNM_TOKENS.match(head)
    if not m:
        raise HeaderError("no width and height")
    return int(m.group(1)), int(m.group(2))


def _sun(d: bytes) -> Size:
    return _u32be(d, 4), _u32be(d, 8)


def _hdr(d: bytes) -> Size:
    m = re.search(rb"\n\n([-+])([YX]) (\d{1,10}) ([-+])([YX]) (\d{1,10})\n", d[:65536])
    if not m or m.group(2) == m.group(5):
        raise HeaderError("no resolution line")
    first, second = int(m.group(3)), int(m.group(6))
    return (second, first) if m.group(2) == b"Y" else (first, second)


def declared_size(data: bytes) -> tuple[str, Size]:
    """The format and the width and height its header declares.

    :class:`HeaderError` if the header is cut short; :class:`LookupError` if the format is not one
    of :data:`FORMATS`."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG", _png(data)
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG", _jpeg(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP", _webp(data)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF", _tiff(data)
    if data[:2] == b"BM":
        return "BMP", _bmp(data)
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF", _gif(data)
    if re.match(rb"P[1-7]\s", data[:3]) or data[:3] in (b"PF\n", b"Pf\n", b"PF\r", b"Pf\r"):
        return "PNM", _pnm(data)
    if data[:4] == b"\x59\xa6\x6a\x95":
        return "Sun raster", _sun(data)
    if data[:10] == b"#?RADIANCE" or data[:6] == b"#?RGBE":
        return "Radiance HDR", _hdr(data)
    raise LookupError("not an image format this program reads")


def read_regular_file(path: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file at ``path``; :class:`VisionError` otherwise."""
    try:
        return regular_file.read_regular_file(path, limit)
    except OSError as exc:
        raise VisionError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    except regular_file.NotRegularFile:
        raise VisionError(f"{path}: not a regular file") from None
    except regular_file.FileTooLong as exc:
        size = f"{exc.size} bytes; at most {limit}" if exc.size is not None else f"more than {limit} bytes"
        raise VisionError(f"{path}: file too large ({size})") from None


def decode_image_file(path: str) -> np.ndarray:
    """Decode an image file or raise :class:`VisionError` saying why (missing, not a regular file,
    empty, too long, unknown format, too many pixels, not decodable)."""
    import cv2

    data = read_regular_file(path, MAX_FILE_BYTES)
    if not data:
        raise VisionError(f"{path}: empty file")
    try:
        kind, (w, h) = declared_size(data)
    except LookupError:
        known = ", ".join(FORMATS)
        raise VisionError(f"{path}: not an image OpenCV can read (formats read: {known})") from None
    except HeaderError as exc:
        raise VisionError(f"{path}: not an image OpenCV can read (a broken header: {exc})") from None
    if w * h > MAX_PIXELS:
        raise VisionError(f"{path}: image too large ({w}x{h} {kind}; at most {MAX_PIXELS} pixels)")
    if w == 0 or h == 0:
        raise VisionError(f"{path}: not an image OpenCV can read (its {kind} header says {w}x{h})")
    try:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:
        raise VisionError(f"{path}: cannot decode image ({exc})") from exc
    if img is None or img.size == 0:
        raise VisionError(f"{path}: not an image OpenCV can read")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:  # a header that understated the size
        raise VisionError(f"{path}: image too large ({img.shape[1]}x{img.shape[0]})")
    return img
