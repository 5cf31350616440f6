"""Messages that name the real cause (issue 22): one mistake is reported once,
at its line, with what was meant, and not as the errors that follow from it
elsewhere; what the language expected is said in words a designer types; a
word the language has only in other sentences is not "corrected" to another.

The rules-file and card-file cases are written into a copy of the Duel
fixture game (tests/fixtures/engine); the card-text cases use RYFT, a
shipped game, through ``cardrules explain``."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from errors_support import FIXTURES, at_repo_root, pin  # noqa: F401  (autouse fixture)
from interpreter.cli import main
from interpreter.language.games import load_game
from interpreter.language.vocabulary import terminal_word


@pytest.fixture
def duel(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "engine", root)
    return root


def _edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_declaration_without_its_colon_is_reported_at_its_line_and_read_as_meant(duel):
    # "counter Synergy per player, ..." took the whole line as the counter's
    # name: nothing at the line, and 24 errors where the counter is used
    rules = duel / "rules" / "duel.rules"
    _edit(rules, "counter Mana: per player, starts at 0", "counter Mana per player, starts at 0")
    _edit(rules, "zone hand: per player, private, hand", "zone hand per player, private, hand")
    problems = load_game("duel", duel).problems
    path = str(rules)
    assert len(problems) == 2, "\n".join(p.render() for p in problems)
    hand, mana = problems
    pin(hand, "E102", path, 8, 10, 'missing colon after the zone name "hand"',
        ("zone hand: per player, private, hand",))
    pin(mana, "E102", path, 14, 13, 'missing colon after the counter name "Mana"',
        ("counter Mana: per player, starts at 0",))
    assert mana.render() == (
        f'{path}:14:13: E102 missing colon after the counter name "Mana"\n'
        "  14 | counter Mana per player, starts at 0\n"
        "     |             ^\n"
        "  expected: counter Mana: per player, starts at 0")


CARD = '''card "Shallow Scholar"
  kind: Creature
  cost: 1
  power: 1
  text:
  When this is played: Draw a card.
  When this is played: Draw a crad.
'''


def test_card_text_indented_as_the_fields_is_reported_as_indentation(duel):
    # it was "unknown stat" for the first line of text (and one more per line)
    cards = duel / "cards" / "duel" / "shallow.cards"
    cards.write_text(CARD, encoding="utf-8")
    game = load_game("duel", duel)
    path = str(cards)
    problems = [p for p in game.problems if p.span.path == path]
    assert len(problems) == 2, "\n".join(p.render() for p in problems)
    indented, typo = problems
    pin(indented, "E101", path, 6, 3, 'bad indentation: card text goes on the lines under '
        '"text:", indented 2 spaces more than it',
        ('the text indented to column 5 ("text:" on line 5 is at column 3)',))
    assert indented.source_line == "  When this is played: Draw a card."
    # the text is read as the card's text: its own mistakes are still found
    assert (typo.code, typo.span.line, typo.message) == ("E201", 7, 'unexpected word "crad"')
    assert len(game.cards["Shallow Scholar"].abilities) == 1


def explain(text: str):
    result = CliRunner().invoke(main, ["explain", "ryft", text])
    assert "Traceback" not in result.output
    return result


def test_what_was_expected_is_words_a_designer_types_and_a_keyword_is_suggested_whole():
    result = explain("Dobule Strike")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[:3] == ['<text>:1:1: E201 unexpected word "Dobule"', "  1 | Dobule Strike",
                         "    | ^^^^^^"]
    expected = lines[3]
    assert "a keyword (Double Strike, Immune, Intimidate, shadow strike, ...)" in expected
    assert "a verb (Connect, Quick-Summon, Reset, Revive, ...)" in expected
    # words that start alike once, no stat value twice ("[basic]" beside "BASIC"),
    # no count of grammar alternatives
    assert 'words such as "a ...", "add ...", "after", ' in expected
    assert "[basic]" not in expected and "(?" not in expected
    assert expected.endswith(" more (docs/language.md has every form)")
    assert lines[4] == '  did you mean "Double Strike"?'


def test_a_terminal_of_several_spellings_is_shown_as_a_designer_types_it():
    # it was shown as "(?:(?i:defends again against)|..."
    assert terminal_word(r"(?:(?i:defends\ again\ against)|(?i:defend\ again\ against))") \
        == "defend again against"
    assert terminal_word(r"the other(?=\s+(?:on|onto|into|to|in)\b)") == "the other"
    assert terminal_word(r"(?i:Double\ Strike)(?![\w-])") == "Double Strike"
    assert terminal_word(r"(?:attacks?|defends?)") is None


def test_a_word_the_language_has_only_in_other_sentences_is_said_so():
    # "unless" was "did you mean "uses"?" after a comma ("Draw a card unless
    # ..." and "Gain 2 Life Force unless ..." read now: a tax on the step; a
    # shuffle has none)
    for text, column in (("Draw a card, unless your Rival pays 10 Life Force.", 14),
                         ("Shuffle your deck unless your Rival discards a card.", 19)):
        result = explain(text)
        assert result.exit_code == 1
        lines = result.output.splitlines()
        assert lines[0] == (f'<text>:1:{column}: E201 "unless" is not in the language in '
                            'this form: the card language has "unless" only in other '
                            "sentences")
        assert lines[-1] == "  docs/language.md lists the forms of sentences"
        assert "did you mean" not in result.output
