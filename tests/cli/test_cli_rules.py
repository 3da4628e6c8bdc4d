"""``porphyra rules GAME`` and ``rules`` at the prompt explain how to play."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from porphyra.cli import app


@pytest.mark.parametrize(
    ("game", "phrase"),
    [
        ("byzantium", "Legacy Tokens"),
        ("conspiracy", "Pearl Master"),
    ],
)
def test_rules_command_prints_the_how_to_play_text(game: str, phrase: str) -> None:
    result = CliRunner().invoke(app, ["rules", game])
    assert result.exit_code == 0
    assert phrase in result.output and "how to play" in result.output


def test_rules_command_unknown_game_exits_2() -> None:
    result = CliRunner().invoke(app, ["rules", "chess"])
    assert result.exit_code == 2 and "unknown game" in result.output


def test_rules_at_the_prompt() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "byzantium", "--seats", "human,random", "--seed", "1"],
        input="rules\nquit\n",
    )
    assert "Territory Tokens" in result.output


@pytest.mark.parametrize(
    ("game", "lang", "terms", "title"),
    [
        # From the Japanese seed text: its own terms.
        (
            "conspiracy",
            "ja",
            ("貴族", "上院室", "真珠", "紋章", "地域", "伝説の対戦相手"),
            "遊び方",
        ),
        # From the Korean seed, corrected: 덱 (not 갑판), 시대 (not 연령).
        ("byzantium", "ko", ("레거시 토큰", "영토 토큰", "멜드", "덱", "시대"), "게임 방법"),
        # The missing pairs, from the English specification, in the same terms.
        ("byzantium", "ja", ("レガシートークン", "領土トークン", "メルド", "皇帝"), "遊び方"),
        ("conspiracy", "ko", ("귀족", "상원실", "진주", "지역", "전설의 상대"), "게임 방법"),
    ],
)
def test_rules_in_japanese_and_korean(
    game: str, lang: str, terms: tuple[str, ...], title: str
) -> None:
    result = CliRunner().invoke(app, ["rules", game, "--lang", lang], terminal_width=200)
    assert result.exit_code == 0, result.output
    for term in (*terms, title):
        assert term in result.output
    for machine_translation in ("갑판", "꺼지면", "연령", "데크"):
        assert machine_translation not in result.output
    # The action notation is the same in every language.
    notation = "meld justinian-i,cavalry" if game == "byzantium" else "draw 1"
    assert notation in result.output


def test_rules_follow_lang_and_refuse_an_unknown_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANG", "ko_KR.UTF-8")
    result = CliRunner().invoke(app, ["rules", "byzantium"])
    assert result.exit_code == 0 and "레거시 토큰" in result.output
    monkeypatch.setenv("LANGUAGE", "ja:en")  # gettext's order: LANGUAGE first
    result = CliRunner().invoke(app, ["rules", "byzantium"])
    assert "レガシートークン" in result.output
    result = CliRunner().invoke(app, ["rules", "byzantium", "--lang", "en"])
    assert "Legacy Tokens" in result.output  # --lang wins over the environment
    result = CliRunner().invoke(app, ["rules", "byzantium", "--lang", "fr"])
    assert result.exit_code == 2 and "unknown language 'fr'" in result.output


def test_play_in_japanese_translates_the_screen_but_not_the_notation() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "byzantium", "--seats", "human,random", "--seed", "1", "--lang", "ja"],
        input="help\n1\nquit\n",
        terminal_width=200,
    )
    out = result.output
    assert "プロンプトで入力できるもの" in out  # help
    assert "あなたの手札" in out and "ゲーム開始" in out  # board and log
    assert "redraw" in out  # menu entries are notation, untranslated
    assert "Your hand" not in out


def test_cards_in_korean_name_the_cards_and_keep_the_slugs() -> None:
    result = CliRunner().invoke(app, ["cards", "byzantium", "--lang", "ko"], terminal_width=200)
    assert result.exit_code == 0
    assert "유스티니아누스 1세" in result.output and "justinian-i" in result.output  # name, slug
    # Card types in the table's cells (the deck's description is English data).
    assert "리더" in result.output and not re.search(r"│\s*Leader\s*│", result.output)
    result = CliRunner().invoke(app, ["cards", "conspiracy", "--lang", "ja"], terminal_width=200)
    assert "鍵のない貴族2人を入れ替え" in result.output and "count-blue" in result.output


def test_every_rules_text_is_markdown_without_stray_emphasis_marks() -> None:
    """A ``**`` that Markdown cannot close (in Japanese and Korean, right after a closing
    bracket and before a letter) is printed as two asterisks; every rules text parses
    without one (markdown-it, the parser Rich renders the terminal's rules with)."""
    from pathlib import Path

    from markdown_it import MarkdownIt

    import porphyra

    texts = sorted(Path(porphyra.__file__).parent.glob("games/*/RULES*.md"))
    assert len(texts) == 6
    md = MarkdownIt()
    for path in texts:
        for token in md.parse(path.read_text(encoding="utf-8")):
            for child in token.children or []:
                assert not (child.type == "text" and "**" in child.content), (path, child.content)
