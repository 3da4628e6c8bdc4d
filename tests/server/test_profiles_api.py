"""Issue 32 §4: player profiles and the games of an account's seats through the HTTP API,
on SQLite and PostgreSQL (``db_url``): results counted from real games played to their
end (won / lost / drawn by the returns, abandoned when a bot finished the seat), names
looked up as at sign-in, unknown and deleted accounts alike, nothing secret in a profile
(no token, no seed or hidden hand of a game in progress), and "Your games" on a second
device through a new seat link."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from porphyra.server.app import create_app
from porphyra.server.profiles import seat_result
from porphyra.server.sessions import COOKIE

from .accounts import NO_LIMITS, PASSWORD, account

VS_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url=db_url, bot_workers=0, bot_pace=0.0, **NO_LIMITS)
    with TestClient(app) as c:
        yield c


def held_game(c: TestClient, who: dict[str, str], seed: int) -> tuple[str, str]:
    """A Byzantium game against a random bot whose seat 0 ``who`` claims: (id, token)."""
    info = c.post("/api/games", json={"game": "byzantium", "seats": VS_BOT, "seed": seed}).json()
    token = info["invites"][0]["token"]
    r = c.post(f"/api/games/{info['id']}/claim", json={"token": token}, headers=who)
    assert r.status_code == 200, r.text
    return info["id"], token


def play(c: TestClient, game_id: str, token: str, leave: bool = False) -> dict[str, Any]:
    """Play seat ``token`` to the end, always the first legal action (``leave``: leave at
    once, so that the table's bot plays the seat); the final message."""
    with c.websocket_connect(f"/ws/{game_id}?token={token}") as ws:
        if leave:
            ws.send_json({"type": "leave"})
        for _ in range(5000):
            m: dict[str, Any] = ws.receive_json()
            if m.get("status") == "over":
                return m
            if not leave and m["type"] in ("snapshot", "update") and m.get("legal"):
                ws.send_json({"type": "act", "action": m["legal"][0], "seq": m["seq"]})
    raise AssertionError("the game did not end")


def returns(c: TestClient, game_id: str) -> list[float]:
    rec: dict[str, Any] = c.get(f"/api/games/{game_id}/record").json()
    return [float(r) for r in rec["result"]["returns"]]


def expected(values: list[float], seat: int) -> str:
    if all(v == values[0] for v in values):
        return "drawn"
    return "won" if values[seat] == max(values) else "lost"


def test_a_profile_counts_finished_games_and_hides_games_in_progress(
    client: TestClient,
) -> None:
    ann = account(client, "Anna Komnene")
    played, token = held_game(client, ann, seed=5)
    play(client, played, token)
    left, token = held_game(client, ann, seed=6)
    play(client, left, token, leave=True)
    ongoing, _ = held_game(client, ann, seed=7)

    r = client.get("/api/players/anna komnene")  # looked up as at sign-in
    assert r.status_code == 200, r.text
    profile = r.json()
    assert profile["name"] == "Anna Komnene"
    assert profile["ratings"] == []  # no rated table played
    result = expected(returns(client, played), 0)
    games = profile["games"]
    assert games["played"] == 2 and games["playing"] == 1
    assert games["abandoned"] == 1
    assert games[result] == 1
    assert games["won"] + games["lost"] + games["drawn"] == 1
    by_id = {g.get("id"): g for g in profile["recent"]}
    assert by_id[played]["result"] == result
    assert by_id[played]["opponents"] == [{"name": "Random bot 2", "player": None}]
    assert by_id[played]["replay"] == f"/replay/{played}?view=public"
    assert client.get(by_id[played]["record"]).status_code == 200
    assert by_id[left]["result"] == "abandoned"
    playing = [g for g in profile["recent"] if g["status"] == "playing"]
    assert playing == [{"status": "playing", "game": "byzantium", "long_name": "Byzantium"}]
    assert ongoing not in r.text  # not even the id of a game in progress


def test_opponents_link_to_their_profiles_until_deleted(client: TestClient) -> None:
    alice, bob = account(client, "Alice Doukas"), account(client, "Bob Botaneiates")
    body = {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "open"}], "seed": 3}
    info = client.post("/api/games", json=body, headers=alice).json()
    taken = client.post(f"/api/games/{info['id']}/seats/1", headers=bob).json()
    with client.websocket_connect(f"/ws/{info['id']}?token={info['invites'][0]['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "leave"})
        play(client, info["id"], taken["token"], leave=True)
    recent = client.get("/api/players/Alice Doukas").json()["recent"]
    bobs = {"name": "Bob Botaneiates", "player": "Bob Botaneiates"}
    assert recent[0]["opponents"] == [bobs] and recent[0]["result"] == "abandoned"
    assert client.get("/api/players/Bob Botaneiates").json()["games"]["abandoned"] == 1
    gone = client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=bob)
    assert gone.status_code == 204
    recent = client.get("/api/players/Alice Doukas").json()["recent"]
    assert recent[0]["opponents"] == [{"name": "Seat 2", "player": None}]


