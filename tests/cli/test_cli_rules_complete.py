"""The rules texts are complete (issue 29, section 5) in English, Japanese and Korean: every
ruling the engine cites is explained, every deck version's changes are listed card by card,
every Conspiracy Location is described, the solo opponent's whole turn is told, and the
browser's rules panel gets no terminal command or flag."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import porphyra
from porphyra.games.rules_text import rules_text
from porphyra.i18n import pgettext
from porphyra.server.app import create_app

GAMES_DIR = Path(porphyra.__file__).parent / "games"
LANGS = ("en", "ja", "ko")
RULING = re.compile(r"\b[BCS]-R\d+\b")


def _cited_in_code(game: str) -> set[str]:
    """Every ruling id the game's engine cites (code, messages, log lines)."""
    cited: set[str] = set()
    for path in (GAMES_DIR / game).glob("*.py"):
        cited |= set(RULING.findall(path.read_text(encoding="utf-8")))
    return cited


def _cited_in_logs() -> set[str]:
    """The ruling ids that the logs of played games cite (solo against the Military, whose
    ability the log explains with S-R3, and plain games of both)."""
    cited: set[str] = set()
    setups: list[tuple[str, dict[str, object]]] = [
        ("conspiracy", {"players": 1, "opponent": "military"}),
        ("conspiracy", {"players": 3}),
        ("byzantium", {}),
    ]
    for name, options in setups:
        for seed in range(4):
            state = porphyra.load_game(name, **options).new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            for line in state.public_observation().get("log") or []:
                cited |= set(RULING.findall(str(line)))
    return cited


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_ruling_the_engine_cites_is_explained(game: str, lang: str) -> None:
    cited = _cited_in_code(game)
    assert cited, "the engine cites no ruling: the scan is broken"
    text = rules_text(game, lang)
    for ruling in sorted(cited):
        # Listed as an entry of its own, not only inside a range "C-R1 … C-R16".
        assert re.search(rf"^- \*\*{ruling}\*\* \S", text, re.M), (game, lang, ruling)


def test_the_logs_cite_only_explained_rulings() -> None:
    cited = _cited_in_logs()
    assert "S-R3" in cited  # the Military's ability, in solo
    for game in ("byzantium", "conspiracy"):
        for lang in LANGS:
            listed = set(re.findall(r"^- \*\*([BCS]-R\d+)\*\*", rules_text(game, lang), re.M))
            prefix = "B" if game == "byzantium" else "CS"
            assert {r for r in cited if r[0] in prefix} <= listed, (game, lang)


def _deck(version: str) -> dict[tuple[str, str], dict[str, object]]:
    path = GAMES_DIR / "byzantium" / "data" / f"deck-{version}.json"
    cards = json.loads(path.read_text(encoding="utf-8"))["cards"]
    return {(c["deck"], c["name"]): c for c in cards}


def _versions() -> list[str]:
    found = [
        p.stem.removeprefix("deck-")
        for p in (GAMES_DIR / "byzantium" / "data").glob("deck-v*.json")
    ]
    return sorted(found, key=lambda v: int(v[1:]))


@pytest.mark.parametrize("lang", LANGS)
def test_every_deck_versions_changes_are_listed_in_full(lang: str) -> None:
    text = rules_text("byzantium", lang)
    versions = _versions()
    assert len(versions) >= 3
    for old, new in itertools.pairwise(versions):
        line = next((ln for ln in text.splitlines() if f"{old} → {new}" in ln), None)
        assert line is not None, (lang, old, new)
        before, after = _deck(old), _deck(new)
        changes = 0
        for key, card in before.items():
            name = key[1] if lang == "en" else pgettext(lang, "term", key[1])
            for field in ("force", "copies", "legacy"):  # legacy: from v4 on (section 6)
                if card.get(field, 0) != after[key].get(field, 0):
                    changes += 1
                    # The card's name, then its change, before the next card's name.
                    change = f"{card.get(field, 0)}→{after[key].get(field, 0)}"
                    assert re.search(rf"{re.escape(name)} [^;、]*?{change}", line), (
                        lang,
                        name,
                        field,
                        change,
                    )
        assert changes


