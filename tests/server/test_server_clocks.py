"""Clocks, timeouts, takeovers and returns against a live server (issue 15), on a fake time
source the tests advance (no test waits for a clock: the waits below are guards against a
hang, never measurements).  Across a restart, the time the server was down is charged to
nobody; the records keep the clock settings and every timeout."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from porphyra import record as records
from porphyra.server.app import create_app
from porphyra.server.match import MatchRunner

from .driver import play_to_a_mixed_pile, sync
from .live import LiveServer, SeatClient, connect_seats

#: Guard against a hang while waiting for the server (seconds; never a speed check).
GUARD = 30.0


class FakeTime:
    """A time source (epoch seconds) that moves only when a test advances it."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def clocked_server(db_url: str, fake: FakeTime, **options: Any) -> LiveServer:
    """A live server on ``fake`` time: clocks looked at often, heartbeats only at start
    and stop (so the downtime a test makes is exact)."""
    return LiveServer(db_url, time_source=fake, clock_poll=0.02, heartbeat_s=3600, **options)


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture
def live(sqlite_url: str, fake: FakeTime) -> Iterator[LiveServer]:
    server = clocked_server(sqlite_url, fake).start()
    try:
        yield server
    finally:
        server.stop()


def wait_for(check: Callable[[], bool], what: str) -> None:
    """Poll ``check`` until true (a guard of :data:`GUARD` seconds against a hang)."""
    deadline = time.monotonic() + GUARD
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not {what} after {GUARD} s")
        time.sleep(0.02)


def runner_of(server: LiveServer, game_id: str) -> MatchRunner:
    runner: MatchRunner = server.app.state.hub.runners[game_id]
    return runner


def two_humans(game: str = "byzantium", **body: Any) -> dict[str, Any]:
    options = {"first_emperor": 0} if game == "byzantium" else {"players": 2}
    return {
        "game": game,
        "options": options,
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        "seed": 31,
        **body,
    }


def clock_of(server: LiveServer, game_id: str) -> dict[str, Any]:
    info = server.get(f"/api/games/{game_id}").json()
    clock: dict[str, Any] = info["clock"]
    return clock


def act_and_wait(client: SeatClient, choice: int = 0) -> None:
    """``client`` plays its legal action number ``choice``; wait until the server applied
    it."""
    client.act(client.last["legal"][choice])
    client.recv_until(lambda m: m["type"] == "update" and "last" in m)


# ------------------------------------------------------------------------ validation
@pytest.mark.live
@pytest.mark.parametrize(
    ("body", "status", "names"),
    [
        ({"clock": {"kind": "blitz"}}, 422, "kind"),
        ({"clock": {"kind": "realtime"}}, 422, "base_s"),
        ({"clock": {"kind": "realtime", "base_s": 0}}, 422, "base_s"),
        ({"clock": {"kind": "realtime", "base_s": "300"}}, 422, "base_s"),
        ({"clock": {"kind": "realtime", "base_s": 300, "increment_s": -1}}, 422, "increment_s"),
        ({"clock": {"kind": "turn", "per_move_s": 10**9}}, 422, "per_move_s"),
        ({"clock": {"kind": "turn", "per_move_s": 60, "base_s": 5}}, 422, "base_s"),
        ({"clock": "fast"}, 422, "clock"),
        ({"takeover_after": -1}, 422, "takeover_after"),
        ({"timeout_bot": "grandmaster"}, 400, "grandmaster"),
    ],
)
def test_bad_clock_fields_are_refused_and_nothing_is_created(
    live: LiveServer, body: dict[str, Any], status: int, names: str
) -> None:
    r = httpx.post(live.base + "/api/games", json=two_humans(**body), timeout=10)
    assert r.status_code == status, r.text
    assert names in r.text
    assert live.get("/api/games").json() == []


