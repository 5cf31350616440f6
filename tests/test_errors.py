"""The exact error messages for mistakes in rules files, and for files that
cannot be read as text.

Fixture roots: tests/fixtures/rules-errors/ (one cut-down rules file per game,
each with several independent mistakes), tests/fixtures/rules-verb/ (a verb
whose definition is not card language: only checked once the rest of the
rules file is clean), tests/fixtures/rules-empty/ (an empty rules file).
"""

from __future__ import annotations

import shutil

import pytest

from errors_support import (  # noqa: F401  (at_repo_root is an autouse fixture)
    REPO,
    at_repo_root,
    assert_inside,
    fixture_path,
    pin,
    problems_of,
    text_at,
    the_problem,
)
from interpreter.language.games import load_game


def rules_path(game: str, root: str = "rules-errors") -> str:
    return fixture_path(root, "rules", f"{game}.rules")


RYFT = rules_path("ryft")
SWR = rules_path("silver-wing-rivals")
RR = rules_path("rival-rush")
SW = rules_path("saturday-wars")


def rules_problems(game: str, root: str = "rules-errors"):
    return problems_of(root, game)


# ---------------------------------------------------------------- ryft


def test_ryft_rules_report_every_mistake_in_order():
    problems = rules_problems("ryft")
    assert [(p.code, p.span.line, p.span.column) for p in problems] == [
        ("E505", 7, 62), ("E505", 9, 24), ("E502", 10, 1)]


def test_unknown_counter_property():
    p = the_problem(rules_problems("ryft"), RYFT, 7)
    pin(p, "E505", RYFT, 7, 62, 'unknown property "forever"',
        ("per player", "on cards", "shared", "starts at N", "at least N", "at most N",
         "a player at N or less loses", "a player at N or more wins", "takes damage",
         "position in ZONE", "per place in ZONE", "held in NAME"))
    assert p.render() == (
        f'{RYFT}:7:62: E505 unknown property "forever"\n'
        '  7 | counter "Life Force": per player, starts at 300, at least 0, forever\n'
        "    |                                                              ^^^^^^^\n"
        "  expected: per player, on cards, shared, starts at N, at least N, at most N, "
        "a player at N or less loses, a player at N or more wins, takes damage, "
        "position in ZONE, per place in ZONE, held in NAME")


def test_unknown_zone_property():
    p = the_problem(rules_problems("ryft"), RYFT, 9)
    pin(p, "E505", RYFT, 9, 24, 'unknown property "secret"',
        ("per player", "shared", "hidden", "private", "public", "ordered", "N slots",
         "face down", "draw pile", "hand", "discard pile", "in play",
         "a card entering it is EVENT",
         "a card entering it takes the slot its player chooses", "cards never leave it",
         "shuffled after an effect takes cards from it",
         "a player who needs a card from it when it is empty loses",
         "a player with no cards in it loses", "a token entering it ceases to exist",
         "a token leaving it ceases to exist", "at most N cards",
         "a card put into it when it is full goes to its owner's ZONE",
         "holds the cards at places"))
    assert text_at(p) == "secret"


def test_unknown_declaration():
    p = the_problem(rules_problems("ryft"), RYFT, 10)
    pin(p, "E502", RYFT, 10, 1, 'unknown declaration "zon"',
        ("a declaration: action, adjective, card effects, counter, deck part, event, "
         "game, identical cards, keyword, kind, noun, once per, periods, relations, "
         "resolution, rule, setup, stat, status, statuses, ... (29 in all)",),
        'did you mean "zone"?')
    assert p.render() == (
        f'{RYFT}:10:1: E502 unknown declaration "zon"\n'
        "  10 | zon void: per player, public, ordered\n"
        "     | ^^^\n"
        "  expected: a declaration: action, adjective, card effects, counter, deck part, "
        "event, game, identical cards, keyword, kind, noun, once per, periods, relations, "
        "resolution, rule, setup, stat, status, statuses, ... (29 in all)\n"
        '  did you mean "zone"?')


def test_broken_rules_stop_the_cards_from_being_read():
    # the rules-errors root has no card files: only the rules file is reported
    assert {p.span.path for p in rules_problems("ryft")} == {RYFT}


# ---------------------------------------------------------------- silver-wing-rivals


def test_unknown_value_set():
    p = the_problem(rules_problems("silver-wing-rivals"), SWR, 8)
    pin(p, "E509", SWR, 8, 14, 'unknown value set "colour"',
        ("a value set declared with values, or A, B, C",), 'did you mean "color"?')
    assert text_at(p) == "list of colour"


