"""Names, never ids, in the terminal (issue 29 §4): a game of Conspiracy played at the
terminal in English, Japanese and Korean shows its lords, Locations and bots by name in
the log, the board and the seat labels; the notation appears only where a player types
it (menus, examples in quotes, and in brackets beside a name)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from porphyra.cli import app
from porphyra.i18n.names import LOCATION_NAMES

runner = CliRunner()

_LORD = re.compile(r"\b(?:red|blue|green|yellow|purple)\d\b")
_SLUG = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(slug) for slug in sorted(LOCATION_NAMES, key=len, reverse=True))
    + r")(?![\w-])"
)
_PAIR = re.compile(r"이\(가\)|을\(를\)|은\(는\)|와\(과\)|\(으\)로")


def _shown(line: str) -> str:
    """``line`` without what is notation on purpose: ``[slug]`` beside a name, examples
    in quotes, and a menu entry (``  4 take red``) or an echoed action (``✓ ... : keep red4``)."""
    line = re.sub(r"\[[^\]]*\]", "", line)
    line = re.sub(r"'[^']*'", "", line)
    if re.match(r"^\s*\d+ [a-z]+ ", line) or "✓" in line or ">" in line:
        return ""
    return line


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_a_conspiracy_game_at_the_terminal_shows_names(lang: str) -> None:
    moves = "\n".join(["1"] * 60 + ["quit"]) + "\n"
    result = runner.invoke(
        app,
        [
            *("play", "conspiracy", "--players", "2", "--bonus-locations"),
            *("--seats", "human,medium", "--seed", "3", "--lang", lang),
        ],
        input=moves,
        terminal_width=120,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    problems = []
    for line in out.splitlines():
        shown = _shown(line)
        for rx in (_LORD, _SLUG, _PAIR):
            problems += [f"{m.group(0)!r} in {line!r}" for m in rx.finditer(shown)]
        if lang != "en" and re.search(r"(?<![A-Za-z])(?:medium|easy)(?![A-Za-z])", shown):
            problems.append(f"English bot level in {line!r}")
    assert problems == []
    assert "[l" in out or any(f"[{slug}]" in out for slug in LOCATION_NAMES)  # typed beside
