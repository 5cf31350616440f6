"""Saturday Wars CCG (rules/saturday-wars.rules) plays whole games for 2, 3
and 4 players (the soak with the invariants checked is in tests/test_soak.py),
and random games that end the way the rulebook says: a player claims a 3rd Chapter, or
every other player is out (an empty Shonen Deck when a card is needed, or no
Protagonists left)."""

from __future__ import annotations

import pytest

from interpreter.agents import RandomAgent, play_out
from interpreter.engine import Match, compile_game
from interpreter.games import load_game

REASONS = ("3 cards in their Chapters Won",
           "needed a card from an empty Shonen Deck",
           "no cards in their Protagonist Row")


@pytest.fixture(scope="module")
def game():
    loaded = load_game("saturday-wars")
    return loaded, compile_game(loaded)


@pytest.mark.parametrize("players,games", [(2, 150), (3, 40), (4, 40)])
def test_games_end_by_the_rulebook(game, players, games):
    loaded, compiled = game
    reasons = {}
    for seed in range(games):
        decks = [loaded.decks[(seed + p) % len(loaded.decks)] for p in range(players)]
        match = Match.start(compiled, decks, seed)
        play_out(match, [RandomAgent(seed * 10 + p) for p in range(players)])
        result = match.state.result
        assert result is not None and result[0] == "win", result
        reason = next((r for r in REASONS if r in result[2]), result[2])
        assert reason in REASONS, result
        reasons[reason] = reasons.get(reason, 0) + 1
    # Chapters are claimed to the end in some games, not only deck-outs.
    assert reasons.get(REASONS[0], 0) > 0, reasons


def test_the_decks_are_legal(game):
    loaded, _ = game
    assert len(loaded.decks) >= 4
    for deck in loaded.decks:
        parts = dict(deck.parts)
        assert sum(e.count for e in parts["Shonen Deck"]) == 45
        assert sum(e.count for e in parts["Story Deck"]) == 5
