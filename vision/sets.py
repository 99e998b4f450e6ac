"""Enrolled sets: each set's faces as embeddings, read beside the shipped default faces.

``dice-companion enroll --set NAME DIR`` writes ``<sets dir>/learnt/NAME.npz`` (the photos of
``DIR/<die>/<face>/`` embedded by the face reader); ``read --set NAME`` and ``watch --set NAME`` then
read with :class:`LearntReader` against the shipped default gallery (the games' dice as rendered,
plain pip dice) plus that set. A set's own faces replace the default gallery's faces of the same
die (and of the plain ``d6`` when the set has a plain pip die of its own), so a player's photos of
their copy win. Enrolment also fits the set's own classifiers, of its faces (:mod:`vision.facehead`:
on the face reader's descriptor, and on the glyph reader's output) and of its dice by colour
(:mod:`vision.diecolour`), on each photo's die seen many ways (:func:`views`). Each set's SHA-256 is
kept beside it and checked before it is loaded, and a set records the models that fitted it
(:func:`shipped_models`): one fitted by others is refused.
"""

from __future__ import annotations

import os
import re
import zipfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision import diecolour, facehead, facereader, fusion, glyphreader, integrity, locator
from vision.facereader import DEFAULT_GALLERY, PLAIN_D6, PLAIN_DIE, Gallery
from vision.imagefile import decode_image_file
from vision.reader import LearntReader, pointed
from vision.types import VisionError

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
NO_MODELS = "the dice models are missing from vision/models (reinstall Dice Companion)"
SCALES = (0.92, 1.0, 1.08)  # each photo's die kept at these sizes, as views of its face
TOP_WASHED = 0.3  # share of those views whose top face alone is washed pale, as a lamp's gloss does
SEED = 20261130  # the augmented views' seed: the same photos give the same set
AUGMENTED = 24  # views of each photo's die, seen another way each, that teach the set's classifier


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
    folder: Path | Sequence[Path],
    locator_net: object,
    face_net: object,
    skipped: list[str] | None = None,
    seed: int = SEED,
    glyphs: glyphreader.Glyphs | None = None,
) -> Gallery:
    """A gallery of ``folder/<die>/<face>/*.jpg|png`` (or of several such folders, as one set): each
    photo's surest die, embedded, and the set's own classifiers fitted on it seen ``AUGMENTED`` more
    ways a photo (of its faces when the set has two or more, of its dice and faces by colour when they
    come in two colours or more: :func:`vision.diecolour.colour_group`; drawn from ``seed``, so
    enrolling the same photos gives the same set), of its faces on the glyph reader's output (``glyphs``,
    default the shipped reader; none where it is missing or reads other views than the face
    reader's). Photos in which no die is found are listed in ``skipped``."""
    gallery = Gallery()
    folders = [folder] if isinstance(folder, Path) else list(folder)
    photos = sorted(
        (p for f in folders for p in f.glob("*/*/*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")),
        key=lambda p: p.parts[-3:],  # <die>/<face>/<photo>: the same order however the folders are split
    )
    if not photos:
        where = ", ".join(str(f) for f in folders)
        raise VisionError(f"{where}: no photos laid out as <die>/<face>/<photo>")
    rng = np.random.default_rng(seed)
    glyphs = glyphs or glyphreader.load()
    if glyphs is not None and glyphs.spans != facereader.SPANS:
        glyphs = None  # it reads views of its own, which the augmented views are not cut as
    descriptors, colours, labels, glyph_chances, numbers = [], [], [], [], []
    photo_of: Counter[tuple[str, str]] = Counter()  # each face's photos so far
    for path in photos:
        image = decode_image_file(str(path))  # checked as every photo read is (vision/imagefile.py)
        spots = locator.locate(locator_net, image)
        if not spots:
            if skipped is not None:
                skipped.append(f"{path}: no die found")
            continue
        s = spots[0]
        die, face = path.parent.parent.name, path.parent.name
        crops = [facereader.cut(image, s.center, s.size * k) for k in SCALES]
        crops += views(image, s.center, s.size, rng, top_washed=0.0 if pointed(die) else TOP_WASHED)
        seen = facereader.embed(face_net, crops)
        gallery.add(die, face, np.stack([v.embedding for v in seen[: len(SCALES)]]), facereader.VIEWS)
        descriptors += [v.descriptor for v in seen]
        colours.append(diecolour.colours(crops))
        if glyphs is not None:
            glyph_chances.append(glyphs.probabilities(crops))
        labels += [(die, face)] * len(crops)
        numbers += [photo_of[die, face]] * len(crops)  # this face's photo 0, 1, ...
        photo_of[die, face] += 1
    if len(set(labels)) >= 2:
        gallery.head = facehead.calibrated(np.stack(descriptors), labels, numbers)
        if glyph_chances:
            chances = np.concatenate(glyph_chances)
            gallery.glyph = facehead.fit(fusion.glyph_features(chances), labels)
            gallery.habits = fusion.habits(chances, labels, glyphs.names)
    if colours:
        gallery.colour = diecolour.fit(np.concatenate(colours), labels)
    return gallery


