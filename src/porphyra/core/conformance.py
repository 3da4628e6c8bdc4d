"""Conformance suite that every registered game must pass (pgx / PettingZoo style).

Each ``check_*`` function raises ``AssertionError`` with a message naming the failure;
:func:`run_all` runs them all.  The tests run the suite for every game and option set::

    from porphyra.core import conformance
    conformance.run_all("byzantium", {}, games=20)

Checks: determinism (same seed + actions = identical record); record round-trip;
``clone()`` independence; ``resample`` keeps the seat's observation and really varies what
the seat cannot see (so nothing hidden can show in the observation); every legal action
applies and round-trips through its text, and ``legal_action_texts`` lists those texts
(and so do ``legal_choices`` composed, where a decision has them);
illegal and malformed actions raise the typed errors and change nothing; whatever is
accepted (as text or as an action) is listed by ``legal_actions``; simultaneous choices
give the same game in either order and stay hidden until all are in; a seat that is not
one of the game's raises ``SeatError`` everywhere; each reader's log as messages
(``log_messages``) is its log lines, one for one.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from porphyra.core import record as records
from porphyra.core.choices import compose
from porphyra.core.errors import IllegalActionError, InvalidActionError, SeatError
from porphyra.core.game import TERMINAL_PLAYER, Game, State
from porphyra.core.messages import from_wire, to_wire
from porphyra.core.registry import load_game

MALFORMED_TEXTS = ["", "   ", "xyzzy", "draw", "meld ,,", "\x00", "pass " + "a" * 500, "🂡"]


def _game(name: str, options: dict[str, Any]) -> Game:
    return load_game(name, **options)


def _states_along(state: State, rng: random.Random) -> Iterator[State]:
    """Yield ``state`` (mutated) before each random action until the end, then at the end."""
    while not state.is_terminal():
        yield state
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    yield state


def fingerprint(state: State) -> str:
    """Everything observable about ``state`` as one string (for "changed nothing" checks)."""
    n = state.game.num_players
    parts: dict[str, Any] = {
        "public": state.public_observation(),
        "obs": [state.observation(p) for p in range(n)],
        "hidden": [repr(state.hidden_from(p)) for p in range(n)],
        "history": [(p, str(a)) for p, a in state.history],
        "current": state.current_player(),
    }
    return json.dumps(parts, sort_keys=True, default=str)


def check_determinism(name: str, options: dict[str, Any], games: int = 5) -> None:
    """Same seed and same actions give byte-identical records and observations."""
    game = _game(name, options)
    for g in range(games):
        runs = []
        for _ in range(2):
            state = game.new_initial_state(seed=1000 + g)
            rng = random.Random(g)
            obs_trace = [
                json.dumps(s.observation(0), sort_keys=True) for s in _states_along(state, rng)
            ]
            runs.append((records.dumps(state), obs_trace))
        assert runs[0] == runs[1], f"{name}: seed {1000 + g} played two different games"
    a = records.dumps(_random_game(game, 1, 11))
    b = records.dumps(_random_game(game, 2, 11))
    assert a != b, f"{name}: seeds 1 and 2 gave the same game"


def _random_game(game: Game, seed: int, rng_seed: int) -> State:
    state = game.new_initial_state(seed=seed)
    for _ in _states_along(state, random.Random(rng_seed)):
        pass
    return state


def check_record_roundtrip(name: str, options: dict[str, Any], games: int = 5) -> None:
    """``replay(loads(dumps(state)))`` reproduces the state, mid-game and at the end."""
    game = _game(name, options)
    for g in range(games):
        state = _random_game(game, 2000 + g, g)
        text = records.dumps(state)
        again = records.replay(records.loads(text))
        assert records.dumps(again) == text, f"{name}: record of seed {2000 + g} did not round-trip"
        assert fingerprint(again) == fingerprint(state)
        half = len(state.history) // 2
        prefix = records.replay(records.loads(text), upto=half)
        assert len(prefix.history) == half
        assert not prefix.is_terminal() or half == len(state.history)


def check_clone_independence(name: str, options: dict[str, Any], games: int = 3) -> None:
    """Acting on a clone never changes the original, and the clone starts equal."""
    game = _game(name, options)
    for g in range(games):
        state = game.new_initial_state(seed=3000 + g)
        rng = random.Random(g)
        for i, s in enumerate(_states_along(state, rng)):
            if s.is_terminal() or i % 7:
                continue
            before = fingerprint(s)
            copy = s.clone()
            assert fingerprint(copy) == before, f"{name}: clone differs from its original"
            _ = list(_states_along(copy, random.Random(i)))
            assert fingerprint(s) == before, f"{name}: playing a clone changed the original"


def _scribble(value: Any) -> None:
    """Change every container inside JSON data ``value`` in place."""
    if isinstance(value, dict):
        for v in list(value.values()):
            _scribble(v)
        value["__scribbled__"] = True
    elif isinstance(value, list):
        for v in value:
            _scribble(v)
        value.append("__scribbled__")


def check_observations_are_owned(name: str, options: dict[str, Any], games: int = 2) -> None:
    """Every observation is the caller's own data: changing anything inside it changes
    neither the state nor the next observation (wrappers hand observations out without
    copying them)."""
    game = _game(name, options)
    for g in range(games):
        state = game.new_initial_state(seed=4000 + g)
        rng = random.Random(g)
        for i, s in enumerate(_states_along(state, rng)):
            if i % 5:
                continue
            before = fingerprint(s)
            for p in [*range(game.num_players), None]:
                view = s.public_observation if p is None else functools.partial(s.observation, p)
                clean = view()
                _scribble(view())
                assert view() == clean, f"{name}: an observation shares data with the state"
            assert fingerprint(s) == before, f"{name}: changing an observation changed the state"


def _readers_along(
    name: str, options: dict[str, Any], games: int, seed: int, every: int
) -> Iterator[tuple[State, int | None]]:
    """``(state, reader)`` for every seat and the spectators (None) of every ``every``-th
    state (and the last) of ``games`` random games from ``seed`` on."""
    game = _game(name, options)
    for g in range(games):
        state = game.new_initial_state(seed=seed + g)
        rng = random.Random(g)
        for i, s in enumerate(_states_along(state, rng)):
            if i % every and not s.is_terminal():
                continue
            for p in [*range(game.num_players), None]:
                yield s, p


def check_views_without_log(name: str, options: dict[str, Any], games: int = 2) -> None:
    """``observation(p, log=False)`` and ``public_observation(log=False)`` are the views
    with their ``"log"`` (where they have one) empty, and nothing else changed; and
    ``log_messages(p, start)`` is ``log_messages(p)`` from line ``start`` on: a reader that
    takes the log apart (the web server sends each page only its new lines) sees the
    same view for less."""
    for s, p in _readers_along(name, options, games, seed=4700, every=7):
        whole = s.public_observation() if p is None else s.observation(p)
        bare = s.public_observation(log=False) if p is None else s.observation(p, False)
        if "log" in whole:
            whole["log"] = []
        assert bare == whole, f"{name}: a view without its log differs beyond the log"
        messages = s.log_messages(p)
        for start in (0, 1, len(messages) // 2, len(messages), len(messages) + 3):
            assert s.log_messages(p, start) == messages[start:], (
                f"{name}: log_messages({p}, {start}) is not the log from line {start}"
            )


def check_log_messages(name: str, options: dict[str, Any], games: int = 2) -> None:
    """``log_messages(p)`` is ``observation(p)["log"]`` as messages (the public log for
    None): one message per line, ``str()`` the line, so that what the edges translate holds
    exactly what the seat's log holds; the wire form round-trips."""
    for s, p in _readers_along(name, options, games, seed=4500, every=9):
        obs = s.public_observation() if p is None else s.observation(p)
        messages = s.log_messages(p)
        lines = [str(m) for m in messages]
        assert lines == obs.get("log", []), f"{name}: log_messages({p}) is not its log"
        for m in messages:
            assert from_wire(json.loads(json.dumps(to_wire(m)))) == m, m


