"""The balance lab's entry points: run a campaign and summarize it, compare two card sets.

:func:`run_lab` is what ``porphyra balance GAME`` runs; :func:`compare` runs the same campaign
on two Byzantium card files (``--compare A B``).  Both return JSON-ready summaries that
:func:`porphyra.balance.report.write` turns into ``summary.json`` and ``report.html``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from porphyra.balance import analysis
from porphyra.balance.campaign import Campaign, ProgressCallback, run_tasks
from porphyra.core.registry import load_game


def card_set_info(game: str, options: dict[str, Any]) -> dict[str, Any] | None:
    """The card set a campaign plays: ``{"name", "version", "source"}`` (Byzantium), else
    ``None``.

    Raises:
        UnknownGameError / CardDataError: invalid options or card file.
    """
    if game != "byzantium":
        return None
    cardset: Any = getattr(load_game(game, **options), "cardset")  # noqa: B009
    return {"name": cardset.name, "version": cardset.version, "source": cardset.source}


def run_lab(
    campaign: Campaign,
    command: str,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Play ``campaign`` and return its summary.

    Returns:
        ``{"command", "game", "options", "cards", "campaign", "pairings": [{"bots",
        "figures"}], "skill"}``; figures as :func:`porphyra.balance.analysis.summarize`.

    Raises:
        ValueError: an invalid campaign (no pairing, games < 1, bad bot spec).
        RuntimeError: a game failed, or Ray was asked for and is not installed.
    """
    cards = card_set_info(campaign.game, campaign.options)
    results = run_tasks(campaign.tasks(), workers, progress, ray_address)
    pairings = []
    for p, bots in enumerate(campaign.pairings):
        mine = [r for r in results if r["pairing"] == p]
        pairings.append({"bots": list(bots), "figures": analysis.summarize(campaign.game, mine)})
    return {
        "command": command,
        "game": campaign.game,
        "options": campaign.options,
        "cards": cards,
        "campaign": {
            "pairings": [list(b) for b in campaign.pairings],
            "games_per_pairing": campaign.games,
            "games_played": len(results),
            "seed": campaign.seed,
            "opponents": list(campaign.opponents),
        },
        "pairings": pairings,
        "skill": analysis.skill_table(results),
    }


#: The headline figures of a Byzantium pairing that ``--compare`` puts side by side.
HEADLINES: tuple[tuple[str, Sequence[str]], ...] = (
    ("first Emperor's share", ("first_emperor", "share")),
    ("collapses", ("collapse",)),
    ("collapses by turn 3", ("collapse_by_turn_3",)),
)


def compare(summaries: Sequence[dict[str, Any]], command: str) -> dict[str, Any]:
    """Side-by-side headline figures of the same campaign on several card sets.

    Returns:
        ``{"command", "compare": [card set infos], "rows": [{"pairing", "figure",
        "values": [rate dicts, one per card set]}], "summaries": summaries}``.
    """
    rows = []
    for i, pairing in enumerate(summaries[0]["pairings"]):
        for label, path in HEADLINES:
            values = []
            for summary in summaries:
                value: Any = summary["pairings"][i]["figures"]
                for key in path:
                    value = value[key]
                values.append(value)
            rows.append({"pairing": pairing["bots"], "figure": label, "values": values})
    return {
        "command": command,
        "compare": [s["cards"] for s in summaries],
        "rows": rows,
        "summaries": list(summaries),
    }
