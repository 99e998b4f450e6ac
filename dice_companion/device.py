"""Everything the app needs from the device, opened in one call by the composition root.

    dev = open_device()          # configuration, logs, games database, controls, systemd notifier
    if dev.notice: show(dev.notice)   # e.g. a damaged database was set aside
    ...                          # each frame: dev.controls.events(); dev.notifier.frame()
    dev.close()

A wrong configuration raises :class:`~hardware.config.ConfigError`; the command should print it and
exit with :data:`EX_CONFIG` (78), which the service unit does not restart on (a restart would fail
the same way).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from dice_companion.logs import setup_logging
from dice_companion.storage import SafeStore, open_store
from hardware.config import Config, load_config
from hardware.controls import Controls, open_controls
from hardware.sdnotify import Notifier

EX_CONFIG = 78  # sysexits.h; systemd/dice-companion.service has RestartPreventExitStatus=78
DB_NAME = "games.sqlite3"
log = logging.getLogger(__name__)


@dataclass
class Device:
    config: Config
    store: SafeStore
    controls: Controls
    notifier: Notifier = field(default_factory=Notifier)
    notice: str | None = None  # something the players must be told at start

    @property
    def data_dir(self) -> Path:
        return Path(self.store.path).parent

    def close(self) -> None:
        self.notifier.stopping()
        self.controls.close()
        self.store.close()
        self.notifier.close()


def open_device(config_path: Path | str | None = None, db: Path | str | None = None,
                log_stream=None) -> Device:
    """Read the configuration, set up logging, open the database (setting a damaged one aside) and the
    controls (absent without GPIO)."""
    config = load_config(config_path)
    setup_logging(config.logging.level, stream=log_stream)
    log.info("configuration from %s", config.source, extra={"event": "start"})
    opened = open_store(Path(db) if db else config.data.path() / DB_NAME)
    controls = open_controls(config.pins)
    return Device(config, opened.store, controls, Notifier(), opened.notice)