def test_unknown_type_of_stat():
    p = the_problem(rules_problems("silver-wing-rivals"), SWR, 9)
    pin(p, "E508", SWR, 9, 11, 'unknown type of stat "txt"',
        ("number", "one of VALUES", "list of VALUES", "exchange of VALUES", "card names",
         "text", "effect"), 'did you mean "text"?')
    assert p.render() == (
        f'{SWR}:9:11: E508 unknown type of stat "txt"\n'
        "  9 | stat tag: txt\n"
        "    |           ^^^\n"
        "  expected: number, one of VALUES, list of VALUES, exchange of VALUES, card names, "
        "text, effect\n"
        '  did you mean "text"?')


def test_unknown_stat_in_a_kind():
    p = the_problem(rules_problems("silver-wing-rivals"), SWR, 13)
    pin(p, "E510", SWR, 13, 26, 'unknown stat "colours"',
        ("a stat declared with stat NAME: TYPE",), 'did you mean "colors"?')
    assert text_at(p) == "colours"


def test_unknown_timing_label_in_a_kind():
    p = the_problem(rules_problems("silver-wing-rivals"), SWR, 14)
    pin(p, "E301", SWR, 14, 25, 'unknown timing label "YOUR MOOVE"', ("YOUR MOVE",),
        'did you mean "YOUR MOVE"?')
    assert text_at(p) == '"YOUR MOOVE"'


def test_unknown_field_of_a_kind():
    p = the_problem(rules_problems("silver-wing-rivals"), SWR, 15)
    pin(p, "E504", SWR, 15, 3, 'unknown field "sleeves"',
        ("after use, boxes, face down, faces, leaves play, once used, once used from ZONE, "
         "optional, plural, stats, text happens, timings, ... (16 in all)",))


def test_unknown_step_of_once_used():
    p = the_problem(rules_problems("silver-wing-rivals"), SWR, 16, "E521")
    pin(p, "E521", SWR, 16, 54, 'unknown setting "shuffled after it resolves" for once used',
        ("revealed", "turned face up", "discarded", "face down", "STEP after it resolves"))
    assert text_at(p) == "shuffled after it resolves"


def test_unknown_zone_of_once_used_from():
    p = the_problem(rules_problems("silver-wing-rivals"), SWR, 16, "E523")
    pin(p, "E523", SWR, 16, 18, 'unknown zone "Suport Area" for kind "Support"',
        ("Support Area",), 'did you mean "Support Area"?')
    assert text_at(p) == '"Suport Area"'


# ---------------------------------------------------------------- rival-rush


def test_unreadable_deck_size():
    p = the_problem(rules_problems("rival-rush"), RR, 14)
    pin(p, "E514", RR, 14, 9, 'unreadable size "twenty"',
        ("N", "N to M", "at most N", "at least N"))
    assert p.render() == (
        f'{RR}:14:9: E514 unreadable size "twenty"\n'
        "  14 |   size: twenty\n"
        "     |         ^^^^^^\n"
        "  expected: N, N to M, at most N, at least N")


def test_unknown_card_kind_in_a_deck_part():
    p = the_problem(rules_problems("rival-rush"), RR, 15)
    pin(p, "E515", RR, 15, 26, 'unknown card kind "Fancy Action"',
        ("Basic Action, Segment",), 'did you mean "Basic Action"?')
    assert text_at(p) == '"Fancy Action"'


def test_unknown_card_kind_in_a_count_rule():
    p = the_problem(rules_problems("rival-rush"), RR, 16)
    assert (p.code, p.span.path, p.span.line, p.message, p.expected, p.suggestion) == (
        "E515", RR, 16, 'unknown card kind "Basic Actions"', ("Basic Action, Segment",),
        'did you mean "Basic Action"?')
    assert '"Basic Actions"' in text_at(p)
    assert_inside(p)


def test_unknown_field_of_a_deck_part():
    p = the_problem(rules_problems("rival-rush"), RR, 17)
    pin(p, "E504", RR, 17, 3, 'unknown field "shuffle"',
        ("banned, copies, count, counted with, kinds, limited, matching, optional, size, "
         "starts in, swaps with, total STAT",))


def test_unknown_stat_in_a_total_rule():
    p = the_problem(rules_problems("rival-rush"), RR, 21)
    assert (p.code, p.span.path, p.span.line, p.message, p.expected, p.suggestion) == (
        "E510", RR, 21, 'unknown stat "challange"', ("a number stat",),
        'did you mean "challenge"?')
    assert "challange" in text_at(p)
    assert_inside(p)


@pytest.mark.parametrize("line,word", [(16, '"Basic Actions"'), (21, "challange")],
                         ids=["count-kind", "total-stat"])
