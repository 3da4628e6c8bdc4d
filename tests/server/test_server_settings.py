"""One settings object: ``porphyra serve``, ``python -m porphyra.server`` and
``create_app`` start from the same defaults (:class:`ServerSettings`), declared once."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

from porphyra.server import cli, main
from porphyra.server.app import create_app
from porphyra.server.hub import Hub
from porphyra.server.settings import DEFAULTS, ServerSettings
from porphyra.server.storage import Storage


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[ServerSettings]:
    """The settings each ``serve`` call received (nothing is served)."""
    calls: list[ServerSettings] = []
    monkeypatch.setattr(main, "serve", lambda settings, announce=None: calls.append(settings))
    return calls


def test_porphyra_serve_without_options_gets_the_default_settings(
    served: list[ServerSettings],
) -> None:
    from porphyra.cli import app

    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 0, result.output
    assert served == [ServerSettings()]


def test_python_m_porphyra_server_without_options_gets_the_default_settings(
    served: list[ServerSettings],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main([])
    assert stopped.value.code == 0
    assert served == [ServerSettings()]


def test_create_app_without_arguments_gets_the_default_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PORPHYRA_DATA_DIR", str(tmp_path))  # (the default database's home)
    assert create_app().state.settings == ServerSettings()
    app = create_app(db_url="sqlite://", bot_pace=0.0)
    assert app.state.settings == dataclasses.replace(DEFAULTS, db_url="sqlite://", bot_pace=0.0)
    with pytest.raises(TypeError, match="no_such_setting"):
        create_app(no_such_setting=1)


def test_the_bot_pace_is_the_same_in_the_cli_the_app_and_the_hub() -> None:
    # (it was 0.6 on the command line and 0.0 in the hub)
    hub = Hub(Storage("sqlite://"))
    try:
        assert hub.bot_pace == DEFAULTS.bot_pace == 0.6
    finally:
        hub.storage.close()


def test_settings_keep_repeated_options_as_tuples() -> None:
    settings = ServerSettings(allowed_origins=["https://a.example"], allowed_hosts=["a"])  # type: ignore[arg-type]
    assert settings.allowed_origins == ("https://a.example",)
    assert settings.allowed_hosts == ("a",)
    assert hash(settings) == hash(
        ServerSettings(allowed_origins=("https://a.example",), allowed_hosts=("a",))
    )
