"""Salt-and-pepper specks (vision/speckle.py): removed from photos sprinkled with them, nothing else."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.evaluate import Item, crops, epanemu, matteop65, throwbench
from vision.reader import decode_image_file
from vision.speckle import despeckle, salt_and_pepper, specks

WEBCAM = "dice-photos/matteop65-webcam-d6/Train"
PHONE = "dice-photos/epanemu-roboflow-d6/train_one_per_source"


def _sprinkle(image: np.ndarray, part: float, seed: int = 0) -> np.ndarray:
    """``image`` with ``part`` of its pixels set to black or white, saved as JPEG (as a phone would)."""
    rng = np.random.default_rng(seed)
    pick = rng.random(image.shape[:2])
    out = image.copy()
    out[pick < part / 2] = 0
    out[(pick >= part / 2) & (pick < part)] = 255
    _, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def _far(a: np.ndarray, b: np.ndarray) -> float:
    """Part of the pixels whose grey levels differ by more than 40."""
    ga, gb = (cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(np.int16) for x in (a, b))
    return float((np.abs(ga - gb) > 40).mean())


def _webcam_photo(shared: Path) -> np.ndarray:
    path = shared / WEBCAM / "four_16.jpg"
    if not path.exists():
        pytest.skip(f"{path} is absent from this copy of ../shared")
    return decode_image_file(str(path))


def test_specks_sprinkled_over_a_real_photo_are_removed(shared: Path) -> None:
    clean = _webcam_photo(shared)
    noisy = _sprinkle(clean, 0.01)
    assert salt_and_pepper(*specks(noisy))
    fixed = despeckle(noisy)
    assert _far(noisy, clean) > 0.008  # about 1% of the pixels are specks
    assert _far(fixed, clean) < 0.002  # ... and few are left
    # only specks change: every other pixel is as the camera gave it
    mask, _ = specks(noisy)
    assert np.array_equal(fixed[~mask], noisy[~mask])


def test_a_photo_without_specks_is_returned_as_it_is(shared: Path) -> None:
    clean = _webcam_photo(shared)
    assert despeckle(clean) is clean
    flat = np.full((48, 64, 3), 128, np.uint8)
    assert despeckle(flat) is flat
    # a few hot pixels of a real sensor are not noise over the photo
    hot = _sprinkle(clean, 0.0002)
    assert despeckle(hot) is hot


SETS: dict[str, tuple[str, Callable[[Path], Iterator[Item]]]] = {
    "webcam": (WEBCAM, matteop65),
    "chase crops": ("dice-photos/chase-d6-crops/train", crops),
    "rendered throws": ("throwbench-dev", throwbench),
}


@pytest.mark.parametrize("name", list(SETS))
def test_real_photos_of_cameras_that_add_no_specks_are_left_alone(name: str, shared: Path) -> None:
    """Glints on glossy and translucent dice and printed edges jump from their neighbourhood too, but
    not as specks of black and white over the photo: none of these photos is touched."""
    folder, load = SETS[name]
    if not (shared / folder).is_dir():
        pytest.skip(f"{shared / folder} is absent")
    photos = [(it.path.name, decode_image_file(str(it.path))) for it in load(shared / folder)]
    assert [name for name, image in photos if salt_and_pepper(*specks(image))] == []


def test_the_phone_set_s_augmented_photos_are_found_noisy(shared: Path) -> None:
    """The public phone set was exported with salt-and-pepper augmentation on most photos."""
    if not (shared / PHONE).is_dir():
        pytest.skip(f"{shared / PHONE} is absent")
    flags = [salt_and_pepper(*specks(decode_image_file(str(it.path)))) for it in epanemu(shared / PHONE)]
    assert sum(flags) >= 0.8 * len(flags)
