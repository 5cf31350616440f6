"""Words a rules file defines for its cards (second edition): nouns for the
cards of several kinds ("noun character: a Minion or a Hero"), adjectives by
their meaning ("adjective enemy: that your opponent controls"), counters in
the plural ("2 Gems"), "without KEYWORD", the players counted from the first
("the second player"), and a counter set to another ("sets their Mana to
their Gems"). Each is run in the Duel fixture; what cannot be read is a
check problem at its line."""

from __future__ import annotations

from interpreter.engine import Match, compile_game

from duel_support import DUEL, load_duel


WORDS = '''
noun unit: a Creature or a Spell
adjective friendly: that you control
adjective enemy: that your opponent controls
counter Gem: per player, starts at 0
'''

CARDS = '''
card "Purge"
  kind: Spell
  cost: 0
  text:
    When this is played: Return each enemy unit to its owner's hand.

card "Rally"
  kind: Spell
  cost: 0
  text:
    When this is played: Destroy each friendly Creature without Tough.

card "Gift"
  kind: Spell
  cost: 0
  text:
    When this is played: The second player draws a card.

card "Hoard"
  kind: Spell
  cost: 0
  text:
    When this is played: Gain 2 Gems, then you set your Mana to your Gems.

card "Stalwart"
  kind: Creature
  cost: 0
  power: 1
  text:
    Tough
'''


def game(tmp_path, words=WORDS, cards=CARDS):
    return load_duel(tmp_path, rules_extra=words, cards=cards)