def views(
    image: np.ndarray,
    center: tuple[float, float],
    size: float,
    rng: np.random.Generator,
    count: int = AUGMENTED,
    top_washed: float = TOP_WASHED,
) -> list[np.ndarray]:
    """``count`` crops (as :func:`facereader.cut`) of the die of ``size`` px at ``center``, each seen
    another way: any turn, the centre off by 7% of the die and the size by up to 12% (the
    locator's errors), gain, colour balance and gamma, a sheen washing part of it, the top face
    alone washed pale (``top_washed`` of them: a lamp's gloss on the top, the rim keeping the body's
    colour, as the shared renders' lavender purple dice show), blur, sensor noise, JPEG."""
    half = int(2 * size) + 2
    pad = cv2.copyMakeBorder(image, half, half, half, half, cv2.BORDER_REFLECT)
    x0, y0 = int(center[0]), int(center[1])
    patch = pad[y0 : y0 + 2 * half, x0 : x0 + 2 * half].astype(np.float32)
    c = (center[0] - x0 + half, center[1] - y0 + half)
    side = patch.shape[1], patch.shape[0]
    ramp = np.repeat(np.linspace(0, 1, side[1], dtype=np.float32)[:, None], side[0], axis=1)
    out = []
    for _ in range(count):
        turn = cv2.getRotationMatrix2D(c, rng.uniform(0, 360), 1.0)
        p = cv2.warpAffine(patch, turn, side, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        p = p * rng.uniform(0.75, 1.25) * rng.uniform(0.9, 1.1, 3).astype(np.float32)
        if rng.random() < 0.4:
            sheen = cv2.getRotationMatrix2D(c, rng.uniform(0, 360), 1.0)
            wash = cv2.warpAffine(ramp, sheen, side, borderMode=cv2.BORDER_REFLECT)[..., None]
            a = rng.uniform(0.1, 0.4) * wash
            p = p * (1 - a) + 255 * a
        if rng.random() < top_washed:
            top = np.zeros(p.shape[:2], np.float32)
            cv2.circle(top, (round(c[0]), round(c[1])), max(1, round(rng.uniform(0.3, 0.45) * size)), 1.0, -1)
            a = rng.uniform(0.2, 0.6) * cv2.GaussianBlur(top, (0, 0), 0.08 * size)[..., None]
            p = p * (1 - a) + 255 * a
        p = 255 * (np.clip(p, 0, 255) / 255) ** rng.uniform(0.8, 1.25)
        if rng.random() < 0.5:
            p = cv2.GaussianBlur(p, (0, 0), rng.uniform(0.3, 1.0))
        p = np.clip(p + rng.normal(0, rng.uniform(0, 5), p.shape), 0, 255).astype(np.uint8)
        if rng.random() < 0.5:
            _, buf = cv2.imencode(".jpg", p, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
            p = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        at = (c[0] + rng.normal(0, 0.07 * size), c[1] + rng.normal(0, 0.07 * size))
        out.append(facereader.cut(p, at, size * rng.uniform(0.88, 1.12)))
    return out


def shipped_models() -> tuple[str, ...]:
    """The shipped models a set enrolled now is fitted with, as ``<file>:<SHA-256>``: its faces'
    embeddings and its face classifier are the face reader's, its glyph classifier the glyph
    reader's, and a set enrolled with other files is read wrong by these."""
    return tuple(
        f"{model.name}:{integrity.recorded(model) or 'unrecorded'}"
        for model in (facereader.MODEL, glyphreader.MODEL)
    )


def lacks_classifier(gallery: Gallery) -> bool:
    """Whether ``gallery`` is a set saved without the classifiers it would have now (by a version
    before sets had them: of its faces when it has two or more, by colour when its dice or its faces
    come in two colours or more, of its faces on the glyph reader's output when it has two or more
    and there is a glyph reader): enrolling its photos again gives them."""
    faces = set(zip(gallery.dice, gallery.faces, strict=True))
    colours = set(diecolour.groups(sorted(faces)))
    if (
        (gallery.glyph is None or gallery.habits is None)
        and len(faces) >= 2
        and glyphreader.load() is not None
    ):
        return True
    if not gallery.models:
        return True  # saved before sets recorded their models: which ones fitted it is not known
    if gallery.head is not None and gallery.head.temperature is None:
        return True  # fitted before enrolment held photos out to temper it (facehead.calibrated)
    return (gallery.head is None and len(faces) >= 2) or (gallery.colour is None and len(colours) >= 2)


def learn(
    name: str, folder: str | Path, sets: Path | None = None, skipped: list[str] | None = None
) -> Gallery:
    """Enrol ``folder`` (``<die>/<face>/*.jpg|png``) as set ``name`` and save it; its faces. Photos
    with no die found are listed in ``skipped``."""
    nets = models()
    if nets is None:
        raise VisionError(NO_MODELS)
    gallery = enrol_folder(Path(folder), *nets, skipped=skipped)
    gallery.models = shipped_models()
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
        gallery = Gallery.load(path)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise VisionError(f"set {name!r}: {path.name} is damaged ({exc}); enrol it again") from None
    now = shipped_models()
    if gallery.models and gallery.models != now:
        raise VisionError(
            f"set {name!r} was enrolled with other dice models ({', '.join(gallery.models)}) than these "
            f"({', '.join(now)}); enrol it again"
        )
    return gallery


def reader_for(name: str | None, sets: Path | None = None, own: Gallery | None = None) -> LearntReader:
    """The reader with set ``name``'s faces (``own`` if given; None: the default gallery alone).
    Missing models, or a missing or damaged set, are a :class:`VisionError` naming them."""
    nets = models()
    if nets is None:
        raise VisionError(NO_MODELS)
    if own is None and name:
        own = load_set(name, sets)
    return LearntReader(default_gallery() if own is None else beside_defaults(own), *nets)


def beside_defaults(own: Gallery) -> Gallery:
    """The set ``own`` with the shipped faces of every other die (not of the plain ``d6`` when the
    set has a plain pip die of its own: one die, not two rivals)."""
    gallery = default_gallery()
    mine = set(own.dice) | ({PLAIN_DIE} if set(own.dice) & set(PLAIN_D6) else set())
    gallery = gallery.only(set(gallery.dice) - mine)
    gallery.add_all(own)
    return gallery
