"""The primitives Silver Wing Rivals' defence is written on, each on its
own in a copy of the Duel fixture (an original game): "Choose one" modes
offered while a condition holds and once per way of choosing the cards a
game verb is done to; "both X and Y"; "that shares a SET with X"; "If X has
KEYWORD"; "more than"; a status gained as the event of its name; the event
"before VERB" of a game verb's cards."""

from __future__ import annotations

import re

import pytest

from interpreter.engine import Match, compile_game
from interpreter.engine.machine import Machine
from interpreter.errors import CardrulesError

from duel_support import load_duel
from test_printed_forms import creature, labels, names, spell, take

COLORS = (("kind Creature\n  stats: cost, power\n",
           "values color: red, blue, green\nstat colors: list of color\n"
           "# a shade is never an adjective: it is never shared\n"
           "stat shade: one of color, never an adjective\n"
           "kind Creature\n  stats: cost, power\n  optional: colors, shade\n"),)
COLOR_RULES = '''
verb "Enlist {cards}": Put {cards} onto your board. {cards} become exhausted.
verb "Defend with {cards}": Put {cards} onto your board.
verb "Skip": Gain 1 Mana.
'''


def colored(name: str, colors: str, text: str = "", shade: str | None = None) -> str:
    body = f'\ncard "{name}"\n  kind: Creature\n  cost: 0\n  power: 1\n  colors: {colors}\n'
    if shade:
        body += f"  shade: {shade}\n"
    return body + (f"  text:\n    {text}\n" if text else "")


def game_with(tmp_path, cards: str, rules: str = ""):
    loaded = load_duel(tmp_path, rules_changes=COLORS, rules_extra=COLOR_RULES + rules,
                       cards=cards)
    assert loaded.problems == [], [p.render() for p in loaded.problems]
    return compile_game(loaded)


