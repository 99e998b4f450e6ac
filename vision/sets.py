"""Enrolled sets: each set's faces as embeddings, read beside the shipped default faces.

``dice-companion enroll --set NAME DIR`` writes ``<sets dir>/learnt/NAME.npz`` (the photos of
``DIR/<die>/<face>/`` embedded by the face reader); ``read --set NAME`` and ``watch --set NAME`` then
read with :class:`LearntReader` against the shipped default gallery (the games' dice as rendered,
plain pip dice) plus that set. A set's own faces replace the default gallery's faces of the same
die, so a player's photos of their copy win. Each set's SHA-256 is kept beside it and checked before
it is loaded.
"""

from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path

import numpy as np

from vision import facereader, integrity, locator
from vision.facereader import DEFAULT_GALLERY, Gallery
from vision.imagefile import decode_image_file
from vision.reader import LearntReader
from vision.types import VisionError

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
NO_MODELS = "the dice models are missing from vision/models (reinstall Dice Companion)"


def data_dir() -> Path:
    """``$DICE_COMPANION_DATA``, else ``$XDG_DATA_HOME/dice-companion``,
    else ``~/.local/share/dice-companion``."""
    env = os.environ.get("DICE_COMPANION_DATA")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "dice-companion"


def sets_dir() -> Path:
    return data_dir() / "sets"


def gallery_path(name: str, folder: Path | None = None) -> Path:
    """Where set ``name``'s faces live: ``<sets dir>/learnt/<name>.npz``."""
    if not NAME_RE.match(name):
        raise VisionError(f"set name {name!r}: use letters, digits, '-', '_' or '.'")
    return (folder or sets_dir()) / "learnt" / f"{name}.npz"


def list_sets(folder: Path | None = None) -> list[str]:
    """The names of the enrolled sets."""
    where = (folder or sets_dir()) / "learnt"
    if not where.is_dir():
        return []
    return sorted(p.stem for p in where.glob("*.npz") if not p.name.startswith("."))


def models() -> tuple[object, object] | None:
    """The locator and face reader, or None when either is missing or unusable (logged)."""
    loc, face = locator.load(), facereader.load()
    return None if loc is None or face is None else (loc, face)


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
        gallery.add(path.parent.parent.name, path.parent.name, vectors, facereader.VIEWS)
    return gallery


def learn(
    name: str, folder: str | Path, sets: Path | None = None, skipped: list[str] | None = None
) -> Gallery:
    """Enrol ``folder`` (``<die>/<face>/*.jpg|png``) as set ``name`` and save it; its faces. Photos
    with no die found are listed in ``skipped``."""
    nets = models()
    if nets is None:
        raise VisionError(NO_MODELS)
    gallery = enrol_folder(Path(folder), *nets, skipped=skipped)
    if not gallery.dice:
        raise VisionError(f"{folder}: no die found on any photo")
    path = gallery_path(name, sets)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp.npz")
    gallery.save(tmp)
    tmp.replace(path)
    integrity.record(path)  # checked before every load
    return gallery


def delete(name: str, sets: Path | None = None) -> None:
    """Delete set ``name``; a set that is not there is an error naming it."""
    path = gallery_path(name, sets)
    if not path.exists():
        raise VisionError(f"no enrolled set {name!r}")
    path.unlink()
    integrity.forget(path)


def default_gallery() -> Gallery:
    """The shipped faces known before any enrolment (an empty gallery if the file is missing)."""
    if not DEFAULT_GALLERY.is_file():
        return Gallery()
    try:
        integrity.check(DEFAULT_GALLERY, required=True)
        return Gallery.load(DEFAULT_GALLERY)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise VisionError(f"{DEFAULT_GALLERY}: damaged ({exc})") from None


def load_set(name: str, sets: Path | None = None) -> Gallery:
    """Set ``name``'s own faces; a missing or damaged set is a :class:`VisionError` naming it."""
    path = gallery_path(name, sets)
    if not path.is_file():
        raise VisionError(f"no enrolled set {name!r} (enrol it: dice-companion enroll --set {name} DIR)")
    try:
        integrity.check(path, required=False)
        return Gallery.load(path)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise VisionError(f"set {name!r}: {path.name} is damaged ({exc}); enrol it again") from None


def reader_for(name: str | None, sets: Path | None = None, own: Gallery | None = None) -> LearntReader:
    """The reader with set ``name``'s faces (``own`` if given; None: the default gallery alone).
    Missing models, or a missing or damaged set, are a :class:`VisionError` naming them."""
    nets = models()
    if nets is None:
        raise VisionError(NO_MODELS)
    gallery = default_gallery()
    if own is None and name:
        own = load_set(name, sets)
    if own is not None:
        gallery = gallery.only(set(gallery.dice) - set(own.dice))
        gallery.add_all(own)
    return LearntReader(gallery, *nets)
