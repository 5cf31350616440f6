"""Adapters to the environment APIs reinforcement-learning tools use: an
AEC environment for PettingZoo (``adapters.pettingzoo``) and games
registered with OpenSpiel (``adapters.openspiel``), both reading a player's
view through the one encoder (``adapters.encoding``) and both driving the
step API (``engine.Match``). Optional: ``pip install 'cardrules[rl]'``
(docs/rl.md)."""
