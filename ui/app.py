"""The touchscreen app: a screen at a time, drawn every frame, driven by taps (mouse events; a touch
produces one too), keys on a laptop and the table's buttons (``controls``).

The composition root calls :func:`run_app`; tests build an :class:`App` and call :meth:`App.step`
after posting events.
"""

from __future__ import annotations

import logging
import os
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

import pygame

from companion.errors import CompanionError
from companion.store import Store
from ui import theme
from ui.navigation import Navigator
from ui.reader import DiceReader, NoCamera, SimulatedSetup, TableSetup
from ui.screen import Overlay, Screen
from ui.settings import Settings
from ui.sound import Beeper
from ui.widgets import Ui

log = logging.getLogger(__name__)

LANDSCAPE = (800, 480)
PORTRAIT = (720, 1280)


class Controls(Protocol):
    """The table's physical buttons (hardware.controls.Controls fits): presses named 'read', 'undo',
    'next'."""

    def events(self) -> Sequence[Any]: ...


class App:
    def __init__(
        self,
        store: Store,
        reader: DiceReader | None = None,
        size: tuple[int, int] | None = LANDSCAPE,
        fullscreen: bool = False,
        *,
        setup: TableSetup | None = None,
        controls: Controls | None = None,
        settings: Settings | None = None,
        evidence_dir: str | Path | None = None,
        on_frame: Callable[[], Any] | None = None,
    ) -> None:
        t0 = time.perf_counter()
        pygame.display.init()
        pygame.font.init()
        self.store = store
        self.reader: DiceReader = reader if reader is not None else NoCamera()
        self.setup: TableSetup = setup if setup is not None else SimulatedSetup()
        self.controls = controls
        self.settings = settings or Settings()
        self.evidence_dir = Path(evidence_dir) if evidence_dir is not None else None
        self.on_frame = on_frame
        self.fullscreen = fullscreen
        flags = pygame.FULLSCREEN if fullscreen else 0
        if size is None:  # "auto": the screen's own size in full screen, else the 7" panel's
            size = (0, 0) if fullscreen else LANDSCAPE
        self.window = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("Dice Companion")
        self.logical = pygame.Surface(self._logical_size())
        self.ui = Ui(self.logical, self.settings.dpi)
        self.beeper = Beeper()
        self.overlay: Overlay | None = None
        self.frames = 0
        self.errors: list[str] = []
        self.running = True
        self._down: str | None = None
        self._rotated: pygame.Surface | None = None
        self.nav = Navigator(self)
        self.screen: Screen = Screen(self)
        self.nav.home()
        self.started_in = time.perf_counter() - t0

    # --- geometry -----------------------------------------------------------------------------
    def _logical_size(self) -> tuple[int, int]:
        w, h = self.window.get_size()
        return (h, w) if self.settings.rotation in (90, 270) else (w, h)

    @property
    def size(self) -> tuple[int, int]:
        return self.logical.get_size()

    def set_rotation(self, degrees: int) -> None:
        self.settings.rotation = degrees
        self.settings.save()
        self.logical = pygame.Surface(self._logical_size())
        self.ui.set_surface(self.logical)

    def to_logical(self, pos: tuple[int, int]) -> tuple[int, int]:
        """Window pixel -> logical pixel, undoing the rotation."""
        x, y = pos
        lw, lh = self.logical.get_size()
        match self.settings.rotation:
            case 90:
                return y, lh - 1 - x
            case 180:
                return lw - 1 - x, lh - 1 - y
            case 270:
                return lw - 1 - y, x
        return x, y

    def to_window(self, pos: tuple[int, int]) -> tuple[int, int]:
        """Logical pixel -> window pixel (the inverse of :meth:`to_logical`)."""
        x, y = pos
        lw, lh = self.logical.get_size()
        match self.settings.rotation:
            case 90:
                return lh - 1 - y, x
            case 180:
                return lw - 1 - x, lh - 1 - y
            case 270:
                return y, lw - 1 - x
        return x, y

    # --- navigation ---------------------------------------------------------------------------
    def go(self, screen: Screen) -> None:
        self.screen = screen
        self.overlay = None
        self.ui.pressed = None
        self._down = None

    def show(self, overlay: Overlay | None) -> None:
        self.overlay = overlay
        self.ui.pressed = None
        self._down = None

    def message(self, title: str, text: str, rule: str = "") -> None:
        self.nav.message(title, text, rule)

    def beep(self, kind: str) -> None:
        if not self.settings.sound:
            return
        self.beeper.play(kind)
        beep = getattr(self.controls, "beep", None)
        if beep is not None:
            try:
                beep("error" if kind == "attention" else "ok")
            except Exception as exc:  # the buzzer must never stop play
                log.warning("buzzer: %s", exc)

    # --- the loop -----------------------------------------------------------------------------
    def run_action(self, action: Callable[[], Any]) -> None:
        try:
            action()
        except CompanionError as exc:
            self.message("Not possible", str(exc))
        except Exception as exc:  # keep the table running; the log has the details
            log.error("action failed: %s\n%s", exc, traceback.format_exc())
            self.errors.append(f"{type(exc).__name__}: {exc}")
            self.message("Something went wrong", f"{type(exc).__name__}: {exc}")

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            w = self.ui.hit(self.to_logical(event.pos))
            self._down = w.id if w is not None and w.enabled else None
            self.ui.pressed = self._down
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            w = self.ui.hit(self.to_logical(event.pos))
            down, self._down, self.ui.pressed = self._down, None, None
            if w is not None and w.id == down and w.action is not None:
                self.run_action(w.action)
        elif event.type == pygame.KEYDOWN:
            self.run_action(lambda: self._key(event.key))

    def _key(self, key: int) -> None:
        if self.overlay is not None:
            on_key = getattr(self.overlay, "on_key", None)
            if on_key is not None:
                on_key(key)
            elif key in (pygame.K_ESCAPE, pygame.K_RETURN):
                self.show(None)
            return
        self.screen.on_key(key)

    def step(self, events: Iterable[pygame.event.Event] | None = None) -> bool:
        """One frame: handle queued (and given) events, draw, show. False once the app should quit."""
        for event in [*pygame.event.get(), *(events or ())]:
            self.handle(event)
        if self.controls is not None:
            for press in self.controls.events():
                name = str(getattr(press, "value", press))
                if self.overlay is not None and name == "next":
                    self.show(None)
                elif self.overlay is None:
                    self.run_action(lambda n=name: self.screen.on_button(n))
        self.draw()
        self.present()
        if self.on_frame is not None:
            self.on_frame()
        self.frames += 1
        return self.running

    def draw(self) -> None:
        ui = self.ui
        ui.surface.fill(theme.BG)
        ui.widgets = []
        ui.drawn = []
        try:
            self.screen.draw(ui)
            if self.overlay is not None:
                ui.widgets = []
                shade = pygame.Surface(ui.size, pygame.SRCALPHA)
                shade.fill((0, 0, 0, 150))
                ui.surface.blit(shade, (0, 0))
                self.overlay.draw(ui)
        except Exception as exc:
            log.error("drawing failed: %s\n%s", exc, traceback.format_exc())
            self.errors.append(f"draw: {type(exc).__name__}: {exc}")
            if len(self.errors) > 50:
                raise
            self.nav.home()
            self.message("Something went wrong", f"{type(exc).__name__}: {exc}")

    def present(self) -> None:
        rot = self.settings.rotation
        if rot == 0:
            self.window.blit(self.logical, (0, 0))
        else:
            self.window.blit(pygame.transform.rotate(self.logical, -rot), (0, 0))
        pygame.display.flip()

    def run(self, max_frames: int | None = None, fps: int = 30) -> int:
        clock = pygame.time.Clock()
        while self.running and (max_frames is None or self.frames < max_frames):
            self.step()
            clock.tick(fps)
        return self.frames

    def screenshot(self, path: str | Path) -> None:
        pygame.image.save(self.window, str(path))


