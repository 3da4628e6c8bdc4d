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
    fig, ax = plt.subplots(figsize=(6.5, 0.5 + 0.45 * len(labels)))
    for i, f in enumerate(figures):
        share = f["share"]
        lo, hi = share["ci95"]
        ax.errorbar(
            share["rate"], i, xerr=[[share["rate"] - lo], [hi - share["rate"]]], fmt="o", capsize=4
        )
    ax.axvline(fair, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("share of results (win 1, draw ½), Wilson 95% interval")
    ax.set_title(title)
    return _png(fig)


def byzantium_plots(plt: Any, pairings: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
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
        ax.bar(
            [t + i * width for t in range(1, 13)],
            [100 * by_turn[str(t)] / games for t in range(1, 13)],
            width=width,
            label=label(p),
        )
    ax.set_xlabel("turn of the collapse")
    ax.set_ylabel("% of games")
    ax.set_title("Empire collapses by turn (the rest are full games)")
    ax.legend(fontsize=8)
    out.append(("Collapses by turn", _png(fig)))
    for p in pairings:
        curves = p["figures"]["curves"]
        fig, ax = plt.subplots(figsize=(6.5, 3))
        for key, name in (
            ("territory", "TT"),
            ("legacy_first_emperor", "LT first Emperor"),
            ("legacy_second_emperor", "LT second Emperor"),
        ):
            turns = [int(t) for t, q in curves[key].items() if q]
            qs = [curves[key][str(t)] for t in turns]
            ax.plot(turns, [q[1] for q in qs], label=f"{name} (median)")
            ax.fill_between(turns, [q[0] for q in qs], [q[2] for q in qs], alpha=0.2)
        ax.set_xlabel("start of turn (13 = end of a full game)")
        ax.set_title(f"Territory and Legacy Tokens, quartiles — {label(p)}")
        ax.legend(fontsize=8)
        out.append((f"Curves — {label(p)}", _png(fig)))
        cards = p["figures"]["cards"]
        rows = sorted(
            (
                (slug, c["win_rate_difference"])
                for slug, c in cards.items()
                if c["win_rate_difference"]["diff"] is not None
            ),
            key=lambda x: x[1]["diff"],
        )
        if rows:
            fig, ax = plt.subplots(figsize=(6.5, 0.5 + 0.17 * len(rows)))
            for i, (_slug, d) in enumerate(rows):
                ax.errorbar(
                    d["diff"],
                    i,
                    xerr=[[d["diff"] - d["ci95"][0]], [d["ci95"][1] - d["diff"]]],
                    fmt="o",
                    markersize=3,
                    capsize=2,
                )
            ax.axvline(0, color="grey", linewidth=1)
            for edge in (-0.08, 0.08):
                ax.axvline(edge, color="red", linestyle=":", linewidth=1)
            ax.set_yticks(range(len(rows)), [s for s, _ in rows], fontsize=6)
            ax.set_xlabel(
                "win-rate difference within games when melded (95% interval); red: ±8 points"
            )
            ax.set_title(f"Cards — {label(p)}")
            out.append((f"Cards — {label(p)}", _png(fig)))
    return out


def conspiracy_plots(plt: Any, pairings: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
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
                ax.errorbar(
                    r["rate"],
                    i,
                    xerr=[[r["rate"] - r["ci95"][0]], [r["ci95"][1] - r["rate"]]],
                    fmt="o",
                    capsize=4,
                )
            ax.set_yticks(range(len(labels)), labels)
            ax.set_xlabel("win rate against the Legendary Opponent (Wilson 95%)")
            out.append((f"Solo — {label(p)}", _png(fig)))
        fig, ax = plt.subplots(figsize=(6.5, 3))
        turns = list(f["end_turn"])
        ax.bar([int(t) for t in turns], [f["end_turn"][t] for t in turns])
        ax.set_xlabel("turn the game ended")
        ax.set_ylabel("games")
        ax.set_title(f"End of the game — {label(p)}")
        out.append((f"End turn — {label(p)}", _png(fig)))
    return out
