"""Forms the card-text corpus (tests/fixtures/corpus) found missing, each run
with the meaning a player reads, on its own in a copy of the Duel fixture."""

from __future__ import annotations

import pytest

from interpreter.engine.machine import Machine
from interpreter.errors import CardrulesError

from test_printed_forms import compiled, creature, labels, position, spell, take

LETHAL = (("stat power: number", "stat power: number, a card with damage at least its power "
                                 "is destroyed"),)


def test_prevent_all_damage_that_would_be_dealt_to_a_card_for_a_duration(tmp_path):
    game = compiled(tmp_path, spell(
        "Aegis", "When this is played: Prevent all damage that would be dealt to a Creature "
                 "you control until the end of this turn.")
        + spell("Bolt", "When this is played: Deal 4 damage to a Creature."), changes=LETHAL)
    match = position(game, hand_1=["Aegis", "Bolt"], board_1=["Giant"])
    take(match, "cast Aegis")
    take(match, "cast Bolt")
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    assert match.state.cards[giant].counter("damage") == 0
    assert match.state.cards[giant].zone == ("board", 0)
    # without it, 4 damage destroys the Giant (power 4)
    match = position(game, hand_1=["Bolt"], board_1=["Giant"])
    take(match, "cast Bolt")
    assert match.state.cards[giant].zone == ("graveyard", 0)


def test_each_card_attached_to_it(tmp_path):
    game = compiled(tmp_path, spell(
        "Strip", "When this is played: Choose a Creature. Put each card attached to it into "
                 "its owner's hand.")
        + spell("Clip", "When this is played: Attach this to a Creature you control."))
    match = position(game, hand_1=["Clip", "Strip"], board_1=["Knight"], board_2=["Giant"])
    take(match, "cast Clip")
    knight = next(c.id for c in match.state.cards if c.name == "Knight")
    clip = next(c.id for c in match.state.cards if c.name == "Clip")
    assert match.state.cards[clip].attached_to == knight
    take(match, "cast Strip")
    take(match, "Knight")
    assert match.state.cards[clip].zone == ("hand", 0)
    assert match.state.cards[knight].zone == ("board", 0)          # only what is attached


def test_the_next_time_a_card_would_be_destroyed_this_turn(tmp_path):
    # a replacement an effect leaves, used once while its duration lasts
    game = compiled(tmp_path, spell(
        "Second Wind", "When this is played: The next time a Creature you control would be "
                       "destroyed this turn, return it to your hand instead.")
        + spell("Bolt", "When this is played: Deal 4 damage to a Creature.")
        + spell("Zap", "When this is played: Deal 4 damage to a Creature."),
        changes=LETHAL)
    match = position(game, hand_1=["Second Wind", "Bolt", "Zap", "Squire"],
                     board_1=["Giant", "Knight"])
    take(match, "cast Second Wind")
    assert any("The next time a Creature you control would be destroyed this turn" in line
               for line in match.narration())
    take(match, "cast Bolt")
    take(match, "Giant")
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    assert match.state.cards[giant].zone == ("hand", 0)           # replaced: to the hand
    take(match, "cast Zap")                                      # the Knight: no choice left
    knight = next(c.id for c in match.state.cards if c.name == "Knight")
    assert match.state.cards[knight].zone == ("graveyard", 0)     # used up: destroyed


def test_a_tax_paid_by_doing_a_step(tmp_path):
    # "... unless your Rival discards a card": the Rival may do the step
    # instead; then the taxed step does not happen
    game = compiled(tmp_path, spell(
        "Toll", "When this is played: Recall a Creature your Rival controls unless your "
                "Rival discards a card.")
        + spell("Levy", "When this is played: Your Rival discards a card unless they "
                        "Muster 1."))
    match = position(game, hand_1=["Toll"], board_2=["Giant"], hand_2=["Squire"])
    take(match, "cast Toll")
    assert match.state.decision.player == 1
    assert match.state.decision.prompt == ("discard a card so that this does not happen: "
                                           "Recall a Creature your Rival controls")
    take(match, "yes")
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    assert match.state.cards[giant].zone == ("board", 1)            # not recalled
    assert [match.state.cards[c].name for c in match.state.zone("graveyard", 1)] == ["Squire"]
    # with no card to discard there is no question: the Giant is recalled
    match = position(game, hand_1=["Toll"], board_2=["Giant"])
    take(match, "cast Toll")
    assert match.state.cards[giant].zone == ("hand", 1)
    # a game verb as the tax, done by the Rival ("Muster 1": draw 1, discard 1)
    match = position(game, hand_1=["Levy"], hand_2=["Knight"])
    take(match, "cast Levy")
    assert match.state.decision.prompt.startswith("muster 1 so that this does not happen")
    take(match, "no")
    assert [match.state.cards[c].name for c in match.state.zone("graveyard", 1)] == ["Knight"]


