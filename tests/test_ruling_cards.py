"""Cards written in a ruling (interpreter/ruling_cards.py): read and checked
as a card file of the game, a mistake in one a positioned problem at its line
of the .ruling file, and seen by that ruling only."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import main

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "rulings"


def run(*args):
    return CliRunner().invoke(main, list(args))


def rel(name):
    path = FIXTURES / name
    return str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path)


def test_a_card_of_the_ruling_is_played_and_resets_the_deck_virus():
    result = run("ruling", rel("cards.ruling"))
    assert result.exit_code == 0, result.output
    assert result.output.endswith("1 passed, 0 failed\n")
    assert "Cinderpup moves from Player 1's void to Player 1's deck." in result.output
    assert "Player 1: Deck Virus 40 -> 20." in result.output


def test_a_mistake_in_a_card_of_the_ruling_is_a_problem_at_its_line():
    path = rel("card_mistakes.ruling")
    result = run("ruling", path)
    assert result.exit_code == 1
    out = result.output
    assert "Traceback" not in out
    assert f'{path}:12:7: E303 unknown stat "speed" for a Being' in out
    assert "  12 |       speed: 3\n     |       ^^^^^\n" in out
    assert f'{path}:37:18: E201 unexpected word "Frobnicate"' in out
    assert "         ABILITY: Frobnicate the top card of your void." in out
    assert out.endswith("0 passed, 3 failed\n")


def test_a_card_of_the_ruling_may_not_take_the_name_of_a_card_of_the_game():
    path = rel("card_mistakes.ruling")
    out = run("ruling", path).output
    assert f'{path}:45:5: E412 ryft already has a card named "Cinderpup" (defined at ' in out
    assert "core.cards:6)" in out
    assert '  45 |     card "Cinderpup"\n     |     ^^^^^^^^^^^^^^^^\n' in out


def test_another_ruling_of_the_file_does_not_see_the_card():
    path = rel("card_scope.ruling")
    result = run("ruling", path)
    assert result.exit_code == 1
    out = result.output
    assert "Traceback" not in out
    assert f"PASS {path}: A ruling writes a card of its own" in out
    assert f'{path}:31:20: E710 unknown card "Rewind Tide"' in out
    assert out.endswith("1 passed, 1 failed\n")


def test_an_empty_cards_block_is_a_problem(tmp_path):
    path = tmp_path / "empty.ruling"
    path.write_text('ruling "No cards"\n  game: ryft\n  cards:\n  expect:\n'
                    '    player 1 hand has 0 cards\n', encoding="utf-8")
    out = run("ruling", str(path)).output
    assert f"{path}:3:3: E730 cards: holds no card" in out
    assert "Traceback" not in out
