"""Scoring the learnt reader on the rendered development sets (``../shared/throwbench-dev*``).

Each set's ``enroll/<die>/<face>/<n>.jpg`` photos are enrolled (each photo's surest die, as
``dice-companion enroll`` takes it), then every throw of that set is read with that set's faces and
scored per die kind by
:func:`vision.evaluate.score_item`: right, wrong with status ``ok`` (silent), wrong but flagged,
missed. Used by ``bench/bench_learnt.py`` and the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision import facereader, locator
from vision.evaluate import Score, score_item, throwbench
from vision.facereader import Gallery
from vision.imagefile import decode_image_file
from vision.learnt_reader import LearntReader
from vision.types import VisionError

THROWBENCH = ("throwbench-dev", "throwbench-dev-poly")


def enrol_folder(
    folder: Path,
    locator_net: object,
    face_net: object,
    gallery: Gallery | None = None,
    skipped: list[str] | None = None,
) -> Gallery:
    """A gallery of ``folder/<die>/<face>/*.jpg|png``: each photo's surest die, embedded. Photos in
    which no die is found are listed in ``skipped``."""
    gallery = gallery or Gallery()
    photos = sorted(p for p in folder.glob("*/*/*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if not photos:
        raise VisionError(f"{folder}: no photos laid out as <die>/<face>/<photo>")
    for path in photos:
        image = decode_image_file(str(path))  # checked as every photo read is (vision/imagefile.py)
        spots = locator.locate(locator_net, image)
        if not spots:
            if skipped is not None:
                skipped.append(f"{path}: no die found")
            continue
        s = spots[0]
        crops = [facereader.cut(image, s.center, s.size * k) for k in (0.92, 1.0, 1.08)]
        vectors = np.stack([seen.embedding for seen in facereader.embed(face_net, crops)])
        gallery.add(path.parent.parent.name, path.parent.name, vectors)
    return gallery


def set_readers(
    shared: Path, locator_net: object, face_net: object, sets: Iterable[str] = THROWBENCH
) -> dict[str, LearntReader]:
    """For each set present under ``shared``, a reader of its own ``enroll/`` photos, as
    ``dice-companion enroll --set`` then ``read --set`` would read it."""
    return {
        name: LearntReader(
            enrol_folder(shared / name / "enroll", locator_net, face_net), locator_net, face_net
        )
        for name in sets
        if (shared / name / "enroll").is_dir()
    }


def score_sets(shared: Path, readers: dict[str, LearntReader]) -> dict[str, Score]:
    """Per die kind (and ``all``), the scores on the throws of each set, read by that set's reader."""
    kinds: dict[str, Score] = {"all": Score("all")}
    for name, reader in readers.items():
        for item in throwbench(shared / name, with_set=True):
            readings = reader.read(cv2.imread(str(item.path)))
            score_item(item, readings, kinds["all"])
            for kind in sorted({lab.die for lab in item.labels}):
                mine = type(item)(item.path, [lab for lab in item.labels if lab.die == kind])
                score_item(mine, readings, kinds.setdefault(kind, Score(kind)))
    return kinds


def table(kinds: dict[str, Score]) -> str:
    """The per-kind scores as a text table: right, wrong ok, wrong flagged, flagged, missed; readings
    at no labelled die (extra) for all kinds together (a kind's own row would count the others')."""
    rows = [
        f"{'die kind':<22}{'dice':>6}{'right':>8}{'share':>8}{'wrong ok':>10}{'wrong flag':>11}"
        f"{'unsure':>8}{'missed':>8}{'extra':>7}"
    ]
    for k, s in sorted(kinds.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        wrong_flagged = s.wrong - s.silent
        share = 100.0 * s.right / s.labelled if s.labelled else 0.0
        extra = str(s.extra) if k == "all" else "-"
        rows.append(
            f"{k:<22}{s.labelled:>6}{s.right:>8}{share:>7.1f}%{s.silent:>10}{wrong_flagged:>11}"
            f"{s.uncertain:>8}{s.missed:>8}{extra:>7}"
        )
    return "\n".join(rows)
