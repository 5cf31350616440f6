"""A game's word for an event of the language ("event "is knocked out":
another name for "is destroyed""): card text with the word reads as the
language's event; wrong declarations are reported at their line. Users:
Pocket League 10.1 (knocked out), the Minions fixture 9.2 (dies); their
rulings show the abilities triggering."""

from __future__ import annotations

import pytest

from interpreter.language.game_rules import parse_ability
from interpreter.language.render import render_ability

from duel_support import load_duel

FALLS = 'event "falls": another name for "is destroyed"\n' \
        'event "is felled": another name for "is destroyed"\n'


@pytest.mark.parametrize("text, canonical", [
    ("When this falls, draw a card.", "When this is destroyed, draw a card."),
    ("Whenever a Creature is felled, draw a card.",
     "When a Creature is destroyed, draw a card."),
    ("Return the felled Creature to its owner's hand.",
     "Return the destroyed Creature to its owner's hand."),
])
def test_the_games_word_reads_as_the_languages_event(tmp_path, text, canonical):
    loaded = load_duel(tmp_path, rules_extra=FALLS)
    assert loaded.problems == [] and loaded.warnings == []
    assert render_ability(parse_ability(loaded.rules, text)) == canonical


@pytest.mark.parametrize("declaration, says", [
    ('event "falls": another name for "is destoyed"',
     'event "falls" is another name for "is destoyed", which is no event of the language'),
    ('event "falls": another name "is destroyed"', "unreadable event"),
])
def test_a_wrong_declaration_is_reported_at_its_line(tmp_path, declaration, says):
    loaded = load_duel(tmp_path, rules_extra=declaration + "\n")
    assert [p.code for p in loaded.problems] == ["E546"]
    problem = loaded.problems[0]
    assert says in problem.message
    assert problem.source_line.strip() == declaration
    if "destoyed" in declaration:
        assert problem.suggestion == 'did you mean "is destroyed"?'
