"""Silver Wing Rivals (rules/silver-wing-rivals.rules) plays whole Battles
(the soak with the invariants checked is in tests/test_soak.py):
random Battles that end the way the rulebook says: a player whose Stamina Area is
empty loses (never by decking out, never a draw by a cap)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents import RandomAgent, play_out
from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

RULINGS = Path(__file__).resolve().parent / "rulings" / "silver-wing-rivals"


@pytest.fixture(scope="module")
def game():
    loaded = load_game("silver-wing-rivals")
    assert loaded.problems == []
    return loaded, compile_game(loaded)


def test_battles_end_when_a_stamina_area_is_empty(game):
    loaded, compiled = game
    for seed in range(40):
        decks = [loaded.decks[(seed + p) % len(loaded.decks)] for p in range(2)]
        match = Match.start(compiled, decks, seed)
        play_out(match, [RandomAgent(seed * 10 + p) for p in range(2)])
        result = match.state.result
        assert result is not None and result[0] == "win", result
        loser = 1 - result[1]
        assert "Stamina Area" in result[2], result
        assert match.state.zones.get(("Stamina Area", loser), []) == []
        assert match.state.zones.get(("Stamina Area", result[1]), []) != []


def test_the_first_player_begins_every_round_and_colour_attacks_are_one_each(game):
    loaded, compiled = game
    match = Match.start(compiled, [loaded.decks[0], loaded.decks[1]], 7)
    first = match.state.turn_player
    play_out(match, [RandomAgent(70), RandomAgent(71)])
    starts = [e for e in match.state.log if e[0] == "turn"]
    assert len(starts) >= 2 and all(e[2] == first for e in starts)
    for event in match.state.log:
        if event[0] == "counter" and event[2].endswith("Attack"):
            assert 0 <= event[4] <= 1, event


def test_the_decks_are_legal_and_use_the_whole_set(game):
    loaded, _ = game
    assert len(loaded.decks) >= 4
    used = set()
    for deck in loaded.decks:
        parts = dict(deck.parts)
        assert 40 <= sum(e.count for e in parts["Main Deck"]) <= 60
        assert sum(e.count for e in parts["Stamina"]) == 3
        assert sum(e.count for e in parts["Crystals"]) == 2
        assert sum(e.count for e in parts.get("Side Deck", ())) <= 20
        used.update(e.name for part in parts.values() for e in part)
    kinds = {}
    for card in loaded.cards.values():
        kinds.setdefault(card.kind, []).append(card.name)
    assert len(loaded.cards) >= 50
    assert len(kinds["Main Character"]) >= 4 and len(kinds["Signature"]) >= 4
    assert len(kinds["Ally"]) >= 28 and len(kinds["Support"]) >= 14
    # the banned card cannot be in a deck: a ruling uses it
    banned = set(loaded.rules.deck_part("Main Deck").banned)
    assert set(loaded.cards) - banned <= used
    rulings = "".join(p.read_text() for p in RULINGS.glob("*.ruling"))
    assert all(f'"{name}"' in rulings for name in banned)


def test_side_deck_main_characters_share_the_name_or_archetype(game):
    """SIDE DECK: only Main Characters that match the starting Main
    Character's name or Archetype (``matching:`` on the deck part)."""
    from interpreter.language.decks import load_decks
    from interpreter.source import SourceText

    loaded, _ = game
    text = (Path(__file__).resolve().parent.parent / "cards" / "silver-wing-rivals" /
            "decks" / "starter.deck").read_text()
    assert '1 "Lio Brightfeather"' in text            # Skyguard, like Kael Ashwind
    for changed, codes in ((text, []),
                           (text.replace('1 "Lio Brightfeather"', '1 "Nami Deepcurrent"'),
                            ["E613"])):
        source = SourceText("side.deck", changed)
        _decks, found = load_decks(source, loaded.rules, loaded.cards)   # checked too
        assert [p.code for p in found] == codes
        if codes:
            assert found[0].message == ('"Nami Deepcurrent" shares neither the name nor the '
                                        'Archetype of the "Main Character" (Kael Ashwind)')
            assert found[0].span.line == changed.splitlines().index(
                '    1 "Nami Deepcurrent"') + 1


def test_identical_defenders_are_one_defense(game):
    """``identical cards: one choice``: two Glacier Monks in hand give one
    "Defend with Glacier Monk" and one pair of them (Sunspark Scout does not
    match the blue attacker: it pairs with neither)."""
    _loaded, compiled = game
    match = Match.from_position(compiled, 2, 1, {
        ("hand", 0): [("Skyguard Lancer", ())],
        ("Main Character Area", 0): [("Kael Ashwind", ("rested",))],
        ("Stamina Area", 0): [("Standard Stamina", ())],
        ("hand", 1): [("Glacier Monk", ()), ("Glacier Monk", ()), ("Sunspark Scout", ())],
        ("Stamina Area", 1): [("Standard Stamina", ())]}, {}, 1, 0, "Move Step")
    import re

    def labels():
        return [re.sub(r" #\d+", "", match.action_to_string(a)) for a in match.legal_actions()]
    match.apply_action(labels().index("attack Skyguard Lancer"))   # (no Embolden: no Support)
    assert sorted(labels()) == [
        "Defend with Glacier Monk", "Defend with Glacier Monk and Glacier Monk",
        "Take the damage"]
