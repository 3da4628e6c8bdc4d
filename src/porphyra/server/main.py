"""Run the web server: ``serve(settings)`` (``porphyra serve``, ``python -m porphyra.server``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from porphyra.server.settings import DEFAULT_LEASE_S, DEFAULTS, ServerSettings

if TYPE_CHECKING:
    from porphyra.server.owners import ClusterSettings

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


def serve(settings: ServerSettings = DEFAULTS, announce: Callable[[], None] | None = None) -> None:
    """Serve the lobby and games until interrupted.

    Args:
        settings: every setting (:class:`~porphyra.server.settings.ServerSettings`; its
            defaults are the command line's).  ``allowed_hosts`` None becomes the loopback
            names when ``host`` is loopback (against DNS rebinding), else any;
            ``bot_workers`` None the CPU count.
        announce: called once every option and the database checked out, just before
            serving (the CLI says where to open the lobby).

    Raises:
        OSError: the port cannot be bound.
        SystemExit: the database file is empty or damaged, or the database does not
            answer (the message says what to do), or the cluster options are invalid, or
            another live server runs at the same ``cluster_address``.
    """
    import gc

    import uvicorn

    if settings.cluster_address is None and settings.lease_s != DEFAULT_LEASE_S:
        raise SystemExit("porphyra serve: --lease is for a cluster: give --cluster-address too")
    cluster = cluster_of(settings)  # (checked before anything starts)

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
        url = database_url(settings.db_url, settings.data_dir)
        check_sqlite_file(url)
        check_reachable(url)
    except DatabaseFileError as exc:
        raise SystemExit(f"porphyra serve: {exc}") from None
    if cluster is not None:  # never beside a live server at the same address
        from porphyra.server.owners import AddressInUse, check_address_free
        from porphyra.server.storage import Storage

        storage = Storage(url)
        try:
            check_address_free(storage, cluster.address, cluster.lease_s, settings.heartbeat_s)
        except AddressInUse as exc:
            raise SystemExit(f"porphyra serve: {exc}") from None
        finally:
            storage.close()
    if settings.allowed_hosts is None and settings.host in LOOPBACK_HOSTS:
        settings = replace(settings, allowed_hosts=tuple(LOOPBACK_HOSTS))
    app = create_app(settings)
    if announce is not None:
        announce()
    uvicorn.run(
        app,
        **uvicorn_options(
            settings.host,
            settings.port,
            settings.log_level,
            settings.compression,
            settings.forwarded_allow_ips,
        ),
    )


def cluster_of(settings: ServerSettings) -> ClusterSettings | None:
    """The :class:`~porphyra.server.owners.ClusterSettings` of ``settings`` (None: not a
    cluster server).

    Raises:
        SystemExit: the address or the lease is refused (the message says why).
    """
    if settings.cluster_address is None:
        return None
    from porphyra.server.owners import ClusterSettings, check_lease

    try:
        cluster = ClusterSettings(settings.cluster_address, settings.lease_s)
        check_lease(settings.lease_s, settings.heartbeat_s)
    except ValueError as exc:
        raise SystemExit(f"porphyra serve: {exc}") from None
    return cluster
