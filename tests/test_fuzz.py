"""Fuzz suites for every surface that reads outside input: records, configuration, the app's settings,
database rows and image files. Each case must end in the surface's documented result or error (never
another exception, so never a traceback), and memory must stay bounded.

`make test` runs FUZZ_EXAMPLES (default 400) cases per test, the same ones each run (derandomized), about
3,000 in all; `make fuzz` runs 4,000 new random cases per test (FUZZ_EXAMPLES=N to change it) and
prints the cases tried per surface (``CASES``, tests/conftest.py) and how many tests failed.
"""

from __future__ import annotations

import io
import json
import os
import resource
import sqlite3
import string
import struct
import zlib
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion import record
from companion.errors import RecordError
from companion.referee import judge
from companion.store import Store
from dice_companion.cli import main
from hardware.config import Config, ConfigError, parse_config, validate
from tests.rollers_helpers import new_game, roll, turn
from ui.settings import ROTATIONS, Settings
from vision.imagefile import MAX_PIXELS, declared_size, decode_image_file
from vision.types import VisionError

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "400"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
CASES: Counter[str] = Counter()  # surface -> cases tried (printed by `make fuzz`)
# The process's peak memory may rise by at most this much while a test's cases run (a hostile record
# or image that got through would need gigabytes). Measured against the peak as the test starts: the
# tests run before it in the same process may have used more than the cases themselves.
RSS_GROWTH_KB = 300 * 1024
PEAK_BEFORE_KB = 0


@pytest.fixture(autouse=True)
def _peak_before() -> None:
    global PEAK_BEFORE_KB
    PEAK_BEFORE_KB = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def bounded_memory() -> None:
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < PEAK_BEFORE_KB + RSS_GROWTH_KB


# --- JSON-ish values: ordinary, large, deep, odd ------------------------------------------------

NUMBERS = st.one_of(st.integers(), st.integers(-10**40, 10**40), st.booleans(), st.none(),
                    st.floats(allow_nan=True, allow_infinity=True))
WORDS = ["Anna", "Ben", "rollers", "white-1", "purple", "black", "6", "star", "zap", "manual", "camera",
         "stop"]
NAMES = st.one_of(st.text(max_size=12), st.sampled_from(WORDS), st.just("A" * 70),
                  st.text(alphabet="\x00\x07\x1b[];\u202e\u0085 a", max_size=8))
JSONISH = st.recursive(st.one_of(NUMBERS, NAMES),
                       lambda kids: st.one_of(st.lists(kids, max_size=4),
                                              st.dictionaries(NAMES, kids, max_size=4)), max_leaves=8)
FIELDS = ["seq", "v", "type", "game", "players", "options", "source", "dice", "slot", "face", "confidence",
          "evidence", "cards", "player", "move", "of", "event"]
TYPES = ["start", "roll", "draw", "move", "amend", "undo", "teleport"]


@st.composite
def event_objects(draw) -> dict:
    """An event-shaped object: the real field names, with right and wrong values."""
    obj = {"seq": draw(st.one_of(st.integers(0, 6), NUMBERS, NAMES)), "type": draw(st.sampled_from(TYPES))}
    for key in draw(st.lists(st.sampled_from(FIELDS), max_size=6, unique=True)):
        obj[key] = draw(JSONISH)
    return obj


def valid_lines() -> list[str]:
    game = new_game()
    turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
    game.amend(2, record.RollEvent(roll("1", "3", "3", "4", "star", "4")))
    game.undo()
    return record.dumps(game.events).splitlines()


VALID = valid_lines()