def position(compiled, hand_1, board_1=(), board_2=()):
    zones = {("board", 0): [(n, ()) for n in board_1], ("board", 1): [(n, ()) for n in board_2],
             ("hand", 0): [(n, ()) for n in hand_1],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    return Match.from_position(compiled, 2, 1, zones, {}, 3, 0, "Main")


def cast(match, name):
    for action in match.legal_actions():
        if match.action_to_string(action).startswith(f"cast {name}"):
            match.apply_action(action)
            return
    raise AssertionError(name)


def names(match, zone, player):
    return sorted(match.state.cards[c].name for c in match.state.zone(zone, player))


def test_a_noun_and_an_adjective_mean_what_the_rules_file_says(tmp_path):
    loaded = game(tmp_path)
    assert loaded.problems == []
    match = position(compile_game(loaded), ["Purge"], board_1=["Knight"],
                     board_2=["Squire", "Knight"])
    cast(match, "Purge")
    assert names(match, "board", 1) == []                    # enemy units: returned
    assert names(match, "hand", 1) == ["Knight", "Squire"]
    assert names(match, "board", 0) == ["Knight", "Purge"]   # friendly: stays


def test_without_a_keyword(tmp_path):
    match = position(compile_game(game(tmp_path)), ["Rally"],
                     board_1=["Stalwart", "Knight"], board_2=["Squire"])
    cast(match, "Rally")
    assert names(match, "board", 0) == ["Rally", "Stalwart"]
    assert names(match, "board", 1) == ["Squire"]            # not friendly


def test_the_second_player_is_counted_from_the_first(tmp_path):
    # (a second card in hand keeps player 1 deciding in their Main phase)
    match = position(compile_game(game(tmp_path)), ["Gift", "Squire"])
    before = len(match.state.zone("hand", 1))
    cast(match, "Gift")
    assert len(match.state.zone("hand", 1)) == before + 1
    assert names(match, "hand", 0) == ["Squire"]


def test_a_counter_in_the_plural_and_a_counter_set_to_another(tmp_path):
    match = position(compile_game(game(tmp_path)), ["Hoard"])
    cast(match, "Hoard")
    assert match.state.counter(0, "Gem") == 2
    assert match.state.counter(0, "Mana") == 2


def test_a_noun_of_an_unknown_kind_is_reported_at_its_line(tmp_path):
    loaded = game(tmp_path, words="noun unit: a Creature or a Spel\n", cards="")
    line = (DUEL / "rules" / "duel.rules").read_text().count("\n") + 1
    [problem] = loaded.problems
    assert (problem.code, problem.span.line, problem.span.column) == ("E515", line, 12)
    assert problem.message == 'unknown card kind "Spel" in noun "unit"'
    assert problem.suggestion == 'did you mean "Spell"?'


def test_an_unreadable_adjective_is_reported_where_its_meaning_goes_wrong(tmp_path):
    loaded = game(tmp_path, words="adjective enemy: that your opponent commands\n", cards="")
    line = (DUEL / "rules" / "duel.rules").read_text().count("\n") + 1
    [problem] = loaded.problems
    assert (problem.code, problem.span.line, problem.span.column) == ("E201", line, 37)
    assert problem.message == 'unexpected word "commands"'
    assert problem.source_line == "adjective enemy: that your opponent commands"


def test_a_counter_can_make_a_player_win(tmp_path):
    loaded = game(tmp_path, words="counter Point: per player, starts at 0, a player at 3 or more wins\n",
                  cards='\ncard "Triumph"\n  kind: Spell\n  cost: 0\n  text:\n'
                        '    When this is played: Gain 3 Points.\n')
    assert loaded.problems == []
    match = position(compile_game(loaded), ["Triumph", "Squire"])
    cast(match, "Triumph")
    assert match.is_terminal()
    assert match.state.result == ("win", 0, "Point 3")
    assert match.returns()[0] > match.returns()[1]


def test_a_declaration_missing_its_meaning_is_reported_at_its_line(tmp_path):
    loaded = game(tmp_path, words="noun unit:\nadjective hostile:\n"
                  "zone well: per player, public, at most 2 cards, a card put into it when it "
                  "is full goes to its owner's graveyrd\n", cards="")
    line = (DUEL / "rules" / "duel.rules").read_text().count("\n") + 1
    found = [(p.code, p.span.line, p.message, p.suggestion) for p in loaded.problems]
    assert found == [
        ("E546", line, 'noun "unit" names no card kinds', None),
        ("E546", line + 1, 'adjective "hostile" has no meaning', None),
        ("E523", line + 2, 'unknown zone "graveyrd" for the cards a full "well" does not take',
         'did you mean "graveyard"?')]


def test_an_opponent_is_any_of_them(tmp_path):
    # Lore's "adjective opposing: that an opponent controls"
    words = WORDS.replace("that your opponent controls", "that an opponent controls")
    loaded = game(tmp_path, words=words, cards=CARDS + '''
card "Sweep"
  kind: Spell
  cost: 0
  text:
    When this is played: If an opponent controls a Creature, draw a card.
''')
    assert loaded.problems == []
    match = position(compile_game(loaded), ["Purge", "Sweep"], board_1=["Knight"],
                     board_2=["Squire", "Knight"])
    cast(match, "Purge")
    assert names(match, "board", 1) == []
    assert names(match, "board", 0) == ["Knight", "Purge"]
    match = position(compile_game(loaded), ["Sweep"], board_2=["Knight"])
    cast(match, "Sweep")
    assert names(match, "hand", 0) == ["Squire"]             # drew: an opponent has one


def test_a_noun_with_qualifiers_names_only_the_cards_they_describe(tmp_path):
    # "noun Protagonist: a Character in Protagonist Row" (Saturday Wars):
    # the kind, then qualifiers read with the card grammar
    loaded = game(tmp_path, words="noun foe: a Creature that your opponent controls\n",
                  cards='\ncard "Sweep"\n  kind: Spell\n  cost: 0\n  text:\n'
                        '    When this is played: Return each foe to its owner\'s hand.\n')
    assert loaded.problems == []
    match = position(compile_game(loaded), ["Sweep"], board_1=["Knight"],
                     board_2=["Squire", "Knight"])
    cast(match, "Sweep")
    assert names(match, "board", 1) == []
    assert names(match, "board", 0) == ["Knight", "Sweep"]


def test_a_noun_whose_qualifiers_are_unreadable_is_reported_where_they_go_wrong(tmp_path):
    loaded = game(tmp_path, words="noun foe: a Creature that your opponent commands\n", cards="")
    line = (DUEL / "rules" / "duel.rules").read_text().count("\n") + 1
    [problem] = loaded.problems
    assert (problem.code, problem.span.line, problem.span.column) == ("E201", line, 41)
    assert problem.message == 'unexpected word "commands"'


def test_an_unknown_zone_after_use_is_reported_at_its_line(tmp_path):
    # a kind's "after use: ZONE" was taken on trust: no card went anywhere
    loaded = game(tmp_path, words="kind Trap\n  after use: graveyrd\n", cards="")
    line = (DUEL / "rules" / "duel.rules").read_text().count("\n") + 2
    found = [(p.code, p.span.line, p.span.column, p.message, p.suggestion)
             for p in loaded.problems]
    assert found == [("E523", line, 14, 'unknown zone "graveyrd" for kind "Trap"',
                      'did you mean "graveyard"?')]
