"""Resolution settings of the engine, on fixture games written in the
language (tests/fixtures/resolution): an effect chain with responses
(Silver Wing Rivals' setting) and stack links ordered rival first with
entries whose source left removed (RYFT's setting)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.engine import Machine, Match, compile_game
from interpreter.engine import operations as op
from interpreter.engine.state import GameState
from interpreter.language.games import load_game

ROOT = Path(__file__).resolve().parent / "fixtures" / "resolution"


def compiled(game_id):
    game = load_game(game_id, ROOT)
    assert game.problems == []
    return game, compile_game(game)


def new_match(game_id, seed=1):
    game, game_c = compiled(game_id)
    return Match.start(game_c, [game.decks[0], game.decks[0]], seed)


def take(match, player, name, zone="hand"):
    """Move a card named ``name`` from the player's deck to ``zone``."""
    state = match.state
    card = next(c.id for c in state.cards if c.name == name and c.owner == player
                and c.zone[0] == "deck")
    op.move(state, card, (zone, player), face_up=zone == "board")
    return card


def reopen(match):
    """Let the open action window list its options again."""
    match.state.decision = None
    Machine(match.game, match.state).run()


def choose(match, label):
    labels = [match.action_to_string(a) for a in match.legal_actions()]
    assert label in labels, labels
    match.apply_action(labels.index(label))


def events(match, *kinds):
    return [e for e in match.state.log if e[0] in kinds]


def test_chain_of_three_links_with_a_nullified_middle_link():
    match = new_match("chain")
    p1 = match.current_player()
    p2 = 1 - p1
    scholar = take(match, p1, "Scholar")
    counter1 = take(match, p1, "Counter")
    counter2 = take(match, p2, "Counter")
    reopen(match)
    hand_before = len(match.state.zone("hand", p1))
    choose(match, f"cast Scholar #{scholar}")
    # link 1: Scholar's "When this is played: Draw a card."; the Rival may respond
    assert match.state.decision.player == p2
    assert match.state.decision.kind == "respond"
    choose(match, f"respond with Counter #{counter2}")       # link 2 nullifies link 1
    assert match.state.decision.player == p1
    choose(match, f"respond with Counter #{counter1}")       # link 3 nullifies link 2
    if match.state.decision is not None and match.state.decision.kind == "respond":
        choose(match, "pass")                                 # p2 lets it resolve
    # the chain resolves from the highest link
    log = events(match, "entry", "resolve", "nullify", "fizzle")
    sources = {scholar: "Scholar", counter1: "Counter 3", counter2: "Counter 2"}
    story = [(e[0], sources[e[2]]) for e in log]
    assert story == [
        ("entry", "Scholar"), ("entry", "Counter 2"), ("entry", "Counter 3"),
        ("resolve", "Counter 3"), ("nullify", "Counter 2"),
        ("fizzle", "Counter 2"),
        ("resolve", "Scholar"),
    ]
    # link 1 resolved: p1 cast Scholar and a Counter (-2) and drew a card (+1)
    assert len(match.state.zone("hand", p1)) == hand_before - 2 + 1
    assert [e[3] for e in events(match, "entry")] == [p1, p2, p1]


def test_a_player_may_pass_instead_of_responding():
    match = new_match("chain")
    p1 = match.current_player()
    scholar = take(match, p1, "Scholar")
    take(match, 1 - p1, "Counter")
    reopen(match)
    choose(match, f"cast Scholar #{scholar}")
    choose(match, "pass")
    assert [e[0] for e in events(match, "entry", "resolve", "fizzle")] == ["entry", "resolve"]


def test_mid_chain_state_survives_json_and_clone():
    match = new_match("chain")
    p1 = match.current_player()
    scholar = take(match, p1, "Scholar")
    take(match, p1, "Counter")
    counter2 = take(match, 1 - p1, "Counter")
    reopen(match)
    choose(match, f"cast Scholar #{scholar}")
    choose(match, f"respond with Counter #{counter2}")
    assert len(match.state.stack) == 2
    restored = Match(match.game, GameState.from_json(json.loads(json.dumps(
        match.state.to_json()))))
    twin = match.clone()
    for other in (restored, twin):
        assert other.legal_actions() == match.legal_actions()
    choose(match, "pass")
    choose(twin, "pass")
    choose(restored, "pass")
    assert twin.state.log == match.state.log == restored.state.log
    assert match.state.stack == []


def test_stack_link_orders_the_rivals_effects_first_and_drops_one_whose_source_left():
    match = new_match("stack")
    p1 = match.current_player()
    p2 = 1 - p1
    sentinel = take(match, p1, "Sentinel", "board")
    lookout = take(match, p2, "Lookout", "board")
    squire = take(match, p1, "Squire")
    reopen(match)
    rival_hand = len(match.state.zone("hand", p2))
    choose(match, f"cast Squire #{squire}")
    log = events(match, "entry", "resolve", "fizzle")
    # both triggered on the same event: the rival's goes in first, so the
    # turn player's resolves first (backwards) and destroys the Lookout,
    # whose own entry is then removed from the stack link
    assert [(e[0], e[2]) for e in log] == [
        ("entry", lookout), ("entry", sentinel), ("resolve", sentinel),
        ("fizzle", lookout)]
    assert log[-1][3] == "its source left its zone"
    assert match.state.cards[lookout].zone == ("graveyard", p2)
    assert len(match.state.zone("hand", p2)) == rival_hand   # the Lookout never drew


def test_random_games_with_chains_and_stacks_end_without_errors():
    from interpreter.agents import RandomAgent, play_out

    for game_id in ("chain", "stack"):
        for seed in range(15):
            match = new_match(game_id, seed)
            play_out(match, [RandomAgent(seed), RandomAgent(seed + 100)])
            assert match.state.result is not None
            assert match.state.stack == [] or match.state.result[0] == "draw"


def test_an_immediate_trigger_resolves_at_once_without_responses():
    match = new_match("chain")
    p1 = match.current_player()
    messenger = take(match, p1, "Messenger")
    take(match, 1 - p1, "Counter")
    reopen(match)
    hand_before = len(match.state.zone("hand", p1))
    choose(match, f"cast Messenger #{messenger}")
    assert not events(match, "entry")                       # never on the chain
    assert len(match.state.zone("hand", p1)) == hand_before  # cast one, drew one
    assert match.state.decision is None or match.state.decision.kind != "respond"
