"""Soak testing: play many random games and check the engine's invariants
after every action.

Checked after every action: every card is in exactly one zone (and the zone
it records), the number of cards never changes, card ids are unique, every
counter stays within its declared bounds, there is a legal action unless the
game is over. At random points: every legal action applies (on a clone), a
clone equals its original, and the JSON round trip gives the same state. At
the end of each game: replaying its seed and actions gives the same log.

A violation names the seed and the list of actions that reproduce it.
"""

from __future__ import annotations

import hashlib
import json

import attrs

from interpreter.agents import RandomAgent
from interpreter.engine import Match
from interpreter.engine.rng import Random
from interpreter.engine.state import GameState


@attrs.define
class Violation:
    seed: int
    actions: list[int]
    message: str

    def render(self) -> str:
        return (f"seed {self.seed}: {self.message}\n"
                f"  reproduce: seed {self.seed}, actions {self.actions}")


@attrs.define
class SoakReport:
    games: int = 0
    actions: int = 0
    checks: int = 0
    violations: list[Violation] = attrs.Factory(list)
    results: dict = attrs.Factory(dict)


def soak(compiled, decks, games: int, seed: int = 0, check_every: int = 9,
         first: int = 0) -> SoakReport:
    """Games ``first`` to ``first + games - 1`` of a soak; game i has seed
    ``seed + i``. ``decks``: one deck per seat, or a function giving game
    i's decks. ``check_every``: the deep checks run on average once every
    that many actions."""
    report = SoakReport()
    for index in range(first, first + games):
        game_seed = seed + index
        seats = decks(index) if callable(decks) else decks
        violation = _soak_one(compiled, seats, game_seed, check_every, report)
        report.games += 1
        if violation is not None:
            report.violations.append(violation)
    return report


def merge(reports: list[SoakReport]) -> SoakReport:
    """One report for the parts of a soak run side by side."""
    total = SoakReport()
    for part in reports:
        total.games += part.games
        total.actions += part.actions
        total.checks += part.checks
        total.violations.extend(part.violations)
        for kind, n in part.results.items():
            total.results[kind] = total.results.get(kind, 0) + n
    total.violations.sort(key=lambda v: v.seed)
    return total


def _soak_one(compiled, decks, seed, check_every, report) -> Violation | None:
    match = Match.start(compiled, decks, seed)
    agents = [RandomAgent(seed * 1000 + i) for i in range(len(decks))]
    checkpoints = Random(seed ^ 0x5EED)
    actions: list[int] = []
    total = len(match.state.cards)
    try:
        while True:
            problem = _invariants(match, compiled, total)
            report.checks += 1
            if problem:
                return Violation(seed, actions, problem)
            if match.is_terminal():
                break
            if checkpoints.below(check_every) == 0:
                problem = _deep_checks(match)
                if problem:
                    return Violation(seed, actions, problem)
            action = agents[match.current_player()].act(match)
            actions.append(action)
            match.apply_action(action)
            report.actions += 1
    except Exception as err:  # a crash is a violation, with what reproduces it
        return Violation(seed, actions, f"{type(err).__name__}: {err}")
    problem = _deep_checks(match, with_log=True)
    if problem:
        return Violation(seed, actions, problem)
    kind = match.state.result[0]
    report.results[kind] = report.results.get(kind, 0) + 1
    replay = Match.start(compiled, decks, seed)
    for action in actions:
        replay.apply_action(action)
    if _digest(replay) != _digest(match):
        return Violation(seed, actions, "replaying the same seed and actions gave a "
                         "different log")
    return None


def _digest(match) -> str:
    return hashlib.sha256(repr(match.state.log).encode()).hexdigest()


def _invariants(match, compiled, total) -> str | None:
    state = match.state
    seen: dict[int, tuple] = {}
    for key, cards in state.zones.items():
        for card in cards:
            if card in seen:
                return f"card {card} is in {key} and in {seen[card]}"
            seen[card] = key
            if state.cards[card].zone != key:
                return f"card {card} is listed in {key} but records {state.cards[card].zone}"
    if len(seen) != total or len(state.cards) != total:
        return f"{total} cards at the start, {len(seen)} in zones now"
    if len({c.id for c in state.cards}) != len(state.cards):
        return "two cards share an id"
    for counter in compiled.rules.counters.values():
        if counter.scope != "player":
            continue
        for player in range(state.players):
            value = state.counter(player, counter.name)
            if counter.minimum is not None and value < counter.minimum:
                return f"player {player + 1}'s {counter.name} is {value}, below {counter.minimum}"
            if counter.maximum is not None and value > counter.maximum:
                return f"player {player + 1}'s {counter.name} is {value}, above {counter.maximum}"
    if not match.is_terminal() and not match.legal_actions():
        return "no legal action, but the game is not over"
    return None


def _deep_checks(match, with_log: bool = False) -> str | None:
    """A clone equals its original, the JSON round trip keeps the state, and
    every legal action applies. The log is compared as it is (serializing a
    long game's whole log at every check would make long games quadratic);
    its own JSON round trip is checked once, at the end of the game."""
    state = match.state
    twin = match.clone()
    if twin.state.log != state.log or twin.state.to_json(False) != state.to_json(False):
        return "a clone differs from its original"
    original = state.to_json(with_log)
    data = json.loads(json.dumps(original))
    if GameState.from_json(data).to_json(with_log) != original:
        return "the JSON round trip changed the state"
    for action in match.legal_actions():
        trial = match.clone()
        try:
            trial.apply_action(action)
        except Exception as err:  # noqa: BLE001 - reported as a violation
            return f"legal action {action} ({match.action_to_string(action)}) failed: {err}"
    return None
