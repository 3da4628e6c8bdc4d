"""The bot ladder's files (:mod:`porphyra.tournament.ladder`) and the shipped ladder.

A ladder run writes, under its ``--out`` folder: ``games.csv`` (the tournament's columns,
one row per game), ``summary.json`` (parameters, command, the per-table tournament summaries
and ratings), ``ladder.md`` (the human table) and ``ladder.json``, the ladder in the shipped
format, which the package carries as ``porphyra/bots/data/ladder.json`` (read by
``porphyra bots`` and the server)::

    {"format": 1, "command": "...", "measured": "<UTC date, machine, load>",
     "model": "openskill PlackettLuce (mu 25, sigma 25/3)", "bots_version": 1,
     "tables": [{"game": "byzantium", "players": 2,
                 "ratings": {"random": {"mu", "sigma", "low", "high", "games"}, ...},
                 "pairs": [{"level": "easy", "against": "random", "deals", "games",
                            "score", "low", "high", "bootstrap"}, ...]}, ...]}

Keys of ``ratings`` are the bot levels (the server's bot seat names) and, in solo
(``players`` 1), ``legendary:<opponent>``; ``low``/``high`` bound the 95% bootstrap interval
of ``mu``; ``games`` counts the distinct games behind the rating.  ``pairs`` (optional: a
ladder made before it has none) holds each level against the one below over paired deals
(:mod:`porphyra.tournament.ladder_pairs`: a score and its 95% interval, fractions; in solo
the difference of the two levels' wins against the same Opponents and seeds);
``bots_version`` the :data:`~porphyra.bots.version.BOTS_VERSION` that played its games.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Any

from porphyra.bots.ladder_file import FORMAT, parse_ladder
from porphyra.bots.version import BOTS_VERSION
from porphyra.tournament.ladder import MODEL, LadderConfig
from porphyra.tournament.ladder_pairs import entrant_level
from porphyra.tournament.output import write_csv
from porphyra.tournament.runner import GameResult


def measured_line(cpu_seconds: float, elapsed: float) -> str:
    """The ``measured`` field: UTC date, machine, load (1-minute load average at the end),
    CPU and wall-clock time of the run."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.system()} "
        f"{platform.machine()} with {os.cpu_count()} CPUs, load average {load:.1f}; "
        f"{cpu_seconds / 60:.1f} CPU minutes, {elapsed / 60:.1f} minutes elapsed"
    )


def ladder_document(
    tables: Sequence[dict[str, Any]], command: str, measured: str
) -> dict[str, Any]:
    """The shipped ladder (the format above) of :func:`~porphyra.tournament.ladder.run_ladder`'s
    tables."""
    return {
        "format": FORMAT,
        "command": command,
        "measured": measured,
        "model": MODEL,
        "bots_version": BOTS_VERSION,
        "tables": [
            {
                "game": t["game"],
                "players": t["players"],
                "ratings": t["ratings"],
                "pairs": t.get("pairs", []),
            }
            for t in tables
        ],
    }


def _pairs(table: dict[str, Any]) -> list[str]:
    """Markdown rows of a table's pairings: each entrant's wins, draws, losses and win rate
    with its Wilson 95% interval."""
    rows = []
    for pairing in table["summary"]["tables"]:
        a, b = pairing["entrants"]
        tally = pairing["results"][a]
        low, high = tally["ci95"]
        rows.append(
            f"| {entrant_level(a)} | {entrant_level(b)} | {pairing['games']} | "
            f"{tally['wins']}-{tally['draws']}-{tally['losses']} | "
            f"{100 * tally['win_rate']:.1f}% | {100 * low:.1f}-{100 * high:.1f}% |"
        )
    return rows


def _head_to_head(table: dict[str, Any]) -> list[str]:
    """Markdown rows of a table's ``pairs`` (each level against the one below over paired
    deals)."""
    rows = []
    for pair in table.get("pairs", []):
        what = f"{100 * pair['score']:.1f}%"
        if "difference" in pair:  # solo: wins against the Opponents, and the difference
            what = (
                f"{100 * pair['score']:.1f}% wins against {100 * pair['against_score']:.1f}%: "
                f"{100 * pair['difference']:+.1f} points"
            )
        blo, bhi = pair["bootstrap"]
        rows.append(
            f"| {pair['level']} | {pair['against']} | {pair['deals']} | {what} | "
            f"{100 * pair['low']:.1f} to {100 * pair['high']:.1f} | "
            f"{100 * blo:.1f} to {100 * bhi:.1f} |"
        )
    return rows