def start(game, hand_1=(), board_1=(), board_2=(), hand_2=()):
    zones = {("board", 0): [(n, ()) for n in board_1], ("board", 1): [(n, ()) for n in board_2],
             ("hand", 0): [(n, ()) for n in hand_1], ("hand", 1): [(n, ()) for n in hand_2],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    return Match.from_position(game, 2, 1, zones, {}, 3, 0, "Main")


def options(match) -> list[str]:
    return sorted(re.sub(r" #\d+", "", label) for label in labels(match))


SPARKS = (colored("Red Imp", "red") + colored("Blue Imp", "blue")
          + colored("Twin Imp", "red, blue") + colored("Shaded Imp", "green", shade="red"))


def test_a_verb_mode_is_offered_once_per_way_of_choosing_its_cards(tmp_path):
    game = game_with(tmp_path, SPARKS + spell(
        "Muster Call", "When this is played: Choose one — Skip; or Enlist 2 Creatures in your "
                       "hand that share a color with \"Red Imp\"."), )
    match = start(game, hand_1=["Muster Call", "Red Imp", "Twin Imp", "Blue Imp", "Shaded Imp"],
                  board_1=["Red Imp"])
    take(match, "cast Muster Call")
    # red: Red Imp and Twin Imp only (Shaded Imp's shade is never an adjective)
    assert options(match) == ["Enlist Red Imp and Twin Imp", "Skip"]
    assert match.state.decision.prompt == "choose one"
    take(match, "Enlist")
    imps = [n for n in names(match, "board", 0) if n.endswith("Imp")]
    assert imps == ["Red Imp", "Red Imp", "Twin Imp"]
    enlisted = [c for c in match.state.zone("board", 0)
                if "exhausted" in match.state.cards[c].statuses]
    assert len(enlisted) == 2


def test_a_mode_with_a_condition_is_offered_only_while_it_holds(tmp_path):
    text = ("When this is played: Choose one — Skip; or if you control a Creature, Draw a "
            "card; or if you have more than 3 Mana, Draw 2 cards.")
    game = game_with(tmp_path, spell("Forked Path", text))
    match = start(game, hand_1=["Forked Path"])
    take(match, "cast Forked Path")
    # one mode left: nothing to decide, it happens (Skip: gain 1 Mana)
    assert match.state.counter(0, "Mana") == 1 and match.unasked
    match = start(game, hand_1=["Forked Path"], board_1=["Knight"])
    take(match, "cast Forked Path")
    assert options(match) == ["Draw a card", "Skip"]        # read without "if ..."


def test_a_group_names_both_parts_and_a_part_must_name_a_card(tmp_path):
    text = ('When this is played: Choose one — Skip; or Enlist both a Creature you control '
            'that shares a color with "Blue Imp" and a Creature in your hand that shares a '
            'color with "Blue Imp".')
    game = game_with(tmp_path, SPARKS + spell("Pair Up", text))
    match = start(game, hand_1=["Pair Up", "Twin Imp", "Red Imp"], board_1=["Blue Imp"])
    take(match, "cast Pair Up")
    assert options(match) == ["Enlist Blue Imp and Twin Imp", "Skip"]
    # no blue card on the board: the group cannot be made
    match = start(game, hand_1=["Pair Up", "Twin Imp"], board_1=["Red Imp"])
    take(match, "cast Pair Up")
    assert match.state.counter(0, "Mana") == 1


def test_the_same_act_on_the_same_cards_is_one_option_and_cant_is_respected(tmp_path):
    text = ('When this is played: Choose one — Skip; or Defend with a Creature in your hand '
            'that shares a color with "Red Imp"; or Defend with a Creature in your hand with '
            'Tough.')
    cards = SPARKS + colored("Tough Imp", "red", "Tough") + spell("Call", text)
    game = game_with(tmp_path, cards)
    match = start(game, hand_1=["Call", "Tough Imp", "Blue Imp"], board_1=["Red Imp"])
    take(match, "cast Call")
    assert options(match) == ["Defend with Tough Imp", "Skip"]
    # "can't defend" (the verb's first word): not offered with that card
    forbidding = creature("Warden", "ALWAYS: All Creatures with Tough can't defend.")
    game = game_with(tmp_path, cards + forbidding)
    match = start(game, hand_1=["Call", "Tough Imp", "Red Imp"], board_1=["Warden", "Red Imp"])
    take(match, "cast Call")
    assert options(match) == ["Defend with Red Imp", "Skip"]


def test_the_prompt_of_a_verb_that_is_one_choice_is_the_verb(tmp_path):
    rules = ('verb "Rally around {card}": Choose one — Skip; or Enlist a Creature in your '
             'hand that shares a color with {card}.\n')
    game = game_with(tmp_path, SPARKS + spell(
        "Banner Call", 'When this is played: Rally around a Creature you control.'), rules)
    match = start(game, hand_1=["Banner Call", "Twin Imp"], board_1=["Blue Imp"])
    take(match, "cast Banner Call")
    assert re.sub(r" #\d+", "", match.state.decision.prompt) == "rally around Blue Imp"


def test_a_card_with_a_keyword_and_more_than(tmp_path):
    cards = SPARKS + colored("Tough Imp", "red", "Tough") + spell(
        "Test", 'When this is played: If "Tough Imp" has Tough, gain 2 Mana. If "Red Imp" '
                "doesn't have Tough, gain 3 Mana. If your Mana is more than the number of "
                "cards in your hand, draw a card.")
    game = game_with(tmp_path, cards)
    match = start(game, hand_1=["Test"], board_1=["Tough Imp", "Red Imp"])
    take(match, "cast Test")
    assert match.state.counter(0, "Mana") == 5
    assert len(match.state.zone("hand", 0)) == 1             # 5 > 0: drew


def test_counts_as_is_shared(tmp_path):
    cards = SPARKS + spell("Paint", 'When this is played: "Blue Imp" counts as red until the '
                                    'end of this turn. Choose one — Skip; or Enlist a Creature '
                                    'in your hand that shares a color with "Blue Imp".')
    game = game_with(tmp_path, cards)
    match = start(game, hand_1=["Paint", "Red Imp"], board_1=["Blue Imp"])
    take(match, "cast Paint")
    assert options(match) == ["Enlist Red Imp", "Skip"]


def test_counting_as_a_value_takes_the_place_of_the_printed_ones(tmp_path):
    # "Blue Imp counts as red": red, and no longer blue, for "shares a color"
    # and for adjectives alike, while it lasts
    cards = SPARKS + spell("Paint", 'When this is played: "Blue Imp" counts as red and has '
                                    'Tough until the end of this turn. Choose one — Skip; '
                                    'or Enlist a Creature in your hand that shares a color '
                                    'with "Blue Imp"; or Enlist a blue Creature you control.')
    game = game_with(tmp_path, cards)
    match = start(game, hand_1=["Paint", "Red Imp", "Blue Imp"], board_1=["Blue Imp"])
    take(match, "cast Paint")
    assert options(match) == ["Enlist Red Imp", "Skip"]
    painted = match.state.zone("board", 0)[0]
    assert Machine(match.game, match.state).has_keyword(painted, "Tough")         # "and has": the same card


def test_a_status_gained_is_the_event_of_its_name(tmp_path):
    cards = creature("Sentinel", "When this is exhausted: Draw a card.") + spell(
        "Tire", "When this is played: Each Creature you control becomes exhausted.")
    game = game_with(tmp_path, cards)
    match = start(game, hand_1=["Tire"], board_1=["Sentinel"])
    take(match, "cast Tire")
    assert len(match.state.zone("hand", 0)) == 1             # drawn once
    match = start(game, hand_1=["Tire"], board_1=["Sentinel"])
    sentinel = match.state.zone("board", 0)[0]
    match.state.cards[sentinel].statuses = ("exhausted",)
    take(match, "cast Tire")
    assert len(match.state.zone("hand", 0)) == 0             # had it: no event


def test_both_with_a_choice_outside_a_mode_is_a_check_problem(tmp_path):
    loaded = load_duel(tmp_path, rules_changes=COLORS, rules_extra=COLOR_RULES, cards=spell(
        "Odd", "When this is played: Enlist both a Creature in your hand and a Creature in "
               "your hand."))
    with pytest.raises(CardrulesError) as error:
        compile_game(loaded)
    assert "E801" in str(error.value) and '"both ... and ..." with a card to choose' in \
        str(error.value) and "core.cards:" in str(error.value)
