"""What the research environments' observations hold, as observed over random games.

For each game (Byzantium; Conspiracy with 2 players), plays ``--games`` games of uniformly
random legal ids (seeds 0, 1, ...) and looks at every seat's view before every step:

- the JSON observation's schema: each key path (``[]`` for list items, ``{}`` for the
  values of a mapping with data keys such as seat numbers) with the JSON types seen there;
- each tensor field's observed range (minimum and maximum over every cell of the field).

The tables in ``docs/envs.md`` ("Observation schema and ranges") are its output.

Usage::

    .venv/bin/python bench/env_observed.py [--games 300]
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np

from porphyra.core.registry import load_game
from porphyra.envs.codecs import codec_for
from porphyra.envs.encoding import EnvCore

GAMES: list[tuple[str, str, dict[str, int]]] = [
    ("Byzantium", "byzantium", {}),
    ("Conspiracy, 2 players", "conspiracy", {"players": 2}),
]

_TYPES = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}


def walk(value: Any, path: str, out: dict[str, set[str]]) -> None:
    """Add the JSON type of ``value`` at ``path``, and of everything inside it, to ``out``."""
    out.setdefault(path or ".", set()).add(_TYPES.get(type(value), type(value).__name__))
    if isinstance(value, list):
        for item in value:
            walk(item, f"{path}[]", out)
    elif isinstance(value, dict):
        data_keys = value and all(not str(k).isidentifier() for k in value)
        for key, item in value.items():
            walk(item, f"{path}{{}}" if data_keys else f"{path}.{key}", out)


def observe(name: str, options: dict[str, int], games: int) -> tuple[Any, Any, Any, Any]:
    """``(schema, low, high, codec)``: key paths and types; per-cell minimum and maximum."""
    game = load_game(name, **options)
    codec = codec_for(game)
    schema: dict[str, set[str]] = {}
    low = np.full(codec.layout.size, np.inf)
    high = np.full(codec.layout.size, -np.inf)
    for seed in range(games):
        core = EnvCore(codec, game.new_initial_state(seed=seed))
        rng = random.Random(seed)
        while True:
            for seat in range(len(core.selections)):
                walk(core.observation(seat), "", schema)
                tensor = core.tensor(seat)
                np.minimum(low, tensor, out=low)
                np.maximum(high, tensor, out=high)
            if core.state.is_terminal():
                break
            active = core.active()
            seat = active[rng.randrange(len(active))]
            ids = core.legal_ids(seat)
            core.step(seat, ids[rng.randrange(len(ids))])
    return schema, low, high, codec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    for label, name, options in GAMES:
        schema, low, high, codec = observe(name, options, args.games)
        print(f"### {label}: JSON observation\n")
        print("| key path | JSON types |\n|---|---|")
        for path in sorted(schema):
            print(f"| `{path}` | {', '.join(sorted(schema[path]))} |")
        print(f"\n### {label}: tensor ranges observed\n")
        print("| field | min | max |\n|---|---:|---:|")
        for field in codec.layout.fields:
            cells = slice(field.offset, field.offset + field.size)
            print(f"| `{field.name}` | {low[cells].min():g} | {high[cells].max():g} |")
        print()


if __name__ == "__main__":
    main()
