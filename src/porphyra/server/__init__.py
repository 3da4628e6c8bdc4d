"""Play in the browser: web server, lobby, seats, spectators and saved games.

``porphyra.server.main.serve`` runs it (``porphyra serve`` / ``python -m porphyra.server``);
:func:`porphyra.server.app.create_app` builds the FastAPI application;
:mod:`.match` is the authoritative match runner of one game, :mod:`.hub` the hub of all
games, :mod:`.client` a websocket connection, :mod:`.botpool` the bot pool and
:mod:`.replay` replay/undo; :mod:`.storage` keeps every game as its record plus seats and
:mod:`.dbfile` checks a SQLite file before it is opened; :mod:`.protocol` describes the
websocket messages; :mod:`.security` (Origin, hosts, headers), :mod:`.quotas` (limits per
client) and :mod:`.incidents` (error ids) guard it; the browser UI lives in ``static/``
(plain HTML, CSS and JavaScript, no external assets).  The tables' clocks are kept by
:mod:`porphyra.clocks` and, for a running game, :mod:`.seatclock`; :mod:`.errors` holds the
runner's refusals; :mod:`.settings` is the one settings object every entry point reads.
"""

# The heartbeat and the lease's defaults live with the other settings (one home); their
# names stay importable from here.
from porphyra.server.settings import DEFAULT_LEASE_S, HEARTBEAT_S

__all__ = ["DEFAULT_LEASE_S", "HEARTBEAT_S"]
