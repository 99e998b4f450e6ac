"""Image files as outside input: the header's size for every format read, bombs refused before
decoding, unknown formats and non-regular files refused at once."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from dice_companion.cli import main
from vision import imagefile
from vision.imagefile import MAX_PIXELS, declared_size, decode_image_file
from vision.types import VisionError

ENCODED = (".png", ".jpg", ".webp", ".tif", ".bmp", ".ppm", ".pam", ".pfm", ".ras", ".gif", ".hdr")


def encoded(ext: str, w: int = 37, h: int = 23, params: tuple[int, ...] = ()) -> bytes:
    img = np.random.default_rng(0).integers(0, 256, (h, w, 3), dtype=np.uint8)
    if ext == ".pfm":
        img = img.astype(np.float32) / 255
    ok, buf = cv2.imencode(ext, img, list(params))
    assert ok, ext
    return buf.tobytes()


@pytest.mark.parametrize("ext", ENCODED)
def test_the_header_size_of_every_format_read_is_the_decoded_size(ext, tmp_path):
    data = encoded(ext)
    _, size = declared_size(data)
    assert size == (37, 23)
    path = tmp_path / f"img{ext}"
    path.write_bytes(data)
    assert decode_image_file(str(path)).shape == (23, 37, 3)


@pytest.mark.parametrize(("ext", "params"), [(".webp", (cv2.IMWRITE_WEBP_QUALITY, 101)),
                                             (".jpg", (cv2.IMWRITE_JPEG_PROGRESSIVE, 1)),
                                             (".png", (cv2.IMWRITE_PNG_COMPRESSION, 9))])
def test_format_variants_declare_their_size(ext, params):
    assert declared_size(encoded(ext, 641, 3, params))[1] == (641, 3)


def bombs(w: int, h: int) -> dict[str, bytes]:
    """Headers of each format declaring a w x h image (the rest of the file is not needed)."""
    ihdr = b"IHDR" + w.to_bytes(4, "big") + h.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    tiff_entries = [(256, 4, w), (257, 4, h), (258, 3, 8), (259, 3, 1)]
    tiff = b"II*\x00" + (8).to_bytes(4, "little") + len(tiff_entries).to_bytes(2, "little")
    tiff += b"".join(t.to_bytes(2, "little") + k.to_bytes(2, "little") + (1).to_bytes(4, "little")
                     + v.to_bytes(4, "little") for t, k, v in tiff_entries) + bytes(4)
    png = b"\x89PNG\r\n\x1a\n" + len(ihdr[4:]).to_bytes(4, "big") + ihdr + zlib.crc32(ihdr).to_bytes(4, "big")
    gw, gh = (min(v, 65535).to_bytes(2, "little") for v in (w, h))
    return {
        "PNG": png,
        "JPEG": b"\xff\xd8\xff\xc0\x00\x11\x08" + h.to_bytes(2, "big") + w.to_bytes(2, "big") + bytes(10),
        "TIFF": tiff + bytes(1_000_000),  # the 1 MB 20000x20000 TIFF
        "WebP": b"RIFF" + bytes(4) + b"WEBPVP8X" + (10).to_bytes(4, "little") + bytes(4)
        + (w - 1).to_bytes(3, "little") + (h - 1).to_bytes(3, "little") + bytes(455_000),
        "BMP": b"BM" + bytes(12) + (40).to_bytes(4, "little") + w.to_bytes(4, "little")
        + (-h).to_bytes(4, "little", signed=True) + bytes(30),
        "GIF": b"GIF89a" + gw + gh + bytes(8),
        "PNM": f"P6\n# a comment\n{w} {h}\n255\n".encode() + bytes(16),
        "PAM": f"P7\nWIDTH {w}\nHEIGHT {h}\nDEPTH 3\nMAXVAL 255\nENDHDR\n".encode(),
        "Sun raster": b"\x59\xa6\x6a\x95" + w.to_bytes(4, "big") + h.to_bytes(4, "big") + bytes(20),
        "Radiance HDR": f"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {h} +X {w}\n".encode() + bytes(16),
    }


@pytest.mark.parametrize("kind", list(bombs(1, 1)))
def test_a_bomb_of_every_format_is_refused_from_its_header(kind, tmp_path):
    path = tmp_path / "bomb"
    path.write_bytes(bombs(20_000, 20_000)[kind])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(VisionError, match=r"image too large \(20000x20000"):
        decode_image_file(str(path))
    # nothing near the 1.2 GB such an image needs was allocated
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000


def test_the_largest_allowed_size_passes_the_header_check():
    side = int(MAX_PIXELS**0.5)
    for kind, data in bombs(side, side).items():
        assert declared_size(data)[1] == (side, side), kind


AVIF = encoded(".avif") if cv2.haveImageWriter(".avif") else b"\x00\x00\x00 ftypavif"


@pytest.mark.parametrize("data", [AVIF, b"\x00\x00\x00\x0cjP  \r\n\x87\n", b"v/1\x01" + bytes(40), b"hello"])
def test_formats_whose_header_is_not_read_are_refused(data, tmp_path):
    path = tmp_path / "x.img"
    path.write_bytes(data)
    with pytest.raises(VisionError, match="formats read: PNG, JPEG"):
        decode_image_file(str(path))


@pytest.mark.parametrize("ext", ENCODED)
def test_cut_headers_are_clear_errors(ext, tmp_path):
    data = encoded(ext)
    path = tmp_path / f"cut{ext}"
    for n in (3, 9, 14, 20, 27):
        path.write_bytes(data[:n])
        with pytest.raises(VisionError) as err:
            decode_image_file(str(path))
        assert str(path) in str(err.value)


def test_only_regular_files_are_read_and_a_fifo_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    got: list[BaseException] = []

    def attempt() -> None:
        try:
            decode_image_file(str(fifo))
        except VisionError as exc:
            got.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(10)
    assert got and "not a regular file" in str(got[0]), "a FIFO without a writer must not hang"
    for path in ("/dev/zero", str(tmp_path)):
        with pytest.raises(VisionError, match="not a regular file"):
            decode_image_file(path)
    result: list[int] = []
    runner = threading.Thread(target=lambda: result.append(main(["read", "--json", str(fifo)])), daemon=True)
    runner.start()
    runner.join(60)
    assert result == [1]
    assert "not a regular file" in json.loads(capsys.readouterr().out)["error"]


def test_a_file_longer_than_the_limit_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(imagefile, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "long.png"
    path.write_bytes(encoded(".png", 200, 200))
    with pytest.raises(VisionError, match="file too large"):
        decode_image_file(str(path))


def test_opencv_is_told_the_pixel_limit_before_it_is_first_imported():
    code = "import vision, os, cv2; print(os.environ['OPENCV_IO_MAX_IMAGE_PIXELS'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={k: v for k, v in os.environ.items() if k != "OPENCV_IO_MAX_IMAGE_PIXELS"},
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == str(MAX_PIXELS), out.stderr
