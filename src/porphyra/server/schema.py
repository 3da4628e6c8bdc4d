"""The database's tables (SQLAlchemy Core) of the web server's storage
(:mod:`porphyra.server.storage`).

Tables:

``games``    id, game name, rules version, options (JSON), the seed (``seed_text``: decimal
             text, as seeds have 128 bits and more; the legacy 64-bit ``seed`` column holds
             -1 for such rows and the whole seed only in games stored before), ``deal``
             (``secret``: drawn by the server; ``chosen``: given by the creator, an unrated
             table shown as such; NULL for older rows), status (``active`` / ``over``),
             result (JSON), ``seq`` (the message number of the last change), created /
             updated (UTC ISO-8601), ``table_options`` (JSON text: the table's choices,
             ``{"hints": bool, "spectator_chat": bool}``; NULL for older rows: no hints
             beyond bot tables, spectators read the chat only), ``rematch`` (the id of the
             game started as this one's rematch, or NULL), ``clock`` (the table's clocks
             and clock events as JSON text, see :mod:`porphyra.clocks`; NULL for older
             rows: no clock).
``actions``  (game id, index, player, action text): the record's action list, one row per
             action, so that an action is written with a single small insert (undo deletes
             a suffix; a simultaneous choice that the engine puts before one stored earlier
             rewrites the suffix from there, in the same transaction).
``seats``    (game id, seat index), kind (``human`` / ``bot``), bot spec, display name,
             SHA-256 of the seat token (the token itself is never stored).  (Databases
             written by earlier versions also hold a ``queued`` column, no longer read:
             early simultaneous choices are now actions of the record.)
``chat``     (game id, index), the writer's seat (-1: a spectator), the text and the time
             (UTC ISO-8601): the table's chat, saved with the game.
``server_state`` (key, value): ``alive``, the server's last heartbeat (epoch seconds).
``owners``   (game id), server id, ``lease_until`` (epoch seconds): which server process
             runs the game, when several share the database (:mod:`porphyra.server.owners`;
             empty for a single server).
``servers``  (server id), its address, its last heartbeat (epoch seconds): the server
             processes sharing the database.
``reviews``  (key: the record's digest, the seat and the review settings), game id, seat,
             the finished review (JSON text) and when it was made (UTC ISO-8601): game
             reviews kept with the game, so that a review is computed once
             (:mod:`porphyra.server.reviewstore`).
``accounts`` (id), the user name as shown, its skeleton (``name_key``, unique: no two
             confusable names, :mod:`porphyra.server.names`), the Argon2id hash of the
             password, created / deleted (UTC ISO-8601).  A deleted account keeps its id
             (what seats, and later ratings and profiles, reference) with its name, key and
             hash cleared.
``sessions`` (SHA-256 of the session's cookie value; the value itself is never stored),
             the account id, created / expires (epoch seconds): who is signed in
             (:mod:`porphyra.server.sessions`).
``push_subscriptions`` Web Push subscriptions of seats (issue 32 §5,
             :mod:`porphyra.server.push`).
``quick_queue`` the accounts waiting for a quick match (issue 32 §2,
             :mod:`porphyra.server.matchqueue`).
             A seat's ``account_id`` names the account that claimed it (NULL: a guest).
             A seat's ``open_to`` marks an open seat (issue 32 §2): 0, any signed-in
             account may take it; an account id, only that invited account may; NULL,
             the seat has its player.  A game's ``creator_id`` and ``rated_wish`` are
             the account that opened the table and whether it asked for a rated game.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    cast,
    inspect,
)

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("version", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", Integer, nullable=False),  # legacy: -1 when seed_text holds the seed
    Column("seed_text", Text, nullable=True),
    Column("deal", String(16), nullable=True),
    Column("status", String(16), nullable=False, index=True),
    Column("result", JSON, nullable=True),
    Column("seq", Integer, nullable=False, default=0),
    Column("created", String(40), nullable=False),
    Column("updated", String(40), nullable=False),
    Column("table_options", Text, nullable=True),
    Column("rematch", String(32), nullable=True),
    # The table's clocks and clock events (JSON text of ``TableClock.dumps``; NULL for
    # games stored before clocks: no clock).
    Column("clock", Text, nullable=True),
    # Open tables (issue 32 §2): the account that created the table (NULL: none, or a
    # table without open seats) and its wish for a rated game (1 / 0 or NULL).
    Column("creator_id", Integer, nullable=True),
    Column("rated_wish", Integer, nullable=True),
)

actions_table = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("player", Integer, nullable=False),
    Column("action", Text, nullable=False),
)

#: Server-wide values: ``alive``, the epoch seconds of the last heartbeat of the running
#: server (after a restart, the time since then is not charged to any clock).
server_table = Table(
    "server_state",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

seats_table = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("bot", String(200), nullable=True),
    Column("name", String(80), nullable=False),
    Column("token_hash", String(64), nullable=True, index=True),
    # The account that holds this seat (NULL: a guest; added after the first release).
    Column("account_id", Integer, nullable=True, index=True),
    # An open seat (issue 32 §2): 0, any signed-in account may take it; an account id,
    # only that (invited) account may; NULL, the seat has its player or bot.
    Column("open_to", Integer, nullable=True),
)

chat_table = Table(
    "chat",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", String(40), nullable=False),
)

#: Which server process runs each game when several share the database (the one whose row
#: names it, until ``lease_until``; see :mod:`porphyra.server.owners`).
owners_table = Table(
    "owners",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("server_id", String(64), nullable=False, index=True),
    Column("lease_until", Float, nullable=False),
)

#: The server processes sharing the database: where each answers, and its last heartbeat.
servers_table = Table(
    "servers",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("address", Text, nullable=False),
    Column("heartbeat", Float, nullable=False),
)

#: Finished game reviews, by the key of what was reviewed (:mod:`porphyra.server.reviewstore`).
reviews_table = Table(
    "reviews",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("review", Text, nullable=False),
    Column("created", String(40), nullable=False),
)

#: Accounts (issue 32 §1); the id is what seats, ratings and profiles reference.
accounts_table = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=True),
    Column("name_key", String(200), nullable=True, unique=True),
    Column("password_hash", String(200), nullable=True),
    Column("created", String(40), nullable=False),
    Column("deleted", String(40), nullable=True),
)

#: Server-side sessions: the SHA-256 of the cookie's value, whose account, until when.
sessions_table = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

#: The quick-match queue (issue 32 §2; :mod:`porphyra.server.matchqueue`): one row per
#: waiting account (so it cannot queue twice): what it waits for (game, player count,
#: clock kind), its rating when it joined, when it joined and, once a matcher took it,
#: when (``claimed``, epoch seconds) and the table made for it (``match_id``, its seat).
queue_table = Table(
    "quick_queue",
    metadata,
    Column("account_id", Integer, primary_key=True, autoincrement=False),
    Column("game", String(64), nullable=False, index=True),
    Column("players", Integer, nullable=False),
    Column("clock", String(16), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("joined", Float, nullable=False),
    Column("claimed", Float, nullable=True),
    Column("match_id", String(32), nullable=True),
    Column("match_seat", Integer, nullable=True),
)

#: Web Push subscriptions (issue 32 §5; :mod:`porphyra.server.push`): one seat's browser
#: (its push service's endpoint and keys), the language of its alerts, when it was made
#: and when it was last alerted (epoch seconds; NULL: since answered, or never).
push_table = Table(
    "push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("endpoint", Text, nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("created", Float, nullable=False),
    Column("last_alert", Float, nullable=True),
)

#: Current ratings (issue 32 §3): one row per account, game and player count.
ratings_table = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("players", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", String(40), nullable=False),
)

#: Each rated table's game once, in the order the games ended (``seq``), and whether it
#: changed ratings (``outcome``: ``rated``, or the reason it did not).
rated_games_table = Table(
    "rated_games",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, unique=True),
    Column("ended", String(40), nullable=False),
    Column("outcome", String(40), nullable=False),
)

#: An account's rating after each rated game (the profile's chart).
rating_history_table = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("seq", Integer, nullable=False, index=True),
    Column("game_id", String(32), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", String(40), nullable=False),
)

# JSON columns read as text and parsed per row, so that one damaged row is reported as
# that game's problem instead of failing the whole query.
RAW_OPTIONS = cast(games_table.c.options, Text).label("options")
RAW_RESULT = cast(games_table.c.result, Text).label("result")
GAME_COLUMNS = [
    RAW_OPTIONS if c.name == "options" else RAW_RESULT if c.name == "result" else c
    for c in games_table.c
]

#: Columns added after the first release: ``(name, SQL type)``, added at start-up to a
#: database created before them (``ALTER TABLE ... ADD COLUMN``, on SQLite and PostgreSQL).
ADDED_GAME_COLUMNS = (
    ("seed_text", "TEXT"),
    ("deal", "VARCHAR(16)"),
    ("table_options", "TEXT"),
    ("rematch", "VARCHAR(32)"),
    ("clock", "TEXT"),
    ("creator_id", "INTEGER"),
    ("rated_wish", "INTEGER"),
)


#: Columns of ``seats`` added after the first release, as :data:`ADDED_GAME_COLUMNS`.
ADDED_SEAT_COLUMNS = (("account_id", "INTEGER"), ("open_to", "INTEGER"))


def add_missing_columns(engine: Engine) -> None:
    """Bring a database created by an older release up to :data:`games_table` and
    :data:`seats_table`."""
    for table, added in (("games", ADDED_GAME_COLUMNS), ("seats", ADDED_SEAT_COLUMNS)):
        present = {c["name"] for c in inspect(engine).get_columns(table)}
        with engine.begin() as conn:
            for name, sql_type in added:
                if name not in present:
                    conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {name} {sql_type}")
