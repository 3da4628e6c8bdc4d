"""The web server in three languages: the catalogue the pages load, and views whose log
travels as messages (an id plus arguments, one per English line) that the page renders in
its language: the same view for every language, saying exactly what the English lines say."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from porphyra.core.messages import from_wire
from porphyra.i18n import catalogue_json, from_accept_language
from porphyra.i18n.log import translate_line
from porphyra.i18n.messages import render
from porphyra.server.app import create_app
from porphyra.server.hub import Hub
from porphyra.server.match import MatchRunner
from porphyra.server.protocol import dumps
from porphyra.server.storage import Storage

HUMANS = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(db_url="sqlite://", bot_workers=0)) as c:
        yield c


def test_the_pages_catalogue(client: TestClient) -> None:
    ja = client.get("/api/i18n/ja").json()
    assert ja["lang"] == "ja" and ja["languages"]["ko"] == "한국어"
    assert ja["messages"]["Create game"] == "ゲームを作成"
    assert ja["terms"]["Hagia Sophia"] == "アヤソフィア"
    assert ja["terms"]["a pile holding a keyed lord"] == "鍵を持つ貴族を含む山"  # LO condition
    ko = client.get("/api/i18n/ko").json()
    assert ko["messages"]["Create game"] == "게임 만들기"
    assert client.get("/api/i18n/en").json()["messages"] == {}  # English is the source
    for bad in ("fr", "JA", "ja-JP", "..%2F"):
        assert client.get(f"/api/i18n/{bad}").status_code == 404


def test_the_pages_load_the_catalogue_script(client: TestClient) -> None:
    for page in ("/", "/game/abc"):
        html = client.get(page).text
        assert html.index("/static/i18n.js") < html.index("/static/common.js")
        assert 'id="langslot"' in html
    assert "I18N" in client.get("/static/i18n.js").text


async def _runner(name: str, options: dict[str, Any]) -> tuple[Hub, MatchRunner]:
    hub = Hub(Storage("sqlite://"))
    runner, _tokens = await hub.create(name, options, HUMANS, seed=5)
    return hub, runner


def sent(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` as its client receives it (the runner keeps log lines as JSON fragments)."""
    received: dict[str, Any] = json.loads(dumps(view))
    return received


@pytest.mark.parametrize(("name", "options"), [("byzantium", {}), ("conspiracy", {"players": 2})])
def test_views_carry_the_log_as_messages_that_say_what_its_lines_say(
    name: str, options: dict[str, Any]
) -> None:
    """Every client gets the same view; its ``log_messages`` are one message per English
    line (``str()`` the line: the seat's own lines, nothing more), and rendered in Japanese
    or Korean they read as the catalogue's translation of that line."""

    async def play() -> None:
        hub, runner = await _runner(name, options)
        rng = random.Random(1)
        for _ in range(40):
            for seat in (0, 1, None):
                views = {
                    lang: sent(runner.view(seat, "snapshot", lang=lang))
                    for lang in ("en", "ja", "ko")
                }
                english = views["en"]
                assert views["ja"] == english and views["ko"] == english
                lines = english["observation"]["log"]
                messages = [from_wire(m) for m in english["observation"]["log_messages"]]
                assert [str(m) for m in messages] == lines
                for lang in ("ja", "ko"):
                    rendered = [render(m, lang, "log") for m in messages]
                    assert rendered == [translate_line(line, lang) for line in lines]
                    assert rendered != lines
                later = sent(runner.view(seat, "update", log_from=len(lines) - 1))["observation"]
                assert later["log"] == lines[-1:]
                assert later["log_messages"] == english["observation"]["log_messages"][-1:]
            if runner.over:
                break
            seat = rng.choice(runner.state.active_players())
            legal = runner.view(seat, "update")["legal"]
            await runner.submit(seat, legal[rng.randrange(len(legal))], runner.seq)
        await hub.stop()

    asyncio.run(play())