@pytest.mark.live
def test_the_api_shows_the_settings_and_each_seats_time(live: LiveServer) -> None:
    info = live.create(
        two_humans(
            clock={"kind": "realtime", "base_s": 300, "increment_s": 10},
            timeout_bot="medium",
            takeover_after=3,
        )
    )
    clock = info["clock"]
    assert {k: v for k, v in clock.items() if k != "seats"} == {
        "kind": "realtime",
        "base_s": 300,
        "increment_s": 10,
        "timeout_bot": "medium",
        "takeover_after": 3,
    }
    assert [(s["remaining_s"], s["running"]) for s in clock["seats"]] == [(300, True)] * 2
    casual = live.create(two_humans("conspiracy"))
    assert casual["clock"]["kind"] == "none"
    assert casual["clock"]["timeout_bot"] == "easy"
    assert all(s["remaining_s"] is None for s in casual["clock"]["seats"])


# ------------------------------------------------------------------------ accounting
@pytest.mark.live
def test_simultaneous_decision_runs_each_seats_clock_until_its_own_choice(
    live: LiveServer, fake: FakeTime
) -> None:
    info = live.create(two_humans(clock={"kind": "realtime", "base_s": 300, "increment_s": 10}))
    seats = connect_seats(live, info, spectators=1)
    emperor, foe, spectator = seats[0][0], seats[1][0], seats[None][0]
    assert emperor.last["clock"]["seats"][0]["running"] is True
    assert emperor.last["legal"] and foe.last["legal"]  # both redraw in secret (B-R3)
    fake.advance(20)
    act_and_wait(foe)  # the Foe chooses first: its clock stops, with the increment
    clock = clock_of(live, info["id"])
    assert (clock["seats"][1]["remaining_s"], clock["seats"][1]["running"]) == (290, False)
    assert (clock["seats"][0]["remaining_s"], clock["seats"][0]["running"]) == (280, True)
    sync([emperor, spectator])
    assert spectator.last["clock"]["seats"][1]["running"] is False
    fake.advance(30)
    assert clock_of(live, info["id"])["seats"][0]["remaining_s"] == 250
    late = SeatClient(live, info["id"], None, None)  # a snapshot's clocks are as of now
    assert late.state_msg()["clock"]["seats"][0]["remaining_s"] == 250
    late.close()
    act_and_wait(emperor)
    clock = clock_of(live, info["id"])
    assert [s["remaining_s"] for s in clock["seats"]] == [260, 290]  # 300 - 50 + 10
    # Both meld next (B-R3): both clocks run again.
    assert [s["running"] for s in clock["seats"]] == [True, True]


