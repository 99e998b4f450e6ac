"""systemd's notify protocol with a plain datagram socket: readiness, status and the watchdog.

Everything is a no-op when ``$NOTIFY_SOCKET`` is unset (a laptop, tests, a terminal), so the UI can
call :meth:`Notifier.frame` on every frame unconditionally: it sends ``WATCHDOG=1`` at most every half
``WatchdogSec``. If the render loop freezes, the pings stop and systemd restarts the service.

>>> n = Notifier(env={})
>>> n.enabled, n.ready("playing"), n.frame()
(False, False, False)
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


class Notifier:
    """Talks to systemd through ``$NOTIFY_SOCKET`` (abstract ``@name`` sockets too)."""

    def __init__(self, env: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        env = os.environ if env is None else env
        path = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + path[1:] if path.startswith("@") else path
        self.enabled = bool(path)
        self.interval = self._watchdog_interval(env)
        self._clock = clock
        self._last_ping = float("-inf")
        self._sock: socket.socket | None = None

    @staticmethod
    def _watchdog_interval(env: Mapping[str, str]) -> float | None:
        """Half of ``WatchdogSec`` in seconds, or None when systemd has no watchdog for this process."""
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
            return None
        return int(usec) / 2e6

    def send(self, message: str) -> bool:
        """Send one notification; False when disabled or systemd is not listening (never raises)."""
        if not self.enabled:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            # never wait: a busy systemd (a full datagram queue) must not freeze the render loop
            self._sock.sendto(message.encode(), socket.MSG_DONTWAIT, self.address)
            return True
        except OSError:  # BlockingIOError included: that notification is dropped, the next one goes
            return False

    def ready(self, status: str = "") -> bool:
        """Tell systemd the app is up (``Type=notify``): call after the first frame is shown."""
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status``."""
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def frame(self) -> bool:
        """Call once per rendered frame: pings the watchdog when half its period has passed."""
        if self.interval is None:
            return False
        now = self._clock()
        if now - self._last_ping < self.interval:
            return False
        self._last_ping = now
        return self.send("WATCHDOG=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