def check_resample(name: str, options: dict[str, Any], games: int = 5, samples: int = 8) -> None:
    """``resample(p)`` keeps ``observation(p)`` and really varies what p cannot see.

    Over a game, for each seat, the hidden fingerprints of the samples must differ from the
    truth at least once: so ``observation(p)`` is provably independent of everything the
    resampling changes (no leak), and the determinizations are not the true state.
    """
    game = _game(name, options)
    rng = random.Random(99)
    for g in range(games):
        state = game.new_initial_state(seed=4000 + g)
        varied = [False] * game.num_players
        for i, s in enumerate(_states_along(state, random.Random(g))):
            if i % 3:
                continue
            for p in range(game.num_players):
                obs = s.observation(p)
                truth: Hashable = s.hidden_from(p)
                before = fingerprint(s)
                for _ in range(samples):
                    r = s.resample(p, rng)
                    assert r.observation(p) == obs, (
                        f"{name}: resample({p}) changed observation({p}) at step {i} of seed "
                        f"{4000 + g}: observation depends on something seat {p} cannot see"
                    )
                    assert r.current_player() == s.current_player()
                    assert r.is_terminal() == s.is_terminal()
                    if r.hidden_from(p) != truth:
                        varied[p] = True
                    if not r.is_terminal():
                        _ = list(_states_along(r, random.Random(i)))
                assert fingerprint(s) == before, f"{name}: resample changed the original state"
        assert all(varied), f"{name}: resample never varied hidden information ({varied})"