@st.composite
def records(draw) -> str:
    """Whole records: a valid one with lines replaced, inserted, cut, nested deep or made huge."""
    lines = list(VALID)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines)))
        how = draw(st.sampled_from(["object", "text", "cut", "deep", "digits", "drop", "long", "swap"]))
        if how == "object":
            lines.insert(at, json.dumps(draw(event_objects())))
        elif how == "text":
            lines.insert(at, draw(st.text(max_size=40)))
        elif how == "cut" and at < len(lines):
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        elif how == "deep":
            n = draw(st.integers(1, 40_000))
            lines.insert(at, f'{{"seq": {at}, "type": "start", "options": {{"x": {"[" * n}{"]" * n}}}}}')
        elif how == "digits":
            digits = "9" * draw(st.integers(10, 6000))
            lines.insert(at, f'{{"seq": {at}, "type": "move", "player": {digits}, "move": "stop"}}')
        elif how == "drop" and at < len(lines):
            del lines[at]
        elif how == "long":
            lines.insert(at, json.dumps({"seq": at, "type": "move", "player": 0,
                                         "move": "x" * draw(st.integers(1000, 40_000))}))
        elif how == "swap" and len(lines) > 1:
            i = min(at, len(lines) - 1)
            lines[i], lines[i - 1] = lines[i - 1], lines[i]
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n", "\r\n"]))


def check_record_text(text: str) -> None:
    try:
        events = record.loads(text)
    except RecordError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    verdict = judge(events)  # replay: a rule refusal or a record problem is a verdict, not an exception
    assert isinstance(verdict["ok"], bool)
    assert all(line.isprintable() for line in verdict["text"].splitlines())


@FUZZ
@given(records())
def test_fuzz_records_loads_and_replay(text):
    CASES["records"] += 1
    check_record_text(text)


@FUZZ
@given(st.lists(st.one_of(event_objects(), JSONISH), min_size=1, max_size=5))
def test_fuzz_records_any_objects(objs):
    CASES["records"] += 1
    check_record_text("\n".join(json.dumps(o) for o in objs))


@settings(FUZZ, max_examples=max(EXAMPLES // 10, 20))
@given(records())
def test_fuzz_records_through_the_referee_command(tmp_path_factory, text):
    CASES["records"] += 1
    path = tmp_path_factory.mktemp("rec") / "r.jsonl"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["referee", str(path)])
    assert code in (0, 1, 2)
    assert "Traceback" not in err.getvalue() and "\x1b" not in out.getvalue() + err.getvalue()
    bounded_memory()


# --- configuration -------------------------------------------------------------------------------

SECTIONS = {"pins": ["read", "undo", "next", "ready_led", "reading_led", "attention_led", "buzzer", "gpio",
                     "bounce_ms"],
            "camera": ["source", "device", "width", "height", "lock_exposure"],
            "display": ["fullscreen", "size", "rotation"], "data": ["dir"], "logging": ["level"]}
TOML_VALUES = st.one_of(st.integers(-10**20, 10**20), st.integers(0, 300), st.booleans(),
                        st.floats(allow_nan=True, allow_infinity=True), NAMES,
                        st.sampled_from(['"auto"', '"none"', '"800x480"', '"-800x480"', '"100000x100000"',
                                         '"sim"', '"off"', '"debug"', "90", "1e400", "[1, 2]", "{a = 1}"]))


def toml_value(v) -> str:
    if isinstance(v, str) and v[:1] in '"[{0123456789-':
        return v
    if isinstance(v, float) and (v != v or abs(v) == float("inf")):
        return "nan" if v != v else "inf"
    return json.dumps(v)


@st.composite
def config_texts(draw) -> str:
    out = []
    for section in draw(st.lists(st.sampled_from([*SECTIONS, "extra"]), max_size=4, unique=True)):
        out.append(f"[{section}]")
        keys = SECTIONS.get(section, ["what"])
        for key in draw(st.lists(st.sampled_from([*keys, "sorce"]), max_size=4, unique=True)):
            out.append(f"{key} = {toml_value(draw(TOML_VALUES))}")
    if draw(st.booleans()):
        out.insert(draw(st.integers(0, len(out))), draw(st.text(max_size=30)))
    return "\n".join(out)


@FUZZ
@given(config_texts())
def test_fuzz_configuration_text(text):
    CASES["configuration"] += 1
    try:
        config = parse_config(text, "fuzz.toml")
    except ConfigError as exc:
        assert str(exc).startswith("fuzz.toml: ")
        return
    assert isinstance(config, Config)
    assert config.display.rotation in (0, 90, 180, 270)


@FUZZ
@given(st.dictionaries(st.sampled_from([*SECTIONS, "x"]),
                       st.one_of(st.dictionaries(st.sampled_from([k for ks in SECTIONS.values() for k in ks]),
                                                 JSONISH, max_size=4), JSONISH), max_size=4))
def test_fuzz_configuration_documents(doc):
    CASES["configuration"] += 1
    try:
        validate(doc, "fuzz.toml")
    except ConfigError as exc:
        assert str(exc).startswith("fuzz.toml: ")


# --- the app's settings file --------------------------------------------------------------------

SETTINGS_VALUES = st.one_of(JSONISH, st.sampled_from([0, 90, 180, 270, 1e400, -90, 90.0, True]))


@FUZZ
@given(st.one_of(st.dictionaries(st.sampled_from(["sound", "rotation", "colours", "path", "x"]),
                                 SETTINGS_VALUES, max_size=4).map(json.dumps),
                 JSONISH.map(json.dumps), st.text(max_size=50),
                 st.sampled_from(['{"rotation": 1e400}', '{"rotation": NaN}', '{"colours": {"a": []}}'])))
def test_fuzz_settings_file(tmp_path_factory, text):
    CASES["settings"] += 1
    path = tmp_path_factory.getbasetemp() / "ui-settings.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    s = Settings.load(path)
    assert isinstance(s.sound, bool) and s.rotation in ROTATIONS
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in s.colours.items())


