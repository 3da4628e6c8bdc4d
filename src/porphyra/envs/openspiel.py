"""OpenSpiel games: importing this module registers ``porphyra_byzantium`` and
``porphyra_conspiracy`` as pyspiel Python games.

>>> import pyspiel
>>> import porphyra.envs.openspiel
>>> game = pyspiel.load_game("porphyra_conspiracy", {"players": 3, "seed": 1})
>>> game.num_players(), game.num_distinct_actions()
(3, 301)

Both are sequential, imperfect-information, sampled-stochastic games (the engine draws
from its own seeded generator; there are no chance nodes).  Action ids are the fixed ids
of :mod:`porphyra.envs.encoding`, the same in every resampled world: Byzantium builds a
card list kind by kind then ``END`` (so one engine decision spans several OpenSpiel
moves, and in its simultaneous phases the Emperor completes its hidden choice first);
Conspiracy has one id per action of its full table.  Legal sets differ between worlds
(another hand, other melds), so OpenSpiel's ISMCTS needs
``allow_inconsistent_action_sets=True``.

Strings: the information state is the seat's JSON observation with its log and its
selection (``json.dumps``, sorted keys); the observation string drops the log.  Tensors:
both are the seat's float32 tensor of ``docs/envs.md`` (Markov, not perfect recall).
``resample_from_infostate`` uses the engine's ``resample``.  Parameters: ``seed`` (the
game object draws each new initial state's engine seed from the sequence it seeds; the
default, -1, seeds it from the OS, so games loaded by name, by Shimmy at every reset or by
parallel workers, deal differently) and, for Conspiracy, ``players`` (1-4; 1 is solo).

No hidden game per call: pyspiel builds a throw-away initial state for a Python game to
size a tensor, to clone and to deserialise.  Here an initial state is a light shell whose
deal (the engine seed drawn from ``seed``'s sequence, then the engine state) is made when
the state is first played or read, so those shells cost nothing and draw nothing; tensors
and their sizes read from Python are answered without pyspiel's sizing shell at all.  The
deals of a seeded game are thus the same whatever is read, cloned or searched (C++ code
that reads a tensor through pyspiel's ``State::ObservationTensor`` still has pyspiel make
its sizing shell and read it, which draws a deal).

States and games pickle and deep-copy, and ``pyspiel.serialize_game_and_state`` works:
the chance mode is ``DETERMINISTIC`` (no chance nodes; the engine's generator is part of
each state, so a state's future depends only on the actions; the deal is fixed when the
initial state is made).  A deserialised game restarts its ``seed`` sequence; a pickled
one carries on where it was.

OpenSpiel's C++ bots cannot play these Python games (nor any Python game): the binding of
``pyspiel.ISMCTSBot.step`` and ``pyspiel.MCTSBot.step`` releases the GIL and then calls
back into Python, which crashes the interpreter (segfault); ``step_with_policy`` keeps the
GIL but pyspiel does not forward ``ResampleFromInfostate`` to Python states, so it raises
``SpielError``.  Use the Python bots, ``open_spiel.python.algorithms.ismcts`` and
``mcts``; give the ISMCTS bot :func:`seeded_resampler` for games that repeat (its own
resampler seeds every sampled world from the OS).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import Game
from porphyra.core.registry import game_info, load_game
from porphyra.envs.codecs import codec_for
from porphyra.envs.encoding import Codec, EnvCore
from porphyra.envs.hooks import research_games, research_hooks

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

#: Upper bound on the moves of one card-list decision (a Byzantium hand plus END).
_TOKENS_PER_DECISION = 12

#: The ``seed`` parameter's default: seed the deal sequence from the OS.
RANDOM_SEED = -1


def _players_default(name: str) -> int | None:
    """The default of game ``name``'s ``players`` option (its OpenSpiel parameter), or
    None for a game whose seat count is fixed."""
    option = next((o for o in game_info(name).options if o.name == "players"), None)
    return None if option is None else int(option.default)


@functools.cache
def _game_type(name: str, zero_sum: bool) -> Any:
    """OpenSpiel's type of game ``name`` (``porphyra_<name>``), zero-sum or general-sum;
    made once for each (the same object for every game of that type)."""
    info = game_info(name)
    params: dict[str, Any] = {"seed": RANDOM_SEED}
    players = _players_default(name)
    if players is not None:
        params["players"] = players
    return pyspiel.GameType(
        short_name=f"porphyra_{name}",
        long_name=f"porphyra {research_hooks(name).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if zero_sum
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _registered_type(name: str) -> Any:
    """The type registered for game ``name``: zero-sum when it is at every seat count
    (Byzantium), else general-sum (Conspiracy: zero-sum with two players only)."""
    info = game_info(name)
    seats = range(info.min_players, info.max_players + 1)
    return _game_type(name, all(research_hooks(name).zero_sum(n) for n in seats))


def _seed_sequence(seed: int) -> random.Random:
    """The generator of a game's engine seeds: seeded by ``seed``, or from the OS for
    :data:`RANDOM_SEED` (any negative seed)."""
    return random.Random() if seed < 0 else random.Random(seed)


class _Deal:
    """The deal of an initial state not yet played or read: its engine seed is drawn
    from the game's sequence when the state's engine state is first needed
    (:meth:`seed`).  A clone of such a state shares it (``deepcopy`` returns the same
    object), so both get the same deal whichever is read first.

    Args:
        codec: the game's codec (its ``game`` makes the engine state).
        seeds: the game's seed sequence (None once the seed is drawn).
        seed: the engine seed, if drawn.
    """

    __slots__ = ("_seed", "codec", "seeds")

    def __init__(self, codec: Codec, seeds: random.Random | None, seed: int | None = None) -> None:
        self.codec = codec
        self.seeds = seeds
        self._seed = seed

    def seed(self) -> int:
        """The engine seed, drawn from the sequence on the first call."""
        if self._seed is None:
            assert self.seeds is not None
            self._seed = self.seeds.getrandbits(31)
            self.seeds = None
        return self._seed

    def core(self) -> EnvCore:
        """A new core of the deal's engine game."""
        return EnvCore(self.codec, self.codec.game.new_initial_state(seed=self.seed()))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its seed (drawn now if it was not: the sequence stays behind).
        return (_Deal, (self.codec, None, self.seed()))