@pytest.mark.parametrize(
    ("lang", "wrong", "right"),
    [
        ("en", "Each card is usable only", "Some cards are usable only in some Ages"),
        ("ja", "各カードは特定の時代にしか", "一部のカードは特定の時代にしか使えません"),
        ("ko", "각 카드는 정해진 시대에만", "일부 카드는 정해진 시대에만"),
    ],
)
def test_only_some_cards_are_limited_to_some_ages(lang: str, wrong: str, right: str) -> None:
    text = rules_text("byzantium", lang)
    assert wrong not in text and right in text


#: Per language: the words of "spent or not" (the key Locations), of "any colour" (the
#: alliance Locations), the word of the opponent's COAL condition (which the alliance
#: Locations must not reuse), and the solo points the text must tell.
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "spent": "spent or not",
        "any": "any colour",
        "coal": "alliance",
        "solo": ("no pile meets any condition", "6-IP lord", "0-IP", "random", "face down"),
        "more": ("Overflow", "keep it for a later turn", "You hold at most one", "Bonus Locations"),
    },
    "ja": {
        "spent": "使われたかどうかに関係なく",
        "any": "色は問わない",
        "coal": "同盟",
        "solo": (
            "どの山もどの条件も満たさない",
            "6影響点の貴族",
            "0影響点の貴族",
            "ランダム",
            "裏向き",
        ),
        "more": ("あふれた場合", "キープしておいて", "持てるのは1つだけ", "ボーナス地域"),
    },
    "ko": {
        "spent": "썼든 안 썼든",
        "any": "색은 상관없음",
        "coal": "연합",
        "solo": (
            "어떤 더미도 어떤 조건도 만족하지 않으면",
            "6점 귀족",
            "0점 귀족",
            "무작위",
            "뒷면",
        ),
        "more": ("넘칠 때", "가지고 있을 수 있습니다", "한 번에 하나만", "보너스 지역"),
    },
}


def _blocks(text: str) -> list[str]:
    """The text's paragraphs and list items, each on one line (the English is wrapped)."""
    return [" ".join(b.split()) for b in re.split(r"\n(?=- |\n|#|\d+\. )", text) if b.strip()]


@pytest.mark.parametrize("lang", LANGS)
def test_every_location_and_the_solo_opponents_turn_are_described(lang: str) -> None:
    text = rules_text("conspiracy", lang)
    words = WORDS[lang]
    game = porphyra.load_game("conspiracy", players=2, bonus_locations=True)
    for slug in game.card_data()["locations"]:
        shown = re.sub(r"-(yellow|red|green|blue|purple)$", "-<", slug)
        assert f"`{slug}`" in text or f"`{shown}" in text, (lang, slug)
    keys = [b for b in _blocks(text) if "`silver-keys`" in b]
    assert len(keys) == 1 and keys[0].count(words["spent"]) == 2  # silver and gold
    bonus = next(b for b in _blocks(text) if "`alliance-1`" in b)
    assert words["any"] in bonus
    assert words["coal"] not in re.sub(r"`alliance-\d`", "", bonus)
    flat = " ".join(_blocks(text))
    for point in (*words["solo"], *words["more"]):
        assert point in flat, (lang, point)


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_browser_gets_no_terminal_flags_and_the_terminal_gets_them(
    game: str, lang: str
) -> None:
    terminal, browser = rules_text(game, lang), rules_text(game, lang, "browser")
    for text in (terminal, browser):
        assert "<!--" not in text
    assert "porphyra " not in browser and not re.search(r"(?<![\w-])--[a-z]", browser)
    assert re.search(r"--(deck|solo|bonus-locations)", terminal)
    assert "porphyra cards" in terminal
    with TestClient(create_app(db_url="sqlite://", bot_workers=0)) as client:
        served = client.get(f"/api/rules/{game}", headers={"accept-language": lang}).json()
    assert served["lang"] == lang and served["markdown"] == browser
