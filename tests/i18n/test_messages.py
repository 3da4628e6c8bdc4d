"""Messages as an id plus arguments (issue 29 §4): refusals are carried structured from
the engines to the edges (the server per client, the terminal) and translated there from
their id and arguments, never rebuilt by matching English text; every template of the
catalogue translates with its arguments filled; Korean particles fit the word before them.
"""

from __future__ import annotations

import ast
import asyncio
import pickle
import re
from pathlib import Path

import pytest

from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.messages import Joined, Term, msg
from porphyra.core.registry import load_game
from porphyra.i18n import has, pgettext, translations
from porphyra.i18n.korean import particles
from porphyra.i18n.log import translate_error
from porphyra.i18n.messages import error_message, render
from porphyra.server.client import Client
from porphyra.server.errors import SubmitError
from porphyra.server.hub import Hub
from porphyra.server.storage import Storage

SRC = Path(__file__).resolve().parents[2] / "src" / "porphyra"
HUMANS = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]
#: Seed 0's first Byzantine hand holds five Troop cards (one over the meld limit of 4).
FIVE_TROOPS = "meld archers,cavalry,cavalry,comitatenses,foederati"
_FIELD = re.compile(r"\{(\d+)(?:![rsa])?\}")


async def _five_troops_refused() -> SubmitError:
    """The server's refusal of :data:`FIVE_TROOPS` (seed 0, the Emperor's meld)."""
    hub = Hub(Storage("sqlite://"))
    runner, _tokens = await hub.create("byzantium", {}, HUMANS, seed=0)
    try:
        while runner.state.observation(0)["phase"] != "meld":
            seat = runner.state.active_players()[0]
            await runner.submit(seat, runner.view(seat, "update")["legal"][0], runner.seq)
        with pytest.raises(SubmitError) as caught:
            await runner.submit(0, FIVE_TROOPS, runner.seq)
        return caught.value
    finally:
        await hub.stop()


def test_a_refusal_that_echoes_the_input_is_translated_whole_on_the_server() -> None:
    """The garbling of issue 29: matching the English text read the echoed notation as
    part of a template ("…：メルドが上限を超えています：5 Troopカードmeld枚（上限4）")."""
    refused = asyncio.run(_five_troops_refused())
    english = f"{FIVE_TROOPS!r}: meld over a limit: 5 Troop cards (limit 4)"
    assert str(refused) == english and Client(seat=0).error_text(refused.message) == english
    ja = Client(seat=0, lang="ja").error_text(refused.message)
    assert ja == f"{FIVE_TROOPS!r}：メルドが上限を超えています：部隊カード5枚（上限4）"
    ko = Client(seat=0, lang="ko").error_text(refused.message)
    assert ko == f"{FIVE_TROOPS!r}: 멜드가 제한을 넘습니다: 병력 카드 5장 (제한 4)"
    assert translate_error(english, "ja") != ja  # what matching the English text gave


def test_the_terminal_translates_the_engines_refusal_from_its_id() -> None:
    game = load_game("byzantium")
    state = game.new_initial_state(seed=0)
    while state.observation(0)["phase"] != "meld":
        seat = state.active_players()[0]
        state.apply_action(state.legal_actions(seat)[0], seat)
    with pytest.raises(IllegalActionError) as caught:
        game.parse_action(state, FIVE_TROOPS, 0)
    error = caught.value
    assert error.msgid == "meld over a limit: {0}"
    assert str(error) == "meld over a limit: 5 Troop cards (limit 4)"
    assert error_message(error, "ja") == "メルドが上限を超えています：部隊カード5枚（上限4）"
    assert error_message(error, "en") == str(error)


def test_a_long_refusal_is_translated_too() -> None:
    """A refusal longer than the old 200-character limit of matching is translated from
    its id, the player's own text kept as typed."""
    game = load_game("conspiracy", players=2)
    state = game.new_initial_state(seed=1)
    text = "keep " + "x" * 300
    with pytest.raises(InvalidActionError) as caught:
        game.parse_action(state, text, 0)
    message = msg("{0}: {1}", repr(text), caught.value.message)
    assert len(str(message)) > 300
    ja = render(message, "ja")
    assert ja.startswith(repr(text)) and "不明な貴族" in ja and "unknown" not in ja


