"""Tokens: cards that only card text creates ("Create two "Recruit" tokens in
your board"), defined in a cards file as ``token "NAME"``, never part of a
deck; a zone may say that a token entering (or leaving) it ceases to exist."""

from __future__ import annotations

import json

import pytest

from interpreter.engine import Match, compile_game
from interpreter.engine.invariants import deep_checks
from interpreter.engine.state import GameState
from interpreter.errors import CardrulesError

from duel_support import load_duel


CARDS = '''
token "Recruit"
  kind: Creature
  cost: 0
  power: 1

card "Recruiter"
  kind: Creature
  cost: 0
  power: 1
  text:
    When this is played: Create two "Recruit" tokens in your board.
'''

GRAVEYARD = ("zone graveyard: per player, public, ordered, discard pile",
             "zone graveyard: per player, public, ordered, discard pile, "
             "a token entering it ceases to exist")


def load(tmp_path, cards=CARDS, deck_line=None):
    return load_duel(tmp_path, rules_changes=(GRAVEYARD,), cards=cards, deck_line=deck_line)


def position(compiled, hand_1=()):
    zones = {("board", 0): [], ("board", 1): [], ("hand", 0): [(n, ()) for n in hand_1],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    return Match.from_position(compiled, 2, 1, zones, {}, 3, 0, "Main")


def choose(match, prefix):
    for action in match.legal_actions():
        if match.action_to_string(action).startswith(prefix):
            match.apply_action(action)
            return
    raise AssertionError(prefix)


def names(match, zone, player=0):
    return sorted(match.state.cards[c].name for c in match.state.zone(zone, player))


def test_created_tokens_enter_the_zone_and_cease_to_exist_where_the_rules_say(tmp_path):
    loaded = load(tmp_path)
    assert loaded.problems == []
    match = position(compile_game(loaded), hand_1=["Recruiter"])
    cards_before = len(match.state.cards)
    choose(match, "cast Recruiter")
    assert names(match, "board") == ["Recruit", "Recruit", "Recruiter"]
    assert len(match.state.cards) == cards_before + 2
    story = "\n".join(match.narration())
    assert story.count('A "Recruit" token is created in Player 1\'s board.') == 2
    assert deep_checks(match) is None
    # clone and JSON keep the new cards
    twin = GameState.from_json(json.loads(json.dumps(match.state.to_json())))
    assert twin.to_json() == match.state.clone().to_json() == match.state.to_json()
    # a token put into the graveyard ceases to exist; the card it came with stays
    choose(match, "sacrifice Recruit #")
    assert names(match, "graveyard") == []
    assert names(match, "board") == ["Recruit", "Recruiter"]
    assert "Recruit ceases to exist." in "\n".join(match.narration())
    assert deep_checks(match) is None


def test_a_token_is_never_part_of_a_deck(tmp_path):
    loaded = load(tmp_path, deck_line='    1 "Recruit"')
    found = [(p.code, p.message) for p in loaded.problems]
    assert found == [("E615", '"Recruit" is a token: card text creates it, no deck may hold it')]


@pytest.mark.parametrize("text, says", [
    ('When this is played: Create a "Squire" token in your board.',
     '"Squire" is not a token'),
    ('When this is played: Destroy two "Recruit" tokens.',
     'tokens to create anywhere but after "Create"'),
])
def test_what_cannot_be_created_is_a_check_problem(tmp_path, text, says):
    cards = CARDS + f'\ncard "Probe"\n  kind: Creature\n  cost: 0\n  power: 1\n  text:\n    {text}\n'
    loaded = load(tmp_path, cards=cards)
    assert loaded.problems == []
    with pytest.raises(CardrulesError) as raised:
        compile_game(loaded)
    problems = raised.value.problems
    assert len(problems) == 1 and says in problems[0].message, problems
    assert problems[0].span.path.endswith("core.cards")
