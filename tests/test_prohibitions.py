""""Can't" beats "can": prohibitions on cards and on players stop the
actions they name and the operations they name ("can't be destroyed"); the
game's own actions can be named too ("can't sacrifice"). Requirements
("must attack") keep a player from passing while they can be met;
allowances ("can attack twice each turn") raise an action's limit for a
card. A "can" or "must" that would change nothing is a check problem."""

from __future__ import annotations


import pytest

from interpreter.engine import Match, compile_game
from interpreter.errors import CardrulesError

from duel_support import load_duel


CARDS = '''
card "Jailer"
  kind: Creature
  cost: 0
  power: 0
  text:
    When this is played: Your Rival can't attack this turn.

card "Pacifist"
  kind: Creature
  cost: 0
  power: 3
  text:
    ALWAYS: This can't attack.

card "Bulwark"
  kind: Creature
  cost: 0
  power: 0
  text:
    ALWAYS: This can't be destroyed.

card "Truce"
  kind: Spell
  cost: 0
  text:
    When this is played: You can't attack this turn.

card "Eager"
  kind: Creature
  cost: 0
  power: 1
  text:
    ALWAYS: This can attack twice each turn.
    ALWAYS: This can't attack.

card "Hostage"
  kind: Creature
  cost: 0
  power: 1
  text:
    ALWAYS: This can't sacrifice.

card "Berserker"
  kind: Creature
  cost: 0
  power: 2
  text:
    ALWAYS: This must attack if able.

card "Twinblade"
  kind: Creature
  cost: 0
  power: 1
  text:
    ALWAYS: This can attack twice each turn.
'''

# The Duel's attack, limited per card instead of exhausting it (as a game
# with "limit: once per turn for each card" writes it)
LIMITED_ATTACK = ("""  choose: a Creature you control that is not exhausted
  effect: Exhaust it, then your Rival loses Life equal to its power.""", """  choose: a Creature you control
  effect: Your Rival loses Life equal to its power.
  limit: once per turn for each card""")


def game(tmp_path, cards=CARDS, rules_change=LIMITED_ATTACK):
    loaded = load_duel(tmp_path, rules_changes=(rules_change,), cards=cards)
    assert loaded.problems == []
    return loaded, compile_game(loaded)


def position(compiled, board_1=(), board_2=(), hand_1=()):
    def cards(names):
        return [(name, ()) for name in names]
    zones = {("board", 0): cards(board_1), ("board", 1): cards(board_2),
             ("hand", 0): cards(hand_1), ("deck", 0): cards(["Squire"] * 5),
             ("deck", 1): cards(["Squire"] * 5)}
    return Match.from_position(compiled, 2, 1, zones, {}, 3, 0, "Main")


def labels(match):
    return [match.action_to_string(a) for a in match.legal_actions()]


def choose(match, prefix):
    for action in match.legal_actions():
        if match.action_to_string(action).startswith(prefix):
            match.apply_action(action)
            return
    raise AssertionError(f"{prefix!r} not in {labels(match)}")


def test_a_card_that_cant_attack_is_never_offered_the_attack(tmp_path):
    loaded, compiled = game(tmp_path)
    match = position(compiled, board_1=["Pacifist", "Squire"])
    offered = labels(match)
    assert any(a.startswith("attack Squire") for a in offered)
    assert not any(a.startswith("attack Pacifist") for a in offered)


def test_cant_beats_can(tmp_path):
    loaded, compiled = game(tmp_path)
    match = position(compiled, board_1=["Eager"])
    assert not any(a.startswith("attack Eager") for a in labels(match))


def test_a_player_who_cant_attack_this_turn_can_again_next_turn(tmp_path):
    loaded, compiled = game(tmp_path)
    # Player 1 plays Jailer: player 2 can't attack this turn only.
    match = position(compiled, board_1=[], board_2=["Knight"], hand_1=["Jailer"])
    choose(match, "cast Jailer")
    state = match.state
    assert any(m.kind == "cannot" and m.target == -2 for m in state.modifiers)
    assert any("Player 2 can't attack." in line for line in match.narration())
    choose(match, "pass")
    # Player 2's turn: the prohibition lasted "this turn" (player 1's) and is gone.
    while state.turn_player != 1 or state.period.get("phase") != "Main":
        match.apply_action(match.legal_actions()[0])
    assert not any(m.kind == "cannot" for m in state.modifiers)
    assert any(a.startswith("attack Knight") for a in labels(match))


