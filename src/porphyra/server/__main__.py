"""``python -m porphyra.server``: run the web server (see :func:`porphyra.server.main.main`)."""

from porphyra.server.main import main

main()