class PorphyraGame(pyspiel.Game):
    """A porphyra game as a pyspiel game (``params``: see the module docstring).

    Raises:
        UnknownGameError: invalid ``players``.
    """

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = _players_default(name)
        options = {} if players is None else {"players": int(params.get("players", players))}
        self.engine: Game = load_game(name, **options)
        self.codec: Codec = codec_for(self.engine)
        codec = self.codec
        n = self.engine.num_players
        zero_sum = research_hooks(name).zero_sum(n)
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.engine.info.max_game_length
            * (_TOKENS_PER_DECISION if codec.end is not None else 1),
        )
        registered = _registered_type(name)
        game_type = _game_type(name, True) if zero_sum else registered
        super().__init__(game_type, info, params)
        self._name = name
        self._params = params
        self._seeds = _seed_sequence(int(params.get("seed", RANDOM_SEED)))

    def new_initial_state(self) -> PorphyraState:
        """A new game; its engine seed is drawn from the ``seed`` parameter's sequence
        when the state is first played or read (see the module docstring)."""
        return PorphyraState(self, None, _Deal(self.codec, self._seeds))

    # Tensor sizes from the codec: pyspiel would build an initial state and encode it.
    def observation_tensor_size(self) -> int:
        """The observation tensor's length (``docs/envs.md``)."""
        return self.codec.layout.size

    def information_state_tensor_size(self) -> int:
        """The information-state tensor's length (the observation tensor's)."""
        return self.codec.layout.size

    def observation_tensor_shape(self) -> list[int]:
        """``[observation_tensor_size()]``."""
        return [self.codec.layout.size]

    def information_state_tensor_shape(self) -> list[int]:
        """``[information_state_tensor_size()]``."""
        return [self.codec.layout.size]

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PorphyraObserver:
        """The observer of ``iig_obs_type`` (perfect recall: information state)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PorphyraObserver(self.codec, recall)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its name, parameters and the seed sequence's position.
        return (_restore_game, (self._name, self._params, self._seeds.getstate()))


def _restore_game(name: str, params: dict[str, Any], seeds: Any) -> PorphyraGame:
    """A pickled game: loaded again, its seed sequence where it was."""
    game: PorphyraGame = pyspiel.load_game(f"porphyra_{name}", params)
    game._seeds.setstate(seeds)
    return game


def _restore_state(game: PorphyraGame, text: str) -> PorphyraState:
    """A pickled state: ``text`` is its ``serialize()``."""
    state: PorphyraState = game.deserialize_state(text)
    return state


class PorphyraState(pyspiel.State):
    """A pyspiel state over an :class:`~porphyra.envs.encoding.EnvCore` (``core``;
    made from ``deal`` when first needed if None)."""

    def __init__(self, game: PorphyraGame, core: EnvCore | None, deal: _Deal | None = None) -> None:
        super().__init__(game)
        self._core = core
        self._deal = deal

    @property
    def core(self) -> EnvCore:
        """The engine state and selections (the deal is made on the first read)."""
        core = self._core
        if core is None:
            assert self._deal is not None
            core = self._core = self._deal.core()
            self._deal = None
        return core

    @core.setter
    def core(self, core: EnvCore) -> None:
        self._core = core
        self._deal = None

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        seat = self.core.first_active()
        return seat if seat >= 0 else _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal_ids(player)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The ids ``player`` (default: the seat to act) may play now, ascending: pyspiel's
        answer (none for a seat not to act, none at the end) without its round trips
        through C++.

        Raises:
            SeatError: ``player`` is not a seat of the game.
        """
        core = self.core
        seat = core.first_active()
        if player is not None and core.seat(player) != seat:
            return []
        return core.legal_ids(seat) if seat >= 0 else []

    def _apply_action(self, action: int) -> None:
        core = self.core
        seat = core.first_active()
        if seat < 0:
            raise IllegalActionError("the game is over: no action can be applied")
        core.step(seat, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.core.codec.label(action)

    def is_terminal(self) -> bool:
        return self.core.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self.core.state.returns()]

    # Asked at every step of OpenSpiel's RL loop: answered here, without pyspiel's round
    # trips through C++ and back into this state's other methods.
    def rewards(self) -> list[float]:
        """The rewards of the last action: the returns at the end, else zeros (the
        games reward only the end; pyspiel's default answer)."""
        if self.is_terminal():
            return self.returns()
        return [0.0] * len(self.core.selections)

    def is_chance_node(self) -> bool:
        """False: the games have no chance nodes (the deal comes from the engine seed)."""
        return False

    # Tensors read from Python: pyspiel's would first size them with a new initial state.
    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (default: the seat to act) as floats.

        Raises:
            SeatError: not a seat of the game (at the end, give the seat).
        """
        return self.core.tensor_values(self.current_player() if player is None else player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor: the observation tensor (Markov)."""
        return self.observation_tensor(player)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> PorphyraState:
        """A state consistent with ``player_id``'s information state (the engine's
        ``resample``, seeded from ``probability_sampler``; the game's deal sequence is
        not touched)."""
        rng = random.Random(int(probability_sampler() * 2**52))
        twin: PorphyraState = self.clone()
        twin.core = self.core.resample(player_id, rng)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> PorphyraState:
        clone: PorphyraState = self.clone()
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its game and pyspiel's serialisation (history, move number and the
        # Python attributes, pickled).
        return (_restore_state, (self.get_game(), self.serialize()))

    def __str__(self) -> str:
        pub = self.core.state.public_observation()
        pub.pop("log", None)
        return json.dumps(pub, sort_keys=True)


