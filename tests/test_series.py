"""Matches ("match: best of N"), side-deck swaps between games ("swaps
with"), and choosing decks on the command line."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import main
from interpreter.engine import compile_game
from interpreter.language.games import load_game
from interpreter.series import play_match

DUEL = Path(__file__).resolve().parent / "fixtures" / "engine"

MATCH_RULES = """
deck part Side
  size: at most 6
  swaps with: Deck
  optional: yes
"""


def match_game(tmp_path, rules_extra=MATCH_RULES, header="  players: 2 to 4\n"):
    root = tmp_path / "game"
    shutil.copytree(DUEL / "rules", root / "rules")
    shutil.copytree(DUEL / "cards" / "duel", root / "cards" / "duel")
    rules = root / "rules" / "duel.rules"
    text = rules.read_text().replace(header, header + "  match: best of 3\n", 1) + rules_extra
    rules.write_text(text)
    for deck in (root / "cards" / "duel" / "decks").glob("*.deck"):
        deck.write_text(deck.read_text() + '  Side:\n    3 "Giant"\n    3 "Herald"\n')
    return root


def test_a_match_ends_when_a_player_has_won_two_of_three(tmp_path):
    root = match_game(tmp_path)
    loaded = load_game("duel", root)
    assert loaded.problems == []
    compiled = compile_game(loaded)
    for seed in range(6):
        result = play_match(compiled, loaded, loaded.decks[:2], seed)
        assert 2 <= len(result.games) <= 3
        assert result.winner is not None and result.wins[result.winner] == 2
        assert sum(result.wins) == len(result.games)   # the duel has no draws
        # The side part never enters a game, and every swapped deck is legal.
        for record in result.games:
            assert all("Side" not in line for line in record.narration)


def test_swaps_keep_decks_legal_and_the_match_is_deterministic(tmp_path):
    from interpreter.language.decks import check_deck
    from interpreter.engine.rng import Random
    from interpreter.series import swap_between_games
    from interpreter.source import SourceText

    root = match_game(tmp_path)
    loaded = load_game("duel", root)
    deck = loaded.decks[0]
    rng = Random(5)
    swapped_any = False
    for _ in range(40):
        new, made = swap_between_games(loaded, deck, rng)
        assert check_deck(new, loaded.rules, loaded.cards, SourceText(deck.path, "")) == []
        assert sum(e.count for _, part in new.parts for e in part) == \
            sum(e.count for _, part in deck.parts for e in part)
        swapped_any = swapped_any or bool(made)
        deck = new
    assert swapped_any
    compiled = compile_game(loaded)
    first = play_match(compiled, loaded, loaded.decks[:2], 9)
    again = play_match(compiled, loaded, loaded.decks[:2], 9)
    assert [g.narration for g in first.games] == [g.narration for g in again.games]


def test_play_match_prints_every_game_and_the_winner(tmp_path):
    root = match_game(tmp_path)
    result = CliRunner().invoke(main, ["play", str(root / "rules" / "duel.rules"), "--match",
                                       "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "the best of 3 games" in result.output
    assert "==== Game 1" in result.output and "==== Game 2" in result.output
    assert result.output.rstrip().splitlines()[-1].startswith("==== Player ")
    assert "wins the match 2-" in result.output or "wins the match" in result.output


def test_a_game_without_a_match_says_so(tmp_path):
    result = CliRunner().invoke(main, ["play", str(DUEL / "rules" / "duel.rules"), "--match"])
    assert result.exit_code == 2
    assert "E812 Duel declares no match" in result.output


def test_an_even_match_and_an_unknown_swap_part_are_reported(tmp_path):
    root = match_game(tmp_path, MATCH_RULES.replace("swaps with: Deck", "swaps with: Dekc"))
    rules = root / "rules" / "duel.rules"
    rules.write_text(rules.read_text().replace("best of 3", "best of 4"))
    loaded = load_game("duel", root)
    codes = {p.code: p for p in loaded.problems}
    assert "a match must be the best of an odd number of games" in codes["E503"].message
    assert codes["E503"].span.line == 5 and codes["E503"].span.column == 10  # "best of 4"
    rules.write_text(rules.read_text().replace("best of 4", "best of 3"))
    codes = {p.code: p for p in load_game("duel", root).problems}
    assert 'swaps with an unknown part "Dekc"' in codes["E540"].message
    assert codes["E540"].suggestion and "Deck" in codes["E540"].suggestion


def test_decks_are_chosen_by_name_and_an_unknown_one_is_suggested():
    rules = str(DUEL / "rules" / "duel.rules")
    good = CliRunner().invoke(main, ["play", rules, "--deck", "rush", "--seed", "1"])
    assert good.exit_code == 0
    assert "Player 1 plays Rush." in good.output and "Player 2 plays Rush." in good.output
    bad = CliRunner().invoke(main, ["play", rules, "--deck", "Knigts"])
    assert bad.exit_code == 2
    assert 'E810 duel has no deck "Knigts"' in bad.output
    assert 'did you mean "Knights"?' in bad.output
    many = CliRunner().invoke(main, ["simulate", rules, "-n", "1", "--deck", "rush",
                                     "--deck", "knights", "--deck", "rush"])
    assert many.exit_code == 2 and "E811 3 decks named for 2 players" in many.output


def test_simulate_rotates_the_shipped_decks_through_the_seats():
    import json

    rules = str(DUEL / "rules" / "duel.rules")
    out = CliRunner().invoke(main, ["simulate", rules, "-n", "20", "--seed", "1",
                                    "--format", "json"])
    report = json.loads(out.output)
    assert sum(report["wins"].values()) == 20 == sum(report["deck_wins"].values())
    assert set(report["deck_wins"]) == {"Knights", "Rush"}
    # every game has each deck in it (two decks, two seats, in turn)
    assert report["deck_games"] == {"Knights": 20, "Rush": 20}


def test_simulate_text_shows_the_wins_of_every_deck():
    # --help promises wins "per seat and per deck"
    rules = str(DUEL / "rules" / "duel.rules")
    out = CliRunner().invoke(main, ["simulate", rules, "-n", "20", "--seed", "1"])
    json_out = CliRunner().invoke(main, ["simulate", rules, "-n", "20", "--seed", "1",
                                         "--format", "json"])
    import json

    report = json.loads(json_out.output)
    for deck in ("Knights", "Rush"):
        won = report["deck_wins"].get(deck, 0)
        assert f"  {deck} won {won} of 20 games ({100 * won / 20:.0f}%)\n" in out.output