def test_a_card_among_them(tmp_path):
    # "Look at the top 3 cards of your deck. You may add a Creature among them
    # to your hand. Put the rest on the bottom of your deck."
    game = compiled(tmp_path, spell(
        "Scout", "When this is played: Look at the top 3 cards of your deck. You may add a "
                 "Creature among them to your hand. Put the rest on the bottom of your deck."))
    zones = {("board", 0): [], ("board", 1): [], ("hand", 0): [("Scout", ())],
             ("hand", 1): [], ("deck", 0): [("Squire", ()), ("Scout", ()), ("Giant", ()),
                                            ("Knight", ())],
             ("deck", 1): [("Squire", ())] * 5}
    from interpreter.engine import Match
    match = Match.from_position(game, 2, 1, zones, {}, 3, 0, "Main")
    take(match, "cast Scout")
    take(match, "yes")
    # the top 3 are Squire, Scout, Giant: the Knight under them is not among them
    offered = sorted(l.split(" #")[0] for l in
                     (match.action_to_string(a) for a in match.legal_actions()))
    assert offered == ["Giant", "Squire"]
    take(match, "Giant")
    assert [match.state.cards[c].name for c in match.state.zone("hand", 0)] == ["Giant"]
    assert match.state.cards[match.state.zone("deck", 0)[-1]].name == "Knight"   # on top now


def test_gain_control_for_a_while_and_for_good(tmp_path):
    game = compiled(tmp_path, spell(
        "Borrow", "When this is played: Gain control of a Creature your Rival controls until "
                  "the end of this turn.")
        + spell("Steal", "When this is played: Gain control of a Creature your Rival controls."))
    match = position(game, hand_1=["Borrow"], board_2=["Giant"])
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    match.state.cards[giant].counters = (("damage", 2),)
    take(match, "cast Borrow")
    card = match.state.cards[giant]
    assert (card.controller, card.zone, card.owner) == (0, ("board", 0), 1)
    assert card.counter("damage") == 2                   # the same card, as it was
    assert any("Giant is now controlled by Player 1" in line for line in match.narration())
    assert any(match.action_to_string(a).startswith("attack Giant")
               for a in match.legal_actions())            # it acts for its new controller
    take(match, "pass")                                  # the turn ends: it goes back
    card = match.state.cards[giant]
    assert (card.controller, card.zone) == (1, ("board", 1))
    match = position(game, hand_1=["Steal"], board_2=["Giant"])
    take(match, "cast Steal")
    take(match, "pass")
    assert match.state.cards[giant].controller == 0      # for good


def test_until_the_end_of_your_rivals_next_turn(tmp_path):
    game = compiled(tmp_path, spell(
        "Chill", "When this is played: Each Creature your Rival controls gets -1 power until "
                 "the end of your Rival's next turn."))
    match = position(game, hand_1=["Chill"], board_2=["Giant"])
    take(match, "cast Chill")
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    # turn 3 is Player 1's: the Rival's next turn is turn 4, and it lasts to its end
    assert [m.until for m in match.state.modifiers if m.target == giant] == [("turn", 4, "end")]


def test_a_move_into_a_zone_replaced(tmp_path):
    # "If a card would be put into your Rival's graveyard, ... instead": the
    # move into that zone is replaced (whatever sends it: destroyed here)
    game = compiled(tmp_path, creature(
        "Warden", "ALWAYS: If a card would be put into your Rival's graveyard, put it on the "
                  "bottom of its owner's deck instead.")
        + spell("Bolt", "When this is played: Deal 4 damage to a Creature."), changes=LETHAL)
    match = position(game, hand_1=["Bolt"], board_1=["Warden"], board_2=["Giant"])
    take(match, "cast Bolt")
    take(match, "Giant")
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    assert match.state.cards[giant].zone == ("deck", 1)
    assert match.state.zone("deck", 1)[0] == giant                     # at the bottom
    # a card of the Warden's own controller is not the Rival's: not replaced
    match = position(game, hand_1=["Bolt"], board_1=["Warden", "Knight"])
    take(match, "cast Bolt")
    take(match, "Knight")
    knight = next(c.id for c in match.state.cards if c.name == "Knight")
    assert match.state.cards[knight].zone == ("graveyard", 0)


