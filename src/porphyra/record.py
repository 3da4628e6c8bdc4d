"""Game records: the public name of :mod:`porphyra.core.record` (``from porphyra import
record``), where they live so that every layer, the core's conformance suite included,
may import them.  See that module for the format."""

from porphyra.core.record import (
    CLOCK_EVENTS,
    FORMAT,
    FORMAT_VERSION,
    dumps,
    load,
    loads,
    replay,
    save,
    seat_kinds,
    to_record,
    validate,
)

__all__ = [
    "CLOCK_EVENTS",
    "FORMAT",
    "FORMAT_VERSION",
    "dumps",
    "load",
    "loads",
    "replay",
    "save",
    "seat_kinds",
    "to_record",
    "validate",
]
