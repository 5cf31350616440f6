"""The Places fixture game (tests/fixtures/places): the generic mechanisms of
places that its rulings (tests/rulings/places) do not reach: the errors of
their declarations, and a game stopped at each new kind of decision (a slot,
the first player, a rival's window) cloned and sent through JSON, then
played on identically.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent, play_out
from interpreter.engine import Match, compile_game
from interpreter.engine.state import GameState
from interpreter.errors import CardrulesError
from interpreter.language.games import load_game

PLACES = Path(__file__).resolve().parent / "fixtures" / "places"


def game_with(tmp_path: Path, old: str, new: str, cards: str = ""):
    """The Places game with one line of its rules changed (and more cards)."""
    root = tmp_path / "places"
    shutil.copytree(PLACES, root)
    rules = root / "rules" / "places.rules"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    if cards:
        path = root / "cards" / "places" / "core.cards"
        path.write_text(path.read_text() + cards)
    return load_game("places", root)


@pytest.fixture(scope="module")
def places():
    game = load_game("places", PLACES)
    assert game.problems == []
    return game, compile_game(game)


def test_a_chosen_slot_needs_a_zone_of_slots(tmp_path):
    game = game_with(tmp_path, "zone vault: per player, public, cards never leave it",
                     "zone vault: per player, public, a card entering it takes the slot its "
                     "player chooses")
    (problem,) = [p for p in game.problems if p.code == "E541"]
    assert problem.message == 'zone "vault" has no slots to choose from'
    line = Path(problem.span.path).read_text().splitlines()[problem.span.line - 1]
    assert line[problem.span.column - 1:].startswith("a card entering it takes the slot")
    assert "E541" in problem.render() and "^" in problem.render()


def test_next_to_cards_needs_a_paired_zone_of_slots(tmp_path):
    game = game_with(tmp_path, "zone vault: per player, public, cards never leave it",
                     "zone vault: per player, public, cards never leave it", cards='''
card "Stray"
  kind: Fighter
  cost: 1
  power: 1
  toughness: 1
  text:
    LAST: Put a Relic from your hand into your vault next to a Fighter you control.
''')
    assert game.problems == []
    with pytest.raises(CardrulesError) as caught:
        compile_game(game)
    (problem,) = caught.value.problems
    assert '"next to" cards outside a zone of slots' in problem.message


def _stop_at(match: Match, wanted, seed: int) -> bool:
    """Play random choices until a decision ``wanted(state, decision)`` accepts."""
    agent = RandomAgent(seed)
    for _ in range(400):
        decision = match.state.decision
        if decision is None or match.is_terminal():
            return False
        if wanted(match.state, decision):
            return True
        match.apply_action(agent.act(match))
    return False


DECISIONS = {
    "a slot": lambda state, d: d.kind == "slot",
    "the first player": lambda state, d: d.kind == "first player",
    # a rival's window: the player who is not the turn player acts in the turn
    "a rival's window": lambda state, d: d.kind == "action" and d.player != state.turn_player,
}


@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_a_game_stopped_at_a_new_decision_survives_clone_and_json(places, name):
    game, compiled = places
    for seed in range(60):
        match = Match.start(compiled, [game.decks[0], game.decks[0]], seed=seed)
        if _stop_at(match, DECISIONS[name], seed):
            break
    else:
        pytest.fail(f"no decision of {name} in 60 games")
    twin = match.clone()
    data = json.loads(json.dumps(match.state.to_json()))
    restored = Match(compiled, GameState.from_json(data))
    assert restored.state.to_json() == match.state.to_json()
    for other in (twin, restored):
        play_out(other, [RandomAgent(7), RandomAgent(8)])
    play_out(match, [RandomAgent(7), RandomAgent(8)])
    assert twin.state.log == match.state.log == restored.state.log


def test_the_first_player_is_the_chosen_one(places):
    game, compiled = places
    for seed in range(6):
        match = Match.start(compiled, [game.decks[0], game.decks[0]], seed=seed)
        decision = match.state.decision
        assert decision.kind == "first player"
        assert decision.player == seed_picked(match)
        wanted = seed % 2
        match.apply_action(decision.options.index(wanted))
        play_out(match, [RandomAgent(seed), RandomAgent(seed + 1)])
        turns = [e for e in match.state.log if e[0] == "turn"]
        assert turns[0] == ("turn", 1, wanted)


def seed_picked(match: Match) -> int:
    """The player the start picked at random (the note says who)."""
    note = next(e for e in match.state.log if e[0] == "note")
    return int(note[1].split()[1]) - 1
