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
    ("silver-wing-rivals", "small_main.deck", "E605",
     '"Main Deck" has 39 cards; it needs at least 40', ("40 to 60 cards",), 9, 29),
    ("silver-wing-rivals", "side_deck.deck", "E606",
     '"Side Deck" has 21 cards; it can have at most 20', ("at most 20 cards",), 30, 39),
]
PART_IDS = ["ryft-too-small", "ryft-too-large", "sw-story-too-small", "rr-8-basic-actions",
            "rr-deck-19", "swr-protector", "rr-total-challenge", "swr-main-too-small",
            "swr-side-too-large"]


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


def test_too_many_copies_of_a_segment_rival_rush():
    path, problems = deck("rival-rush", "segments.deck")
    assert len(problems) == 1
    pin(problems[0], "E608", path, 21, 5,
        'too many copies: 2 cards share the name "Forest Entrance"; at most 1 allowed',
        ("at most 1 per name",))
    assert problems[0].render() == (
        f'{path}:21:5: E608 too many copies: 2 cards share the name "Forest Entrance"; '
        "at most 1 allowed\n"
        '  21 |     1 "Forest Entrance"\n'
        "     |     ^^^^^^^^^^^^^^^^^^^\n"
        "  expected: at most 1 per name")


def test_five_skills_and_three_disrupts_rival_rush():
    # 20 cards, so only the two count rules break, both at the part heading.
    path, problems = deck("rival-rush", "skills.deck")
    assert [(q.code, q.span.line, q.span.column, q.message, q.expected) for q in problems] == [
        ("E609", 3, 3, '"Deck" has 5 Skills; it needs exactly 4', ("exactly 4 Skills",)),
        ("E609", 3, 3, '"Deck" has 3 Disrupts; it needs exactly 4', ("exactly 4 Disrupts",)),
    ]
    for q in problems:
        assert q.suggestion is None
        assert_inside(q)


def test_wrong_kind_as_the_character_rival_rush():
    path, problems = deck("rival-rush", "character.deck")
    assert len(problems) == 1
    pin(problems[0], "E607", path, 25, 14,
        '"Warp Zone" is a Segment; "Character" may only hold Character', ("Character",))
    assert text_at(problems[0]) == '"Warp Zone"'


def test_too_many_copies_per_title_saturday_wars():
    path, problems = deck("saturday-wars", "titles.deck")
    assert len(problems) == 1
    pin(problems[0], "E608", path, 4, 5,
        'too many copies: 4 cards share the title "Sano"; at most 3 allowed',
        ("at most 3 per title",))
    assert text_at(problems[0]) == '3 "● Sano, Arm Of A God"'


def test_too_many_copies_per_name_colors_and_tag_silver_wing_rivals():
    path, problems = deck("silver-wing-rivals", "ally_copies.deck")
    assert len(problems) == 1
    pin(problems[0], "E608", path, 12, 5,
        'too many copies: 4 cards share the name and colors and tag "Sunspark Scout" / '
        'yellow / "Rookie"; at most 3 allowed',
        ("at most 3 per name, colors, tag",))
    assert text_at(problems[0]) == '4 "Sunspark Scout"'


def test_too_many_copies_of_a_support_silver_wing_rivals():
    path, problems = deck("silver-wing-rivals", "support_copies.deck")
    assert len(problems) == 1
    pin(problems[0], "E608", path, 27, 5,
        'too many copies: 4 cards share the name "Mirror Ward"; at most 3 allowed',
        ("at most 3 per name",))


def test_at_most_one_signature():
    path, problems = deck("silver-wing-rivals", "signatures.deck")
    assert len(problems) == 1
    # The expected text reads "at most 1 cards" (no singular); not pinned here.
    pin(problems[0], "E606", path, 4, 3, '"Signature" has 2 cards; it can have at most 1',
        None)
    assert text_at(problems[0]) == "Signature:"


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


# ---------------------------------------------------------------- saturday wars: Story and Shonen Decks


def test_chapter_twice_in_the_story_deck_saturday_wars():
    path, problems = deck("saturday-wars", "story_copies.deck")
    assert len(problems) == 1, [q.render() for q in problems]
    pin(problems[0], "E608", path, 26, 5,
        'too many copies: 2 cards share the title "The Arm Of A God"; at most 1 allowed',
        ("at most 1 per title",))
    assert problems[0].render() == (
        f'{path}:26:5: E608 too many copies: 2 cards share the title "The Arm Of A God"; '
        "at most 1 allowed\n"
        '  26 |     1 "The Arm Of A God"\n'
        "     |     ^^^^^^^^^^^^^^^^^^^^\n"
        "  expected: at most 1 per title")


