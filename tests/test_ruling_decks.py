"""Rulings about decks and matches (interpreter/ruling_decks.py): decks
written in a ruling, accepted or refused with the game's own deck codes, and
best-of-N matches played by seeded random agents, with their expect lines
and the mistakes a designer can make in them."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import main
from interpreter.engine import compile_game
from interpreter.language.games import load_game
from interpreter.rulings import load_ruling_file, run_ruling
from interpreter.series import play_match

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "rulings"
DUEL = HERE / "fixtures" / "engine" / "rules" / "duel.rules"
BOUT = FIXTURES / "bout" / "rules" / "bout.rules"


def run(*args):
    return CliRunner().invoke(main, list(args))


def rel(name):
    path = FIXTURES / name
    return str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path)


def results(path):
    source, rulings, problems = load_ruling_file(Path(path))
    assert problems == []
    return [run_ruling(ruling, source) for ruling in rulings]


def rewritten(tmp_path, name, *replacements):
    """A copy of a fixture ruling beside the test, its games found by
    absolute paths, with some lines changed."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    text = text.replace("../engine/rules/duel.rules", str(DUEL))
    text = text.replace("bout/rules/bout.rules", str(BOUT))
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- decks


def test_a_refused_deck_with_its_code_and_an_accepted_deck_pass():
    result = run("ruling", rel("decks.ruling"))
    assert result.exit_code == 0, result.output
    assert result.output.endswith("2 passed, 0 failed\n")
    assert "Traceback" not in result.output


def test_a_ruling_that_only_checks_decks_plays_no_game():
    only_decks, seated = results(FIXTURES / "decks.ruling")
    assert only_decks.passed
    assert only_decks.trace == [
        "ruling: A Deck needs 12 cards and at most 4 copies of a name",
        "section: Deck building",
        'Deck "Too Small" is refused:',
        '  E605 "Deck" has 8 cards; it needs at least 12',
        'Deck "Five Squires" is refused:',
        '  E608 too many copies: 5 cards share the name "Squire"; at most 4 allowed',
        'Deck "Just Enough" is accepted.',
    ]
    # a deck of the ruling sits in a seat: player 1 plays Walls, Banners, Trainers
    assert seated.passed, [p.render() for p in seated.failures]
    assert seated.trace[:3] == ["ruling: A deck written in the ruling can sit in a seat",
                                'Deck "Walls" is accepted.',
                                "A game of Duel for 2 players (seed 1); Player 2 goes first."]


def test_a_wrong_deck_expectation_says_what_the_deck_rules_decided(tmp_path):
    path = rewritten(
        tmp_path, "decks.ruling",
        ('deck "Too Small" is refused: E605 "needs at least 12"', 'deck "Too Small" is accepted'),
        ('deck "Five Squires" is refused: E608', 'deck "Five Squires" is refused: E605'),
        ('deck "Just Enough" is accepted', 'deck "Just Enough" is refused: E605'),
        ('deck "Knights" is accepted', 'deck "Too Small" is refused: E605 "at most"'))
    result = run("ruling", "--quiet", str(path))
    lines = [line for line in result.output.splitlines() if line.startswith(str(path))]
    assert lines == [
        f'{path}:23:5: E720 expected deck "Too Small" to be accepted, but it is refused: '
        'E605 "Deck" has 8 cards; it needs at least 12 (line 9)',
        f'{path}:24:5: E720 expected deck "Five Squires" to be refused with E605, but it is '
        'refused with E608 too many copies: 5 cards share the name "Squire"; at most 4 '
        "allowed (line 14)",
        f'{path}:25:5: E720 expected deck "Just Enough" to be refused with E605, but it is '
        "accepted",
        f'{path}:26:5: E720 expected deck "Too Small" to be refused with E605 "at most", but '
        'its E605 says: "Deck" has 8 cards; it needs at least 12',
    ]
    assert "  26 |     deck \"Too Small\" is refused: E605 \"at most\"" in result.output
    assert result.exit_code == 1
    assert "Traceback" not in result.output


def test_an_unknown_deck_in_an_expect_line_is_reported_at_its_name(tmp_path):
    path = rewritten(tmp_path, "decks.ruling",
                     ('deck "Knights" is accepted', 'deck "Knigths" is accepted'))
    result = run("ruling", "--quiet", str(path))
    assert result.exit_code == 1
    assert f'{path}:26:10: E709 unknown deck "Knigths"' in result.output
    assert "  26 |     deck \"Knigths\" is accepted\n     |          ^^^^^^^^^\n" \
        in result.output
    assert "expected: Five Squires, Just Enough, Knights, Rush, Too Small" in result.output
    assert 'did you mean "Knights"?' in result.output