# --- database rows -------------------------------------------------------------------------------

CELLS = st.one_of(st.text(max_size=30), JSONISH.map(json.dumps), st.integers(-10**18, 10**18),
                  st.floats(allow_nan=False), st.binary(max_size=20),
                  st.sampled_from(["nope", "[1]", "[]", '["A"]', '["Anna", "Anna"]', "2026-13-45", "1e400",
                                   "[" * 3000 + "]" * 3000]))


@pytest.fixture(scope="module")
def spoilt_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "g.sqlite3"
    with Store(path) as store:
        good, game = store.create("rollers", ["Anna", "Ben"])
        game.roll(roll("5", "1", slots=("player1", "player2")))
        bad, game = store.create("rollers", ["Chloe", "Dan"])
        game.roll(roll("5", "1", slots=("player1", "player2")))
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE e2 AS SELECT * FROM events")  # events without NOT NULL: any cell at all
    db.execute("DROP TABLE events")
    db.execute("ALTER TABLE e2 RENAME TO events")
    db.commit()
    (event,) = db.execute("SELECT rowid FROM events WHERE game_id=? AND seq=1", (bad,)).fetchone()
    yield path, good, bad, event, db
    db.close()


@FUZZ
@given(column=st.sampled_from(["game", "players", "created", "updated", "finished", "body", "seq", "at"]),
       value=CELLS)
def test_fuzz_database_rows(spoilt_db, column, value):
    CASES["database rows"] += 1
    path, good, bad, event, db = spoilt_db
    table = "events" if column in ("body", "seq", "at") else "games"
    where = f"rowid={event}" if table == "events" else f"id={bad}"
    saved = db.execute(f"SELECT {column} FROM {table} WHERE {where}").fetchone()[0]
    try:
        db.execute(f"UPDATE {table} SET {column}=? WHERE {where}", (value,))
    except sqlite3.IntegrityError:
        assume(False)  # NOT NULL and the like: the database itself refuses the value
    db.commit()
    try:
        with Store(path) as store:
            listed = {g.id for g in store.games()}
            assert good in listed  # the rest keep working
            assert (bad in listed) != bool(store.problems)
            assert store.resume(good).state.players == ("Anna", "Ben")
            try:
                store.resume(bad)
                store.export(bad)
            except RecordError as exc:
                assert str(exc)
    finally:
        db.execute(f"UPDATE {table} SET {column}=? WHERE {where}", (saved,))
        db.commit()


