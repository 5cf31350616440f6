"""The log's events (interpreter.engine.events): typed, documented, kept by
clone and JSON, and the only entries a game's log holds."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine import Match, compile_game
from interpreter.compiler.modifiers import ALL_DAMAGE
from interpreter.engine.events import EVENT_KINDS, Event, Modified, Moved, Occurred, from_values
from interpreter.engine.invariants import Watch
from interpreter.engine.narration import narrate
from interpreter.engine.state import GameState
from interpreter.language.games import load_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["ryft", "silver-wing-rivals", "saturday-wars", "rival-rush", "pocket-league"]


def test_an_event_is_its_kind_and_its_named_fields():
    event = Moved(3, ("hand", 0), ("discard", 0), True)
    assert event.kind == "move" and event.card == 3
    assert event.source == ("hand", 0) and event.destination == ("discard", 0)
    assert event.face_up is True
    # a tuple of plain values: equal to the values, copied and compared as they are
    assert event == ("move", 3, ("hand", 0), ("discard", 0), True)
    assert copy.copy(event) == event and type(copy.copy(event)) is Moved
    assert repr(event) == "Moved(card=3, source=('hand', 0), destination=('discard', 0), " \
                          "face_up=True)"


def test_an_event_with_the_wrong_number_of_fields_is_refused():
    with pytest.raises(TypeError, match=r"Occurred takes 4 values \(name, card, player, "
                                        r"target\), not 3"):
        Occurred("played", 1, 0)


def test_every_kind_has_one_class_and_reads_back_from_its_values():
    assert len({cls.KIND for cls in EVENT_KINDS.values()}) == len(EVENT_KINDS)
    for kind, cls in EVENT_KINDS.items():
        assert cls.KIND == kind and issubclass(cls, Event)
        values = tuple(range(len(cls.FIELDS)))
        event = cls(*values)
        again = from_values(list(event))
        assert type(again) is cls and again == event


def test_every_event_class_is_documented_in_the_architecture_page():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| ([\w, ]+) \|", text, flags=re.M))
    for cls in EVENT_KINDS.values():
        assert cls.__name__ in rows, f"docs/architecture.md does not list {cls.__name__}"
        assert rows[cls.__name__].split(", ") == list(cls.FIELDS), cls.__name__


@pytest.mark.parametrize("game_id", GAMES)
def test_a_played_game_logs_only_events_and_keeps_them_through_json(game_id):
    game = load_game(game_id)
    compiled = compile_game(game)
    match = Match.start(compiled, [game.decks[0], game.decks[1 % len(game.decks)]], 3)
    watch = Watch(match)
    agents = [RandomAgent(30 + i) for i in range(2)]
    for _ in range(300):
        if match.is_terminal():
            break
        match.apply_action(agents[match.current_player()].act(match))
        assert watch.check() is None
    log = match.state.log
    assert log and all(isinstance(event, Event) for event in log)
    assert {type(e) for e in log} >= {Moved}
    back = GameState.from_json(json.loads(json.dumps(match.state.to_json())))
    assert back.log == log
    assert [type(e) for e in back.log] == [type(e) for e in log]


def test_the_invariants_refuse_a_log_entry_that_is_not_an_event():
    game = load_game("duel", ROOT / "tests" / "fixtures" / "engine")
    match = Match.start(compile_game(game), [game.decks[0], game.decks[0]], 1)
    watch = Watch(match)
    assert watch.check() is None
    match.state.log.append(("move", 0, ("hand", 0), ("board", 0), True))
    assert "not an event" in watch.check()


def test_a_modifier_on_a_card_reads_as_what_it_changes():
    # a card "is fresh this turn", "has Double Strike", "counts as red":
    # told as such, not as a number added to a name
    game = load_game("pocket-league")
    match = Match.start(compile_game(game), [game.decks[0], game.decks[1]], 1)
    card = 0
    name = match.state.cards[card].name
    events = [Modified(card, "status", "fresh", 1), Modified(card, "keyword", "Haste", 1),
              Modified(card, "lost keyword", "Haste", 1), Modified(card, "value", "red", 1),
              Modified(card, "can", "attack twice", 1), Modified(card, "reduce", "damage", 2),
              Modified(card, "reduce", "damage", ALL_DAMAGE), Modified(card, "stat", "HP", -20)]
    lines = [line.strip() for line in narrate(match.state, game.rules, events=events)]
    assert lines == [f"{name} is fresh.", f"{name} has Haste.", f"{name} loses Haste.",
                     f"{name} counts as red.", f"{name}: can attack twice.",
                     f"Damage dealt to {name} is reduced by 2.",
                     f"Damage dealt to {name} is prevented.", f"{name}: HP -20."]
