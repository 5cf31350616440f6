"""The texts issue "The language, second edition" measured: each checked
clean and then stopped every game, or did nothing. Each now runs with the
meaning a player reads, or check rejects it at its line (never the engine at
play time). Written in copies of the Duel fixture, an original game.
"""

from __future__ import annotations

import pytest

from interpreter.engine import Match, compile_game
from interpreter.engine.machine import Machine
from interpreter.errors import CardrulesError

from duel_support import DUEL, load_duel



def duel(tmp_path, cards: str, rules: str = ""):
    return load_duel(tmp_path, rules_extra=rules, cards=cards)


def creature(name: str, text: str, power: int = 1) -> str:
    return f'\ncard "{name}"\n  kind: Creature\n  cost: 0\n  power: {power}\n  text:\n    {text}\n'


def spell(name: str, text: str) -> str:
    return f'\ncard "{name}"\n  kind: Spell\n  cost: 0\n  text:\n    {text}\n'


def position(compiled, board_1=(), board_2=()):
    zones = {("board", 0): [(n, ()) for n in board_1], ("board", 1): [(n, ()) for n in board_2],
             ("hand", 0): [("Squire", ())], ("deck", 0): [("Squire", ())] * 5,
             ("deck", 1): [("Squire", ())] * 5}
    return Match.from_position(compiled, 2, 1, zones, {}, 3, 0, "Main")


def power_of(match, player, name):
    card = next(c for c in match.state.zone("board", player) if match.state.cards[c].name == name)
    return Machine(match.game, match.state).stat(card, "power")


def test_a_continuous_change_for_each_card_counted_whenever_it_is_read(tmp_path):
    # RYFT's "INFINITE: Each STORM Being you control gets +10 AP for each
    # Matrix you control." stopped every game (E801 at play time)
    loaded = duel(tmp_path, creature(
        "Banneret", "ALWAYS: Each Creature you control gets +1 power for each Spell you control."))
    assert loaded.problems == []
    match = position(compile_game(loaded), board_1=["Banneret", "Knight", "Fork", "Fork"],
                     board_2=["Squire", "Fork"])
    assert power_of(match, 0, "Knight") == 2 + 2
    assert power_of(match, 0, "Banneret") == 1 + 2
    assert power_of(match, 1, "Squire") == 1          # not theirs


def test_a_statement_of_two_stats_with_no_label(tmp_path):
    # "A Minion gets +2 attack and +2 health." stopped every game
    loaded = duel(tmp_path, creature("Drummer", "Each Creature you control gets +2 power and +1 cost."))
    assert loaded.problems == []
    match = position(compile_game(loaded), board_1=["Drummer", "Knight"])
    knight = next(c for c in match.state.zone("board", 0) if match.state.cards[c].name == "Knight")
    machine = Machine(match.game, match.state)
    assert (machine.stat(knight, "power"), machine.stat(knight, "cost")) == (4, 2)


@pytest.mark.parametrize("text, column, says", [
    # (a damage event naming the damaged card now runs: tests/test_damage_events.py)
    # a "can" that would change nothing
    ("This can attack.", 14, "without a number of times"),
])
def test_what_cannot_run_is_a_check_problem_at_its_line(tmp_path, text, column, says):
    loaded = duel(tmp_path, creature("Probe", text))
    assert loaded.problems == []
    with pytest.raises(CardrulesError) as raised:
        compile_game(loaded)
    [problem] = raised.value.problems
    lines = (DUEL / "cards" / "duel" / "core.cards").read_text().count("\n")
    assert (problem.span.line, problem.span.column) == (lines + 7, column), problem
    assert says in problem.message
    assert problem.source_line.strip() == text


def test_a_number_after_a_keyword_that_takes_none_is_rejected_where_it_is_written(tmp_path):
    # "Tough" is declared without a number: "Tough +1" is refused at the "+1"
    loaded = duel(tmp_path, creature("Probe", "Tough +1"))
    [problem] = loaded.problems
    assert (problem.code, problem.span.column, problem.message) == ("E201", 11, 'unexpected "+1"')


