"""Issue 32 §3: rated tables and ratings through the HTTP API, on SQLite and PostgreSQL
(``db_url``): rated games played to their end against an anchored bot and against
another account (who abandons: a loss), the live ratings, their history and the
leaderboard, ``porphyra ratings rebuild`` giving exactly the live result, the refusals
of a table that cannot be rated, and the leaderboard's bad parameters."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from typer.testing import CliRunner

from porphyra.cli import app as cli_app
from porphyra.server.app import create_app
from porphyra.server.botladder import LADDER_VARIABLE
from porphyra.server.ratings import Ratings
from porphyra.server.schema import rating_history_table, ratings_table

from .accounts import NO_LIMITS, account
from .test_profiles_api import play

#: The anchors the tests rate against (a weak random bot, a stronger easy bot).
LADDER = {
    "format": 1,
    "command": "porphyra ladder --games 400 (test)",
    "measured": "2026-12-01 on the test machine",
    "model": "openskill PlackettLuce (mu 25, sigma 25/3)",
    "tables": [
        {
            "game": "byzantium",
            "players": 2,
            "ratings": {
                "random": {"mu": 14.0, "sigma": 0.9, "games": 400},
                "easy": {"mu": 24.0, "sigma": 0.8, "games": 400},
            },
            "pairs": [
                {
                    "level": "easy",
                    "against": "random",
                    "deals": 200,
                    "games": 400,
                    "score": 0.9,
                    "low": 0.87,
                    "high": 0.93,
                    "bootstrap": [0.87, 0.93],
                },
            ],
        },
        {
            "game": "conspiracy",
            "players": 1,
            "ratings": {"legendary:farmer": {"mu": 27.0, "sigma": 1.0, "games": 400}},
        },
    ],
}


@pytest.fixture
def ladder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(LADDER), encoding="utf-8")
    monkeypatch.setenv(LADDER_VARIABLE, str(path))
    return path


#: What a rated table asks for beside its seats: a clock with a takeover after timeouts
#: (a player who stops answering loses; the tests answer long before a day is up).
RATED: dict[str, Any] = {
    "rated": True,
    "clock": {"kind": "turn", "per_move_s": 86_400},
    "takeover_after": 1,
}


@pytest.fixture
def client(db_url: str, ladder: Path) -> Iterator[TestClient]:
    # (no message limit: the tests answer every update at once, faster than a person)
    app = create_app(db_url=db_url, bot_workers=0, bot_pace=0.0, message_limit=None, **NO_LIMITS)
    with TestClient(app) as c:
        yield c


def rated_vs_bot(c: TestClient, who: dict[str, str], bot: str = "random") -> dict[str, Any]:
    body = {
        "game": "byzantium",
        **RATED,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}],
    }
    r = c.post("/api/games", json=body, headers=who)
    assert r.status_code == 201, r.text
    info: dict[str, Any] = r.json()
    return info


def ratings_of(c: TestClient, name: str) -> list[dict[str, Any]]:
    r = c.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["ratings"]
    return out


def stored(db_url: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The ratings and their history as stored (history in order of finish)."""
    engine = create_engine(db_url)
    r, h = ratings_table.c, rating_history_table.c
    try:
        with engine.connect() as conn:
            ratings = conn.execute(
                select(r.account_id, r.game, r.players, r.mu, r.sigma, r.games).order_by(
                    r.account_id
                )
            ).all()
            history = conn.execute(
                select(h.game_id, h.account_id, h.mu, h.sigma, h.at).order_by(h.seq, h.account_id)
            ).all()
    finally:
        engine.dispose()
    return [tuple(x) for x in ratings], [tuple(x) for x in history]


