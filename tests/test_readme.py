"""The Python examples of the README and the docs, and the package doctests, run as tests
(python-chess practice), so the documentation cannot silently go stale."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

import porphyra

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The pages whose ``python`` blocks are examples a reader copies (each runs on its own).
DOCS = [README, ROOT / "docs" / "develop.md", ROOT / "docs" / "envs.md"]
#: Blocks that import a heavy stack (TorchRL, Ray) run with the slow tests only.
HEAVY = re.compile(r"^\s*(from|import) (torchrl|ray)\b", flags=re.M)


def python_blocks(path: Path) -> list[str]:
    """The ``python`` fenced blocks of ``path``, in order."""
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def _examples() -> list[object]:
    params: list[object] = []
    for path in DOCS:
        for index, block in enumerate(python_blocks(path)):
            marks = [pytest.mark.slow] if HEAVY.search(block) else []
            params.append(
                pytest.param(path, block, id=f"{path.relative_to(ROOT)}-{index}", marks=marks)
            )
    return params


def test_every_page_has_examples() -> None:
    for path in DOCS:
        assert python_blocks(path), f"{path.relative_to(ROOT)} has no python example"


@pytest.mark.parametrize(("path", "block"), _examples())
def test_docs_python_example_runs(
    path: Path, block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(block, str(path), "exec"), namespace)


def test_readme_example_saves_its_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (block,) = [b for b in python_blocks(README) if "record.save" in b]
    exec(compile(block, str(README), "exec"), {})
    assert os.path.exists(tmp_path / "game.json")


def test_package_doctests() -> None:
    result = doctest.testmod(porphyra, verbose=False)
    assert result.attempted > 0 and result.failed == 0


def test_docs_relative_links_resolve() -> None:
    """Every relative link of the README and the docs names a file that exists (a page
    moved or renamed leaves no dead link behind)."""
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    dead = []
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            if not (page.parent / target).exists():
                dead.append(f"{page.relative_to(ROOT)}: {target}")
    assert dead == []
