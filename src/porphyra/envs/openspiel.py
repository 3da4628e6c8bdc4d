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
game object draws each new initial state's engine seed from it) and, for Conspiracy,
``players`` (1-4; 1 is solo).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import Game
from porphyra.core.registry import load_game
from porphyra.envs.codecs import codec_for
from porphyra.envs.encoding import Codec, EnvCore

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

#: Upper bound on the moves of one card-list decision (a Byzantium hand plus END).
_TOKENS_PER_DECISION = 12


def _game_type(name: str, long_name: str, players: tuple[int, int], zero_sum: bool) -> Any:
    params: dict[str, Any] = {"seed": 0}
    if name == "conspiracy":
        params["players"] = 2
    return pyspiel.GameType(
        short_name=f"porphyra_{name}",
        long_name=f"porphyra {long_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if zero_sum
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_TYPES = {
    "byzantium": _game_type("byzantium", "Byzantium", (2, 2), True),
    "conspiracy": _game_type("conspiracy", "Conspiracy", (1, 4), False),
}


class PorphyraGame(pyspiel.Game):
    """A porphyra game as a pyspiel game (``params``: see the module docstring).

    Raises:
        UnknownGameError: invalid ``players``.
    """

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = {"players": int(params.get("players", 2))} if name == "conspiracy" else {}
        self.engine: Game = load_game(name, **options)
        self.codec: Codec = codec_for(self.engine)
        codec = self.codec
        n = self.engine.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if name == "byzantium" else None,
            max_game_length=self.engine.info.max_game_length
            * (_TOKENS_PER_DECISION if codec.end is not None else 1),
        )
        super().__init__(_TYPES[name], info, params)
        self._seeds = random.Random(int(params.get("seed", 0)))

    def new_initial_state(self) -> PorphyraState:
        """A new game, its engine seed drawn from the ``seed`` parameter's sequence."""
        seed = self._seeds.getrandbits(31)
        core = EnvCore(self.codec, self.engine.new_initial_state(seed=seed))
        return PorphyraState(self, core)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PorphyraObserver:
        """The observer of ``iig_obs_type`` (perfect recall: information state)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PorphyraObserver(self.codec, recall)


class PorphyraState(pyspiel.State):
    """A pyspiel state over an :class:`~porphyra.envs.encoding.EnvCore`."""

    def __init__(self, game: PorphyraGame, core: EnvCore) -> None:
        super().__init__(game)
        self.core = core

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        seat = self.core.first_active()
        return seat if seat >= 0 else _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal_ids(player)

    def _apply_action(self, action: int) -> None:
        seat = self.core.first_active()
        if seat < 0:
            raise IllegalActionError("the game is over: no action can be applied")
        self.core.step(seat, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.core.codec.label(action)

    def is_terminal(self) -> bool:
        return self.core.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self.core.state.returns()]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> PorphyraState:
        """A state consistent with ``player_id``'s information state (the engine's
        ``resample``, seeded from ``probability_sampler``)."""
        rng = random.Random(int(probability_sampler() * 2**52))
        twin: PorphyraState = self.clone()
        twin.core = self.core.resample(player_id, rng)
        return twin

    def __str__(self) -> str:
        pub = self.core.state.public_observation()
        pub.pop("log", None)
        return json.dumps(pub, sort_keys=True)


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


class ByzantiumGame(PorphyraGame):
    """``porphyra_byzantium`` (parameter ``seed``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("byzantium", params)


class ConspiracyGame(PorphyraGame):
    """``porphyra_conspiracy`` (parameters ``players``, ``seed``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("conspiracy", params)


# Classes, not closures, are registered: pyspiel keeps the factories until after the
# interpreter has finalized (a closure released then crashes the process).
for _cls, _type in ((ByzantiumGame, _TYPES["byzantium"]), (ConspiracyGame, _TYPES["conspiracy"])):
    if _type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(_type, _cls)