def test_rated_games_change_ratings_live_and_a_rebuild_gives_the_same(
    client: TestClient, db_url: str
) -> None:
    anna, boris = account(client, "Anna"), account(client, "Boris")
    first = rated_vs_bot(client, anna)
    assert first["rated"] is True and first["rated_table"] is True and first["deal"] == "secret"
    play(client, first["id"], first["invites"][0]["token"])
    [after_one] = ratings_of(client, "anna")
    assert (after_one["game"], after_one["players"], after_one["games"]) == ("byzantium", 2, 1)
    assert after_one["sigma"] < 25 / 3  # a game played: less uncertain
    assert after_one["ordinal"] == pytest.approx(after_one["mu"] - 3 * after_one["sigma"])
    assert [p["game_id"] for p in after_one["history"]] == [first["id"]]

    # An open seat taken by Boris, who leaves at once: a bot ends his game, a loss.
    body = {"game": "byzantium", **RATED, "seats": [{"kind": "human"}, {"kind": "open"}]}
    table = client.post("/api/games", json=body, headers=anna).json()
    taken = client.post(f"/api/games/{table['id']}/seats/1", headers=boris)
    assert taken.status_code == 200, taken.text
    with client.websocket_connect(f"/ws/{table['id']}?token={taken.json()['token']}") as ws:
        ws.send_json({"type": "leave"})
        for _ in range(100):  # (until the table says a bot plays his seat)
            m = ws.receive_json()
            if any(seat.get("takeover") == "left" for seat in m.get("seats", [])):
                break
        else:
            raise AssertionError("the leave was not taken")
    play(client, table["id"], table["invites"][0]["token"])
    [anna_now], [boris_now] = ratings_of(client, "anna"), ratings_of(client, "boris")
    assert anna_now["games"] == 2 and boris_now["games"] == 1
    assert anna_now["mu"] > after_one["mu"]  # she beat the one who left, whatever the score
    assert boris_now["mu"] < 25.0
    assert [p["game_id"] for p in anna_now["history"]] == [first["id"], table["id"]]
    board = client.get("/api/players/boris").json()
    assert board["games"]["abandoned"] == 1

    second = rated_vs_bot(client, boris, bot="easy")
    play(client, second["id"], second["invites"][0]["token"])

    r = client.get("/api/leaderboard/byzantium?players=2")
    assert r.status_code == 200, r.text
    lb = r.json()
    assert [e["name"] for e in lb["entries"]] == sorted(
        ["Anna", "Boris"],
        key=lambda n: -{"Anna": anna_now, "Boris": ratings_of(client, "boris")[0]}[n]["ordinal"],
    )
    assert [e["rank"] for e in lb["entries"]] == [1, 2] and lb["total"] == 2
    assert {b["bot"] for b in lb["bots"]} == {"random", "easy"}
    # Each level against the one below over paired deals (issue 31), where measured.
    below = {b["bot"]: b["below"] for b in lb["bots"]}
    assert below["random"] is None
    assert below["easy"] == {
        "level": "easy",
        "against": "random",
        "deals": 200,
        "score": 0.9,
        "low": 0.87,
        "high": 0.93,
        "against_score": None,
        "difference": None,
    }
    assert lb["ladder"]["command"] == LADDER["command"]
    assert "id" not in json.dumps(lb["entries"])  # names, never account ids

    live = stored(db_url)
    assert len(live[1]) == 4  # one history row per account and rated game
    assert Ratings(create_engine(db_url)).rebuild() == 3
    assert stored(db_url) == live
    # ... and the command does the same, from the database URL.
    result = CliRunner().invoke(cli_app, ["ratings", "rebuild", "--db", db_url])
    assert result.exit_code == 0, result.output
    assert "3 rated games" in result.output
    assert stored(db_url) == live