# ------------------------------------------------------------------------ timeouts
@pytest.mark.live
def test_timeouts_bot_moves_logged_then_takeover_then_the_seat_given_back(
    live: LiveServer, fake: FakeTime
) -> None:
    info = live.create(two_humans(clock={"kind": "turn", "per_move_s": 60}, takeover_after=2))
    gid = info["id"]
    seats = connect_seats(live, info, spectators=1)
    ada, bo, spectator = seats[0][0], seats[1][0], seats[None][0]
    everyone = [ada, bo, spectator]
    # Ada always moves at once; Bo never does: each of his decisions runs out of time.
    for timeouts in (1, 2):
        sync(everyone)
        while ada.last["legal"]:
            act_and_wait(ada, -1)
            sync(everyone)
        assert bo.last["legal"] and clock_of(live, gid)["seats"][1]["running"]
        moves = len(runner_of(live, gid).state.history)
        fake.advance(59)
        assert clock_of(live, gid)["seats"][1]["timeouts"] == timeouts - 1
        fake.advance(1)
        bot_move = bo.recv_until(lambda m: m["type"] == "update" and "last" in m)
        assert len(runner_of(live, gid).state.history) == moves + 1
        assert runner_of(live, gid).state.history[-1][0] == 1  # the bot moved for Bo
        assert "ran out of time" in " ".join(bot_move["observation"]["log"])
        assert clock_of(live, gid)["seats"][1]["timeouts"] == timeouts
    sync(everyone)
    for client in everyone:  # every view says so, each in its own log
        log = client.last["observation"]["log"]
        assert sum("⏱ seat 1 ran out of time: the easy bot moves" in line for line in log) == 2
        assert any("seat 1 kept running out of time" in line for line in log)
    clock = clock_of(live, gid)["seats"][1]
    assert (clock["takeover"], clock["running"]) == ("timeouts", False)
    assert live.get(f"/api/games/{gid}").json()["seats"][1]["takeover"] == "timeouts"
    # Taken over: the bot plays Bo's seat with no time passing, while Ada plays on.
    bo_moves = sum(1 for p, _ in runner_of(live, gid).state.history if p == 1)
    for _ in range(200):
        if sum(1 for p, _ in runner_of(live, gid).state.history if p == 1) > bo_moves + 1:
            break
        sync(everyone)
        assert not bo.last["legal"]  # his page offers nothing while the bot plays
        if ada.last["legal"]:
            act_and_wait(ada, -1)
        elif ada.last["status"] == "active":
            ada.recv()  # the bot is deciding for Bo
    assert sum(1 for p, _ in runner_of(live, gid).state.history if p == 1) > bo_moves + 1
    assert clock_of(live, gid)["seats"][1]["timeouts"] == 2  # no time passed: no timeout
    bo.act("redraw -")
    refusal = bo.recv_until(lambda m: m["type"] == "error")
    assert refusal["code"] in ("takeover", "turn", "stale")
    # Bo comes back: the seat is his again, its count of timeouts starts afresh.
    bo.send({"type": "return"})
    wait_for(lambda: clock_of(live, gid)["seats"][1]["takeover"] is None, "given back")
    assert clock_of(live, gid)["seats"][1]["timeouts"] == 0
    sync(everyone)
    assert any("seat 1 is back" in line for line in spectator.last["observation"]["log"])
    # The record keeps the clock settings and every timeout, and replays.
    rec = runner_of(live, gid).record()
    assert rec["clock"]["kind"] == "turn" and rec["clock"]["takeover_after"] == 2
    events = rec["clock_events"]
    assert [e["event"] for e in events] == ["timeout", "timeout", "takeover", "return"]
    for e in events[:2]:
        assert rec["actions"][e["action"]]["player"] == 1  # the bot's move for Bo
    records.replay(records.validate(rec))


