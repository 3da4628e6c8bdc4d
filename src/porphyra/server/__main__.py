"""``python -m porphyra.server``: run the web server (see :func:`porphyra.server.cli.main`)."""

from porphyra.server.cli import main

main()