def run_app(
    store: Store,
    reader: DiceReader | None = None,
    size: tuple[int, int] | None = LANDSCAPE,
    fullscreen: bool = False,
    max_frames: int | None = None,
    events: Iterable[Sequence[pygame.event.Event]] | None = None,
    **kwargs: Any,
) -> int:
    """Run the app until it is closed (or for ``max_frames``); ``events`` feeds one list of events per
    frame (tests, demos). Keyword arguments go to :class:`App` (setup, controls, settings,
    evidence_dir, on_frame). Returns the number of frames drawn.

    Without a display (no ``DISPLAY``/``WAYLAND_DISPLAY`` and no ``SDL_VIDEODRIVER``) it falls back to
    SDL's dummy driver in a window, so it runs headless.
    """
    if (
        not fullscreen
        and not os.environ.get("SDL_VIDEODRIVER")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    ):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    try:
        app = App(store, reader, size, fullscreen, **kwargs)
    except pygame.error as exc:
        if not fullscreen:
            raise
        log.warning("full screen unavailable (%s): using a window", exc)
        pygame.display.quit()
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        app = App(store, reader, size, False, **kwargs)
    try:
        if events is None:
            return app.run(max_frames)
        for batch in events:
            if max_frames is not None and app.frames >= max_frames:
                break
            if not app.step(batch):
                break
        return app.frames
    finally:
        pygame.display.quit()
