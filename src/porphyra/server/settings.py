"""The web server's settings: one frozen object, declared once, read by every entry point.

``porphyra serve`` (:mod:`porphyra.server.cli`), ``python -m porphyra.server`` (the same
command) and :func:`porphyra.server.app.create_app` all take a :class:`ServerSettings`;
their defaults are this class's defaults and are written nowhere else (the command line's
options show them).  Importing this module is cheap (no web stack), so the command line
can read the defaults without loading the server.

One default worth knowing: ``bot_pace`` is 0.6 seconds everywhere (the pace a person can
follow); tests and benchmarks that want bots at once pass ``bot_pace=0.0``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Seconds between two heartbeats of a hub.
HEARTBEAT_S = 5.0

#: Seconds a cluster server's game stays its own without a heartbeat (``--lease``).
DEFAULT_LEASE_S = 15.0

#: Games one client address may create (moving window).
CREATE_LIMIT = "30/minute"
#: Reads of stored games one client address may make (moving window): a replay or an
#: unloaded game's info replays its whole record, so an unlimited client could keep a core
#: busy with them.  A person in the lobby makes a few a minute.
READ_LIMIT = "300/minute"
#: Messages one websocket connection may send (moving window).
MESSAGE_LIMIT = "20/second"
#: Chat lines one seat (or one spectator connection) may write (moving window).
CHAT_LIMIT = "5 per 10 seconds"
#: Chat lines all the spectators of one table may write together, from any number of
#: addresses (moving window; issue 32 §7): twelve addresses once wrote 60 lines in seconds.
SPECTATOR_TABLE_CHAT_LIMIT = "10/minute"
#: Hints one client address may ask for (moving window): each is a search of the hint
#: bot, and one address running many games must not keep the bots of everyone else's
#: tables waiting (issue 33 §3).  A person asks a few a minute.
HINT_LIMIT = "20/minute"
#: Sign-in attempts one client address may make (moving window; issue 32 §1).
SIGNIN_LIMIT = "10/minute"
#: Sign-in attempts for one user name, from anywhere (moving window): a password guesser
#: spread over many addresses still gets a handful a minute.
SIGNIN_NAME_LIMIT = "5/minute"
#: Accounts one client address may create (moving window).
SIGNUP_LIMIT = "10/hour"
#: Open tables (made with open or invited seats) one account, and one client address, may
#: create; seats they may take (issue 32 §7; :mod:`porphyra.server.opentables`).
OPEN_TABLE_LIMIT = "10/hour"
TAKE_SEAT_LIMIT = "30/minute"
#: Quick-match queue joins one account, and one client address, may make (issue 32 §2, §7;
#: :mod:`porphyra.server.quickmatch`).
QUEUE_LIMIT = "20/hour"
#: Seconds an open table nobody joins stays listed (then it expires; issue 32 §7).
OPEN_TABLE_EXPIRY_S = 24 * 3600.0
#: Seconds a session lasts after sign-in (30 days).
SESSION_MAX_AGE_S = 30 * 24 * 3600
#: Bot-only games that may be active at once.
MAX_BOT_GAMES = 8
#: Websockets open at once on one seat (a few browser tabs of its player).
MAX_SEAT_CONNECTIONS = 4
#: Websockets open at once from one client address (seats and spectators, every game).
MAX_CLIENT_CONNECTIONS = 32


@dataclass(frozen=True)
class ServerSettings:
    """Everything an operator or a test may set about one server process.

    Attributes:
        host / port: the interface and TCP port :func:`porphyra.server.main.serve` listens
            on (``create_app`` does not listen).
        db_url: any SQLAlchemy URL; None: an SQLite file ``porphyra.sqlite3`` in
            ``data_dir``.
        data_dir: directory of the default database; None: ``$PORPHYRA_DATA_DIR``, else
            ``$XDG_DATA_HOME/porphyra``, else ``~/.local/share/porphyra``.
        bot_workers: processes for bot seats; None: the CPU count; 0: a thread pool.
        log_level: uvicorn's log level.
        compression: negotiate permessage-deflate on websockets (a CPU cost; off).
        allowed_origins: websocket ``Origin`` values allowed besides the server's own
            (``"*"``: any); see :func:`porphyra.server.security.origin_allowed`.
        allowed_hosts: ``Host`` names the server answers to (``*.example.org`` patterns);
            None: any for ``create_app``, and for ``serve`` the loopback names when
            ``host`` is loopback (against DNS rebinding).
        forwarded_allow_ips: reverse proxies whose ``X-Forwarded-For`` is believed
            (uvicorn's comma-separated list, ``*``); None: none.
        create_limit / read_limit / message_limit / chat_limit / hint_limit: limits in
            the ``limits``
            notation (``"30/minute"``); None: no limit (see :mod:`porphyra.server.quotas`).
        spectator_table_chat_limit: chat lines of all the spectators of one table
            together, whatever their addresses (``limits`` notation; None: no limit).
        max_bot_games: bot-only games running at once; None: any.
        max_seat_connections / max_client_connections: websockets open at once per seat
            token and per client address; None: any.
        idle_after: seconds before a game nobody uses is released from memory.
        hint_bot: the bot spec that answers hints (on the asking seat's view only).
        bot_pace: least seconds between a move and the next bot move at a table with a
            person, so that the bots' moves can be followed (0: at once).
        heartbeat_s: real seconds between two heartbeats of the hub.
        clock_poll: real seconds between two looks for clocks out of time.
        cluster_address: this process is one of several servers on one database, reached
            at this base URL (``http://host:port``); None: the database's only server.
        lease_s: with ``cluster_address``, seconds a game stays this process's without a
            heartbeat.
        signin_limit / signin_name_limit / signup_limit: sign-in attempts per client
            address and per user name, sign-ups per address (``limits`` notation; None: no
            limit; see :mod:`porphyra.server.accounts`).
        session_max_age_s: seconds a session lasts after sign-in.
        open_table_limit / take_seat_limit: open tables created, and open seats taken,
            per account and per client address (``limits`` notation; None: no limit;
            see :mod:`porphyra.server.opentables`).
        queue_limit: quick-match joins per account and per client address (``limits``
            notation; None: no limit; see :mod:`porphyra.server.quickmatch`).
        open_table_expiry_s: seconds after which an open table that still waits for a
            player expires (it leaves the lobby's list and its seats can no longer be
            taken); None: never.
        push_contact: the VAPID contact (``mailto:`` or ``https:`` URL) sent to push
            services with each turn alert (see :mod:`porphyra.server.push`).
        push_private_endpoints: accept push endpoints over ``http`` and at private or
            loopback addresses (tests only: otherwise a subscription could make the
            server call its own network).
        secure_cookies: give the session cookie ``Secure``; None: when the request came
            over HTTPS (see :mod:`porphyra.server.sessions`).

    The values are checked where they are used (a limit by :mod:`.quotas`, a lease by
    :mod:`.owners`), each with a ``ValueError`` that names the problem.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    db_url: str | None = None
    data_dir: str | Path | None = None
    bot_workers: int | None = None
    log_level: str = "info"
    compression: bool = False
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] | None = None
    forwarded_allow_ips: str | None = None
    create_limit: str | None = CREATE_LIMIT
    read_limit: str | None = READ_LIMIT
    message_limit: str | None = MESSAGE_LIMIT
    chat_limit: str | None = CHAT_LIMIT
    hint_limit: str | None = HINT_LIMIT
    spectator_table_chat_limit: str | None = SPECTATOR_TABLE_CHAT_LIMIT
    max_bot_games: int | None = MAX_BOT_GAMES
    max_seat_connections: int | None = MAX_SEAT_CONNECTIONS
    max_client_connections: int | None = MAX_CLIENT_CONNECTIONS
    idle_after: float = 300.0
    hint_bot: str = "hard"
    bot_pace: float = 0.6
    heartbeat_s: float = HEARTBEAT_S
    clock_poll: float = 0.25
    cluster_address: str | None = None
    lease_s: float = DEFAULT_LEASE_S
    signin_limit: str | None = SIGNIN_LIMIT
    signin_name_limit: str | None = SIGNIN_NAME_LIMIT
    signup_limit: str | None = SIGNUP_LIMIT
    session_max_age_s: int = SESSION_MAX_AGE_S
    open_table_limit: str | None = OPEN_TABLE_LIMIT
    take_seat_limit: str | None = TAKE_SEAT_LIMIT
    queue_limit: str | None = QUEUE_LIMIT
    open_table_expiry_s: float | None = OPEN_TABLE_EXPIRY_S
    push_contact: str = "mailto:porphyra@localhost"
    push_private_endpoints: bool = False
    secure_cookies: bool | None = None

    def __post_init__(self) -> None:
        # Sequences given as lists (a command line's repeated option) are kept as tuples,
        # so the settings stay hashable and equal settings compare equal.
        object.__setattr__(self, "allowed_origins", tuple(self.allowed_origins))
        if self.allowed_hosts is not None:
            object.__setattr__(self, "allowed_hosts", tuple(self.allowed_hosts))


#: The defaults (what every entry point gets when given nothing).
DEFAULTS = ServerSettings()
