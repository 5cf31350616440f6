"""What the tests of each shipped game (tests/test_game_*.py) share: the
game loaded and compiled once, the shipped decks in turn in the two seats,
and random games played to their end."""

from __future__ import annotations

from interpreter.agents import HintedAgent, play_out
from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game


def loaded_and_compiled(game_id: str):
    loaded = load_game(game_id)
    return loaded, compile_game(loaded)


def rotating_decks(loaded, i: int) -> list:
    """The decks of game ``i``: the shipped decks in turn, one seat apart."""
    return [loaded.decks[i % len(loaded.decks)], loaded.decks[(i + 1) % len(loaded.decks)]]


def random_games(loaded, compiled, seeds):
    """Each seed's game between random agents (taking the choices the game's
    agent settings prefer, if it has any: the agent "hinted"), played to its end."""
    for seed in seeds:
        match = Match.start(compiled, rotating_decks(loaded, seed), seed)
        play_out(match, [HintedAgent(seed * 1000 + p) for p in range(2)])
        yield match