def test_a_websocket_gets_its_log_as_messages_the_page_can_translate(
    client: TestClient,
) -> None:
    """The log leaves the server as an id plus arguments (the same for every language);
    the catalogue the page loads has each id's translation under ``log``."""
    body = {"game": "byzantium", "options": {}, "seats": HUMANS, "seed": 4}
    info = client.post("/api/games", json=body).json()
    token = info["invites"][0]["token"]
    got: dict[str, Any] = {}
    for lang in ("ja", "ko", "en"):
        path = f"/ws/{info['id']}?token={token}&lang={lang}"
        with client.websocket_connect(path, headers={"origin": "http://testserver"}) as ws:
            message = json.loads(ws.receive_text())
            assert message["type"] == "snapshot"
            got[lang] = message["observation"]["log_messages"]
    assert got["ja"] == got["en"] == got["ko"]
    first = got["en"][0]
    assert first["id"].startswith("Game start: seat {0} is the first Emperor")
    assert [type(arg) for arg in first["args"]] == [int, int, int]
    for lang, start in (("ja", "ゲーム開始"), ("ko", "게임 시작")):
        log = catalogue_json(lang)["log"]
        assert isinstance(log, dict) and log[first["id"]].startswith(start)
        assert render(from_wire(first), lang, "log").startswith(start)
    assert catalogue_json("en")["log"] == {}


def test_a_refused_move_is_explained_in_the_clients_language(client: TestClient) -> None:
    body = {"game": "conspiracy", "options": {"players": 2, "first_player": 0}}
    info = client.post("/api/games", json={**body, "seats": HUMANS, "seed": 4}).json()
    answers = {}
    for lang in ("ja", "ko", "en"):
        token = info["invites"][1]["token"]  # seat 1: not its turn
        path = f"/ws/{info['id']}?token={token}&lang={lang}"
        with client.websocket_connect(path, headers={"origin": "http://testserver"}) as ws:
            seq = json.loads(ws.receive_text())["seq"]
            ws.send_text(json.dumps({"type": "act", "action": "draw 1", "seq": seq}))
            message = json.loads(ws.receive_text())
            while message["type"] != "error":
                message = json.loads(ws.receive_text())
            answers[lang] = message["message"]
    assert answers["en"].startswith("not your turn")
    assert answers["ja"].startswith("あなたの手番ではありません")
    assert answers["ko"].startswith("당신의 차례가 아닙니다")


@pytest.mark.parametrize(
    ("raw", "ja", "ko"),
    [
        ('{"type": "nope"}', "不明なメッセージの種類 'nope'", "알 수 없는 메시지 종류 'nope'"),
        ('{"type": "ping", "x": 1}', "'ping' に不明な項目 'x'", "'ping'에 알 수 없는 항목 'x'"),
        ('{"type": "act", "action": "draw 1", "seq": "0"}', "整数の 'seq'", "정수 'seq'"),
        ("a" * 17_000, "メッセージが大きすぎます", "메시지가 너무 큽니다"),
        (b"\xff\xfe", "UTF-8 のテキストではありません", "UTF-8 텍스트가 아닙니다"),
    ],
)
def test_a_malformed_message_is_explained_in_the_clients_language(
    client: TestClient, raw: str | bytes, ja: str, ko: str
) -> None:
    body = {"game": "conspiracy", "options": {"players": 2}, "seats": HUMANS}
    info = client.post("/api/games", json=body).json()
    for lang, expected in (("ja", ja), ("ko", ko)):
        path = f"/ws/{info['id']}?lang={lang}"
        with client.websocket_connect(path, headers={"origin": "http://testserver"}) as ws:
            assert json.loads(ws.receive_text())["type"] == "snapshot"
            if isinstance(raw, bytes):
                ws.send_bytes(raw)
            else:
                ws.send_text(raw)
            message = json.loads(ws.receive_text())
            while message["type"] != "error":
                message = json.loads(ws.receive_text())
            assert message["code"] == "malformed" and expected in message["message"], message