def check_resample_canonical(name: str, options: dict[str, Any], games: int = 3) -> None:
    """``resample(p, rng)`` depends only on what p sees and on ``rng``: two states that
    differ only in what p cannot see give identical samples for the same generator seed.

    This is what keeps a seeded search bot blind to hidden information (its choice cannot
    change when only hidden parts of the true state change).
    """
    game = _game(name, options)
    for g in range(games):
        state = game.new_initial_state(seed=7000 + g)
        for i, s in enumerate(_states_along(state, random.Random(g))):
            if i % 5 or s.is_terminal():
                continue
            for p in range(game.num_players):
                twin = s.resample(p, random.Random(i))  # same observation, other hidden parts
                a = s.resample(p, random.Random(1234))
                b = twin.resample(p, random.Random(1234))
                assert a.hidden_from(p) == b.hidden_from(p), (
                    f"{name}: resample({p}) at step {i} of seed {7000 + g} depends on hidden "
                    "parts of the state it was called on"
                )
                assert a.observation(p) == b.observation(p)


def check_actions(name: str, options: dict[str, Any], games: int = 3, per_state: int = 40) -> None:
    """Every legal action applies and round-trips through its text; others are refused."""
    game = _game(name, options)
    for g in range(games):
        state = game.new_initial_state(seed=5000 + g)
        for s in _states_along(state, random.Random(g)):
            player = s.current_player()
            legal = list(s.legal_actions())
            if s.is_terminal():
                assert player == TERMINAL_PLAYER and not legal
                _expect_refused_at_end(s)
                continue
            assert legal, f"{name}: no legal action for player {player}"
            assert len(set(map(str, legal))) == len(legal), f"{name}: duplicate action texts"
            active = s.active_players()
            assert active and active[0] == player, f"{name}: active {active}, current {player}"
            for p in range(game.num_players):
                if p not in active:
                    assert not s.legal_actions(p), f"{name}: seat {p} has actions off turn"
                    assert s.legal_choices(p) is None, f"{name}: seat {p} has choices off turn"
                texts = [str(a) for a in s.legal_actions(p)]
                assert s.legal_action_texts(p) == texts, f"{name}: legal_action_texts({p})"
                choices = s.legal_choices(p)
                if choices is not None:  # as a client gets it: through JSON
                    sent = json.loads(json.dumps(choices))
                    assert compose(sent) == texts, f"{name}: legal_choices({p}) composed"
            step = max(1, len(legal) // per_state)
            for a in legal[::step]:
                assert game.parse_action(s, str(a)) == a, f"{name}: {a} does not round-trip"
                s.clone().apply_action(a)
            _expect_refused(game, s, MALFORMED_TEXTS)


def _expect_refused_at_end(s: State) -> None:
    """At the end, re-applying the last action is refused and changes nothing."""
    before = fingerprint(s)
    try:
        s.apply_action(s.history[-1][1])
    except IllegalActionError:
        pass
    else:
        raise AssertionError("an action was applied to a terminal state")
    assert fingerprint(s) == before, "a refused action changed the state"


def _expect_refused(game: Game, s: State, texts: list[str]) -> None:
    before = fingerprint(s)
    for text in texts:
        try:
            action = game.parse_action(s, text)
        except (InvalidActionError, IllegalActionError):
            pass
        else:
            raise AssertionError(f"malformed text {text!r} parsed as {action}")
        assert fingerprint(s) == before


def check_illegal_refused(name: str, options: dict[str, Any], games: int = 3) -> None:
    """Actions legal elsewhere but not now raise ``IllegalActionError`` and change nothing."""
    game = _game(name, options)
    for g in range(games):
        pool: list[Any] = []
        state = game.new_initial_state(seed=6000 + g)
        rng = random.Random(g)
        for s in _states_along(state, rng):
            if s.is_terminal():
                break
            legal_texts = {str(a) for a in s.legal_actions()}
            before = fingerprint(s)
            for other in pool[-30:]:
                if str(other) in legal_texts:
                    continue
                try:
                    s.apply_action(other)
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"{name}: illegal {other} was applied")
                assert fingerprint(s) == before, f"{name}: refused {other} changed the state"
                try:
                    game.parse_action(s, str(other))
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"{name}: illegal text {other} parsed")
            pool.extend(s.legal_actions()[:5])