def test_a_declared_draw_verb_keeps_the_if_and_otherwise_around_it(tmp_path):
    # a rules file's own "Draw a card" verb, with an "if" of its own inside,
    # used after "If ...," with an "Otherwise" after it
    loaded = duel(tmp_path, spell(
        "Fork Choice", "When this is played: If you control a Creature, draw a card. "
        "Otherwise, gain 2 Mana."), rules='verb "Draw(s) a card": Put the top card of your '
        'deck into your hand. If you have 9 or more Mana, gain 1 Mana.\n')
    assert loaded.problems == []
    compiled = compile_game(loaded)
    for board, hand, mana in ((["Knight"], 1, 0), ([], 0, 2)):
        zones = {("board", 0): [(n, ()) for n in board], ("board", 1): [],
                 ("hand", 0): [("Fork Choice", ()), ("Squire", ())],
                 ("deck", 0): [("Knight", ())] * 3, ("deck", 1): [("Squire", ())] * 3}
        match = Match.from_position(compiled, 2, 1, zones, {}, 3, 0, "Main")
        cast = next(a for a in match.legal_actions()
                    if match.action_to_string(a).startswith("cast Fork Choice"))
        match.apply_action(cast)
        drawn = [match.state.cards[c].name for c in match.state.zone("hand", 0)]
        assert (drawn.count("Knight"), match.state.counter(0, "Mana")) == (hand, mana), drawn


def test_an_actions_event_is_its_cards_whatever_its_effect_names_after(tmp_path):
    # the "played" event of an action went to the last card its text named
    cast = "  effect: Put it into your board.\n  counts as: played"
    compiled = compile_game(load_duel(tmp_path, rules_changes=((cast, (
        "  effect: Put it into your board, then look at the top card of your deck.\n"
        "  counts as: played")),)))
    zones = {("board", 0): [], ("board", 1): [], ("hand", 0): [("Scholar", ()), ("Squire", ())],
             ("deck", 0): [("Knight", ())] * 3, ("deck", 1): [("Squire", ())] * 3}
    match = Match.from_position(compiled, 2, 1, zones, {(0, "Mana"): 1}, 3, 0, "Main")
    play = next(a for a in match.legal_actions()
                if match.action_to_string(a).startswith("cast Scholar"))
    match.apply_action(play)
    hand = sorted(match.state.cards[c].name for c in match.state.zone("hand", 0))
    assert hand == ["Knight", "Squire"]      # Scholar's "When this is played: Draw a card."


def test_the_next_player_after_each_player_is_the_one_after_you(tmp_path):
    # "Each player draws 3 cards. The next player draws a card.": "the next
    # player" once named the player after the last one the loop went through
    game = load_duel(tmp_path, rules_changes=((
        "  Each player draws 3 cards.\n",
        "  Each player draws 3 cards.\n  The next player draws a card.\n"),))
    for seed in (1, 2, 3, 4):
        match = Match.start(compile_game(game), game.decks[:2], seed=seed)
        first = match.state.first_player
        setup = match.state.log[:next(i for i, e in enumerate(match.state.log)
                                      if e[0] == "turn")]
        drawn = [sum(1 for e in setup if e[0] == "move" and e[3] == ("hand", p))
                 for p in (0, 1)]
        assert (drawn[first], drawn[1 - first]) == (3, 4), (seed, drawn)


def test_damage_to_a_player_the_acting_player_picks(tmp_path):
    loaded = duel(tmp_path, spell("Bolt", "When this is played: Choose one — Deal 2 damage to "
                                          "a Creature; or Deal 2 damage to a player."))
    assert loaded.problems == []
    zones = {("board", 0): [], ("board", 1): [], ("hand", 0): [("Bolt", ()), ("Squire", ())],
             ("deck", 0): [("Squire", ())] * 3, ("deck", 1): [("Squire", ())] * 3}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")
    for label in ("cast Bolt", "Deal 2 damage to a player", "player 2"):
        action = next(a for a in match.legal_actions()
                      if match.action_to_string(a).startswith(label))
        match.apply_action(action)
    assert (match.state.counter(0, "Life"), match.state.counter(1, "Life")) == (10, 8)


def test_a_procedure_line_the_grammar_cannot_read_is_reported_once_at_its_line(tmp_path):
    # steps indented under an "If ...:" line: reported where the line is (the
    # compiler reported it again at line 1 of the rules file)
    loaded = load_duel(tmp_path, rules_changes=((
        "  Each player draws 3 cards.\n",
        "  Each player draws 3 cards.\n  If you have 2 or more Mana:\n    Draw a card.\n"),))
    [problem] = loaded.problems
    line = problem.span.line
    assert problem.source_line.strip() == "If you have 2 or more Mana:"
    with pytest.raises(CardrulesError) as raised:
        compile_game(loaded)
    assert {p.span.line for p in raised.value.problems} == {line}


