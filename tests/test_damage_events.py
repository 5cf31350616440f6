"""Damage a card deals is its event "deals damage to", with what it damaged:
"Whenever this deals damage to a character" fires for any damage its card
deals to one (an effect's or a fight's), and not for damage to a player;
"... to a player" the other way round. Tested on copies of the Minions
fixture game (a fight) and of the Duel fixture game (effect damage to a
card and to a player), each with cards added."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

MINIONS = Path(__file__).resolve().parent / "fixtures" / "minions"

DUEL = Path(__file__).resolve().parent / "fixtures" / "engine"

MINION_CARDS = '''
card "Bloodfang"
  kind: Minion
  cost: 1
  Attack: 2
  Health: 5
  text:
    Whenever this deals damage to a character, draw a card.
'''

DUEL_CARDS = '''
card "Ember Sprite"
  kind: Creature
  cost: 0
  power: 1
  text:
    When this is played: Deal 1 damage to your Rival. Deal 1 damage to a Creature.
    Whenever this deals damage to a player, Muster 1.
    Whenever this deals damage to a Creature, gain 1 Mana.
'''


def _compiled(source: Path, game_id: str, cards: str, root: Path):
    (root / "rules").mkdir(parents=True)
    shutil.copy(source / "rules" / f"{game_id}.rules", root / "rules")
    shutil.copytree(source / "cards" / game_id, root / "cards" / game_id)
    card_file = sorted((root / "cards" / game_id).glob("*.cards"))[0]
    with open(card_file, "a", encoding="utf-8") as fh:
        fh.write(cards)
    game = load_game(game_id, root)
    assert game.problems == []
    return compile_game(game)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    return _compiled(MINIONS, "minions", MINION_CARDS, tmp_path_factory.mktemp("m") / "g")


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    return _compiled(DUEL, "duel", DUEL_CARDS, tmp_path_factory.mktemp("d") / "g")


def position(compiled, board=(), hand=(), rival_board=(), mana=0):
    deck = [("Shieldwall Sentry", ())] * 6
    zones = {("board", 0): list(board), ("hand", 0): [(n, ()) for n in hand],
             ("board", 1): list(rival_board),
             ("Hero zone", 0): [("Bram, Shield Captain", ())],
             ("Hero zone", 1): [("Ysolde, Ember Magus", ())],
             ("deck", 0): deck, ("deck", 1): deck}
    return Match.from_position(compiled, 2, 1, zones, {(0, "Mana"): mana}, 3, 0, "Main")


def take(match, wanted: str) -> None:
    for action in match.legal_actions():
        if re.sub(r" #\d+", "", match.action_to_string(action)) == wanted:
            match.apply_action(action)
            return
    raise AssertionError(f"{wanted!r} not among "
                         f"{[match.action_to_string(a) for a in match.legal_actions()]}")


def text(match) -> str:
    return "\n".join(match.narration())


def test_a_fight_is_damage_to_a_character(compiled):
    for rival in ([("Shieldwall Sentry", ())], []):   # a minion, or the enemy Hero
        match = position(compiled, board=[("Bloodfang", ())], rival_board=rival)
        take(match, "attack Bloodfang")
        if rival:
            take(match, "attack Shieldwall Sentry")
        target = "Shieldwall Sentry" if rival else "Ysolde, Ember Magus"
        trace = text(match)
        hit = trace.index(f"{target}: damage 0 -> 2.")
        # the trigger draws before the attack is over
        assert hit < trace.index("moves from Player 1's deck to Player 1's hand", hit) \
            < trace.index("Bloodfang is no longer an attacker")


def test_effect_damage_to_a_player_and_to_a_card_each_fire_their_trigger(duel):
    zones = {("hand", 0): [("Ember Sprite", ())], ("board", 1): [("Giant", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(duel, 2, 1, zones, {}, 2, 0, "Main")
    take(match, "cast Ember Sprite")
    take(match, "Giant")                           # the Creature to damage
    trace = text(match)
    life = trace.index("Player 2: Life")
    giant = trace.index("Giant: damage 0 -> 1.")
    # "to a player": Muster 1 (draw, then discard) after the Life loss; "to
    # a Creature": 1 Mana after the Giant's damage -- each once
    assert trace.count("Player 1: Mana 0 -> 1.") == 1 and giant < trace.index(
        "Player 1: Mana 0 -> 1.")
    assert life < trace.index("Squire moves from Player 1's deck to Player 1's hand", life)


def test_that_creature_is_the_damaged_one(duel, tmp_path):
    compiled = _compiled(DUEL, "duel", DUEL_CARDS + '''
card "Venom Fang"
  kind: Creature
  cost: 0
  power: 1
  text:
    When this is played: Deal 1 damage to a Creature.
    Whenever this deals damage to a Creature, destroy that Creature.
''', tmp_path / "g")
    zones = {("hand", 0): [("Venom Fang", ())], ("board", 1): [("Giant", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(compiled, 2, 1, zones, {}, 2, 0, "Main")
    take(match, "cast Venom Fang")
    take(match, "Giant")
    board = [match.state.cards[c].name for c in match.state.zones.get(("board", 0), ())]
    rival = [match.state.cards[c].name for c in match.state.zones.get(("board", 1), ())]
    assert board == ["Venom Fang"] and rival == []       # the Giant, not the Fang


@pytest.mark.parametrize("words", ["combat damage", "battle damage"])
def test_combat_damage_reads_in_either_word(words):
    # the Duel's combat is its turn's (Arcane Duel rulings 7.8: the damage an
    # attacker deals, not an ability's); "battle damage" is the same event
    result = CliRunner().invoke(main, ["explain", "arcane-duel",
                                       f"Whenever this deals {words} to a player, draw a card."])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == \
        "canonical: When this deals combat damage to a player, draw a card."


def test_combat_damage_prevented_for_the_turn_leaves_a_fight_without_damage(tmp_path):
    # "Prevent all combat damage that would be dealt this turn": a fight (the
    # rules file's attack) deals none, to a minion or to the Hero; a spell's
    # damage still is dealt (Arcane Duel 7.9 in its rulings)
    compiled = _compiled(MINIONS, "minions", MINION_CARDS + '''
card "Truce"
  kind: Spell
  cost: 0
  text:
    Prevent all combat damage that would be dealt this turn.
''', tmp_path / "g")
    match = position(compiled, board=[("Bloodfang", ())],
                     rival_board=[("Shieldwall Sentry", ())], hand=["Truce", "Fire Spark"],
                     mana=1)
    take(match, "cast a spell Truce")
    take(match, "attack Bloodfang")         # the Sentry (Taunt) is the one it can attack
    assert "Shieldwall Sentry is a defender." in text(match)
    assert "damage 0 ->" not in text(match)
    cards = match.state.cards
    assert all(cards[c].counter("damage") == 0 for c in match.state.zone("board", 0)) and \
        all(cards[c].counter("damage") == 0 for c in match.state.zone("board", 1))
    assert "combat damage to them and their cards is prevented" in text(match)
    take(match, "cast a spell Fire Spark")
    take(match, "Shieldwall Sentry")
    sentry = match.state.zone("board", 1)[0]
    assert cards[sentry].counter("damage") == 2