def check_seats_refused(name: str, options: dict[str, Any], games: int = 2) -> None:
    """A seat argument that is not one of the game's seats (out of range, or no integer)
    raises ``SeatError`` in every seat-taking call, and changes nothing."""
    game = _game(name, options)
    for g in range(games):
        state = game.new_initial_state(seed=6500 + g)
        for s in _states_along(state, random.Random(g)):
            legal = s.legal_actions()
            before = fingerprint(s)
            # (Seat 9 is beyond every game; a solo game's seat 1 is its automated opponent.)
            for bad in (-1, 9, 2**70, 1.5, "0", True):
                calls: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
                    ("legal_actions", s.legal_actions, (bad,)),
                    ("legal_action_texts", s.legal_action_texts, (bad,)),
                    ("observation", s.observation, (bad,)),
                ]
                if legal:
                    calls.append(("apply_action", s.apply_action, (legal[0], bad)))
                    calls.append(("parse_action", game.parse_action, (s, str(legal[0]), bad)))
                for what, call, args in calls:
                    try:
                        call(*args)
                    except SeatError:
                        pass
                    else:
                        raise AssertionError(f"{name}: {what} took seat {bad!r}")
                    assert fingerprint(s) == before, f"{name}: {what}({bad!r}) changed the state"


def _variants(texts: list[str], items: list[str], rng: random.Random) -> set[str]:
    """Texts beyond the legal ones that a parser may well accept: each of ``texts`` with an
    argument item added (from ``items``, seen anywhere: cards not in hand, over a limit),
    one dropped, one repeated, or the verb paired with a single item."""
    out: set[str] = set()
    verbs = {t.split(" ", 1)[0] for t in texts}
    for text in texts:
        verb, _, arg = text.partition(" ")
        parts = [] if arg in ("", "-") else arg.split(",")
        extra = rng.choice(items) if items else "-"
        out.add(f"{verb} {','.join([*parts, extra])}")
        if parts:
            out.add(f"{verb} {','.join(parts[1:]) or '-'}")
            out.add(f"{verb} {','.join([*parts, parts[-1]])}")
            out.add(f"{verb} {' '.join(parts)}")
    for verb in verbs:
        for item in rng.sample(items, min(len(items), 6)):
            out.add(f"{verb} {item}")
    return out


