""""Can't" beats "can": prohibitions on cards and on players stop the
actions they name and the operations they name ("can't be destroyed")."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

DUEL = Path(__file__).resolve().parent / "fixtures" / "engine"

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
    ALWAYS: This can attack.
    ALWAYS: This can't attack.
'''


def game(tmp_path):
    root = tmp_path / "game"
    shutil.copytree(DUEL / "rules", root / "rules")
    shutil.copytree(DUEL / "cards" / "duel", root / "cards" / "duel")
    with open(root / "cards" / "duel" / "core.cards", "a") as f:
        f.write(CARDS)
    loaded = load_game("duel", root)
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