def test_an_error_keeps_its_message_through_pickling() -> None:
    error = IllegalActionError(msg("not your turn: seat {0} decides now", 1))
    again = pickle.loads(pickle.dumps(error))
    assert again.message == error.message and str(again) == str(error)
    plain = InvalidActionError("plain text")
    assert plain.msgid == "plain text" and plain.msgargs == () and str(plain) == "plain text"


def test_terms_and_lists_read_in_each_language() -> None:
    card = Term("Archers", "'archers'")
    message = msg(
        "{0}",
        Joined("; ", (msg("card not in hand: {0}", card), msg("card not in hand: {0}", card))),
    )
    assert str(message) == "card not in hand: 'archers'; card not in hand: 'archers'"
    assert render(message, "ja") == "手札にないカード：弓兵；手札にないカード：弓兵"
    assert render(message, "ko") == "손패에 없는 카드: 궁병; 손패에 없는 카드: 궁병"


def _raised_msgids() -> set[str]:
    """Every literal message id the code passes to ``msg(...)``."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


def test_every_message_the_code_raises_is_catalogued() -> None:
    raised = _raised_msgids() - {"{0}"}  # a bare list: only its items are words
    assert len(raised) > 40
    for lang in ("ja", "ko"):
        missing = sorted(m for m in raised if not has(lang, "error", m))
        assert missing == [], lang


#: Words of the templates that are notation or protocol (typed as they are in every
#: language): verbs of the games' notation, the websocket's message types and fields,
#: options, example cards and lords, and the shell commands that messages quote.
NOTATION = {
    "act", "action", "all", "archers", "chat", "delay", "draws", "first", "hint", "leave",
    "legal", "lopile", "parse", "game.parse_action", "pass", "ping", "players", "public", "red",
    "replay", "return", "seat", "seq", "snapshot", "swap", "text", "undo", "view",
    "reveal_first_draws", "JSON", "UTF", "NUL", "TT", "LT", "B-R", "C-R", "S-R",
    "COAL", "KEY", "MIL", "PEARL", "SIX", "STACK", "true", "false",
    # a shell command the message quotes: pip install 'porphyra[balance]'
    "porphyra", "balance", "pip", "install",
}  # fmt: skip


def _templates(context: str) -> list[str]:
    catalog = translations("ja")._catalog  # type: ignore[attr-defined]
    prefix = context + "\x04"
    return sorted(k[len(prefix) :] for k in catalog if isinstance(k, str) and k.startswith(prefix))


@pytest.mark.parametrize("context", ["error", "log"])
@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_every_template_translates_with_its_arguments_filled(context: str, lang: str) -> None:
    templates = _templates(context)
    assert len(templates) > 90
    problems: list[str] = []
    for template in templates:
        fields = {int(i) for i in _FIELD.findall(template)}
        values = [f"«{i}»" for i in range(max(fields, default=-1) + 1)]
        words = set(re.findall(r"[A-Za-z][A-Za-z_.'-]*[A-Za-z]", _FIELD.sub(" ", template)))
        translated = pgettext(lang, context, template)
        if translated == template and words - NOTATION:
            problems.append(f"untranslated: {template!r}")
            continue
        try:
            out = particles(translated.format(*values))
        except (IndexError, KeyError, ValueError) as exc:
            problems.append(f"does not format ({exc!r}): {template!r}")
            continue
        if _FIELD.search(out) or "{" in out:
            problems.append(f"a field is left: {template!r} -> {out!r}")
        lost = [v for v in values if v not in out]
        if lost:
            problems.append(f"arguments lost {lost}: {template!r} -> {out!r}")
        for word in sorted(words - NOTATION):
            if re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", out):
                problems.append(f"English {word!r} left: {template!r} -> {out!r}")
        if lang == "ko" and re.search(r"이\(가\)|을\(를\)|은\(는\)|와\(과\)|\(으\)로", out):
            problems.append(f"a particle pair is left: {out!r}")
    assert problems == []


@pytest.mark.parametrize(
    ("text", "fitted"),
    [
        ("좌석 2이(가) 고릅니다", "좌석 2가 고릅니다"),  # 이 (2) ends in a vowel
        ("좌석 3이(가) 고릅니다", "좌석 3이 고릅니다"),  # 삼
        ("좌석 1을(를) 기다리는 중", "좌석 1을 기다리는 중"),  # 일
        ("리더을(를) 냅니다", "리더를 냅니다"),
        ("궁병은(는) 병력", "궁병은 병력"),
        ("서울(으)로", "서울로"),  # ㄹ takes 로
        ("집(으)로", "집으로"),
        ("바다(으)로", "바다로"),
        ("Alice와(과) 대결", "Alice와 대결"),
        ("Bob와(과) 대결", "Bob과 대결"),  # 밥: a b after a vowel reads as ㅂ
        ("'archers'을(를) 냅니다", "'archers'를 냅니다"),  # quotes are skipped
        ("target이(가) 아닙니다", "target이 아닙니다"),  # 타깃
        ("{0} (나)", "{0} (나)"),  # after a space: not a particle
    ],
)
def test_korean_particles_fit_the_word_before_them(text: str, fitted: str) -> None:
    assert particles(text) == fitted


def test_korean_refusals_and_terminal_texts_have_no_particle_pairs() -> None:
    from porphyra.cli import lang as cli_lang

    cli_lang.set_language("ko")
    try:
        line = cli_lang.people("좌석 1이(가) 상원실을 채움: 마지막 라운드")
        assert line == "좌석 2가 상원실을 채움: 마지막 라운드"  # renumbered, then fitted
        named = cli_lang.people("좌석 0을(를) 기다리는 중", ["Alice", "Bob"])
        assert named == "Alice를 기다리는 중"
    finally:
        cli_lang.set_language("en")


def test_a_malformed_websocket_message_is_refused_in_the_clients_language() -> None:
    """The protocol's refusals are structured too: one that echoes a client's 1,000
    characters is translated whole (matching the English text left it English)."""
    from porphyra.server import protocol

    junk = ": " * 500
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.parse_client_message(f'{{"type": "{junk}"}}')
    ja = Client(seat=0, lang="ja").error_text(caught.value.message)
    assert ja.startswith("不明なメッセージの種類 ") and repr(junk) in ja
    assert Client(seat=0).error_text(caught.value.message) == str(caught.value)


def test_a_translation_that_does_not_format_falls_back_to_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import porphyra.i18n.messages as messages

    monkeypatch.setattr(messages, "pgettext", lambda lang, ctx, text: "壊れた {3}")
    message = msg("unknown card {0}", "'zzz'")
    assert messages.render(message, "ja") == "unknown card 'zzz'"


def test_a_refused_game_creation_is_translated_from_its_id() -> None:
    """The lobby's refusals of a game's options (one echoing a long value, cut) reach the
    page in its language from their ids, Korean particle pairs left for the page."""
    from fastapi.testclient import TestClient

    from porphyra.server.app import create_app

    seats = [{"kind": "human"}, {"kind": "human"}]
    body = {"game": "conspiracy", "options": {"players": 2, "opponent": "x" * 300}, "seats": seats}
    with TestClient(create_app(db_url="sqlite://", bot_workers=0)) as client:
        english = client.post("/api/games", json=body).json()["detail"]
        assert english.startswith("option opponent='xxx") and "not accepted" in english
        ja = client.post("/api/games", json=body, headers={"accept-language": "ja"}).json()
        assert ja["detail"].startswith("オプション opponent='xxx") and "または" in ja["detail"]
        assert "not accepted" not in ja["detail"]
        body = {"game": "conspiracy", "options": {"players": 2, "solo_only": 1}, "seats": seats}
        ko = client.post("/api/games", json=body, headers={"accept-language": "ko"}).json()
        # The particle pair is fitted by the page (t()), as for every refusal it shows.
        assert ko["detail"] == "옵션 'solo_only'은(는) 여기서 설정할 수 없습니다"
        body = {"game": "conspiracy", "options": {"players": 3}, "seats": seats}
        ja = client.post("/api/games", json=body, headers={"accept-language": "ja"}).json()
        assert ja["detail"] == "このオプションのconspiracyは3席です"  # the engine's seat count


def test_an_options_values_message_says_what_its_description_says() -> None:
    from porphyra.core import registry

    for name in registry.registered_games():
        for option in registry.game_info(name).options:
            assert str(option.values_message()) == option.describe_values(), option.name
