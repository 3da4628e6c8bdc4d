"""The README's play command installs no extra (issue 29, section 6): playing, replaying
and resuming need nothing from them, and a command that does need one says which."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from porphyra.cli import app

#: The top-level modules of the extras (pyproject.toml: balance, scale, rl, dev).
EXTRAS = (
    "scipy",
    "matplotlib",
    "optuna",
    "ray",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "open_spiel",
    "pyspiel",
    "playwright",
    "hypothesis",
    "httpx",
    "psycopg",
)

#: Runs the ``porphyra`` command with every extra's module made unimportable.
WITHOUT_EXTRAS = f"""
import sys
BLOCKED = {EXTRAS!r}

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked by the test)")
        return None

sys.meta_path.insert(0, Block())
from porphyra.cli import main
sys.argv = ["porphyra", *sys.argv[1:]]
main()
"""


def _without_extras(args: list[str], stdin: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PORPHYRA_DATA_DIR": str(data), "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRAS, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def test_playing_and_resuming_need_no_extra(tmp_path: Path) -> None:
    played = _without_extras(["play", "conspiracy", "--seed", "3"], "1\n1\nquit\n", tmp_path)
    assert played.returncode == 0, played.stderr
    assert "porphyra resume" in played.stdout
    resumed = _without_extras(["resume"], "quit\n", tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "Resumed after" in resumed.stdout
    record = next((tmp_path / "games").glob("*.json"))
    replayed = _without_extras(["replay", str(record), "--no-pause"], "", tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "End of record" in replayed.stdout


def test_balance_without_its_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec

    def find_spec(name: str, *args: object, **kwargs: object) -> object:
        return None if name == "scipy" else real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    result = CliRunner().invoke(app, ["balance", "byzantium", "--games", "2"])
    assert result.exit_code == 2
    assert "pip install 'porphyra[balance]'" in " ".join(result.output.split())
    assert "Traceback" not in result.output
