"""``identical cards: one choice`` (interpreter.engine.Machine.one_of_each):
a decision never offers two cards that nothing in the state tells apart,
and a choice between identical cards only is no decision at all. Tested on
the Duel fixture game (tests/fixtures/engine) with the declaration added."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

DUEL = Path(__file__).resolve().parent / "fixtures" / "engine"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    root = tmp_path_factory.mktemp("identical") / "game"
    (root / "rules").mkdir(parents=True)
    rules = (DUEL / "rules" / "duel.rules").read_text() + "\nidentical cards: one choice\n"
    (root / "rules" / "duel.rules").write_text(rules)
    shutil.copytree(DUEL / "cards" / "duel", root / "cards" / "duel")
    game = load_game("duel", root)
    assert game.problems == []
    assert game.rules.identical_one_choice
    return compile_game(game)


def position(compiled, board, hand=(), rival_board=(), mana=0):
    zones = {("board", 0): list(board), ("hand", 0): [(n, ()) for n in hand],
             ("board", 1): list(rival_board),
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    return Match.from_position(compiled, 2, 1, zones, {(0, "Mana"): mana}, 2, 0, "Main")


def labels(match):
    return [re.sub(r" #\d+", "", match.action_to_string(a)) for a in match.legal_actions()]


def test_two_identical_cards_are_one_option(compiled):
    match = position(compiled, [("Squire", ()), ("Squire", ()), ("Knight", ())])
    assert labels(match).count("attack Squire") == 1
    assert labels(match).count("attack Knight") == 1


def test_cards_that_differ_in_a_status_stay_two_options(compiled):
    match = position(compiled, [("Squire", ()), ("Squire", ("exhausted",))],
                     hand=["Squire", "Squire"], mana=5)
    # the exhausted Squire cannot attack: one "attack Squire"; the two in hand
    # are identical: one "cast Squire"
    assert labels(match).count("attack Squire") == 1
    assert labels(match).count("cast Squire") == 1


def test_cards_in_an_ordered_zone_differ_by_their_place(compiled):
    from interpreter.engine import Machine

    match = position(compiled, [("Squire", ())])
    state = match.state
    deck = state.zones[("deck", 0)]
    machine = Machine(match.game, state)
    options, _ = machine.one_of_each("target", tuple(deck), tuple(str(c) for c in deck))
    assert options == tuple(deck)                 # five Squires, five places in the deck


def test_a_card_something_refers_to_is_told_apart(compiled):
    from interpreter.engine import Machine
    from interpreter.engine.state import Frame

    match = position(compiled, [("Squire", ()), ("Squire", ())])
    machine = Machine(match.game, match.state)
    first, second = match.state.zones[("board", 0)]
    assert machine.one_of_each("target", (first, second), ("a", "b"))[0] == (first,)
    match.state.frames.append(Frame("probe", 0, {"it": second}))
    assert machine.one_of_each("target", (first, second), ("a", "b"))[0] == (first, second)


def test_without_the_declaration_every_card_is_an_option():
    game = load_game("duel", DUEL)
    match = Match.from_position(compile_game(game), 2, 1, {
        ("board", 0): [("Squire", ()), ("Squire", ())],
        ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5},
        {}, 2, 0, "Main")
    assert labels(match).count("attack Squire") == 2


# ---------------------------------------------------------------- a second game

MINIONS = Path(__file__).resolve().parent / "fixtures" / "minions"


def test_minions_offers_two_fresh_recruits_as_one_attack():
    # Minions (tests/fixtures/minions/RULES.md 6.5): "with two fresh Recruits
    # on your board, 'attack with a Recruit' is one option, not two"
    game = load_game("minions", MINIONS)
    assert game.problems == [] and game.rules.identical_one_choice
    compiled = compile_game(game)
    deck = [("Spark Imp", ())] * 5
    zones = {("board", 0): [("Recruit", ()), ("Recruit", ()), ("Spark Imp", ())],
             ("Hero zone", 0): [("Bram, Shield Captain", ())],
             ("Hero zone", 1): [("Ysolde, Ember Magus", ())],
             ("deck", 0): deck, ("deck", 1): deck}
    match = Match.from_position(compiled, 2, 1, zones, {}, 3, 0, "Main")
    attacks = [label for label in labels(match) if label.startswith("attack")]
    assert sum("Recruit" in label for label in attacks) == 1, attacks
    assert sum("Spark Imp" in label for label in attacks) == 1, attacks
    # a damaged Shieldwall Sentry is told apart from a fresh one: two options
    zones[("board", 0)] = [("Shieldwall Sentry", ()),
                           ("Shieldwall Sentry", (("counter", "damage", 1),))]
    match = Match.from_position(compiled, 2, 1, zones, {}, 3, 0, "Main")
    attacks = [label for label in labels(match) if label.startswith("attack")]
    assert sum("Shieldwall Sentry" in label for label in attacks) == 2, attacks


def test_a_limit_tells_apart_only_the_card_it_counts(compiled):
    # "sacrifice" is once per turn for the player: its limit names the player
    # (0) and the action, not a card; card 0 (a Squire) is not told apart by it
    match = position(compiled, [("Squire", ()), ("Squire", ()), ("Knight", ())])
    first, second, knight = match.state.zones[("board", 0)]
    assert first == 0
    match.apply_action(labels(match).index(next(l for l in labels(match)
                                                 if l.startswith("sacrifice Knight"))))
    assert sum(label.startswith("attack Squire") for label in labels(match)) == 1
