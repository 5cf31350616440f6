"""How every parser of the languages is built: one lark LALR parser with the
contextual lexer, its analysis kept in the user's cache (``parse_store``).

Building a grammar's table is the slow part of a start that finds nothing
kept (seconds for a game's card grammar), so three things are done once here
rather than at each caller:

* the table is computed by ``lalr_tables`` (the table lark's own analyzer
  computes, in about a tenth of its time), lark's analyzer standing aside
  while the parser is built;
* the analysed table is written to and read from the user's cache folder,
  named by the grammar's digest (never in strict mode: strict builds exist
  to report the grammar's conflicts, which a table read back would skip);
* lark's check that no two terminals match the same text (the optional
  ``interegular`` package) runs only in strict mode. Outside strict mode
  lark only logs what it finds, at a level its logger never shows, and the
  check was a quarter of a game grammar's build; the strict tests of every
  grammar (tests/test_properties.py) are where a collision is reported.
"""

from __future__ import annotations

import threading

from lark import Lark
from lark import lexer as lark_lexer
from lark.parsers import lalr_parser as lark_lalr

from interpreter.language.lalr_tables import analyzer
from interpreter.language.parse_store import grammar_cache

# lark reads module-level names while it builds (its analyzer, whether to
# check collisions): builds take turns, each setting them and putting back
# lark's own after
_BUILDING = threading.Lock()


def lalr_parser(grammar: str, *, strict: bool = False, cache_key: str | None = None,
                **options) -> Lark:
    """An LALR parser of ``grammar`` with the contextual lexer.

    ``cache_key`` names the kept table when the grammar text alone does
    not decide it (the start rules); ``options`` are lark's own.
    """
    with _BUILDING:
        lark_analyzer = lark_lalr.LALR_Analyzer
        checked = getattr(lark_lexer, "has_interegular", False)
        lark_lalr.LALR_Analyzer = analyzer
        try:
            if strict:
                return Lark(grammar, parser="lalr", lexer="contextual", strict=True, **options)
            cache = grammar_cache(grammar if cache_key is None else cache_key)
            lark_lexer.has_interegular = False
            return Lark(grammar, parser="lalr", lexer="contextual", cache=cache, **options)
        finally:
            lark_lalr.LALR_Analyzer = lark_analyzer
            lark_lexer.has_interegular = checked
