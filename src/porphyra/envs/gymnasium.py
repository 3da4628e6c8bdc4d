"""Gymnasium environments: one seat of a porphyra game against bots.

Importing this module registers ``porphyra/Byzantium-v0`` and ``porphyra/Conspiracy-v0``:

>>> import gymnasium
>>> import porphyra.envs.gymnasium
>>> env = gymnasium.make("porphyra/Conspiracy-v0", opponent="random", seat=0, players=2)
>>> obs, info = env.reset(seed=3)
>>> obs.dtype.name, int(info["action_mask"].sum()) > 0
('float32', True)

Observations are the seat's float32 tensor (``docs/envs.md``); the action space is
``Discrete(num_actions)``; the mask is ``info["action_mask"]`` and ``action_masks()``
(sb3-contrib's MaskablePPO reads the latter); ``info["observation_json"]`` holds the JSON
observation.  The reward is the seat's return (+1 win, -1 loss, 0 draw) at the end, 0
before.  The other seats are played by ``make_bot(opponent, seed)`` bots, each seeded from
the reset seed, so ``reset(seed=s)`` replays the same game for the same actions.
``observation_json=False`` leaves the JSON out of ``info`` (a training loop that reads
only tensors saves an engine observation a step; ``env.unwrapped.observation_json()`` still
gives it).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from porphyra.bots import make_bot, seat_view
from porphyra.core.errors import IllegalActionError
from porphyra.core.registry import load_game
from porphyra.core.seatarg import seat_of
from porphyra.envs.codecs import codec_for
from porphyra.envs.encoding import EnvCore, Mask, Tensor, flag, next_game_seed, one_of
from porphyra.envs.hooks import default_game, research_games, research_hooks

BOUND = 1000.0


class PorphyraEnv(gymnasium.Env[Tensor, np.int64]):
    """Seat ``seat`` of ``game`` against ``opponent`` bots.

    Args:
        game: ``"byzantium"`` or ``"conspiracy"``.
        opponent: a bot spec for every other seat (``random``, ``easy``, ``ismcts``...).
        seat: the agent's seat (0-based).
        illegal_action: ``"lose"`` (default, PettingZoo's classic-games convention, and
            what ``check_env``'s unmasked samples need): an illegal id ends the episode
            with reward -1, the engine state untouched and the reason in
            ``info["illegal_action"]``; ``"raise"``: it raises ``IllegalActionError``.
        render_mode: None or ``"ansi"``.
        observation_json: put the JSON observation in ``info`` (default True).
        **options: engine options (e.g. ``players=3``; ``players=1`` is solo, no bot).

    Raises:
        UnknownGameError: unknown game, invalid options or unknown bot.
        SeatError: ``seat`` is not one of the game's seats (a ``ValueError``).
        ValueError: a bad ``render_mode`` or ``observation_json``.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game: str = default_game("gymnasium"),
        opponent: str = "random",
        seat: int = 0,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        observation_json: bool = True,
        **options: Any,
    ) -> None:
        self.illegal_action = one_of("illegal_action", illegal_action, ("lose", "raise"))
        self.with_json = flag("observation_json", observation_json)
        self._forfeit = False
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = load_game(game, **options)
        seat = seat_of(seat, self.game.num_players)  # (numpy integers too)
        self.render_mode = render_mode
        self.codec = codec_for(self.game)
        self.seat = seat
        self.opponent = opponent
        make_bot(opponent, 0)  # fail now on an unknown bot spec
        self.observation_space = spaces.Box(-BOUND, BOUND, (self.codec.layout.size,), np.float32)
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self._seeds = random.Random()
        self.core = EnvCore(
            self.codec, self.game.new_initial_state(seed=0), with_json=self.with_json
        )
        self._bots: dict[int, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Tensor, dict[str, Any]]:
        """Start a game (engine seed ``seed``, or drawn from the previous seed) and play the
        bots up to the agent's first decision.  Returns ``(observation, info)``."""
        super().reset(seed=seed)
        self._seeds, game_seed = next_game_seed(self._seeds, seed)
        self.core = EnvCore(
            self.codec, self.game.new_initial_state(seed=game_seed), with_json=self.with_json
        )
        self._forfeit = False
        self._bots = {
            p: make_bot(self.opponent, game_seed * 8 + p)
            for p in range(self.game.num_players)
            if p != self.seat
        }
        self._play_bots()
        return self.core.tensor(self.seat), self._info()

    def _play_bots(self) -> None:
        core = self.core
        while not core.state.is_terminal():
            others = [p for p in core.active() if p != self.seat]
            if not others:
                return
            for p in others:
                core.apply(p, self._bots[p].choose(seat_view(core.state, p)))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.core.mask(self.seat)}
        if self.with_json:
            info["observation_json"] = self.core.observation(self.seat)
        return info

    def observation_json(self) -> dict[str, Any]:
        """The engine's JSON observation of the agent's seat plus its ``selection`` (a new
        object on every call)."""
        return self.core.observation(self.seat)

    def action_masks(self) -> Mask:
        """``int8[num_actions]``: the legal ids now (all zero once the game is over)."""
        return self.core.mask(self.seat)

    def step(self, action: np.int64 | int) -> tuple[Tensor, float, bool, bool, dict[str, Any]]:
        """Play id ``action``, then the bots up to the agent's next decision.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            IllegalActionError: the episode is over, or (``illegal_action="raise"``) the
                id is not legal now; nothing changes.
        """
        if self.core.state.is_terminal() or self._forfeit:
            raise IllegalActionError("the episode is over; call reset()")
        try:
            done = self.core.step(self.seat, action)
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise
            self._forfeit = True
            info = {**self._info(), "illegal_action": str(err)}
            return self.core.tensor(self.seat), -1.0, True, False, info
        if done is not None:
            self._play_bots()
        over = self.core.state.is_terminal()
        reward = float(self.core.state.returns()[self.seat]) if over else 0.0
        return self.core.tensor(self.seat), reward, over, False, self._info()

    def render(self) -> str | None:
        """``ansi``: a one-line public summary; None otherwise."""
        if self.render_mode != "ansi":
            return None
        pub = self.core.state.public_observation()
        return f"{pub['game']} turn {pub['turn']}, phase {pub['phase']}"


def _register() -> None:
    for game in research_games():
        env_id = f"porphyra/{research_hooks(game).title}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="porphyra.envs.gymnasium:PorphyraEnv",
                kwargs={"game": game},
                disable_env_checker=False,
            )


_register()
