"""The ``porphyra serve`` command (Typer), for the CLI to register::

from porphyra.server.cli import serve_command
app.command(name="serve")(serve_command)

Importing this module is cheap: the web server (FastAPI, SQLAlchemy, uvicorn) is loaded
only when the command runs, so ``porphyra play`` never imports it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from porphyra.server.settings import DEFAULTS, ServerSettings


def serve_command(
    host: Annotated[
        str, typer.Option("--host", help="Interface to listen on (default: this machine only).")
    ] = DEFAULTS.host,
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = DEFAULTS.port,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Any SQLAlchemy database URL, e.g. postgresql+psycopg://user@host/porphyra "
            "(default: an SQLite file in the data directory).",
        ),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            help="Directory of the default SQLite database (default: $PORPHYRA_DATA_DIR or "
            "~/.local/share/porphyra).",
        ),
    ] = None,
    bot_workers: Annotated[
        int | None,
        typer.Option("--bot-workers", help="Processes for bot seats (default: the CPU count)."),
    ] = None,
    compression: Annotated[
        bool, typer.Option("--compression", help="Compress websocket messages (deflate).")
    ] = DEFAULTS.compression,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-origin",
            help="A websocket Origin allowed besides the server's own, e.g. "
            "https://play.example.org (repeatable; '*' allows any).",
        ),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="A Host name the server answers to, e.g. play.example.org or "
            "*.example.org (repeatable; default: the loopback names when --host is "
            "loopback, else any).",
        ),
    ] = None,
    create_limit: Annotated[
        str | None,
        typer.Option(
            "--create-limit",
            help=f"Games one client address may create, e.g. {DEFAULTS.create_limit} (the "
            "default), or none.",
        ),
    ] = None,
    read_limit: Annotated[
        str | None,
        typer.Option(
            "--read-limit",
            help="Reads of stored games (the game list, a game's info, record, replay) per "
            f"client address, e.g. {DEFAULTS.read_limit} (the default), or none.",
        ),
    ] = None,
    message_limit: Annotated[
        str | None,
        typer.Option(
            "--message-limit",
            help=f"Messages one websocket may send, e.g. {DEFAULTS.message_limit} (the "
            "default), or none.",
        ),
    ] = None,
    max_bot_games: Annotated[
        int | None,
        typer.Option(
            "--max-bot-games",
            min=0,
            help=f"Games of bots only running at once (default: {DEFAULTS.max_bot_games}).",
        ),
    ] = None,
    max_seat_connections: Annotated[
        int,
        typer.Option(
            "--max-seat-connections", min=0, help="Websockets open at once per seat (0: any)."
        ),
    ] = DEFAULTS.max_seat_connections or 0,
    max_client_connections: Annotated[
        int,
        typer.Option(
            "--max-client-connections",
            min=0,
            help="Websockets open at once per client address (0: any).",
        ),
    ] = DEFAULTS.max_client_connections or 0,
    bot_pace: Annotated[
        float,
        typer.Option(
            "--bot-pace",
            metavar="SECONDS",
            help="Least time between a move and the next bot move at a table with a person, "
            "so that the bots' moves can be followed (0: at once).",
        ),
    ] = DEFAULTS.bot_pace,
    hint_bot: Annotated[
        str,
        typer.Option("--hint-bot", help="The bot that answers hints in the browser."),
    ] = DEFAULTS.hint_bot,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="Reverse proxies (comma-separated addresses, or '*') whose X-Forwarded-For "
            "header gives the client address (default: none; the address is the TCP peer's).",
        ),
    ] = None,
    cluster_address: Annotated[
        str | None,
        typer.Option(
            "--cluster-address",
            metavar="URL",
            help="Run as one of several servers on one database (PostgreSQL; an SQLite file "
            "to try it on one machine), reached at this base URL (http://host:port, unique "
            "per server): each game runs on one server at a time, and the others take over "
            "the games of one that stops (docs/scaling.md).",
        ),
    ] = None,
    lease: Annotated[
        float,
        typer.Option(
            "--lease",
            metavar="SECONDS",
            help="With --cluster-address: how long a game stays a server's without its "
            "heartbeat (more than 10, at most 3600), so how soon the others take over.",
        ),
    ] = DEFAULTS.lease_s,
    signin_limit: Annotated[
        str | None,
        typer.Option(
            "--signin-limit",
            help="Sign-in attempts per client address, e.g. 10/minute, or none "
            f"(default {DEFAULTS.signin_limit}; per user name: {DEFAULTS.signin_name_limit}).",
        ),
    ] = None,
    push_contact: Annotated[
        str,
        typer.Option(
            "--push-contact",
            help="Where push services can reach the operator (mailto: or https: URL), "
            "sent with each turn alert (docs/push.md).",
        ),
    ] = DEFAULTS.push_contact,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies",
            help="Always mark the session cookie Secure (default: when the request came "
            "over HTTPS), e.g. behind a TLS proxy that does not tell the scheme.",
        ),
    ] = False,
) -> None:
    """Play in the browser: serve the lobby and games (friends, bots, solo) over HTTP."""
    from porphyra.server.main import serve
    from porphyra.server.quotas import check_limit

    limits: dict[str, Any] = {}
    for name, value in (
        ("create_limit", create_limit),
        ("read_limit", read_limit),
        ("message_limit", message_limit),
        ("signin_limit", signin_limit),
    ):
        if value is None:
            continue
        if value.strip().lower() == "none":  # no limit (see porphyra.server.quotas)
            limits[name] = None
            continue
        try:
            check_limit(value)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--" + name.replace("_", "-")) from None
        limits[name] = value
    if max_bot_games is not None:
        limits["max_bot_games"] = max_bot_games
    from porphyra.bots import check_bot
    from porphyra.core.registry import registered_games

    try:
        # Now, not at the first hint (each would fail): the hint bot serves every game.
        for game in registered_games():
            check_bot(hint_bot, game)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--hint-bot") from None

    def announce() -> None:
        typer.echo(f"porphyra: open http://{host}:{port}/ in a browser (Ctrl-C stops the server)")

    settings = ServerSettings(
        host=host,
        port=port,
        db_url=db,
        data_dir=data_dir,
        bot_workers=bot_workers,
        compression=compression,
        allowed_origins=tuple(allowed_origin or ()),
        allowed_hosts=None if allowed_host is None else tuple(allowed_host),
        forwarded_allow_ips=forwarded_allow_ips,
        max_seat_connections=max_seat_connections or None,
        max_client_connections=max_client_connections or None,
        bot_pace=max(0.0, bot_pace),
        hint_bot=hint_bot,
        cluster_address=cluster_address,
        lease_s=lease,
        secure_cookies=True if secure_cookies else None,
        push_contact=push_contact,
        **limits,
    )
    serve(settings, announce=announce)


def main(argv: list[str] | None = None) -> None:
    """``python -m porphyra.server [OPTIONS]``: the ``porphyra serve`` command itself
    (:func:`serve_command`: the same options, one definition).

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).

    Raises:
        SystemExit: always, once the server stops (click's way); with the reason if an
            option or the database is refused.
    """
    command = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    command.command()(serve_command)
    command(args=argv, prog_name="python -m porphyra.server")


#: ``porphyra ratings ...`` (registered by the CLI: ``app.add_typer(ratings_app)``).
ratings_app = typer.Typer(
    name="ratings",
    help="The web server's player ratings (docs/ratings.md).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@ratings_app.command("rebuild")
def rebuild_command(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="The server's SQLAlchemy database URL (default: the SQLite file in the "
            "data directory, as porphyra serve).",
        ),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", help="Directory of the default SQLite database."),
    ] = None,
) -> None:
    """Recompute every rating from the stored games, in the order they ended: the same
    result as the live updates (porphyra.server.ratings).  Safe while the server runs."""
    from porphyra.server.app import database_url
    from porphyra.server.ratings import Ratings
    from porphyra.server.storage import Storage

    settings = ServerSettings(db_url=db, data_dir=data_dir)
    try:
        storage = Storage(database_url(settings.db_url, settings.data_dir))
        counted = Ratings(storage.engine).rebuild()
    except Exception as exc:  # a bad URL, an unreachable database: one line, exit 2
        typer.echo(f"porphyra ratings rebuild: {type(exc).__name__}: {exc}", err=True)
        raise typer.Exit(2) from None
    storage.engine.dispose()
    typer.echo(f"ratings rebuilt from {counted} rated games")