def test_a_keyword_with_a_signed_number(tmp_path):
    # "Challenger +2", "Resist +1": one keyword, its number where the card writes it
    loaded = duel(tmp_path, creature("Brute", "Might +2") + spell(
        "Census", "When this is played: Gain Mana equal to the number of Creatures you "
                  "control with Might +1."),
        rules='keyword "Might +{n}": ALWAYS: This gets +{n} power.\n')
    assert loaded.problems == []
    match = position(compile_game(loaded), board_1=["Brute", "Knight"])
    assert power_of(match, 0, "Brute") == 1 + 2
    assert power_of(match, 0, "Knight") == 2
    brute = next(c for c in match.state.zone("board", 0) if match.state.cards[c].name == "Brute")
    assert Machine(match.game, match.state).has_keyword(brute, "Might +{n}")


def test_a_keyword_with_a_negative_number(tmp_path):
    # "Might -1": the same keyword, its number below zero
    loaded = duel(tmp_path, creature("Weakling", "Might -1"),
                  rules='keyword "Might +{n}": ALWAYS: This gets +{n} power.\n')
    assert loaded.problems == []
    match = position(compile_game(loaded), board_1=["Weakling"])
    assert power_of(match, 0, "Weakling") == 1 - 1


@pytest.mark.parametrize("pick, life, knight_damage", [("player 2", 8, 0), ("Knight", 10, 2)])
def test_any_target_is_a_card_or_a_player(tmp_path, pick, life, knight_damage):
    loaded = duel(tmp_path, spell("Flare", "When this is played: Deal 2 damage to any target."))
    assert loaded.problems == []
    zones = {("board", 0): [], ("board", 1): [("Knight", ())],
             ("hand", 0): [("Flare", ()), ("Squire", ())],
             ("deck", 0): [("Squire", ())] * 3, ("deck", 1): [("Squire", ())] * 3}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")
    for label in ("cast Flare", pick):
        action = next(a for a in match.legal_actions()
                      if match.action_to_string(a).startswith(label))
        match.apply_action(action)
    knight = match.state.zone("board", 1)[0]
    assert match.state.counter(1, "Life") == life
    assert match.state.cards[knight].counter("damage") == knight_damage


