"""Deck v4 design harness: fairness and game-shape figures of Byzantium on distinct deals.

Plays one game per deal (seed) with the same bot spec on both seats (a symmetric pairing:
one rotation is the only distinct game) and ``first_emperor = 0``, and reads each game's
public log for what the balance lab does not yet split: the Legacy Tokens a seat gets from
meld results (the ±1 of B-R5) against those from its melded Legacy cards, and each turn's
LT, so the leader after turns 4 and 8 can be compared with the result.

Usage (one process per core; each writes its games as JSON lines)::

    python shape.py --cards deck.json --bots easy --seeds 9100000:9101000 --out games.jsonl
    python shape.py --summary games.jsonl [more.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

LEGACY_LINE = re.compile(r"^Legacy: seat (\d) (.*) → (\d+) LT\.$")
PART = re.compile(r"([+-]\d+) \(([^)]*)\)")


def play(cards: str | None, deck: str | None, bots: tuple[str, str], seed: int) -> dict[str, Any]:
    import porphyra
    from porphyra.bots.selfplay import play_bot_game

    opts: dict[str, Any] = {"first_emperor": 0}
    if cards:
        opts["cards"] = cards
    else:
        opts["deck"] = deck
    game = porphyra.load_game("byzantium", **opts)
    state = play_bot_game(game, bots, seed)
    s: Any = state
    meld_net = [0, 0]
    legacy = [0, 0]
    emp_melds: dict[int, list[int]] = {1: [0, 0], 2: [0, 0], 3: [0, 0]}  # age -> [won, played]
    turn = 0
    for line in s.log_lines((-1,)):
        m = re.match(r"^The (Byzantine|Foe) meld (wins|ties)", line)
        if m:
            turn += 1
            age = 1 + (turn - 1) // 4
            emp_melds[age][1] += 1
            emp_melds[age][0] += m.group(1) == "Byzantine"
        m = LEGACY_LINE.match(line)
        if m:
            seat = int(m.group(1))
            for amount, why in PART.findall(m.group(2)):
                if why.startswith("TT"):
                    meld_net[seat] += int(amount)
                else:
                    legacy[seat] += int(amount)
    res = s.result or {}
    return {
        "seed": seed,
        "returns": state.returns(),
        "collapse": bool(res.get("collapse")),
        "end_turn": int(res.get("turn", s.turn)),
        "lt": list(s.lt),
        "meld_net": meld_net,
        "legacy": legacy,
        "emp_melds": emp_melds,
        "turn_lt": s_turn_lt(s),
    }


def s_turn_lt(s: Any) -> list[list[int]]:
    """LT of both seats after each completed turn, from the Legacy lines (a turn with no
    Legacy line keeps the previous LT)."""
    out: list[list[int]] = []
    lt = [10, 10]
    turn_of_line = 0
    for line in s.log_lines((-1,)):
        if re.match(r"^The (Byzantine|Foe) meld (wins|ties)", line):
            if turn_of_line:
                out.append(list(lt))
            turn_of_line += 1
        m = LEGACY_LINE.match(line)
        if m:
            lt[int(m.group(1))] = int(m.group(3))
    if turn_of_line:
        out.append(list(lt))
    return out


def wilson(k: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.959964
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(games)
    seeds = {g["seed"] for g in games}
    assert len(seeds) == n, "a deal counted twice"
    first = sum(
        1 if g["returns"][0] > g["returns"][1] else 0.5 if g["returns"][0] == g["returns"][1] else 0
        for g in games
    )
    col = sum(g["collapse"] for g in games)
    col3 = sum(g["collapse"] and g["end_turn"] <= 3 for g in games)
    out: dict[str, Any] = {"games": n}
    lo, hi = wilson(first, n)
    out["first_emperor"] = f"{100 * first / n:.1f} [{100 * lo:.1f}-{100 * hi:.1f}]"
    out["collapse"] = f"{100 * col / n:.1f}% (by turn 3 {100 * col3 / n:.2f}%)"
    for t in (4, 8):
        led = won = 0
        big = bigwon = 0
        for g in games:
            if g["end_turn"] <= t or len(g["turn_lt"]) < t:
                continue
            a, b = g["turn_lt"][t - 1]
            if a == b:
                continue
            leader = 0 if a > b else 1
            led += 1
            r = g["returns"]
            won += r[leader] > r[1 - leader]
            if abs(a - b) >= 3:
                big += 1
                bigwon += r[leader] > r[1 - leader]
        out[f"leader_after_{t}_wins"] = f"{100 * won / max(led, 1):.1f}% of {led}"
        if t == 8:
            out["lead3_after_8_wins"] = f"{100 * bigwon / max(big, 1):.1f}% of {big}"
    mnet = sum(abs(x) for g in games for x in g["meld_net"]) / (2 * n)
    leg = sum(x for g in games for x in g["legacy"]) / (2 * n)
    out["battles"] = (
        f"|meld net| {mnet:.2f} vs legacy {leg:.2f} per seat: {mnet / max(leg, 1e-9):.2f}"
    )
    for age in ("1", "2", "3"):
        won = sum(g["emp_melds"][age][0] for g in games)
        played = sum(g["emp_melds"][age][1] for g in games)
        out[f"emperor_meld_wins_age{age}"] = f"{100 * won / max(played, 1):.1f}%"
    out["mean_turns"] = round(sum(g["end_turn"] for g in games) / n, 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards")
    ap.add_argument("--deck", default="v3")
    ap.add_argument("--bots", default="easy")
    ap.add_argument("--bots2")
    ap.add_argument("--seeds", help="A:B")
    ap.add_argument("--out")
    ap.add_argument("--summary", nargs="*")
    a = ap.parse_args()
    if a.summary:
        games = [json.loads(x) for f in a.summary for x in Path(f).read_text().splitlines()]
        print(json.dumps(summary(games), indent=1))
        return
    lo, hi = map(int, a.seeds.split(":"))
    bots = (a.bots, a.bots2 or a.bots)
    with open(a.out, "w") as f:
        for seed in range(lo, hi):
            f.write(json.dumps(play(a.cards, a.deck, bots, seed)) + "\n")
            f.flush()


if __name__ == "__main__":
    sys.exit(main())
