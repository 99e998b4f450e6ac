"""Bad input: unreadable, empty, huge, random-byte images; empty trays; sources that stall or vanish."""

from __future__ import annotations

import json
import threading
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from dice_companion.cli import main
from vision.imagefile import decode_image_file
from vision.sets import reader_for
from vision.simcam import SimulatedCamera
from vision.sources import ImageFolderSource, LiveSource, SourceLost, SourceStalled, VideoFileSource
from vision.types import VisionError


def _png_header_only(w: int, h: int) -> bytes:
    ihdr = w.to_bytes(4, "big") + h.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + len(ihdr).to_bytes(4, "big") + chunk + zlib.crc32(chunk).to_bytes(4, "big")


@pytest.fixture
def bad_files(tmp_path: Path) -> dict[str, Path]:
    rng = np.random.default_rng(0)
    files = {
        "empty": tmp_path / "empty.jpg",
        "random": tmp_path / "random.jpg",
        "text": tmp_path / "notes.png",
        "truncated": tmp_path / "cut.jpg",
        "huge": tmp_path / "huge.png",
    }
    files["empty"].write_bytes(b"")
    files["random"].write_bytes(rng.integers(0, 256, 5000, dtype=np.uint8).tobytes())
    files["text"].write_text("not an image")
    _ok, jpg = cv2.imencode(".jpg", SimulatedCamera(seed=1).render([]))
    files["truncated"].write_bytes(jpg.tobytes()[:300])
    files["huge"].write_bytes(_png_header_only(100_000, 100_000))
    return files


def test_bad_image_files_give_clear_errors(bad_files: dict[str, Path], tmp_path: Path) -> None:
    for name, path in bad_files.items():
        with pytest.raises(VisionError) as exc:
            decode_image_file(str(path))
        assert str(path) in str(exc.value), name
    with pytest.raises(VisionError, match="cannot read"):
        decode_image_file(str(tmp_path / "missing.jpg"))
    with pytest.raises(VisionError, match="too large"):
        decode_image_file(str(bad_files["huge"]))


def test_cli_read_reports_each_bad_image_and_goes_on(bad_files, tmp_path, capsys) -> None:
    good = tmp_path / "good.png"
    cam = SimulatedCamera(seed=2)
    cv2.imwrite(str(good), cam.render(cam.random_scene(["d6"], faces=["4"])))
    paths = [str(bad_files["random"]), str(good), str(bad_files["empty"])]
    assert main(["read", "--json", *paths]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["image"] for x in lines] == paths
    assert "error" in lines[0] and "error" in lines[2]
    assert [d["face"] for d in lines[1]["dice"]] == ["4"]


def test_empty_tray_and_blank_images_read_as_no_dice() -> None:
    reader = reader_for(None)
    cam = SimulatedCamera(seed=3)
    assert reader.read(cam.render([])) == []
    assert reader.read(np.zeros((480, 640, 3), np.uint8)) == []
    assert reader.read(np.full((10, 10, 3), 255, np.uint8)) == []
    for shape in ((1, 200, 3), (200, 1, 3), (1, 1, 3), (2, 900, 3)):  # strips and dots: crops of no die
        assert reader.read(np.full(shape, 200, np.uint8)) == [], shape
    noise = np.random.default_rng(4).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    assert all(d.status != "ok" for d in reader.read(noise))
    with pytest.raises(VisionError):
        reader.read(np.zeros((0, 0, 3), np.uint8))


def test_live_source_that_stalls_times_out_and_then_recovers() -> None:
    gate = threading.Event()
    frame = np.zeros((48, 64, 3), np.uint8)

    def grab() -> np.ndarray:
        gate.wait()
        time.sleep(0.005)
        return frame

    src = LiveSource(grab)
    t0 = time.monotonic()
    with pytest.raises(SourceStalled):
        src.read(timeout=0.2)
    assert time.monotonic() - t0 < 1.0
    gate.set()
    assert src.read(timeout=1.0) is frame
    src.close()


def test_live_source_that_disappears_is_reported_not_hung() -> None:
    calls = {"n": 0}

    def grab() -> np.ndarray:
        calls["n"] += 1
        if calls["n"] > 3:
            raise OSError("device unplugged")
        return np.zeros((4, 4, 3), np.uint8)

    src = LiveSource(grab)
    with pytest.raises(SourceLost, match="unplugged"):
        for _ in range(10):
            src.read(timeout=1.0)
    src.close()


def test_live_source_returns_only_fresh_frames() -> None:
    n = {"i": 0}

    def grab() -> np.ndarray:
        time.sleep(0.02)
        n["i"] += 1
        return np.full((2, 2, 3), n["i"] % 256, np.uint8)

    src = LiveSource(grab)
    a = src.read(timeout=1.0)
    b = src.read(timeout=1.0)
    assert a is not b and int(b[0, 0, 0]) > int(a[0, 0, 0])
    src.close()


def test_folder_source_skips_bad_files_and_missing_video_is_an_error(bad_files, tmp_path) -> None:
    cv2.imwrite(str(tmp_path / "z_good.png"), np.zeros((8, 8, 3), np.uint8))
    src = ImageFolderSource(tmp_path)
    frames = []
    while (f := src.read()) is not None:
        frames.append(f)
    assert len(frames) == 1 and len(src.skipped) == len(bad_files)
    with pytest.raises(VisionError):
        VideoFileSource(tmp_path / "nope.avi")
    with pytest.raises(VisionError):
        VideoFileSource(bad_files["random"])


def test_cli_watch_on_a_video_file(tmp_path, capsys) -> None:
    cam = SimulatedCamera(seed=5)
    path = tmp_path / "throw.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480))
    assert out.isOpened()
    for _ in range(6):
        out.write(cam.render([]))
    for f in cam.throw(["d6", "d6"], faces=["3", "6"]):
        out.write(f.image)
    out.release()
    assert main(["watch", "--json", str(path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 1
    assert sorted(d["face"] for d in lines[0]["dice"]) == ["3", "6"]
    assert lines[0]["frame"] > lines[0]["settled_frame"]
    assert main(["watch", "--json", str(tmp_path / "missing.avi")]) == 2
