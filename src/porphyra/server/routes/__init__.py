"""The HTTP and websocket surface of the server, one router module per concern.

:mod:`.pages` the pages and their assets, :mod:`.lobby` the lobby and its games,
:mod:`.records` finished games' records and replays, :mod:`.play` the play socket,
:mod:`.learn` the tutorials.  Their shared dependencies are in
:mod:`porphyra.server.deps`; :func:`porphyra.server.app.create_app` includes them all.
"""