def seeded_resampler(
    random_state: np.random.RandomState,
) -> Callable[[PorphyraState, int], PorphyraState]:
    """A resampler for OpenSpiel's Python ``ismcts.ISMCTSBot.set_resampler`` that draws its
    worlds from ``random_state`` (give it the bot's own ``random_state``).

    Without it the bot resamples through ``pyspiel.UniformProbabilitySampler(0., 1.)``, a
    sampler that seeds itself from the OS (``std::random_device``) at every call, so a bot
    with a seeded ``random_state`` still searches different worlds, and plays different
    moves, from run to run.  The returned callable takes ``(state, player)`` and returns
    ``state.resample_from_infostate(player, sampler)`` with ``sampler`` a uniform draw in
    [0, 1) from ``random_state`` (one draw a world; what ``player`` can see is unchanged).
    """

    def sampler() -> float:
        return float(random_state.uniform())

    def resample(state: PorphyraState, player: int) -> PorphyraState:
        return state.resample_from_infostate(player, sampler)

    return resample


class PorphyraObserver:
    """OpenSpiel's PyObserver: ``tensor`` (float32) with named views in ``dict``."""

    def __init__(self, codec: Codec, perfect_recall: bool) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(codec.layout.size, np.float32)
        self.dict = {f.name: self.tensor[f.offset : f.offset + f.size] for f in codec.layout.fields}

    def set_from(self, state: PorphyraState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state``."""
        self.tensor[:] = state.core.tensor(player)

    def string_from(self, state: PorphyraState, player: int) -> str:
        """``player``'s view of ``state`` as JSON text (with the log if perfect recall)."""
        obs = dict(state.core.observation(player))
        if not self.perfect_recall:
            obs.pop("log", None)
        return json.dumps(obs, sort_keys=True)


class _NamedGame(PorphyraGame):
    """The pyspiel game class of one porphyra game (made for each game below)."""

    game_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(self.game_name, params)


def _named_class(name: str) -> type[_NamedGame]:
    """The class ``<Title>Game`` of ``porphyra_<name>`` (a module attribute, so that it
    is found by name: ``ByzantiumGame``, ``ConspiracyGame``)."""
    title = research_hooks(name).title
    cls = type(
        f"{title}Game",
        (_NamedGame,),
        {
            "__module__": __name__,
            "__qualname__": f"{title}Game",
            "__doc__": f"``porphyra_{name}`` (parameters: see the module docstring).",
            "game_name": name,
        },
    )
    return cls


# Classes, not closures, are registered: pyspiel keeps the factories until after the
# interpreter has finalized (a closure released then crashes the process).
for _name in research_games():
    _cls = globals()[f"{research_hooks(_name).title}Game"] = _named_class(_name)
    _type = _registered_type(_name)
    if _type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(_type, _cls)
