"""Log filters of the web server: seat tokens never reach a log line, and a client's own
fault (a frame of invalid UTF-8) is one line, not a traceback anyone could repeat."""

from __future__ import annotations

import logging
import re


class RedactTokens(logging.Filter):
    """Hide seat tokens (``token=...``) in log lines, e.g. uvicorn's websocket lines."""

    _pattern = re.compile(r"token=[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = self._pattern.sub("token=<hidden>", record.msg)
        if record.args and isinstance(record.args, tuple):
            record.args = tuple(
                self._pattern.sub("token=<hidden>", a) if isinstance(a, str) else a
                for a in record.args
            )
        return True


class QuietClientFaults(logging.Filter):
    """One line, without a traceback, for a client's fault that uvicorn logs with one
    (:data:`CLIENT_FAULTS`): a text frame of invalid UTF-8 is closed with 1007 as the
    standard asks, and uvicorn's traceback for each would let any client fill the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage() in CLIENT_FAULTS:
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


#: uvicorn's log messages (``logger.exception``) for faults of the client alone.
CLIENT_FAULTS = frozenset({"Invalid UTF-8 sequence received from client."})


def redact_server_logs() -> None:
    """Install :class:`RedactTokens` on uvicorn's loggers and :class:`QuietClientFaults`
    on its error log (idempotent)."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietClientFaults) for f in errors.filters):
        errors.addFilter(QuietClientFaults())
