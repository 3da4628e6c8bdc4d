"""The shared encoding: ids map one-to-one onto engine actions, masks, tensors, errors."""

from __future__ import annotations

import random
from typing import Any, SupportsIndex

import numpy as np
import pytest

from porphyra.core.errors import IllegalActionError
from porphyra.envs.encoding import Canvas, EnvCore
from porphyra.games.conspiracy import ConspiracyState
from tests.envs.helpers import CONFIGS, new_core, random_walk


@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_every_legal_action_has_one_id_sequence_and_back(
    game: str, options: dict[str, Any]
) -> None:
    rng = random.Random(3)
    core = new_core(game, options, seed=3)
    checked = 0
    for at in random_walk(core, rng):
        if rng.random() > 0.2:
            continue
        for seat in at.active():
            if at.selections[seat]:
                continue
            legal = list(at.state.legal_actions(seat))
            seqs = set()
            for action in legal:
                ids = at.ids_of(seat, action)
                twin = at.clone()
                done = [twin.step(seat, i) for i in ids]
                assert done[-1] == action and all(d is None for d in done[:-1])
                assert twin.state.history[-1] == (seat, action) or seat in twin.active()
                seqs.add(tuple(ids))
            assert len(seqs) == len(legal)
            checked += 1
    assert checked > 3


@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_mask_tensor_shapes_and_types(game: str, options: dict[str, Any]) -> None:
    core = new_core(game, options, seed=1)
    for at in random_walk(core, random.Random(1)):
        for seat in range(len(at.selections)):
            mask, tensor = at.mask(seat), at.tensor(seat)
            assert mask.dtype == np.int8 and mask.shape == (at.codec.num_actions,)
            assert tensor.dtype == np.float32 and tensor.shape == (at.codec.layout.size,)
            assert bool(mask.any()) == (seat in at.active())
            assert list(np.flatnonzero(mask)) == at.legal_ids(seat)


def test_illegal_id_is_refused_and_changes_nothing() -> None:
    core = new_core("byzantium", {}, seed=5)
    seat = core.active()[0]
    bad = next(i for i in range(core.codec.num_actions) if i not in core.legal_ids(seat))
    before = (core.state.observation(seat), list(core.selections), core.legal_ids(seat))
    with pytest.raises(IllegalActionError, match="not legal"):
        core.step(seat, bad)
    assert before == (core.state.observation(seat), list(core.selections), core.legal_ids(seat))


def test_byzantium_meld_is_built_card_by_card_then_end() -> None:
    rng = random.Random(2)
    core = new_core("byzantium", {}, seed=2)
    for at in random_walk(core, rng):
        seat = at.active()[0]
        if at.state.legal_actions(seat)[0].verb == "meld" and not at.selections[seat]:  # type: ignore[attr-defined]
            actions = [a for a in at.state.legal_actions(seat) if len(a.cards) >= 2]  # type: ignore[attr-defined]
            if actions:
                break
    action = actions[0]
    ids = at.ids_of(seat, action)
    assert ids[-1] == 0 and len(ids) == len(action.cards) + 1  # type: ignore[attr-defined]
    assert ids[:-1] == sorted(ids[:-1])
    at.step(seat, ids[0])
    assert at.observation(seat)["selection"] == [action.cards[0]]  # type: ignore[attr-defined]
    assert (
        at.tensor(seat)[
            next(f.offset for f in at.codec.layout.fields if f.name == "selection") + ids[0] - 1
        ]
        == 1.0
    )


def test_byzantium_fast_token_reading_matches_the_actions() -> None:
    core = new_core("byzantium", {}, seed=8)
    seen = 0
    for at in random_walk(core, random.Random(8)):
        for seat in at.active():
            legal = at.state.legal_actions(seat)
            fast = list(at.codec.all_tokens(legal))
            assert fast == [at.codec.tokens(a) for a in legal]
            seen += len(fast)
    assert seen > 500


