"""A status given by a verb ("status paralysed: given by "Paralyse {card}""):
card text that gives the status does the verb, the game's way of giving it;
wrong declarations are reported at their line. Users: Pocket League 9.1-9.4
(asleep, paralysed, confused), the Minions fixture 8.5 (frozen); their
rulings show the statuses ending and replacing one another."""

from __future__ import annotations

import pytest

from interpreter.engine import Match, compile_game
from interpreter.engine.machine import Machine
from interpreter.errors import CardrulesError

from duel_support import load_duel

STUN = ('statuses: stunned\n'
        'verb "Stun {card}": {card} is exhausted, then {card} is stunned until the end of '
        "its controller's next turn.\n"
        'status stunned: given by "Stun {card}"\n')


def spell(name: str, text: str) -> str:
    return f'\ncard "{name}"\n  kind: Spell\n  cost: 0\n  text:\n    {text}\n'


def test_text_that_gives_the_status_does_the_verb(tmp_path):
    loaded = load_duel(tmp_path, rules_extra=STUN, cards=spell(
        "Zap", "When this is played: Each Creature your Rival controls is stunned."))
    assert loaded.problems == []
    zones = {("board", 1): [("Squire", ())], ("hand", 0): [("Zap", ())],
             ("deck", 0): [("Squire", ())] * 5, ("deck", 1): [("Squire", ())] * 5}
    match = Match.from_position(compile_game(loaded), 2, 1, zones, {}, 3, 0, "Main")
    match.apply_action(next(a for a in match.legal_actions()
                            if match.action_to_string(a).startswith("cast Zap")))
    lines = [line.strip() for line in match.narration()]
    # the verb's first step ran too: the status came the game's way
    assert lines.index("Squire is exhausted.") + 1 == lines.index("Squire is stunned.")
    # and lasts as the verb says: through its controller's turn, now running
    assert "-- Turn 4: Player 2" in lines
    squire = match.state.zone("board", 1)[0]
    assert Machine(match.game, match.state).has_status(squire, "stunned")


def test_a_time_of_its_own_is_refused(tmp_path):
    loaded = load_duel(tmp_path, rules_extra=STUN, cards=spell(
        "Zap", "When this is played: Each Creature your Rival controls is stunned this turn."))
    with pytest.raises(CardrulesError) as error:
        compile_game(loaded)
    problem = error.value.problems[0]
    assert '"stunned" for a time of its own' in problem.message
    assert 'by "Stun {card}", which says how long it lasts' in problem.message
    assert problem.suggestion == '"Stun ..." (or "... is stunned") with no time after it'


def test_a_time_of_its_own_names_a_verb_of_several_cards_as_written(tmp_path):
    extra = STUN.replace('"Stun {card}"', '"Stun {cards}"').replace("{card} is", "{cards} are")
    loaded = load_duel(tmp_path, rules_extra=extra, cards=spell(
        "Zap", "When this is played: Each Creature your Rival controls is stunned this turn."))
    with pytest.raises(CardrulesError) as error:
        compile_game(loaded)
    assert error.value.problems[0].suggestion == \
        '"Stun ..." (or "... is stunned") with no time after it'


@pytest.mark.parametrize("declaration, says", [
    ('status stunned: given by "Stn {card}"',
     'status "stunned" is given by "Stn {card}", which is not a declared verb'),
    ('status stunned: given by "Muster {n}"',
     'status "stunned" is given by "Muster {n}", whose only slot must be the card'),
    ('status stunned: given "Stun {card}"', "unreadable status"),
])
def test_a_wrong_declaration_is_reported_at_its_line(tmp_path, declaration, says):
    extra = STUN.replace('status stunned: given by "Stun {card}"', declaration)
    loaded = load_duel(tmp_path, rules_extra=extra)
    assert [p.code for p in loaded.problems] == ["E546"]
    problem = loaded.problems[0]
    assert says in problem.message
    assert problem.source_line.strip() == declaration