def test_an_unrated_table_changes_no_rating(client: TestClient, db_url: str) -> None:
    anna = account(client, "Anna")
    body = {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    info = client.post("/api/games", json=body, headers=anna).json()
    assert (info["deal"], info["rated"]) == ("secret", False)  # a secret deal is not a rated table
    token = info["invites"][0]["token"]
    assert (
        client.post(
            f"/api/games/{info['id']}/claim", json={"token": token}, headers=anna
        ).status_code
        == 200
    )
    play(client, info["id"], token)
    assert ratings_of(client, "anna") == []
    assert stored(db_url) == ([], [])


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"seed": 5}, 400, "secret deal"),
        ({"clock": {"kind": "none"}}, 400, "needs a clock"),
        ({"clock": None}, 400, "needs a clock"),
        ({"takeover_after": 0}, 400, "needs a clock"),
        # the timeout bot would play a silent seat's game, and win it for them
        ({"takeover_after": 3}, 400, "at most 2 timeouts"),
        ({"seats": [{"kind": "human"}, {"kind": "human"}]}, 400, "guest seat"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "hard"}]}, 400, "measured rating"),
        (
            {"game": "conspiracy", "options": {"players": 1}, "seats": [{"kind": "human"}]},
            400,
            "Legendary Opponent",
        ),
    ],
)
def test_a_table_that_cannot_be_rated_is_refused_and_nothing_is_made(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    anna = account(client, "Anna")
    before = len(client.get("/api/games").json())
    request = {"game": "byzantium", **RATED, "seats": [{"kind": "human"}, {"kind": "open"}]}
    r = client.post("/api/games", json={**request, **body}, headers=anna)
    assert r.status_code == status, r.text
    assert words in r.json()["detail"]
    japanese = client.post(
        "/api/games", json={**request, **body}, headers={**anna, "accept-language": "ja"}
    )
    assert japanese.status_code == status and japanese.json()["detail"] != r.json()["detail"]
    assert len(client.get("/api/games").json()) == before


def test_a_rated_table_needs_an_account_and_the_bot_ladder(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    vs_bot = {"game": "byzantium", **RATED, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    client.cookies.clear()
    r = client.post("/api/games", json=vs_bot)
    assert r.status_code == 401 and "sign in" in r.json()["detail"]
    anna = account(client, "Anna")
    monkeypatch.setenv(LADDER_VARIABLE, str(tmp_path / "absent.json"))
    r = client.post("/api/games", json=vs_bot, headers=anna)
    assert r.status_code == 400 and "measured rating" in r.json()["detail"]
    board = client.get("/api/leaderboard/byzantium").json()
    assert board["bots"] == [] and board["ladder"] is None
    # Two accounts need no bot ladder.
    both = {**vs_bot, "seats": [{"kind": "human"}, {"kind": "open"}]}
    assert client.post("/api/games", json=both, headers=anna).status_code == 201


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/leaderboard/chess", 404),
        ("/api/leaderboard/" + "x" * 300, 404),
        ("/api/leaderboard/byzantium?players=0", 422),
        ("/api/leaderboard/byzantium?players=20", 422),
        ("/api/leaderboard/byzantium?players=5", 400),
        ("/api/leaderboard/byzantium?players=two", 422),
        ("/api/leaderboard/byzantium?limit=1000", 422),
        ("/api/leaderboard/byzantium?offset=-1", 422),
        ("/api/leaderboard/byzantium?players=2&limit=1&offset=99999", 200),
    ],
)
def test_the_leaderboard_refuses_bad_parameters_clearly(
    client: TestClient, path: str, status: int
) -> None:
    r = client.get(path, headers={"accept-language": "ko"})
    assert r.status_code == status, r.text
    if status != 200:
        assert r.json()["detail"]
    else:
        assert r.json()["entries"] == []


def test_the_leaderboard_is_in_the_api_description(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert "/api/leaderboard/{game}" in spec["paths"]
    assert "LeaderboardOut" in spec["components"]["schemas"]


def test_a_rated_table_gives_no_hint_and_no_undo(client: TestClient) -> None:
    anna = account(client, "Anna")
    info = rated_vs_bot(client, anna)
    token = info["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{info['id']}?token={token}&lang=ja") as ws:
        snap = ws.receive_json()
        assert snap["type"] == "snapshot"
        # (against bots only, an unrated table has both)
        assert (snap["hints"], snap["can_undo"]) == (False, False)
        ws.send_json({"type": "undo", "seq": snap["seq"]})
        ws.send_json({"type": "hint", "seq": snap["seq"]})
        errors: list[dict[str, Any]] = []
        while len(errors) < 2:  # (a hint or an undo done would be an update or a hint)
            m = ws.receive_json()
            if m["type"] in ("error", "hint") or (m["type"] == "update" and "last" in m):
                errors.append(m)
    assert [e.get("code") for e in errors] == ["undo", "auth"]
    assert errors[0]["message"] == "レーティング対象の卓では手を戻せません"


def test_one_account_cannot_hold_two_seats_of_a_rated_table(client: TestClient) -> None:
    anna, boris = account(client, "Anna"), account(client, "Boris")
    body = {"game": "byzantium", **RATED, "seats": [{"kind": "human"}, {"kind": "open"}]}
    table = client.post("/api/games", json=body, headers=anna).json()
    assert client.post(f"/api/games/{table['id']}/seats/1", headers=anna).status_code == 409
    assert client.post(f"/api/games/{table['id']}/seats/1", headers=boris).status_code == 200
    # Anna's own link, handed to Boris, does not give him her seat too.
    claim = {"token": table["invites"][0]["token"]}
    r = client.post(f"/api/games/{table['id']}/claim", json=claim, headers=boris)
    assert r.status_code == 409, r.text


def test_a_rated_solo_game_is_rated_against_its_legendary_opponent(client: TestClient) -> None:
    anna = account(client, "Anna")
    solo = {"players": 1, "opponent": "farmer"}
    body = {"game": "conspiracy", "options": solo, **RATED, "seats": [{"kind": "human"}]}
    r = client.post("/api/games", json=body, headers=anna)
    assert r.status_code == 201, r.text
    info = r.json()
    play(client, info["id"], info["invites"][0]["token"])
    [rating] = ratings_of(client, "anna")
    assert (rating["game"], rating["players"], rating["games"]) == ("conspiracy", 1, 1)
    returns = client.get(f"/api/games/{info['id']}/record").json()["result"]["returns"]
    # A win, or a shared win against the stronger Legendary Opponent, raises mu; a loss
    # lowers it.
    assert (rating["mu"] > 25.0) == (returns[0] >= 0)
    board = client.get("/api/leaderboard/conspiracy?players=1").json()
    assert [e["name"] for e in board["entries"]] == ["Anna"]
    assert [b["bot"] for b in board["bots"]] == ["legendary:farmer"]
    assert client.get("/api/leaderboard/conspiracy").json()["players"] == 2