def test_byzantium_prefix_table_answers_as_the_trie_of_every_option() -> None:
    # Byzantium's OptionTable asks the engine whether a selection is listed instead of
    # building a trie of hundreds of melds; both must give the same next tokens and the
    # same complete action for every prefix of every option, and refuse the rest alike.
    from porphyra.envs.encoding import Codec, _Table

    seen = 0
    for seed in (8, 9, 10):
        core = new_core("byzantium", {}, seed=seed)
        rng = random.Random(seed)
        for at in random_walk(core, rng):
            for seat in at.active():
                legal = at.state.legal_actions(seat)
                fast = at.codec.table(legal)
                trie = Codec.table(at.codec, legal)
                assert isinstance(trie, _Table) and type(fast) is not _Table
                prefixes = {toks[:i] for toks in trie.full for i in range(len(toks) + 1)}
                extra = {(*p, t) for p in prefixes for t in range(1, at.codec.num_actions)}
                for sel in prefixes | set(rng.sample(sorted(extra), min(60, len(extra)))):
                    assert fast.next_tokens(sel) == trie.next_tokens(sel), sel
                    made, expected = fast.action(sel), trie.action(sel)
                    assert (made is None) == (expected is None), sel
                    if made is not None:
                        assert str(made) == str(expected)
                    seen += 1
    assert seen > 5000


@pytest.mark.parametrize("players", [1, 2, 4])
def test_conspiracy_one_token_table_answers_as_the_trie(players: int) -> None:
    from porphyra.envs.encoding import Codec

    seen = 0
    core = new_core("conspiracy", {"players": players}, seed=3)
    for at in random_walk(core, random.Random(3)):
        for seat in at.active():
            legal = at.state.legal_actions(seat)
            fast, trie = at.codec.table(legal), Codec.table(at.codec, legal)
            tokens = range(at.codec.num_actions)
            for sel in [(), *((t,) for t in tokens), (0, 0)]:
                assert fast.next_tokens(sel) == trie.next_tokens(sel)
                assert fast.action(sel) == trie.action(sel)
                seen += 1
    assert seen > 1000


def test_byzantium_extensions_are_the_kinds_whose_addition_is_listed() -> None:
    # LegalActions.extensions answers in one pass what listed() answers kind by kind.
    seen = 0
    for seed in (4, 5):
        core = new_core("byzantium", {}, seed=seed)
        rng = random.Random(seed)
        for at in random_walk(core, rng):
            for seat in at.active():
                legal = at.state.legal_actions(seat)
                kinds = list(legal.kinds)  # type: ignore[attr-defined]
                chosen = [t - 1 for t in at.selections[seat]]
                for prefix in (chosen, [], [*chosen, rng.choice(kinds)]):
                    last = prefix[-1] if prefix else -1
                    expected = [k for k in kinds if k >= last and legal.listed([*prefix, k])]  # type: ignore[attr-defined]
                    assert legal.extensions(prefix) == expected, prefix  # type: ignore[attr-defined]
                    seen += 1
                assert legal.extensions([10_000]) == []  # type: ignore[attr-defined]
    assert seen > 300


@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_changing_a_handed_out_observation_changes_nothing(
    game: str, options: dict[str, Any]
) -> None:
    # The first observation after a change is the very one the tensor was encoded from;
    # a caller may keep and change it without changing later tensors or observations.
    steps = 0
    for seed in (6, 7, 8):
        rng = random.Random(seed)
        core = new_core(game, options, seed=seed)
        while not core.state.is_terminal():
            seat = core.active()[0]
            twin = core.clone()  # (no cached view: built afresh)
            if steps % 2:
                core.tensor(seat)  # the tensor first (as Gymnasium asks), or the JSON first
            obs = core.observation(seat)
            assert obs == twin.observation(seat)
            obs.clear()
            again = core.observation(seat)
            assert again == twin.observation(seat)
            again["selection"].append("x")
            assert np.array_equal(core.tensor(seat), twin.tensor(seat))
            core.tensor(seat)[:] = -1.0  # (tensors and masks are the caller's, too)
            core.mask(seat)[:] = 0
            assert np.array_equal(core.tensor(seat), twin.tensor(seat))
            assert np.array_equal(core.mask(seat), twin.mask(seat)) and core.mask(seat).any()
            ids = core.legal_ids(seat)
            core.step(seat, ids[rng.randrange(len(ids))])
            steps += 1
    assert steps > 40


def test_the_encoding_classes_can_be_extended_by_interpreted_code() -> None:
    # The encoding is compiled in a regular install; a researcher's own table, codec or
    # core (plain Python subclasses) must still work there.
    from porphyra.envs.encoding import EnvCore, OptionTable

    class Nothing(OptionTable):
        def next_tokens(self, selection: tuple[int, ...]) -> set[int]:
            return set()

        def action(self, selection: tuple[int, ...]) -> None:
            return None

    class Counting(EnvCore):
        steps = 0

        def step(self, player: SupportsIndex, action_id: SupportsIndex) -> Any:
            type(self).steps += 1
            return super().step(player, action_id)

    assert Nothing().next_tokens(()) == set()
    base = new_core("conspiracy", {}, seed=1)
    core = Counting(base.codec, base.state)
    seat = core.active()[0]
    core.step(seat, core.legal_ids(seat)[0])
    assert Counting.steps == 1 and len(core.state.history) == 1


