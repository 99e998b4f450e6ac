"""The app's own settings (sound, screen rotation, player colours), kept in a small JSON file."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

ROTATIONS = (0, 90, 180, 270)


@dataclass(slots=True)
class Settings:
    sound: bool = True
    rotation: int = 0  # degrees clockwise the picture is turned on the panel
    colours: dict[str, str] = field(default_factory=dict)  # player name -> colour name
    dpi: float | None = None  # the screen's pixels per inch; None: a 7-inch screen (ui.theme)
    auto_confirm: bool = False  # a read whose every die is sure is confirmed after a short countdown
    path: str | None = None

    @classmethod
    def load(cls, path: str | Path | None) -> Settings:
        """Settings from ``path``; a missing or unreadable file gives the defaults (and says so)."""
        if path is None:
            return cls()
        p = Path(path)
        if not p.exists():
            return cls(path=str(p))
        try:
            raw = json.loads(p.read_text(encoding="utf-8"))
            s = cls(
                sound=bool(raw.get("sound", True)),
                rotation=int(raw.get("rotation", 0)),
                colours={str(k): str(v) for k, v in dict(raw.get("colours", {})).items()},
                dpi=float(raw["dpi"]) if raw.get("dpi") else None,
                auto_confirm=bool(raw.get("auto_confirm", False)),
                path=str(p),
            )
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.warning("settings file %s unreadable (%s): using defaults", p, exc)
            return cls(path=str(p))
        if s.rotation not in ROTATIONS:
            s.rotation = 0
        if s.dpi is not None and not 50 <= s.dpi <= 600:
            log.warning("settings file %s: dpi %s is not a screen's (50-600): a 7-inch screen", p, s.dpi)
            s.dpi = None
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
