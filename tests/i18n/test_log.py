"""Log lines in Japanese and Korean: every line the engines write (both games, every
variant, solo against each Legendary Opponent, every seat's private lines) is rendered
completely from the catalogue, and a translated line says what the English line says."""

from __future__ import annotations

import random
from typing import Any

import pytest

from porphyra.core.registry import load_game
from porphyra.i18n.log import (
    MAX_TRANSLATED_ERROR,
    _line,
    is_translated,
    translate_error,
    translate_line,
    translate_lines,
)

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("byzantium", {}),
    ("byzantium", {"reveal_first_draws": True}),
    ("byzantium", {"deck": "v1"}),
    ("conspiracy", {"players": 2}),
    ("conspiracy", {"players": 4, "bonus_locations": True}),
    *(
        ("conspiracy", {"players": 1, "opponent": name})
        for name in ("farmer", "military", "merchant", "politician", "mage")
    ),
]


def log_lines(name: str, options: dict[str, Any], games: int) -> set[str]:
    """Every log line of ``games`` random games, as each seat and a spectator read them."""
    lines: set[str] = set()
    game = load_game(name, **options)
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = rng.choice(state.active_players())
            legal = state.legal_actions(seat)
            state.apply_action(legal[rng.randrange(len(legal))], seat)
        lines.update(state.public_observation()["log"])
        for seat in range(game.num_players):
            lines.update(state.observation(seat)["log"])
    return lines


@pytest.mark.parametrize(("name", "options"), CONFIGS)
@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_every_log_line_has_a_translation(name: str, options: dict[str, Any], lang: str) -> None:
    lines = log_lines(name, options, games=6)
    assert len(lines) > 50
    untranslated = sorted(line for line in lines if not is_translated(line, lang))
    assert untranslated == []


@pytest.mark.parametrize(
    ("line", "ja", "ko"),
    [
        (
            "You drew: Archers, Hagia Sophia.",
            "あなたが引いたカード：弓兵、アヤソフィア。",
            "뽑은 카드: 궁병, 하기아 소피아.",
        ),
        (
            "— Turn 5 (Middle Age): seat 1 is the Byzantine Emperor, seat 0 the Foe.",
            "— 第5ターン（中期時代）：席1がビザンツ皇帝、席0が敵。",
            "— 5턴 (중세 시대): 좌석 1은(는) 비잔틴 황제, 좌석 0은(는) 적입니다.",
        ),
        (
            "Legacy: seat 0 -1 (TT lost) +2 (Hagia Sophia) → 12 LT.",
            "レガシー：席0 -1（TT減少） +2（アヤソフィア） → 12 LT。",
            "레거시: 좌석 0 -1 (TT 감소) +2 (하기아 소피아) → 12 LT.",
        ),
        (
            "seat 2 takes the red pile: red1, red4",
            "席2が赤の捨て札の山を取る：赤1、赤4",
            "좌석 2: 빨강 버림 더미를 가져감: 빨강1, 빨강4",
        ),
        (
            "game over: seat 0 31 IP; the LO 40 IP",
            "ゲーム終了：席0 31影響点；伝説の対戦相手 40影響点",
            "게임 종료: 좌석 0 31점; 전설의 상대 40점",
        ),
    ],
)
def test_a_translated_line_keeps_every_fact(line: str, ja: str, ko: str) -> None:
    assert translate_line(line, "ja") == ja
    assert translate_line(line, "ko") == ko
    assert translate_line(line, "en") == line


def test_locations_read_by_their_names_and_numbers_stay_as_they_are() -> None:
    """A Location's slug is notation: a translated line names the Location instead
    (issue 29: no id reaches a person); seats and numbers stay for the edge."""
    line = "seat 0 keeps Location l5-pearl; face up: count-blue, draw-one"
    out = translate_line(line, "ja")
    assert out == "席0が地域真珠の入江を制圧。表向きに：議会、狭き門"
    ko = translate_line("seat 12 takes the face-up Location any-keys", "ko")
    assert "any-keys" not in ko and "자물쇠 장인" in ko and "12" in ko


def test_an_unknown_line_is_shown_in_english() -> None:
    assert translate_line("a line no engine writes", "ja") == "a line no engine writes"
    assert not is_translated("a line no engine writes", "ko")
    assert translate_lines(["You drew: Archers.", "???"], "ko") == ["뽑은 카드: 궁병.", "???"]


