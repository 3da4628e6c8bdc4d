"""Tests of the terminal client (``porphyra.cli``)."""