def check_accepted_are_listed(
    name: str, options: dict[str, Any], games: int = 3, per_state: int = 30
) -> None:
    """Whatever ``parse_action`` or ``apply_action`` accepts is in ``legal_actions``.

    Candidates go beyond the legal list: actions legal elsewhere in the game, and texts
    built from the legal ones (an item added, dropped or repeated, the verbs with single
    items seen anywhere), for every active seat and for seats that are not active.
    """
    game = _game(name, options)
    for g in range(games):
        rng = random.Random(g)
        pool: list[Any] = []
        items: set[str] = set()
        state = game.new_initial_state(seed=9000 + g)
        for i, s in enumerate(_states_along(state, random.Random(g))):
            if s.is_terminal():
                break
            for p in range(game.num_players):
                legal = list(s.legal_actions(p))
                listed = {str(a) for a in legal}
                texts = [str(a) for a in rng.sample(legal, min(len(legal), per_state))]
                for text in texts:
                    _, _, arg = text.partition(" ")
                    items.update(x for x in arg.split(",") if x and x != "-")
                candidates = _variants(texts, sorted(items), rng) | {
                    str(a) for a in pool[-per_state:]
                }
                for text in sorted(candidates):
                    try:
                        action = game.parse_action(s, text, p)
                    except (InvalidActionError, IllegalActionError):
                        continue
                    assert str(action) in listed, (
                        f"{name}: step {i} of seed {9000 + g}: {text!r} parsed for seat {p} "
                        "but is not among its legal actions"
                    )
                for other in pool[-per_state:]:
                    copy = s.clone()
                    try:
                        copy.apply_action(other, p)
                    except IllegalActionError:
                        continue
                    assert str(other) in listed, (
                        f"{name}: step {i} of seed {9000 + g}: {other} applied for seat {p} "
                        "but is not among its legal actions"
                    )
                pool.extend(legal[:3])


def _play_in_order(state: State, choices: dict[int, Any], order: list[int]) -> State:
    """A clone of ``state`` after each seat's choice in ``choices``, applied in ``order``."""
    copy = state.clone()
    for p in order:
        copy.apply_action(choices[p], p)
    return copy


def check_simultaneous(name: str, options: dict[str, Any], games: int = 3) -> None:
    """Simultaneous decisions (several :meth:`~State.active_players`) may arrive in any
    order: every order gives the same fingerprint (state, every seat's view, history) and
    the same record; and a seat's choice, until all are in, is hidden from the other seats
    and from spectators (their observations do not depend on which choice it was)."""
    game = _game(name, options)
    for g in range(games):
        state = game.new_initial_state(seed=8000 + g)
        rng = random.Random(g)
        for i, s in enumerate(_states_along(state, rng)):
            active = s.active_players()
            if len(active) < 2:
                continue
            choices = {p: rng.choice(list(s.legal_actions(p))) for p in active}
            orders = [active, active[::-1]]
            results = [_play_in_order(s, choices, order) for order in orders]
            prints = {fingerprint(r) for r in results}
            records_ = {records.dumps(r) for r in results}
            assert len(prints) == 1 and len(records_) == 1, (
                f"{name}: step {i} of seed {8000 + g}: the order of the simultaneous choices "
                f"{choices} changed the game"
            )
            for p in active:
                legal = list(s.legal_actions(p))
                if len(legal) < 2:
                    continue
                a, b = s.clone(), s.clone()
                a.apply_action(legal[0], p)
                b.apply_action(legal[-1], p)
                others = [q for q in range(game.num_players) if q != p]
                seen_a = [a.observation(q) for q in others] + [a.public_observation()]
                seen_b = [b.observation(q) for q in others] + [b.public_observation()]
                assert seen_a == seen_b, (
                    f"{name}: seat {p}'s pending choice shows to another seat at step {i}"
                )
                assert a.active_players() == b.active_players()


def run_all(name: str, options: dict[str, Any] | None = None, games: int = 5) -> None:
    """Run every conformance check on game ``name`` with ``options``."""
    opts = options or {}
    check_determinism(name, opts, games)
    check_record_roundtrip(name, opts, games)
    check_clone_independence(name, opts, max(1, games // 2))
    check_observations_are_owned(name, opts, max(1, games // 2))
    check_log_messages(name, opts, max(1, games // 2))
    check_views_without_log(name, opts, max(1, games // 2))
    check_resample(name, opts, games)
    check_resample_canonical(name, opts, max(1, games // 2))
    check_actions(name, opts, max(1, games // 2))
    check_illegal_refused(name, opts, max(1, games // 2))
    check_simultaneous(name, opts, max(1, games // 2))
    check_accepted_are_listed(name, opts, max(1, games // 2))
    check_seats_refused(name, opts, max(1, games // 2))