def test_the_next_time_a_card_is_destroyed_a_trigger_used_once(tmp_path):
    game = compiled(tmp_path, spell(
        "Vigil", "When this is played: The next time a Creature you control is destroyed "
                 "this turn, draw 2 cards.")
        + spell("Bolt", "When this is played: Deal 4 damage to a Creature.")
        + spell("Zap", "When this is played: Deal 4 damage to a Creature."), changes=LETHAL)
    match = position(game, hand_1=["Vigil", "Bolt", "Zap"], board_1=["Knight", "Squire"])
    take(match, "cast Vigil")
    take(match, "cast Bolt")
    take(match, "Knight")
    assert len(match.state.zone("hand", 0)) == 3              # Zap and the 2 drawn
    take(match, "cast Zap")                                    # the Squire: no choice left
    squire = next(c.id for c in match.state.cards if c.name == "Squire")
    assert match.state.cards[squire].zone == ("graveyard", 0)
    assert len(match.state.zone("hand", 0)) == 2              # used up: no more draws


def test_without_paying_its_stat_and_less_than_this(tmp_path):
    game = compiled(tmp_path, spell(
        "Gate", "When this is played: Play a Creature from your hand without paying its cost.")
        + creature("Bully", "When this is played: Destroy a Creature your Rival controls with "
                            "less power than this.", power=3))
    match = position(game, hand_1=["Gate", "Giant"])
    take(match, "cast Gate")
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    assert match.state.cards[giant].zone == ("board", 0)             # cost 3, paid nothing
    assert match.state.counter(0, "Mana") == 0
    match = position(game, hand_1=["Bully"], board_2=["Giant", "Knight"])
    take(match, "cast Bully")
    # power 2 < 3: the Knight (the only one, no choice); the Giant (4) is not less
    knight = next(c.id for c in match.state.cards if c.name == "Knight")
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    assert match.state.cards[knight].zone == ("graveyard", 1)
    assert match.state.cards[giant].zone == ("board", 1)


def test_prevent_all_damage_that_would_be_dealt_to_a_player(tmp_path):
    game = compiled(tmp_path, spell(
        "Ward", "When this is played: Prevent all damage that would be dealt to you this turn.")
        + spell("Backfire", "When this is played: Deal 3 damage to you."))
    match = position(game, hand_1=["Ward", "Backfire"])
    take(match, "cast Ward")
    take(match, "cast Backfire")
    assert match.state.counter(0, "Life") == 10                      # prevented
    assert any("Player 1: damage to them is prevented." in line for line in match.narration())
    match = position(game, hand_1=["Backfire"])
    take(match, "cast Backfire")
    assert match.state.counter(0, "Life") == 7


AMBUSH = '''
action "ambush"
  during: Main
  choose: a Creature in your hand
  effect: Put it into your board.
'''


def test_a_card_outside_play_that_cant_do_something_keeps_itself_from_it(tmp_path):
    # "This can't ambush unless ..." on a card ambushing from the hand: its
    # own prohibition holds where it is (Silver Wing Rivals' Allies attack
    # from the hand: corpus C33)
    game = compiled(tmp_path, creature(
        "Shy Giant", "This can't ambush unless you control 2 or more Creatures.", power=4),
        rules=AMBUSH)
    match = position(game, hand_1=["Shy Giant", "Squire"])
    assert [label.split(" #")[0] for label in labels(match) if label.startswith("ambush")] == [
        "ambush Squire"]
    match = position(game, hand_1=["Shy Giant", "Squire"], board_1=["Knight", "Giant"])
    assert sorted(label.split(" #")[0] for label in labels(match)
                  if label.startswith("ambush")) == ["ambush Shy Giant", "ambush Squire"]


def test_a_counter_greater_or_less_than_another_players(tmp_path):
    game = compiled(tmp_path, spell(
        "Lead", "When this is played: If your Life is greater than your Rival's Life, draw a "
                "card. If your Life is less than your Rival's Life, draw 2 cards."))
    match = position(game, hand_1=["Lead"])
    match.state.player_counters[0]["Life"] = 12
    match.state.player_counters[1]["Life"] = 10
    take(match, "cast Lead")
    assert len(match.state.zone("hand", 0)) == 1
    match = position(game, hand_1=["Lead"])
    match.state.player_counters[0]["Life"] = 8
    match.state.player_counters[1]["Life"] = 10
    take(match, "cast Lead")
    assert len(match.state.zone("hand", 0)) == 2


def test_counters_of_two_kinds_added_to_two_selections_joined_by_and(tmp_path):
    # "Add 1 Progress Marker to X and 1 Arc Marker to each Y" (corpus SW C50)
    game = compiled(tmp_path, spell(
        "Bless", "When this is played: Add 1 Charge to a Creature you control and 2 Ward to "
                 "each Creature your Rival controls."),
        rules="counter Charge: on cards\ncounter Ward: on cards\n")
    match = position(game, hand_1=["Bless"], board_1=["Knight"], board_2=["Giant", "Squire"])
    take(match, "cast Bless")
    cards = {c.name: c for c in match.state.cards if c.zone[0] == "board"}
    assert cards["Knight"].counter("Charge") == 1 and cards["Knight"].counter("Ward") == 0
    assert cards["Giant"].counter("Ward") == 2 and cards["Squire"].counter("Ward") == 2
    assert cards["Giant"].counter("Charge") == 0


