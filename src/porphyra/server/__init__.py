"""Play in the browser: web server, lobby, seats, spectators and saved games.

``porphyra.server.main.serve`` runs it (``porphyra serve`` / ``python -m porphyra.server``,
:mod:`.cli`), with one :class:`~porphyra.server.settings.ServerSettings`;
:func:`porphyra.server.app.create_app` builds the FastAPI application from the router
modules of :mod:`.routes` (lobby, play socket, records, pages, tutorials).  :mod:`.hub` is
the hub of all games, :mod:`.match` the authoritative match runner of one game, given its
collaborators through :mod:`.ports`; :mod:`.storage` keeps every game as its record plus
seats.  The browser UI lives in ``static/`` (plain HTML, CSS and JavaScript, no external
assets).  ``docs/architecture.md`` draws the modules and their imports and walks one
action through them.
"""

# The heartbeat and the lease's defaults live with the other settings (one home); their
# names stay importable from here.
from porphyra.server.settings import DEFAULT_LEASE_S, HEARTBEAT_S

__all__ = ["DEFAULT_LEASE_S", "HEARTBEAT_S"]