def test_mistakes_in_a_decks_block_are_positioned_problems():
    reading = run("ruling", "--quiet", rel("deck_reading.ruling"))
    path = rel("deck_reading.ruling")
    assert [l for l in reading.output.splitlines() if l.startswith(path)] == [
        f'{path}:4:5: E723 a deck in a ruling starts with deck "Name", as in a deck file',
        f'{path}:8:10: E726 a second deck named "Twice" (the first is at line 6)',
    ]
    cards = run("ruling", "--quiet", rel("deck_cards.ruling"))
    path = rel("deck_cards.ruling")
    # an unknown card or part is the ruling's mistake, not a refusal to expect
    assert [l for l in cards.output.splitlines() if l.startswith(path)] == [
        f'{path}:9:7: E602 unknown deck part "Sideboard"',
        f'{path}:6:9: E305 unknown card "Squirre"',
    ]
    assert 'did you mean "Squire"?' in cards.output
    assert reading.exit_code == cards.exit_code == 1


def test_a_ruling_deck_may_not_take_the_name_of_a_deck_of_the_game(tmp_path):
    path = rewritten(tmp_path, "decks.ruling", ('deck "Just Enough"\n', 'deck "Knights"\n'),
                     ('deck "Just Enough" is accepted', 'deck "Rush" is accepted'))
    result = run("ruling", "--quiet", str(path))
    assert f'{path}:17:10: E726 duel already has a deck named "Knights"' in result.output
    assert result.exit_code == 1


# ---------------------------------------------------------------- matches


def _match_ruling(tmp_path, wins, winner, seed=2):
    path = tmp_path / "match.ruling"
    path.write_text(
        'ruling "The first player to win two games wins the match"\n'
        f"  game: {BOUT}\n"
        f"  seed: {seed}\n"
        "  match: best of 3\n"
        "  decks: Giants, Squires\n"
        "  expect:\n"
        f"    player 1 won {wins[0]} games\n"
        f"    player 2 won {wins[1]} games\n"
        f"    the match winner is player {winner}\n"
        '    the trace has "==== Game 1" before "==== Game 2"\n', encoding="utf-8")
    return path


def _series(seed):
    game = load_game("bout", BOUT.parent.parent)
    decks = {deck.name: deck for deck in game.decks}
    return play_match(compile_game(game), game, [decks["Giants"], decks["Squires"]], seed)


def test_a_match_ruling_expects_games_won_and_the_winner(tmp_path):
    series = _series(2)
    assert series.winner is not None
    path = _match_ruling(tmp_path, series.wins, series.winner + 1)
    first = run("ruling", str(path))
    assert first.exit_code == 0, first.output
    score = "-".join(map(str, series.wins))
    assert f"==== Player {series.winner + 1} wins the match {score}.\n" in first.output
    # the games are the series' own, swaps between games included
    for record in series.games:
        assert f"==== Game {record.number} (seed {record.seed}): Player 1 plays Giants, " \
               "Player 2 plays Squires" in first.output
        for swap in record.swaps:
            assert f"  {swap}\n" in first.output
    # seeded random agents: the same match every time
    assert run("ruling", str(path)).output == first.output


def test_a_wrong_match_expectation_fails_at_its_line(tmp_path):
    series = _series(2)
    loser = 1 - series.winner
    wins = list(series.wins)
    wins[loser] += 1
    path = _match_ruling(tmp_path, wins, loser + 1)
    result = run("ruling", "--quiet", str(path))
    outcome = f"player {series.winner + 1} wins the match {'-'.join(map(str, series.wins))}"
    assert result.exit_code == 1
    assert [l for l in result.output.splitlines() if l.startswith(str(path))] == [
        f"{path}:{7 + loser}:5: E720 expected player {loser + 1} to win {wins[loser]} "
        f"game{'' if wins[loser] == 1 else 's'} (they won {series.wins[loser]}), "
        f"but {outcome}",
        f"{path}:9:5: E720 expected player {loser + 1} to win the match, but {outcome}",
    ]


def test_a_match_is_played_from_the_setup_and_expects_what_the_match_did():
    result = run("ruling", "--quiet", rel("match_shape.ruling"))
    path = rel("match_shape.ruling")
    assert [l for l in result.output.splitlines() if l.startswith(path)] == [
        f"{path}:4:3: E725 a match is played from the game's setup by seeded random agents: "
        "it takes no position",
        f"{path}:6:3: E725 a match is played from the game's setup by seeded random agents: "
        "it takes no play steps",
        f"{path}:15:5: E725 this ruling plays no match, so it has no games won and no match "
        "winner",
        f"{path}:21:5: E725 a match ruling expects what the match did, not the state of one "
        "of its games",
        f'{path}:25:10: E724 unknown match "best three"',
    ]
    assert result.exit_code == 1
    assert "Traceback" not in result.output


def test_a_match_must_be_the_games_and_be_played_with_accepted_decks():
    result = run("ruling", "--quiet", rel("match_game.ruling"))
    path = rel("match_game.ruling")
    assert [l for l in result.output.splitlines() if l.startswith(path)] == [
        f"{path}:3:10: E724 bout plays the best of 3 games, not of 5",
        f"{path}:9:10: E724 duel declares no match",
        f'{path}:16:10: E727 deck "Tiny" is refused by the deck rules of bout, so no game '
        "is played with it",
    ]
    assert "expected: match: best of 3" in result.output
    assert 'it is refused for E605 "Deck" has 4 cards; it needs at least 12 (line 18); ' \
           'a ruling expects that with: deck "Tiny" is refused: E605' in result.output
    assert result.output.endswith("0 passed, 3 failed\n")
