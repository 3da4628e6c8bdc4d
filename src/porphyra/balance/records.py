"""The balance lab on people's games: the figures of game records (``--records``).

Reads the records the terminal saves (``porphyra play --save``) and those the web server
gives for download (``/api/games/ID/record?download=1``): both are :mod:`porphyra.record`
files.  Each record is replayed in full (checked as ``porphyra replay`` checks it), then
replayed again with the lab's collector watching every decision, so a record gives the same
per-game statistics as a bot game, and the lab reports the same figures.

Games are grouped into pairings by who sat in the seats (the record's ``seats``: ``human``
or a bot spec, in seat order sorted, so a human against ``easy`` is one pairing whichever
seat the human took; ``unknown`` when a record does not say) and by the game options (the
deck).  A record of another game, an unfinished game, a file that is not a valid record and
a second copy of a game (the same history digest) are left out, each listed with the reason
in the summary's ``records.skipped``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from porphyra.balance import analysis
from porphyra.balance.campaign import Task, game_stats
from porphyra.balance.collect import collector_for
from porphyra.core.errors import PorphyraError
from porphyra.record import load, replay, seat_kinds


def record_files(paths: Sequence[Path]) -> list[Path]:
    """The record files among ``paths``: a file as given, a directory's ``*.json`` files
    (recursively), sorted.

    Raises:
        FileNotFoundError: a path does not exist.
    """
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*.json") if p.is_file()))
        elif path.exists():
            out.append(path)
        else:
            raise FileNotFoundError(2, "no such file or directory", str(path))
    return out


def record_game_stats(record: dict[str, Any], index: int) -> dict[str, Any]:
    """The lab's statistics of one finished game record (as
    :func:`porphyra.balance.campaign.play_task` gives them for a bot game; ``pairing`` 0).

    Raises:
        RecordError: the record does not replay.
    """
    final = replay(record)  # every check of porphyra replay, with its messages
    game = final.game
    seats = tuple(seat_kinds(record) or ["unknown"] * len(final.returns()))
    state = game.new_initial_state(seed=record["seed"])
    collector = collector_for(record["game"])
    for entry in record["actions"]:
        player = entry["player"]
        action = game.parse_action(state, entry["action"], player)
        collector.before(state, player, action)
        state.apply_action(action, player)
    task = Task(index, record["game"], record["options"], seats, record["seed"], 0, index, 0)
    return {**game_stats(task, state, collector), "options": record["options"]}


def read_records(game: str, paths: Sequence[Path]) -> tuple[list[dict[str, Any]], list[str]]:
    """The statistics of every usable record of ``game`` among ``paths``, and why each other
    file was left out (``"PATH: reason"``).

    Raises:
        FileNotFoundError: a path does not exist.
    """
    stats: list[dict[str, Any]] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for path in record_files(paths):
        try:
            record = load(path)
            if record["game"] != game:
                skipped.append(f"{path}: a {record['game']} record, not {game}")
                continue
            if record.get("result") is None:
                skipped.append(f"{path}: the game is not finished")
                continue
            one = record_game_stats(record, len(stats))
        except (PorphyraError, OSError, ValueError) as exc:
            skipped.append(f"{path}: {exc}")
            continue
        if one["digest"] in seen:
            skipped.append(f"{path}: the same game as an earlier record")
            continue
        seen.add(one["digest"])
        one["source"] = str(path)
        stats.append(one)
    return stats, skipped


def summarize_records(game: str, paths: Sequence[Path], command: str) -> dict[str, Any]:
    """The lab's summary of the records of ``game`` in ``paths`` (module docstring): the
    same keys as :func:`porphyra.balance.lab.summarize`, with ``records: {"read",
    "skipped"}`` instead of a campaign and each pairing's ``options``.

    Raises:
        ValueError: no usable record (the message gives the reasons).
        FileNotFoundError: a path does not exist.
    """
    from porphyra.balance.lab import card_set_info

    stats, skipped = read_records(game, paths)
    if not stats:
        reasons = "; ".join(skipped[:5]) or "no .json file"
        raise ValueError(f"no finished {game} record to read ({reasons})")
    groups: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = {}
    for r in stats:
        key = (json.dumps(r_options(r), sort_keys=True), tuple(sorted(r["seats"])))
        groups.setdefault(key, []).append(r)
    pairings = []
    for p, ((options, bots), games) in enumerate(sorted(groups.items())):
        for r in games:
            r["pairing"] = p
        pairings.append(
            {
                "bots": list(bots),
                "options": json.loads(options),
                "figures": analysis.summarize(game, games),
            }
        )
    common = Counter(json.dumps(r_options(r), sort_keys=True) for r in stats).most_common(1)
    options = json.loads(common[0][0])
    return {
        "command": command,
        "game": game,
        "options": options,
        "cards": card_set_info(game, options),
        "records": {"read": len(stats), "skipped": skipped},
        "sampling": {"fixed": True, "source": "records"},
        "pairings": pairings,
        "skill": analysis.skill_table(stats),
    }


def r_options(r: dict[str, Any]) -> dict[str, Any]:
    """A game statistics dict's game options (records keep them in ``options``)."""
    options: dict[str, Any] = r.get("options", {})
    return options
