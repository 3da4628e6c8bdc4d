"""``python -m porphyra``: the same as the ``porphyra`` console command."""

from porphyra.cli import main

if __name__ == "__main__":
    main()
