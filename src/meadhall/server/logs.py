"""Logs on standard error: one JSON object per line for services, plain lines for people.

``Settings.log_format`` chooses (``auto``: plain text on a terminal, JSON otherwise). In
plain text the start-up chatter of Alembic and uvicorn is left out: a person at a
terminal reads first the one line ``meadhall serve`` prints with the address to open.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any


def _context(record: logging.LogRecord) -> dict[str, Any]:
    """The record's context, given as ``extra={"ctx_NAME": value}``."""
    return {key[4:]: value for key, value in record.__dict__.items() if key.startswith("ctx_")}


class JsonFormatter(logging.Formatter):
    """Format a log record as one JSON object."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON (context from ``extra={"ctx_...": ...}``)."""
        data: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        data.update(_context(record))
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """Format a log record as one plain line: local time, the level unless info, message, context."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as ``HH:MM:SS [level: ]message key=value ...``."""
        level = "" if record.levelno == logging.INFO else f"{record.levelname.lower()}: "
        parts = [time.strftime("%H:%M:%S", time.localtime(record.created)), f"{level}{record.getMessage()}"]
        parts += [f"{key}={value}" for key, value in _context(record).items()]
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


# Loggers whose information lines only narrate the start (migrations, uvicorn's own
# "running on" line): left out of plain text, where the address line says it all.
_START_UP_CHATTER = ("alembic", "uvicorn.error")


def setup(json_logs: bool, level: str) -> None:
    """Send meadhall's (and uvicorn's) logs to standard error, as JSON lines or plain text."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if json_logs else TextFormatter())
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)  # we log requests ourselves
    for name in _START_UP_CHATTER:
        logging.getLogger(name).setLevel(logging.NOTSET if json_logs else logging.WARNING)
