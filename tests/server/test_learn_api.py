"""The tutorials' JSON API and pages (:mod:`porphyra.server.routes.learn`): the server checks each
move against the engine and the script, in the learner's language, and keeps no session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from porphyra.i18n import Translator
from porphyra.learn import LESSONS
from porphyra.server.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(db_url="sqlite://", bot_workers=0)) as c:
        yield c


def test_the_script_comes_in_the_asked_language_with_the_first_table(client: TestClient) -> None:
    body = client.get("/api/learn/byzantium?lang=ja").json()
    lesson = LESSONS["byzantium"]
    assert body["title"] == Translator("ja")(lesson.title)
    assert [s["key"] for s in body["steps"]] == [s.key for s in lesson.steps]
    assert body["view"]["index"] == 0 and body["view"]["observation"]["seat"] == 0
    assert body["play"]["seats"] == ["human", "easy"]
    assert "log" not in body["view"]["observation"]  # the log comes translated, apart
    assert client.get("/api/learn/chess").status_code == 404
    assert client.get("/learn/byzantium").status_code == 200
    assert client.get("/learn/chess").status_code == 404


def test_an_illegal_move_is_refused_with_the_engines_reason(client: TestClient) -> None:
    body = client.post(
        "/api/learn/byzantium/step", json={"step": 2, "action": "meld huns", "lang": "en"}
    ).json()
    assert (body["ok"], body["kind"]) == (False, "illegal")
    assert "not in hand" in body["message"]
    assert body["view"]["index"] == 2


def test_a_legal_move_off_the_lesson_is_refused_with_the_scripts_reason(
    client: TestClient,
) -> None:
    step = LESSONS["byzantium"].steps[1]
    body = client.post(
        "/api/learn/byzantium/step", json={"step": 1, "action": "redraw -", "lang": "ko"}
    ).json()
    assert (body["ok"], body["kind"]) == (False, "lesson")
    assert body["message"] == Translator("ko")(step.why)


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_the_whole_tutorial_is_accepted_step_by_step(client: TestClient, name: str) -> None:
    index = 0
    url = f"/api/learn/{name}/step"
    for step in LESSONS[name].steps:
        body = client.post(url, json={"step": index, "action": step.expect}).json()
        assert body["ok"], (step.key, body)
        if step.expect is not None and body["view"]["moves"]:  # listed: the learner's own
            assert all(isinstance(m, str) for m in body["view"]["moves"])
        index = body["view"]["index"]
    assert body["view"]["finished"] and index == len(LESSONS[name].steps)
    over = client.post(url, json={"step": index, "action": None})
    assert over.status_code == 400


def test_a_conspiracy_move_that_is_not_legal_is_refused_by_the_engine(
    client: TestClient,
) -> None:
    body = client.post(
        "/api/learn/conspiracy/step", json={"step": 1, "action": "take red", "lang": "ja"}
    ).json()
    assert (body["ok"], body["kind"]) == (False, "illegal")
    assert body["message"] and body["view"]["index"] == 1


def test_the_lesson_views_hold_only_the_learners_seat(client: TestClient) -> None:
    body = client.get("/api/learn/byzantium").json()
    obs = body["view"]["observation"]
    assert obs["seat"] == 0 and obs["hand_sizes"][1] == 8
    assert "hands" not in obs and "known_opponent_cards" in obs  # the bot's hand stays hidden


def test_bad_requests_are_refused_and_change_nothing(client: TestClient) -> None:
    url = "/api/learn/byzantium/step"
    assert client.post(url, json={"step": 0, "action": "redraw -"}).status_code == 400
    assert client.post(url, json={"step": 1}).status_code == 400
    assert client.post(url, json={"step": -1}).status_code == 422
    assert client.post(url, json={"step": 0, "x": 1}).status_code == 422