def test_a_status_begins_and_ends_by_a_statement(tmp_path):
    # Lore's verbs "Exert {cards}: {cards} become exerted." and a status
    # ending ("... are no longer exhausted"): statements, in any game
    loaded = duel(tmp_path, creature("Frostcaller", "When this is played: Each Creature your "
                                     "Rival controls becomes exhausted.")
                  + creature("Bugler", "When this is played: Each Creature you control is no "
                             "longer exhausted."))
    assert loaded.problems == []
    zones = {("board", 0): [("Knight", ("exhausted",))], ("board", 1): [("Squire", ())],
             ("hand", 0): [("Frostcaller", ()), ("Bugler", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")

    def statuses(player, name):
        card = next(c for c in match.state.zone("board", player)
                    if match.state.cards[c].name == name)
        return match.state.cards[card].statuses

    for card in ("cast Frostcaller", "cast Bugler"):
        match.apply_action(next(a for a in match.legal_actions()
                                if match.action_to_string(a).startswith(card)))
    assert "exhausted" in statuses(1, "Squire")
    assert "exhausted" not in statuses(0, "Knight")


def test_chosen_creature_is_one_its_player_chooses(tmp_path):
    # Lore 1.4: "Chosen character" means a character the player of the
    # effect chooses as it resolves
    loaded = duel(tmp_path, spell("Zap", "When this is played: Deal 2 damage to chosen "
                                  "Creature."))
    assert loaded.problems == []
    zones = {("board", 0): [("Squire", ())], ("board", 1): [("Knight", ())],
             ("hand", 0): [("Zap", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")
    for label in ("cast Zap", "Knight"):
        match.apply_action(next(a for a in match.legal_actions()
                                if match.action_to_string(a).startswith(label)))
    knight = match.state.zone("board", 1)[0]
    assert match.state.cards[knight].counter("damage") == 2


def test_compare_reads_its_number_for_each_side(tmp_path):
    # Saturday Wars' Strike ("adds the Purge Cost value of that card to the
    # progress value") is this general step: the number is read with "it"
    # each side in turn; "it" is then the lower one
    loaded = duel(tmp_path, spell("Joust", "When this is played: Compare a Creature you control "
                                  "against a Creature your Rival controls by its power plus the "
                                  "cost of the top card of its controller's deck, then destroy it."))
    assert loaded.problems == []
    zones = {("board", 0): [("Squire", ())], ("board", 1): [("Squire", ())],
             ("hand", 0): [("Joust", ())],
             ("deck", 0): [("Knight", ())] * 3, ("deck", 1): [("Squire", ())] * 3}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")
    match.apply_action(next(a for a in match.legal_actions()
                            if match.action_to_string(a).startswith("cast Joust")))
    assert match.state.zone("board", 1) == []            # 1 + 0 against 1 + 1
    assert "Squire" in [match.state.cards[c].name for c in match.state.zone("board", 0)]
    assert "     Squire (2 power) against Squire (1 power)." in match.narration()


def test_the_stat_of_one_card_is_a_number(tmp_path):
    loaded = duel(tmp_path, spell("Tithe", "When this is played: Gain Mana equal to the cost "
                                  "of the top card of your deck plus 1."))
    assert loaded.problems == []
    zones = {("hand", 0): [("Tithe", ())], ("deck", 0): [("Knight", ())] * 3,
             ("deck", 1): [("Squire", ())] * 3}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")
    mana = match.state.counter(0, "Mana")
    match.apply_action(next(a for a in match.legal_actions()
                            if match.action_to_string(a).startswith("cast Tithe")))
    assert match.state.counter(0, "Mana") == mana + 2


def test_the_stat_of_a_card_to_choose_is_read_once_it_is_chosen(tmp_path):
    loaded = duel(tmp_path, spell("Tithe", "When this is played: Gain Mana equal to the cost "
                                  "of a Creature you control."))
    assert loaded.problems == []
    zones = {("hand", 0): [("Tithe", ())], ("board", 0): [("Knight", ()), ("Giant", ())],
             ("deck", 0): [("Knight", ())] * 3, ("deck", 1): [("Squire", ())] * 3}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")
    mana = match.state.counter(0, "Mana")
    match.apply_action(next(a for a in match.legal_actions()
                            if match.action_to_string(a).startswith("cast Tithe")))
    # the player picks which Creature's cost is read: Giant's 3, not Knight's 1
    assert sorted(match.action_to_string(a).split(" #")[0]
                  for a in match.legal_actions()) == ["Giant", "Knight"]
    match.apply_action(next(a for a in match.legal_actions()
                            if match.action_to_string(a).startswith("Giant")))
    assert match.state.counter(0, "Mana") == mana + 3


def test_a_status_declared_the_opposite_of_another(tmp_path):
    # Lore's "status ready: the opposite of exerted"; Saturday Wars' "All
    # cards enter into play ready": ready is having none of the others
    loaded = duel(tmp_path, spell("Rally", "When this is played: Ready each Creature you "
                                  "control. Each Creature your Rival controls is no longer "
                                  "ready.")
                  + spell("Count", "When this is played: Gain Mana equal to the number of "
                          "ready Creatures you control."))
    assert loaded.problems == []
    zones = {("board", 0): [("Knight", ("exhausted",)), ("Squire", ())],
             ("board", 1): [("Squire", ())], ("hand", 0): [("Count", ()), ("Rally", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")
    mana = match.state.counter(0, "Mana")
    for card in ("cast Count", "cast Rally"):
        match.apply_action(next(a for a in match.legal_actions()
                                if match.action_to_string(a).startswith(card)))
    assert match.state.counter(0, "Mana") == mana + 1         # the Squire only
    statuses = {match.state.cards[c].name + str(player): match.state.cards[c].statuses
                for player in (0, 1) for c in match.state.zone("board", player)}
    assert statuses["Knight0"] == () and statuses["Squire0"] == ()
    assert statuses["Squire1"] == ("exhausted",)
    assert "ready" not in statuses["Knight0"]                  # kept by no card


def test_ready_without_a_ready_status_is_a_check_problem(tmp_path):
    loaded = load_duel(tmp_path, rules_changes=[("status ready: the opposite of exhausted\n",
                                                 "")])
    with pytest.raises(CardrulesError) as error:
        compile_game(loaded)
    problem = error.value.problems[0]
    assert problem.code == "E547"
    assert problem.message == '"Ready" gives the status "ready", which the game does not declare'
    assert problem.expected == ("in the rules file: status ready: the opposite of exhausted",)
    assert problem.source_line.strip() == "The turn player readies each Creature they control."


@pytest.mark.parametrize("value, says", [
    ("the opposite of exhaustd", 'status "ready" is the opposite of "exhaustd", which is '
                                 'not a declared status'),
    ("opposite exhausted", "unreadable status"),
])
def test_a_wrong_opposite_status_is_reported_at_its_line(tmp_path, value, says):
    loaded = load_duel(tmp_path, rules_changes=[("status ready: the opposite of exhausted",
                                                 f"status ready: {value}")])
    assert [p.code for p in loaded.problems] == ["E546"]
    assert says in loaded.problems[0].message
    assert loaded.problems[0].span.line == 26
