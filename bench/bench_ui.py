"""Touchscreen app figures: frame time with the camera preview, tap to visible response, start to first
frame, peak memory. Headless (SDL dummy driver): the drawing is the same, only the final copy to the
panel is skipped.

Run: .venv/bin/python bench/bench_ui.py
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np
import pygame

from companion.protocol import ChooseMove, RollDice
from companion.store import Store
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import SimulatedReader
from ui.settings import Settings

FRAMES = 300


class CameraLike(SimulatedReader):
    """A fresh 640x480 frame on every call, as a camera delivers them."""

    def __init__(self) -> None:
        super().__init__(1, (640, 480))
        rng = np.random.default_rng(0)
        self.frames = [rng.integers(0, 255, (480, 640, 3), dtype=np.uint8) for _ in range(8)]
        self.k = 0

    def preview(self) -> np.ndarray:
        self.k += 1
        return self.frames[self.k % len(self.frames)].copy()  # a new array each frame


def ms(values: list[float]) -> str:
    v = sorted(values)
    return (
        f"median {statistics.median(v) * 1000:.2f} ms, p95 {v[int(len(v) * 0.95)] * 1000:.2f} ms, "
        f"max {v[-1] * 1000:.2f} ms"
    )


def to_table(size: tuple[int, int]) -> tuple[App, Driver]:
    app = App(Store(":memory:"), CameraLike(), size, settings=Settings(sound=False))
    d = Driver(app)
    d.tap("home:new")
    d.tap("game:rollers")
    while app.screen.name == "newgame":
        d.tap("newgame:next")
    return app, d


def frame_times(app: App, n: int = FRAMES) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        app.step()
        out.append(time.perf_counter() - t)
    return out


def bench_frames(size: tuple[int, int]) -> None:
    app, d = to_table(size)
    assert isinstance(app.screen.game.state.request(), RollDice)
    print(f"frame {size[0]}x{size[1]}, live 640x480 camera preview (roll-off): {ms(frame_times(app))}")
    d.tap("dice:read")
    d.tap("dice:confirm")
    d.tap("dice:read")
    print(f"frame {size[0]}x{size[1]}, read frame with 6 dice outlined:        {ms(frame_times(app))}")
    d.tap("dice:confirm")
    assert isinstance(app.screen.game.state.request(), ChooseMove)
    print(f"frame {size[0]}x{size[1]}, Rollers board, keep or stop:             {ms(frame_times(app))}")
    pygame.display.quit()


def bench_taps() -> None:
    app, d = to_table(LANDSCAPE)
    d.tap("dice:read")
    d.tap("dice:confirm")
    d.tap("dice:read")
    d.tap("dice:confirm")
    state = app.screen.game.state
    slot = next(iter(state.showing))
    w = d.find(f"keep:{slot}")
    press, response = [], []
    for _ in range(100):
        t = time.perf_counter()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=w.rect.center, button=1, touch=True))
        app.step()  # the finger-down frame shows the press
        press.append(time.perf_counter() - t)
        before = slot in app.screen.view.keep
        t = time.perf_counter()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=w.rect.center, button=1, touch=True))
        app.step()  # the finger-up frame shows the die kept or released
        response.append(time.perf_counter() - t)
        assert (slot in app.screen.view.keep) != before
    print(f"tap: finger down to press shown:          {ms(press)}")
    print(f"tap: finger up to die kept/released shown: {ms(response)}")
    d.tap("rollers:roll")
    reads = []
    for _ in range(30):
        w = d.find("dice:read")
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=w.rect.center, button=1, touch=True))
        app.step()
        t = time.perf_counter()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=w.rect.center, button=1, touch=True))
        app.step()
        reads.append(time.perf_counter() - t)
    print(f"tap: 'Read dice' to read dice shown (simulated reader): {ms(reads)}")
    pygame.display.quit()


CHILD = """
import os, sys, time
os.environ["SDL_VIDEODRIVER"] = "dummy"
from companion.store import Store
from ui.app import run_app
from ui.reader import SimulatedReader
run_app(Store(":memory:"), SimulatedReader(1), (800, 480), max_frames=1)
print("first-frame", flush=True)
"""


def bench_start(runs: int = 5) -> None:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)
        assert "first-frame" in out.stdout
        times.append(time.perf_counter() - t)
    print(
        f"start to first frame (new process, imports included, to exit): median "
        f"{statistics.median(times):.2f} s, max {max(times):.2f} s over {runs} runs"
    )


class Replay:
    """A vision frame source looping over pre-rendered throws of the simulated camera (empty tray, hand,
    rolling dice, settled dice, hand, removed), so the figures hold no rendering time."""

    def __init__(self) -> None:
        from vision.simcam import SimulatedCamera

        cam = SimulatedCamera(seed=3)
        self.frames = [f.image for f in cam.throw(["d6", "d6"])]
        self.k = 0

    def read(self, timeout: float = 2.0) -> np.ndarray:
        self.k += 1
        return self.frames[self.k % len(self.frames)]

    def close(self) -> None:
        pass


class Timed:
    """The real vision reader, timing each read and noting the thread it ran on."""

    def __init__(self) -> None:
        from vision.sets import reader_for

        self.inner = reader_for(None)
        self.spans: list[tuple[float, float]] = []
        self.threads: set[str] = set()

    def read(self, image: np.ndarray, background: np.ndarray | None = None):
        t = time.perf_counter()
        try:
            return self.inner.read(image, background=background)
        finally:
            self.spans.append((t, time.perf_counter()))
            self.threads.add(threading.current_thread().name)


def camera_table() -> tuple[App, object, Timed, list[int]]:
    """The app on the table (roll-off) with the real camera reader over the looped throw; the list
    counts the reads the table took."""
    from dice_companion.camera import Calibration, CameraReader

    source = Replay()
    timed = Timed()
    reader = CameraReader(lambda: source, reader=timed)
    reader.set_calibration(Calibration(source.frames[0], 6.0))  # the empty tray, as calibration leaves it
    app = App(Store(":memory:"), reader, LANDSCAPE, settings=Settings(sound=False))
    d = Driver(app)
    d.tap("home:new")
    d.tap("game:rollers")
    while app.screen.name == "newgame":
        d.tap("newgame:next")
    taken = [0]
    apply = app.screen.apply_read

    def counted(result, req) -> None:
        taken[0] += 1
        apply(result, req)

    app.screen.apply_read = counted
    return app, reader, timed, taken


def run_frames(app: App, n: int, fps: float | None) -> list[tuple[float, float, float]]:
    """Start and end of each of ``n`` frames, and the CPU time the frame's thread spent on it: back to
    back, or each begun on its tick at ``fps`` (a late frame starts the next at once, as ``clock.tick``
    does)."""
    out = []
    start = time.perf_counter()
    for k in range(n):
        if fps is not None:
            delay = start + k / fps - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        t, cpu = time.perf_counter(), time.thread_time()
        app.step()
        out.append((t, time.perf_counter(), time.thread_time() - cpu))
    return out


def bench_camera(n: int = FRAMES) -> None:
    """The real camera reader in the app: every preview frame goes through the throw watcher, a settled
    throw is read (on the worker thread) and offered to the table."""
    for label, fps in (("back to back", None), ("paced at 30 fps", 30.0)):
        app, reader, timed, taken = camera_table()
        frames = run_frames(app, n, fps)
        reader.close()
        times = [b - a for a, b, _ in frames]
        during = [b - a for a, b, _ in frames if any(s < b and e > a for s, e in timed.spans)]
        reads = [e - s for s, e in timed.spans]
        print(f"frame 800x480, live camera through the watcher, {label}: {ms(times)}")
        print(f"  frames while a read ran ({len(during)} of {n}): {ms(during) if during else '-'}")
        print(f"  CPU time of the drawing thread per frame: {ms([c for _, _, c in frames])}")
        print(f"  {len(reads)} settled throws read on {', '.join(sorted(timed.threads))}, each "
              f"{ms(reads) if reads else '-'}; {taken[0]} taken by the table (the rest: stale, or still "
              "under way at the last frame)")
        pygame.display.quit()
    app, reader, timed, _taken = camera_table()
    feed, preview = [], []
    offered = 0
    for _ in range(n):
        t = time.perf_counter()
        reader.preview()
        preview.append(time.perf_counter() - t)
        offered += reader.settled() is not None
    watcher = reader.watcher
    frames = Replay().frames
    for f in frames * (n // len(frames) + 1):
        t = time.perf_counter()
        event = watcher.feed(f)
        if event.throw is None and getattr(event, "settle", None) is None:
            feed.append(time.perf_counter() - t)
    reader.close()
    print(f"camera reader preview(): fresh frame, watcher, RGB copy: {ms(preview)} ({offered} reads offered)")
    print(f"throw watcher feed() alone, frames without a settle: {ms(feed)}")
    pygame.display.quit()


def main() -> None:
    random.seed(0)
    print("machine: shared 2-core x86_64 dev box, SDL dummy video driver")
    bench_frames(LANDSCAPE)
    bench_frames(PORTRAIT)
    bench_taps()
    bench_start()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS of this process, both sizes, 8 camera frames held): {peak:.0f} MB")
    bench_camera()  # after the memory figure: it holds a throw's worth of rendered frames


if __name__ == "__main__":
    main()
