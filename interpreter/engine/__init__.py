"""The engine: runs a compiled game and exposes the step API.

A game is compiled once (``interpreter.compiler.game``: :func:`compile_game`,
re-exported here). :class:`Match` (``match``) is one game being played. Its
whole state is a :class:`~interpreter.engine.state.GameState` (``state``,
with the seeded generator of ``rng``), changed only through the primitives
of ``operations``; the :class:`Machine` (``machine``, with its concerns in
``triggers``, ``resolution``, ``windows``, ``combat``, ``decisions``,
``places``, ``slots``, ``views`` and ``changes``; its caps in ``limits``)
runs the frames of that state until a player must decide something (a
pending :class:`~interpreter.engine.state.Decision`) or the game ends.
``narration`` reads the log as sentences.
"""

from interpreter.compiler.compiled import CompiledGame
from interpreter.compiler.game import compile_game
from interpreter.engine.machine import Machine
from interpreter.engine.match import Match

__all__ = ["CompiledGame", "Machine", "Match", "compile_game"]
