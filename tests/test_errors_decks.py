"""The exact error messages for mistakes in deck files and broken deck
construction rules, in all four games.

Each fixture deck (tests/fixtures/<game>/cards/<game>/decks/) is the shipped
starter deck with one change, so it breaks exactly the rule it is named for.
"""

from __future__ import annotations

import pytest

from errors_support import (  # noqa: F401  (at_repo_root is an autouse fixture)
    at_repo_root,
    assert_inside,
    deck_file,
    pin,
    problems_in,
    problems_of,
    text_at,
    the_problem,
)


def deck(game: str, name: str):
    path = deck_file(game, name)
    return path, problems_in(game, game, path)


# ---------------------------------------------------------------- reading deck files


def test_deck_file_heading_that_is_not_a_deck():
    path, problems = deck("ryft", "heading.deck")
    p = the_problem(problems, path, 2)
    pin(p, "E601", path, 2, 1, 'a deck file lists decks, each starting with deck "Name"',
        ('deck "Name"',), 'did you mean "deck"?')
    assert p.render() == (
        f'{path}:2:1: E601 a deck file lists decks, each starting with deck "Name"\n'
        '  2 | decklist "Headless"\n'
        "    | ^^^^^^^^^^^^^^^^^^^\n"
        '  expected: deck "Name"\n'
        '  did you mean "deck"?')


def test_deck_without_a_required_part():
    path, problems = deck("ryft", "heading.deck")
    p = the_problem(problems, path, 6)
    pin(p, "E604", path, 6, 1, 'deck "Partless" has no "Deck"', ('"Deck": ...',))
    assert [q.code for q in problems] == ["E601", "E604"]


def test_unknown_deck_part():
    path, problems = deck("ryft", "lines.deck")
    p = the_problem(problems, path, 26)
    pin(p, "E602", path, 26, 3, 'unknown deck part "Sideboard"', ("Deck",))
    assert text_at(p) == '"Sideboard"'


def test_unknown_card_in_a_deck():
    path, problems = deck("ryft", "lines.deck")
    p = the_problem(problems, path, 5, "E305")
    pin(p, "E305", path, 5, 5, 'unknown card "Cinderpupp"', suggestion='did you mean "Cinderpup"?')
    assert p.render() == (
        f'{path}:5:5: E305 unknown card "Cinderpupp"\n'
        '  5 |     3 "Cinderpupp"\n'
        "    |     ^^^^^^^^^^^^^^\n"
        '  did you mean "Cinderpup"?')


def test_unreadable_deck_line():
    path, problems = deck("ryft", "lines.deck")
    p = the_problem(problems, path, 6)
    pin(p, "E603", path, 6, 5, 'unreadable deck line: two "Blazefang Wyvern"',
        ('N "Card Name"', '"Card Name"'))
    assert text_at(p) == 'two "Blazefang Wyvern"'


def test_deck_line_with_no_copies():
    path, problems = deck("ryft", "lines.deck")
    p = the_problem(problems, path, 7)
    pin(p, "E603", path, 7, 5, "a deck line needs at least 1 copy", ('N "Card Name"',))


def test_every_mistake_of_a_deck_file_in_one_run():
    path, problems = deck("ryft", "lines.deck")
    assert sorted(q.code for q in problems) == ["E305", "E602", "E603", "E603", "E605"]


def test_comment_only_deck_file_is_valid():
    assert deck("ryft", "empty.deck")[1] == []


# ---------------------------------------------------------------- deck construction

# Problems about a whole deck part (size, counts, totals) are placed at the
# part's heading line.

PART_LEVEL = [
    # game, deck, code, message, expected, part heading line, last line of the part
    ("ryft", "too_small.deck", "E605", '"Deck" has 3 cards; it needs at least 40',
     ("exactly 40 cards",), 3, 4),
    ("ryft", "too_large.deck", "E606", '"Deck" has 41 cards; it can have at most 40',
     ("exactly 40 cards",), 3, 25),
    ("saturday-wars", "story.deck", "E605", '"Story Deck" has 4 cards; it needs at least 5',
     ("exactly 5 cards",), 22, 26),
    ("rival-rush", "basic_actions.deck", "E609", '"Deck" has 7 Basic Actions; it needs exactly 8',
     ("exactly 8 Basic Actions",), 3, 19),
    ("rival-rush", "basic_actions.deck", "E605", '"Deck" has 19 cards; it needs at least 20',
     ("exactly 20 cards",), 3, 19),
    ("silver-wing-rivals", "protector.deck", "E609",
     '"Main Deck" has 4 cards with <PROTECTOR>; it needs at most 3',
     ("at most 3 cards with <PROTECTOR>",), 9, 29),
    ("rival-rush", "challenge.deck", "E610",
     'the total challenge of "Segments" is 10; it must be at most 8', ("at most 8",), 20, 24),
]
PART_IDS = ["ryft-too-small", "ryft-too-large", "sw-story-too-small", "rr-8-basic-actions",
            "rr-deck-19", "swr-protector", "rr-total-challenge"]


@pytest.mark.parametrize("game,name,code,message,expected,heading,last", PART_LEVEL,
                         ids=PART_IDS)
