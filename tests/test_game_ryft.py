"""RYFT Card Battle (rules/ryft.rules, cards/ryft): random games of the
shipped decks end the way the rulebook says (120 games). The soak with the
invariants checked after every action is in tests/test_soak.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents import RandomAgent, play_out
from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game


RULINGS = Path(__file__).resolve().parent / "rulings" / "ryft"


@pytest.fixture(scope="module")
def ryft():
    game = load_game("ryft")
    assert game.problems == []
    return game, compile_game(game)


def test_games_end_by_life_force(ryft):
    """SUMMARY OF RYFT: a game is won by reducing the Rival's Life Force to
    zero (by battle, effects or the Deck Virus); no game ends by a cap."""
    game, compiled = ryft
    decks = game.decks
    for index in range(120):
        match = Match.start(compiled, [decks[index % len(decks)],
                                       decks[(index + 2) % len(decks)]], seed=index)
        play_out(match, [RandomAgent(index), RandomAgent(index + 1000)])
        result = match.state.result
        assert result is not None and result[0] == "win", result
        assert "Life Force" in result[2]
        loser = 1 - result[1]
        assert match.state.counter(loser, "Life Force") == 0
        assert match.state.counter(result[1], "Life Force") > 0


def test_first_turn_has_no_battle_stage(ryft):
    game, compiled = ryft
    match = Match.start(compiled, [game.decks[0], game.decks[1]], seed=3)
    play_out(match, [RandomAgent(1), RandomAgent(2)])
    periods = [e for e in match.state.log if e[0] == "period" and e[4] == "start"]
    first_turn = []
    for event in periods:
        if event[2] == "turn" and first_turn:
            break
        first_turn.append(event[2])
    assert "Battle Stage" not in first_turn
    assert "Summon Stage" in first_turn and "End Stage" in first_turn


def test_every_turn_starts_with_5_synergy_plus_the_rivals_excess(ryft):
    """SYNERGY: 5 each turn; OVER-SYNERGISING: the excess goes on top of the
    Rival's next turn; left over Synergy does not carry over."""
    game, compiled = ryft
    for seed in range(6):
        match = Match.start(compiled, [game.decks[seed % 5], game.decks[(seed + 1) % 5]],
                            seed=seed)
        play_out(match, [RandomAgent(seed), RandomAgent(seed + 7)])
        owed = {0: 0, 1: 0}
        synergy = {0: 5, 1: 5}          # replayed from the counter events
        player = None
        for event in match.state.log:
            if event[0] == "counter" and event[2] == "Synergy":
                synergy[event[1]] = event[4]
            if event[0] == "turn":
                player = event[2]
            if event[0] == "counter" and event[2] == "Over-Synergy" and event[4] > event[3]:
                # the Over-Synergising rule gives the excess to the Rival
                owed[event[1]] += event[4] - event[3]
            if event[0] == "period" and event[2] == "Summon Stage" and event[4] == "start":
                # the Synergy the turn player has as the Summon Stage begins
                assert synergy[player] == 5 + owed[player]
                owed[player] = 0


def test_every_card_is_in_a_deck_or_a_ruling(ryft):
    """Every card of the set is played: in a shipped deck, or at least in a
    ruling that says what it does."""
    game, _compiled = ryft
    used = {entry.name for deck in game.decks for _part, entries in deck.parts
            for entry in entries}
    rulings = "".join(p.read_text() for p in RULINGS.glob("*.ruling"))
    missing = [name for name in game.cards if name not in used and f'"{name}"' not in rulings]
    assert missing == []


def test_at_least_20_rulings():
    rulings = "".join(p.read_text() for p in RULINGS.glob("*.ruling"))
    assert rulings.count('\nruling "') + rulings.startswith('ruling "') >= 20


def test_the_void_is_public_the_hand_private_the_deck_hidden(ryft):
    """BOARD SETUP: "Voids are classed as Public Knowledge and can be viewed
    by all Players at anytime"; the Deck is face down."""
    game, compiled = ryft
    match = Match.start(compiled, [game.decks[0], game.decks[1]], seed=5)
    play_out(match, [RandomAgent(5), RandomAgent(6)])
    view = match.observation(1)
    assert view["zones"]["void/0"] == [match.state.cards[c].name
                                      for c in match.state.zones[("void", 0)]]
    assert isinstance(view["zones"]["hand/0"], int)
    assert isinstance(view["zones"]["deck/1"], int)


def test_the_void_keeps_its_order(ryft):
    """BOARD SETUP: "The order of cards in the Void cannot be changed":
    cards only ever join it on top, and leave it."""
    game, compiled = ryft
    for seed in range(6):
        match = Match.start(compiled, [game.decks[seed % 5], game.decks[(seed + 2) % 5]],
                            seed=seed)
        play_out(match, [RandomAgent(seed), RandomAgent(seed + 3)])
        voids = {0: [], 1: []}
        for event in match.state.log:
            if event[0] != "move":
                continue
            _kind, card, source, target, _face = event
            if source[0] == "void":
                voids[source[1]].remove(card)
            if target[0] == "void":
                voids[target[1]].append(card)
        for player in (0, 1):
            assert voids[player] == match.state.zones.get(("void", player), [])

