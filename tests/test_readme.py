"""The README's Python examples and the package doctests run as tests (python-chess
practice), so the documentation cannot silently go stale."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

import porphyra

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README has no python example"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        namespace: dict[str, object] = {}
        exec(compile(block, str(README), "exec"), namespace)
    assert os.path.exists(tmp_path / "game.json")


def test_package_doctests() -> None:
    result = doctest.testmod(porphyra, verbose=False)
    assert result.attempted > 0 and result.failed == 0