def test_a_player_who_cant_attack_is_not_offered_any_attack(tmp_path):
    loaded, compiled = game(tmp_path)
    match = position(compiled, board_1=["Knight"], hand_1=["Truce"])
    assert any(a.startswith("attack Knight") for a in labels(match))
    choose(match, "cast Truce")
    assert not any(a.startswith("attack") for a in labels(match))
    assert any(a.startswith("sacrifice Knight") for a in labels(match))


def test_a_card_that_cant_be_destroyed_stays(tmp_path):
    loaded, compiled = game(tmp_path)
    match = position(compiled, board_1=["Bulwark", "Squire"])
    wall = next(c for c in match.state.zone("board", 0)
                if match.state.cards[c].name == "Bulwark")
    choose(match, f"sacrifice Bulwark #{wall}")
    assert wall in match.state.zone("board", 0)
    assert any("Bulwark can't be destroyed." in line for line in match.narration())


def test_a_game_action_can_be_forbidden_by_its_name(tmp_path):
    loaded, compiled = game(tmp_path)
    match = position(compiled, board_1=["Hostage", "Squire"])
    offered = labels(match)
    assert any(a.startswith("sacrifice Squire") for a in offered)
    assert not any(a.startswith("sacrifice Hostage") for a in offered)


def test_a_card_that_must_attack_keeps_its_player_from_passing_until_it_has(tmp_path):
    loaded, compiled = game(tmp_path)
    match = position(compiled, board_1=["Berserker", "Squire"])
    offered = labels(match)
    assert "pass" not in offered
    assert any(a.startswith("attack Squire") for a in offered)   # other actions first
    choose(match, "attack Squire")
    assert "pass" not in labels(match)
    choose(match, "attack Berserker")
    # the requirement is met (the attack is no longer possible this turn)
    assert "pass" in labels(match)


def test_a_card_that_can_attack_twice_is_offered_a_second_attack(tmp_path):
    loaded, compiled = game(tmp_path)
    match = position(compiled, board_1=["Twinblade", "Squire"])
    choose(match, "attack Twinblade")
    choose(match, "attack Squire")
    offered = labels(match)
    assert any(a.startswith("attack Twinblade") for a in offered)
    assert not any(a.startswith("attack Squire") for a in offered)
    choose(match, "attack Twinblade")
    assert not any(a.startswith("attack") for a in labels(match))
    assert match.state.counter(1, "Life") == 10 - 1 - 1 - 1


def check_problems(tmp_path, text, rules_change=LIMITED_ATTACK):
    loaded = load_duel(tmp_path, rules_changes=(rules_change,), cards=(
        f'\ncard "Probe"\n  kind: Creature\n  cost: 0\n  power: 1\n  text:\n    {text}\n'))
    assert loaded.problems == []
    with pytest.raises(CardrulesError) as raised:
        compile_game(loaded)
    problems = raised.value.problems
    assert all(p.span.path.endswith("core.cards") for p in problems)
    return [f"{p.code} {p.message}" for p in problems]


def test_a_can_or_must_that_would_change_nothing_is_a_check_problem(tmp_path):
    # nothing forbids attacking: "can" alone says nothing
    found = check_problems(tmp_path, "ALWAYS: This can attack.")
    assert len(found) == 1 and "without a number of times" in found[0], found
    # the attack has no limit per Upkeep
    found = check_problems(tmp_path, "ALWAYS: This can attack twice each Upkeep.")
    assert len(found) == 1 and "no action it names has a limit per Upkeep" in found[0], found
    # no action of the Duel is "defend"
    found = check_problems(tmp_path, "ALWAYS: This must defend.")
    assert len(found) == 1 and "not one of the game's actions" in found[0], found
