"""Throwaway PostgreSQL clusters on loopback for the tests and CI (standard library only,
so that ``.ci/run`` can use it before the virtual environment exists).

    python3 tests/server/pg.py start DIR   # prints the SQLAlchemy URL of a new cluster
    python3 tests/server/pg.py stop DIR

A cluster lives in ``DIR`` (``initdb``: trust authentication, no fsync), listens on
127.0.0.1 on a free port and keeps its socket in ``DIR``.  Run as root, the server runs
as the ``postgres`` user (PostgreSQL refuses root).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

#: The environment variable with the URL of the PostgreSQL server the tests use.
URL_VARIABLE = "PORPHYRA_TEST_POSTGRES_URL"


def pg_bin(name: str) -> str | None:
    """The path of PostgreSQL program ``name`` (``initdb``, ``pg_ctl``), or None."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """One PostgreSQL cluster in ``directory``.

    Raises:
        FileNotFoundError: PostgreSQL's programs are not installed.
    """

    def __init__(self, directory: str | Path) -> None:
        initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise FileNotFoundError("initdb/pg_ctl not found (apt-get install postgresql)")
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.dir = Path(directory).resolve()
        self.data = self.dir / "data"
        self.port_file = self.dir / "port"

    def _run(self, *args: str) -> None:
        command = list(args)
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, timeout=120)

    @property
    def port(self) -> int:
        """The cluster's TCP port."""
        return int(self.port_file.read_text())

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the cluster's ``postgres`` database."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> str:
        """Create (first time) and start the cluster; its URL."""
        if not self.data.exists():
            self.dir.mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(self.dir, "postgres", "postgres")
            self._run(
                self.initdb,
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
            )
            self.port_file.write_text(str(_free_port()))
        self._run(
            self.pg_ctl,
            "-D",
            str(self.data),
            "-w",
            "-t",
            "60",
            "-l",
            str(self.dir / "log"),
            "-o",
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )
        return self.url

    def stop(self) -> None:
        """Stop the server (fast shutdown: clients are disconnected)."""
        self._run(self.pg_ctl, "-D", str(self.data), "-w", "-t", "60", "-m", "fast", "stop")


def main(argv: list[str]) -> None:
    """``start DIR`` (prints the URL) or ``stop DIR``."""
    command, directory = argv
    cluster = Cluster(directory)
    if command == "start":
        print(cluster.start())
    else:
        cluster.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
