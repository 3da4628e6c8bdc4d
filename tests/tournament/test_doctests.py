"""The tournament package's docstring examples run as tests."""

from __future__ import annotations

import doctest

import pytest

import porphyra.tournament
import porphyra.tournament.schedule


@pytest.mark.parametrize("module", [porphyra.tournament, porphyra.tournament.schedule])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, verbose=False)  # type: ignore[arg-type]
    assert result.failed == 0
