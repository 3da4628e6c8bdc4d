"""Issue 32 §1: the account API against an attacker: cross-site requests, password
guessing (limits per address and per name, the same for names without an account), and
passwords that never reach a log or a reply."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient

from porphyra.server.accountguard import MAX_BODY
from porphyra.server.app import create_app

from .accounts import NO_SIGNIN_LIMITS, PASSWORD
from .test_accounts_api import sign_up

EVIL = "http://evil.example"


def _app(db_url: str, **settings: Any) -> Any:
    return create_app(db_url=db_url, bot_workers=0, **{**NO_SIGNIN_LIMITS, **settings})


def test_cross_site_requests_with_a_session_are_refused(db_url: str) -> None:
    with TestClient(_app(db_url)) as c:
        sign_up(c)
        game = c.post("/api/games", json={"game": "byzantium", "seats": [{"kind": "human"}] * 2})
        token = game.json()["invites"][0]["token"]
        foreign = {"origin": EVIL}
        attempts = [
            ("DELETE", "/api/session", None),
            ("POST", "/api/me/password", {"password": PASSWORD, "new_password": "pwned-by-evil"}),
            ("DELETE", "/api/me", {"password": PASSWORD}),
            ("POST", f"/api/games/{game.json()['id']}/claim", {"token": token}),
            ("POST", "/api/session", {"name": "Alice", "password": PASSWORD}),
        ]
        for method, path, body in attempts:
            r = c.request(method, path, json=body, headers=foreign)
            assert r.status_code == 403, (path, r.text)
            assert "another site" in r.json()["detail"]
        # Without Origin, a browser's own word that the request is cross-site also counts.
        r = c.request("DELETE", "/api/session", headers={"sec-fetch-site": "cross-site"})
        assert r.status_code == 403
        # Nothing changed: still signed in with the same password, the seat unclaimed.
        assert c.get("/api/me").status_code == 200
        assert c.get("/api/me", headers=foreign).status_code == 200  # reading is not refused
        same = {"origin": "http://testserver"}
        assert c.delete("/api/session", headers=same).status_code == 204
        again = {"name": "Alice", "password": PASSWORD}
        assert c.post("/api/session", json=again, headers=same).status_code == 200


def test_a_login_csrf_without_a_cookie_is_refused_too(db_url: str) -> None:
    with TestClient(_app(db_url)) as c:
        r = c.post(
            "/api/accounts",
            json={"name": "Mallory", "password": PASSWORD},
            headers={"origin": EVIL},
        )
        assert r.status_code == 403 and "set-cookie" not in r.headers


def test_an_allowed_origin_may_sign_in(db_url: str) -> None:
    with TestClient(_app(db_url, allowed_origins=["https://play.example.org"])) as c:
        headers = {"origin": "https://play.example.org"}
        r = c.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}, headers=headers)
        assert r.status_code == 201


def test_sign_ins_are_limited_per_address(db_url: str) -> None:
    with TestClient(_app(db_url, signin_limit="3/minute")) as c:
        sign_up(c)
        wrong = {"name": "Alice", "password": "guess-guess"}
        assert [c.post("/api/session", json=wrong).status_code for _ in range(3)] == [401] * 3
        right = c.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        assert right.status_code == 429 and int(right.headers["retry-after"]) >= 1
        other = c.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
        assert other.status_code == 429  # any name, from this address


def test_sign_ins_are_limited_per_name_and_say_nothing_of_its_existence(db_url: str) -> None:
    with TestClient(_app(db_url, signin_name_limit="2/minute")) as c:
        sign_up(c)

        def statuses(name: str) -> list[int]:
            body = {"name": name, "password": "guess-guess"}
            return [c.post("/api/session", json=body).status_code for _ in range(3)]

        assert statuses("Alice") == statuses("Nobody") == [401, 401, 429]
        # The limit is the name's, however it is written (its skeleton).
        assert (
            c.post("/api/session", json={"name": "ＡＬＩＣＥ", "password": PASSWORD}).status_code
            == 429
        )
        assert (
            c.post("/api/session", json={"name": "Carol", "password": "x" * 8}).status_code == 401
        )


def test_sign_ups_are_limited_per_address(db_url: str) -> None:
    with TestClient(_app(db_url, signup_limit="2/hour")) as c:
        sign_up(c, "First")
        sign_up(c, "Second")
        r = c.post("/api/accounts", json={"name": "Third", "password": PASSWORD})
        assert r.status_code == 429


def test_a_password_never_reaches_a_log_or_a_reply(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret, new = "Hunter2-very-secret", "Swordfish-9-secret"
    replies = []
    with TestClient(_app(db_url)) as c:
        replies.append(c.post("/api/accounts", json={"name": "Alice", "password": secret}))
        replies.append(c.post("/api/session", json={"name": "Alice", "password": new}))
        replies.append(c.post("/api/session", json={"name": "Alice", "password": secret}))
        body = {"password": secret, "new_password": new}
        replies.append(c.post("/api/me/password", json=body))
        replies.append(c.post("/api/me/password", json={"password": [secret], "new_password": 1}))
        replies.append(c.post("/api/session", json={"name": secret, "password": {"x": secret}}))
        replies.append(c.post("/api/accounts", content=secret.encode() * MAX_BODY))
        replies.append(c.request("DELETE", "/api/me", json={"password": new}))
    assert [r.status_code for r in replies] == [201, 401, 200, 200, 422, 422, 413, 204]
    for text in (secret, new):
        assert text not in caplog.text
        for r in replies:
            assert text not in r.text and text not in str(r.headers)


def test_serve_sets_the_cookie_and_sign_in_options(monkeypatch: pytest.MonkeyPatch) -> None:
    from porphyra.server import cli, main

    served: list[Any] = []
    monkeypatch.setattr(main, "serve", lambda settings, announce=None: served.append(settings))
    for argv in (["--secure-cookies", "--signin-limit", "3/minute"], ["--signin-limit", "none"]):
        with pytest.raises(SystemExit):
            cli.main(argv)
    assert (served[0].secure_cookies, served[0].signin_limit) == (True, "3/minute")
    assert (served[1].secure_cookies, served[1].signin_limit) == (None, None)
    with pytest.raises(SystemExit) as refused:
        cli.main(["--signin-limit", "lots"])
    assert refused.value.code != 0 and len(served) == 2
