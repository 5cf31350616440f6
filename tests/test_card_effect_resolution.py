"""How card effects resolve, on the Duel fixture game (tests/fixtures/engine):

- ``card effects: as much as you can`` (a rules declaration): in card text,
  a step after "then" happens even when the step before could not (Silver
  Wing Rivals' Golden Rule 2); without it, "then" waits on the step before
  (Herald's "You may draw a card, then discard a card." with nothing to draw);
- "You may VERB" is not asked when the verb cannot be done (its paying
  steps, or the cards it returns or destroys, are missing)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

DUEL = Path(__file__).resolve().parent / "fixtures" / "engine"


def duel(tmp_path: Path, extra: str):
    root = tmp_path / "game"
    (root / "rules").mkdir(parents=True)
    (root / "rules" / "duel.rules").write_text(
        (DUEL / "rules" / "duel.rules").read_text() + extra)
    shutil.copytree(DUEL / "cards" / "duel", root / "cards" / "duel")
    game = load_game("duel", root)
    assert game.problems == []
    return compile_game(game)


def play_herald(compiled):
    match = Match.from_position(compiled, 2, 1, {
        ("hand", 0): [("Herald", ()), ("Squire", ())]}, {(0, "Mana"): 5}, 2, 0, "Main")

    def choose(label):
        labels = [re.sub(r" #\d+", "", match.action_to_string(a)) for a in match.legal_actions()]
        match.apply_action(labels.index(label))
    choose("cast Herald")
    choose("yes")                      # "You may draw a card": the deck is empty
    return [match.state.cards[c].name for c in match.state.zone("graveyard", 0)]


def test_then_waits_on_the_step_before_by_default(tmp_path):
    assert play_herald(duel(tmp_path, "")) == []


def test_as_much_as_you_can_goes_on_after_a_step_that_could_not_happen(tmp_path):
    assert play_herald(duel(tmp_path, "\ncard effects: as much as you can\n")) == ["Squire"]


def _the_problem_of(tmp_path, setting: str):
    """The one problem of the Duel with ``setting`` added to its rules file."""
    root = tmp_path / "bad"
    (root / "rules").mkdir(parents=True)
    (root / "rules" / "duel.rules").write_text(
        (DUEL / "rules" / "duel.rules").read_text() + f"\n{setting}\n")
    shutil.copytree(DUEL / "cards" / "duel", root / "cards" / "duel")
    [problem] = load_game("duel", root).problems
    return problem


def test_an_unknown_setting_is_reported(tmp_path):
    problem = _the_problem_of(tmp_path, "card effects: all the way")
    assert (problem.code, problem.message, problem.expected) == (
        "E521", 'unknown setting "all the way" for card effects', ("as much as you can",))


# ---------------------------------------------------------------- "You may VERB" not asked when it cannot be done


def test_a_may_verb_is_not_asked_when_the_cards_it_needs_are_missing(tmp_path):
    # Tactician: "When this is played: You may Recall a Creature your Rival controls."
    compiled = duel(tmp_path, "")
    for rival_board, asked in (([], False), ([("Squire", ())], True)):
        match = Match.from_position(compiled, 2, 1, {
            ("hand", 0): [("Tactician", ())], ("board", 1): rival_board},
            {(0, "Mana"): 5}, 2, 0, "Main")
        labels = [re.sub(r" #\d+", "", match.action_to_string(a)) for a in match.legal_actions()]
        match.apply_action(labels.index("cast Tactician"))
        assert (match.state.decision.kind == "yes-no") is asked


def test_an_unknown_once_per_setting_is_reported_with_a_suggestion(tmp_path):
    problem = _the_problem_of(tmp_path, "once per: each cards")
    assert (problem.code, problem.message, problem.expected, problem.suggestion) == (
        "E521", 'unknown setting "each cards" for once per', ("each card", "each card name"),
        'did you mean "each card"?')
