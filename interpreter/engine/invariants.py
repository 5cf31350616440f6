"""The engine's invariants: what must hold after every action of every game,
whatever the game's rules say.

Two users check them: the soak (random games, ``interpreter.soak``) and every
ruling (``interpreter.rulings``): a ruling fails on a violation whatever its
expect lines say.

:class:`Watch` follows one match action by action:

- every card is in exactly one zone, and in the zone it records; the cards in
  zones are all the cards there are; card ids are unique; a relation between
  two cards is kept by both;
- every player counter stays within its declared bounds;
- there is a legal action unless the game is over;
- the setup runs at most once per game; the turn number never goes down; the
  log only grows (what happened stays what happened); a result, once there,
  never changes; every entry of the log is an event of
  ``interpreter.engine.events``.

:func:`deep_checks` is dearer and is run at chosen points: a clone equals its
original, the JSON round trip keeps the state, and every legal action applies
(each on a clone).
"""

from __future__ import annotations

import json

from interpreter.engine.events import Event, Marked
from interpreter.engine.state import GameState


class Watch:
    """The invariants of one match, checked after each action."""

    __slots__ = ("match", "log_length", "first_event", "turn", "result", "setups")

    def __init__(self, match) -> None:
        self.match = match
        state = match.state
        self.log_length = 0           # the events looked at so far
        self.setups = 0
        self.first_event = state.log[0] if state.log else None
        self.turn = state.turn
        self.result = state.result

    def check(self) -> str | None:
        """The first invariant that does not hold now, or None."""
        match = self.match
        state = match.state
        problem = _cards_and_zones(state) or _counters(state, match.game.rules)
        if problem:
            return problem
        log = state.log
        if len(log) < self.log_length or (log and log[0] != self.first_event):
            return "the log lost events that had happened"
        for event in log[self.log_length:]:
            if not isinstance(event, Event):
                return f"the log has an entry that is not an event: {event!r}"
            if isinstance(event, Marked) and event.what == "setup":
                self.setups += 1
        if self.setups > 1:
            return f"the setup ran {self.setups} times in one game"
        if state.turn < self.turn:
            return f"the turn number went down from {self.turn} to {state.turn}"
        if self.result is not None and state.result != self.result:
            return f"the game's result changed from {self.result} to {state.result}"
        if not match.is_terminal() and not match.legal_actions():
            return "no legal action, but the game is not over"
        self.log_length, self.turn, self.result = len(log), state.turn, state.result
        return None


def _cards_and_zones(state) -> str | None:
    seen: dict[int, tuple] = {}
    for key, cards in state.zones.items():
        for card in cards:
            if card in seen:
                return f"card {card} is in {key} and in {seen[card]}"
            seen[card] = key
            if state.cards[card].zone != key:
                return f"card {card} is listed in {key} but records {state.cards[card].zone}"
    if len(seen) != len(state.cards):
        return f"{len(state.cards)} cards in the game, {len(seen)} in zones"
    for index, card in enumerate(state.cards):
        if card.id != index:
            return f"card {index} has the id {card.id}"
        for relation, other, holds in card.relations:
            # a relation is kept by both cards (docs/core.md "Relations")
            if other == index or (relation, index, not holds) not in state.cards[other].relations:
                return f"card {index}'s relation {relation!r} toward card {other} is not mirrored"
    return None


def _counters(state, rules) -> str | None:
    for counter in rules.counters.values():
        if counter.scope != "player":
            continue
        for player in range(state.players):
            value = state.counter(player, counter.name)
            if counter.minimum is not None and value < counter.minimum:
                return f"player {player + 1}'s {counter.name} is {value}, below {counter.minimum}"
            if counter.maximum is not None and value > counter.maximum:
                return f"player {player + 1}'s {counter.name} is {value}, above {counter.maximum}"
    return None


def deep_checks(match, with_log: bool = False) -> str | None:
    """A clone equals its original, the JSON round trip keeps the state, and
    every legal action applies. The log is compared as it is (serializing a
    long game's whole log at every check would make long games quadratic);
    its own JSON round trip is checked when ``with_log`` is set (serialized
    once: what comes back is compared event by event)."""
    state = match.state
    twin = match.clone()
    original = state.to_json(with_log)
    without_log = dict(original, log=[]) if with_log else original
    if twin.state.log != state.log or twin.state.to_json(False) != without_log:
        return "a clone differs from its original"
    restored = GameState.from_json(json.loads(json.dumps(original)))
    if restored.to_json(False) != without_log or (with_log and restored.log != state.log):
        return "the JSON round trip changed the state"
    for action in match.legal_actions():
        trial = match.clone()
        try:
            trial.apply_action(action)
        except Exception as err:  # noqa: BLE001 - reported as a violation
            return f"legal action {action} ({match.action_to_string(action)}) failed: {err}"
    return None
