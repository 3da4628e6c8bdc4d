"""Fixtures of the web-server tests: a database URL (SQLite, and PostgreSQL when a server
is reachable) and a live server.

PostgreSQL: the server named by ``$PORPHYRA_TEST_POSTGRES_URL`` (``.ci/run`` starts one and
sets it; then it must answer), else one on ``127.0.0.1:5432`` as ``postgres`` if reachable,
else a throwaway cluster on loopback that the test session starts itself when PostgreSQL is
installed; each test gets a fresh database, dropped afterwards.  Without PostgreSQL the
PostgreSQL variants skip and say why.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from .browser import CHROMIUM, CHROMIUM_ARGS
from .live import LiveServer
from .pg import URL_VARIABLE, Cluster

LOCAL_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def _answers(url: str) -> Exception | None:
    """None if the PostgreSQL server of ``url`` answers, else the error."""
    engine = create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        return exc
    finally:
        engine.dispose()
    return None


@pytest.fixture(scope="session")
def postgres_admin_url() -> Iterator[str]:
    """The URL of a reachable PostgreSQL server's ``postgres`` database: the one named by
    ``$PORPHYRA_TEST_POSTGRES_URL`` (``.ci/run`` starts one), else one on 127.0.0.1:5432,
    else a throwaway cluster this test session starts on loopback (PostgreSQL installed,
    e.g. Debian's ``postgresql``) and stops at its end.

    Raises:
        pytest.fail: ``$PORPHYRA_TEST_POSTGRES_URL`` is set but does not answer.
        pytest.skip: it is not set, no server answers and PostgreSQL is not installed.
    """
    configured = os.environ.get(URL_VARIABLE)
    if configured:
        error = _answers(configured)
        if error is not None:
            pytest.fail(f"{URL_VARIABLE}={configured} does not answer: {error}")
        yield configured
        return
    if _answers(LOCAL_POSTGRES) is None:
        yield LOCAL_POSTGRES
        return
    # Not under pytest's own temporary directory: run as root, the server runs as the
    # ``postgres`` user, who cannot enter root's private directories.
    directory = tempfile.mkdtemp(prefix="porphyra-test-pg-")
    try:
        cluster = Cluster(directory)
    except FileNotFoundError:
        shutil.rmtree(directory, ignore_errors=True)
        pytest.skip(
            f"no PostgreSQL server reachable ({URL_VARIABLE} unset, none on 127.0.0.1:5432) "
            "and PostgreSQL is not installed (apt-get install postgresql; bash .ci/run does)"
        )
    try:
        url = cluster.start()
        try:
            yield url
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def fresh_postgres_database(admin_url: str) -> Iterator[str]:
    """A new, empty database on the server of ``admin_url``; dropped afterwards."""
    name = f"porphyra_test_{secrets.token_hex(6)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


#: The PostgreSQL variant talks to a live database server: marked ``live``, so that
#: ``-m "not live"`` keeps only the SQLite one.
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.live)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each backend: an SQLite file in the test's temporary
    directory, and a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    yield from fresh_postgres_database(request.getfixturevalue("postgres_admin_url"))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """An SQLite file database (tests of SQLite files, and the browser test)."""
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def server(db_url: str) -> Iterator[LiveServer]:
    """A live server on a fresh database (bots in threads)."""
    live = LiveServer(db_url).start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="module")
def live(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """A live server on a fresh SQLite file, shared by one test module's tests (the browser
    tests; a module may define its own ``live``)."""
    db = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]) / "games.sqlite3"
    server = LiveServer(f"sqlite:///{db}").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright, shared by one test module's tests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
