"""Events of a card moving between zones, in the Duel fixture: "When this
is put into a graveyard from the board", a game's word for such a move
(event "dies": another name for ...), a replacement of it, and zones whose
names the rules file capitalizes ("enters your Graveyard")."""

from __future__ import annotations

from click.testing import CliRunner

from interpreter.cli import main
from interpreter.engine import compile_game
from interpreter.errors import CardrulesError

from duel_support import duel_copy, load_duel
from test_card_forms import RULES_CHANGES, position, take

# the discard pile spelled with a capital; "dies" names a move from the board
DIES = 'event "dies": another name for "is put into a Graveyard from the board"\n'
CHANGES = RULES_CHANGES + (("zone graveyard:", "zone Graveyard:"),)

CARDS = '''
card "Mourner"
  kind: Creature
  cost: 0
  power: 1
  text:
    Whenever another Creature dies, draw a card.

card "Keeper"
  kind: Creature
  cost: 0
  power: 1
  text:
    Whenever a card enters your Graveyard, draw a card.

card "Ward"
  kind: Creature
  cost: 0
  power: 1
  text:
    If another Creature you control would die, return it to its owner's hand instead.

card "Doom"
  kind: Spell
  cost: 0
  text:
    When this is played: Destroy a Creature.

card "Recall"
  kind: Spell
  cost: 0
  text:
    When this is played: Return a Creature to its owner's hand.
'''


def moves_game(tmp_path, rules_extra=DIES):
    loaded = load_duel(tmp_path, rules_changes=CHANGES, rules_extra=rules_extra, cards=CARDS)
    assert loaded.problems == []
    return compile_game(loaded)


def hand(match, player=0):
    return [match.state.cards[c].name for c in match.state.zone("hand", player)]


def test_a_creature_destroyed_dies_and_one_returned_does_not(tmp_path):
    compiled = moves_game(tmp_path)
    match = position(compiled, hand_1=["Doom"], board_1=["Mourner"], board_2=["Knight"])
    take(match, "cast Doom")
    take(match, "Knight")
    assert hand(match) == ["Squire"]            # Mourner drew a card
    match = position(compiled, hand_1=["Recall"], board_1=["Mourner"], board_2=["Knight"])
    take(match, "cast Recall")
    take(match, "Knight")
    assert hand(match) == [] and hand(match, 1) == ["Knight"]


def test_a_zone_spelled_with_a_capital_is_watched(tmp_path):
    # the trigger watched "enters graveyard" while the move was logged as
    # "enters Graveyard": it never fired
    match = position(moves_game(tmp_path), hand_1=["Doom"], board_1=["Keeper", "Knight"])
    take(match, "cast Doom")
    take(match, "Knight")
    assert hand(match) == ["Squire"]            # the Knight entered it


def test_a_replacement_of_dying_puts_the_creature_elsewhere(tmp_path):
    match = position(moves_game(tmp_path), hand_1=["Doom"], board_1=["Ward", "Knight"],
                     board_2=["Mourner"])
    take(match, "cast Doom")
    take(match, "Knight")
    assert hand(match) == ["Knight"]
    assert hand(match, 1) == []                 # nothing died: Mourner drew nothing


def test_another_name_for_no_move_is_reported_at_its_line(tmp_path):
    root = duel_copy(tmp_path, rules_changes=CHANGES,
                     rules_extra='event "dies": another name for "is put into a Pond"\n')
    result = CliRunner().invoke(main, ["check", str(root / "rules" / "duel.rules")])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "duel.rules:" in result.output and "is put into a Pond" in result.output


def test_a_move_from_one_players_zone_is_refused(tmp_path):
    miser = CARDS + '''
card "Miser"
  kind: Creature
  cost: 0
  power: 1
  text:
    Whenever a card is put into a Graveyard from your hand, draw a card.
'''
    loaded = load_duel(tmp_path, rules_changes=CHANGES, rules_extra=DIES, cards=miser)
    try:
        compile_game(loaded)
    except CardrulesError as err:
        problem = err.problems[0]
    else:
        raise AssertionError("a move from your hand compiled")
    assert problem.code == "E801"
    assert 'a move from one player\'s zone ("from the ZONE" reads)' in problem.message
