"""Play in the browser: web server, lobby, seats, spectators and saved games.

``porphyra.server.main.serve`` runs it (``porphyra serve`` / ``python -m porphyra.server``);
:func:`porphyra.server.app.create_app` builds the FastAPI application;
:mod:`porphyra.server.runner` gathers the authoritative match runner (:mod:`.match`), the
hub of all games (:mod:`.hub`), the bot pool (:mod:`.botpool`) and replay/undo
(:mod:`.replay`); :mod:`.storage` keeps every game as its record plus seats;
:mod:`.protocol` describes the websocket messages; :mod:`.security` (Origin, hosts,
headers), :mod:`.quotas` (limits per client) and :mod:`.incidents` (error ids) guard it;
the browser UI lives in ``static/`` (plain HTML, CSS and JavaScript, no external assets).
"""
