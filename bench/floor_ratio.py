"""Porphyra's server CPU per decision as a multiple of the web stack's floor (issue 33).

Runs ``bench/bench_server.py`` against porphyra's server and against the do-nothing
server (``--floor``, ``bench/server_floor.py``) in turn, ``--rounds`` times, with the same
clients and arguments; each floor run is padded to the mean message size of the porphyra
run just before it.  On a shared machine every absolute figure moves with the load, so
the target is the ratio of the two runs side by side: the server CPU per decision while
playing (after every seat's first snapshot).  Prints each pair, the median ratio and the
machine's load average around each run.

    .venv/bin/python bench/floor_ratio.py --games 150 --think 500 --seconds 40 --rounds 2

Target (issue 33, a benchmark, not a test): at most 2.0x at 150 and at 1,000 games (the
latter with ``--think 5000``, where p99 must also stay under 100 ms).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

#: Issue 33's target: porphyra's server CPU per decision over the floor's.
TARGET_RATIO = 2.0

_PLAYING = re.compile(r"server CPU while playing .*?, ([0-9.]+) ms per decision")
_OVERALL = re.compile(r"server CPU: [0-9.]+ s, ([0-9.]+) ms per decision")
_SIZE = re.compile(r"messages to the seats: .*?, ([0-9,]+) characters each")
_P99 = re.compile(r"latency while playing .*?p99 ([0-9.]+) ms")


def _run(args: argparse.Namespace, extra: list[str]) -> tuple[dict[str, float], str]:
    """One ``bench_server.py`` run: its figures (ms per decision while playing and
    overall, mean message characters, p99 while playing) and its output."""
    bench = Path(__file__).with_name("bench_server.py")
    command = [sys.executable, str(bench), "--games", str(args.games)]
    command += ["--think", str(args.think), "--seconds", str(args.seconds), *extra]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    figures = {}
    for name, pattern in (
        ("playing", _PLAYING),
        ("overall", _OVERALL),
        ("size", _SIZE),
        ("p99", _P99),
    ):
        found = pattern.search(out)
        if found:
            figures[name] = float(found.group(1).replace(",", ""))
    return figures, out


def _load() -> str:
    return "{:.1f}/{:.1f}/{:.1f}".format(*os.getloadavg())


def main() -> None:
    """Run the pairs and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--think", type=float, default=500.0)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--verbose", action="store_true", help="print each run's output")
    args = parser.parse_args()
    ratios = []
    for round_ in range(1, args.rounds + 1):
        load_before = _load()
        ours, out = _run(args, [])
        if args.verbose:
            print(out)
        pad = int(ours.get("size", 4000))
        floor, out = _run(args, ["--floor", "--floor-pad", str(pad)])
        if args.verbose:
            print(out)
        ratio = ours["playing"] / floor["playing"]
        ratios.append(ratio)
        print(
            f"round {round_}: porphyra {ours['playing']:.3f} ms ({ours['overall']:.3f} "
            f"overall, p99 {ours.get('p99', float('nan')):.1f} ms, {pad} characters a "
            f"message), floor {floor['playing']:.3f} ms ({floor['overall']:.3f} overall, "
            f"p99 {floor.get('p99', float('nan')):.1f} ms): ratio {ratio:.2f}; load "
            f"{load_before} before, {_load()} after",
            flush=True,
        )
    print(
        f"median ratio over {len(ratios)} rounds: {statistics.median(ratios):.2f} "
        f"(target at most {TARGET_RATIO})"
    )


if __name__ == "__main__":
    main()
