"""The exact error messages for mistakes in card files, in all four games.

Fixture roots: tests/fixtures/<game>/ (a copy of the shipped rules and core
cards, plus small card files with one mistake per card). Tests marked xfail
assert the behaviour the checker SHOULD have; each reason names the bug.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from duel_support import duel_copy
from errors_support import (  # noqa: F401  (at_repo_root is an autouse fixture)
    at_repo_root,
    assert_inside,
    card_file,
    pin,
    problems_in,
    problems_of,
    text_at,
    the_problem,
)
from interpreter.cli import main
from interpreter.errors import CardrulesError
from interpreter.language.cards import load_cards
from interpreter.language.game_rules import parse_ability
from interpreter.language.games import load_game
from interpreter.source import SourceText

RYFT_EFFECTS = card_file("ryft", "effects.cards")
RYFT_STATS = card_file("ryft", "stats.cards")
RYFT_LAYOUT = card_file("ryft", "layout.cards")
SWR = card_file("silver-wing-rivals", "mistakes.cards")
RR = card_file("rival-rush", "mistakes.cards")
SW = card_file("saturday-wars", "mistakes.cards")


def ryft(path: str = RYFT_STATS):
    return problems_in("ryft", "ryft", path)


# ---------------------------------------------------------------- layout (E1xx)


def checked(cards: Path, text: str, game: str):
    """``cards`` written with ``text``, then `cardrules check --game GAME` on it."""
    cards.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["check", "--game", game, str(cards)])


def checked_duel_text(cards: Path, text: str, kind: str = "Sorcery"):
    """An Arcane Duel card of ``kind`` (its lines after "kind:") whose text is
    ``text``, checked; for a Sorcery the text is on line 7, column 5."""
    return checked(cards, f'card "Odd Card"\n  kind: {kind}\n  colour: Flame\n  pips: 1\n'
                   f'  generic: 1\n  text:\n    {text}\n', "arcane-duel")


def test_bad_indentation_lines_up_with_nothing():
    p = the_problem(ryft(RYFT_LAYOUT), RYFT_LAYOUT, 5, "E101")
    pin(p, "E101", RYFT_LAYOUT, 5, 1,
        "bad indentation: this line starts at column 3, which lines up with no line above it",
        ("a line starting at column 1 or 5",))
    assert p.render() == (
        f"{RYFT_LAYOUT}:5:1: E101 bad indentation: this line starts at column 3, "
        "which lines up with no line above it\n"
        "  5 |   synergy: 1\n"
        "    | ^^\n"
        "  expected: a line starting at column 1 or 5")


def test_tab_in_indentation():
    p = the_problem(ryft(RYFT_LAYOUT), RYFT_LAYOUT, 11, "E104")
    pin(p, "E104", RYFT_LAYOUT, 11, 1, "a tab in the indentation; indent with spaces")
    assert p.render() == (
        f"{RYFT_LAYOUT}:11:1: E104 a tab in the indentation; indent with spaces\n"
        "  11 |  synergy: 1\n"
        "     | ^")


def test_unclosed_quote_in_card_heading():
    p = the_problem(ryft(RYFT_LAYOUT), RYFT_LAYOUT, 15)
    pin(p, "E103", RYFT_LAYOUT, 15, 6,
        "unclosed quote: a quoted name must end on the same line",
        ('a closing " on this line',))
    assert p.render() == (
        f"{RYFT_LAYOUT}:15:6: E103 unclosed quote: a quoted name must end on the same line\n"
        '  15 | card "Unclosed Code\n'
        "     |      ^^^^^^^^^^^^^^\n"
        '  expected: a closing " on this line')
    # the card's indented lines are skipped with it: no follow-on problems
    assert [q for q in ryft(RYFT_LAYOUT) if 15 <= q.span.line <= 19] == [p]


def test_unclosed_curly_quote_in_card_heading():
    p = the_problem(problems_in("saturday-wars", "saturday-wars", SW), SW, 33)
    pin(p, "E103", SW, 33, 6, "unclosed quote: a quoted name must end on the same line",
        ("a closing \u201d on this line",))
    assert text_at(p) == "\u201cCurly Apprentice"


def test_lines_nested_too_deep():
    path = card_file("ryft", "deep.cards")
    problems = ryft(path)
    p = the_problem(problems, path, 53, "E107")
    pin(p, "E107", path, 53, 1, "lines are nested more than 50 levels deep",
        ("at most 50 levels",))
    assert [q.code for q in problems] == ["E107", "E404"]  # the card really has no kind


def test_indented_line_after_a_comment_has_nothing_to_belong_to():
    path = card_file("ryft", "indented.cards")
    problems = ryft(path)
    assert [q.code for q in problems] == ["E101"]
    assert problems[0].message == ("bad indentation: this line is indented but there "
                                   "is no line above it to belong to")
    assert problems[0].expected == ("no indentation",)


def test_indented_line_after_a_comment_is_positioned_on_that_line():
    path = card_file("ryft", "indented.cards")
    p = the_problem(ryft(path), path, 2, "E101")
    assert (p.span.line, p.span.column) == (2, 1)


def test_indented_first_line_is_bad_indentation():
    path = card_file("ryft", "indented_first.cards")
    problems = ryft(path)
    assert [q.code for q in problems] == ["E101"]
    pin(problems[0], "E101", path, 1, 1, "bad indentation: this line is indented but "
        "there is no line above it to belong to", ("no indentation",))


def test_over_indented_stat_line_is_bad_indentation():
    problems = ryft(RYFT_LAYOUT)
    p = the_problem(problems, RYFT_LAYOUT, 30, "E101")
    assert p.message.startswith("bad indentation")
    assert not [q for q in problems if q.code == "E407" and q.span.line == 27]


@pytest.mark.parametrize("heading_line", [3, 9], ids=["bad-dedent", "tab"])
def test_layout_error_does_not_report_written_stats_as_missing(heading_line):
    problems = ryft(RYFT_LAYOUT)
    cascade = [q for q in problems if q.code == "E407" and q.span.line == heading_line]
    assert cascade == []


def test_colon_without_a_name():
    p = the_problem(ryft(RYFT_LAYOUT), RYFT_LAYOUT, 23)
    pin(p, "E102", RYFT_LAYOUT, 23, 3, "a colon needs a name before it", ("a name, then ':'",))


def test_colon_without_a_name_is_reported_where_it_is():
    # what is right today: one problem, on the colon
    p = the_problem(ryft(RYFT_LAYOUT), RYFT_LAYOUT, 23)
    assert (p.span.line, p.span.column) == (23, 3)
    assert text_at(p) == ":"


def test_missing_colon_after_a_stat_name():
    p = the_problem(ryft(), RYFT_STATS, 9, "E102")
    pin(p, "E102", RYFT_STATS, 9, 3, 'missing colon after "AP"', ("AP: 40",))
    assert p.render() == (
        f'{RYFT_STATS}:9:3: E102 missing colon after "AP"\n'
        "  9 |   AP 40\n"
        "    |   ^^^^^\n"
        "  expected: AP: 40")


@pytest.mark.parametrize("path,heading_line", [(RYFT_STATS, 3), (SWR, 14)],
                         ids=["ryft-AP", "swr-signature-type"])
def test_missing_colon_is_not_also_a_missing_stat(path, heading_line):
    game = "ryft" if path == RYFT_STATS else "silver-wing-rivals"
    problems = problems_in(game, game, path)
    assert not [q for q in problems if q.code == "E407" and q.span.line == heading_line]


def test_missing_colon_after_a_two_word_stat():
    p = the_problem(problems_in("silver-wing-rivals", "silver-wing-rivals", SWR), SWR, 16,
                    "E102")
    pin(p, "E102", SWR, 16, 3, 'missing colon after "signature type"',
        ("signature type: Attack",))


# ---------------------------------------------------------------- effect text (E2xx)


def test_unknown_verb_in_effect_text():
    p = the_problem(ryft(RYFT_EFFECTS), RYFT_EFFECTS, 23)
    # a verb the game does not have: how to declare it, not a word that looks alike
    pin(p, "E201", RYFT_EFFECTS, 23, 29, 'unexpected word "Frobnicate"', expected=None,
        suggestion='"Frobnicate" is not a verb of this game (its verbs: Reset, Quick-Summon '
                   '{card}, Revive {card}, Connect {card}, Sacrifice {card}); its rules file '
                   'may declare it: verb "Frobnicate {card}": <its steps>')
    assert "a verb (Connect, Quick-Summon, Reset, Revive, ...)" in p.expected
    assert p.render().splitlines()[:3] == [
        f'{RYFT_EFFECTS}:23:29: E201 unexpected word "Frobnicate"',
        "  23 |     ABILITY: Pay 1 Synergy: Frobnicate a Being your Rival controls.",
        "     |                             ^^^^^^^^^^",
    ]


@pytest.mark.parametrize("text, suggestion", [
    ("Scry 2.", 'verb "Scry {n}": <its steps>'),
    ("Draw a card. Mill 2.", 'verb "Mill {n}": <its steps>'),
    # a verb of the game misspelled: the verb itself
    ("Sacrifce a Creature.", 'did you mean "Sacrifice"?'),
    # a word of the language misspelled: that word
    ("Destory a Creature.", 'did you mean "destroy"?'),
    # a word of the language that only looks alike is no misspelling of it
    ("Exile a Creature.", 'verb "Exile {card}": <its steps>'),
])
def test_a_verb_the_game_does_not_have_says_how_to_declare_it(text, suggestion):
    rules = load_game("arcane-duel").rules
    with pytest.raises(CardrulesError) as error:
        parse_ability(rules, text)
    assert error.value.problems[0].suggestion.endswith(suggestion)
    assert "Sorcery" not in error.value.problems[0].suggestion


def test_unclosed_quote_in_effect_text():
    p = the_problem(ryft(RYFT_EFFECTS), RYFT_EFFECTS, 61)
    pin(p, "E201", RYFT_EFFECTS, 61, 23,
        "unclosed quote: a card name must end with a closing quote", expected=None)
    assert p.expected[0] == "a card name in quotes"
    assert p.render().splitlines()[:3] == [
        f"{RYFT_EFFECTS}:61:23: E201 unclosed quote: a card name must end with a closing quote",
        '  61 |     INFINITE: Destroy "Cinderpup.',
        "     |                       ^",
    ]


def test_unclosed_quote_after_a_verb_in_effect_text():
    p = the_problem(ryft(RYFT_EFFECTS), RYFT_EFFECTS, 45)
    pin(p, "E203", RYFT_EFFECTS, 45, 21, '"Revive {card}" is not complete: unclosed quote: '
        "a card name must end with a closing quote", expected=None)
    assert p.expected[0] == "a card name in quotes"
    assert text_at(p) == '"'


def test_misspelt_timing_label():
    p = the_problem(ryft(RYFT_EFFECTS), RYFT_EFFECTS, 12)
    pin(p, "E301", RYFT_EFFECTS, 12, 5, 'unknown timing label "TRIGER"',
        ("a timing label (ABILITY, DEFEND, INFINITE, REVENGE, TRIGGER, VOID CALL)",),
        'did you mean "TRIGGER"?')
    assert p.render() == (
        f'{RYFT_EFFECTS}:12:5: E301 unknown timing label "TRIGER"\n'
        "  12 |     TRIGER: When this is Summoned: Draw a card.\n"
        "     |     ^^^^^^\n"
        "  expected: a timing label (ABILITY, DEFEND, INFINITE, REVENGE, TRIGGER, VOID CALL)\n"
        '  did you mean "TRIGGER"?')


def test_unknown_timing_label_rival_rush():
    p = the_problem(problems_in("rival-rush", "rival-rush", RR), RR, 46)
    pin(p, "E301", RR, 46, 5, 'unknown timing label "DASH"',
        ("a timing label (INSTINCT, REQUIRES)",))


def test_verb_without_its_number():
    # Silver Wing Rivals: "Stockpile {n}" written "Stockpile."
    p = the_problem(problems_in("silver-wing-rivals", "silver-wing-rivals", SWR), SWR, 7)
    pin(p, "E203", SWR, 7, 40, '"Stockpile {n}" is not complete: unexpected "."',
        ("a number", '"its"', '"that many"', '"that much"', '"X"'))
    assert p.render() == (
        f'{SWR}:7:40: E203 "Stockpile {{n}}" is not complete: unexpected "."\n'
        "  7 |     YOUR MOVE: Pay 1 Crystal: Stockpile.\n"
        "    |                                        ^\n"
        '  expected: a number, "its", "that many", "that much", "X"')


def test_effect_error_on_continuation_line_is_positioned_there():
    problems = problems_in("saturday-wars", "saturday-wars", SW)
    p = [q for q in problems if q.message == 'unexpected word "flurble"'][0]
    assert (p.span.line, p.span.column) == (42, 12)
    assert_inside(p)


# ---------------------------------------------------------------- names (E3xx)


def test_unknown_card_kind_ryft():
    p = the_problem(ryft(), RYFT_STATS, 59)
    pin(p, "E302", RYFT_STATS, 59, 9, 'unknown card kind "Monster"', ("Being, Code, Matrix",))


def test_unknown_card_kind_with_suggestion_saturday_wars():
    p = the_problem(problems_in("saturday-wars", "saturday-wars", SW), SW, 29)
    pin(p, "E302", SW, 29, 9, 'unknown card kind "Plot Twists"',
        ("Chapter, Character, Plot Twist, Story Arc, Upgrade",), 'did you mean "Plot Twist"?')
    assert p.render() == (
        f'{SW}:29:9: E302 unknown card kind "Plot Twists"\n'
        "  29 |   kind: Plot Twists\n"
        "     |         ^^^^^^^^^^^\n"
        "  expected: Chapter, Character, Plot Twist, Story Arc, Upgrade\n"
        '  did you mean "Plot Twist"?')


def test_unknown_stat_for_a_kind():
    p = the_problem(ryft(), RYFT_STATS, 46)
    pin(p, "E303", RYFT_STATS, 46, 3, 'unknown stat "power" for a Being',
        ("alt. summon, AP, connection, domain, HP, rank, synergy, text, type",))


def test_stat_of_another_kind():
    path = card_file("ryft", "three.cards")
    p = the_problem(ryft(path), path, 26)
    pin(p, "E303", path, 26, 3, 'unknown stat "AP" for a Code',
        ("code type, domain, synergy, text",))


def test_unknown_block_of_a_double_sided_card_lists_the_faces():
    p = the_problem(problems_in("rival-rush", "rival-rush", RR), RR, 40, "E303")
    assert "up" in p.expected[0].split(", ") and "down" in p.expected[0].split(", ")


def test_unknown_block_of_a_double_sided_card():
    p = the_problem(problems_in("rival-rush", "rival-rush", RR), RR, 40, "E303")
    assert (p.code, p.span.line, p.span.column, p.message) == (
        "E303", 40, 3, 'unknown stat "sideways" for a Segment')


def test_timing_the_kind_cannot_have_ryft():
    p = the_problem(ryft(RYFT_EFFECTS), RYFT_EFFECTS, 53)
    pin(p, "E304", RYFT_EFFECTS, 53, 5, "a Code cannot have TRIGGER abilities",
        ("INFINITE, VOID CALL",))
    assert p.render() == (
        f"{RYFT_EFFECTS}:53:5: E304 a Code cannot have TRIGGER abilities\n"
        "  53 |     TRIGGER: When this is Summoned: Draw a card.\n"
        "     |     ^^^^^^^\n"
        "  expected: INFINITE, VOID CALL")


def test_timing_the_kind_cannot_have_saturday_wars():
    p = the_problem(problems_in("saturday-wars", "saturday-wars", SW), SW, 7)
    pin(p, "E304", SW, 7, 5, "a Chapter cannot have ACTION abilities",
        ("EPILOGUE, NARRATIVE, PROLOGUE",))


def test_timing_the_kind_cannot_have_silver_wing_rivals_position():
    p = the_problem(problems_in("silver-wing-rivals", "silver-wing-rivals", SWR), SWR, 27)
    assert (p.code, p.span.line, p.span.column, p.span.end_column) == ("E304", 27, 5, 14)
    assert p.expected == ("ATTACK, CONSTANT, DEFEND",)
    assert text_at(p) == "YOUR MOVE"


def test_timing_the_kind_cannot_have_article():
    p = the_problem(problems_in("silver-wing-rivals", "silver-wing-rivals", SWR), SWR, 27)
    assert p.message == "an Ally cannot have YOUR MOVE abilities"


def test_unknown_card_reference_in_effect_text():
    p = the_problem(ryft(RYFT_EFFECTS), RYFT_EFFECTS, 34)
    pin(p, "E305", RYFT_EFFECTS, 34, 36, 'unknown card "Nobody Here"')
    assert text_at(p) == '"Nobody Here"'
    assert p.render() == (
        f'{RYFT_EFFECTS}:34:36: E305 unknown card "Nobody Here"\n'
        '  34 |     ABILITY: Pay 2 Synergy: Revive "Nobody Here".\n'
        "     |                                    ^^^^^^^^^^^^^")


def test_unknown_card_reference_with_suggestion():
    p = the_problem(problems_in("silver-wing-rivals", "silver-wing-rivals", SWR), SWR, 33)
    pin(p, "E305", SWR, 33, 40, 'unknown card "Kael Ashwynd"',
        suggestion='did you mean "Kael Ashwind"?')
    assert text_at(p) == '"Kael Ashwynd"'


def test_unknown_card_in_a_card_names_stat():
    p = the_problem(ryft(), RYFT_STATS, 88)
    pin(p, "E305", RYFT_STATS, 88, 16, 'unknown card "Cinderpupp"',
        suggestion='did you mean "Cinderpup"?')
    assert p.render() == (
        f'{RYFT_STATS}:88:16: E305 unknown card "Cinderpupp"\n'
        '  88 |   alt. summon: "Cinderpupp"\n'
        "     |                ^^^^^^^^^^^^\n"
        '  did you mean "Cinderpup"?')


# ---------------------------------------------------------------- card definitions (E4xx)


def test_heading_that_does_not_start_a_card():
    p = the_problem(ryft(), RYFT_STATS, 71)
    pin(p, "E401", RYFT_STATS, 71, 1, '"monster" does not start a card',
        ('card "Name"', 'token "Name"', 'being "Name"', 'matrix "Name"', 'code "Name"'))


def test_card_heading_without_a_quoted_name():
    p = the_problem(ryft(), RYFT_STATS, 65)
    pin(p, "E402", RYFT_STATS, 65, 1, "a card needs its name in quotes", ('card "Name"',))
    assert p.render() == (
        f"{RYFT_STATS}:65:1: E402 a card needs its name in quotes\n"
        "  65 | card Nameless\n"
        "     | ^^^^^^^^^^^^^\n"
        '  expected: card "Name"')


def test_card_heading_with_a_colon():
    p = the_problem(ryft(), RYFT_STATS, 74)
    pin(p, "E403", RYFT_STATS, 74, 1,
        "a card's heading has no colon; its fields go on the indented lines below it",
        ('card "Colon Head"',))


def test_card_without_a_kind():
    p = the_problem(ryft(), RYFT_STATS, 62)
    pin(p, "E404", RYFT_STATS, 62, 1, 'card "Kindless Wyrm" has no kind',
        ("kind: Being, Code, Matrix",))


def test_stat_given_twice():
    p = the_problem(ryft(), RYFT_STATS, 55)
    pin(p, "E405", RYFT_STATS, 55, 3, '"AP" is given twice')
    assert p.render() == (
        f'{RYFT_STATS}:55:3: E405 "AP" is given twice\n'
        "  55 |   AP: 50\n"
        "     |   ^^^^^^")


def test_double_sided_card_missing_a_face():
    p = the_problem(problems_in("rival-rush", "rival-rush", RR), RR, 3)
    pin(p, "E406", RR, 3, 1, 'card "One-Sided Segment" is missing its "down" face',
        ("down:",))


def test_missing_required_stat():
    p = the_problem(ryft(), RYFT_STATS, 30)
    pin(p, "E407", RYFT_STATS, 30, 1, 'card "Frail Wyrm" is missing required stat HP',
        ("HP: ...",))
    assert p.render() == (
        f'{RYFT_STATS}:30:1: E407 card "Frail Wyrm" is missing required stat HP\n'
        '  30 | card "Frail Wyrm"\n'
        "     | ^^^^^^^^^^^^^^^^^\n"
        "  expected: HP: ...")


def test_face_missing_a_required_stat():
    p = the_problem(problems_in("rival-rush", "rival-rush", RR), RR, 37)
    pin(p, "E407", RR, 37, 3, "face down is missing required stat bonus", ("bonus: ...",))


def test_stat_without_a_value():
    p = the_problem(problems_in("rival-rush", "rival-rush", RR), RR, 29)
    pin(p, "E408", RR, 29, 3, 'stat "moves" has no value', ("moves: VALUE",))


def test_number_stat_given_a_word_ryft():
    p = the_problem(ryft(), RYFT_STATS, 15)
    pin(p, "E409", RYFT_STATS, 15, 12, 'stat "synergy" must be a number, not "two"',
        ("a whole number such as 3",))
    assert p.render() == (
        f'{RYFT_STATS}:15:12: E409 stat "synergy" must be a number, not "two"\n'
        "  15 |   synergy: two\n"
        "     |            ^^^\n"
        "  expected: a whole number such as 3")


def test_number_stat_given_a_word_saturday_wars():
    p = the_problem(problems_in("saturday-wars", "saturday-wars", SW), SW, 25)
    pin(p, "E409", SW, 25, 15, 'stat "purge cost" must be a number, not "X"',
        ("a whole number such as 3",))


def test_value_not_in_the_stats_set_ryft():
    p = the_problem(ryft(), RYFT_STATS, 25)
    pin(p, "E410", RYFT_STATS, 25, 11, '"FIRE" is not a domain',
        ("AETHER, BLAZE, STORM, TIDE, UMBRA, VERDANT",))
    assert p.render() == (
        f'{RYFT_STATS}:25:11: E410 "FIRE" is not a domain\n'
        "  25 |   domain: FIRE\n"
        "     |           ^^^^\n"
        "  expected: AETHER, BLAZE, STORM, TIDE, UMBRA, VERDANT")


def test_value_not_in_the_stats_set_with_suggestion_saturday_wars():
    p = the_problem(problems_in("saturday-wars", "saturday-wars", SW), SW, 11)
    pin(p, "E410", SW, 11, 12, '"Apple Red" is not a faction',
        ("Apple Black, Bully Eater, Clock Striker, Hammer, Soul Beat",),
        'did you mean "Apple Black"?')


def test_value_not_in_an_inline_set_silver_wing_rivals():
    p = the_problem(problems_in("silver-wing-rivals", "silver-wing-rivals", SWR), SWR, 20)
    pin(p, "E410", SWR, 20, 17, '"Sneaky" is not a support type',
        ("Battlefield, Normal, Response",))


@pytest.mark.parametrize("game,path,line,message,word", [
    ("silver-wing-rivals", SWR, 11, '"green" is not a colors value', "green"),
    ("rival-rush", RR, 24, '"Kick" is not a moves value', "Kick"),
    ("saturday-wars", SW, 18, '"Wizard" is not a traits value', "Wizard"),
], ids=["swr-colors", "rr-flex-move", "sw-traits"])
def test_value_not_in_the_set_of_a_list_stat(game, path, line, message, word):
    p = the_problem(problems_in(game, game, path), path, line, "E410")
    assert (p.code, p.span.path, p.span.line, p.message) == ("E410", path, line, message)
    assert word in text_at(p)
    assert_inside(p)


@pytest.mark.parametrize("game,path,line,word", [
    ("silver-wing-rivals", SWR, 11, "green"),
    ("rival-rush", RR, 24, "Kick"),
    ("saturday-wars", SW, 18, "Wizard"),
], ids=["swr-colors", "rr-flex-move", "sw-traits"])
def test_value_not_in_the_set_of_a_list_stat_points_at_the_value(game, path, line, word):
    p = the_problem(problems_in(game, game, path), path, line, "E410")
    assert text_at(p) == word


def test_exchange_without_arrow():
    p = the_problem(problems_in("rival-rush", "rival-rush", RR), RR, 14)
    pin(p, "E411", RR, 14, 14, '"primary" needs a cost and a reward separated by ->',
        ("primary: A B -> reward",))
    assert p.render() == (
        f'{RR}:14:14: E411 "primary" needs a cost and a reward separated by ->\n'
        "  14 |     primary: Jump Punch\n"
        "     |              ^^^^^^^^^^\n"
        "  expected: primary: A B -> reward")


def test_duplicate_card_names_across_files():
    p = the_problem(ryft(), RYFT_STATS, 90)
    pin(p, "E412", RYFT_STATS, 90, 1, 'duplicate card name "Misspelt Pup" (first defined at '
        f"{RYFT_EFFECTS}:3)")


# ---------------------------------------------------------------- whole files


def test_every_mistake_of_a_file_in_one_run():
    path = card_file("ryft", "three.cards")
    problems = ryft(path)
    assert [(q.code, q.span.line, q.span.column) for q in problems] == [
        ("E409", 10, 7), ("E410", 14, 9), ("E303", 26, 3)]
    assert [q.message for q in problems] == [
        'stat "HP" must be a number, not "lots"', '"LEGEND" is not a rank',
        'unknown stat "AP" for a Code']


def test_empty_card_file_and_comment_only_deck_file_are_valid():
    problems = problems_of("ryft", "ryft")
    quiet = (card_file("ryft", "empty.cards"), card_file("ryft", "decks/empty.deck"))
    assert [q for q in problems if q.span and q.span.path in quiet] == []


def test_fixture_roots_use_the_shipped_rules_and_core_cards_cleanly():
    # rules/<game>.rules and cards/<game>/core.cards of each fixture root are
    # symlinks to the shipped files: only the fixture's own files have problems
    for game in ("ryft", "silver-wing-rivals", "rival-rush", "saturday-wars"):
        paths = {q.span.path for q in problems_of(game, game)}
        assert all(path.startswith(f"tests/fixtures/{game}/cards/{game}/") for path in paths)
        assert not any(path.endswith("core.cards") for path in paths)


def test_all_card_file_problems_lie_inside_their_files():
    known_bad = {(SW, 41)}  # see test_effect_error_on_continuation_line_is_positioned_there
    for game in ("ryft", "silver-wing-rivals", "rival-rush", "saturday-wars"):
        for q in problems_of(game, game):
            if (q.span.path, q.span.line) not in known_bad:
                assert_inside(q)


def test_a_kind_line_without_its_colon_is_reported_there_and_read_as_meant():
    # not "card has no kind" at the heading: the cause, at its line, once;
    # the rest of the card is still checked with that kind
    text = ('card "Colonless"\n  kind Being\n  rank: BASIC\n  synergy: 1\n  domain: TIDE\n'
            '  type: Spirit\n  AP: lots\n  HP: 30\n')
    loaded = load_cards(SourceText("colonless.cards", text), load_game("ryft").rules)
    assert [(p.code, p.span.line, p.span.column, p.message) for p in loaded.problems] == [
        ("E102", 2, 3, 'missing colon after "kind"'),
        ("E409", 7, 7, 'stat "AP" must be a number, not "lots"')]
    assert loaded.problems[0].expected == ("kind: Being",)


def test_a_card_left_out_for_its_kind_is_not_also_called_unknown_by_its_decks(tmp_path):
    # the card has one problem (its kind); the decks holding it are not told
    # it does not exist as well (no cascade of E305 for one mistake)
    runner = CliRunner()
    with runner.isolated_filesystem(temp_dir=tmp_path):
        assert runner.invoke(main, ["new", "mygame"]).exit_code == 0
        cards = "mygame/cards/mygame/core.cards"
        text = open(cards).read()
        assert 'card "Scout"\n  kind: Creature\n' in text
        open(cards, "w").write(text.replace('card "Scout"\n  kind: Creature\n',
                                            'card "Scout"\n  kind: Creatur\n'))
        result = runner.invoke(main, ["check", "mygame"])
    assert result.exit_code == 1
    assert "E302 unknown card kind \"Creatur\"" in result.output
    assert "E305" not in result.output
    assert "1 problem in" in result.output


def test_a_word_of_other_card_games_suggests_the_language_s_own():
    # "dies" is no misspelling of a word the language has ("lifes" was
    # suggested): the language's own phrase is, and it reads (Arcane Duel
    # declares "dies" since 6.14; Pocket League's word is "knocked out")
    runner = CliRunner()
    result = runner.invoke(main, ["explain", "arcane-duel", "Whenever a Creature dies, draw "
                                  "a card."])
    assert result.exit_code == 0, result.output
    for game in ("pocket-league",):
        result = runner.invoke(main, ["explain", game, "Whenever a Creature dies, draw a card."])
        assert result.exit_code == 1, result.output
        assert 'E201 unexpected word "dies"' in result.output
        assert 'did you mean "is destroyed"?' in result.output
        fixed = runner.invoke(main, ["explain", game,
                                     "Whenever a Creature is destroyed, draw a card."])
        assert fixed.exit_code == 0, fixed.output
    # "target" is the language's own now: it reads as "a" (a card chosen)
    result = runner.invoke(main, ["explain", "arcane-duel", "Destroy target Creature."])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "canonical: Destroy a Creature."


def test_a_trigger_on_a_declared_event_nothing_logs_is_refused(tmp_path):
    # a copy of RYFT whose Revive verb forgets its "counts as: revived": the
    # rules file still declares "is Revived", but nothing logs it, and a card
    # watching it would never trigger
    import shutil
    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "rules", tmp_path / "rules")
    shutil.copytree(root / "cards" / "ryft", tmp_path / "cards" / "ryft")
    rules = tmp_path / "rules" / "ryft.rules"
    text = rules.read_text(encoding="utf-8")
    assert text.count("  counts as: revived\n") == 1
    rules.write_text(text.replace("  counts as: revived\n", ""), encoding="utf-8")
    cards = tmp_path / "cards" / "ryft" / "phoenix.cards"
    cards.write_text('card "Phoenix Test"\n  kind: Being\n  rank: BASIC\n  synergy: 1\n'
                     '  domain: BLAZE\n  type: Beast\n  AP: 40\n  HP: 30\n  text:\n'
                     '    TRIGGER: When this is Revived: Draw a card.\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "cards" / "ryft")])
    assert result.exit_code == 1, result.output
    assert f'{cards}:10:5: E820 nothing in ryft makes "is Revived" happen, so this would ' \
        "never trigger" in result.output
    assert 'an action or a verb with "counts as: revived"' in result.output
    # the declaration itself is a warning (W402), which stops nothing
    declared = next(n for n, line in enumerate(rules.read_text(encoding="utf-8").splitlines(), 1)
                    if line.startswith('event "is Revived"'))
    warned = CliRunner().invoke(main, ["check", str(rules)])
    assert warned.exit_code == 0, warned.output
    assert f'{rules}:{declared}:1: W402 nothing in this game makes "is Revived" happen: ' \
        "a card watching it would never trigger" in warned.output
    # the same advice as E820's, word for word (declared_events.logging_advice)
    assert 'give the rules file something that logs it: an action or a verb with "counts ' \
        'as: revived", or a zone with "a card entering it is revived"' in warned.output
    # the shipped rules file logs it (its Revive verb counts as it)
    shipped = CliRunner().invoke(main, ["check", "--game", "ryft", str(cards)])
    assert shipped.exit_code == 0, shipped.output


def test_a_counter_is_listed_once_among_the_words_expected():
    # "Life" as a counter, not "lifes" again among the other words
    text = "Whenever a Creature is put into the discard pile, gain 1 Life."
    result = CliRunner().invoke(main, ["explain", "arcane-duel", text])
    assert result.exit_code == 1, result.output
    expected = next(line for line in result.output.splitlines() if "expected:" in line)
    assert "a counter (Growth, Life)" in expected
    assert "lifes" not in expected.lower() and "growths" not in expected.lower()


def test_an_effect_with_no_moment_on_a_card_whose_text_has_none_is_refused(tmp_path):
    # "Deal 1 damage" alone on a Creature (no label, no "When ...", and no
    # "text happens" on its kind) would never happen: E821, with the way to
    # say when (the battlefield's entry event, the game's timing labels)
    cards = tmp_path / "imp.cards"
    result = checked(cards, 'card "Impatient Imp"\n  kind: Creature\n  colour: Flame\n'
                     '  pips: 1\n  generic: 0\n  power: 1\n  toughness: 1\n  text:\n'
                     '    Deal 1 damage to your Rival.\n', "arcane-duel")
    assert result.exit_code == 1, result.output
    assert f"{cards}:9:5: E821 nothing says when this happens: a Creature's text is not used " \
        "on its own, so this effect would never happen" in result.output
    assert 'start it with a moment ("When this arrives, ...") or a timing label (RESPONSE:, ' \
        "ABILITY:)" in result.output
    # an Instant is used from the hand, it never arrives: its labels only
    instant = tmp_path / "bolt.cards"
    instant.write_text('card "Quick Bolt"\n  kind: Instant\n  colour: Flame\n  pips: 1\n'
                       '  generic: 0\n  text:\n    Deal 1 damage to your Rival.\n',
                       encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--game", "arcane-duel", str(instant)])
    assert f"{instant}:7:5: E821 nothing says when this happens: an Instant's text" in result.output
    assert "start it with a timing label (RESPONSE:, ABILITY:)" in result.output
    assert "arrives" not in result.output
    # a Saturday Wars Character: its kind's own timing labels
    character = tmp_path / "hero.cards"
    character.write_text('card "Eager Hero"\n  kind: Character\n  faction: Apple Black\n'
                         '  purge cost: 2\n  progress value: 1\n  text:\n    Draw a card.\n',
                         encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--game", "saturday-wars", str(character)])
    assert result.exit_code == 1, result.output
    assert f"{character}:7:5: E821" in result.output
    assert "start it with a timing label (ACTION:, PURGE:, ANIMATE:, ENDURING:)" in result.output
    # with its moment it runs
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "    Deal", "    When this arrives, deal"), encoding="utf-8")
    fixed = CliRunner().invoke(main, ["check", "--game", "arcane-duel", str(cards)])
    assert fixed.exit_code == 0, fixed.output


@pytest.mark.parametrize("text, words, hidden", [
    # the grammar's name of a suffix ("while_suffix") is not shown: its words
    ("Each Creature you control gets +1 power while it is exhausted.", '"while ..." here',
     "suffix"),
    ("A Creature you control gains Flying for each Creature you control until the end of "
     "the turn.", '"for each" on a change that is not a number', "suffix"),
    # "and your Rival" / "and 2 damage to X" join a "Deal ... damage" step only
    ("Destroy a Creature and your Rival.",
     'a player after "and" with no "Deal ... damage" step just before it', "more_"),
    ("Draw a card and 2 damage to your Rival.",
     'an amount of damage after "and" with no "Deal ... damage" step', "more_"),
    # "that many" with nothing before it to count
    ("Draw that many cards.", '"that many" with no event replaced', "event_amount"),
    ("Draw a card. For each Creature you control.", '"for each" with no steps after it',
     "for_each"),
    ("Deal 3 damage divided as you choose among each Creature.",
     "damage divided among cards the words name all of", "deal_divided"),
    # a player said to get a change to cards ("they" would be the cards)
    ("Your Rival gets +1 power until end of turn.", 'a change to cards said of a player',
     "player_change"),
])
def test_what_the_engine_cannot_run_is_named_in_words(tmp_path, text, words, hidden):
    cards = tmp_path / "odd.cards"
    result = checked_duel_text(cards, text)
    assert result.exit_code == 1, result.output
    assert re.search(rf"^{re.escape(str(cards))}:7:5: E801 the engine cannot run "
                     rf"{re.escape(words)}.* yet$", result.output, re.M), result.output
    assert hidden not in result.output.replace(str(cards), "")


@pytest.mark.parametrize("game, text, suggestion", [
    ("saturday-wars", "ANIMATE: Look at the top 3 cards of your deck.",
     'did you mean "Shonen Deck" (this game\'s draw pile)?'),
    ("saturday-wars", "ANIMATE: Shuffle your discard into your Shonen Deck.",
     'did you mean "Purge Pile" (this game\'s discard pile)?'),
    ("arcane-duel", "Return a Creature from your discard to your hand.",
     'did you mean "graveyard" (this game\'s discard pile)?'),
    # "tap" / "untap": the verb of the status this game has; "Counter" an effect
    ("arcane-duel", "Tap a Creature your Rival controls.", 'did you mean "exhaust"?'),
    ("silver-wing-rivals", "Tap an Ally your Rival controls.", 'did you mean "rest"?'),
    ("arcane-duel", "Untap all Lands you control.", 'did you mean "ready"?'),
    ("arcane-duel", "Counter target spell.", 'did you mean "nullify"?'),
])
def test_another_games_word_suggests_this_games_word_for_it(game, text, suggestion):
    result = CliRunner().invoke(main, ["explain", game, text])
    assert result.exit_code != 0
    assert result.output.rstrip().splitlines()[-1].strip() == suggestion, result.output
    assert "Traceback" not in result.output


def test_a_card_made_attached_by_a_statement_is_told_the_step(tmp_path):
    # "It is now attached to a Character" reads (the condition "If it is
    # attached to ..." is the same words), but only a step attaches a card
    cards = tmp_path / "glue.cards"
    result = checked(cards, 'card "Glue Trap"\n  kind: Plot Twist\n  faction: Bully Eater\n'
                     '  purge cost: 1\n  text:\n'
                     '    ANIMATE: It is now attached to a Character.\n', "saturday-wars")
    assert result.exit_code == 1, result.output
    assert f'{cards}:6:5: E801 the engine cannot run a card becoming "is attached to a ' \
        'Character"\n' in result.output
    assert 'a step attaches a card: "Attach it to a Character"' in result.output


def test_that_player_with_no_player_named_before_it_is_refused(tmp_path):
    # nothing before "That player" / "They" names a player: it would be you,
    # which is not what the card says; check refuses it at its line
    cards = tmp_path / "taxes.cards"
    result = checked(
        cards, 'card "Bounce Tax"\n  kind: Sorcery\n  pips: 1\n  generic: 1\n  colour: Flame\n'
        '  text:\n    Return a Creature to its owner\'s hand. That player discards a card.\n\n'
        'card "Gift"\n  kind: Sorcery\n  pips: 1\n  generic: 1\n  colour: Flame\n'
        '  text:\n    Draw a card. They lose 1 life.\n\n'
        'card "Fine"\n  kind: Sorcery\n  pips: 1\n  generic: 1\n  colour: Flame\n'
        '  text:\n    Your Rival discards a card. Deal 2 damage to that player.\n',
        "arcane-duel")
    assert result.exit_code == 1, result.output
    message = 'E822 no player is named before "that player" (or "they"), so it would be you'
    assert f"{cards}:7:5: {message}" in result.output
    assert f"{cards}:15:18: {message}\n  15 |     Draw a card. They lose 1 life.\n" \
        "     |                  ^^^^\n" in result.output
    assert 'name the player: "its owner", "its controller", "your Rival", "you"' \
        in result.output
    assert result.output.count("E822") == 2     # "Fine" names the Rival first


def test_an_unknown_period_is_named_with_the_games_periods():
    # "your" stands before every period the grammar takes there: the word
    # wrong is the period after it, and the message lists the game's
    runner = CliRunner()
    result = runner.invoke(main, ["explain", "saturday-wars",
                                  "At the start of your Prolog, draw a card."])
    assert result.exit_code == 1, result.output
    assert result.output.startswith(
        '<text>:1:22: E201 unknown period "Prolog"\n'
        "  1 | At the start of your Prolog, draw a card.\n"
        "    |                      ^^^^^^\n"
        "  expected: a period: Action Phase, Chapter, Chapter End, Epilogue, Prologue\n"
        '  did you mean "Prologue"?\n'), result.output
    # Arcane Duel's Upkeep is a period its cards may name (5.2)
    assert runner.invoke(main, ["explain", "arcane-duel", "At the beginning of your "
                                "upkeep, you lose 1 life."]).exit_code == 0


def test_a_card_to_choose_inside_a_lasting_change_is_told_to_choose_it_first(tmp_path):
    # a step chooses the card its number reads as it begins ("Deal damage
    # equal to the power of a Creature you control ..." runs); the "X" of a
    # change that lasts is read without a step to choose it in
    cards = tmp_path / "pact.cards"
    result = checked_duel_text(cards, "A Creature you control gets +X power until the end of "
                               "the turn, where X is the power of a Creature your Rival "
                               "controls.")
    assert result.exit_code == 1, result.output
    assert f'{cards}:7:5: E801 the engine cannot run a card to choose in "the power of ..." ' \
        'yet\n' in result.output
    assert 'choose the card in a step before: "Choose a Creature your Rival controls. ... ' \
        'equal to its power ..."' in result.output
    runs = checked_duel_text(cards, "Deal damage equal to the power of a Creature you control "
                             "to a Creature your Rival controls.")
    assert runs.exit_code == 0, runs.output


@pytest.mark.parametrize("kind, text, message, suggestion", [
    # a continuous +X would be read whenever the power is: "for each" does that
    ("Creature\n  power: 1\n  toughness: 1", "This gets +X power, where X is the number of "
     "Lands you control.", 'a continuous "+X power"', 'count with "for each"'),
    ("Sorcery", "A Creature you control gets +X power until the end of the turn.",
     '"+X power" with no "where X is ..." in its sentence', 'say what X is'),
])
def test_a_change_by_x_the_engine_cannot_read_says_how_to_write_it(tmp_path, kind, text,
                                                                   message, suggestion):
    result = checked_duel_text(tmp_path / "x.cards", text, kind)
    assert result.exit_code == 1, result.output
    assert f"E801 the engine cannot run {message} yet" in result.output
    assert f"  {suggestion}" in result.output
    assert "Traceback" not in result.output


def test_during_a_period_to_come_before_a_step_is_refused_at_its_line(tmp_path):
    # "During your Rival's next turn, X can't ..." holds a change for that
    # period; a step there has no meaning the engine could give it
    cards = tmp_path / "later.cards"
    result = checked_duel_text(cards, "During your Rival's next turn, draw a card.")
    assert result.exit_code == 1, result.output
    assert f'{cards}:7:' in result.output
    assert 'E801 the engine cannot run "during ..." in an effect before anything but one ' \
        "change to cards" in result.output


def test_a_players_counter_asked_of_a_card_lists_the_counters_cards_keep():
    # "with 5 or more Life" would never hold of a card: Life is a player's
    result = CliRunner().invoke(main, ["explain", "arcane-duel",
                                       "Destroy each Creature with 5 or more Life."])
    assert result.exit_code == 1, result.output
    assert 'E201 "Life" is not in the language in this form' in result.output
    assert "expected: a counter (Growth), a stat (" in result.output


@pytest.mark.parametrize("kind, text, code, where, message, suggestion", [
    # one moment to come on a Creature: the effect waiting for it needs a
    # moment of its own (it read as a trigger at every player's Upkeep)
    ("Creature\n  power: 1\n  toughness: 1", "At the start of your next Upkeep, draw a card.",
     "E821", "9:5", "nothing says when this happens: a Creature's text is not used on its own",
     'start it with a moment ("When this arrives, at the start of your next Upkeep, ...")'),
    # with a colon it is a triggered ability, which would happen at every one
    ("Sorcery", "At the start of your next Upkeep: draw a card.", "E823", "7:21",
     '"at the start of your next Upkeep" is one moment to come, and a triggered ability '
     "happens at every one",
     'an effect waits for it: "At the start of your next Upkeep, ..." in the text of a card '
     "that happens once"),
])
def test_a_moment_to_come_is_an_effects_not_a_triggers(tmp_path, kind, text, code, where,
                                                       message, suggestion):
    cards = tmp_path / "later.cards"
    result = checked_duel_text(cards, text, kind)
    assert result.exit_code == 1, result.output
    assert f"{cards}:{where}: {code} {message}" in result.output
    assert suggestion in result.output


@pytest.mark.parametrize("text, refused", [
    # "if heads" with no coin flipped before it would never hold
    ("When this arrives, if heads, draw a card.", True),
    ("When this arrives, draw a card. If tails, gain 1 Life.", True),
    ("When this arrives, flip a coin. If heads, draw a card.", False),
    ("When this arrives, flip 2 coins. If tails, gain 1 Life.", False),
])
def test_if_heads_needs_a_coin_flipped_before_it(tmp_path, text, refused):
    cards = tmp_path / "coins.cards"
    result = checked_duel_text(cards, text, "Creature\n  power: 1\n  toughness: 1")
    if refused:
        assert result.exit_code == 1, result.output
        assert f"{cards}:9:5: E824 no coin is flipped before" in result.output
        assert 'flip one first: "Flip a coin. If' in result.output
    else:
        assert result.exit_code == 0, result.output


def test_a_verb_that_uses_a_flipping_verb_may_flip(tmp_path):
    # "Bet" flips no coin itself but ends with "Gamble." (punctuation and
    # all), which does: "If heads" after it is not refused
    root = duel_copy(tmp_path, rules_extra='\nverb "Gamble": Flip a coin.\n'
                     'verb "Bet": Draw a card, then Gamble.\n',
                     cards='\ncard "Odd Bet"\n  kind: Creature\n  cost: 1\n  power: 1\n'
                     '  text:\n    When this is played: Bet. If heads, draw a card.\n')
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("text, column, written, name", [
    ("Create two Sprout tokens.", 16, "Sprout", "Sprout"),
    ("Destroy Glade Bear.", 13, "Glade Bear", "Glade Bear"),
    # the name in the plural, as "Return Reef Crabs" writes it
    ("Return Reef Crabs to your hand.", 12, "Reef Crabs", "Reef Crab"),
])
def test_a_card_name_without_its_quotes_is_told_to_quote_it(tmp_path, text, column, written,
                                                            name):
    cards = tmp_path / "names.cards"
    result = checked_duel_text(cards, text)
    assert result.exit_code == 1, result.output
    assert f"{cards}:7:{column}: E201 unexpected word" in result.output
    # the caret covers the whole name as written
    assert "\n    | " + " " * (column - 1) + "^" * len(written) + "\n" in result.output
    assert f'  a card\'s name is written in quotes: "{name}"\n' in result.output
    explained = CliRunner().invoke(main, ["explain", "arcane-duel", text])
    assert explained.exit_code == 1
    assert f'a card\'s name is written in quotes: "{name}"' in explained.output


def test_a_word_that_only_begins_a_card_name_is_not_told_to_quote_it(tmp_path):
    # "Glade" begins "Glade Bear" but is no name: the usual suggestion
    result = checked_duel_text(tmp_path / "names.cards", "Destroy a Glade.")
    assert result.exit_code == 1, result.output
    assert "written in quotes" not in result.output