# --- image files ---------------------------------------------------------------------------------

def png(w: int, h: int, rest: bytes) -> bytes:
    ihdr = b"IHDR" + struct.pack(">II", w, h) + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr)) + rest


def tiny(ext: str) -> bytes:
    import cv2

    _, buf = cv2.imencode(ext, np.full((9, 11, 3), 90, np.uint8))
    return buf.tobytes()


REAL = {ext: tiny(ext) for ext in (".png", ".jpg", ".webp", ".tif", ".bmp", ".ppm", ".gif", ".ras", ".hdr")}
DIMS = st.integers(0, 2**32 - 1) | st.integers(0, 70_000)
RIFF = b"RIFF\x00\x00\x00\x00WEBP"
MAGICS = [b"\xff\xd8\xff", RIFF + b"VP8X", RIFF + b"VP8L", RIFF + b"VP8 ", b"II*\x00", b"MM\x00*", b"BM",
          b"GIF89a", b"\x59\xa6\x6a\x95", b"#?RADIANCE\n", b"P7\n", b"Pf\n"]


@st.composite
def image_bytes(draw) -> bytes:
    how = draw(st.sampled_from(["real-cut", "real-flip", "png-dims", "magic", "pnm", "random"]))
    if how in ("real-cut", "real-flip"):
        data = bytearray(REAL[draw(st.sampled_from(sorted(REAL)))])
        if how == "real-cut":
            return bytes(data[: draw(st.integers(0, len(data)))])
        for _ in range(draw(st.integers(1, 6))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] = draw(st.integers(0, 255))
        return bytes(data)
    if how == "png-dims":
        return png(draw(DIMS), draw(DIMS), draw(st.binary(max_size=64)))
    if how == "magic":
        magic = draw(st.sampled_from(MAGICS))
        return magic + draw(st.binary(max_size=80))
    if how == "pnm":
        kind = draw(st.sampled_from(["P1", "P2", "P3", "P4", "P5", "P6"]))
        return f"{kind}\n{draw(DIMS)} {draw(DIMS)}\n255\n".encode() + draw(st.binary(max_size=64))
    return draw(st.binary(max_size=200))


@FUZZ
@given(image_bytes())
def test_fuzz_image_files(tmp_path_factory, data):
    CASES["image files"] += 1
    path = tmp_path_factory.getbasetemp() / "fuzz.img"
    path.write_bytes(data)
    try:
        image = decode_image_file(str(path))
    except VisionError as exc:
        assert str(exc).startswith(f"{path}: ")
    else:
        assert image.ndim == 3 and image.shape[0] * image.shape[1] <= MAX_PIXELS
        try:
            _, (w, h) = declared_size(data)
        except (LookupError, ValueError):
            pytest.fail("a decoded image always has a header read here")
        assert w * h <= MAX_PIXELS
    bounded_memory()


@settings(FUZZ, max_examples=max(EXAMPLES // 20, 10))
@given(st.lists(image_bytes(), min_size=1, max_size=3))
def test_fuzz_images_through_the_read_command(tmp_path_factory, images):
    CASES["image files"] += 1
    folder = tmp_path_factory.mktemp("read")
    paths = []
    for i, data in enumerate(images):
        paths.append(str(folder / f"{i}{string.ascii_lowercase[i]}.png"))
        Path(paths[-1]).write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["read", "--json", *paths])
    assert code in (0, 1)
    assert [json.loads(line)["image"] for line in out.getvalue().splitlines()] == paths
    assert "Traceback" not in err.getvalue()
    bounded_memory()
