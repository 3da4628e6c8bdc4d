"""Research environments over porphyra's games (the ``rl`` extra: ``pip install '.[rl]'``).

* :mod:`porphyra.envs.pettingzoo`: ``env``, ``raw_env`` (AEC) and, for Byzantium,
  ``parallel_env``;
* :mod:`porphyra.envs.gymnasium`: ``porphyra/Byzantium-v0`` and ``porphyra/Conspiracy-v0``,
  one seat against bots;
* :mod:`porphyra.envs.openspiel`: the pyspiel games ``porphyra_byzantium`` and
  ``porphyra_conspiracy``.

All share :mod:`porphyra.envs.encoding` (action ids, masks, tensors); ``docs/envs.md``
documents the encodings.
"""