@pytest.mark.live
def test_a_seat_that_leaves_is_played_by_the_bot_until_it_returns(live: LiveServer) -> None:
    info = live.create(two_humans("conspiracy", timeout_bot="random"))
    gid = info["id"]
    seats = connect_seats(live, info)
    one, two = seats[0][0], seats[1][0]
    pool = live.app.state.hub.bots
    calls: list[tuple[int, str]] = []
    real_choose = pool.choose

    async def recording(state: Any, seat: int, spec: str, *args: Any, **kw: Any) -> str:
        calls.append((seat, spec))
        text: str = await real_choose(state, seat, spec, *args, **kw)
        return text

    pool.choose = recording  # the same bot pool (and seat view) as every bot
    two.send({"type": "leave"})
    wait_for(lambda: clock_of(live, gid)["seats"][1]["takeover"] == "left", "taken over")
    two.send({"type": "leave"})
    assert two.recv_until(lambda m: m["type"] == "error")["code"] == "takeover"
    # Seat 0 plays; every decision of seat 1 is the bot's, at once.
    for _ in range(200):
        if sum(1 for p, _ in runner_of(live, gid).state.history if p == 1) >= 2:
            break
        sync([one, two])
        if one.last["legal"]:
            act_and_wait(one)
        elif one.last["status"] == "active":
            one.recv()  # the bot is deciding for seat 1
    assert sum(1 for p, _ in runner_of(live, gid).state.history if p == 1) >= 2
    assert calls and set(calls) == {(1, "random")}  # the table's timeout_bot, for seat 1
    sync([one, two])
    assert any("seat 1 left the table" in line for line in one.last["observation"]["log"])
    two.send({"type": "return"})
    wait_for(lambda: clock_of(live, gid)["seats"][1]["takeover"] is None, "given back")
    # Once per decision: a second leave before seat 1 decided again is refused (no log
    # flood, no handing the decision to the bot and back at will).  Tested while seat 0
    # decides: were it seat 1's turn, the bot would move for it the moment it left (the
    # game's seed, drawn by the server, decides whose turn it is here).
    for _ in range(50):
        sync([one, two])
        if one.last["legal"]:
            break
        if two.last["legal"]:
            act_and_wait(two)
    assert one.last["legal"], "seat 0 never came to decide"
    moves = sum(1 for p, _ in runner_of(live, gid).state.history if p == 1)
    two.send({"type": "leave"})
    wait_for(lambda: clock_of(live, gid)["seats"][1]["takeover"] == "left", "left again")
    two.send({"type": "return"})
    wait_for(lambda: clock_of(live, gid)["seats"][1]["takeover"] is None, "back again")
    if sum(1 for p, _ in runner_of(live, gid).state.history if p == 1) == moves:
        two.send({"type": "leave"})  # the same decision: refused
        refusal = two.recv_until(lambda m: m["type"] == "error")
        assert refusal["code"] == "takeover" and "once" in refusal["message"]
    else:  # pragma: no cover - the bot decided for seat 1 in between: a new decision
        pytest.fail("seat 1 moved while it was away; the test needs a quiet moment")
    # "Your games": the lobby asks with the seats this browser holds.
    tokens = {inv["seat"]: inv["token"] for inv in info["invites"]}
    mine = httpx.post(
        live.base + "/api/mine",
        json={
            "seats": [{"game": gid, "token": t} for t in tokens.values()]
            + [{"game": gid, "token": "wrong"}, {"game": "nosuchgame", "token": "x"}]
        },
        timeout=10,
    ).json()
    assert sorted(m["seat"] for m in mine) == [0, 1]  # the wrong ones are left out
    waiting = set(runner_of(live, gid).state.active_players())
    assert {m["seat"] for m in mine if m["your_turn"]} == waiting
    assert all("token" not in m and m["clock"]["kind"] == "none" for m in mine)


@pytest.mark.live
def test_a_released_game_still_times_out(sqlite_url: str, fake: FakeTime) -> None:
    server = clocked_server(sqlite_url, fake, idle_after=0.05).start()
    try:
        info = server.create(two_humans(clock={"kind": "turn", "per_move_s": 600}))
        gid = info["id"]
        hub = server.app.state.hub
        wait_for(lambda: gid not in hub.runners, "released from memory")
        assert hub.deadlines[gid] == fake() + 600
        fake.advance(600)
        wait_for(lambda: gid in hub.runners, "loaded again by the clock watch")
        wait_for(lambda: len(runner_of(server, gid).state.history) == 2, "both moved by the bot")
        assert [c.timeouts for c in runner_of(server, gid).clock.seats] == [1, 1]
    finally:
        server.stop()


# ------------------------------------------------------------------------ restart
@pytest.mark.live
def test_clocks_survive_a_restart_and_the_downtime_is_not_charged(
    db_url: str, fake: FakeTime
) -> None:
    first = clocked_server(db_url, fake).start()
    try:
        info = first.create(two_humans(clock={"kind": "realtime", "base_s": 300}))
        gid = info["id"]
        seats = connect_seats(first, info)
        fake.advance(100)
        act_and_wait(seats[1][0])  # the Foe redraws after 100 s; the Emperor thinks on
        for c in (seats[0][0], seats[1][0]):
            c.close()
    finally:
        first.stop()
    fake.advance(5000)  # the server is down for 5,000 s
    second = clocked_server(db_url, fake).start()
    try:
        clock = clock_of(second, gid)
        assert [(s["remaining_s"], s["running"]) for s in clock["seats"]] == [
            (200, True),
            (200, False),
        ]
        fake.advance(50)
        assert clock_of(second, gid)["seats"][0]["remaining_s"] == 150
    finally:
        second.stop()
    fake.advance(10_000)
    third = clocked_server(db_url, fake).start()  # a second restart: again not charged
    try:
        assert clock_of(third, gid)["seats"][0]["remaining_s"] == 150
        seats = connect_seats(third, info)
        fake.advance(150)  # then the Emperor runs out of time: the bot redraws for him
        seats[0][0].recv_until(lambda m: m["type"] == "update" and "last" in m)
        runner = runner_of(third, gid)
        assert [p for p, _ in runner.state.history[:2]] == [0, 1]  # both redrew (B-R3 order)
        event = runner.clock.events[0]
        assert (event["event"], event["player"], event["move"]) == ("timeout", 0, 0)
        # Out of time with no increment: each later decision of his is the bot's too.
        assert clock_of(third, gid)["seats"][0]["remaining_s"] == 0
    finally:
        third.stop()


