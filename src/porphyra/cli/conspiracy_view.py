"""Terminal rendering of Conspiracy (placeholder until the engine lands)."""

from __future__ import annotations

from porphyra.cli.views import GameView


class ConspiracyView(GameView):
    """Conspiracy view."""
