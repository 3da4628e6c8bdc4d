"""The formatted lines of an engine's log, kept between reads and handed to copies.

Engines keep their log as data (events) and format it only when it is read; the log only
grows, so the lines already formatted are kept and only the events since are formatted.
A copy of a state (``clone``, which the web server makes for every move it stores, and
search makes all the time) takes its original's formatted lines along without copying
them.  The caches that share a list each read only their own first lines of it
(:attr:`FormattedLog.size`); the first of them to add a line after the list's last one
appends it in place, and any other copies its own lines before adding one.  So the usual
course, a state copied and the copy carried on while the original is dropped (the web
server's every move), never copies a list at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

#: What a log line is read as: its text, or its message (an id plus arguments).
Line = TypeVar("Line")


class FormattedLog(Generic[Line]):
    """Lines formatted from the first :attr:`count` events of :attr:`events` (a line is
    text, or a :class:`~porphyra.core.messages.Message`: the same cache serves both).

    Args:
        events: the event list (the state's own; a cache of another list is stale).
        lines: the formatted lines so far (shared with the original's until :meth:`own`).
        count: how many events they were formatted from.
        size: how many of ``lines`` are this cache's (a list shared with other caches may
            have grown since, by another cache's lines: never read past ``size``).
    """

    __slots__ = ("count", "events", "lines", "size")

    def __init__(
        self,
        events: Sequence[Any],
        lines: list[Line] | None = None,
        count: int = 0,
        size: int | None = None,
    ) -> None:
        self.events = events
        self.lines: list[Line] = [] if lines is None else lines
        self.count = count
        self.size = len(self.lines) if size is None else size

    @classmethod
    def current(cls, cache: FormattedLog[Line] | None, events: Sequence[Any]) -> FormattedLog[Line]:
        """``cache`` if it was formatted from ``events`` (the state's event list now), else
        a new, empty cache of ``events`` (a stale one is dropped)."""
        return cache if cache is not None and cache.events is events else cls(events)

    def for_copy(self, events: Sequence[Any]) -> FormattedLog[Line]:
        """This cache for a copy of the state whose event list is ``events`` (a copy of
        :attr:`events`): it shares the lines (see the module's docstring)."""
        return FormattedLog(events, self.lines, self.count, self.size)

    def read(
        self, events: Sequence[Any], line: Callable[[Any], Line | None], start: int = 0
    ) -> list[Line]:
        """The lines of every event of ``events`` from line ``start`` on (a new list):
        those formatted before, and ``line(event)`` for each event since (None: not a line
        for this reader).  The lines formatted before are handed out again as the same
        objects.

        Must be called on a cache whose :attr:`events` is ``events`` (:meth:`current`)."""
        if self.count > len(events):  # the list was cut in place: format it again
            self.lines, self.count, self.size = [], 0, 0
        if self.count < len(events):
            if len(self.lines) != self.size:  # another cache sharing it added lines: copy
                self.lines = self.lines[: self.size]
            add = self.lines.append
            for event in events[self.count :]:
                text = line(event)
                if text is not None:
                    add(text)
            self.count = len(events)
            self.size = len(self.lines)
        return self.lines[max(0, start) : self.size]


def carry(
    cache: FormattedLog[Line] | None, old: Sequence[Any], new: Sequence[Any]
) -> FormattedLog[Line] | None:
    """The cache of a state whose events are ``old``, for its copy with events ``new``
    (None: there is none, or it is stale)."""
    return cache.for_copy(new) if cache is not None and cache.events is old else None


def carried(
    caches: dict[Any, FormattedLog[Line]], old: Sequence[Any], new: Sequence[Any]
) -> dict[Any, FormattedLog[Line]]:
    """:func:`carry` for each reader's cache of a state."""
    out = {}
    for reader, cache in caches.items():
        copied = carry(cache, old, new)
        if copied is not None:
            out[reader] = copied
    return out


class Listed(tuple[str, ...]):
    """Names that a log line shows as ``a, b, c`` (joined only when the line is read)."""

    __slots__ = ()
