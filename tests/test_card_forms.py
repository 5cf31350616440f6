"""Card text forms of the second edition, run in the Duel fixture: "Give X
+N STAT and +M STAT", a bare plural subject ("Creatures you control get
+1 power"), two cards dealing damage "to each other", "until the end of its
controller's next turn", and a zone that holds "at most N cards"."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.engine import Match, compile_game
from interpreter.engine.machine import Machine
from interpreter.errors import CardrulesError
from interpreter.language.render import render_ability

from duel_support import load_duel


# power is also what damage must reach to destroy a card; the board holds 3
RULES_CHANGES = (
    ("stat power: number", "stat power: number, a card with damage at least its power is destroyed"),
    ("zone board: per player, public, in play", "zone board: per player, public, in play, at most 3 cards"),
)

CARDS = '''
card "Blessing"
  kind: Spell
  cost: 0
  text:
    When this is played: Give a Creature you control +2 power and +1 cost.

card "Warlord"
  kind: Creature
  cost: 0
  power: 1
  text:
    ALWAYS: Other Creatures you control get +1 power.

card "Duelist"
  kind: Creature
  cost: 0
  power: 3
  text:
    DRILL: Choose a Creature your Rival controls. This and it deal damage equal to their power to each other.

card "Hex"
  kind: Spell
  cost: 0
  text:
    When this is played: Each Creature your Rival controls is exhausted until the end of its controller's next turn.
'''


def game(tmp_path, cards=CARDS):
    loaded = load_duel(tmp_path, rules_changes=RULES_CHANGES, cards=cards)
    assert loaded.problems == []
    return compile_game(loaded)


def position(compiled, hand_1=(), board_1=(), board_2=(), deck_1=("Squire",) * 5, mana=0,
             hand_2=()):
    zones = {("board", 0): [(n, ()) for n in board_1], ("board", 1): [(n, ()) for n in board_2],
             ("hand", 0): [(n, ()) for n in hand_1], ("hand", 1): [(n, ()) for n in hand_2],
             ("deck", 0): [(n, ()) for n in deck_1], ("deck", 1): [("Squire", ())] * 5}
    return Match.from_position(compiled, 2, 1, zones, {(0, "Mana"): mana}, 3, 0, "Main")


def take(match, label):
    for action in match.legal_actions():
        if match.action_to_string(action).startswith(label):
            match.apply_action(action)
            return
    raise AssertionError(f"{label!r} not in {[match.action_to_string(a) for a in match.legal_actions()]}")


def stat(match, card_id, name):
    return Machine(match.game, match.state).stat(card_id, name)


def card(match, zone, player, name):
    return next(c for c in match.state.zone(zone, player) if match.state.cards[c].name == name)


def test_give_with_two_changes(tmp_path):
    match = position(game(tmp_path), hand_1=["Blessing", "Squire"], board_1=["Knight"])
    take(match, "cast Blessing")
    knight = card(match, "board", 0, "Knight")
    assert (stat(match, knight, "power"), stat(match, knight, "cost")) == (4, 2)


def test_a_bare_plural_subject_changes_every_card_it_names(tmp_path):
    match = position(game(tmp_path), board_1=["Warlord", "Knight"], board_2=["Squire"])
    assert stat(match, card(match, "board", 0, "Knight"), "power") == 3
    assert stat(match, card(match, "board", 0, "Warlord"), "power") == 1     # "Other"
    assert stat(match, card(match, "board", 1, "Squire"), "power") == 1      # not yours


def test_two_cards_deal_damage_to_each_other_with_amounts_read_first(tmp_path):
    # the Duelist (power 3) and the Rival's Knight (power 2)
    match = position(game(tmp_path), board_1=["Duelist"], hand_1=["Squire"],
                     board_2=["Knight"])
    take(match, "use DRILL")
    duelist = card(match, "board", 0, "Duelist")
    assert card(match, "graveyard", 1, "Knight")       # 3 damage: destroyed
    assert match.state.cards[duelist].counter("damage") == 2


def test_a_card_to_choose_before_damage_to_each_other_is_a_check_problem(tmp_path):
    text = ("\ncard \"Brawl\"\n  kind: Spell\n  cost: 0\n  text:\n    When this is played: "
            "This and a Creature your Rival controls deal damage equal to their power to "
            "each other.\n")
    with pytest.raises(CardrulesError) as raised:
        game(tmp_path, CARDS + text)
    [problem] = raised.value.problems
    assert "a card to choose" in problem.message and problem.span.line > 1


def test_until_the_end_of_its_controllers_next_turn(tmp_path):
    match = position(game(tmp_path), hand_1=["Hex", "Squire"], board_2=["Knight"])
    take(match, "cast Hex")
    knight = card(match, "board", 1, "Knight")
    state = match.state
    [modifier] = [m for m in state.modifiers if m.target == knight]
    # the Knight's controller (player 2) plays the next turn (turn 4): it
    # lasts until that turn's end, not the end of this one
    assert modifier.until == ("turn", 4, "end")


def test_a_zone_with_at_most_3_cards_takes_no_fourth(tmp_path):
    # the action that would put a fourth card there is not offered (a full
    # board: "you can't play a minion"); with room it is. (A move by an
    # effect into a full zone does not happen: the Minions ruling "Recruiting
    # Sergeant on a board of 5" shows it.)
    compiled = game(tmp_path)
    match = position(compiled, hand_1=["Squire", "Squire"],
                     board_1=["Knight", "Knight", "Knight"])
    labels = [match.action_to_string(a) for a in match.legal_actions()]
    assert not any(label.startswith("cast") for label in labels), labels
    match = position(compiled, hand_1=["Squire", "Squire"], board_1=["Knight", "Knight"])
    take(match, "cast Squire")
    assert len(match.state.zone("board", 0)) == 3
    labels = [match.action_to_string(a) for a in match.legal_actions()]
    assert not any(label.startswith("cast") for label in labels), labels


# ---- triggers written with a comma, statements with no label, replacing a
# draw, a full hand (each in its own copy of the Duel)

MORE_RULES = '''
event "is cast": "A Spell is cast (the action below)."
action "cast a spell"
  during: Main
  choose: a Spell in your hand
  effect: Put it into your graveyard.
  counts as: cast
rule "Empty deck": If a player would draw a card while their deck has no cards, they lose 1 Life instead.
'''

MORE_CARDS = '''
card "Watcher"
  kind: Creature
  cost: 0
  power: 1
  text:
    Whenever you cast a Spell, this gets +1 power.

card "Coward"
  kind: Creature
  cost: 0
  power: 1
  text:
    This can't attack.
'''


def more_game(tmp_path, hand_limit=False):
    changes = RULES_CHANGES + ((
        ("zone hand: per player, private, hand",
         "zone hand: per player, private, hand, at most 2 cards, a card put into it when it "
         "is full goes to its owner's graveyard"),) if hand_limit else ())
    loaded = load_duel(tmp_path, rules_changes=changes, rules_extra=MORE_RULES, cards=MORE_CARDS)
    assert loaded.problems == []
    return compile_game(loaded)


def test_a_trigger_written_with_a_comma_on_a_players_event(tmp_path):
    match = position(more_game(tmp_path), hand_1=["Fork", "Squire"], board_1=["Watcher"],
                     board_2=["Watcher"])
    take(match, "cast a spell Fork")
    assert stat(match, card(match, "board", 0, "Watcher"), "power") == 2
    assert stat(match, card(match, "board", 1, "Watcher"), "power") == 1    # not "you"


def test_a_statement_with_no_label_is_in_force_while_its_card_is(tmp_path):
    match = position(more_game(tmp_path), board_1=["Coward", "Squire"], hand_1=["Squire"])
    offered = [match.action_to_string(a) for a in match.legal_actions()]
    assert any(a.startswith("attack Squire") for a in offered)
    assert not any(a.startswith("attack Coward") for a in offered)


def test_a_draw_replaced_while_the_deck_is_empty(tmp_path):
    match = position(more_game(tmp_path), hand_1=["Scholar", "Squire"], deck_1=(), mana=1)
    take(match, "cast Scholar")
    assert match.state.counter(0, "Life") == 9
    assert not any("needed a card" in line for line in match.narration())


def test_a_card_put_into_a_full_hand_goes_where_the_zone_says(tmp_path):
    match = position(more_game(tmp_path, hand_limit=True),
                     hand_1=["Scholar", "Squire", "Squire"], deck_1=("Knight",), mana=1)
    take(match, "cast Scholar")
    assert [match.state.cards[c].name for c in match.state.zone("graveyard", 0)] == ["Knight"]
    assert len(match.state.zone("hand", 0)) == 2
    assert any("Player 1's hand is full" in line for line in match.narration())


def test_a_keyword_lost_takes_its_abilities_with_it(tmp_path):
    loaded = load_duel(
        tmp_path, rules_changes=RULES_CHANGES[:1],
        rules_extra='keyword Shield: If this would be dealt damage, prevent that damage, '
                    'then this loses Shield.\n',
        cards='\ncard "Paladin"\n  kind: Creature\n  cost: 0\n  power: 3\n  text:\n'
              '    Shield\n\ncard "Zap"\n  kind: Spell\n  cost: 0\n  text:\n'
              '    When this is played: Deal 1 damage to a Creature your Rival controls.\n')
    assert loaded.problems == []
    match = position(compile_game(loaded), hand_1=["Zap", "Zap", "Squire"],
                     board_2=["Paladin"])
    paladin = card(match, "board", 1, "Paladin")
    machine = Machine(match.game, match.state)
    assert machine.has_keyword(paladin, "Shield")
    take(match, "cast Zap")
    machine = Machine(match.game, match.state)
    assert match.state.cards[paladin].counter("damage") == 0       # prevented
    assert not machine.has_keyword(paladin, "Shield")               # and lost
    take(match, "cast Zap")
    assert match.state.cards[paladin].counter("damage") == 1       # no shield now


@pytest.mark.parametrize("written, canonical", [
    # the kind named with "card(s)" after it, as printed cards say it
    ("Return a Creature card from your graveyard to your hand.",
     "Return a Creature from your graveyard to your hand."),
    ("Your Rival discards 2 Creature cards.", "Your Rival discards 2 Creatures."),
    # "or greater" for "or more"; "the beginning of" for "the start of"
    ("Destroy a Creature with power 3 or greater.", "Destroy a Creature with 3 or more power."),
    ("If you control 2 or greater Creatures, draw a card.",
     "If you control 2 or more Creatures, draw a card."),
    ("At the beginning of your turn, draw a card.", "At the start of your turn, draw a card."),
    # every Upkeep, whoever's it is
    ("At the beginning of each player's Upkeep, draw a card.",
     "At the start of each Upkeep, draw a card."),
    ("At the end of each turn, draw a card.", "At the end of each turn, draw a card."),
    # "counters" after a counter's name, as printed cards say it
    ("Destroy each Creature with 2 or more Growth counters.",
     "Destroy each Creature with 2 or more Growth."),
    ("Destroy each Creature with no damage counters.", "Destroy each Creature with no damage."),
    ("If this has 2 or more Growth counters, draw a card.",
     "If this has 2 or more Growth, draw a card."),
    ("If this has no Growth counters, draw a card.", "If this has no Growth, draw a card."),
    # "for each of your X": each X you control
    ("Draw a card for each of your Creatures.", "Draw a card for each Creature you control."),
    ("Draw a card for each of your opponent's exhausted Creatures.",
     "Draw a card for each exhausted Creature your Rival controls."),
    # "becomes" for an event's "is"
    ("Whenever this becomes blocked, draw a card.", "When this is blocked, draw a card."),
    ("Draw cards until you have 6 cards in your hand.", "Draw until you have 6 cards in hand."),
    # the player a rule names is "they" as a subject, its verbs agreeing
    ("Each player draws until they have 5 cards in hand.",
     "Each player draws until they have 5 cards in hand."),
    ("If a player controls no Creatures, they lose the game.",
     "If a player controls no Creatures, they lose the game."),
    # a written "you" after another player's step is kept (the step is yours)
    ("Your Rival loses 2 life and you gain 2 life.", "Your Rival loses 2 Life, you gain 2 Life."),
    ("Your Rival discards a card, then you may draw a card.",
     "Your Rival discards a card, then you may draw a card."),
    ("You draw a card and you gain 1 life.", "Draw a card, gain 1 Life."),
    ("Your Rival draws a card and gains 2 life.", "Your Rival draws a card, gains 2 Life."),
    # "until end of turn"; "If they do" after another player's optional step
    ("A Creature gets +2 power until end of turn.",
     "A Creature gets +2 power until the end of the turn."),
    ("Your Rival may draw a card. If they do, you draw 2 cards.",
     "Your Rival may draw a card. If they do, draw 2 cards."),
    ("Your Rival may discard a card. If they don't, draw a card.",
     "Your Rival may discard a card. If they don't, draw a card."),
    # a zone in the plural after "their owners'"
    ("Return all Creatures to their owners' hands.",
     "Return all Creatures to their owners' hands."),
    ("Return two target Creatures to their owners' hands.",
     "Return 2 Creatures to their owners' hands."),
    ("Return them to their owner's hand.", "Return them to their owners' hands."),
    # one card (or each, one by one): its owner's
    ("Return each Creature to its owner's hand.", "Return each Creature to its owner's hand."),
    ("Put all Creatures into their owners' graveyards.",
     "Put all Creatures into their owners' graveyards."),
    # the card a host qualifier names may be the attacking or defending one
    ("Destroy an Aura attached to the defending Creature.",
     "Destroy an Aura attached to the defending Creature."),
    # two objects of a return, the second's "it" the first's card
    ("Return target Creature and each Aura attached to it to their owners' hands.",
     "Return a Creature and each Aura attached to it to their owners' hands."),
    # a card entering a zone under a player's control
    ("Whenever a Creature enters the battlefield under your control, gain 1 life.",
     "When a Creature enters the battlefield under your control, gain 1 Life."),
    ("Whenever a Creature enters the battlefield under your opponent's control, draw a card.",
     "When a Creature enters the battlefield under your Rival's control, draw a card."),
    # who picks the cards a step takes
    ("Your Rival discards two cards of your choice.",
     "Your Rival discards 2 cards of your choice."),
    ("Target player discards a card of their choice.",
     "A player discards a card of their choice."),
    # battle damage prevented for a while, to every card and player
    ("Prevent all combat damage that would be dealt this turn.",
     "Prevent all combat damage that would be dealt this turn."),
    # a card that deals the damage itself, to a card
    ("This Creature deals 2 damage to target Creature.",
     "This Creature deals 2 damage to a Creature."),
    ("Target Creature you control deals damage equal to its power to target Creature your "
     "Rival controls.", "A Creature you control deals damage equal to its power to a Creature "
     "your Rival controls."),
    # damage to several: the same step again
    ("Deal 1 damage to each Creature and each player.",
     "Deal 1 damage to each Creature and each player."),
    ("Deal 2 damage to your Rival and 1 damage to each Creature your Rival controls.",
     "Deal 2 damage to your Rival and 1 damage to each Creature your Rival controls."),
    # "that many" after a step on cards keeps its wording ("that much" is another)
    ("Discard your hand, then draw that many cards.",
     "Discard your hand, then draw that many cards."),
    # coins flipped several at a time, their heads counted; "For each X, ..."
    ("Flip 2 coins. Draw a card for each heads.", "Flip 2 coins. Draw a card for each heads."),
    ("Flip 3 coins. For each heads, draw a card and gain 1 life.",
     "Flip 3 coins. For each heads, draw a card, gain 1 Life."),
    ("For each Creature you control, draw a card.",
     "For each Creature you control, draw a card."),
    # "one of your ...", "each of your Rival's ..."; "Then," opening a sentence
    ("Destroy one of your Rival's Creatures.", "Destroy a Creature your Rival controls."),
    ("Each of your Creatures gets +1 power until end of turn.",
     "Each Creature you control gets +1 power until the end of the turn."),
    ("Return up to 2 of your Creatures to your hand.",
     "Return up to 2 Creatures you control to your hand."),
    ("Discard a card. Then, draw 2 cards.", "Discard a card. Then draw 2 cards."),
    # doubling a stat: + its value as the step reads it
    ("Double the power of a Creature you control until end of turn.",
     "Double the power of a Creature you control until the end of the turn."),
    ("Choose a Creature. Double its power.", "Choose a Creature. Double the power of it."),
    # a stat said with a possessive ("'s", or the printer's "’s"): "the STAT of ..."
    ("Double target Creature's power until end of turn.",
     "Double the power of a Creature until the end of the turn."),
    ("Double target Creature’s power.", "Double the power of a Creature."),
    ("Gain Life equal to this Creature's power.", "Gain Life equal to the power of this Creature."),
    # "They" before a change to cards: the cards the step before acted on
    ('Create 2 "Sprout" tokens in your battlefield. They gain Haste until end of turn.',
     'Create 2 "Sprout" tokens in your battlefield. They have Haste until the end of the turn.'),
    ("Choose 2 Creatures. They get +1 power until end of turn.",
     "Choose 2 Creatures. They get +1 power until the end of the turn."),
    ("If a player controls no Creatures, they lose the game.",
     "If a player controls no Creatures, they lose the game."),
    # "this way": the cards the step before brought there by that event
    ("Destroy a Creature. If it is destroyed this way, draw a card.",
     "Destroy a Creature. If it is destroyed, draw a card."),
    ("Destroy all Creatures. Draw a card for each Creature destroyed this way.",
     "Destroy all Creatures. Draw a card for each Creature destroyed this way."),
    # a printed ability's limit: once per turn, in its controller's turn
    ("ABILITY: Once during your turn, pay 1 Life: Draw a card.",
     "ABILITY: Once per turn, during your turn, pay 1 Life: Draw a card."),
    # one choice among cards and players
    ("Deal 3 damage to target Creature or player.", "Deal 3 damage to a Creature or player."),
    ("Whenever this deals damage to a Creature or player, gain 1 Life.",
     "When this deals damage to a Creature or player, gain 1 Life."),
    # "target" after a number
    ("Destroy two target Creatures.", "Destroy 2 Creatures."),
    ("Exhaust up to 2 target Creatures.", "Exhaust up to 2 Creatures."),
    ("Exhaust any number of target Creatures.", "Exhaust any number of Creatures."),
    # damage as counters on a card
    ("Put 2 damage counters on a Creature your Rival controls.",
     "Put 2 damage on a Creature your Rival controls."),
    ("Remove 2 damage counters from a Creature you control.",
     "Remove 2 damage from a Creature you control."),
    # a draw after a draw
    ("Draw a card. If you control a Creature, draw 2 more cards.",
     "Draw a card. If you control a Creature, draw 2 cards."),
    ("Draw an additional card.", "Draw a card."),
    ("Your Rival draws two additional cards.", "Your Rival draws 2 cards."),
    ("Draw a card, then draw another card.", "Draw a card, then draw a card."),
    # damage divided among cards and players
    ("Deal 3 damage divided as you choose among any number of targets.",
     "Deal 3 damage divided as you choose among any number of targets."),
    ("Deal 3 damage divided as you choose among up to two targets.",
     "Deal 3 damage divided as you choose among up to 2 targets."),
    # damage divided point by point among cards
    ("Deal 4 damage divided as you choose among any number of Creatures.",
     "Deal 4 damage divided as you choose among any number of Creatures."),
    # "during PERIOD" after a step: the sentence starting with it; a status
    # said as its verb ("ready"): "can't be readied"
    ("This gets +2 power during your turn.", "During your turn, this gets +2 power."),
    ("Exhaust a Creature. It doesn't ready during its controller's next Untap.",
     "Exhaust a Creature. During its controller's next Untap, it can't be readied."),
    ("This can't ready until end of turn.", "This can't be readied until the end of the turn."),
    # "... as long as X" after a change to cards: "While X, ..."
    ("This gets +2 power as long as you have 10 or less life.",
     "While you have 10 or less Life, this gets +2 power."),
    ("Creatures you control have Trample while it is your turn.",
     "While it is your turn, Creatures you control have Trample."),
    # "is now" a status
    ("Choose a Creature. It is now exhausted.", "Choose a Creature. It is exhausted."),
    # a tax on a step that names no card
    ("Draw a card unless your Rival pays 2 life.", "Draw a card unless your Rival pays 2 Life."),
    ("Your Rival loses 3 life unless they discard a card.",
     "Your Rival loses 3 Life unless they discard a card."),
    # "they" before "can't" after a step on cards: those cards; "them" after
    # "If they don't": the player the step before named
    ("Choose 2 Creatures your Rival controls. They can't attack this turn.",
     "Choose 2 Creatures your Rival controls. They can't attack this turn."),
    ("Your Rival may discard a card. If they don't, deal 2 damage to them.",
     "Your Rival may discard a card. If they don't, deal 2 damage to your Rival."),
    ("Your Rival discards a card. They can't attack this turn.",
     "Your Rival discards a card. That player can't attack this turn."),
    # "they" after a condition that names a player: that player
    ("If your Rival controls 2 or more Creatures, they draw a card.",
     "If your Rival controls 2 or more Creatures, your Rival draws a card."),
    # one player against another (a counter: "less"; cards: "fewer")
    ("If you have less life than your Rival, draw a card.",
     "If you have less Life than your Rival, draw a card."),
    ("If your Rival has more cards in hand than you, draw a card.",
     "If your Rival has more cards in hand than you, draw a card."),
    ("If you control less Creatures than your Rival, draw a card.",
     "If you control fewer Creatures than your Rival, draw a card."),
    # players a condition holds for
    ("Each player with no cards in hand draws 2 cards.",
     "Each player with no cards in hand draws 2 cards."),
    ("Each player with 5 or less life gains 3 life, then draws a card.",
     "Each player with 5 or less Life gains 3 Life, then draws a card."),
    # where a card is attached ("If it is not attached to a Character, ...")
    ("If this is attached to a Creature your opponent controls, draw a card.",
     "If this is attached to a Creature your Rival controls, draw a card."),
    # a change by X, X named at the end of the sentence
    ("A Creature you control gets +X power until end of turn, where X is the number of "
     "Lands you control.",
     "A Creature you control gets +X power until the end of the turn, where X is the number "
     "of Lands you control."),
    # a change that holds during a period to come, to the cards named now
    ("When this attacks, during your opponent's next turn, the defending Creature can't "
     "block.",
     "When this attacks, during your Rival's next turn, the defending Creature can't block."),
    # a counter on cards in a qualifier (damage is one)
    ("Destroy each Creature with 1 or greater Growth. Draw a card for each Creature with no "
     "damage.",
     "Destroy each Creature with 1 or more Growth. Draw a card for each Creature with no "
     "damage."),
    # a replacement of a player's damage, by a card that deals it
    ("If a Creature your opponent controls would deal damage to you, prevent that damage.",
     "If a Creature your Rival controls would deal damage to you, prevent that damage."),
    # leaving "the battlefield": whoever's it is
    ("When this leaves the battlefield, draw a card.",
     "When this leaves the battlefield, draw a card."),
    # a player's counter going up or down
    ("Whenever your opponent loses life, draw a card.",
     "When your Rival loses Life, draw a card."),
    # no blockers, or none such (Arcane Duel's event "is blocked")
    ("This can't be blocked.", "This can't be blocked."),
    ("This can't be blocked by creatures with 2 or less power.",
     "This can't be blocked by Creatures with 2 or less power."),
    ("Whenever this is blocked, draw a card.", "When this is blocked, draw a card."),
    # damage to a player, not any loss of Life
    ("Whenever you are dealt damage, draw a card.", "When you are dealt damage, draw a card."),
    # a card being dealt damage
    ("Whenever a Creature is dealt damage, gain 1 life.",
     "When a Creature is dealt damage, gain 1 Life."),
    # every player but you: each rival
    ("Each other player loses 2 life.", "Each rival loses 2 Life."),
    # a game's event done by a player, in the present tense ("is cast")
    ("Whenever your Rival casts a Sorcery, draw a card.",
     "When your Rival casts a Sorcery, draw a card."),
    ("Whenever a player casts a Sorcery, gain 1 life.",
     "When a player casts a Sorcery, gain 1 Life."),
    ("Whenever you cast a Sorcery, draw a card.", "When you cast a Sorcery, draw a card."),
    # counters as printed cards put them; counted on the cards they are on
    ("Put 2 Growth counters on a Creature you control.",
     "Put 2 Growth on a Creature you control."),
    ("Remove all Growth counters from a Creature.", "Remove all Growth from a Creature."),
    ("Each Creature gets +1 power and +1 toughness for each Growth counter on it.",
     "Each Creature gets +1 power and +1 toughness for each Growth on it."),
    ("Draw a card for each Growth on this.", "Draw a card for each Growth on this."),
    # "in any order" after the cards "and" joins to a put (6.11)
    ("Look at the top 3 cards of your library. Put one of them into your hand and the rest "
     "on the bottom of your library in any order.",
     "Look at the top 3 cards of your library. Put one of them into your hand and the rest "
     "on the bottom of your library in any order."),
    # a step left for a moment, the moment written after it (6.10)
    ("Whenever this blocks, destroy the attacking Creature at the end of the combat.",
     "When this blocks, destroy the attacking Creature at the end of the Combat."),
    ("Draw a card at the beginning of your next upkeep.",
     "Draw a card at the start of your next Upkeep."),
    # "As long as" is "While" (6.12)
    ("As long as you have 10 or less life, this gets +2 power.",
     "While you have 10 or less Life, this gets +2 power."),
    # a status it would be given: "can't be readied" (5.1)
    ("Exhaust a Creature your Rival controls. It can't be readied until the end of its "
     "controller's next Untap.",
     "Exhaust a Creature your Rival controls. It can't be readied until the end of its "
     "controller's next Untap."),
    # "attached to this" (a phrase of its own: "this" alone is the card)
    ("Destroy each Aura attached to this.", "Destroy each Aura attached to this."),
    # a token with no zone named: the player's one zone in play (2.4)
    ('Create a "Sprout" token.', 'Create a "Sprout" token.'),
    ('Create two "Sprout" tokens in your battlefield.',
     'Create 2 "Sprout" tokens in your battlefield.'),
    # the player a rule names agrees with its verb as "they" everywhere
    ("Each opponent discards a Creature they control.",
     "Each rival discards a Creature they control."),
    # "target": a card chosen, as "a" is
    ("Destroy target Creature with Flying.", "Destroy a Creature with Flying."),
    # a plural subject agrees with its verb
    ("If all Creatures you control are exhausted, draw a card.",
     "If all Creatures you control are exhausted, draw a card."),
    ("If 2 Creatures you control have Flying, draw a card.",
     "If 2 Creatures you control have Flying, draw a card."),
    # a possessive's noun in the plural is plural too
    ("If your Creatures are exhausted, draw a card.",
     "If your Creatures are exhausted, draw a card."),
    ("If your Creatures have Flying, draw a card.",
     "If your Creatures have Flying, draw a card."),
])
def test_printed_synonyms_read_as_the_canonical_form(written, canonical):
    for text in (written, canonical):
        result = CliRunner().invoke(main, ["explain", "arcane-duel", text])
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[0] == f"canonical: {canonical}"


GAGGED = CARDS + '''
card "Gag"
  kind: Spell
  cost: 0
  text:
    When this is played: You can't muster this turn. Muster 1.

card "Rally"
  kind: Spell
  cost: 0
  text:
    When this is played: Muster 1.
'''


def test_a_player_who_cant_do_a_game_verb_does_not_do_it(tmp_path):
    # "You can't muster this turn": the verb Muster (draw, then discard) is
    # not done, and the log says why; without the "can't" it is
    compiled = game(tmp_path, cards=GAGGED)
    gagged = position(compiled, hand_1=["Gag", "Squire"])
    take(gagged, "cast Gag")
    assert "   Player 1 can't muster." in gagged.narration()
    assert len(gagged.state.zone("hand", 0)) == 1 and len(gagged.state.zone("deck", 0)) == 5
    rallied = position(compiled, hand_1=["Rally", "Squire"])
    take(rallied, "cast Rally")
    assert len(rallied.state.zone("deck", 0)) == 4          # drew one
    assert not any("can't muster" in line for line in rallied.narration())


def test_each_period_in_an_effect_is_refused():
    # what an effect leaves for later happens once: "each Upkeep" would not
    result = CliRunner().invoke(main, ["explain", "arcane-duel",
                                       "Draw a card. At the start of each Upkeep, draw a card."])
    assert result.exit_code == 1
    assert 'E801 the engine cannot run "each Upkeep" in an effect (the steps it leaves for ' \
        'later happen once) yet' in result.output
    assert '"the next Upkeep", or a triggered ability of a card in play' in result.output


def test_a_word_naming_a_period_and_a_kind_reads_as_the_card_where_the_period_cannot():
    # Saturday Wars' Chapter is a period ("this Chapter", a duration) and a
    # kind: "this Chapter gets ..." is the card
    for text, canonical in (
            ("When this is played, this Chapter gets +1 progress value.",
             "When this is played, this Chapter gets +1 progress value."),
            ("ANIMATE: Ready a Character you control. It gets +1 progress value this Chapter.",
             "ANIMATE: Ready a Character you control. It gets +1 progress value this Chapter.")):
        result = CliRunner().invoke(main, ["explain", "saturday-wars", text])
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[0] == f"canonical: {canonical}"


def test_two_stats_written_together_need_the_rules_file_to_say_which():
    # Arcane Duel 2.3: "stat toughness: number, ..., written after power"
    result = CliRunner().invoke(main, ["explain", "arcane-duel",
                                       "Choose a Creature you control. It gets +2/-1 until "
                                       "end of turn."])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "canonical: Choose a Creature you control. It gets +2/-1 until the end of the turn.")
    # a game that writes no two stats together says how to
    result = CliRunner().invoke(main, ["explain", "pocket-league", "This gets +1/+1."])
    assert result.exit_code == 1
    assert '"+N/+N" in a game whose rules file writes no two stats together' in result.output
    assert 'stat toughness: number, written after power' in result.output


def test_a_stat_written_after_no_number_stat_is_reported_at_its_line(tmp_path):
    loaded = load_duel(tmp_path, rules_changes=[("stat power: number", "stat power: number, "
                                                 "written after powr")])
    assert [p.code for p in loaded.problems] == ["E546"]
    problem = loaded.problems[0]
    assert problem.message == ('stat "power" is written after "powr", which is not a number '
                               'stat')
    assert problem.suggestion == 'did you mean "power"?'
    assert problem.source_line.strip() == "stat power: number, written after powr"


ROLL_CALL = CARDS + '''
card "Roll Call"
  kind: Spell
  cost: 0
  text:
    When this is played: If all Creatures you control are exhausted, gain 1 Mana. If a Creature you control is not exhausted, gain 2 Mana. If no Creature your Rival controls is exhausted, gain 4 Mana. If 2 Creatures you control are exhausted, gain 8 Mana.
'''


@pytest.mark.parametrize("exhausted,rival_exhausted,mana", [
    # all exhausted (1), 2 of them (8); the Rival's none (4)
    ((True, True), False, 1 + 4 + 8),
    # one of two: not all (no 1), one not exhausted (2), fewer than 2 (no 8)
    ((True, False), False, 2 + 4),
    # none: one not exhausted (2); the Rival's exhausted (no 4)
    ((False, False), True, 2),
])
def test_a_condition_on_cards_holds_as_many_times_as_its_quantity_says(
        tmp_path, exhausted, rival_exhausted, mana):
    tired = lambda yes: ("exhausted",) if yes else ()  # noqa: E731
    zones = {("board", 0): [("Knight", tired(exhausted[0])), ("Squire", tired(exhausted[1]))],
             ("board", 1): [("Knight", tired(rival_exhausted))],
             ("hand", 0): [("Roll Call", ()), ("Squire", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(game(tmp_path, ROLL_CALL), 2, 1, zones, {(0, "Mana"): 0},
                                3, 0, "Main")
    state = match.state
    take(match, "cast Roll Call")
    assert state.counter(0, "Mana") == mana


MUSTER = CARDS + '''
card "Muster"
  kind: Spell
  cost: 0
  text:
    When this is played: If your Creatures are exhausted, gain 1 Mana. If your Creature is exhausted, gain 2 Mana. If your Creatures have 1 or more power, gain 4 Mana. If your Creatures have 2 or more power, gain 8 Mana.
'''


# the Knight has 2 power, the Squire 1: both have 1 or more (4), not both 2 (no 8)
@pytest.mark.parametrize("exhausted,mana", [
    ((True, True), 1 + 2 + 4),      # all of them, and one or more
    ((True, False), 2 + 4),         # one or more, not all
    ((False, False), 4),
])
def test_a_possessive_with_a_plural_noun_asks_about_every_one(tmp_path, exhausted, mana):
    tired = lambda yes: ("exhausted",) if yes else ()  # noqa: E731
    zones = {("board", 0): [("Knight", tired(exhausted[0])), ("Squire", tired(exhausted[1]))],
             ("hand", 0): [("Muster", ()), ("Squire", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(game(tmp_path, MUSTER), 2, 1, zones, {(0, "Mana"): 0},
                                3, 0, "Main")
    take(match, "cast Muster")
    assert match.state.counter(0, "Mana") == mana


def test_a_condition_on_up_to_n_cards_is_refused_at_its_line(tmp_path):
    text = ('\ncard "Muddle"\n  kind: Spell\n  cost: 0\n  text:\n    When this is played: '
            'If up to 2 Creatures you control are exhausted, gain 1 Mana.\n')
    with pytest.raises(CardrulesError) as raised:
        game(tmp_path, CARDS + text)
    [problem] = raised.value.problems
    assert '"up to"' in problem.message and problem.span.line > 1


def test_a_game_verb_after_another_player_says_their_for_your():
    # verb "Switch your active creature with {card}" (Pocket League)
    text = "Your opponent switches their active creature with one of their benched creatures."
    result = CliRunner().invoke(main, ["explain", "pocket-league", text])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "canonical: Your Rival Switches their active creature with a benched creature "
        "they control.")


STUDY = CARDS + '''
card "Study"
  kind: Spell
  cost: 0
  text:
    When this is played: Draw a card. If you control a Creature, draw 2 more cards. Draw another card.
'''


@pytest.mark.parametrize("board, drawn", [(["Knight"], 4), ([], 2)])
def test_more_cards_and_another_card_are_draws_of_their_own(tmp_path, board, drawn):
    match = position(game(tmp_path, STUDY), hand_1=["Study"], board_1=board)
    take(match, "cast Study")
    assert len(match.state.zone("hand", 0)) == drawn
    assert len(match.state.zone("deck", 0)) == 5 - drawn


def test_once_during_your_turn_outside_an_ability_is_refused_at_its_words():
    result = CliRunner().invoke(main, ["explain", "arcane-duel",
                                       "Once during your turn, you may draw a card."])
    assert result.exit_code != 0
    assert 'E801 the engine cannot run "once per turn" inside an effect' in result.output
    assert "Traceback" not in result.output


def test_damage_put_on_cards_where_damage_destroys_nothing_is_refused():
    # Saturday Wars: no stat says "a card with damage at least its X is destroyed"
    result = CliRunner().invoke(main, ["explain", "saturday-wars",
                                       "Put 2 damage counters on a Character."])
    assert result.exit_code != 0
    assert "E801 the engine cannot run damage put on cards in a game where damage " \
        "destroys nothing" in result.output


@pytest.mark.parametrize("target", ["any target", "target Creature or player"])
def test_the_rest_of_the_damage_after_a_card_or_a_player_is_refused(target):
    result = CliRunner().invoke(main, ["explain", "arcane-duel",
                                       f"Deal 3 damage to {target} and the rest to your Rival."])
    assert result.exit_code != 0
    assert 'E801 the engine cannot run the damage past what a card needs ("the rest", ' \
        '"excess") when a player may be chosen instead' in result.output


@pytest.mark.parametrize("subject", ["two Creatures are", "2 or more Creatures are",
                                     "all Creatures are", "up to 2 Creatures are"])
def test_a_trigger_on_several_cards_together_is_refused(subject):
    # it ran once for each card, which is not what the words say
    result = CliRunner().invoke(main, ["explain", "arcane-duel",
                                       f"Whenever {subject} destroyed, draw a card."])
    assert result.exit_code != 0
    assert "E801 the engine cannot run a trigger on several cards together" in result.output


SEER = '''
card "Seer"
  kind: Spell
  cost: 0
  text:
    When this is played: Look at the top 3 cards of your deck. Put one into your hand and the rest on the bottom of your deck.
'''


def test_put_one_after_looking_is_one_of_them(tmp_path):
    compiled = game(tmp_path, SEER)
    assert render_ability(compiled.cards["Seer"].abilities[0].ability).endswith(
        "Put one of them into your hand and the rest on the bottom of your deck.")
    # the zone lists the deck bottom first: Knight is its top card
    match = position(compiled, hand_1=["Seer"],
                     deck_1=("Knight", "Scholar", "Giant", "Squire", "Banner"))
    take(match, "cast Seer")
    offered = [match.action_to_string(a) for a in match.legal_actions()]
    assert [o.split(" #")[0] for o in offered] == ["Knight", "Scholar", "Giant"]
    take(match, "Scholar")
    assert [match.state.cards[c].name for c in match.state.zone("hand", 0)] == ["Scholar"]
    assert [match.state.cards[c].name for c in match.state.zone("deck", 0)] == [
        "Giant", "Knight", "Banner", "Squire"]


DOUBLER = CARDS + '''
card "Rage"
  kind: Spell
  cost: 0
  text:
    When this is played: Double target Creature's power until the end of the turn.

card "Vigil"
  kind: Spell
  cost: 0
  text:
    When this is played: Draw cards equal to this Spell's cost plus 2.
'''


def test_a_stat_said_with_a_possessive_is_that_cards_stat(tmp_path):
    match = position(game(tmp_path, DOUBLER), hand_1=["Rage", "Vigil"], board_1=["Duelist"],
                     board_2=["Warlord"])
    duelist = card(match, "board", 0, "Duelist")
    take(match, "cast Rage")
    take(match, "Duelist")              # "target Creature": the player chooses
    assert stat(match, duelist, "power") == 6
    assert stat(match, card(match, "board", 1, "Warlord"), "power") == 1
    take(match, "cast Vigil")
    assert len(match.state.zone("hand", 0)) == 2       # its cost 0, plus 2


def test_a_card_to_choose_in_a_number_is_chosen_as_its_step_begins(tmp_path):
    # "target Creature's power" in the amount: asked first, then the target of
    # the damage; "it" after it is still the step's object, not that card
    compiled = game(tmp_path, CARDS + '''
card "Lash"
  kind: Spell
  cost: 0
  text:
    When this is played: Deal damage equal to target Creature's power to your Rival.
''')
    match = position(compiled, hand_1=["Lash"], board_1=["Duelist", "Warlord"],
                     board_2=["Warlord"])
    life = match.state.counter(1, "Life")
    take(match, "cast Lash")
    offered = sorted(match.action_to_string(a).split(" #")[0] for a in match.legal_actions())
    assert offered == ["Duelist", "Warlord", "Warlord"]
    take(match, "Duelist")              # 3 power, +1 from its controller's Warlord
    assert match.state.counter(1, "Life") == life - 4


def test_it_after_a_card_chosen_for_a_number_is_still_the_step_before_s(tmp_path):
    compiled = game(tmp_path, CARDS + '''
card "Goad"
  kind: Spell
  cost: 0
  text:
    When this is played: Choose a Creature your Rival controls. Deal damage equal to target Creature's power to it.
''')
    match = position(compiled, hand_1=["Goad"], board_1=["Duelist"], board_2=["Giant", "Squire"])
    take(match, "cast Goad")
    take(match, "Giant")                # "Choose a Creature your Rival controls"
    take(match, "Duelist")              # the Creature whose power is read: 3
    # "it" is the Giant chosen before, not the Duelist chosen for the number
    giant = card(match, "board", 1, "Giant")
    assert match.state.cards[giant].counter("damage") == 3
    assert match.state.cards[card(match, "board", 0, "Duelist")].counter("damage") == 0
    assert match.state.cards[card(match, "board", 1, "Squire")].counter("damage") == 0


WARCRY = CARDS + '''
card "Warcry"
  kind: Spell
  cost: 0
  text:
    When this is played: Creatures you control get +X/+1 until the end of the turn, where X is the number of Creatures you control.
'''


def test_x_in_two_stats_written_together_is_read_as_the_step_happens(tmp_path):
    loaded = load_duel(tmp_path, cards=WARCRY, rules_changes=[
        ("stat power: number", "stat power: number\nstat toughness: number, written after power")])
    assert loaded.problems == []
    match = position(compile_game(loaded), hand_1=["Warcry"], board_1=["Duelist", "Warlord"],
                     board_2=["Duelist"])
    mine, rivals = card(match, "board", 0, "Duelist"), card(match, "board", 1, "Duelist")
    take(match, "cast Warcry")
    assert (stat(match, mine, "power"), stat(match, mine, "toughness")) == (3 + 1 + 2, 1)
    assert (stat(match, rivals, "power"), stat(match, rivals, "toughness")) == (3, 0)


@pytest.mark.parametrize("written, canonical", [
    ("Target Creature gets +X/+0 until end of turn, where X is the number of Creatures you "
     "control.", "A Creature gets +X/+0 until the end of the turn, where X is the number of "
     "Creatures you control."),
    ("Creatures your Rival controls get \u2212X/\u2212X until end of turn, where X is the number "
     "of Lands you control.", "Creatures your Rival controls get -X/-X until the end of the "
     "turn, where X is the number of Lands you control."),
])
def test_x_in_a_pair_of_stats_reads_and_without_its_where_is_refused(written, canonical):
    result = CliRunner().invoke(main, ["explain", "arcane-duel", written])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == f"canonical: {canonical}"
    result = CliRunner().invoke(main, ["explain", "arcane-duel", written.split(",")[0] + "."])
    assert result.exit_code == 1
    assert 'with no "where X is ..." in its sentence' in result.output


@pytest.mark.parametrize("words, picker", [("of your choice", 0), ("of their choice", 1), ("", 1)])
def test_who_picks_the_card_a_rival_discards(tmp_path, words, picker):
    # "of your choice": the spell's player picks among the Rival's cards;
    # "of their choice", as with no words, the Rival does
    compiled = game(tmp_path, CARDS + f'''
card "Pry"
  kind: Spell
  cost: 0
  text:
    When this is played: Your Rival discards a card {words}.
'''.replace(" .", "."))
    match = position(compiled, hand_1=["Pry"], hand_2=["Giant", "Squire"])
    take(match, "cast Pry")
    assert match.current_player() == picker
    assert sorted(match.action_to_string(a).split(" #")[0]
                  for a in match.legal_actions()) == ["Giant", "Squire"]
    take(match, "Squire")
    assert [match.state.cards[c].name for c in match.state.zone("graveyard", 1)] == ["Squire"]
    assert "Giant" in [match.state.cards[c].name for c in match.state.zone("hand", 1)]


def test_that_many_after_returning_cards_counts_them(tmp_path):
    # the step's form was missed by name: "that many" after a return was an
    # E801 that said no step on cards came before it
    compiled = game(tmp_path, CARDS + '''
card "Recall"
  kind: Spell
  cost: 0
  text:
    When this is played: Return all Creatures to their owners' hands, then draw that many cards.
''')
    match = position(compiled, hand_1=["Recall"], board_1=["Duelist"],
                     board_2=["Giant", "Squire"], deck_1=("Knight",) * 5)
    take(match, "cast Recall")
    hand = [match.state.cards[c].name for c in match.state.zone("hand", 0)]
    assert sorted(hand) == ["Duelist", "Knight", "Knight", "Knight"]
    assert sorted(match.state.cards[c].name for c in match.state.zone("hand", 1)) == [
        "Giant", "Squire"]


def test_return_a_card_and_the_cards_attached_to_it(tmp_path):
    compiled = game(tmp_path, CARDS + '''
card "Clip"
  kind: Spell
  cost: 0
  text:
    When this is played: Attach this to a Creature you control.

card "Unsummon"
  kind: Spell
  cost: 0
  text:
    When this is played: Return a Creature and each card attached to it to their owners' hands.
''')
    match = position(compiled, hand_1=["Clip", "Unsummon"], board_1=["Duelist"],
                     board_2=["Giant"])
    take(match, "cast Clip")
    take(match, "cast Unsummon")
    take(match, "Duelist")
    hand = sorted(match.state.cards[c].name for c in match.state.zone("hand", 0))
    assert hand == ["Clip", "Duelist"]
    assert [match.state.cards[c].name for c in match.state.zone("board", 1)] == ["Giant"]
