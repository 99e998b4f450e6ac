"""The device configuration: one TOML file, validated against a schema (see ``docs/configuration.md``).

Where it is read from, first match wins:

1. ``$DICE_COMPANION_CONFIG`` (it must exist when set);
2. ``/etc/dice-companion/config.toml`` if it exists (the Pi, installed by ``install.sh``);
3. ``$XDG_CONFIG_HOME/dice-companion/config.toml`` (``~/.config/...``) if it exists;
4. otherwise the built-in defaults.

A wrong section, key or value raises :class:`ConfigError` naming the file, the key, the value and what
is allowed:

>>> parse_config('[pins]\\nread = 40\\n', "config.toml")
Traceback (most recent call last):
...
hardware.config.ConfigError: config.toml: [pins] read = 40 is not allowed: a BCM GPIO number 2-27, or "none"
>>> parse_config('[camera]\\nsorce = "sim"\\n', "config.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hardware.config.ConfigError: config.toml: unknown key [camera] sorce; allowed keys: source, device, ...
>>> parse_config("", "none").pins.read
17
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from companion.regular_file import read_regular_file

SYSTEM_PATH = Path("/etc/dice-companion/config.toml")
ENV_VAR = "DICE_COMPANION_CONFIG"


class ConfigError(ValueError):
    """The configuration file is unreadable or has a wrong section, key or value."""


# --- the settings -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pins:
    """BCM GPIO numbers of the controls; ``None`` means that control is not fitted."""

    read: int | None = 17
    undo: int | None = 27
    next: int | None = 22
    ready_led: int | None = 23
    reading_led: int | None = 24
    attention_led: int | None = 25
    buzzer: int | None = 12
    gpio: str = "auto"  # "auto": use GPIO when the board has it; "off": never
    bounce_ms: int = 50


@dataclass(frozen=True, slots=True)
class Camera:
    source: str = "auto"  # auto | picamera2 | webcam | file | sim | none
    device: str = ""  # webcam index or /dev/videoN; a video file or image folder for "file"
    width: int = 640
    height: int = 480
    lock_exposure: bool = True


@dataclass(frozen=True, slots=True)
class Display:
    fullscreen: bool = True
    size: str = "auto"  # "auto" or WIDTHxHEIGHT, e.g. "800x480", "720x1280"
    rotation: int = 0


@dataclass(frozen=True, slots=True)
class Data:
    dir: str = ""  # empty: $STATE_DIRECTORY (systemd), else $XDG_DATA_HOME/dice-companion

    def path(self, env: Mapping[str, str] | None = None) -> Path:
        """The directory holding the games database and the throw photos (``$DICE_COMPANION_DATA`` first)."""
        env = os.environ if env is None else env
        if env.get("DICE_COMPANION_DATA"):
            return Path(env["DICE_COMPANION_DATA"])
        if self.dir:
            return Path(self.dir).expanduser()
        if env.get("STATE_DIRECTORY"):
            return Path(env["STATE_DIRECTORY"].split(":")[0])
        base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "dice-companion"


@dataclass(frozen=True, slots=True)
class Logging:
    level: str = "info"


@dataclass(frozen=True, slots=True)
class Config:
    pins: Pins = Pins()
    camera: Camera = Camera()
    display: Display = Display()
    data: Data = Data()
    logging: Logging = Logging()
    source: str = "built-in defaults"  # where it was read from


# --- the schema: for every key, what is allowed -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rule:
    allowed: str  # in words, for the error message
    check: Callable[[Any], Any]  # returns the stored value, raises ValueError if not allowed


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _pin(v: Any) -> int | None:
    if v == "none":
        return None
    if _is_int(v) and 2 <= v <= 27:
        return v
    raise ValueError


def _choice(*choices: Any) -> Rule:
    def check(v: Any) -> Any:
        if type(v) in {type(c) for c in choices} and v in choices:
            return v
        raise ValueError

    return Rule("one of " + ", ".join(f'"{c}"' if isinstance(c, str) else str(c) for c in choices), check)


def _int_range(lo: int, hi: int) -> Rule:
    def check(v: Any) -> int:
        if _is_int(v) and lo <= v <= hi:
            return v
        raise ValueError

    return Rule(f"a whole number {lo}-{hi}", check)


def _bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    raise ValueError


def _string(v: Any) -> str:
    if isinstance(v, str):
        return v
    raise ValueError


def _device(v: Any) -> str:
    if _is_int(v) and v >= 0:
        return str(v)
    if isinstance(v, str):
        return v
    raise ValueError


SIDE_MIN, SIDE_MAX = 100, 4096  # pixels, each side of a window or screen size


def parse_size(text: str) -> tuple[int, int] | None:
    """``WIDTHxHEIGHT`` as two numbers, each SIDE_MIN-SIDE_MAX; None for "auto" or anything else."""
    m = re.fullmatch(r"(\d{1,5})[xX](\d{1,5})", text)
    if not m:
        return None
    w, h = int(m.group(1)), int(m.group(2))
    return (w, h) if SIDE_MIN <= w <= SIDE_MAX and SIDE_MIN <= h <= SIDE_MAX else None


def _size(v: Any) -> str:
    if isinstance(v, str) and (v == "auto" or parse_size(v) is not None):
        return v
    raise ValueError


PIN = Rule('a BCM GPIO number 2-27, or "none"', _pin)
BOOL = Rule("true or false", _bool)
SCHEMA: dict[str, dict[str, Rule]] = {
    "pins": {
        "read": PIN, "undo": PIN, "next": PIN,
        "ready_led": PIN, "reading_led": PIN, "attention_led": PIN, "buzzer": PIN,
        "gpio": _choice("auto", "off"),
        "bounce_ms": _int_range(0, 1000),
    },
    "camera": {
        "source": _choice("auto", "picamera2", "webcam", "file", "sim", "none"),
        "device": Rule("a camera index (0, 1, ...) or a path, as a string", _device),
        "width": _int_range(160, 4096),
        "height": _int_range(120, 4096),
        "lock_exposure": BOOL,
    },
    "display": {
        "fullscreen": BOOL,
        "size": Rule(f'"auto" or WIDTHxHEIGHT such as "800x480", each side {SIDE_MIN}-{SIDE_MAX}', _size),
        "rotation": _choice(0, 90, 180, 270),
    },
    "data": {"dir": Rule("a directory path (a string; empty for the default)", _string)},
    "logging": {"level": _choice("debug", "info", "warning", "error")},
}
SECTIONS: dict[str, type] = {"pins": Pins, "camera": Camera, "display": Display, "data": Data,
                             "logging": Logging}
CONTROL_PINS = ("read", "undo", "next", "ready_led", "reading_led", "attention_led", "buzzer")


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def validate(doc: Mapping[str, Any], where: str) -> Config:
    """A :class:`Config` from a parsed TOML document; :class:`ConfigError` on anything wrong."""
    sections: dict[str, Any] = {}
    for name, table in doc.items():
        if name not in SCHEMA:
            raise ConfigError(f"{where}: unknown section [{name}]; allowed sections: {', '.join(SCHEMA)}")
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: {name} must be a section [{name}], not a value")
        rules = SCHEMA[name]
        values = {}
        for key, value in table.items():
            if key not in rules:
                raise ConfigError(f"{where}: unknown key [{name}] {key}; allowed keys: {', '.join(rules)}")
            try:
                values[key] = rules[key].check(value)
            except ValueError:
                raise ConfigError(f"{where}: [{name}] {key} = {show_value(value)} is not allowed: "
                                  f"{rules[key].allowed}") from None
        sections[name] = SECTIONS[name](**values)
    config = Config(**sections, source=where)
    _check_pins(config.pins, where)
    return config


def _check_pins(pins: Pins, where: str) -> None:
    used: dict[int, str] = {}
    for key in CONTROL_PINS:
        pin = getattr(pins, key)
        if pin is None:
            continue
        if pin in used:
            raise ConfigError(f"{where}: [pins] {key} = {pin} is not allowed: GPIO {pin} is already "
                              f"used by {used[pin]}; each control needs its own pin")
        used[pin] = key


def parse_config(text: str, where: str = "config.toml") -> Config:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML: {exc}") from None
    return validate(doc, where)


def config_path(env: Mapping[str, str] | None = None) -> Path | None:
    """The file the configuration is read from, or None for the built-in defaults."""
    env = os.environ if env is None else env
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR])
    if SYSTEM_PATH.is_file():
        return SYSTEM_PATH
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    user = Path(base) / "dice-companion" / "config.toml"
    return user if user.is_file() else None


def load_config(path: Path | str | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read and validate the configuration (``path`` or the one :func:`config_path` finds)."""
    path = Path(path) if path is not None else config_path(env)
    if path is None:
        return Config()
    try:
        text = read_regular_file(path, MAX_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: the configuration file does not exist (set by ${ENV_VAR}?)") from None
    except (OSError, ValueError) as exc:  # ValueError: not a regular file, too long, not UTF-8
        raise ConfigError(f"{path}: cannot be read: {exc}") from None
    return parse_config(text, str(path))


MAX_BYTES = 256 * 1024  # the configuration file: about 2 KB with every key and comment


def defaults_as_toml() -> str:
    """Every setting with its default, as TOML (what ``hardware/default-config.toml`` holds)."""
    out = []
    for name, cls in SECTIONS.items():
        out.append(f"[{name}]")
        default = cls()
        for f in fields(cls):
            value = getattr(default, f.name)
            out.append(f"{f.name} = {show_value('none' if value is None else value)}")
        out.append("")
    return "\n".join(out)