def test_deck_part_rule_mistakes_point_at_the_name(line, word):
    p = the_problem(rules_problems("rival-rush"), RR, line)
    assert text_at(p) == word


def test_a_counter_kept_per_place_of_an_unknown_zone(tmp_path):
    """ "per place in ZONE" names an ordered zone that a position counter
    points into."""
    _game_root(tmp_path, "rival-rush")
    path = tmp_path / "rules" / "rival-rush.rules"
    text = path.read_text()
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("counter Jump:"))
    path.write_text(text.replace('counter Jump: per player, starts at 0, at least 0, '
                                 'per place in "Segment Row"',
                                 'counter Jump: per player, starts at 0, at least 0, '
                                 'per place in "Segment Rows"'))
    [p] = [p for p in load_game("rival-rush", tmp_path).problems if p.code == "E545"]
    pin(p, "E545", str(path), line, 52,
        'counter "Jump" is kept per place in an unknown zone "Segment Rows"',
        ("an ordered zone of places",), 'did you mean "Segment Row"?')
    assert text_at(p) == 'per place in "Segment Rows"'


def test_a_counter_kept_per_place_needs_a_position_in_the_zone(tmp_path):
    _game_root(tmp_path, "rival-rush")
    path = tmp_path / "rules" / "rival-rush.rules"
    text = path.read_text()
    path.write_text(text.replace('counter Position: per player, starts at 0, position in '
                                 '"Segment Row"', 'counter Position: per player, starts at 0'))
    problems = [p for p in load_game("rival-rush", tmp_path).problems if p.code == "E545"]
    assert len(problems) == 4      # Jump, Punch, Dive and Slide
    assert problems[0].message == ('counter "Jump" is kept per place in "Segment Row", '
                                   "but no counter is a position in it")
    assert problems[0].expected == ('a counter NAME: per player, position in "Segment Row"',)


# ---------------------------------------------------------------- saturday-wars


def test_players_not_a_number():
    p = the_problem(rules_problems("saturday-wars"), SW, 4)
    pin(p, "E503", SW, 4, 12, "players must be a number or a range", ('"2"', '"2 to 4"'))


def test_declared_twice():
    p = the_problem(rules_problems("saturday-wars"), SW, 7)
    pin(p, "E506", SW, 7, 1, '"Purge Pile" is declared twice')


def test_timing_without_a_use():
    p = the_problem(rules_problems("saturday-wars"), SW, 9)
    pin(p, "E511", SW, 9, 1, "timing ACTION needs a use",
        ("activated", "triggered", "continuous"))
    assert p.render() == (
        f"{SW}:9:1: E511 timing ACTION needs a use\n"
        "  9 | timing ACTION: optional\n"
        "    | ^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  expected: activated, triggered, continuous")


def test_unknown_slot_in_a_keyword():
    p = the_problem(rules_problems("saturday-wars"), SW, 10)
    pin(p, "E512", SW, 10, 1, 'unknown slot "{amount}" in "Bury {amount}"',
        ("{n}", "{card}", "{cards}", "{player}", "{zone}"))


def test_verb_without_a_definition():
    p = the_problem(rules_problems("saturday-wars"), SW, 11)
    pin(p, "E513", SW, 11, 1, 'verb "Purge {n}" needs a definition in the card language',
        expected=None)
    assert len(p.expected) == 1 and p.expected[0].startswith("verb ")


# ---------------------------------------------------------------- verb definitions


def test_verb_definition_that_does_not_parse():
    path = rules_path("silver-wing-rivals", "rules-verb")
    problems = rules_problems("silver-wing-rivals", "rules-verb")
    assert len(problems) == 1
    p = problems[0]
    pin(p, "E201", path, 9, 23, 'unexpected word "Shovel"', expected=None,
        suggestion='did you mean "move"?')
    assert "a zone (stockpile)" in p.expected
    assert p.render().splitlines()[:3] == [
        f'{path}:9:23: E201 unexpected word "Shovel"',
        '  9 | verb "Stockpile {n}": Shovel the top {n} cards of your Main Deck to your '
        "stockpile.",
        "    |                       ^^^^^^",
    ]


# ---------------------------------------------------------------- whole files


def test_empty_rules_file():
    path = rules_path("rival-rush", "rules-empty")
    problems = rules_problems("rival-rush", "rules-empty")
    assert len(problems) == 1
    pin(problems[0], "E516", path, 1, 1, 'a rules file must start with game "Title"',
        ('game "Title"',))
    assert problems[0].render() == (
        f'{path}:1:1: E516 a rules file must start with game "Title"\n'
        "  1 | \n"
        "    | ^\n"
        '  expected: game "Title"')