def test_nothing_secret_is_in_a_profile(client: TestClient) -> None:
    bo = account(client, "Bardas")
    game_id, token = held_game(client, bo, seed=11)
    with client.websocket_connect(f"/ws/{game_id}?token={token}") as ws:
        hand = ws.receive_json()["observation"]
    text = client.get("/api/players/Bardas").text
    assert token not in text
    assert game_id not in text
    assert "seed" not in text
    assert json.dumps(hand) not in text
    assert "hand" not in text


def test_unknown_and_deleted_accounts_are_the_same_404(client: TestClient) -> None:
    who = account(client, "Constantine")
    never = client.get("/api/players/Nobody Here")
    r = client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=who)
    assert r.status_code == 204
    gone = client.get("/api/players/Constantine")
    assert never.status_code == gone.status_code == 404
    assert never.json() == gone.json()
    assert client.get("/api/players/" + "x" * 500).status_code == 404
    ja = client.get("/api/players/Nobody", headers={"accept-language": "ja"})
    assert ja.status_code == 404 and ja.json()["detail"] != never.json()["detail"]


def test_your_games_follow_the_account_to_another_device(client: TestClient) -> None:
    zoe = account(client, "Zoe Porphyrogenita")
    game_id, token = held_game(client, zoe, seed=13)
    other = account(client, "Theophano")
    assert client.get("/api/me/games").status_code == 401
    assert client.get("/api/me/games", headers=other).json() == []

    # A second device: the same account, a new session, no token in the browser.
    r = client.post("/api/session", json={"name": "zoe porphyrogenita", "password": PASSWORD})
    client.cookies.clear()
    device = {"cookie": f"{COOKIE}={r.cookies[COOKIE]}"}
    rows = client.get("/api/me/games", headers=device).json()
    assert [(g["id"], g["seat"], g["status"]) for g in rows] == [(game_id, 0, "active")]
    assert rows[0]["your_turn"] is True
    assert token not in json.dumps(rows)  # the server never sends a seat token here

    assert client.post(rows[0]["link"], headers=other).status_code == 404
    link = client.post(rows[0]["link"], headers=device)
    assert link.status_code == 200, link.text
    new = link.json()["token"]
    assert new != token and link.json()["url"] == f"/game/{game_id}#token={new}"
    with client.websocket_connect(f"/ws/{game_id}?token={new}") as ws:
        assert ws.receive_json()["seat"] == 0
    mine = client.post("/api/mine", json={"seats": [{"game": game_id, "token": token}]})
    assert mine.json() == []  # the earlier link no longer opens the seat


def test_a_new_seat_link_is_refused_cross_site_and_to_guests(client: TestClient) -> None:
    leo = account(client, "Leo Phokas")
    game_id, token = held_game(client, leo, seed=17)
    path = f"/api/me/games/{game_id}/link"
    evil = {"origin": "http://evil.example"}
    assert client.post(path, headers={**leo, **evil}).status_code == 403
    assert client.post(path).status_code == 401
    assert client.post("/api/me/games/nosuchgame/link", headers=leo).status_code == 404
    mine = client.post("/api/mine", json={"seats": [{"game": game_id, "token": token}]})
    assert [g["seat"] for g in mine.json()] == [0]  # the link still opens the seat


def test_seat_results() -> None:
    over = json.dumps({"returns": [1, -1]})
    assert seat_result(over, None, 0) == "won"
    assert seat_result(over, None, 1) == "lost"
    assert seat_result(json.dumps({"returns": [0, 0]}), None, 1) == "drawn"
    assert seat_result(json.dumps({"returns": [2, 2, 0]}), None, 1) == "won"  # shared best
    clock = json.dumps({"seats": [{"takeover": None}, {"takeover": "left"}]})
    assert seat_result(over, clock, 1) == "abandoned"
    assert seat_result(over, clock, 0) == "won"
    assert seat_result("not json", None, 0) is None


def test_the_profile_api_is_in_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/players/{name}" in paths
    assert "/api/me/games" in paths
    assert "/api/me/games/{game_id}/link" in paths
