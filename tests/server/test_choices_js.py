"""The page's composer (``static/choices.js``) against the engine: for many random
Byzantium states, the texts it composes from each decision's option table are exactly
the engine's legal texts, in order; and for random option tables, exactly Python's
(:func:`porphyra.core.choices.compose`).  Runs the script in Node (Debian's
``/usr/bin/node``); skips where Node is missing."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import porphyra
from porphyra.core.choices import compose
from tests.core.test_choices import random_choices

SCRIPT = Path(porphyra.__file__).parent / "server" / "static" / "choices.js"
NODE = shutil.which("node")

RUNNER = """
const { composeChoices, legalOf } = require(process.argv[1]);
let data = "";
process.stdin.on("data", (d) => { data += d; });
process.stdin.on("end", () => {
  const cases = JSON.parse(data);
  const out = cases.map((c) => composeChoices(c));
  out.push(legalOf({ legal: ["x 1"] }), legalOf({ legal: null, choices: null }));
  process.stdout.write(JSON.stringify(out));
});
"""


def composed_in_node(cases: list[dict[str, Any]]) -> list[list[str]]:
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", RUNNER, str(SCRIPT)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    out: list[list[str]] = json.loads(done.stdout)
    assert out[-2:] == [["x 1"], []]
    return out[:-2]


def engine_cases() -> tuple[list[dict[str, Any]], list[list[str]]]:
    """Option tables and the engine's texts of the meld and redraw decisions met in
    random games."""
    cases, texts = [], []
    for seed in range(6):
        state = porphyra.load_game("byzantium").new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in state.active_players():
                choices = state.legal_choices(seat)
                if choices is not None:
                    cases.append(json.loads(json.dumps(choices)))
                    texts.append(state.legal_action_texts(seat))
            seat = rng.choice(state.active_players())
            legal = state.legal_actions(seat)
            state.apply_action(legal[rng.randrange(len(legal))], seat)
    return cases, texts


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_page_composes_the_engine_texts() -> None:
    cases, texts = engine_cases()
    assert len(cases) > 100
    assert composed_in_node(cases) == texts


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_page_composes_as_python_does() -> None:
    rng = random.Random(7)
    cases = [random_choices(rng) for _ in range(300)]
    assert composed_in_node(cases) == [compose(c) for c in cases]
