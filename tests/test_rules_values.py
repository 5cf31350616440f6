"""Rules-file values read by the rules grammar (grammar/rules.lark).

Each declaration's properties are parsed into settings with spans; what the
grammar cannot read is reported at its column with what was expected, and the
other properties of the line are still read. No part of the rules reader
reads a value with a regular expression.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner
from lark import Lark

from interpreter.cli import main
from interpreter.language.game_rules import ZONE_ROLES
from interpreter.language.rules_file import load_rules
from interpreter.language import rules_values
from interpreter.resources import read_grammar
from interpreter.source import SourceText

ROOT = Path(__file__).resolve().parent.parent
HEAD = 'game "Probe"\n  players: 2\n\n'


def _rules(text: str):
    source = SourceText("probe.rules", HEAD + text)
    return load_rules(source, "probe")


def _line(text: str) -> int:
    return (HEAD + text).splitlines().index(text.splitlines()[0]) + 1


def test_the_rules_grammar_builds_strict():
    Lark(read_grammar("rules.lark"), parser="lalr", lexer="contextual",
         start=list(rules_values._STARTS), strict=True)


def test_every_counter_property_is_read():
    rules, problems = _rules(
        'zone track: shared, ordered\n'
        'counter Life: per player, starts at 20, at least -5, at most 99, '
        'a player at 0 or less loses, a player at 30 or more wins\n'
        'counter Wounds: on cards, takes damage\n'
        'counter Position: per player, position in the track\n')
    assert problems == []
    life = rules.counters["Life"]
    assert (life.scope, life.start, life.minimum, life.maximum, life.loses_at,
            life.wins_at) == ("player", 20, -5, 99, 0, 30)
    assert rules.counters["Wounds"].scope == "card"
    assert rules.counters["Wounds"].takes_damage
    assert rules.counters["Position"].track == "track"


def test_words_are_read_whatever_their_case_and_a_name_keeps_its_own_words():
    rules, problems = _rules(
        'zone Pile: PER PLAYER, Hidden, Ordered, Paired With Pile of Lost Souls\n')
    assert problems == []
    pile = rules.zones["Pile"]
    assert (pile.visibility, pile.ordered, pile.paired_with) == (
        "hidden", True, "Pile of Lost Souls")


def test_a_number_slot_says_what_it_expected_at_its_word():
    text = "counter Life: per player, starts at ten\n"
    rules, problems = _rules(text)
    [p] = problems
    assert (p.code, p.span.line, p.span.column) == ("E505", _line(text),
                                                    text.index("ten") + 1)
    assert p.message == 'unreadable property "starts at ten"'
    assert p.expected == ("a number",)


def test_every_bad_property_of_a_line_is_reported_and_the_others_are_read():
    text = "counter Life: per player, forever, starts at 7, sometimes\n"
    rules, problems = _rules(text)
    assert [(p.code, p.span.column, p.message) for p in problems] == [
        ("E505", text.index("forever") + 1, 'unknown property "forever"'),
        ("E505", text.index("sometimes") + 1, 'unknown property "sometimes"')]
    assert rules.counters["Life"].start == 7


def test_a_misspelled_property_is_offered_the_nearest_form():
    text = "counter Life: per player, start at 3\n"
    _, [p] = _rules(text)
    assert p.message == 'unknown property "start at 3"'
    assert p.suggestion == 'did you mean "starts at N"?'
    assert "starts at N" in p.expected


def test_a_word_of_the_grammar_must_be_a_whole_word():
    # "per" then "playerz": not "per player" followed by a stray "z"
    text = "counter Life: per playerz\n"
    _, [p] = _rules(text)
    assert p.message == 'unknown property "per playerz"'
    assert p.suggestion == 'did you mean "per player"?'


def test_a_name_before_a_word_of_its_declaration_ends_there_unless_quoted():
    rules, problems = _rules(
        'stat HP: number, a card with damage at least its HP is destroyed\n'
        'stat "Rate is high": number, a card with damage at least its "Rate is high" is '
        'destroyed\n')
    assert problems == []
    assert rules.stats["HP"].lethal_damage and rules.stats["Rate is high"].lethal_damage


def test_deck_part_fields():
    rules, problems = _rules(
        "stat cost: number\nkind Unit\n  stats: cost\n"
        "zone deck: per player, hidden, ordered\n"
        "deck part Main\n"
        "  size: 40 to 60\n"
        "  copies: at most 3 per name\n"
        "  count: at most 10 Unit\n"
        "  total cost: at most 100\n"
        '  limited: "Big One" 1\n'
        "  starts in: their deck, face up\n")
    assert problems == []
    part = rules.deck_parts["Main"]
    assert (part.size_min, part.size_max) == (40, 60)
    assert part.copies[0].limit == 3 and part.copies[0].keys == ("name",)
    assert (part.counts[0].relation, part.counts[0].number, part.counts[0].kind) == (
        "at most", 10, "Unit")
    assert (part.totals[0].stat, part.totals[0].number) == ("cost", 100)
    assert part.limited == (("Big One", 1),)
    assert part.starts_in == ("deck", True)


@pytest.mark.parametrize("value, message, column_of", [
    ("size: twenty", 'unreadable size "twenty"', "twenty"),
    ("size: 40 to many", 'unreadable size "40 to many"', "many"),
    ("copies: at most three per name", 'unreadable copy limit "at most three per name"',
     "three"),
])
def test_deck_part_values_are_reported_at_their_word(value, message, column_of):
    text = f"deck part Main\n  {value}\n"
    _, problems = _rules(text)
    [p] = problems
    assert p.message == message
    assert p.span.column == f"  {value}".index(column_of) + 1


def test_an_action_limit_names_a_declared_period():
    rules, problems = _rules(
        "periods: turn\naction Play\n  limit: twice per turn, at most 3\n"
        "action Draw\n  limit: once per tern\n")
    [p] = problems
    assert (p.code, p.message, p.suggestion) == (
        "E522", 'unknown period "tern"', 'did you mean "turn"?')
    play = next(a for a in rules.actions if a.name == "Play")
    assert play.limit == ("turn", False)
    assert play.limit_extra == (None, 3, None, 2)


def test_no_part_of_the_rules_reader_uses_regular_expressions():
    readers = [ROOT / "interpreter" / "language" / name for name in (
        "rules_file.py", "rules_reading.py", "rules_components.py", "rules_procedures.py",
        "rules_values.py")]
    for path in readers:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree)
                    if isinstance(node, (ast.Import, ast.ImportFrom))
                    for alias in node.names} | {
            node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "re" not in imported, f"{path.name} imports re"


def test_every_zone_role_the_engine_knows_is_in_the_grammar():
    for role in ZONE_ROLES:
        rules, problems = _rules(f"zone Z: per player, {role}\n")
        assert problems == [] and rules.zones["Z"].roles == (role,), role


# ---------------------------------------------------------------- words that clash


def test_a_word_the_card_language_already_has_is_reported_at_its_declaration():
    text = "counter Damage: on cards\n"
    _, [p] = _rules(text)
    assert (p.code, p.span.line, p.span.column) == ("E517", _line(text), 9)
    assert p.message == ('"damage" cannot be told apart in card text: the card language '
                         "already uses this word")
    assert p.suggestion == 'give it another name (for example "Damage counter")'


def test_a_word_declared_as_two_things_is_reported_at_the_first():
    text = "stat cost: number\nkind Hero\n  stats: cost\nzone hero: per player\n"
    _, [p] = _rules(text)
    assert (p.code, p.span.line) == ("E517", _line(text) + 1)
    assert p.message == ('"hero" cannot be told apart in card text: it is declared as '
                         'kind "Hero" and zone "hero"')


def test_a_zone_named_as_a_kinds_plural_is_reported_whatever_else_is_wrong(tmp_path):
    # "zone Shrines" beside "kind Shrine": the card grammar cannot tell them
    # apart. Reported at the zone even when another line is wrong too, and
    # check stops there: no traceback from compiling with no grammar.
    text = ("kind Shrine\nzone Shrines: per player, public, in play\n"
            "counter Glory: per player, starts at zero\n")
    _, problems = _rules(text)
    clash = next(p for p in problems if p.code == "E517")
    assert (clash.span.line, clash.span.column) == (_line(text) + 1, 6)
    assert clash.message == ('"shrines" cannot be told apart in card text: it is declared as '
                             'the plural of kind "Shrine" and as zone "Shrines"')
    assert any(p.span.line == _line(text) + 2 for p in problems if p.code != "E517")
    (tmp_path / "rules").mkdir()
    rules_file = tmp_path / "rules" / "probe.rules"
    rules_file.write_text(HEAD + text + "turn\n  phase Main\n    Draw a card.\n")
    result = CliRunner().invoke(main, ["check", str(rules_file)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "E517" in result.output and "Traceback" not in result.output


def test_an_exchange_names_the_stat_of_this_place_or_of_the_chosen_card():
    text = ("values mana: Ember, Any\nstat cost: exchange of mana\nstat power: number\n"
            "kind Troop\n  stats: cost, power\nzone hand: per player, hand\n"
            'action "cast"\n  choose: a card in your hand\n  exchange: cost of it\n'
            'action "boast"\n  choose: a card in your hand\n  exchange: power of it\n'
            'action "spend"\n  choose: a card in your hand\n  exchange: cost of that\n')
    rules, problems = _rules(text)
    cast = next(a for a in rules.actions if a.name == "cast")
    assert (cast.exchange, cast.exchange_card) == ("cost", "it")
    codes = sorted((p.code, p.span.line - _line(text) + 1, p.message) for p in problems)
    assert [(c, line) for c, line, _m in codes] == [("E525", 12), ("E525", 15)]
    assert codes[0][2] == '"power" is not an exchange stat'


# ---------------------------------------------------------------- phases


def test_lines_after_a_phase_steps_close_it_and_a_for_each_block_holds_steps_only():
    text = ("zone row: shared, ordered\nkind Room\n"
            "turn\n  phase Run\n    Draw a card.\n"
            "    for each Room in the row:\n      step Walk\n        Draw a card.\n"
            "      Discard a card.\n"
            "    Draw 2 cards.\n")
    rules, problems = _rules(text)
    [p] = problems
    assert (p.code, p.message) == ("E518", '"for each" holds the steps done at each place')
    assert p.span.line == _line(text) + 8
    [run] = rules.phases
    assert [s.text for s in run.sentences] == ["Draw a card."]
    assert [s.text for s in run.closing] == ["Draw 2 cards."]


def test_a_step_skipped_on_the_first_turn_of_the_game(tmp_path):
    import shutil

    from interpreter.engine import Match, compile_game
    from interpreter.language.games import load_game

    minions = ROOT / "tests" / "fixtures" / "minions"
    shutil.copytree(minions / "rules", tmp_path / "rules")
    shutil.copytree(minions / "cards", tmp_path / "cards")
    rules = tmp_path / "rules" / "minions.rules"
    text = rules.read_text(encoding="utf-8")
    drawing = "    # 5.1\n    The turn player draws a card.\n"
    assert drawing in text
    rules.write_text(text.replace(drawing, "    step Draw\n      skip: on the first turn "
                                  "of the game\n      The turn player draws a card.\n"),
                     encoding="utf-8")
    game = load_game("minions", tmp_path)
    assert game.problems == []
    [start] = [p for p in game.rules.phases if p.name == "Start"]
    assert start.steps[0].skip_first_turn
    match = Match.start(compile_game(game), [game.decks[0], game.decks[1]], seed=2)
    while match.state.turn < 1:          # the setup's choice of the first player
        match.apply_action(match.legal_actions()[0])
    first = match.state.first_player
    # the first player drew 3 cards in the setup and none in the first turn
    assert len(match.state.zones[("hand", first)]) == 3
    text = "\n".join(match.narration())
    if "-- Turn 2" in text:              # the next turn has the step
        turn_one, later = text.split("-- Turn 2", 1)
        assert "Draw (step)" not in turn_one and "Draw (step)" in later
    else:
        assert "Draw (step)" not in text
