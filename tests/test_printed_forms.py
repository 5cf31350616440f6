"""Forms cards and rulebooks print that the Lore fixture (tests/fixtures/lore,
an ink-and-lore game written from its own rulebook) needed, each run with
the meaning a player reads. Written in copies of the Duel fixture, an
original game, so that each form is seen on its own.
"""

from __future__ import annotations

from interpreter.engine import Match, compile_game
from interpreter.engine import operations as op

from duel_support import load_duel


def spell(name: str, text: str) -> str:
    return f'\ncard "{name}"\n  kind: Spell\n  cost: 0\n  text:\n    {text}\n'


def creature(name: str, text: str, power: int = 1) -> str:
    return f'\ncard "{name}"\n  kind: Creature\n  cost: 0\n  power: {power}\n  text:\n    {text}\n'


def compiled(tmp_path, cards: str = "", rules: str = "", changes=()):
    loaded = load_duel(tmp_path, rules_extra=rules, cards=cards, rules_changes=list(changes))
    assert loaded.problems == [], [p.render() for p in loaded.problems]
    return compile_game(loaded)


def position(game, hand_1=("Squire",), board_1=(), board_2=(), hand_2=()):
    zones = {("board", 0): [(n, ()) for n in board_1], ("board", 1): [(n, ()) for n in board_2],
             ("hand", 0): [(n, ()) for n in hand_1], ("hand", 1): [(n, ()) for n in hand_2],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    return Match.from_position(game, 2, 1, zones, {}, 3, 0, "Main")


def labels(match) -> list[str]:
    return [match.action_to_string(a) for a in match.legal_actions()]


def take(match, label: str) -> None:
    for action in match.legal_actions():
        if match.action_to_string(action).startswith(label):
            match.apply_action(action)
            return
    raise AssertionError(f"{label!r} not in {labels(match)}")


def names(match, zone: str, player: int) -> list[str]:
    return sorted(match.state.cards[c].name for c in match.state.zone(zone, player))


def test_each_card_returns_to_its_own_owners_hand(tmp_path):
    # "Return each Creature to its owner's hand" put every card into the
    # caster's hand (issue "Card text as printed"); "their owner's" reads the same
    for text in ("When this is played: Return each Creature to its owner's hand.",
                 "When this is played: Return each Creature to their owner's hand."):
        folder = tmp_path / str(len(text))
        folder.mkdir()
        game = compiled(folder, spell("Tide", text))
        match = position(game, hand_1=["Tide"], board_1=["Knight"], board_2=["Giant", "Squire"])
        take(match, "cast Tide")
        moves = [line.strip() for line in match.narration() if "'s board to" in line]
        assert sorted(moves) == ["Giant moves from Player 2's board to Player 2's hand.",
                                 "Knight moves from Player 1's board to Player 1's hand.",
                                 "Squire moves from Player 2's board to Player 2's hand."], moves


def test_of_yours_is_a_card_you_control(tmp_path):
    game = compiled(tmp_path, spell(
        "Rally", "When this is played: Chosen Creature of yours gets +2 power until the end of this turn."))
    match = position(game, hand_1=["Rally"], board_1=["Knight"], board_2=["Giant"])
    take(match, "cast Rally")
    # one candidate (Knight, not the rival's Giant): no question
    knight = next(c for c in match.state.zone("board", 0))
    from interpreter.engine.machine import Machine
    assert Machine(match.game, match.state).stat(knight, "power") == 4


def test_choose_and_discard_is_discard(tmp_path):
    game = compiled(tmp_path, spell(
        "Sift", "When this is played: Draw a card, then choose and discard a card."))
    match = position(game, hand_1=["Sift", "Knight"])
    take(match, "cast Sift")
    assert match.state.decision.prompt == "discard a card"
    take(match, "Knight")
    assert names(match, "graveyard", 0) == ["Knight"] or "Knight" not in names(match, "hand", 0)


def test_a_qualifier_that_can_take_one_of_the_games_actions(tmp_path):
    # "a ready character you control that can quest": one of the game's own
    # actions, which "This can't quest." forbids
    game = compiled(tmp_path, creature("Sentinel", "This can't quest."), rules='''
action quest
  during: Main
  choose: a Creature you control that is not exhausted
  effect: Exhaust it, then gain 1 Mana.
action "inspire"
  during: Main
  choose: a Creature you control that can quest
  effect: Gain 1 Mana.
''')
    match = position(game, board_1=["Sentinel", "Knight"])
    assert [l.split(" #")[0] for l in labels(match) if l.startswith(("inspire", "quest"))] == [
        "quest Knight", "inspire Knight"]


def test_a_player_with_enough_of_a_counter_wins(tmp_path):
    # Lore 1.1: "A player who has 20 or more lore wins the game at once";
    # the rule reads as "If a player has 10 or more Mana, they win the game"
    game = compiled(tmp_path, spell("Windfall", "When this is played: Gain 2 Mana."),
                    rules='rule "Hoard": A player with 10 or more Mana wins the game.\n')
    zones = {("hand", 0): [("Windfall", ())], ("deck", 0): [("Squire", ())] * 5,
             ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(game, 2, 1, zones, {(0, "Mana"): 8}, 3, 0, "Main")
    assert match.state.result is None
    take(match, "cast Windfall")
    assert match.state.result[:2] == ("win", 0)


QUEST = '''
event "quests": "A Creature is exhausted to quest."
action quest
  during: Main
  choose: a Creature you control that is not exhausted
  cost: Exhaust it.
  announces: quests
  effect: Gain 1 Mana.
'''


def test_a_trigger_on_an_event_an_action_announces(tmp_path):
    # Lore: "Whenever this character quests, each opponent loses 1 lore."
    game = compiled(tmp_path, creature(
        "Bard", "Whenever this quests, each opponent loses 1 Life."), rules=QUEST)
    match = position(game, board_1=["Bard", "Knight"])
    life = match.state.counter(1, "Life")
    take(match, "quest Knight")
    assert match.state.counter(1, "Life") == life
    take(match, "quest Bard")
    assert match.state.counter(1, "Life") == life - 1
    assert match.state.counter(0, "Mana") == 2


def test_cost_colon_effect_with_no_timing_is_an_activated_ability(tmp_path):
    # Lore: "Exert this, pay 1 ink: Draw a card." (an item's ability)
    game = compiled(tmp_path, creature("Lantern", "Exhaust this, pay 1 Mana: Draw a card."))
    zones = {("board", 0): [("Lantern", ())], ("hand", 0): [], ("deck", 0): [("Knight", ())] * 5,
             ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(game, 2, 1, zones, {(0, "Mana"): 2}, 3, 0, "Main")
    assert [l.split(" #")[0] for l in labels(match) if l.startswith("use")] == ["use Lantern"]
    take(match, "use Lantern")
    assert names(match, "hand", 0) == ["Knight"]
    assert match.state.counter(0, "Mana") == 1
    # exhausted: its cost can't be paid again
    assert not any(l.startswith("use") for l in labels(match))


def test_a_random_player_chooses_a_player_who_takes_the_first_turn(tmp_path):
    # Lore 2.2: "A random player chooses a player. That player takes the next turn."
    loaded = load_duel(tmp_path, rules_changes=[(
        "setup\n  Each player shuffles",
        "setup\n  A random player chooses a player. That player takes the next turn.\n"
        "  Each player shuffles")])
    assert loaded.problems == [], [p.render() for p in loaded.problems]
    game = compile_game(loaded)
    for chosen in (0, 1):
        match = Match.start(game, loaded.decks[:1] * 2, seed=3)
        decision = match.state.decision
        assert (decision.prompt, decision.labels) == ("choose a player", ("Player 1", "Player 2"))
        chooser = decision.player
        match.apply_action(chosen)
        assert match.state.turn == 1 and match.state.turn_player == chosen
        notes = match.narration()
        assert any(f"Player {chooser + 1} is picked at random." in n for n in notes), notes
        assert any(f"Player {chosen + 1} goes first." in n for n in notes), notes


def test_a_cost_of_x_cards_where_x_is_read_from_the_card(tmp_path):
    # Lore 4.2: "cost: Pay X ink, where X is its cost." with the verb
    # "Pay {n} ink": Exert {n} ready cards in your inkwell.
    game = compiled(tmp_path, rules='''
verb "Tap {n}": Exhaust {n} ready Creatures you control.
action "summon"
  during: Main
  choose: a Creature in your hand
  cost: Tap X, where X is its cost.
  effect: Put it into your board.
''')
    match = position(game, hand_1=["Giant", "Archer"], board_1=["Squire", "Squire", "Knight"])
    summons = sorted(l.split(" #")[0] for l in labels(match) if l.startswith("summon"))
    assert summons == ["summon Archer", "summon Giant"]
    take(match, "summon Archer")          # cost 2: two of the three ready Creatures
    while match.state.decision.prompt != "take an action or pass":
        match.apply_action(0)
    exhausted = [c for c in match.state.zone("board", 0)
                 if "exhausted" in match.state.cards[c].statuses]
    assert len(exhausted) == 2
    # one ready Creature left (and the Archer): the Giant (cost 3) is not offered
    assert not any(l.startswith("summon Giant") for l in labels(match))


def test_a_zone_named_without_a_player(tmp_path):
    # Lore: "Put it into play.", "Whenever a character enters play, ...",
    # "a character in play" (the zone "play" of every player)
    game = compiled(tmp_path, creature("Crier", "Whenever a Creature enters board, gain 1 Mana.")
                    + spell("Summoner", 'When this is played: Put a Creature in your hand into board.'))
    match = position(game, hand_1=["Summoner", "Knight"], board_1=["Crier"],
                     board_2=["Giant", "Squire"])
    mana = match.state.counter(0, "Mana")
    take(match, "cast Summoner")      # itself enters the board (a Spell: no Mana)
    assert names(match, "board", 0) == ["Crier", "Knight", "Summoner"]
    assert match.state.counter(0, "Mana") == mana + 1          # the Knight entered
    (tmp_path / "census").mkdir()
    game = compiled(tmp_path / "census", spell(
        "Census", "When this is played: Draw cards equal to the number of Creatures in board."))
    match = position(game, hand_1=["Census"], board_1=["Knight"], board_2=["Giant", "Squire"])
    take(match, "cast Census")
    assert len(match.state.zone("hand", 0)) == 3               # both players' boards


def test_leaving_a_zone_is_an_event(tmp_path):
    game = compiled(tmp_path, creature(
        "Mourner", "Whenever another Creature leaves board, draw a card."))
    match = position(game, hand_1=[], board_1=["Mourner", "Knight"])
    take(match, "sacrifice Knight")
    assert len(match.state.zone("hand", 0)) == 1


def test_each_deals_damage_to_the_other(tmp_path):
    # Lore 7.1: "The challenging character and the challenged character each
    # deal damage equal to their Strength to the other."
    game = compiled(tmp_path, creature(
        "Duelist", "DRILL: Choose a Creature your Rival controls. This and it each deal damage "
                   "equal to their power to the other.", power=3),
        changes=[("stat power: number",
                  "stat power: number, a card with damage at least its power is destroyed")])
    match = position(game, board_1=["Duelist"], board_2=["Giant"])
    take(match, "use DRILL of Duelist")
    duelist, giant = (next(c for c in range(len(match.state.cards))
                           if match.state.cards[c].name == n) for n in ("Duelist", "Giant"))
    assert match.state.cards[giant].counter("damage") == 3
    assert match.state.cards[duelist].zone[0] == "graveyard"     # 4 damage to a 3 power


def test_play_a_card_for_free(tmp_path):
    # Lore: "you may play an action with cost 3 or less from your hand for free"
    game = compiled(tmp_path, spell(
        "Encore", "When this is played: You may play a Creature with cost 1 or less from your "
                  "hand for free, then gain 1 Mana."))
    zones = {("hand", 0): [("Encore", ()), ("Knight", ()), ("Giant", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(game, 2, 1, zones, {(0, "Mana"): 0}, 3, 0, "Main")
    take(match, "cast Encore")
    while match.state.decision.kind != "action":
        take(match, "yes" if "yes" in labels(match) else "Knight")
    assert "Knight" in names(match, "board", 0)
    assert match.state.counter(0, "Mana") == 1


def test_a_continuous_change_while_a_condition_holds(tmp_path):
    # Lore 8: "Challenger +{n}": While this character is challenging, it gets +{n} Strength.
    game = compiled(tmp_path, creature("Brute", "Rage +2"), rules=(
        'keyword "Rage +{n}": While this is exhausted, it gets +{n} power.\n'))
    match = position(game, board_1=["Brute"])
    brute = match.state.zone("board", 0)[0]
    from interpreter.engine.machine import Machine
    assert Machine(match.game, match.state).stat(brute, "power") == 1
    take(match, "attack Brute")            # exhausts it
    assert "exhausted" in match.state.cards[brute].statuses
    assert Machine(match.game, match.state).stat(brute, "power") == 3


def test_damage_to_each_card_equal_to_its_own_stat(tmp_path):
    # Lore: "Deal damage to each opposing character equal to their Lore."
    # each damaged card's own value ("its" before the target stays the
    # card whose text it is: "Deal damage equal to its power to ...")
    game = compiled(tmp_path, spell(
        "Backlash", "When this is played: Deal damage to each Creature your Rival controls "
                    "equal to their power."))
    match = position(game, hand_1=["Backlash"], board_2=["Giant", "Knight"])
    take(match, "cast Backlash")
    damage = {match.state.cards[c].name: match.state.cards[c].counter("damage")
              for c in match.state.zone("board", 1)}
    assert damage == {"Giant": 4, "Knight": 2}


def test_an_event_verb_after_a_plural_subject_in_a_game_with_a_word_spelt_the_same(tmp_path):
    # Silver Wing Rivals has the stat value "attack": "When 2 Allies attack"
    # read "attack" as that value (found by the grammar's property test)
    from interpreter.language.games import load_game
    from interpreter.language.game_rules import parse_ability
    rules = load_game("silver-wing-rivals").rules
    ability = parse_ability(rules, "When 2 Allies attack: Draw a card.")
    assert ability.conditions[0].form == "when"


def test_x_in_a_stat_comparison(tmp_path):
    # Lore 5.3: "cost: Exert a ready character you control ... with cost X or
    # more, where X is its cost (the song's)."
    game = compiled(tmp_path, rules='''
action "rally"
  during: Main
  choose: a Creature in your hand
  cost: Exhaust a ready Creature you control with power X or more, where X is its cost.
  effect: Put it into your board.
''')
    match = position(game, hand_1=["Giant", "Archer"], board_1=["Knight", "Squire"])
    rallies = sorted(l.split(" #")[0] for l in labels(match) if l.startswith("rally"))
    assert rallies == ["rally Archer"]          # cost 2: the Knight (power 2) pays it
    take(match, "rally Archer")
    knight = next(c for c in match.state.zone("board", 0) if match.state.cards[c].name == "Knight")
    assert "exhausted" in match.state.cards[knight].statuses
    assert "Archer" in names(match, "board", 0)


def test_remove_up_to_a_number_of_a_counter(tmp_path):
    # Lore: "Remove up to 3 damage from chosen character." (the player may
    # remove fewer: the character may be an opponent's)
    game = compiled(tmp_path, spell(
        "Mend", "When this is played: Remove up to 3 damage from a Creature."))
    zones = {("hand", 0): [("Mend", ())], ("board", 1): [("Giant", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(game, 2, 1, zones, {}, 3, 0, "Main")
    giant = match.state.zone("board", 1)[0]
    match.state.cards[giant].counters = (("damage", 2),)
    take(match, "cast Mend")
    assert (match.state.decision.prompt, match.state.decision.labels) == (
        "remove how many damage", ("0", "1", "2"))
    take(match, "1")
    assert match.state.cards[giant].counter("damage") == 1


def test_a_keyword_with_a_number_given_by_an_effect(tmp_path):
    # Lore: "Chosen character of yours gains Challenger +2 this turn." (was
    # E801: a keyword with slots could not be given)
    from interpreter.engine.machine import Machine
    game = compiled(tmp_path, spell(
        "Fury", "When this is played: A Creature you control gains Rage +2 until the end of "
                "this turn."), rules='keyword "Rage +{n}": While this is exhausted, it gets '
                                     '+{n} power.\n')
    match = position(game, hand_1=["Fury"], board_1=["Knight"])
    knight = match.state.zone("board", 0)[0]
    take(match, "cast Fury")
    views = Machine(match.game, match.state)
    assert views.has_keyword(knight, "Rage +{n}")
    assert views.stat(knight, "power") == 2          # not exhausted yet
    take(match, "attack Knight")
    assert Machine(match.game, match.state).stat(knight, "power") == 4


def test_a_prohibition_against_some_cards_only(tmp_path):
    # Lore 8 Evasive: "This character can't be challenged by characters
    # without Evasive." and the action's "target: ... that can be challenged by it"
    game = compiled(tmp_path, creature("Sprite", "Elusive", power=1), rules='''
event "is struck": "A Creature is the target of a strike."
keyword Elusive: This can't be struck by Creatures without Elusive.
action "strike"
  during: Main
  choose: a Creature you control that is not exhausted
  target: a Creature your Rival controls that can be struck by it
  effect: Exhaust it.
''')
    match = position(game, board_1=["Knight", "Sprite"], board_2=["Sprite", "Giant"])
    take(match, "strike Knight")
    # the Knight (no Elusive) may strike the Giant only: no question is asked
    assert match.state.decision.prompt == "take an action or pass"
    take(match, "strike Sprite")
    assert match.state.decision.prompt == "choose a target to strike"
    assert sorted(l.split(" #")[0] for l in labels(match)) == ["Giant", "Sprite"]


def test_damage_reduced_by_a_keyword_printed_or_given(tmp_path):
    # Lore 8 Resist: "Damage that would be dealt to this character is reduced
    # by {n}." (instances add up: Resist +1 and Resist +2 reduce it by 3)
    game = compiled(tmp_path, creature("Bulwark", "Sturdy +1", power=5) + spell(
        "Shield", "When this is played: A Creature you control gains Sturdy +2 until the end "
                  "of this turn.") + spell(
        "Bolt", "When this is played: Deal 4 damage to a Creature."),
        rules='keyword "Sturdy +{n}": Damage that would be dealt to this is reduced by {n}.\n')
    match = position(game, hand_1=["Bolt"], board_1=["Bulwark"])
    take(match, "cast Bolt")
    bulwark = match.state.zone("board", 0)[0]
    assert match.state.cards[bulwark].counter("damage") == 3
    match = position(game, hand_1=["Shield", "Bolt"], board_1=["Bulwark"])
    take(match, "cast Shield")
    take(match, "cast Bolt")
    bulwark = match.state.zone("board", 0)[0]
    assert match.state.cards[bulwark].counter("damage") == 1        # 4 - (1 + 2)


def test_a_card_its_opponents_cannot_choose(tmp_path):
    # Lore 8 Ward: "This character can't be chosen by your opponents." (was
    # accepted, as "can't be chosen", and did nothing)
    game = compiled(tmp_path, creature("Ghost", "This can't be chosen by your opponents.")
                    + spell("Bolt", "When this is played: Deal 1 damage to a Creature."))
    match = position(game, hand_1=["Bolt"], board_1=["Knight"], board_2=["Ghost", "Squire"])
    take(match, "cast Bolt")
    assert sorted(l.split(" #")[0] for l in labels(match)) == ["Knight", "Squire"]
    # its own player may choose it
    match = position(game, hand_1=["Bolt"], board_1=["Ghost", "Knight"])
    take(match, "cast Bolt")
    assert sorted(l.split(" #")[0] for l in labels(match)) == ["Ghost", "Knight"]


def test_a_keyword_of_two_abilities(tmp_path):
    # Lore 8.1 Bodyguard: two abilities, the second on an "also:" line
    game = compiled(tmp_path, creature("Warden", "Guardian", power=2), rules='''
keyword Guardian: When this is played, draw a card.
  also: ALWAYS: This gets +1 power.
  instances: add up
''')
    match = position(game, hand_1=["Warden"])
    take(match, "cast Warden")
    warden = next(c for c in match.state.zone("board", 0))
    from interpreter.engine.machine import Machine
    assert Machine(match.game, match.state).stat(warden, "power") == 3
    assert len(match.state.zone("hand", 0)) == 1            # drew a card


def test_a_keywords_unknown_line_is_reported(tmp_path):
    loaded = load_duel(tmp_path, rules_extra='''
keyword Guardian: ALWAYS: This gets +1 power.
  alsoo: ALWAYS: This gets +1 power.
''')
    assert [(p.code, p.message) for p in loaded.problems] == [("E504", 'unknown field "alsoo"')]
    assert loaded.problems[0].suggestion == 'did you mean "also"?'


def test_choose_one_with_a_colon_and_a_game_verb_after_a_player(tmp_path):
    # "Choose one:" (Lore, HS) reads as "Choose one —"; "Your Rival Musters
    # 1": a game verb conjugated for its subject
    from interpreter.language.game_rules import parse_ability
    from interpreter.language.render import render_ability
    loaded = load_duel(tmp_path)
    colon = parse_ability(loaded.rules, "Choose one: Draw a card; or Gain 2 Mana.")
    dash = parse_ability(loaded.rules, "Choose one — Draw a card; or Gain 2 Mana.")
    assert render_ability(colon) == render_ability(dash)
    ability = parse_ability(loaded.rules, "Your Rival Musters 1.")
    step = ability.resolution[0].args[0].args[0]
    assert (step.form, step.args[0].form, step.args[2].form) == (
        "player_verb_step", "rival", "Muster {n}")
    assert render_ability(ability) == "Your Rival Musters 1."


def test_another_is_never_the_card_itself(tmp_path):
    # issue "Card text as printed": "another" included the card itself
    # ("Destroy another Creature you control" could destroy itself)
    game = compiled(tmp_path, creature("Echo", "DRILL: Destroy another Creature you control."))
    match = position(game, board_1=["Echo", "Squire", "Knight"])
    take(match, "use DRILL of Echo")
    assert sorted(l.split(" #")[0] for l in labels(match)) == ["Knight", "Squire"]
    match = position(game, board_1=["Echo"])
    assert not any(l.startswith("use DRILL") for l in labels(match)) or (
        take(match, "use DRILL of Echo") is None and
        [match.state.cards[c].name for c in match.state.zone("board", 0)] == ["Echo"])


def test_a_stat_change_and_a_keyword_in_one_sentence(tmp_path):
    # issue "Card text as printed": "gets +20 AP and has Double Strike"
    from interpreter.engine.machine import Machine
    game = compiled(tmp_path, spell(
        "Anthem", "When this is played: A Creature you control gets +2 power and has Guard "
                  "until the end of this turn."))
    match = position(game, hand_1=["Anthem"], board_1=["Knight"])
    knight = match.state.zone("board", 0)[0]
    take(match, "cast Anthem")
    views = Machine(match.game, match.state)
    assert views.stat(knight, "power") == 4 and views.has_keyword(knight, "Guard")
    match.apply_action(labels(match).index("pass"))     # the turn ends: so does the change
    views = Machine(match.game, match.state)
    assert views.stat(knight, "power") == 2 and not views.has_keyword(knight, "Guard")


def test_a_continuous_if_with_a_comma_is_in_force_while_it_holds(tmp_path):
    # issue "Card text as printed": 'If you control 3 or more X, Y' written
    # with a comma checked clean and then stopped the game (E801); in
    # continuous text it reads as "While ...": in force while it holds
    from interpreter.engine.machine import Machine
    game = compiled(tmp_path, creature(
        "Pack Leader", "If you control 2 or more Creatures, this gets +2 power."))
    match = position(game, board_1=["Pack Leader"])
    leader = next(c for c in match.state.zone("board", 0))
    assert Machine(match.game, match.state).stat(leader, "power") == 1
    match = position(game, board_1=["Pack Leader", "Knight"])
    leader = next(c for c in match.state.zone("board", 0)
                  if match.state.cards[c].name == "Pack Leader")
    assert Machine(match.game, match.state).stat(leader, "power") == 3


def test_an_amount_of_a_second_counter_after_and_is_gained_or_lost_too(tmp_path):
    # issue "Card text as printed": "gain 1 A and 1 B" checked clean and then
    # stopped the game ("the engine cannot run more counter")
    game = compiled(tmp_path, spell(
        "Bounty", "When this is played: Gain 2 Mana and 1 Life. "
                  "Your Rival loses 3 Life and 1 Guess."))
    match = position(game, hand_1=["Bounty"])
    mine, theirs = match.state.player_counters
    before = (mine["Life"], mine["Mana"], theirs["Life"], theirs["Guess"])
    take(match, "cast Bounty")
    mine, theirs = match.state.player_counters
    assert (mine["Life"], mine["Mana"], theirs["Life"], theirs["Guess"]) == (
        before[0] + 1, before[1] + 2, before[2] - 3, before[3] - 1)


def test_steps_an_effect_leaves_for_later_happen_once_at_that_moment(tmp_path):
    # issue "Card text as printed": delayed steps inside an effect ("At the
    # end of the turn, ...", "At the start of your next turn, ...") checked
    # clean and then stopped the game (E801)
    game = compiled(tmp_path, spell("Later", "When this is played: At the end of the turn, "
                                             "draw a card.")
                    + spell("Soon", "When this is played: At the start of your next turn, "
                                    "draw 2 cards."))
    match = position(game, hand_1=["Later", "Soon"])
    take(match, "cast Later")
    # left for the end of this turn (turn 3): the state keeps it (clone, JSON)
    assert [entry[0] for entry in match.state.delayed] == [("turn", 3, "end")]
    take(match, "cast Soon")
    while match.state.turn < 6:
        take(match, "pass")
    lines = [line.strip() for line in match.narration()]
    draws = [i for i, line in enumerate(lines)
             if line == "Squire moves from Player 1's deck to Player 1's hand."]
    turn_4, turn_5 = lines.index("-- Turn 4: Player 2"), lines.index("-- Turn 5: Player 1")
    upkeep_5 = lines.index("Upkeep", turn_5)
    # one card at the end of turn 3, two as turn 5 starts (before its
    # Upkeep's own draw), and nothing more: each happens once
    assert [i for i in draws if i < turn_4] == [draws[0]]
    assert len([i for i in draws if turn_5 < i < upkeep_5]) == 2
    assert not [i for i in draws if turn_4 < i < turn_5]
    assert match.state.delayed == ()


def test_a_card_at_random_is_picked_by_the_game(tmp_path):
    # issue "Card text as printed": "at random" (as "a random card"): the
    # player is not asked; the game's seeded random numbers pick
    from interpreter.language.game_rules import parse_ability
    from interpreter.language.render import render_ability
    game = compiled(tmp_path, spell("Ransack", "When this is played: Your Rival discards "
                                               "2 cards at random."))
    text = "When this is played: Your Rival discards 2 cards at random."
    ability = parse_ability(game.rules, text)
    assert render_ability(ability) == text
    picks = set()
    for seed in range(6):
        zones = {("hand", 0): [("Ransack", ())], ("hand", 1): [
                     ("Knight", ()), ("Giant", ()), ("Squire", ()), ("Wall", ())],
                 ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
        match = Match.from_position(game, 2, seed, zones, {}, 3, 0, "Main")
        take(match, "cast Ransack")
        assert not [line for line in match.narration() if "Player 2 chooses" in line]
        assert len(names(match, "graveyard", 1)) == 2
        picks.add(tuple(names(match, "graveyard", 1)))
        again = Match.from_position(game, 2, seed, zones, {}, 3, 0, "Main")
        take(again, "cast Ransack")
        assert names(again, "graveyard", 1) == names(match, "graveyard", 1)
    assert len(picks) > 1           # not always the same two cards


def test_unless_they_pay_is_a_tax_the_player_may_pay_instead(tmp_path):
    # issue "Card text as printed": "unless" as a tax
    from interpreter.language.game_rules import parse_ability
    from interpreter.language.render import render_ability
    text = "When this is played: Your Rival discards a card unless they pay 2 Mana."
    game = compiled(tmp_path, spell("Toll", text))
    assert render_ability(parse_ability(game.rules, text)) == text

    def table(mana: int):
        zones = {("hand", 0): [("Toll", ())], ("hand", 1): [("Knight", ())],
                 ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
        match = Match.from_position(game, 2, 1, zones, {(1, "Mana"): mana}, 3, 0, "Main")
        take(match, "cast Toll")
        return match

    match = table(2)
    assert match.current_player() == 1
    assert match.state.decision.prompt == \
        "pay 2 Mana so that this does not happen: your Rival discards a card"
    take(match, "yes")
    assert names(match, "graveyard", 1) == []
    assert "Player 2: Mana 2 -> 0." in [line.strip() for line in match.narration()]
    match = table(2)
    take(match, "no")
    assert names(match, "graveyard", 1) == ["Knight"]
    match = table(1)                # cannot pay: not asked, nothing paid
    assert names(match, "graveyard", 1) == ["Knight"]
    assert not [line for line in match.narration() if "Player 2 chooses" in line]


def test_cards_looked_at_are_put_back_in_the_order_their_player_picks(tmp_path):
    # issue "Card text as printed": "looking at the top N and putting them
    # back in any order (and on the bottom)"
    game = compiled(tmp_path, spell(
        "Scry", "When this is played: Look at the top 3 cards of your deck, then put them "
                "back in any order.") + spell(
        "Sink", "When this is played: Look at the top 2 cards of your deck, then put them "
                "on the bottom of your deck in any order."))

    def table(card):
        zones = {("hand", 0): [(card, ())], ("deck", 1): [("Squire", ())] * 5,
                 ("deck", 0): [("Knight", ()), ("Giant", ()), ("Squire", ()), ("Wall", ())]}
        return Match.from_position(game, 2, 1, zones, {}, 3, 0, "Main")

    def deck(match):       # from the bottom to the top
        return [match.state.cards[c].name for c in match.state.zone("deck", 0)]

    match = table("Scry")
    assert deck(match) == ["Wall", "Squire", "Giant", "Knight"]
    take(match, "cast Scry")
    assert match.state.decision.prompt.startswith("the card to put next (on top")
    assert sorted(label.split(" #")[0] for label in labels(match)) == [
        "Giant", "Knight", "Squire"]
    take(match, "Squire")
    take(match, "Knight")              # Giant, the last, is put last: on top
    assert deck(match) == ["Wall", "Squire", "Knight", "Giant"]
    match = table("Sink")
    take(match, "cast Sink")
    take(match, "Giant")               # then Knight: the last one ends at the bottom
    assert deck(match)[:2] == ["Knight", "Giant"]



def test_cards_looked_at_are_returned_in_the_order_their_player_picks(tmp_path):
    # "return them to the top of your deck in any order" was refused as "in
    # any order on a step other than moving cards" (the step's form was
    # missed by name)
    game = compiled(tmp_path, spell(
        "Ponder", "When this is played: Look at the top 3 cards of your deck, then return "
                  "them to the top of your deck in any order."))
    zones = {("hand", 0): [("Ponder", ())], ("deck", 1): [("Squire", ())] * 5,
             ("deck", 0): [("Knight", ()), ("Giant", ()), ("Squire", ()), ("Wall", ())]}
    match = Match.from_position(game, 2, 1, zones, {}, 3, 0, "Main")
    take(match, "cast Ponder")
    assert sorted(label.split(" #")[0] for label in labels(match)) == [
        "Giant", "Knight", "Squire"]
    take(match, "Squire")
    take(match, "Knight")              # Giant, the last, is put last: on top
    assert [match.state.cards[c].name for c in match.state.zone("deck", 0)] == [
        "Wall", "Squire", "Knight", "Giant"]


def test_cant_unless_is_a_prohibition_while_the_condition_does_not_hold(tmp_path):
    # issue "Card text as printed": "unless" as a restriction
    from interpreter.language.game_rules import parse_ability
    from interpreter.language.render import render_ability
    text = "This can't attack unless you control another Creature."
    game = compiled(tmp_path, creature("Coward", text))
    assert render_ability(parse_ability(game.rules, text)) == text
    alone = position(game, board_1=["Coward"], board_2=["Giant"])
    assert not [label for label in labels(alone) if label.startswith("attack")]
    backed = position(game, board_1=["Coward", "Knight"], board_2=["Giant"])
    assert sorted(label.split(" #")[0] for label in labels(backed)
                  if label.startswith("attack")) == ["attack Coward", "attack Knight"]


def test_a_coin_flip_is_the_seed_s_and_if_heads_reads_it(tmp_path):
    # issue 18 (Pocket League: asleep, burned, confused): "Flip a coin. If
    # heads, ..." -- heads or tails from the game's seeded random numbers,
    # the same for the same seed; "Otherwise" is the tails branch
    from interpreter.language.game_rules import parse_ability
    from interpreter.language.render import render_ability
    text = "When this is played: Flip a coin. If heads, draw 2 cards. Otherwise, lose 1 Life."
    game = compiled(tmp_path, spell("Toss", text))
    assert render_ability(parse_ability(game.rules, text)) == text
    sides = {}
    for seed in range(8):
        zones = {("hand", 0): [("Toss", ())],
                 ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
        match = Match.from_position(game, 2, seed, zones, {}, 3, 0, "Main")
        take(match, "cast Toss")
        flips = [line for line in match.narration() if "flips a coin" in line]
        assert len(flips) == 1
        heads = flips[0].endswith("heads.")
        sides[seed] = heads
        assert len(names(match, "hand", 0)) == (2 if heads else 0)
        assert match.state.counter(0, "Life") == (10 if heads else 9)
        again = Match.from_position(game, 2, seed, zones, {}, 3, 0, "Main")
        take(again, "cast Toss")
        assert [l for l in again.narration() if "flips a coin" in l] == flips
    assert set(sides.values()) == {True, False}


def test_a_status_declared_as_a_noun_reads_with_its_article_in_the_log(tmp_path):
    # "statuses: exhausted, a guardian": the log says "Knight is a guardian.",
    # not "Knight is guardian."; the card language still says "guardian"
    text = ("When this is played: Each Creature you control is guardian. "
            "Exhaust each guardian Creature.")
    game = compiled(tmp_path, spell("Post", text),
                    changes=[("statuses: exhausted", "statuses: exhausted, a guardian")])
    match = position(game, hand_1=["Post"], board_1=["Knight"])
    take(match, "cast Post")
    lines = [line.strip() for line in match.narration()]
    assert "Knight is a guardian." in lines
    assert "Knight is exhausted." in lines


def test_a_state_rule_about_where_cards_are_is_looked_at_when_they_move(tmp_path):
    # "If a player controls no creatures, they lose the game": the state
    # rules look at it after an event that moves a card (not after every
    # counter or period: it reads only places), and the loss follows the
    # move that emptied the board
    game = compiled(tmp_path, rules='rule "Empty board": If a player controls no Creatures, '
                                    'they lose the game.\n')
    assert [rule.places_only for rule in game.state_rules] == [True]
    assert not game.state_rules_read_all
    match = position(game, board_1=["Knight"], board_2=["Knight"])
    assert match.state.result is None
    take(match, "sacrifice Knight")
    assert match.state.result[:2] == ("win", 1)


def test_a_state_rule_that_reads_a_stat_is_looked_at_after_any_change(tmp_path):
    # a stat may change with no card moving (a continuous ability, a
    # period's end): such a rule is looked at after every change of state
    game = compiled(tmp_path, rules='rule "Giant": If a player controls a Creature with 5 or '
                                    'more power, they win the game.\n')
    assert [rule.places_only for rule in game.state_rules] == [False]
    assert game.state_rules_read_all


def test_setting_a_cards_counter_to_what_it_is_changes_nothing_and_logs_nothing(tmp_path):
    # "damage 0 -> 0" told a reader nothing and reordered the card's counters
    game = compiled(tmp_path)
    match = position(game, board_1=["Knight"])
    knight = match.state.zone("board", 0)[0]
    op.set_card_counter(match.state, knight, "damage", 2)
    op.set_card_counter(match.state, knight, "charge", 1)
    events = len(match.state.log)
    op.set_card_counter(match.state, knight, "damage", 2)
    op.set_card_counter(match.state, knight, "shield", 0)
    assert len(match.state.log) == events
    assert match.state.cards[knight].counters == (("damage", 2), ("charge", 1))