def test_a_refused_option_and_a_full_seat_are_explained_in_the_clients_language(
    tmp_path: Path,
) -> None:
    app = create_app(
        db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", bot_workers=0, max_seat_connections=1
    )
    with TestClient(app) as client:
        body = {"game": "byzantium", "options": {"deck": "v9"}, "seats": HUMANS}
        refused = client.post("/api/games", json=body, headers={"accept-language": "ko"})
        assert refused.status_code == 400
        assert refused.json()["detail"].startswith("옵션 deck='v9'은(는) 받을 수 없습니다")
        info = client.post("/api/games", json={**body, "options": {}}).json()
        path = f"/ws/{info['id']}?token={info['invites'][0]['token']}&lang=ja"
        with client.websocket_connect(path, headers={"origin": "http://testserver"}) as ws:
            assert json.loads(ws.receive_text())["type"] == "snapshot"
            with client.websocket_connect(path, headers={"origin": "http://testserver"}) as two:
                message = json.loads(two.receive_text())
                assert message["code"] == "limit"
                assert message["message"].startswith("この席はすでに 1 個のタブかウィンドウで")


def test_a_refused_lobby_form_says_why_in_the_pages_language(client: TestClient) -> None:
    """A 422 keeps pydantic's list (``detail``) for programs and adds ``message`` for the
    page, in its language (it showed the list as raw JSON, in English)."""
    reserved = [{"kind": "human", "name": "관전자"}, {"kind": "human"}]
    answer = client.post(
        "/api/games",
        json={"game": "byzantium", "seats": reserved},
        headers={"accept-language": "ko"},
    )
    assert answer.status_code == 422 and isinstance(answer.json()["detail"], list)
    assert answer.json()["message"].startswith("seats.0.name: 좌석 이름은 좌석 번호나")
    bad_seed = {"game": "byzantium", "seats": HUMANS, "seed": "7x"}
    answer = client.post("/api/games", json=bad_seed, headers={"accept-language": "ja"})
    assert answer.status_code == 422
    assert answer.json()["message"].startswith("seed: 整数を入力してください"), answer.json()
    english = client.post("/api/games", json=bad_seed).json()["message"]
    assert english.startswith("seed: Input should be a valid integer")


def test_http_errors_follow_accept_language(client: TestClient) -> None:
    def detail(lang: str | None) -> str:
        headers = {} if lang is None else {"accept-language": lang}
        reply = client.get("/api/games/nonexistent", headers=headers)
        assert reply.status_code == 404
        text: str = reply.json()["detail"]
        return text

    assert detail(None) == "no such game"
    assert detail("ja") == "そのゲームはありません"
    assert detail("fr-FR,ko;q=0.8,ja;q=0.5") == "그런 게임이 없습니다"
    assert detail("en-GB,ja;q=0.9") == "no such game"


def test_accept_language_preference_order() -> None:
    assert from_accept_language("ko-KR,ko;q=0.9,en;q=0.5") == "ko"
    assert from_accept_language("en;q=0.2, ja;q=0.7") == "ja"
    assert from_accept_language("de, fr;q=bad, zh") == "en"
    assert from_accept_language(None) == "en"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ja;q=NaN,ko;q=1", "ko"),  # NaN is no quality (it broke the sort)
        ("ko;q=0,ja;q=0.5", "ja"),  # q=0: not acceptable (RFC 9110 12.4.2)
        ("ko;q=0", "en"),
        ("ja;q=-1,ko;q=0.1", "ko"),
        ("ja;q=inf,ko;q=0.5", "ko"),
        ("ja;q=2,ko;q=0.5", "ko"),
    ],
)
def test_accept_language_ignores_qualities_outside_0_to_1(header: str, lang: str) -> None:
    assert from_accept_language(header) == lang
