"""What a game brings to the balance lab (its balance figures), registered with the
registry as the ``"balance"`` adapter (:func:`porphyra.core.registry.adapter`), so that
the lab, its report and ``porphyra balance`` name no game.

:data:`BYZANTIUM` and :data:`CONSPIRACY` are the two games' hooks; a third game registers
its own :class:`BalanceHooks`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from porphyra.balance import analysis, plots
from porphyra.balance.collect import ByzantiumCollector, Collector, ConspiracyCollector
from porphyra.core.registry import adapter, registered_games

Figures = dict[str, Any]


@dataclass(frozen=True)
class BalanceHooks:
    """A game's part of the balance lab.

    Attributes:
        collector: a fresh statistics collector for one game (:mod:`.collect`).
        summarize: one pairing's figures from its games' statistics (:mod:`.analysis`).
        shares: the headline rates of one pairing's figures (each ``{"rate", "ci95", ...}``):
            the lab samples until the widest of their intervals is narrow enough.
        plots: the report's plots, ``(title, data URI)``, from ``(pyplot, summary)``.
        sections: the report's sections of the game's own figures (HTML parts).
        headline: the columns of ``porphyra balance``'s headline table after "pairing",
            "games" and "distinct" (each ``(title, justify)``), and the cells of one
            pairing's row in them (text).
        decks: the game plays a card list a designer edits: ``--compare``, ``--set`` and
            ``--tune``, the card set in the summary and ``cards.csv`` apply to it.
    """

    collector: Callable[[], Collector]
    summarize: Callable[[Sequence[dict[str, Any]]], Figures]
    shares: Callable[[Figures], list[dict[str, Any]]]
    plots: Callable[[Any, dict[str, Any]], list[tuple[str, str]]]
    sections: Callable[[dict[str, Any]], list[str]]
    headline: tuple[tuple[tuple[str, str], ...], Callable[[Figures], list[str]]]
    decks: bool = False


def balance_hooks(game: str) -> BalanceHooks:
    """The balance lab's hooks of ``game``.

    Raises:
        ValueError: the lab does not know the game (unknown, or it registers none).
    """
    hooks = adapter(game, "balance") if game in registered_games() else None
    if not isinstance(hooks, BalanceHooks):
        raise ValueError(f"the balance lab does not know the game {game!r}")
    return hooks


def deck_games() -> list[str]:
    """The registered games whose balance lab edits card lists (``decks``), sorted."""
    return [g for g in registered_games() if (h := adapter(g, "balance")) and h.decks]


def percent(r: dict[str, Any]) -> str:
    """``"52.3% [49.1–55.4]"``: a rate and its 95% interval; ``"–"`` without a rate."""
    if r.get("rate") is None:
        return "–"
    return f"{100 * r['rate']:.1f}% [{100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f}]"


def _byzantium_plots(plt: Any, summary: dict[str, Any]) -> list[tuple[str, str]]:
    cards = (summary.get("cards") or {}).get("list")
    return plots.byzantium_plots(plt, summary["pairings"], cards)


def _byzantium_sections(summary: dict[str, Any]) -> list[str]:
    from porphyra.balance.report import byzantium_sections

    return byzantium_sections(summary)


def _byzantium_row(f: Figures) -> list[str]:
    return [
        percent(f["first_emperor"]["share"]),
        str(f["first_emperor"]["p_value"]),
        percent(f["collapse"]),
        percent(f["collapse_by_turn_3"]),
    ]


def _conspiracy_shares(f: Figures) -> list[dict[str, Any]]:
    shares = [a["share"] for a in f.get("seat_order", {}).values()]
    return shares + list(f.get("solo", {}).values())


def _conspiracy_plots(plt: Any, summary: dict[str, Any]) -> list[tuple[str, str]]:
    return plots.conspiracy_plots(plt, summary["pairings"])


def _conspiracy_sections(summary: dict[str, Any]) -> list[str]:
    from porphyra.balance.report import conspiracy_sections

    return conspiracy_sections(summary)


def _conspiracy_row(f: Figures) -> list[str]:
    parts = [f"pos {k}: {percent(a['share'])}" for k, a in f.get("seat_order", {}).items()]
    parts += [f"{lo}: {percent(r)}" for lo, r in f.get("solo", {}).items()]
    return ["\n".join(parts)]


BYZANTIUM = BalanceHooks(
    collector=ByzantiumCollector,
    summarize=analysis.byzantium,
    shares=lambda f: [f["first_emperor"]["share"]],
    plots=_byzantium_plots,
    sections=_byzantium_sections,
    headline=(
        tuple((col, "right") for col in ("first Emperor's share", "p", "collapses", "by turn 3")),
        _byzantium_row,
    ),
    decks=True,
)

CONSPIRACY = BalanceHooks(
    collector=ConspiracyCollector,
    summarize=analysis.conspiracy,
    shares=_conspiracy_shares,
    plots=_conspiracy_plots,
    sections=_conspiracy_sections,
    headline=((("seat order / solo", "left"),), _conspiracy_row),
)
