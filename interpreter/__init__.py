"""cardrules: a declarative rules interpreter for trading card games.

A game's rules and its cards are text files. The package is a pipeline, one
subpackage per stage, each importing only from the stages before it:

* ``interpreter.language``: the lark grammars in ``grammar/`` parse rules,
  card and deck files into the AST, checked against the game's vocabulary;
* ``interpreter.compiler``: a checked game lowered to programs (closures);
* ``interpreter.engine``: the machine that runs them and the step API
  (``Match``);
* then what uses the engine: ``agents``, ``series``, ``soak``, ``rulings``,
  ``pytest_plugin`` and ``cli``.

Every stage shares ``errors`` (problems and the one exception type),
``source`` (source text and spans) and ``resources`` (where the shipped
files are). The problem types are re-exported here.
"""

from interpreter.errors import CardrulesError, Problem


__all__ = ["CardrulesError", "Problem"]
__version__ = "0.1.0"
