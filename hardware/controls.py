"""Buttons, status LEDs and a buzzer beside the tray (gpiozero), behind one small interface.

The UI owns the loop: it calls :meth:`Controls.events` once per frame to drain the button presses,
which gpiozero delivers on its own background thread (they are queued, thread-safely, by
:meth:`Controls.post`; the keyboard or tests may post too). It shows the table's status with
:meth:`Controls.show` and sounds the buzzer with :meth:`Controls.beep`.

Without GPIO (a laptop, CI, ``[pins] gpio = "off"``) :func:`open_controls` returns a plain
:class:`Controls`: the queue works, lights and buzzer are absent, and ``present`` is False.

>>> c = Controls()
>>> c.post(Button.UNDO); c.post(Button.READ)
>>> c.events()
[<Button.UNDO: 'undo'>, <Button.READ: 'read'>]
>>> c.events()
[]
"""

from __future__ import annotations

import logging
import os
import threading
from collections import deque
from enum import StrEnum
from pathlib import Path
from typing import Any

from hardware.config import Pins

log = logging.getLogger(__name__)

MODEL_FILE = Path("/proc/device-tree/model")
QUEUE_LIMIT = 64  # undrained presses beyond this are dropped, oldest first: a stuck UI must not grow memory


class Button(StrEnum):
    """What a press asks for."""

    READ = "read"  # read the dice now / confirm the read
    UNDO = "undo"
    NEXT = "next"


class Status(StrEnum):
    """What the LEDs show."""

    OFF = "off"
    READY = "ready"  # waiting for a throw
    READING = "reading"  # dice moving or being read
    ATTENTION = "attention"  # the table must act: an uncertain read, a refused move, no camera


BEEPS = {  # (on seconds, off seconds, count)
    "ok": (0.05, 0.05, 1),
    "attention": (0.15, 0.1, 2),
    "error": (0.4, 0.1, 3),
}


class Controls:
    """The event queue, with no hardware behind it (``present`` is False)."""

    present = False

    def __init__(self) -> None:
        self._queue: deque[Button] = deque(maxlen=QUEUE_LIMIT)
        self._lock = threading.Lock()
        self.status = Status.OFF

    def post(self, button: Button) -> None:
        """Queue a press; safe from any thread."""
        with self._lock:
            self._queue.append(Button(button))

    def events(self) -> list[Button]:
        """Every press since the last call, oldest first (called from the UI thread)."""
        with self._lock:
            out = list(self._queue)
            self._queue.clear()
        return out

    def show(self, status: Status) -> None:
        self.status = Status(status)

    def beep(self, kind: str = "ok") -> None:
        if kind not in BEEPS:
            raise ValueError(f"unknown beep {kind!r}; beeps are: {', '.join(BEEPS)}")

    def close(self) -> None:
        pass

    def __enter__(self) -> Controls:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GpioControls(Controls):
    """Controls wired to GPIO pins through gpiozero (any pin ``None`` in ``pins`` is not fitted)."""

    present = True

    def __init__(self, pins: Pins, pin_factory: Any = None) -> None:
        from gpiozero import LED, Buzzer
        from gpiozero import Button as GpioButton  # our Button is the enum of presses

        super().__init__()
        self._devices: list[Any] = []
        try:
            self.buttons: dict[Button, Any] = {}
            for button in Button:
                pin = getattr(pins, button.value)
                if pin is None:
                    continue
                dev = GpioButton(pin, pull_up=True, bounce_time=pins.bounce_ms / 1000 or None,
                                 pin_factory=pin_factory)
                dev.when_pressed = self._poster(button)
                self._devices.append(dev)
                self.buttons[button] = dev
            self.leds: dict[Status, Any] = {}
            for status, key in ((Status.READY, "ready_led"), (Status.READING, "reading_led"),
                                (Status.ATTENTION, "attention_led")):
                pin = getattr(pins, key)
                if pin is not None:
                    self.leds[status] = led = LED(pin, pin_factory=pin_factory)
                    self._devices.append(led)
            self.buzzer = None if pins.buzzer is None else Buzzer(pins.buzzer, pin_factory=pin_factory)
            if self.buzzer is not None:
                self._devices.append(self.buzzer)
        except BaseException:
            self.close()
            raise

    def _poster(self, button: Button):
        def pressed() -> None:  # runs on gpiozero's background thread
            self.post(button)

        return pressed

    def show(self, status: Status) -> None:
        super().show(status)
        for which, led in self.leds.items():
            if which is self.status:
                led.on()
            else:
                led.off()

    def beep(self, kind: str = "ok") -> None:
        super().beep(kind)
        if self.buzzer is not None:
            on, off, n = BEEPS[kind]
            self.buzzer.beep(on_time=on, off_time=off, n=n, background=True)

    def close(self) -> None:
        for dev in reversed(self._devices):
            try:
                dev.close()
            except Exception:  # closing must never stop the app from exiting
                log.exception("closing %r failed", dev)
        self._devices.clear()


def board_model(path: Path = MODEL_FILE) -> str:
    """The board's model string ("Raspberry Pi 5 Model B Rev 1.0"), or "" when not a Pi-like board."""
    try:
        return path.read_bytes().rstrip(b"\0").decode("ascii", "replace")
    except OSError:
        return ""


def pin_factory_for(model: str, env: dict[str, str] | None = None) -> tuple[Any, str]:
    """The gpiozero pin factory for this board and why; ``(None, reason)`` when there is no GPIO.

    ``$GPIOZERO_PIN_FACTORY`` is respected. On a Raspberry Pi the factory is lgpio (the only one that
    drives the Pi 5's RP1 chip, and fine on earlier Pis); elsewhere there is no GPIO.
    """
    env = dict(os.environ) if env is None else env
    if env.get("GPIOZERO_PIN_FACTORY"):
        from importlib.metadata import entry_points

        name = env["GPIOZERO_PIN_FACTORY"]
        found = [ep for ep in entry_points(group="gpiozero_pin_factories") if ep.name in (name, name.lower())]
        try:
            if not found:
                raise ValueError("no such pin factory")
            return found[0].load()(), f"GPIOZERO_PIN_FACTORY={name}"
        except Exception as exc:
            return None, f"GPIOZERO_PIN_FACTORY={name} cannot be used: {exc}"
    if "Raspberry Pi" not in model:
        return None, "not a Raspberry Pi: no GPIO controls"
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory(), f"lgpio on {model}"
    except Exception as exc:
        hint = "install python3-lgpio (apt) or run install.sh"
        return None, f"{model}: the lgpio pin factory is unavailable ({exc}); {hint}"


def open_controls(pins: Pins, pin_factory: Any = None, model: str | None = None) -> Controls:
    """GPIO controls when the board has GPIO and ``pins.gpio`` allows it, else plain :class:`Controls`."""
    extra = {"event": "controls"}
    if pins.gpio == "off":
        log.info("no GPIO controls", extra={**extra, "reason": '[pins] gpio = "off"'})
        return Controls()
    reason, owned = "pin factory given", False
    if pin_factory is None:
        pin_factory, reason = pin_factory_for(board_model() if model is None else model)
        owned = pin_factory is not None
        if pin_factory is None:
            log.info("no GPIO controls", extra={**extra, "reason": reason})
            return Controls()
    try:
        controls = GpioControls(pins, pin_factory)
    except Exception as exc:  # a pin in use, a missing /dev/gpiochip: play on without the buttons
        log.warning("GPIO controls unavailable", extra={**extra, "reason": str(exc)})
        if owned:
            pin_factory.close()
        return Controls()
    log.info("GPIO controls ready", extra={**extra, "reason": reason})
    return controls
