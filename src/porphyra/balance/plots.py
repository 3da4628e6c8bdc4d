"""The balance report's plots (matplotlib, rendered to PNG without a display and inlined as
``data:`` URIs, so ``report.html`` is one self-contained file).

Colours mean something across every plot: Byzantine cards and the first Emperor are purple
(:data:`BYZANTINE`), Foe cards red (:data:`FOE`), the second Emperor blue, Territory
green; a dashed grey line marks the fair value.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from typing import Any

#: Colours: the Empire's purple, the Foe's red, the second Emperor's blue, Territory green.
BYZANTINE = "#6a1b9a"
FOE = "#c62828"
SECOND = "#1565c0"
TERRITORY = "#2e7d32"


def label(pairing: dict[str, Any]) -> str:
    """``"easy vs medium"``: a pairing's name in titles."""
    return " vs ".join(pairing["bots"])


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("the report needs matplotlib: pip install 'porphyra[balance]'") from None
    return plt


def _advantage_plot(
    plt: Any, labels: Sequence[str], figures: Sequence[dict[str, Any]], fair: float, title: str
) -> str:
    fig, ax = plt.subplots(figsize=(6.5, 0.6 + 0.5 * len(labels)))
    for i, f in enumerate(figures):
        share = f["share"]
        lo, hi = share["ci95"]
        ax.errorbar(
            100 * share["rate"],
            i,
            xerr=[[100 * (share["rate"] - lo)], [100 * (hi - share["rate"])]],
            fmt="o",
            capsize=4,
            color=BYZANTINE,
        )
        ax.annotate(
            f"{100 * share['rate']:.1f}% of {share['n']}",
            (100 * hi, i),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    ax.axvline(100 * fair, color="grey", linestyle="--", linewidth=1)
    ax.margins(x=0.2)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_xlabel("share of results, % (win 1, draw ½); Wilson 95% interval; dashed: fair")
    ax.set_title(title)
    return _png(fig)


def _cards_plot(
    plt: Any, rows: Sequence[tuple[str, dict[str, Any]]], colour: str, title: str
) -> str:
    """Within-game win-rate differences of one side's cards, in points, with the games
    behind each."""
    fig, ax = plt.subplots(figsize=(7, 0.7 + 0.2 * len(rows)))
    for i, (_name, d) in enumerate(rows):
        x, lo, hi = (100 * d["diff"], 100 * d["ci95"][0], 100 * d["ci95"][1])
        ax.errorbar(x, i, xerr=[[x - lo], [hi - x]], fmt="o", markersize=3, capsize=2,
                    color=colour)  # fmt: skip
        ax.annotate(
            f"{x:+.0f} ({d['games']} games)",
            (hi, i),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=6,
        )
    ax.axvline(0, color="grey", linewidth=1)
    for edge in (-8, 8):
        ax.axvline(edge, color="grey", linestyle=":", linewidth=1)
    ax.set_yticks(range(len(rows)), [n for n, _ in rows], fontsize=6)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlim(-105, 130)
    ax.set_xlabel(
        "win-rate difference when melded, points (within games; 95% interval); dotted: ±8"
    )
    ax.set_title(title)
    return _png(fig)


def byzantium_plots(
    plt: Any, pairings: Sequence[dict[str, Any]], cards_list: dict[str, Any] | None = None
) -> list[tuple[str, str]]:
    """The Byzantium report's plots, as ``(title, data URI)``: the first Emperor's share,
    collapses by turn, the TT and LT curves, and per pairing the cards of each side."""
    out = []
    labels = [label(p) for p in pairings]
    out.append(
        (
            "First Emperor's share",
            _advantage_plot(
                plt,
                labels,
                [p["figures"]["first_emperor"] for p in pairings],
                0.5,
                "First Emperor's share of results",
            ),
        )
    )
    fig, ax = plt.subplots(figsize=(6.5, 3))
    width = 0.8 / max(1, len(pairings))
    for i, p in enumerate(pairings):
        games = p["figures"]["games"]
        by_turn = p["figures"]["collapses_by_turn"]
        heights = [100 * by_turn[str(t)] / games for t in range(1, 13)]
        xs = [t + i * width for t in range(1, 13)]
        ax.bar(xs, heights, width=width, label=f"{label(p)} ({games} games)",
               color=FOE if i == 0 else None, alpha=1 if i == 0 else 0.7)  # fmt: skip
        for x, h, t in zip(xs, heights, range(1, 13), strict=True):
            if by_turn[str(t)]:
                ax.annotate(str(by_turn[str(t)]), (x, h), ha="center", va="bottom", fontsize=6)
    ax.set_xticks(range(1, 13))
    ax.set_xlabel("turn of the collapse")
    ax.set_ylabel("% of games (count above the bar)")
    ax.set_title("Empire collapses by turn (the rest are full games)")
    ax.legend(fontsize=8)
    out.append(("Collapses by turn", _png(fig)))
    for p in pairings:
        curves = p["figures"]["curves"]
        fig, ax = plt.subplots(figsize=(6.5, 3))
        for key, name, colour in (
            ("territory", "TT", TERRITORY),
            ("legacy_first_emperor", "LT first Emperor", BYZANTINE),
            ("legacy_second_emperor", "LT second Emperor", SECOND),
        ):
            turns = [int(t) for t, q in curves[key].items() if q]
            qs = [curves[key][str(t)] for t in turns]
            ax.plot(turns, [q[1] for q in qs], label=f"{name} (median)", color=colour)
            ax.fill_between(turns, [q[0] for q in qs], [q[2] for q in qs], alpha=0.2, color=colour)
        ax.set_xlabel("start of turn (13 = end of a full game)")
        ax.set_ylabel("tokens (median, quartiles shaded)")
        ax.set_title(f"Territory and Legacy Tokens — {label(p)}")
        ax.legend(fontsize=8)
        out.append((f"Curves — {label(p)}", _png(fig)))
        out += _card_plots(plt, p, cards_list or {})
    return out


def _card_plots(
    plt: Any, pairing: dict[str, Any], listing: dict[str, Any]
) -> list[tuple[str, str]]:
    out = []
    for side, colour, title in (("byzantine", BYZANTINE, "Byzantine"), ("foe", FOE, "Foe")):
        rows = sorted(
            (
                (listing.get(slug, {}).get("name", slug), c["win_rate_difference"])
                for slug, c in pairing["figures"]["cards"].items()
                if c["win_rate_difference"]["diff"] is not None
                and listing.get(slug, {}).get("deck", side) == side
            ),
            key=lambda x: x[1]["diff"],
        )
        if rows:
            name = f"{title} cards — {label(pairing)}"
            out.append((name, _cards_plot(plt, rows, colour, name)))
    return out


def conspiracy_plots(plt: Any, pairings: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """The Conspiracy report's plots, as ``(title, data URI)``: seat order, solo win rates
    and the turn the game ended."""
    out = []
    for p in pairings:
        f = p["figures"]
        if "seat_order" in f:
            labels = [f"position {k}" for k in f["seat_order"]]
            fair = 1 / len(labels)
            out.append(
                (
                    f"Seat order — {label(p)}",
                    _advantage_plot(
                        plt,
                        labels,
                        list(f["seat_order"].values()),
                        fair,
                        f"Seat order — {label(p)}",
                    ),
                )
            )
        if "solo" in f:
            labels = list(f["solo"])
            fig, ax = plt.subplots(figsize=(6.5, 0.5 + 0.45 * len(labels)))
            for i, lo in enumerate(labels):
                r = f["solo"][lo]
                x = 100 * r["rate"]
                ax.errorbar(
                    x,
                    i,
                    xerr=[[x - 100 * r["ci95"][0]], [100 * r["ci95"][1] - x]],
                    fmt="o",
                    capsize=4,
                    color=SECOND,
                )
                ax.annotate(f"{x:.1f}% of {r['n']}", (100 * r["ci95"][1], i), xytext=(6, 0),
                            textcoords="offset points", va="center", fontsize=8)  # fmt: skip
            ax.set_yticks(range(len(labels)), labels)
            ax.set_xlabel("win rate against the Legendary Opponent, % (Wilson 95%)")
            out.append((f"Solo — {label(p)}", _png(fig)))
        fig, ax = plt.subplots(figsize=(6.5, 3))
        turns = list(f["end_turn"])
        ax.bar([int(t) for t in turns], [f["end_turn"][t] for t in turns])
        ax.set_xlabel("turn the game ended")
        ax.set_ylabel("games")
        ax.set_title(f"End of the game — {label(p)}")
        out.append((f"End turn — {label(p)}", _png(fig)))
    return out
