"""The installed engine is compiled by mypyc, or not at all (``setup.py``,
``porphyra.core.build``).

A regular install compiles every module of ``COMPILED``; an editable one compiles none.  A
mix means a stale or partial build, whose compiled modules would not match the sources.
CI installs the project as the README says and sets ``PORPHYRA_EXPECT_COMPILED=1``: there
the engine must be compiled, so the whole suite is known to have run against it.
"""

from __future__ import annotations

import os

from porphyra.core.build import COMPILED, compiled_modules, engine_build


def test_the_engine_is_compiled_all_or_nothing() -> None:
    modules = compiled_modules()
    assert set(modules) == set(COMPILED)
    expected = {"compiled"} if os.environ.get("PORPHYRA_EXPECT_COMPILED") == "1" else None
    assert engine_build() in (expected or {"compiled", "interpreted"}), modules


def test_every_compiled_module_exists_as_source() -> None:
    import porphyra

    root = os.path.dirname(porphyra.__file__)
    for name in COMPILED:
        relative = name.removeprefix("porphyra.").replace(".", os.sep) + ".py"
        assert os.path.isfile(os.path.join(root, relative)), name


def test_checking_the_build_imports_no_extra() -> None:
    # engine_build() must work without the extras installed: it finds the compiled
    # research encoding without importing it (and so numpy).
    import subprocess
    import sys

    code = (
        "import sys; from porphyra.core.build import engine_build; engine_build(); "
        "print(sorted(m for m in ('numpy', 'porphyra.envs.encoding') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
