"""Short beeps for 'read', 'refused' and 'game over', synthesised (no sound files); silent when there is
no audio device."""

from __future__ import annotations

import logging

import numpy as np
import pygame

log = logging.getLogger(__name__)

TONES = {
    "ok": ((880, 0.08),),
    "attention": ((440, 0.12), (330, 0.16)),
    "done": ((660, 0.1), (880, 0.1), (1100, 0.2)),
}


class Beeper:
    def __init__(self) -> None:
        self._ready: bool | None = None
        self._sounds: dict[str, pygame.mixer.Sound] = {}

    def _init(self) -> bool:
        if self._ready is None:
            try:
                pygame.mixer.init(22050, -16, 1, 512)
                self._ready = True
            except pygame.error as exc:
                log.info("no sound: %s", exc)
                self._ready = False
        return self._ready

    def play(self, kind: str) -> None:
        if kind not in TONES or not self._init():
            return
        snd = self._sounds.get(kind)
        if snd is None:
            rate = pygame.mixer.get_init()[0]
            parts = []
            for freq, secs in TONES[kind]:
                t = np.arange(int(rate * secs)) / rate
                fade = np.minimum(1.0, np.minimum(t, secs - t) * 200)
                parts.append((np.sin(2 * np.pi * freq * t) * fade * 8000).astype(np.int16))
            wave = np.concatenate(parts)
            channels = pygame.mixer.get_init()[2]
            if channels > 1:
                wave = np.repeat(wave[:, None], channels, axis=1)
            snd = self._sounds[kind] = pygame.sndarray.make_sound(np.ascontiguousarray(wave))
        snd.play()
