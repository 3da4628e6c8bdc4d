"""Issue 32 §5: Web Push turn alerts against a push service the test starts on loopback
(:mod:`.pushservice`): the alert's VAPID signature verifies against the server's public
key, its body decrypts with the subscription's private key (aes128gcm) to "your turn in
…" in the subscriber's language; one alert per seat and hour unless answered; a 410
deletes the subscription; subscriptions need the seat's token and a public https
endpoint (SSRF); on SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import http_ece
import pytest
from fastapi.testclient import TestClient

from porphyra.server.app import create_app

from .accounts import NO_LIMITS
from .pushservice import Browser, PushService, vapid_claims

CONTACT = "mailto:ops@example.org"
TURN_TABLE = {
    "game": "conspiracy",
    "options": {"players": 2},
    "seats": [{"kind": "human"}, {"kind": "human"}],
    "clock": {"kind": "turn", "per_move_s": 3600},
}


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService().start()
    yield s
    s.stop()


def _app(db_url: str, **settings: Any) -> Any:
    return create_app(
        db_url=db_url,
        bot_workers=0,
        bot_pace=0.0,
        push_contact=CONTACT,
        **{**NO_LIMITS, **settings},
    )


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind}")


def _play_until_the_other_seat_acts(c: TestClient, game: dict[str, Any]) -> tuple[int, int]:
    """Connect the seat to act, move until the other seat must act; (mover, other)."""
    gid, tokens = game["id"], {i["seat"]: i["token"] for i in game["invites"]}
    for mover in (0, 1):
        with c.websocket_connect(f"/ws/{gid}?token={tokens[mover]}") as ws:
            view = _until(ws, "snapshot")
            if not view["legal"]:
                continue
            for _ in range(20):
                ws.send_json({"type": "act", "action": view["legal"][0], "seq": view["seq"]})
                view = _until(ws, "update")
                if not view["legal"]:
                    return mover, 1 - mover
    raise AssertionError("no seat handed the turn over")


def test_a_turn_alert_reaches_the_loopback_push_service(db_url: str, service: PushService) -> None:
    endpoint = f"http://127.0.0.1:{service.port}/push/one"
    with TestClient(_app(db_url, push_private_endpoints=True)) as c:
        key = c.get("/api/push/key").json()["public_key"]
        game = c.post("/api/games", json=TURN_TABLE).json()
        gid, tokens = game["id"], {i["seat"]: i["token"] for i in game["invites"]}
        browsers = {seat: Browser() for seat in (0, 1)}
        for seat, browser in browsers.items():
            r = c.post(
                "/api/push/subscriptions",
                json={
                    "game": gid,
                    "token": tokens[seat],
                    "subscription": browser.subscription(f"{endpoint}/{seat}"),
                },
                headers={"accept-language": "ja"},
            )
            assert r.status_code == 201, r.text
            assert r.json() == {"game": gid, "seat": seat, "removed": 0}
        mover, other = _play_until_the_other_seat_acts(c, game)
        (got,) = service.wait(1)
        time.sleep(0.3)
        assert len(service.received) == 1  # the mover's page was open: no alert for it
        assert got.path == f"/push/one/{other}"
        assert got.headers["content-encoding"] == "aes128gcm"
        assert int(got.headers["ttl"]) > 0
        claims = vapid_claims(got.headers, key)
        assert claims["sub"] == CONTACT
        assert claims["aud"] == f"http://127.0.0.1:{service.port}"
        assert claims["exp"] > time.time()
        alert = browsers[other].decrypt(got.body)
        assert alert == {
            "title": "porphyra",
            "body": "コンスピラシー：アビス・ユニバースであなたの番です",
            "url": f"/game/{gid}?from=alert",
        }
        with pytest.raises(http_ece.ECEException):  # (encrypted for its own browser only)
            browsers[mover].decrypt(got.body)

        push = c.app.state.push  # type: ignore[attr-defined]
        name = "Conspiracy: Abyss Universe"
        # One alert an hour unless answered.
        assert push.alert(gid, name, other) == 0
        real = push.clock
        push.clock = lambda: real() + 3601
        assert push.alert(gid, name, other) == 1
        assert len(service.wait(2)) == 2
        push.clock = real
        assert push.alert(gid, name, other) == 0
        # Opening the seat's page answers it: the next turn may be alerted at once.
        with c.websocket_connect(f"/ws/{gid}?token={tokens[other]}") as ws:
            _until(ws, "snapshot")
            deadline = time.monotonic() + 10
            while push.subscriptions(gid, other)[0].last_alert is not None:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        assert push.alert(gid, name, other) == 1
        # A push service's 410: the browser unsubscribed; the subscription goes.
        service.status = 410
        push.clock = lambda: real() + 7300
        assert push.alert(gid, name, other) == 0
        assert push.subscriptions(gid, other) == []
        assert len(push.subscriptions(gid, mover)) == 1


def test_no_alert_at_a_table_without_a_turn_clock(db_url: str, service: PushService) -> None:
    with TestClient(_app(db_url, push_private_endpoints=True)) as c:
        game = c.post("/api/games", json={**TURN_TABLE, "clock": {"kind": "none"}}).json()
        for invite in game["invites"]:
            r = c.post(
                "/api/push/subscriptions",
                json={
                    "game": game["id"],
                    "token": invite["token"],
                    "subscription": Browser().subscription(f"http://127.0.0.1:{service.port}/"),
                },
            )
            assert r.status_code == 201
        _play_until_the_other_seat_acts(c, game)
        time.sleep(0.5)
        assert service.received == []


def test_subscriptions_need_the_seat_and_a_public_https_endpoint(db_url: str) -> None:
    with TestClient(_app(db_url)) as c:
        game = c.post("/api/games", json=TURN_TABLE).json()
        gid, token = game["id"], game["invites"][0]["token"]
        other = c.post("/api/games", json=TURN_TABLE).json()
        browser = Browser()

        def subscribe(endpoint: str, **body: Any) -> Any:
            sent = {"game": gid, "token": token, "subscription": browser.subscription(endpoint)}
            return c.post("/api/push/subscriptions", json={**sent, **body})

        # A seat one does not hold: the same answer for a wrong token, another game's
        # token and a game that does not exist.
        for wrong in (
            {"token": "x" * 32},
            {"token": other["invites"][0]["token"]},
            {"game": "nosuchgame"},
        ):
            r = subscribe("https://push.example.org/a", **wrong)
            assert r.status_code == 403, (wrong, r.text)
        # Endpoints that would make the server call its own network, or in clear.
        for endpoint in (
            "http://push.example.org/a",
            "https://127.0.0.1/a",
            "https://localhost:8443/a",
            "https://10.1.2.3/a",
            "https://[::1]/a",
            "https://169.254.169.254/latest",
            # IPv6 forms of an IPv4 address (compatible, NAT64, 6to4) and site-local
            "https://[::127.0.0.1]/a",
            "https://[64:ff9b::7f00:1]/a",
            "https://[2002:7f00:1::]/a",
            "https://[fec0::1]/a",
            "https://[::ffff:10.0.0.1]/a",
            # credentials, or a line break smuggled into the request
            "https://user:pw@8.8.8.8/a",
            "https://8.8.8.8/a\r\nX: y",
            "ftp://push.example.org/a",
            "file:///etc/passwd",
        ):
            r = subscribe(endpoint)
            assert r.status_code == 400, (endpoint, r.text)
        refused = c.post(
            "/api/push/subscriptions",
            json={
                "game": gid,
                "token": token,
                "subscription": browser.subscription("https://127.0.0.1/"),
            },
            headers={"accept-language": "ko"},
        )
        assert refused.json()["detail"] == (
            "이 푸시 알림 주소는 사용할 수 없습니다: 호스트가 공개 주소가 아닙니다"
        )
        bad_keys = browser.subscription("https://push.example.org/a")
        bad_keys["keys"]["p256dh"] = "AAAA"
        r = c.post(
            "/api/push/subscriptions", json={"game": gid, "token": token, "subscription": bad_keys}
        )
        assert r.status_code == 422
        assert c.app.state.push.subscriptions(gid, 0) == []  # type: ignore[attr-defined]
        gone = c.request("DELETE", "/api/push/subscriptions", json={"game": gid, "token": "x" * 32})
        assert gone.status_code == 403


def test_one_tap_stops_the_alerts_and_the_key_is_kept(db_url: str, service: PushService) -> None:
    endpoint = f"http://127.0.0.1:{service.port}/p"
    with TestClient(_app(db_url, push_private_endpoints=True)) as c:
        key = c.get("/api/push/key").json()["public_key"]
        game = c.post("/api/games", json=TURN_TABLE).json()
        gid, token = game["id"], game["invites"][0]["token"]
        body = {"game": gid, "token": token, "subscription": Browser().subscription(endpoint)}
        assert c.post("/api/push/subscriptions", json=body).status_code == 201
        assert c.post("/api/push/subscriptions", json=body).status_code == 201  # (replaced)
        stop = c.request(
            "DELETE",
            "/api/push/subscriptions",
            json={"game": gid, "token": token, "endpoint": endpoint},
        )
        assert stop.status_code == 200 and stop.json()["removed"] == 1
        assert c.app.state.push.subscriptions(gid, 0) == []  # type: ignore[attr-defined]
        doc = c.get("/openapi.json").json()
        assert {"post", "delete"} <= set(doc["paths"]["/api/push/subscriptions"])
        assert "SubscribeIn" in doc["components"]["schemas"]
    # Another server on the same database signs with the same key.
    with TestClient(_app(db_url)) as again:
        assert again.get("/api/push/key").json()["public_key"] == key


def test_a_push_services_redirect_is_never_followed(db_url: str, service: PushService) -> None:
    # A public endpoint could answer with a redirect to the server's own network.
    inside = PushService().start()
    try:
        service.status, service.location = 307, f"http://127.0.0.1:{inside.port}/internal"
        with TestClient(_app(db_url, push_private_endpoints=True)) as c:
            game = c.post("/api/games", json=TURN_TABLE).json()
            gid, token = game["id"], game["invites"][0]["token"]
            sub = Browser().subscription(f"http://127.0.0.1:{service.port}/p")
            body = {"game": gid, "token": token, "subscription": sub}
            assert c.post("/api/push/subscriptions", json=body).status_code == 201
            push = c.app.state.push  # type: ignore[attr-defined]
            assert push.alert(gid, "Conspiracy: Abyss Universe", 0) == 0
            assert len(service.wait(1)) == 1
            time.sleep(0.3)
            assert inside.received == []
            assert len(push.subscriptions(gid, 0)) == 1  # (kept: not a 404 or 410)
    finally:
        inside.stop()


def test_porphyra_serve_takes_the_push_contact(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from porphyra.cli import app
    from porphyra.server import main
    from porphyra.server.settings import ServerSettings

    served: list[ServerSettings] = []
    monkeypatch.setattr(main, "serve", lambda settings, announce=None: served.append(settings))
    result = CliRunner().invoke(app, ["serve", "--push-contact", CONTACT])
    assert result.exit_code == 0, result.output
    assert [s.push_contact for s in served] == [CONTACT]


def test_a_seats_moves_clear_its_alert_once_until_it_is_due_again(
    db_url: str, service: PushService
) -> None:
    # Each move used to clear the mover's alert in the database (a write per move); the
    # runner now clears it once, and again only after the seat was due an alert.
    table = {**TURN_TABLE, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    app = create_app(
        db_url=db_url,
        bot_workers=0,
        bot_pace=0.3,
        push_contact=CONTACT,
        push_private_endpoints=True,
        **NO_LIMITS,
    )
    with TestClient(app) as c:
        game = c.post("/api/games", json=table).json()
        gid, token = game["id"], game["invites"][0]["token"]
        r = c.post(
            "/api/push/subscriptions",
            json={
                "game": gid,
                "token": token,
                "subscription": Browser().subscription(f"http://127.0.0.1:{service.port}/p"),
            },
        )
        assert r.status_code == 201, r.text
        push = c.app.state.push  # type: ignore[attr-defined]
        cleared: list[int] = []
        real = push.answered

        def answered(game_id: str, seat: int) -> None:
            cleared.append(seat)
            real(game_id, seat)

        push.answered = answered

        def play(turns: int) -> int:
            """Connect the seat, play ``turns`` of its turns (the bot plays between), and
            disconnect right after its last move; the moves made."""
            moves = 0
            with c.websocket_connect(f"/ws/{gid}?token={token}") as ws:
                view = _until(ws, "snapshot")
                while turns:
                    while not view["legal"]:
                        view = _until(ws, "update")
                    while view["legal"]:
                        ws.send_json(
                            {"type": "act", "action": view["legal"][0], "seq": view["seq"]}
                        )
                        view = _until(ws, "update")
                        moves += 1
                    turns -= 1
            return moves

        def settle(count: int) -> None:
            deadline = time.monotonic() + 10
            while len(cleared) < count or any(not t.done() for t in push._tasks):
                assert time.monotonic() < deadline, cleared
                time.sleep(0.05)

        assert play(4) >= 4
        # Opening the page answers; the moves after it write nothing.
        settle(1)
        assert cleared == [0]
        # The page is closed: when the bot hands the turn back, the seat is due its alert.
        (got,) = service.wait(1)
        assert got.path == "/p"
        assert push.subscriptions(gid, 0)[0].last_alert is not None
        assert play(2) >= 2
        settle(2)
        assert cleared == [0, 0]
        assert push.subscriptions(gid, 0)[0].last_alert is None
