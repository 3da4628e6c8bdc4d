"""Run the web server: ``serve(host, port, db_url, data_dir)`` (``porphyra serve``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from porphyra.server import DEFAULT_LEASE_S, HEARTBEAT_S

#: ``gc.set_threshold`` of the server process (see :func:`serve`).
GC_THRESHOLDS = (10_000, 50, 1_000)


#: Largest websocket frame uvicorn accepts (bytes); the app refuses messages over 16 KiB
#: with an error and keeps the connection, uvicorn closes on anything over this.
WS_MAX_SIZE = 64 * 1024


def uvicorn_options(
    host: str,
    port: int,
    log_level: str = "info",
    compression: bool = False,
    forwarded_allow_ips: str | None = None,
) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` / ``uvicorn.Config`` for :func:`serve`.

    Args:
        host / port / log_level / compression: see :func:`serve`.
        forwarded_allow_ips: addresses of reverse proxies whose ``X-Forwarded-For`` /
            ``X-Forwarded-Proto`` headers are believed (uvicorn's comma-separated list,
            ``*``: any).  None (the default): proxy headers are ignored, so the client
            address (creation limit, connection limits) is always the TCP peer's; uvicorn
            itself would believe them from 127.0.0.1, letting anyone on this machine
            claim any address.

    Returns:
        ``{"host", "port", "ws_max_size", "ws_per_message_deflate", "log_level",
        "access_log", "proxy_headers", "forwarded_allow_ips"}``.
    """
    return {
        "host": host,
        "port": port,
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": compression,
        "log_level": log_level,
        "access_log": False,
        "proxy_headers": forwarded_allow_ips is not None,
        "forwarded_allow_ips": forwarded_allow_ips,
    }


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    data_dir: str | Path | None = None,
    bot_workers: int | None = None,
    log_level: str = "info",
    compression: bool = False,
    allowed_origins: Sequence[str] = (),
    allowed_hosts: Sequence[str] | None = None,
    forwarded_allow_ips: str | None = None,
    cluster_address: str | None = None,
    lease_s: float = DEFAULT_LEASE_S,
    announce: Callable[[], None] | None = None,
    **limits: Any,
) -> None:
    """Serve the lobby and games until interrupted.

    Args:
        host: interface to listen on (default loopback only).
        port: TCP port.
        db_url: any SQLAlchemy URL; default an SQLite file in ``data_dir``.
        data_dir: directory of the default database (default ``$PORPHYRA_DATA_DIR`` or
            ``~/.local/share/porphyra``).
        bot_workers: processes for bot seats (default: the number of CPUs; 0 runs bots in
            threads).
        log_level: uvicorn's log level.
        compression: negotiate permessage-deflate on websockets (smaller messages for
            distant players, at a CPU cost; off by default).
        allowed_origins: websocket origins allowed besides the server's own (a front end
            on another domain; ``*``: any).
        allowed_hosts: host names the server answers to; default: the loopback names when
            ``host`` is loopback (against DNS rebinding), else any.
        forwarded_allow_ips: reverse proxies whose forwarded-address headers are believed
            (see :func:`uvicorn_options`); default none.
        cluster_address: this process is one of several servers on one database (see
            :mod:`porphyra.server.owners`), reached by its clients at this base URL
            (``http://host:port``); None (default): the database's only server.
        lease_s: with ``cluster_address``, seconds a game stays this process's without a
            heartbeat (more than twice the 5 s heartbeat): how soon another process takes
            over the games of one that died.
        announce: called once every option and the database checked out, just before
            serving (the CLI says where to open the lobby).
        limits: ``create_limit``, ``message_limit``, ``read_limit``, ``max_bot_games``,
            ``max_seat_connections``, ``max_client_connections``, ``chat_limit``, ``bot_pace``,
            ``hint_bot`` of :func:`porphyra.server.app.create_app` (default: the defaults
            there).

    Raises:
        OSError: the port cannot be bound.
        SystemExit: the database file is empty or damaged, or the database does not
            answer (the message says what to do), or the cluster options are invalid, or
            another live server runs at the same ``cluster_address``.
    """
    import gc

    import uvicorn

    cluster = None
    if cluster_address is None and lease_s != DEFAULT_LEASE_S:
        raise SystemExit("porphyra serve: --lease is for a cluster: give --cluster-address too")
    if cluster_address is not None:  # (checked before anything starts)
        from porphyra.server.owners import ClusterSettings, check_lease

        try:
            cluster = ClusterSettings(cluster_address, lease_s)
            check_lease(lease_s, HEARTBEAT_S)
        except ValueError as exc:
            raise SystemExit(f"porphyra serve: {exc}") from None

    from porphyra.server.app import create_app
    from porphyra.server.security import LOOPBACK_HOSTS

    # The server keeps every running game's state in memory and allocates many short-lived
    # containers per move; with the default thresholds, full collections of that heap
    # paused the event loop for 100-250 ms under load (bench/bench_server.py).  Collect
    # the young generation less often and the old ones rarely (cycles are rare here).
    gc.set_threshold(*GC_THRESHOLDS)

    from porphyra.server.app import database_url
    from porphyra.server.dbfile import DatabaseFileError, check_reachable, check_sqlite_file

    try:  # a damaged database file, or none that answers: say so before anything starts
        url = database_url(db_url, data_dir)
        check_sqlite_file(url)
        check_reachable(url)
    except DatabaseFileError as exc:
        raise SystemExit(f"porphyra serve: {exc}") from None
    if cluster is not None:  # never beside a live server at the same address
        from porphyra.server.owners import AddressInUse, check_address_free
        from porphyra.server.storage import Storage

        storage = Storage(url)
        try:
            check_address_free(storage, cluster.address, cluster.lease_s, HEARTBEAT_S)
        except AddressInUse as exc:
            raise SystemExit(f"porphyra serve: {exc}") from None
        finally:
            storage.close()
    workers = (os.cpu_count() or 1) if bot_workers is None else bot_workers
    if allowed_hosts is None and host in LOOPBACK_HOSTS:
        allowed_hosts = LOOPBACK_HOSTS
    app = create_app(
        db_url=db_url,
        data_dir=data_dir,
        bot_workers=workers,
        allowed_origins=allowed_origins,
        allowed_hosts=allowed_hosts,
        cluster=cluster,
        **limits,
    )
    if announce is not None:
        announce()
    uvicorn.run(app, **uvicorn_options(host, port, log_level, compression, forwarded_allow_ips))


def main(argv: list[str] | None = None) -> None:
    """``python -m porphyra.server [OPTIONS]``: the ``porphyra serve`` command itself
    (:func:`porphyra.server.cli.serve_command`: the same options, one definition).

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).

    Raises:
        SystemExit: always, once the server stops (click's way); with the reason if an
            option or the database is refused.
    """
    import typer

    from porphyra.server.cli import serve_command

    command = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    command.command()(serve_command)
    command(args=argv, prog_name="python -m porphyra.server")
