"""The games: each a subpackage implementing the contract of :mod:`porphyra.core.game`."""
