"""Buttons, LEDs and buzzer through gpiozero's MockFactory (the pin boundary), reset between tests."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware.config import Pins
from hardware.controls import (
    QUEUE_LIMIT,
    Button,
    Controls,
    GpioControls,
    Status,
    board_model,
    open_controls,
    pin_factory_for,
)

PINS = Pins()


@pytest.fixture
def factory():
    before = Device.pin_factory
    f = MockFactory()
    yield f
    f.reset()
    f.close()
    assert Device.pin_factory is before, "tests must pass the factory, never install it globally"


@pytest.fixture
def controls(factory):
    c = GpioControls(PINS, factory)
    yield c
    c.close()


def press(factory, pin: int) -> None:
    """A press on a pulled-up button: the pin goes low, then high again."""
    p = factory.pin(pin)
    p.drive_low()
    p.drive_high()


def test_each_button_press_reaches_the_queue_in_order(factory, controls):
    press(factory, PINS.undo)
    press(factory, PINS.read)
    press(factory, PINS.next)
    assert controls.events() == [Button.UNDO, Button.READ, Button.NEXT]
    assert controls.events() == []


def test_presses_on_background_threads_are_all_delivered(factory, controls):
    # On a Pi the callbacks run on lgpio's thread while the UI drains: nothing may be lost or torn.
    drained: list[Button] = []
    stop = threading.Event()

    def ui() -> None:
        while not stop.is_set():
            drained.extend(controls.events())

    reader = threading.Thread(target=ui)
    reader.start()
    for _ in range(QUEUE_LIMIT // 2):  # within the limit even if the UI never runs
        controls.post(Button.READ)
        controls.post(Button.NEXT)
    stop.set()
    reader.join()
    drained.extend(controls.events())
    assert drained == [Button.READ, Button.NEXT] * (QUEUE_LIMIT // 2)


def test_callbacks_from_a_pin_driven_on_another_thread(factory, controls):
    t = threading.Thread(target=press, args=(factory, PINS.read))
    t.start()
    t.join()
    assert controls.events() == [Button.READ]


def test_a_stuck_ui_keeps_only_the_latest_presses():
    c = Controls()
    for _ in range(QUEUE_LIMIT + 10):
        c.post(Button.UNDO)
    c.post(Button.READ)
    events = c.events()
    assert len(events) == QUEUE_LIMIT and events[-1] is Button.READ


def test_status_lights_exactly_one_led(factory, controls):
    for status, pin in ((Status.READY, PINS.ready_led), (Status.READING, PINS.reading_led),
                        (Status.ATTENTION, PINS.attention_led)):
        controls.show(status)
        lit = {p for p in (PINS.ready_led, PINS.reading_led, PINS.attention_led) if factory.pin(p).state}
        assert lit == {pin}
    controls.show(Status.OFF)
    assert not any(factory.pin(p).state for p in (PINS.ready_led, PINS.reading_led, PINS.attention_led))


def test_beep_sounds_the_buzzer_in_the_background(factory, controls):
    pin = factory.pin(PINS.buzzer)
    pin.clear_states()
    controls.beep("attention")  # two beeps, returns at once
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and len(pin.states) < 5:
        time.sleep(0.02)
    assert [s.state for s in pin.states] == [False, True, False, True, False]
    with pytest.raises(ValueError, match="unknown beep 'chirp'"):
        controls.beep("chirp")


def test_unfitted_controls_are_absent(factory):
    pins = Pins(next=None, buzzer=None, attention_led=None)
    with GpioControls(pins, factory) as c:
        assert set(c.buttons) == {Button.READ, Button.UNDO}
        assert c.buzzer is None
        c.beep()  # no buzzer: silently nothing
        c.show(Status.ATTENTION)  # no LED for it: the others go dark
        assert not factory.pin(PINS.ready_led).state


def test_close_releases_the_pins(factory):
    GpioControls(PINS, factory).close()
    with GpioControls(PINS, factory) as again:  # would raise GPIOPinInUse if a pin were still held
        press(factory, PINS.read)
        assert again.events() == [Button.READ]


def test_no_gpio_means_plain_controls_that_still_queue(factory):
    c = open_controls(PINS, model="")
    assert type(c) is Controls and not c.present
    c.show(Status.READY)
    c.beep()
    c.post(Button.READ)
    assert c.events() == [Button.READ]
    assert type(open_controls(Pins(gpio="off"), pin_factory=factory)) is Controls


def test_a_pin_in_use_falls_back_to_no_controls(factory, caplog):
    with GpioControls(PINS, factory):
        c = open_controls(PINS, pin_factory=factory)
    assert type(c) is Controls
    assert caplog.records[-1].getMessage() == "GPIO controls unavailable"
    assert "in use" in caplog.records[-1].reason


def test_open_controls_with_gpio_wires_the_buttons(factory):
    with open_controls(PINS, pin_factory=factory) as c:
        assert c.present
        press(factory, PINS.next)
        assert c.events() == [Button.NEXT]


def test_pin_factory_choice():
    assert pin_factory_for("", env={}) == (None, "not a Raspberry Pi: no GPIO controls")
    factory, reason = pin_factory_for("Raspberry Pi 5 Model B Rev 1.0", env={})
    if factory is None:  # this box has no lgpio / no gpiochip: say what to install
        assert "lgpio" in reason and "python3-lgpio" in reason
    else:  # pragma: no cover - only on a Pi
        assert type(factory).__name__ == "LGPIOFactory"
        factory.close()


def test_the_pin_factory_named_in_the_environment_is_used():
    factory, reason = pin_factory_for("", env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert type(factory) is MockFactory and reason == "GPIOZERO_PIN_FACTORY=mock"
    factory.close()
    assert pin_factory_for("", env={"GPIOZERO_PIN_FACTORY": "nope"}) == (
        None, "GPIOZERO_PIN_FACTORY=nope cannot be used: no such pin factory")


def test_board_model_reads_the_device_tree(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert board_model(model) == "Raspberry Pi 5 Model B Rev 1.0"
    assert board_model(tmp_path / "absent") == ""