@pytest.mark.parametrize(
    ("message", "ja", "ko"),
    [
        ("unknown card 'zzz'", "不明なカード 'zzz'", "알 수 없는 카드 'zzz'"),
        (
            "meld over a limit: 3 Troop cards (limit 2)",
            "メルドが上限を超えています：部隊カード3枚（上限2）",
            "멜드가 제한을 넘습니다: 병력 카드 3장 (제한 2)",
        ),
        (
            "Input should be less than or equal to 100",
            "100以下の値を入力してください",
            "100 이하의 값을 입력하세요",
        ),
        (
            "not your turn: waiting for seat 1 (Bob)",
            "あなたの手番ではありません：席1（Bob）を待っています",
            "당신의 차례가 아닙니다: 좌석 1 (Bob)을(를) 기다리는 중",
        ),
    ],
)
def test_error_messages_are_translated_keeping_the_players_text(
    message: str, ja: str, ko: str
) -> None:
    assert translate_error(message, "ja") == ja
    assert translate_error(message, "ko") == ko
    assert translate_error(message, "en") == message
    assert translate_error("no such message at all", "ja") == "no such message at all"


@pytest.mark.parametrize(
    "english",
    ["Input should be a valid list or tuple", "Value error, no such thing: at all"],
)
def test_an_english_sentence_is_not_translated_word_by_word(english: str) -> None:
    """A sentence no template was written for stays whole in English, even when it holds
    the "or" or the colon of a short template (it once read "a valid list または tuple")."""
    for lang in ("ja", "ko"):
        assert translate_error(english, lang) == english


def test_a_list_of_choices_is_still_translated() -> None:
    assert translate_error("0, 1 or 'random'", "ja") == "0、1または'random'"


@pytest.mark.parametrize(
    ("name", "options", "bad"),
    [
        ("byzantium", {}, ["meld", "meld zzz", "pass a,b", "target huns", "dance 1", "redraw ,"]),
        (
            "conspiracy",
            {"players": 2},
            ["draw 9", "take pink", "keep red4", "swap 1", "lopile red"],
        ),
    ],
)
def test_every_refusal_of_bad_input_is_translated(
    name: str, options: dict[str, Any], bad: list[str]
) -> None:
    game = load_game(name, **options)
    state = game.new_initial_state(seed=1)
    for text in bad:
        for seat in range(game.num_players):
            with pytest.raises(ValueError) as caught:
                game.parse_action(state, text, seat)
            message = str(caught.value)
            for lang in ("ja", "ko"):
                assert translate_error(message, lang) != message, (text, seat, message)


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_clock_event_lines_are_translated_with_their_seat(lang: str) -> None:
    """Timeouts, takeovers and returns are log lines of every page and replay: they are
    translated, and their seat reads as people count it in that language."""
    from porphyra.clocks import event_text
    from porphyra.core.seats import for_people

    word = {"ja": "席{0}", "ko": "좌석 {0}"}[lang]
    events = [
        {"event": "timeout", "player": 1, "bot": "easy"},
        {"event": "takeover", "player": 1, "bot": "hard", "reason": "left"},
        {"event": "takeover", "player": 1, "bot": "easy", "reason": "timeouts"},
        {"event": "return", "player": 1},
    ]
    for e in events:
        english = event_text(e)
        line = translate_line(english, lang)
        assert line != english and is_translated(english, lang), english
        assert word.format(2) in for_people(line, None, word), line  # player 1 is Seat 2


def test_a_long_junk_refusal_is_left_as_it_is_and_costs_little() -> None:
    """Matching the templates grows with the cube of a message's length: a refusal that
    echoes a client's 1,000 characters of ': ' took most of a second of the server's
    event loop. Past MAX_TRANSLATED_ERROR characters the English text is sent as it is
    (the assertion is on what is translated, not on time)."""
    junk = "'" + ": " * 500 + "': unknown action"
    assert translate_error(junk, "ja") == junk
    calls = _line.cache_info().misses
    translate_error(junk + " ", "ko")
    assert _line.cache_info().misses == calls  # not even tried
    short = "not your turn: waiting for seat 1"
    assert len(short) <= MAX_TRANSLATED_ERROR and translate_error(short, "ja") != short
