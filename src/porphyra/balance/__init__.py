"""The balance lab: seeded bot campaigns, their figures and reports, and the deck tuner.

- :mod:`~porphyra.balance.campaign`: which games to play (pairings on mirrored deals) and
  playing them locally or on Ray, with identical results;
- :mod:`~porphyra.balance.collect`: what is recorded of each game;
- :mod:`~porphyra.balance.analysis`: the figures (intervals, tests, within-game differences);
- :mod:`~porphyra.balance.report`: ``summary.json`` and ``report.html``;
- :mod:`~porphyra.balance.lab`: run a campaign, compare card sets;
- :mod:`~porphyra.balance.tune`: the Byzantium deck tuner (Optuna).

Command line: ``porphyra balance GAME`` (:mod:`porphyra.cli.balance`).
"""