def test_deck_part_rule_broken(game, name, code, message, expected, heading, last):
    path, problems = deck(game, name)
    found = [q for q in problems if q.code == code]
    assert len(found) == 1, [q.render() for q in problems]
    p = found[0]
    assert (p.code, p.span.path, p.message, p.expected, p.suggestion) == (
        code, path, message, expected, None)
    assert heading <= p.span.line <= last
    assert_inside(p)


@pytest.mark.parametrize("game,name,code,message,expected,heading,last", PART_LEVEL,
                         ids=PART_IDS)
def test_deck_part_rule_broken_points_at_the_part(game, name, code, message, expected,
                                                  heading, last):
    path, problems = deck(game, name)
    p = [q for q in problems if q.code == code][0]
    assert (p.span.line, p.span.column) == (heading, 3)


def test_deck_part_problems_render():
    path, problems = deck("rival-rush", "challenge.deck")
    assert [q.render() for q in problems] == [
        f'{path}:20:3: E610 the total challenge of "Segments" is 10; it must be at most 8\n'
        '  20 |   Segments:\n'
        "     |   ^^^^^^^^^\n"
        "  expected: at most 8"]


def test_rival_rush_8_basic_actions_breaks_two_rules():
    path, problems = deck("rival-rush", "basic_actions.deck")
    assert sorted(q.code for q in problems) == ["E605", "E609"]


def test_count_rule_message_uses_the_plural():
    path, problems = deck("rival-rush", "basic_actions.deck")
    p = [q for q in problems if q.code == "E609"][0]
    assert p.message == '"Deck" has 7 Basic Actions; it needs exactly 8'


def test_wrong_kind_in_a_deck_part_silver_wing_rivals():
    path, problems = deck("silver-wing-rivals", "kinds.deck")
    p = the_problem(problems, path, 27)
    pin(p, "E607", path, 27, 5,
        '"Standard Stamina" is a Stamina; "Main Deck" may only hold Ally, Support',
        ("Ally, Support",))
    assert p.render() == (
        f'{path}:27:5: E607 "Standard Stamina" is a Stamina; "Main Deck" may only hold '
        "Ally, Support\n"
        '  27 |     1 "Standard Stamina"\n'
        "     |     ^^^^^^^^^^^^^^^^^^^^\n"
        "  expected: Ally, Support")


def test_missing_part_silver_wing_rivals():
    path, problems = deck("silver-wing-rivals", "kinds.deck")
    p = the_problem(problems, path, 2)
    pin(p, "E604", path, 2, 1, 'deck "Mixed" has no "Stamina"', ('"Stamina": ...',))
    assert len(problems) == 2


def test_wrong_kind_in_a_deck_part_saturday_wars():
    path, problems = deck("saturday-wars", "story.deck")
    p = the_problem(problems, path, 13)
    pin(p, "E607", path, 13, 5, '"The Arm Of A God" is a Chapter; "Shonen Deck" may only '
        "hold Character, Plot Twist, Story Arc, Upgrade",
        ("Character, Plot Twist, Story Arc, Upgrade",))


def test_too_many_copies_per_name_ryft():
    path, problems = deck("ryft", "copies.deck")
    assert len(problems) == 1
    pin(problems[0], "E608", path, 5, 5,
        'too many copies: 4 cards share the name "Cinderpup"; at most 3 allowed',
        ("at most 3 per name",))
    assert problems[0].render() == (
        f'{path}:5:5: E608 too many copies: 4 cards share the name "Cinderpup"; '
        "at most 3 allowed\n"
        '  5 |     4 "Cinderpup"\n'
        "    |     ^^^^^^^^^^^^^\n"
        "  expected: at most 3 per name")


def test_too_many_copies_of_a_fancy_action_rival_rush():
    path, problems = deck("rival-rush", "fancy.deck")
    assert len(problems) == 1
    pin(problems[0], "E608", path, 8, 5,
        'too many copies: 2 cards share the name "Wall Jump"; at most 1 allowed',
        ("at most 1 per name",))


def test_too_many_copies_per_title_saturday_wars():
    path, problems = deck("saturday-wars", "titles.deck")
    assert len(problems) == 1
    pin(problems[0], "E608", path, 4, 5,
        'too many copies: 4 cards share the title "Sano"; at most 3 allowed',
        ("at most 3 per title",))
    assert text_at(problems[0]) == '3 "● Sano, Arm Of A God"'


def test_banned_card():
    path, problems = deck("silver-wing-rivals", "banned.deck")
    assert len(problems) == 1
    pin(problems[0], "E611", path, 29, 5, '"Bottomless Stockpile" is banned')
    assert problems[0].render() == (
        f'{path}:29:5: E611 "Bottomless Stockpile" is banned\n'
        '  29 |     1 "Bottomless Stockpile"\n'
        "     |     ^^^^^^^^^^^^^^^^^^^^^^^^")


def test_limited_card_over_its_limit():
    path, problems = deck("silver-wing-rivals", "limited.deck")
    assert len(problems) == 1
    pin(problems[0], "E612", path, 24, 5,
        '"Crystal Overload" is limited to 1 copy; this deck has 2')


def test_all_deck_problems_lie_inside_their_files():
    for game in ("ryft", "silver-wing-rivals", "rival-rush", "saturday-wars"):
        for q in problems_of(game, game):
            if q.span.path.endswith(".deck"):
                assert_inside(q)
