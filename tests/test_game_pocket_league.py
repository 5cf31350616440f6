"""Pocket League (rules/pocket-league.rules, docs/games/pocket-league.md)
plays whole games (the soak with the invariants checked is in
tests/test_soak.py): random games end the ways the rulebook says (11: the
last prize, no creature in play, no card to draw at the start of the turn),
the setup leaves each player an active creature and 6 prizes, the decks are
legal and every card is in a deck or a ruling. Its rules are tested by its
rulings (tests/rulings/pocket-league)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine import Match

from games_support import loaded_and_compiled, random_games, rotating_decks

RULINGS = Path(__file__).resolve().parent / "rulings" / "pocket-league"
ENDINGS = {"Draw for the turn", "No creatures", "Last prize"}


@pytest.fixture(scope="module")
def game():
    return loaded_and_compiled("pocket-league")


def test_random_games_end_as_the_rulebook_says(game):
    loaded, compiled = game
    for match in random_games(loaded, compiled, range(12)):
        result = match.state.result
        assert result is not None and result[0] == "win", result
        assert result[2].split(": ", 1)[-1] in ENDINGS, result


def test_the_setup_leaves_an_active_creature_and_six_prizes(game):
    loaded, compiled = game
    match = Match.start(compiled, rotating_decks(loaded, 0), 5)
    agents = [RandomAgent(1), RandomAgent(2)]
    while match.state.turn == 0 and not match.is_terminal():
        match.apply_action(agents[match.state.decision.player].act(match))
    state = match.state
    for player in range(2):
        assert len(state.zones[("prizes", player)]) == 6
        active = [c for c in state.zones[("play", player)] if "active" in state.cards[c].statuses]
        assert len(active) == 1


def test_the_decks_are_legal_and_every_card_is_used(game):
    loaded, _ = game
    assert len(loaded.decks) == 3
    used = set()
    for deck in loaded.decks:
        parts = dict(deck.parts)
        assert sum(e.count for e in parts["Deck"]) + sum(e.count for e in parts["Energy"]) == 40
        used |= {e.name for entries in parts.values() for e in entries}
    rulings = " ".join(p.read_text(encoding="utf-8") for p in RULINGS.glob("*.ruling"))
    unused = {name for name in loaded.cards if name not in used and f'"{name}"' not in rulings}
    assert unused == set()
    assert len(loaded.cards) >= 35
