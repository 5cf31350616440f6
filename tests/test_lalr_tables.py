"""The parse tables of interpreter/language/lalr_tables.py are lark's own:
the same states, shifts and reductions for the languages' grammars and a
game's card grammar (``corresponding_states``), conflicts resolved and
reported as lark does; and a parser built by lark_build leaves lark as it
found it."""

from __future__ import annotations

import pytest
from lark import Lark
from lark import lexer as lark_lexer
from lark.common import ParserConf
from lark.exceptions import GrammarError
from lark.load_grammar import load_grammar
from lark.parsers import lalr_parser as lark_lalr
from lark.parsers.lalr_analysis import LALR_Analyzer

from interpreter.language import rules_values
from interpreter.language.lalr_tables import corresponding_states, lalr_table
from interpreter.language.lark_build import lalr_parser
from interpreter.language.rules_file import load_rules
from interpreter.language.vocabulary import effect_grammar
from interpreter.resources import read_grammar
from interpreter.source import SourceText

from duel_support import DUEL

_EFFECT_STARTS = ["start", "qualifiers", "selection", "condition_line", "when_line",
                  "player_line"]


def _both_tables(grammar: str, start):
    """lark's table of ``grammar``'s rules (its own analyzer) and this module's."""
    starts = start if isinstance(start, list) else [start]
    rules = load_grammar(grammar, "<test>", [], False)[0].compile(starts, set())[1]
    theirs = LALR_Analyzer(ParserConf(rules, {}, starts))
    theirs.compute_lalr()
    return theirs.parse_table, lalr_table(rules, starts)


@pytest.mark.parametrize("name, start", [
    ("outline.lark", "start"), ("ruling.lark", "start"),
    ("rules.lark", list(rules_values._STARTS))])
def test_the_languages_grammars_have_lark_s_table(name, start):
    assert corresponding_states(*_both_tables(read_grammar(name), start)) > 20


@pytest.mark.parametrize("rules_file", [DUEL / "rules" / "duel.rules",
                                        DUEL.parents[2] / "rules" / "pocket-league.rules"],
                         ids=["duel", "pocket-league"])
def test_a_game_s_card_grammar_has_lark_s_table(rules_file):
    rules, _ = load_rules(SourceText(str(rules_file), rules_file.read_text()), rules_file.stem)
    grammar = effect_grammar(rules.vocabulary())
    # thousands of states: one per place a declared word may stand
    assert corresponding_states(*_both_tables(grammar, _EFFECT_STARTS)) > 1000


_SHIFT_REDUCE = """
start: e
e: e "+" e | "n"
"""


def test_a_shift_reduce_conflict_is_the_shift_or_an_error_in_strict_mode():
    assert corresponding_states(*_both_tables(_SHIFT_REDUCE, "start")) > 3
    with pytest.raises(GrammarError, match=r"Shift/Reduce conflict for terminal PLUS\. "
                                           r"\[strict-mode\]"):
        lalr_parser(_SHIFT_REDUCE, strict=True)


_REDUCE_REDUCE = """
start: one | two
one: WORD
two: WORD
WORD: "w"
"""


def test_a_reduce_reduce_collision_is_reported_in_lark_s_words():
    with pytest.raises(GrammarError) as lark_says:
        Lark(_REDUCE_REDUCE, parser="lalr")
    with pytest.raises(GrammarError) as we_say:
        lalr_parser(_REDUCE_REDUCE)
    # the rules named in either order (lark's is its sets' order)
    assert sorted(str(we_say.value).split("\n")) == sorted(str(lark_says.value).split("\n"))
    assert "<one : WORD>" in str(we_say.value)


def test_a_collision_between_rules_of_different_priority_keeps_the_higher():
    grammar = _REDUCE_REDUCE.replace("one: WORD", "one.2: WORD")
    theirs, ours = _both_tables(grammar, "start")
    corresponding_states(theirs, ours)
    assert lalr_parser(grammar).parse("w").children[0].data == "one"


def test_tables_of_two_grammars_do_not_correspond():
    _, plus = _both_tables(_SHIFT_REDUCE, "start")
    _, other = _both_tables(_SHIFT_REDUCE.replace('"+"', '"-"'), "start")
    with pytest.raises(ValueError, match="other symbols"):
        corresponding_states(plus, other)


def test_a_build_puts_back_lark_s_analyzer_and_collision_check():
    analyzer, checked = lark_lalr.LALR_Analyzer, lark_lexer.has_interegular
    lalr_parser(read_grammar("ruling.lark"))
    with pytest.raises(GrammarError):
        lalr_parser(_REDUCE_REDUCE)
    assert lark_lalr.LALR_Analyzer is analyzer
    assert lark_lexer.has_interegular is checked
