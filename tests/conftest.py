"""Fixtures for every test: the interface language is English unless a test chooses one
(the terminal follows ``LANG``; a developer's Japanese or Korean locale must not change
what the tests read), and a language chosen by one test does not leak into the next."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from porphyra.cli import lang


@pytest.fixture(autouse=True)
def english_interface(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    lang._current = None
    yield
    lang._current = None