@pytest.mark.parametrize(("game", "options"), [CONFIGS[0], CONFIGS[1]])
def test_a_core_pickles_and_deep_copies_mid_selection(game: str, options: dict[str, Any]) -> None:
    import copy
    import pickle

    rng = random.Random(9)
    core = new_core(game, options, seed=9)
    for n, at in enumerate(random_walk(core, rng)):
        if n in (3, 17, 40) or any(at.selections):
            seat = at.active()[0]
            for twin in (pickle.loads(pickle.dumps(at)), copy.deepcopy(at)):
                assert twin.selections == at.selections
                assert twin.state.history == at.state.history
                assert np.array_equal(twin.tensor(seat), at.tensor(seat))
                assert twin.legal_ids(seat) == at.legal_ids(seat)
                assert twin.observation(seat) == at.observation(seat)
        if n > 60:
            break
    layout = core.codec.layout
    assert pickle.loads(pickle.dumps(layout)).fields == layout.fields


def test_seats_and_ids_of_any_integer_type_and_clear_errors_for_the_rest() -> None:
    from porphyra.core.errors import SeatError

    core = new_core("conspiracy", {}, seed=4)
    seat = core.active()[0]
    ids = core.legal_ids(np.int64(seat))
    assert ids == core.legal_ids(seat)
    assert np.array_equal(core.mask(np.int32(seat)), core.mask(seat))
    assert np.array_equal(core.tensor(np.int64(seat)), core.tensor(seat))
    for bad in (True, "0", 0.0, None, -1, 2):
        with pytest.raises(SeatError):
            core.legal_ids(bad)  # type: ignore[arg-type]
        with pytest.raises(SeatError):
            core.mask(bad)  # type: ignore[arg-type]
    before = (core.state.observation(seat), list(core.selections))
    for bad_id in (1.0, "3", True, None):
        with pytest.raises(IllegalActionError, match="an action id is an integer"):
            core.step(seat, bad_id)  # type: ignore[arg-type]
    assert before == (core.state.observation(seat), list(core.selections))
    core.step(np.int64(seat), np.int64(ids[0]))
    assert len(core.state.history) == 1


def test_the_codecs_can_be_extended_and_fields_are_filled_whole() -> None:
    from porphyra.core.registry import load_game
    from porphyra.envs.codecs import ByzantiumCodec, ConspiracyCodec
    from porphyra.envs.encoding import Canvas, Span

    for cls, name in ((ByzantiumCodec, "byzantium"), (ConspiracyCodec, "conspiracy")):
        mine = type("Mine", (cls,), {})(load_game(name))
        assert mine.num_actions == cls(load_game(name)).num_actions
    canvas = Canvas()
    canvas.fill(Span(2, 4), (1.0, 2.0))
    assert canvas.cells == {2: 1.0, 3: 2.0}
    with pytest.raises(ValueError, match="3 values for a field of 2"):
        canvas.fill(Span(2, 4), (1.0, 2.0, 3.0))


def test_byzantium_tensor_is_encoded_from_the_whole_observation_by_kind() -> None:
    # The codec asks the engine for the seat's observation with cards by kind and without
    # the log (which the tensor does not show): it must be the whole observation, card
    # for card, but for the log; and the JSON handed out keeps its slugs and log.
    seen = 0
    for seed in (1, 2):
        core = new_core("byzantium", {}, seed=seed)
        index: dict[str, int] = core.codec.index  # type: ignore[attr-defined]

        def by_kind(names: list[str] | None, index: dict[str, int] = index) -> list[int] | None:
            return None if names is None else [index[n] for n in names]

        for at in random_walk(core, random.Random(seed)):
            for seat in (0, 1):
                whole = at.state.observation(seat)
                light, complete = at.codec.observe(at.state, seat)
                assert not complete and light["log"] == []
                expected = {**whole, "log": []}
                for field in ("hand", "pending_meld", "pending_choice", "known_opponent_cards"):
                    expected[field] = by_kind(whole[field])
                expected["removed"] = by_kind(whole["removed"])
                for field in ("discards", "melds"):
                    expected[field] = {d: by_kind(v) for d, v in whole[field].items()}
                expected["set_aside"] = {
                    d: sorted(by_kind(v) or []) for d, v in whole["set_aside"].items()
                }
                if whole["negotiation"] is not None:
                    expected["negotiation"] = {
                        k: None if v is None else index[v] for k, v in whole["negotiation"].items()
                    }
                assert light == expected
                assert at.observation(seat)["log"] == whole["log"]
                seen += 1
    assert seen > 100


