"""Positioned errors for the rules-file words of turn order and response
windows: actions "at any time", timings "at any time", phases and steps
"taken by" each player in turn, "simultaneous triggers", stats "added to"
the card they are attached to, and counters kept on cards per player in a
ruling's position. Each mistake is written into a copy of the Card Flow
fixture game's rules file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.language.games import load_game

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "card-flow"


def _edited(tmp_path, fixture: Path, game_id: str, old: str, new: str):
    """A copy of a fixture game with ``old`` replaced by ``new`` in its rules
    file: the problems its loading reports, and the rules file's path."""
    shutil.copytree(fixture, tmp_path / fixture.name)
    rules = tmp_path / fixture.name / "rules" / f"{game_id}.rules"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new))
    return load_game(game_id, tmp_path / fixture.name).problems, str(rules)


def _with(tmp_path, old: str, new: str):
    """The Card Flow game with ``old`` replaced by ``new`` in its rules file."""
    return _edited(tmp_path, FIXTURE, "card-flow", old, new)


def _line_of(path: str, text: str) -> int:
    return next(i for i, line in enumerate(Path(path).read_text().splitlines(), 1)
                if text in line)


def test_the_fixture_is_clean():
    assert load_game("card-flow", FIXTURE).problems == []


def test_an_action_at_any_time_says_yes_or_no(tmp_path):
    problems, path = _with(tmp_path, "  at any time: yes", "  at any time: sometimes")
    [p] = problems
    line = _line_of(path, "at any time: sometimes")
    assert (p.code, p.span.path, p.span.line) == ("E521", path, line)
    assert p.message == 'unknown setting "sometimes" for at any time'
    assert p.expected == ("yes", "no")
    assert p.render().splitlines()[2].strip().startswith("|")


def test_a_timing_property_misspelled_is_offered_at_any_time(tmp_path):
    problems, path = _with(tmp_path, "timing INSTANT: activated, at any time",
                           "timing INSTANT: activated, at anytime")
    [p] = problems
    assert (p.code, p.span.line) == ("E505", _line_of(path, "at anytime"))
    assert p.message == 'unknown property "at anytime"'
    assert "at any time" in p.expected
    assert p.suggestion == 'did you mean "at any time"?'


def test_taken_by_names_each_player_in_turn(tmp_path):
    problems, path = _with(tmp_path, "    taken by: each player in turn, starting with the turn player",
                           "    taken by: everyone at once")
    [p] = problems
    assert (p.code, p.span.line) == ("E519", _line_of(path, "everyone at once"))
    assert p.message == 'unreadable taken by "everyone at once"'
    assert p.expected == ("each player in turn, starting with PLAYER",)


def test_taken_by_a_player_the_card_language_does_not_know(tmp_path):
    problems, path = _with(tmp_path, "starting with the turn player",
                           "starting with the tallest player")
    [p] = problems
    assert p.code == "E201"
    assert p.span.line == _line_of(path, "the tallest player")


def test_simultaneous_triggers_settings(tmp_path):
    problems, path = _with(tmp_path, "simultaneous triggers: in turn order from the first player",
                           "simultaneous triggers: in turn order from the first playr")
    [p] = problems
    assert (p.code, p.span.line) == ("E521", _line_of(path, "first playr"))
    assert p.suggestion == 'did you mean "in turn order from the first player"?'


def test_a_stat_added_to_an_unknown_stat(tmp_path):
    problems, path = _with(tmp_path, "added to the power of the card it is attached to",
                           "added to the powr of the card it is attached to")
    [p] = problems
    assert (p.code, p.message) == ("E510", 'unknown stat "powr"')
    assert p.span.line == _line_of(path, "added to the powr")
    assert p.suggestion == 'did you mean "power"?'


@pytest.mark.parametrize("value", ["per player, on cards", "on cards, per player"])
def test_a_counter_on_cards_per_player_in_either_order(tmp_path, value):
    problems, _path = _with(tmp_path, "counter Mark: on cards, per player",
                            f"counter Mark: {value}")
    assert problems == []
    rules = load_game("card-flow", tmp_path / "card-flow").rules
    assert rules.counters["Mark"].scope == "card" and rules.counters["Mark"].per_player


def test_a_position_gives_a_counter_on_cards_to_a_card(tmp_path):
    from interpreter.rulings import load_ruling_file, run_ruling

    shutil.copytree(FIXTURE, tmp_path / "card-flow")
    ruling = tmp_path / "card-flow" / "bad.ruling"
    ruling.write_text(
        'ruling "Marks belong on cards"\n'
        "  game: rules/card-flow.rules\n"
        "  position:\n"
        "    phase: Main\n"
        "    player 1:\n"
        '      leaders: "Pebble"\n'
        "      Mark: 2\n"
        "    player 2:\n"
        '      leaders: "Pebble"\n'
        "  stop: at the next decision\n"
        "  expect:\n"
        "    player 1 Mark is 2\n")
    source, [parsed], problems = load_ruling_file(ruling)
    assert problems == []
    result = run_ruling(parsed, source)
    [p] = result.failures
    assert (p.code, p.span.line, p.span.column) == ("E711", 7, 7)
    assert p.message == "Mark is kept on cards, not by a player"
    assert p.expected == ('a card followed by "with N Mark" (a player\'s: '
                          '"with N Mark of player N")',)


STACK = Path(__file__).resolve().parent / "fixtures" / "resolution"


def _stack_with(tmp_path, old: str, new: str):
    """The Duel with stack links with ``old`` replaced by ``new``."""
    return _edited(tmp_path, STACK, "stack", old, new)


def test_priority_after_a_resolution_needs_responses(tmp_path):
    problems, path = _stack_with(tmp_path, "  responses: none\n",
                                 "  responses: none\n  after an entry resolves: the turn player first\n")
    [p] = problems
    line = _line_of(path, "the turn player first")
    assert (p.code, p.span.path, p.span.line, p.span.column) == ("E526", path, line, 28)
    assert p.message == ('"after an entry resolves: the turn player first" needs '
                         '"responses: the other player"')


@pytest.mark.parametrize("other", ["triggered effects: one at a time",
                                   "effects on a player: beneficial first"])
def test_a_players_own_order_with_another_order_is_reported(tmp_path, other):
    problems, path = _stack_with(
        tmp_path, "  responses: none\n",
        f"  responses: none\n  each player's effects: ordered by their controller\n  {other}\n")
    [p] = problems
    key, value = other.split(": ")
    assert (p.code, p.span.path, p.span.line) == ("E527", path, _line_of(path, other))
    assert p.message == (f'"{key}: {value}" and "each player\'s effects: ordered by their '
                         'controller" both order the same effects')


def test_the_old_setting_responses_again_is_no_longer_read(tmp_path):
    problems, path = _stack_with(
        tmp_path, "  responses: none\n",
        "  responses: the other player\n  after an entry resolves: responses again\n")
    [p] = problems
    assert (p.code, p.span.line) == ("E521", _line_of(path, "responses again"))
    assert p.expected == ("the rest resolve", "the turn player first")


def test_a_timing_usable_when_you_have_priority_is_read(tmp_path):
    problems, path = _with(tmp_path, "timing INSTANT: activated, at any time",
                           "timing INSTANT: activated, at any time, when you have priority")
    assert problems == []
    problems, path = _with(tmp_path / "again", "timing INSTANT: activated, at any time",
                           "timing INSTANT: activated, at any time, when you have prority")
    [p] = problems
    assert p.suggestion == 'did you mean "when you have priority"?'
