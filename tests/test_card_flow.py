"""Card flow mechanisms on the Card Flow fixture game (tests/fixtures/card-flow):
costs paid one card at a time with triggers in between, moves "without
triggering abilities", zones a player loses or wins by, a status that
destroys when given twice, attached cards leaving with their host, picks
within a total, "the player with the most", "the next player", "takes the
next turn", "for each" on a step, bidding for the next turn, actions that use no action,
actions and abilities usable at any time with their response windows, "your
opponent" among several opponents, "until after its controller's next action".
Its rulings (tests/rulings/card-flow) hold
the scenarios; these tests pin what a whole game does."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from interpreter.agents import RandomAgent, play_out
from interpreter.cli import main
from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

ROOT = Path(__file__).resolve().parent / "fixtures" / "card-flow"
RULINGS = Path(__file__).resolve().parent / "rulings" / "card-flow" / "card-flow.ruling"


def test_the_rulings_pass():
    result = CliRunner().invoke(main, ["ruling", "--quiet", str(RULINGS)])
    assert result.exit_code == 0, result.output
    assert result.output.endswith("26 passed, 0 failed\n")


def test_random_games_end_by_the_zones_rules():
    game = load_game("card-flow", ROOT)
    compiled = compile_game(game)
    for players in (2, 3, 4):
        for seed in range(15):
            match = Match.start(compiled, [game.decks[0]] * players, seed)
            play_out(match, [RandomAgent(seed + p) for p in range(players)])
            result = match.state.result
            assert result[0] == "win", result
            assert any(reason in result[2] for reason in (
                "2 cards in their vault", "needed a card from an empty deck",
                "no cards in their leaders")), result


def test_leaders_are_picked_within_the_total():
    game = load_game("card-flow", ROOT)
    compiled = compile_game(game)
    match = Match.start(compiled, [game.decks[0]] * 2, 5)
    play_out(match, [RandomAgent(1), RandomAgent(2)])
    state = match.state
    for player in range(2):
        leaders = [c for c in state.cards if c.owner == player and c.zone == ("leaders", player)
                   and game.cards[c.name].kind == "Creature"]
        # leaders that never left (Gear attached to them sit with them): their
        # cost adds up to at most 3
        assert sum(game.cards[c.name].stat("cost") for c in leaders) <= 3