def test_a_step_with_a_trailing_if_about_its_object(tmp_path):
    # "Destroy the attacking Being if it has 50 or less AP" (corpus RYFT C27)
    game = compiled(tmp_path, spell(
        "Cull", "When this is played: Choose a Creature. Destroy it if it has 3 or more power."))
    for name, destroyed in (("Giant", True), ("Squire", False)):
        match = position(game, hand_1=["Cull"], board_2=[name])
        take(match, "cast Cull")
        card = next(c for c in match.state.cards if c.name == name and c.owner == 1)
        assert (card.zone[0] == "graveyard") == destroyed, name


def test_a_trailing_if_after_a_card_still_to_choose_is_a_check_problem(tmp_path):
    # which card would "it" be before it is chosen? check says so at its line
    with pytest.raises(CardrulesError) as error:
        compiled(tmp_path, spell("Cull", "When this is played: Destroy a Creature if it has 3 "
                                         "or more power."))
    assert "E801" in str(error.value) and '"if" after a step' in str(error.value)


def test_a_tax_paid_by_discarding_a_card_of_a_kind(tmp_path):
    # "... unless they discard a Skill" (corpus RR C30)
    game = compiled(tmp_path, spell(
        "Toll", "When this is played: Your Rival discards a random card in their hand unless "
                "they discard a Creature."))
    match = position(game, hand_1=["Toll"], hand_2=["Toll", "Squire", "Toll"])
    take(match, "cast Toll")
    take(match, "yes")                          # the only Creature: no question which
    assert [c.name for c in match.state.cards if c.zone == ("graveyard", 1)] == ["Squire"]
    # no random card went: both Tolls are still in the hand
    assert [c.name for c in match.state.cards if c.zone == ("hand", 1)].count("Toll") == 2


def test_a_card_becomes_a_copy_of_another_until_the_end_of_the_turn(tmp_path):
    # its printed values are the other card's (name, stats, text): the
    # copied abilities work for its controller, and stop when the copy ends
    game = compiled(tmp_path, creature(
        "Mimic", "When this is played: This becomes a copy of a Creature your Rival controls "
                 "until the end of this turn.", power=3)
        + spell("Gift", "When this is played: Your Rival draws a card."))
    match = position(game, hand_1=["Mimic", "Gift"], board_1=["Squire"],
                     board_2=["Banner", "Spy"])
    mimic = next(c.id for c in match.state.cards if c.name == "Mimic")
    squire = next(c.id for c in match.state.cards if c.name == "Squire")
    take(match, "cast Mimic")
    take(match, "Banner")
    views = Machine(match.game, match.state)
    assert views.stat(mimic, "power") == 0                # Banner's printed power
    assert views.stat(squire, "power") == 2               # its ALWAYS works for Player 1
    assert any("Mimic becomes a copy of Banner." in line for line in match.narration())
    take(match, "pass")                                   # the turn ends: so does the copy
    views = Machine(match.game, match.state)
    assert (views.stat(mimic, "power"), views.stat(squire, "power")) == (3, 1)
    match = position(game, hand_1=["Mimic", "Gift"], board_2=["Banner", "Spy"])
    take(match, "cast Mimic")
    take(match, "Spy")
    take(match, "cast Gift")                              # the Rival draws: Spy's trigger
    assert match.state.counter(0, "Mana") == 1


def test_copying_the_effect_of_a_card_whose_kind_has_none_is_a_check_problem(tmp_path):
    with pytest.raises(CardrulesError, match="copying the effect of a card"):
        compiled(tmp_path, spell("Echo", "When this is played: Copy the effect of a Spell "
                                         "your Rival controls."))


def test_if_that_card_is_destroyed_reads_what_the_step_before_did_to_it(tmp_path):
    game = compiled(tmp_path, spell(
        "Bolt", "When this is played: Deal 3 damage to a Creature. If that Creature is "
                "destroyed, draw a card."), changes=LETHAL)
    for target, destroyed in (("Knight", True), ("Giant", False)):      # power 2, power 4
        match = position(game, hand_1=["Bolt"], board_2=["Knight", "Giant"])
        take(match, "cast Bolt")
        take(match, target)
        card = next(c for c in match.state.cards if c.name == target)
        assert (card.zone == ("graveyard", 1)) == destroyed
        assert len(match.state.zone("hand", 0)) == (1 if destroyed else 0)
