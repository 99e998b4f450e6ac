"""The kiosk unit: systemd-analyze verify without a warning, exposure never above the recorded figure,
and the notify/watchdog protocol over a real datagram socket."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hardware.sdnotify import Notifier

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "dice-companion.service"
DOC = ROOT / "docs" / "service.md"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze is absent: apt-get install systemd (CI's .ci/run installs it)")


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    section = ""
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key}", []).append(value)
    return settings


def test_the_unit_is_a_kiosk_service_with_a_watchdog():
    s = unit_settings()
    assert s["Service.Type"] == ["notify"] and s["Service.Restart"] == ["on-failure"]
    assert int(s["Service.WatchdogSec"][0]) > 0
    assert "SDL_VIDEODRIVER=kmsdrm" in s["Service.Environment"]
    assert s["Service.User"] == ["dice-companion"] and s["Service.StateDirectory"] == ["dice-companion"]
    assert "Service.PrivateDevices" not in s, "the app needs /dev/video*, /dev/dri, /dev/gpiochip*"
    assert s["Service.PrivateNetwork"] == ["yes"], "no network listener"


def test_the_unit_starts_a_command_the_app_has():
    from dice_companion.cli import build_parser

    command = unit_settings()["Service.ExecStart"][0].split()
    assert command[0] == "/opt/dice-companion/venv/bin/dice-companion"
    assert build_parser().parse_args(command[1:]).command == command[1]


@needs_analyze
def test_systemd_analyze_verify_prints_nothing(tmp_path):
    # ExecStart must exist for verify; the venv exists only on the Pi, so point it at a stub.
    stub = tmp_path / "dice-companion"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    text = UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/dice-companion/venv/bin/dice-companion " in text
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace("/opt/dice-companion/venv/bin/dice-companion", str(stub)))
    out = subprocess.run([ANALYZE, "verify", str(copy)], capture_output=True, text=True, cwd=tmp_path,
                         timeout=60, env={**os.environ, "SYSTEMD_LOG_COLOR": "0"})
    assert (out.returncode, out.stdout + out.stderr) == (0, "")


def recorded_exposure() -> float:
    match = re.search(r"^exposure: (\d+\.\d)", DOC.read_text(encoding="utf-8"), re.M)
    assert match, f"{DOC} must record the exposure as 'exposure: N.N'"
    return float(match.group(1))


@needs_analyze
def test_security_exposure_does_not_rise_above_the_recorded_figure(tmp_path):
    out = subprocess.run([ANALYZE, "security", "--offline=yes", "--no-pager", str(UNIT)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=60)
    match = re.search(r"Overall exposure level for dice-companion\.service: (\d+\.\d)", out.stdout)
    assert match, out.stdout + out.stderr
    assert float(match.group(1)) <= recorded_exposure(), (
        f"exposure {match.group(1)} is above {recorded_exposure()} recorded in {DOC.name}:\n{out.stdout}")


# --- sd_notify --------------------------------------------------------------------------------


@pytest.fixture
def listener(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, str(path)
    sock.close()


def received(sock: socket.socket) -> list[str]:
    sock.setblocking(False)
    out = []
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except BlockingIOError:
        return out
    finally:
        sock.settimeout(2)


def test_ready_status_and_stopping_reach_systemd(listener):
    sock, path = listener
    n = Notifier(env={"NOTIFY_SOCKET": path})
    assert n.ready("Home screen") and n.status("Rollers: Anna's turn") and n.stopping()
    assert received(sock) == ["READY=1\nSTATUS=Home screen", "STATUS=Rollers: Anna's turn", "STOPPING=1"]
    n.close()


def test_the_watchdog_is_fed_at_half_its_period_however_fast_the_frames():
    now = [0.0]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"dice-companion-test-{os.getpid()}"
    sock.bind("\0" + name)  # an abstract socket, as systemd may pass "@..."
    try:
        n = Notifier(env={"NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "2000000",
                          "WATCHDOG_PID": str(os.getpid())}, clock=lambda: now[0])
        pings = 0
        for _ in range(300):  # 60 fps for 5 s
            pings += n.frame()
            now[0] += 1 / 60
        assert pings == 5  # every 1 s = half of WatchdogSec=2
        assert received(sock) == ["WATCHDOG=1"] * 5
        n.close()
    finally:
        sock.close()


def test_no_watchdog_for_another_process_or_without_systemd(listener):
    sock, path = listener
    other = Notifier(env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"})
    assert other.interval is None and not other.frame()
    none = Notifier(env={})
    assert not none.ready() and not none.frame()
    assert received(sock) == []


def test_a_vanished_socket_never_raises(tmp_path):
    n = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "1000000"})
    assert n.enabled and not n.ready() and not n.frame()


def test_the_running_app_tells_systemd_it_is_ready_and_feeds_the_watchdog_from_its_frames(
        listener, tmp_path, monkeypatch):
    """The composition root wires the notifier to the real render loop: READY once the first frame is
    drawn, WATCHDOG=1 while frames keep coming, STOPPING on the way out."""
    from dice_companion.cli import main

    sock, path = listener
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path))
    (tmp_path / "config.toml").write_text("# defaults\n")
    monkeypatch.setenv("DICE_COMPANION_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")  # 0.1 s: fed every 0.05 s of frames
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    said: list[str] = []

    def systemd() -> None:  # reads as systemd does, until the app says it is stopping
        sock.settimeout(30)
        while not said or said[-1] != "STOPPING=1":
            said.append(sock.recv(4096).decode())

    reader = threading.Thread(target=systemd, daemon=True)
    reader.start()
    assert main(["run", "--frames", "30", "--camera", "sim"]) == 0  # 30 frames at 30 fps: about 1 s
    reader.join(10)
    assert said[0].startswith("READY=1")
    assert said.count("WATCHDOG=1") >= 5, said
    assert said[-1] == "STOPPING=1"


def test_a_full_notification_queue_never_blocks_the_render_loop(listener):
    """systemd busy (nobody reading): the datagram queue fills, and every further send returns at once."""
    sock, path = listener
    n = Notifier(env={"NOTIFY_SOCKET": path})
    t = time.monotonic()
    sent = [n.status(f"frame {i}") for i in range(500)]
    assert time.monotonic() - t < 5  # it used to wait forever once the queue held ten messages
    assert sent[0] and not sent[-1]
    assert received(sock)[0] == "STATUS=frame 0"
    assert n.status("after")  # the queue has room again: notifications resume
    n.close()


def memory_max_bytes() -> int:
    (value,) = unit_settings()["Service.MemoryMax"]
    match = re.fullmatch(r"(\d+)([KMG])", value)
    assert match, f"MemoryMax={value} should be a size like 512M"
    return int(match.group(1)) * 1024 ** " KMG".index(match.group(2))


def test_the_app_stays_well_under_the_units_memory_ceiling(tmp_path):
    """The app as the service runs it (simulated camera, dummy display): peak RSS under half of MemoryMax."""
    ceiling = memory_max_bytes()
    assert 256 * 2**20 <= ceiling <= 1024 * 2**20
    (tmp_path / "config.toml").write_text('[camera]\nsource = "sim"\n[display]\nfullscreen = false\n')
    env = {**os.environ, "DICE_COMPANION_CONFIG": str(tmp_path / "config.toml"),
           "DICE_COMPANION_DATA": str(tmp_path / "data"), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy"}
    env.pop("NOTIFY_SOCKET", None)
    probe = ("import resource, subprocess, sys; "
             "r = subprocess.run([sys.executable, '-m', 'dice_companion.cli', 'run', '--frames', '60']); "
             "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=300)
    code, peak_kib = out.stdout.split()[-2:]
    assert code == "0", out.stderr[-2000:]
    assert int(peak_kib) * 1024 < ceiling / 2