@pytest.mark.parametrize("game", ["ryft", "silver-wing-rivals", "rival-rush", "saturday-wars"])
def test_rules_problems_lie_inside_the_file(game):
    for p in rules_problems(game):
        assert_inside(p)


def _game_root(tmp_path, game: str):
    (tmp_path / "rules").mkdir()
    (tmp_path / "cards" / game).mkdir(parents=True)
    shutil.copy(REPO / "rules" / f"{game}.rules", tmp_path / "rules" / f"{game}.rules")
    return tmp_path / "cards" / game


def test_card_file_that_is_not_utf8(tmp_path):
    cards = _game_root(tmp_path, "rival-rush")
    bad = cards / "latin1.cards"
    bad.write_bytes(b'card "Caf\xe9 Jump"\n  kind: Basic Action\n')
    problems = load_game("rival-rush", tmp_path).problems
    assert len(problems) == 1
    pin(problems[0], "E106", str(bad), 1, 10, "this file is not UTF-8 text",
        ("a text file in UTF-8",))
    assert problems[0].render() == (
        f"{bad}:1:10: E106 this file is not UTF-8 text\n"
        "  expected: a text file in UTF-8")


def test_card_file_with_binary_data(tmp_path):
    cards = _game_root(tmp_path, "silver-wing-rivals")
    bad = cards / "image.cards"
    bad.write_bytes(b'card "Standard Stamina 2"\n  kind: Stamina\x00\x01\x02\n')
    problems = load_game("silver-wing-rivals", tmp_path).problems
    assert len(problems) == 1
    pin(problems[0], "E106", str(bad), 2, 16, "this file contains binary data (a NUL byte)",
        ("a text file",))


def test_rules_file_that_is_not_utf8(tmp_path):
    (tmp_path / "rules").mkdir()
    rules = tmp_path / "rules" / "saturday-wars.rules"
    rules.write_bytes(b'game "Saturday Wars CCG"\n  players: 2 \xe0 4\n')
    problems = load_game("saturday-wars", tmp_path).problems
    assert [(p.code, p.span.line, p.span.column, p.message) for p in problems] == [
        ("E106", 2, 14, "this file is not UTF-8 text")]


def test_what_check_compiles_in_a_game_with_problems_shows_its_lines(tmp_path):
    # A copy of the Lore fixture with a rules-file problem (an unknown
    # declaration), and texts the grammar cannot read in an action and a
    # verb: check compiles them too, and each is shown with its line and caret
    import shutil
    from interpreter.engine import compile_game
    from interpreter.errors import CardrulesError

    root = tmp_path / "lore"
    shutil.copytree(REPO / "tests" / "fixtures" / "lore", root)
    rules = root / "rules" / "lore.rules"
    text = rules.read_text()
    for old, new in (("  effect: Put it into your inkwell face down.",
                      "  effect: Put it into your inkwel face down."),
                     ('verb "Banish {cards}": Move {cards} to their owner\'s discard.',
                      'verb "Banish {cards}": Move {cards} to their owner\'s discardd.')):
        assert old in text, old
        text = text.replace(old, new)
    rules.write_text(text + "\ngizmo Foo\n")
    game = load_game("lore", root)
    assert game.problems
    with pytest.raises(CardrulesError) as raised:
        compile_game(game)
    problems = raised.value.problems
    assert len(problems) > 1
    for problem in problems:
        assert problem.source_line, problem.render()
        assert problem.render().splitlines()[1].lstrip().startswith(f"{problem.span.line} |")


def test_an_actions_event_at_an_unknown_moment(tmp_path):
    # "counts as: EVENT, before its effect" is the one other moment an
    # action's event may have (Saturday Wars: the Animate ability first)
    shutil.copytree(REPO / "rules", tmp_path / "rules")
    path = tmp_path / "rules" / "saturday-wars.rules"
    text = path.read_text(encoding="utf-8")
    assert text.count("counts as: played, before its effect") == 2
    path.write_text(text.replace("counts as: played, before its effect",
                                 "counts as: played, after its effect", 1), encoding="utf-8")
    problems = [p for p in problems_of(str(tmp_path), "saturday-wars")]
    line = next(n for n, written in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "after its effect" in written)
    p = the_problem(problems, str(path), line, "E521")
    pin(p, "E521", str(path), line, 22, 'unknown setting "after its effect" for counts as',
        ('"counts as: EVENT"', '"counts as: EVENT, before its effect"'),
        'did you mean "before its effect"?')
    assert text_at(p) == "after its effect"
