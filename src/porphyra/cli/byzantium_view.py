"""Terminal rendering of Byzantium (placeholder until the engine lands)."""

from __future__ import annotations

from porphyra.cli.views import GameView


class ByzantiumView(GameView):
    """Byzantium view."""
