"""Every game ends: loops end as a draw with the reason, within a bounded
number of events and well under 2 seconds (tests/fixtures/loops)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent, play_out
from interpreter.collector import collection_paused
from interpreter.engine import Machine, Match, compile_game
from interpreter.engine import operations as op
from interpreter.engine.limits import MAX_EVENTS
from interpreter.language.games import load_game

ROOT = Path(__file__).resolve().parent / "fixtures" / "loops"


def match_with(game_id, hand=(), board=(), seed=1):
    game = load_game(game_id, ROOT)
    assert game.problems == []
    compiled = compile_game(game)
    match = Match.start(compiled, [game.decks[0], game.decks[0]], seed)
    player = match.current_player()
    if player < 0:
        return match, player
    state = match.state
    for names, zone in ((hand, "hand"), (board, "board")):
        for name in names:
            card = next(c.id for c in state.cards if c.name == name and c.zone[0] == "deck"
                        and c.owner == player)
            op.move(state, card, (zone, player))
    state.decision = None
    Machine(compiled, state).run()
    return match, player


def choose(match, prefix):
    for action in match.legal_actions():
        if match.action_to_string(action).startswith(prefix):
            match.apply_action(action)
            return
    raise AssertionError([match.action_to_string(a) for a in match.legal_actions()])


class Yes:
    """Always takes the first option: yes to every "may"."""

    def act(self, match):
        return 0


def timed(func):
    """The seconds ``func`` takes with the cyclic collector paused: a full
    collection of the parser tables earlier tests left took over a second
    in the middle (the guard's work is what is timed), and collecting them
    first took seconds of its own in a long run of the suite."""
    with collection_paused():
        start = time.perf_counter()
        func()
        return time.perf_counter() - start


def assert_drawn_by_the_guard(match, elapsed):
    kind, reason = match.state.result
    assert kind == "draw"
    assert reason
    assert len(match.state.log) <= MAX_EVENTS + 1000
    assert elapsed < 2.0, f"took {elapsed:.2f} s"


def test_a_mandatory_trigger_loop_ends_as_a_draw():
    match, _ = match_with("loops", hand=["Boomerang"])
    elapsed = timed(lambda: choose(match, "cast Boomerang"))
    assert_drawn_by_the_guard(match, elapsed)
    assert "loop" in match.state.result[1]


def test_an_optional_loop_taken_forever_ends_as_a_draw():
    match, _ = match_with("loops", hand=["Echo"])
    elapsed = timed(lambda: (choose(match, "cast Echo"), play_out(match, [Yes(), Yes()])))
    assert_drawn_by_the_guard(match, elapsed)


def test_two_cards_triggering_each_other_end_as_a_draw():
    match, _ = match_with("loops", hand=["Echo"], board=["Ping", "Pong"])
    elapsed = timed(lambda: (choose(match, "cast Echo"),
                             play_out(match, [RandomAgent(1), RandomAgent(2)])))
    assert_drawn_by_the_guard(match, elapsed)


def test_a_turn_that_never_advances_ends_as_a_draw():
    game = load_game("idle", ROOT)
    compiled = compile_game(game)
    elapsed = timed(lambda: globals().__setitem__(
        "_idle", Match.start(compiled, [game.decks[0], game.decks[0]], 1)))
    match = globals().pop("_idle")
    assert_drawn_by_the_guard(match, elapsed)
    assert "turns" in match.state.result[1]


@pytest.mark.parametrize("seed", range(10))
def test_random_games_with_loop_cards_always_end(seed):
    game = load_game("loops", ROOT)
    compiled = compile_game(game)
    match = Match.start(compiled, [game.decks[0], game.decks[0]], seed)
    elapsed = timed(lambda: play_out(match, [RandomAgent(seed), RandomAgent(seed + 1)]))
    assert match.state.result is not None
    assert elapsed < 5.0
