"""The repository's scripts (under bench/, docs/, examples/) loaded as modules, for the
tests of what they compute."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

#: The repository's root.
ROOT = Path(__file__).resolve().parents[1]


def load_script(path: Path) -> ModuleType:
    """The script at ``path`` imported as a module named by its file name (registered in
    ``sys.modules``, as its dataclasses need)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module
