"""Logging to stdout (the journal under systemd): one line per record, each naming game, event and reason.

Call sites pass what they know as ``extra``; the rest shows as ``-``::

    log.info("saved", extra={"game": "rollers#3", "event": "12:roll"})
    log.error("not saved", extra={"game": "rollers#3", "event": "13:move", "reason": "disk full"})

gives (under systemd, which adds the time itself)::

    <6>INFO dice_companion.storage game=rollers#3 event=12:roll reason=saved
    <3>ERROR dice_companion.storage game=rollers#3 event=13:move reason=not saved: disk full

The message is the reason; an explicit ``reason`` is appended to it. A traceback stays on the same
line (`` | `` between its lines), so no line lacks the three fields.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

FIELDS = ("game", "event", "reason")
PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


def _field(value: object) -> str:
    text = str(value).strip() or "-"
    return "_".join(text.split())


class LineFormatter(logging.Formatter):
    """``[<priority>|time] LEVEL logger game=G event=E reason=message[: reason]`` on one line."""

    def __init__(self, journal: bool) -> None:
        super().__init__()
        self.journal = journal

    def format(self, record: logging.LogRecord) -> str:
        reason = record.getMessage()
        extra = getattr(record, "reason", None)
        if extra not in (None, "", reason):
            reason = f"{reason}: {extra}"
        if record.exc_info:
            reason += " | " + self.formatException(record.exc_info)
        if record.stack_info:
            reason += " | " + record.stack_info
        reason = " | ".join(line for line in reason.splitlines() if line.strip()) or "-"
        head = (f"<{PRIORITY.get(record.levelno, 6)}>" if self.journal
                else self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + " ")
        return (f"{head}{record.levelname} {record.name} game={_field(getattr(record, 'game', '-'))} "
                f"event={_field(getattr(record, 'event', '-'))} reason={reason}")


def setup_logging(level: str = "info", stream: TextIO | None = None, journal: bool | None = None) -> None:
    """Send every log record to ``stream`` (stdout); ``journal`` (default: under systemd) drops the time
    and prefixes the syslog priority, which journald reads."""
    if journal is None:
        journal = bool(os.environ.get("JOURNAL_STREAM"))
    handler = logging.StreamHandler(sys.stdout if stream is None else stream)
    handler.setFormatter(LineFormatter(journal))
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_dice_companion", False):
            root.removeHandler(old)
    handler._dice_companion = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
