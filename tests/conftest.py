"""Fixtures for every test: the interface language is English unless a test chooses one
(the terminal follows ``LANG``; a developer's Japanese or Korean locale must not change
what the tests read), and a language chosen by one test does not leak into the next.  The
data directory (where ``porphyra play`` keeps its games, ``PORPHYRA_DATA_DIR``) is the test's
own temporary folder, never the developer's home."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from porphyra.cli import lang


@pytest.fixture(autouse=True)
def english_interface(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setenv("PORPHYRA_DATA_DIR", str(tmp_path / "porphyra-data"))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    lang._current = None
    yield
    lang._current = None