@pytest.mark.live
def test_an_undo_against_a_bot_keeps_the_clock_running(live: LiveServer, fake: FakeTime) -> None:
    info = live.create(
        {
            "game": "conspiracy",
            "options": {"players": 2, "first_player": 0},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "seed": 21,
            "clock": {"kind": "realtime", "base_s": 300, "increment_s": 10},
        }
    )
    me = connect_seats(live, info)[0][0]
    pile = play_to_a_mixed_pile(me)
    fake.advance(5)
    me.act(f"take {pile}")
    after = me.recv_until(lambda m: m["type"] == "update" and bool(m["legal"]))
    assert after["can_undo"] is True
    spent = clock_of(live, info["id"])["seats"][0]["remaining_s"]
    fake.advance(7)
    me.send({"type": "undo", "seq": after["seq"]})
    snap = me.recv_until(lambda m: m["type"] == "snapshot")
    mine = snap["clock"]["seats"][0]
    # Time spent stays spent (no refund); the clock runs on for the decision again.
    assert mine["running"] is True and mine["remaining_s"] == spent - 7
    assert snap["clock"]["seats"][1]["running"] is False  # a bot seat's never runs


@pytest.mark.live
def test_a_table_whose_people_are_away_waits_like_a_bot_only_game(live: LiveServer) -> None:
    """Its bots are served first only while a person who plays a seat has the page open,
    and a table whose every human seat a bot has taken over counts as bot-only (tables of
    absent players with tiny clocks must not crowd out the bots facing people)."""
    hub = live.app.state.hub
    before = hub.active_bot_only_games()
    info = live.create(two_humans("conspiracy"))
    runner = runner_of(live, info["id"])
    assert not runner.person_waiting() and runner.has_player()
    seats = connect_seats(live, info)
    one, two = seats[0][0], seats[1][0]
    assert runner.person_waiting()
    one.send({"type": "leave"})
    two.send({"type": "leave"})
    wait_for(lambda: not runner.has_player(), "both seats taken over")
    assert not runner.person_waiting()  # both pages open, but bots play both seats
    # (the two bots may finish the game at once; until then it counts as bot-only)
    assert runner.over or hub.active_bot_only_games() == before + 1
    for c in (one, two):
        c.close()


def test_an_unknown_timeout_bot_is_refused_in_the_clients_language(db_url: str) -> None:
    """A refusal travels as a message id plus arguments and is translated at the edge (the
    Standards' i18n rule): no English f-string reaches a Japanese or Korean client, and
    nothing is created."""
    body = two_humans(timeout_bot="grandmaster")
    with TestClient(create_app(db_url=db_url, bot_workers=0, bot_pace=0.0)) as client:
        replies = {
            lang: client.post("/api/games", json=body, headers={"accept-language": lang})
            for lang in ("en", "ja", "ko")
        }
        assert {lang: r.status_code for lang, r in replies.items()} == dict.fromkeys(replies, 400)
        en, ja, ko = (replies[lang].json()["detail"] for lang in ("en", "ja", "ko"))
        assert en.startswith("unknown timeout bot 'grandmaster'; bots: ") and "easy" in en
        assert ja.startswith("タイムアウト時のボット 'grandmaster' はありません") and "easy" in ja
        assert ko.startswith("시간 초과 시의 봇 'grandmaster'") and "easy" in ko
        assert client.get("/api/games").json() == []
