"""Plain data passed between the pipeline stages."""

from __future__ import annotations

from dataclasses import dataclass, field

OK = "ok"
UNCERTAIN = "uncertain"
CROOKED = "crooked"

#: Confidence at or above which a reading may be reported ``ok``.
OK_CONFIDENCE = 0.8


class VisionError(Exception):
    """A clear, user-facing failure of the vision pipeline (bad image, lost camera, bad set)."""


@dataclass(slots=True)
class DieReading:
    """One die as reported: ``die`` id, ``face`` label, numeric ``value`` if any, and trust."""

    die: str
    face: str | None
    value: int | None
    confidence: float
    center: tuple[float, float]
    status: str
    notes: list[str] = field(default_factory=list)
    rival_die: str | None = None  # another die that looks as much like it: which die it is is unsettled

    def to_json(self) -> dict[str, object]:
        return {
            "die": self.die,
            "face": self.face,
            "value": self.value,
            "confidence": round(float(self.confidence), 3),
            "center": [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
            "status": self.status,
        }