def test_character_in_the_story_deck_saturday_wars():
    path, problems = deck("saturday-wars", "story_kinds.deck")
    assert len(problems) == 1, [q.render() for q in problems]
    pin(problems[0], "E607", path, 30, 5,
        '"Greater Dragon Student" is a Character; "Story Deck" may only hold Chapter',
        ("Chapter",))
    assert text_at(problems[0]) == '1 "Greater Dragon Student"'


def test_shonen_deck_too_large_saturday_wars():
    path, problems = deck("saturday-wars", "shonen_size.deck")
    assert len(problems) == 1, [q.render() for q in problems]
    pin(problems[0], "E606", path, 3, 3, '"Shonen Deck" has 46 cards; it can have at most 45',
        ("exactly 45 cards",))
    assert_inside(problems[0])


def test_missing_story_deck_saturday_wars():
    path, problems = deck("saturday-wars", "no_story.deck")
    assert len(problems) == 1, [q.render() for q in problems]
    pin(problems[0], "E604", path, 2, 1, 'deck "Untold" has no "Story Deck"',
        ('"Story Deck": ...',))


# ---------------------------------------------------------------- ryft: more deck mistakes


def test_copies_of_one_name_add_up_over_several_lines_ryft():
    path, problems = deck("ryft", "split_copies.deck")
    assert len(problems) == 1, [q.render() for q in problems]
    # Two lines of 2 "Cinderpup" make 4; the problem points at the first line.
    pin(problems[0], "E608", path, 5, 5,
        'too many copies: 4 cards share the name "Cinderpup"; at most 3 allowed',
        ("at most 3 per name",))
    assert text_at(problems[0]) == '2 "Cinderpup"'


def test_each_deck_of_a_file_is_checked_on_its_own_ryft():
    path, problems = deck("ryft", "two_decks.deck")
    # "First" is the legal starter; only "Second" (39 cards) is wrong, and the
    # problem points at its own "Deck" heading, not the first deck's.
    assert len(problems) == 1, [q.render() for q in problems]
    pin(problems[0], "E605", path, 28, 3, '"Deck" has 39 cards; it needs at least 40',
        ("exactly 40 cards",))
    assert problems[0].render() == (
        f'{path}:28:3: E605 "Deck" has 39 cards; it needs at least 40\n'
        '  28 |   "Deck":\n'
        "     |   ^^^^^^^\n"
        "  expected: exactly 40 cards")


def test_card_names_in_decks_are_case_sensitive_ryft():
    path, problems = deck("ryft", "name_case.deck")
    # The unknown line still counts toward the 40 cards: one problem, not two.
    assert [q.code for q in problems] == ["E305"], [q.render() for q in problems]
    p = problems[0]
    assert (p.code, p.span.path, p.span.line, p.span.column, p.message) == (
        "E305", path, 17, 5, 'unknown card "storm relay"')
    assert text_at(p) == '2 "storm relay"'
    assert_inside(p)


def test_card_name_in_the_wrong_case_gets_a_suggestion_ryft():
    path, problems = deck("ryft", "name_case.deck")
    assert problems[0].suggestion == 'did you mean "Storm Relay"?'


# ---------------------------------------------------------------- silver wing rivals: copies across parts


def test_side_deck_cards_counted_with_the_main_deck_copy_limits():
    path, problems = deck("silver-wing-rivals", "side_copies.deck")
    assert [q.code for q in problems] == ["E614", "E614", "E614"]
    copies, banned, limited = problems
    pin(copies, "E614", path, 33, 5,
        'too many copies in "Main Deck" and "Side Deck" together: 5 cards share the name '
        'and colors and tag "Skyguard Lancer" / blue / (no tag); at most 3 allowed',
        ('at most 3 per name, colors, tag in "Main Deck" and "Side Deck"',))
    assert copies.render() == (
        f'{path}:33:5: E614 too many copies in "Main Deck" and "Side Deck" together: 5 cards '
        'share the name and colors and tag "Skyguard Lancer" / blue / (no tag); at most 3 '
        'allowed\n'
        '  33 |     2 "Skyguard Lancer"\n'
        "     |     ^^^^^^^^^^^^^^^^^^^\n"
        '  expected: at most 3 per name, colors, tag in "Main Deck" and "Side Deck"')
    pin(banned, "E614", path, 34, 5,
        '"Bottomless Stockpile" is banned from "Main Deck", which "Side Deck" is counted with')
    pin(limited, "E614", path, 35, 5,
        '"Crystal Overload" is limited to 1 copy in "Main Deck" and "Side Deck" together; '
        "this deck has 2")


def test_side_deck_copies_within_the_limits_together_are_legal():
    # the shipped Starter's Side Deck: 2 "Glacier Monk" beside none in the Main Deck
    from interpreter.language.games import load_game

    game = load_game("silver-wing-rivals")
    assert [p for p in game.problems if p.code == "E614"] == []
