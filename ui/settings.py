"""The app's own settings (sound, screen rotation, player colours), kept in a small JSON file."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path

from companion.regular_file import read_regular_file

log = logging.getLogger(__name__)

ROTATIONS = (0, 90, 180, 270)
MAX_BYTES = 64 * 1024  # the settings file: a few hundred bytes in use


def _short(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64 and value.isprintable()


@dataclass(slots=True)
class Settings:
    sound: bool = True
    rotation: int = 0  # degrees clockwise the picture is turned on the panel
    colours: dict[str, str] = field(default_factory=dict)  # player name -> colour name
    dpi: float | None = None  # the screen's pixels per inch; None: a 7-inch screen (ui.theme)
    auto_confirm: bool = False  # a read whose every die is sure is confirmed after a short countdown
    path: str | None = None

    @classmethod
    def load(cls, path: str | Path | None, rotation: int = 0) -> Settings:
        """Settings from ``path``; a missing or unreadable file gives the defaults (and says so).

        ``rotation`` is the default rotation (the configuration's ``[display] rotation``), used until
        one is chosen on the screen. Each value is checked: a wrong one (not a bool, not one of the
        four rotations, a colour that is not a short name) is dropped with a warning, the rest kept.
        The file is read only if it is a regular file of at most :data:`MAX_BYTES`.
        """
        default = cls(rotation=rotation if rotation in ROTATIONS else 0)
        default.path = None if path is None else str(path)
        if path is None:
            return default
        p = Path(path)
        try:
            raw = json.loads(read_regular_file(p, MAX_BYTES).decode("utf-8"))
        except FileNotFoundError:
            return default
        except (OSError, ValueError, RecursionError) as exc:
            log.warning("settings file %s unreadable (%s): using defaults", p, exc)
            return default
        if not isinstance(raw, dict):
            log.warning("settings file %s is not a JSON object: using defaults", p)
            return default
        s = default
        sound = raw.get("sound", s.sound)
        if isinstance(sound, bool):
            s.sound = sound
        else:
            log.warning("settings file %s: sound %.40r is not true or false: ignored", p, sound)
        turn = raw.get("rotation", s.rotation)
        if type(turn) is int and turn in ROTATIONS:
            s.rotation = turn
        else:
            log.warning("settings file %s: rotation %.40r is not 0, 90, 180 or 270: ignored", p, turn)
        colours = raw.get("colours", {})
        if isinstance(colours, dict):
            s.colours = {k: v for k, v in colours.items() if _short(k) and _short(v)}
            if len(s.colours) != len(colours):
                log.warning("settings file %s: colours that are not short names were ignored", p)
        else:
            log.warning("settings file %s: colours is not an object: ignored", p)
        dpi = raw.get("dpi")
        if dpi is None:
            s.dpi = None
        elif isinstance(dpi, int | float) and not isinstance(dpi, bool) and 50 <= dpi <= 600:
            s.dpi = float(dpi)
        else:
            log.warning("settings file %s: dpi %.40r is not a screen's (50-600): a 7-inch screen", p, dpi)
            s.dpi = None
        auto = raw.get("auto_confirm", False)
        if isinstance(auto, bool):
            s.auto_confirm = auto
        else:
            log.warning("settings file %s: auto_confirm %.40r is not true or false: ignored", p, auto)
        return s

    def save(self) -> None:
        if self.path is None:
            return
        data = asdict(self)
        data.pop("path")
        try:
            p = Path(self.path)
            p.parent.mkdir(parents=True, exist_ok=True)
            tmp = p.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            tmp.replace(p)
        except OSError as exc:
            log.warning("could not save settings to %s: %s", self.path, exc)
