"""Saturday Wars CCG (rules/saturday-wars.rules) plays whole games for 2, 3
and 4 players (the soak with the invariants checked is in tests/test_soak.py),
and random games that end the way the rulebook says: a player claims a 3rd Chapter, or
every other player is out (an empty Shonen Deck when a card is needed, or no
Protagonists left)."""

from __future__ import annotations

import pytest

from interpreter.agents import RandomAgent, play_out
from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

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


def _choose(match, label):
    labels = [match.action_to_string(a) for a in match.legal_actions()]
    picks = [a for a, l in enumerate(labels) if l.split(" #")[0] == label]
    assert picks, (label, labels)
    match.apply_action(picks[0])


def test_a_modifier_for_this_chapter_ends_with_the_chapter(game):
    """Problem Solved: "It gets +1 progress value this Chapter" (the turn is
    called Chapter): gone once the next Chapter begins."""
    from interpreter.engine import Machine

    loaded, compiled = game
    deck = ["Arodihs", "Hammer Time", "Zero Tolerance"] * 4
    zones = {
        ("hand", 0): [("Problem Solved", [])],
        ("Shonen Deck", 0): [(n, []) for n in deck],
        ("Protagonist Row", 0): [("● Sano, Arm Of A God", [])],
        ("Story Row", 0): [("The Arm Of A God", [])],
        ("Story Deck", 0): [("The Smith Trials", [])],
        ("Shonen Deck", 1): [(n, []) for n in deck],
        ("Protagonist Row", 1): [("● Isao, Bully Eater", [])],
        ("Story Deck", 1): [("Strange New Lands", [])],
    }
    match = Match.from_position(compiled, 2, 0, zones, {}, 2, 0, "Action Phase")
    sano = next(c.id for c in match.state.cards if c.name == "● Sano, Arm Of A God")
    _choose(match, "play a QUICK Plot Twist Problem Solved")
    assert Machine(compiled, match.state).stat(sano, "progress value") == 3
    while match.state.turn == 2:     # the first choice offered, "no" to a yes-no question
        first = match.legal_actions()[0]
        match.apply_action(1 if match.action_to_string(first) == "yes" else first)
    assert Machine(compiled, match.state).stat(sano, "progress value") == 2
    assert not [m for m in match.state.modifiers if m.target == sano]