@pytest.mark.parametrize("players", [1, 2, 4])
def test_conspiracy_tensor_is_encoded_from_the_whole_observation_without_its_log(
    players: int,
) -> None:
    # As Byzantium's: the codec reads the seat's observation without the log (which the
    # tensor does not show); every other field is the whole observation's, and the JSON
    # handed out keeps its log.
    seen = 0
    for seed in (1, 2, 3, 4):
        core = new_core("conspiracy", {"players": players}, seed=seed)
        for at in random_walk(core, random.Random(seed)):
            for seat in range(players):
                whole = at.state.observation(seat)
                light, complete = at.codec.observe(at.state, seat)
                assert not complete and light == {**whole, "log": []}
                assert at.observation(seat)["log"] == whole["log"]
                # Handed out too (observation_json): the whole one, encoded alike.
                full, complete = at.codec.observe(at.state, seat, True)
                assert complete and full == whole
                cells, light_cells = Canvas(), Canvas()
                at.codec.encode(full, cells)
                at.codec.encode(light, light_cells)
                assert cells.cells == light_cells.cells
                both = EnvCore(at.codec, at.state.clone(), with_json=True)
                assert both.observation(seat) == at.observation(seat)
                assert (both.tensor(seat) == at.tensor(seat)).all()
                seen += 1
    assert seen > 100


@pytest.mark.parametrize(
    ("game", "options", "games"), [("byzantium", {}, 25), ("conspiracy", {}, 4)]
)
def test_ids_of_agrees_with_the_mask_for_every_legal_action(
    game: str, options: dict[str, Any], games: int
) -> None:
    # Over many random games, every legal action of every fresh decision: each of its
    # ids is allowed by the mask at the moment it is played, and the last one applies
    # the action (Byzantium's `replace -` where END is the only legal id included).
    rng = random.Random(21003)
    only_end = 0
    for seed in range(games):
        for at in random_walk(new_core(game, options, seed=21000 + seed), rng):
            for seat in at.active():
                if at.selections[seat]:
                    continue
                only_end += at.legal_ids(seat) == [at.codec.end]
                for action in at.state.legal_actions(seat):
                    twin = at.clone()
                    ids = at.ids_of(seat, action)
                    assert ids, f"no ids for {action}"
                    for i, token in enumerate(ids):
                        assert twin.mask(seat)[token] == 1, f"{action}: id {token} masked"
                        done = twin.step(seat, token)
                        assert (done == action) if i == len(ids) - 1 else done is None
    if game == "byzantium":
        assert only_end > 0  # the case that once had no ids was met


@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_tensor_values_are_the_tensor_as_floats(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(12)
    selections = 0
    for at in random_walk(new_core(game, options, seed=12), rng):
        for seat in range(len(at.selections)):
            assert at.tensor_values(seat) == at.tensor(seat).tolist()
            selections += bool(at.selections[seat])
    if game == "byzantium":
        assert selections > 0  # mid-selection tensors were compared too


@pytest.mark.parametrize("players", [2, 3, 1])
def test_conspiracy_views_are_made_together_and_never_stale(players: int) -> None:
    # The codec makes every seat's tensor-only view of a state at once and keeps them
    # until that state changes: each read is the engine's view of the state as it is now,
    # for the state played on in place and for a copy played another way.
    core = new_core("conspiracy", {"players": players}, seed=5)
    codec = core.codec
    rng = random.Random(5)
    for at in random_walk(core, rng):
        live = at.state
        assert isinstance(live, ConspiracyState)
        twin = live.clone()
        seats = range(len(at.selections))
        for state in (live, twin, live):
            for seat in seats:
                assert codec.observe(state, seat) == (state.observation(seat, log=False), False)
        if not twin.is_terminal():
            twin.apply_action(twin.legal_actions()[-1])
            for seat in seats:
                assert codec.observe(twin, seat)[0] == twin.observation(seat, log=False)
