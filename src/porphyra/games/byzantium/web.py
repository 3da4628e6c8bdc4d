"""What Byzantium brings to the web server (:class:`~porphyra.core.adapters.WebHooks`):
the end screen's turn-by-turn course, and the draw piles of a finished game's replay.

Both are for finished games only (the server refuses them before the end); the course
reads public observations only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from porphyra.core.adapters import WebHooks
from porphyra.core.game import Game, State
from porphyra.i18n import N_


def _forces(game: Game) -> dict[str, int]:
    """Each card's force by slug, from ``game.card_data()`` (built once per summary)."""
    cards = game.card_data().get("cards", {})
    return {slug: int((card or {}).get("force") or 0) for slug, card in cards.items()}


def _force(forces: dict[str, int], slugs: list[str]) -> int:
    return sum(forces.get(s, 0) for s in slugs)


def summary(game: Game, observations: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Byzantium's turn-by-turn course from a finished game's public observations, in
    order: per turn the Emperor, the Territory and Legacy Tokens at its end, and both
    melds (cards and force as revealed, and after the negotiation).

    Returns:
        ``{"turns": [{"turn", "emperor", "territory", "legacy", "melds": {"byzantine" |
        "foe": {"cards", "force", "revealed", "revealed_force"}}, "negotiation"}],
        "start": {"territory", "legacy"}}``.
    """
    forces = _forces(game)
    turns: dict[int, dict[str, Any]] = {}
    start: dict[str, Any] = {}
    for obs in observations:
        if not start:
            start = {"territory": obs["territory"], "legacy": list(obs["legacy"])}
        turn = int(obs["turn"])
        entry = turns.setdefault(
            turn, {"turn": turn, "emperor": obs["emperor"], "melds": {}, "negotiation": None}
        )
        entry["territory"] = obs["territory"]
        entry["legacy"] = list(obs["legacy"])
        if obs.get("melds_turn") == turn:
            for deck, cards in obs["melds"].items():
                meld = entry["melds"].setdefault(
                    deck, {"revealed": list(cards), "revealed_force": _force(forces, cards)}
                )
                meld["cards"] = list(cards)
                meld["force"] = _force(forces, cards)
            if obs.get("negotiation"):
                entry["negotiation"] = dict(obs["negotiation"])
    return {"start": start, "turns": [turns[t] for t in sorted(turns)]}


def hidden(state: State) -> dict[str, Any]:
    """What the ``"all"`` view of a finished game's replay adds to the public one: the
    draw piles in order (next card first)."""
    s: Any = state
    cards = s._cs.cards
    decks = ("byzantine", "foe")
    return {"draw_piles": {decks[d]: [cards[k].slug for k in reversed(s.draw[d])] for d in (0, 1)}}


#: The web server's hooks (registered in :mod:`porphyra.core.registry`).
#: What a bot level is in Byzantium where it differs from the common words: on 200 paired
#: deals ``hard`` scored 51.5% [47.5-55.5] against ``medium`` (docs/results/levels).
BOT_TEXT = {
    "hard": N_("Hard: thinks 2 seconds a move; in Byzantium not measurably stronger than Medium"),
}

WEB = WebHooks(summary=summary, hidden=hidden, bot_text=BOT_TEXT)
