"""Pool deck v6's validation runs (chunks of one fixed-size run over consecutive seeds)
into the issue-30 target figures: counts are summed, intervals are the lab's (Wilson).

usage: pool.py NAME-PREFIX ...   e.g. pool.py easy ismcts- easy-random medium-easy-
"""

import glob
import json
import sys

from porphyra.balance.stats import rate


def pool(prefix):
    files = (
        sorted(glob.glob(f"/work/v6s/val-{prefix}*/summary.json"))
        if prefix.endswith("-")
        else [f"/work/v6s/val-{prefix}/summary.json"]
    )
    n = 0
    first = 0.0
    coll = 0.0
    by3 = 0.0
    l8n = 0
    l8 = 0.0
    l3n = 0
    l3 = 0.0
    meld = 0.0
    cards = 0.0
    seats = None
    for f in files:
        with open(f) as fh:
            d = json.load(fh)
        p = d["pairings"][0]
        fig = p["figures"]
        k = fig["distinct_games"]
        n += k
        fe = fig["first_emperor"]
        first += fe["wins"] + fe["draws"] / 2
        coll += fig["collapse"]["rate"] * k
        by3 += fig["collapse_by_turn_3"]["rate"] * k
        lw = fig["shape"]["leader_wins"]
        l8n += lw["after_turn_8"]["n"]
        l8 += lw["after_turn_8"]["rate"] * lw["after_turn_8"]["n"]
        l3n += lw["after_turn_8_by_3"]["n"]
        l3 += lw["after_turn_8_by_3"]["rate"] * lw["after_turn_8_by_3"]["n"]
        ls = fig["shape"]["legacy_sources"]
        meld += ls["meld_results_net"]["mean"] * k
        cards += ls["melded_legacy_cards"]["mean"] * k
        seats = p["bots"]

    def fmt(r):
        low, high = r["ci95"]
        return f"{100 * r['rate']:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"

    print(f"{prefix} ({len(files)} runs, {n} distinct games, bots {seats}):")
    print("  first Emperor's share", fmt(rate(round(first * 2) / 2, n)))
    print("  collapses", fmt(rate(round(coll), n)), " by turn 3", fmt(rate(round(by3), n)))
    print(
        "  leader after 8 wins",
        fmt(rate(round(l8), l8n)),
        f"(n={l8n})",
        " 3-LT lead wins",
        fmt(rate(round(l3), l3n)),
        f"(n={l3n})",
    )
    print(
        f"  battles: meld results {meld / n:.2f} LT",
        f"vs legacy cards {cards / n:.2f}: {meld / cards:.3f}",
    )


def pool_skill(prefix):
    """The first bot's share against the second, pooled over the runs (wins + draws/2)."""
    files = sorted(glob.glob(f"/work/v6s/val-{prefix}*/summary.json"))
    w = d_ = losses = 0
    for f in files:
        with open(f) as fh:
            rows = json.load(fh).get("skill", [])
        for row in rows:
            w += row["wins"]
            d_ += row["draws"]
            losses += row["losses"]
            who = (row["bot"], row["against"])
    n = w + d_ + losses
    r = rate((w + d_ / 2), n)
    print(
        f"{prefix} skill ({len(files)} runs): {who[0]} vs {who[1]}:",
        f"{100 * r['rate']:.1f}% [{100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}]",
        f"of {n} games (W{w} D{d_} L{losses})",
    )


if __name__ == "__main__" and "--skill" in sys.argv:
    for prefix in sys.argv[1:]:
        if prefix != "--skill":
            pool_skill(prefix)
elif __name__ == "__main__":
    for prefix in sys.argv[1:]:
        pool(prefix)
