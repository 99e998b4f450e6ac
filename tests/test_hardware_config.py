"""The configuration file: where it is found, its defaults, and clear errors for wrong keys or values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hardware.config import (
    SCHEMA,
    Config,
    ConfigError,
    Pins,
    config_path,
    defaults_as_toml,
    load_config,
    parse_config,
    show_value,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT / "hardware" / "default-config.toml"
DOC = ROOT / "docs" / "configuration.md"


def test_the_shipped_file_holds_exactly_the_defaults():
    cfg = load_config(DEFAULT_FILE)
    assert cfg == Config(source=str(DEFAULT_FILE))
    assert parse_config(defaults_as_toml(), "x") == Config(source="x")


def test_every_key_is_documented_with_its_default():
    doc = DOC.read_text(encoding="utf-8")
    defaults = parse_config("", "x")
    for section, keys in SCHEMA.items():
        assert f"## `[{section}]`" in doc
        for key in keys:
            value = getattr(getattr(defaults, section), key)
            shown = show_value("none" if value is None else value)
            assert re.search(rf"\| `{key}` \| `{re.escape(shown)}` \|", doc), (section, key)


def test_values_are_read():
    cfg = parse_config('[pins]\nread = 5\nbuzzer = "none"\n[camera]\nsource = "webcam"\ndevice = 1\n'
                       '[display]\nrotation = 90\nsize = "800x480"\n[logging]\nlevel = "debug"\n')
    assert cfg.pins.read == 5 and cfg.pins.buzzer is None and cfg.pins.undo == Pins().undo
    assert (cfg.camera.source, cfg.camera.device) == ("webcam", "1")
    assert (cfg.display.rotation, cfg.display.size, cfg.logging.level) == (90, "800x480", "debug")


@pytest.mark.parametrize(("text", "message"), [
    ("[pins]\nread = 40", '[pins] read = 40 is not allowed: a BCM GPIO number 2-27, or "none"'),
    ("[pins]\nread = 1", "[pins] read = 1 is not allowed: a BCM GPIO number 2-27"),
    ("[pins]\nread = true", "[pins] read = true is not allowed"),
    ('[pins]\nread = "17"', '[pins] read = "17" is not allowed'),
    ("[pins]\nundo = 17", "[pins] undo = 17 is not allowed: GPIO 17 is already used by read"),
    ('[pins]\ngpio = "on"', '[pins] gpio = "on" is not allowed: one of "auto", "off"'),
    ("[camera]\nsorce = 'sim'", "unknown key [camera] sorce; allowed keys: source, device, width"),
    ("[camera]\nwidth = 64", "[camera] width = 64 is not allowed: a whole number 160-4096"),
    ("[camera]\nlock_exposure = 1", "[camera] lock_exposure = 1 is not allowed: true or false"),
    ("[display]\nrotation = 45", "[display] rotation = 45 is not allowed: one of 0, 90, 180, 270"),
    ("[display]\nrotation = 90.0", "[display] rotation = 90.0 is not allowed"),
    ('[display]\nsize = "big"', '[display] size = "big" is not allowed: "auto" or WIDTHxHEIGHT'),
    ("[screen]\nfullscreen = true", "unknown section [screen]; allowed sections: pins, camera"),
    ("logging = 'debug'", "logging must be a section [logging], not a value"),
    ('[logging]\nlevel = "verbose"', '[logging] level = "verbose" is not allowed: one of "debug"'),
    ("[pins\nread = 3", "not valid TOML"),
])
def test_a_wrong_key_or_value_names_key_value_and_what_is_allowed(text, message):
    with pytest.raises(ConfigError) as exc:
        parse_config(text, "/etc/dice-companion/config.toml")
    assert str(exc.value).startswith("/etc/dice-companion/config.toml: ")
    assert message in str(exc.value)


def test_where_the_file_is_found(tmp_path, monkeypatch):
    import hardware.config as config

    monkeypatch.setattr(config, "SYSTEM_PATH", tmp_path / "etc" / "config.toml")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "home")}
    assert config_path(env) is None
    assert load_config(env=env) == Config()
    user = tmp_path / "home" / "dice-companion" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[logging]\nlevel = 'error'\n")
    assert config_path(env) == user
    assert load_config(env=env).logging.level == "error"
    system = tmp_path / "etc" / "config.toml"
    system.parent.mkdir()
    system.write_text("[logging]\nlevel = 'warning'\n")
    assert load_config(env=env).logging.level == "warning"  # the Pi's file wins over a user's
    override = tmp_path / "other.toml"
    override.write_text("[logging]\nlevel = 'debug'\n")
    assert load_config(env={**env, "DICE_COMPANION_CONFIG": str(override)}).logging.level == "debug"
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(env={"DICE_COMPANION_CONFIG": str(tmp_path / "missing.toml")})


def test_unreadable_file_is_a_config_error(tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_bytes(b"\xff\xfe[pins]")
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(bad)


def test_data_dir_follows_systemd_then_xdg(tmp_path):
    cfg = Config()
    assert cfg.data.path({"STATE_DIRECTORY": "/var/lib/dice-companion"}) == Path("/var/lib/dice-companion")
    assert cfg.data.path({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "dice-companion"
    assert parse_config(f"[data]\ndir = '{tmp_path}'").data.path({"STATE_DIRECTORY": "/x"}) == tmp_path
    assert cfg.data.path({"DICE_COMPANION_DATA": "/d", "STATE_DIRECTORY": "/x"}) == Path("/d")
