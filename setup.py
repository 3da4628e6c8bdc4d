"""Build porphyra, with the engines' hot modules compiled by mypyc.

The metadata lives in ``pyproject.toml``; this file only adds the compiled modules.  The
modules are ordinary, ``mypy --strict`` clean Python: mypyc (from the pinned mypy) turns
them into C extensions that behave the same (the test suite runs on the compiled build
in CI) and run the random playouts, search and server several times faster
(``docs/results/speed.md``).

- A regular install (``pip install .``, a wheel) compiles them; it needs a C compiler and
  the Python headers.  Without them the build says so and falls back to the sources (the
  same behaviour, slower); ``porphyra.core.build.engine_build()`` tells which was built.
- An editable install (``pip install -e .``) does not: compiled files would shadow the
  sources being edited.
- ``PORPHYRA_PURE_PYTHON=1`` builds a pure-Python package (no compiler needed).
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: The modules to compile (``porphyra.core.build.COMPILED``, read without importing porphyra).
HERE = Path(__file__).resolve().parent
COMPILED: tuple[str, ...] = runpy.run_path(str(HERE / "src/porphyra/core/build.py"))["COMPILED"]


def _compiled_modules() -> list[Extension]:
    """The mypyc extensions, or none (editable install, or ``PORPHYRA_PURE_PYTHON=1``)."""
    if os.environ.get("PORPHYRA_PURE_PYTHON", "") not in ("", "0"):
        return []
    if any(
        command.startswith(("editable", "develop", "dist_info", "egg_info", "sdist"))
        for command in sys.argv[1:]
    ):
        return []
    # The build environment holds only the build requirements: the compiled modules'
    # third-party imports (numpy, in the research encoding) are typed as Any rather than
    # failing the build (whether or not the target environment has them).
    try:
        from mypyc.build import mypycify

        return mypycify(
            ["--ignore-missing-imports", "--config-file", str(HERE / "pyproject.toml")]
            + ["src/" + name.replace(".", "/") + ".py" for name in COMPILED],
            opt_level="3",
        )
    except (Exception, SystemExit) as error:  # mypyc exits on a type error
        print(
            f"warning: porphyra's engine could not be prepared for compiling ({error!r}); "
            "installing it as pure Python (the same behaviour, slower)",
            file=sys.stderr,
        )
        return []


class _BuildOrFallBack(build_ext):
    """``build_ext`` that leaves the modules interpreted when they cannot be compiled (no
    compiler or headers): the package works the same from its sources, only slower."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a missing compiler surfaces as several error types
            for built in self.get_outputs():  # no half-built engine: all or nothing
                Path(built).unlink(missing_ok=True)
            print(
                f"warning: porphyra's engine could not be compiled ({error}); installing "
                "it as pure Python (the same behaviour, slower)",
                file=sys.stderr,
            )
            self.extensions = []


setup(ext_modules=_compiled_modules(), cmdclass={"build_ext": _BuildOrFallBack})
