"""cardrules: a declarative rules interpreter for trading card games.

A game's rules and its cards are text files. The lark grammars in ``grammar/``
parse them into the AST (``interpreter.ast``); the checks in
``interpreter.checks`` validate them against the game's vocabulary. The public
entry points are re-exported here.
"""

from interpreter.errors import CardrulesError, Problem


__all__ = ["CardrulesError", "Problem"]
__version__ = "0.1.0"
