"""Enrolled sets for the learnt reader: each set's faces as embeddings, beside the classical set.

``dice-companion enroll --set NAME DIR`` writes ``<sets dir>/learnt/NAME.npz`` (the photos of
``DIR/<die>/<face>/`` embedded by the face reader) when the learnt models are present;
``read --learnt --set NAME`` and ``watch --learnt --set NAME`` then read with :class:`LearntReader`
against the shipped default gallery (the games' dice as rendered, plain pip dice) plus that set. A set's own
faces replace the default gallery's faces of the same die, so a player's photos of their copy win.
"""

from __future__ import annotations

from pathlib import Path

from vision import facereader, integrity, locator
from vision.facereader import DEFAULT_GALLERY, Gallery
from vision.learnt_eval import enrol_folder
from vision.learnt_reader import LearntReader
from vision.types import VisionError


def gallery_path(name: str, folder: Path | None = None) -> Path:
    """Where set ``name``'s learnt faces live: ``<sets dir>/learnt/<name>.npz``."""
    from vision.enroll import NAME_RE, sets_dir

    if not NAME_RE.match(name):
        raise VisionError(f"set name {name!r}: use letters, digits, '-', '_' or '.'")
    return (folder or sets_dir()) / "learnt" / f"{name}.npz"


def models() -> tuple[object, object] | None:
    """The learnt locator and face reader, or None when either is missing or unusable (logged)."""
    loc, face = locator.load(), facereader.load()
    return None if loc is None or face is None else (loc, face)


def learn(name: str, folder: str | Path, sets: Path | None = None) -> Path | None:
    """Enrol ``folder`` for the learnt reader as set ``name``; the file written, or None without models."""
    nets = models()
    if nets is None:
        return None
    gallery = enrol_folder(Path(folder), *nets)
    path = gallery_path(name, sets)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp.npz")
    gallery.save(tmp)
    tmp.replace(path)
    integrity.record(path)  # checked before every load
    return path


def forget(name: str, sets: Path | None = None) -> None:
    """Delete set ``name``'s learnt faces, if any."""
    path = gallery_path(name, sets)
    if path.exists():
        path.unlink()
        integrity.forget(path)


def default_gallery() -> Gallery:
    """The shipped faces known before any enrolment (an empty gallery if the file is missing)."""
    if not DEFAULT_GALLERY.is_file():
        return Gallery()
    try:
        integrity.check(DEFAULT_GALLERY, required=True)
        return Gallery.load(DEFAULT_GALLERY)
    except (OSError, ValueError, KeyError) as exc:
        raise VisionError(f"{DEFAULT_GALLERY}: damaged ({exc})") from None


def reader_for(name: str | None, sets: Path | None = None) -> LearntReader | None:
    """The learnt reader for set ``name`` (None: the default gallery alone); None when the models are
    missing or the set was enrolled without them."""
    nets = models()
    if nets is None:
        return None
    gallery = default_gallery()
    if name:
        path = gallery_path(name, sets)
        if not path.is_file():
            return None
        try:
            integrity.check(path, required=False)
            own = Gallery.load(path)
        except (OSError, ValueError, KeyError) as exc:
            raise VisionError(f"set {name!r}: {path.name} is damaged ({exc}); enrol it again") from None
        gallery = gallery.only(set(gallery.dice) - set(own.dice))
        gallery.add_all(own)
    return LearntReader(gallery, *nets)