def ladder_markdown(document: dict[str, Any], tables: Sequence[dict[str, Any]]) -> str:
    """The human table of a ladder: ratings per table, then each pairing's results."""
    lines = [
        "# Bot ladder",
        "",
        f"Command: `{document['command']}`",
        "",
        f"Measured: {document['measured']}. Bots version {document['bots_version']}. "
        f"Model: {document['model']}; interval: the wider of a 95% bootstrap over deals and "
        "mu ± 2 sigma.",
    ]
    for table in tables:
        label = f"{table['game']}, {'solo' if table['players'] == 1 else '2 players'}"
        lines += ["", f"## {label}", "", "| entrant | mu | sigma | 95% interval | games |"]
        lines.append("|---|---|---|---|---|")
        for key, r in table["ratings"].items():
            lines.append(
                f"| {key} | {r['mu']:.1f} | {r['sigma']:.1f} | {r['low']:.1f}-{r['high']:.1f} "
                f"| {r['games']} |"
            )
        head = _head_to_head(table)
        if head:
            lines += [
                "",
                "Each level against the one below, over paired deals (95% intervals "
                "over deals: normal, bootstrap):",
                "",
            ]
            lines += ["| level | against | deals | score | normal | bootstrap |"]
            lines += ["|---|---|---|---|---|---|", *head]
        lines += ["", "| first | second | games | W-D-L of first | win % | 95% CI (Wilson) |"]
        lines.append("|---|---|---|---|---|---|")
        lines += _pairs(table)
    return "\n".join(lines) + "\n"


def write_ladder(
    out: Path,
    config: LadderConfig,
    tables: Sequence[dict[str, Any]],
    results: Sequence[GameResult],
    document: dict[str, Any],
) -> list[Path]:
    """Write ``games.csv``, ``summary.json``, ``ladder.md`` and ``ladder.json`` under ``out``
    (created if needed).

    Returns:
        The paths written.

    Raises:
        OSError: a file or the folder cannot be written.
    """
    out.mkdir(parents=True, exist_ok=True)
    write_csv(results, out / "games.csv")
    summary = {
        "parameters": asdict(config),
        "bots_version": BOTS_VERSION,
        "command": document["command"],
        "measured": document["measured"],
        "model": document["model"],
        "tables": list(tables),
    }
    paths = [out / "games.csv", out / "summary.json", out / "ladder.md", out / "ladder.json"]
    paths[1].write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    paths[2].write_text(ladder_markdown(document, tables), encoding="utf-8")
    write_document(document, paths[3])
    return paths


def write_document(document: dict[str, Any], path: Path) -> None:
    """Write a ladder in the shipped format to ``path`` (2-space indented JSON).

    Raises:
        OSError: the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def check_document(document: Any) -> dict[str, Any]:
    """Check that ``document`` is a whole ladder as this module writes it: what the server
    reads (:func:`porphyra.bots.ladder_file.parse_ladder`: the format, finite ratings,
    sigma above 0, counts of games and deals, the pairs' figures), and besides the
    ``command``, ``measured`` and ``model`` texts and each rating's ``low`` and ``high``.

    Returns:
        ``document``.

    Raises:
        ValueError: not a whole format-1 ladder (the message says what is wrong;
            :class:`~porphyra.bots.ladder_file.LadderError` where the server would refuse
            it too).
    """
    parse_ladder(document)
    checked: dict[str, Any] = document
    for field in ("command", "measured", "model"):
        if not isinstance(document.get(field), str):
            raise ValueError(f"the ladder lacks its {field!r} text")
    for table in checked["tables"]:
        for key, rating in table["ratings"].items():
            if any(not isinstance(rating.get(f), int | float) for f in ("low", "high")):
                raise ValueError(f"the rating of {key!r} lacks its low or high")
    return checked


def shipped_ladder() -> dict[str, Any] | None:
    """The ladder shipped with the package (``porphyra/bots/data/ladder.json``), or ``None``
    when the package has none.

    Raises:
        ValueError: the file is there but is not a format-1 ladder.
    """
    path = resources.files("porphyra.bots").joinpath("data/ladder.json")
    if not path.is_file():
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"the shipped ladder is not JSON ({exc})") from None
    return check_document(document)
