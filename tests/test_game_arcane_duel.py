"""Arcane Duel (rules/arcane-duel.rules, docs/games/arcane-duel.md) plays
whole games (the soak with the invariants checked is in tests/test_soak.py):
random games that end the way the rulebook says (a player at 0 Life, or one
who must draw from an empty library: 1.2, 1.3), legal decks, the opening
hand of 7 and the first player's skipped draw (5.3), and what each player
may see. The rulings (tests/rulings/arcane-duel) test the rules one by one."""

from __future__ import annotations

import pytest

from interpreter.engine import Match
from interpreter.engine import operations as op
from interpreter.engine.state import GameState

from games_support import loaded_and_compiled, random_games, rotating_decks


@pytest.fixture(scope="module")
def game():
    return loaded_and_compiled("arcane-duel")


def test_games_end_with_a_player_out_of_life_or_cards(game):
    loaded, compiled = game
    for match in random_games(loaded, compiled, range(12)):
        result = match.state.result
        assert result is not None and result[0] == "win", result
        loser = 1 - match.state.out.index(False)
        assert match.state.counter(loser, "Life") <= 0 or \
            not match.state.zones[("library", loser)], result


def test_the_decks_are_legal_and_three(game):
    loaded, _ = game
    assert len(loaded.decks) == 3
    names = set()
    for deck in loaded.decks:
        library = dict(deck.parts)["Library"]
        assert sum(e.count for e in library) >= 40
        names |= {e.name for e in library}
    kinds = {loaded.cards[name].kind for name in names}
    assert kinds == {"Land", "Creature", "Aura", "Sorcery", "Instant"}


def test_at_least_35_distinct_cards_in_three_colours(game):
    loaded, _ = game
    cards = [c for c in loaded.cards.values() if not c.token]
    assert len(cards) >= 35
    colours = {stat.value for card in cards for stat in card.stats if stat.name == "colour"}
    assert colours == {"Flame", "Tide", "Grove"}


def _started(compiled, decks, seed, first=0):
    """A game past its setup: the player picked at random chose who goes first."""
    match = Match.start(compiled, decks, seed)
    assert match.state.decision.prompt == "choose the first player"
    match.apply_action(match.state.decision.options.index(first))
    return match


def test_seven_cards_and_no_draw_on_the_first_turn(game):
    loaded, compiled = game
    match = _started(compiled, rotating_decks(loaded, 0), 1)
    state = match.state
    assert state.turn_player == 0
    assert len(state.zones[("hand", 0)]) == 7      # 5.3: the first player skips the draw
    assert len(state.zones[("hand", 1)]) == 7
    assert state.counter(0, "Life") == state.counter(1, "Life") == 20


def test_a_hand_is_private_and_the_battlefield_public(game):
    loaded, compiled = game
    match = _started(compiled, rotating_decks(loaded, 0), 1)
    land = next((a for a in match.legal_actions()
                 if match.action_to_string(a).startswith("play a land")), None)
    assert land is not None
    match.apply_action(land)
    theirs = match.observation(1)
    assert theirs["zones"]["hand/0"] == 6
    assert len(theirs["zones"]["battlefield/0"]) == 1


def test_a_relation_is_kept_by_both_cards_cloned_serialized_and_ended_by_a_move(game):
    """docs/core.md "Relations": "X is blocking Y" lives in the state (clone,
    JSON) and ends when either card changes zone."""
    loaded, compiled = game
    match = Match.start(compiled, rotating_decks(loaded, 0), 0)
    state = match.state
    blocker, attacker, other = state.zones[("library", 0)][:3]
    op.relate(state, blocker, "blocking", attacker, True)
    op.relate(state, other, "blocking", attacker, True)
    assert state.cards[blocker].relations == (("blocking", attacker, True),)
    assert state.cards[attacker].relations == (("blocking", blocker, False),
                                               ("blocking", other, False))
    twin = match.clone().state
    again = GameState.from_json(state.to_json())
    for copy in (twin, again):
        assert copy.cards[attacker].relations == state.cards[attacker].relations
    op.move(state, attacker, ("graveyard", 0))          # the attacker leaves
    assert state.cards[blocker].relations == () == state.cards[other].relations
    assert state.cards[attacker].relations == ()
    assert twin.cards[blocker].relations == (("blocking", attacker, True),)   # the clone keeps its own
    related = [e for e in state.log if e.kind == "relation"]
    names = state.cards[blocker].name, state.cards[attacker].name
    assert [line.strip() for line in match.narration(events=related[:1])] == [
        f"{names[0]} is blocking {names[1]}."]
