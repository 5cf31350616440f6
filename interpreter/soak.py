"""Soak testing: play many random games and check the engine's invariants
after every action.

The players are the agent ``hinted``: random, taking the choices a game's
agent settings file (``rules/GAME.hints``) prefers, so that games end the
way people's do instead of wandering to the game's cap.

Checked after every action: the engine's invariants
(``interpreter.engine.invariants.Watch``). At random points: every legal
action applies (on a clone), a clone equals its original, and the JSON round
trip gives the same state. At the end of each game (of every
``replay_every``-th game, counted from game 0): replaying its seed and
actions gives the same log.

A violation names the seed and the list of actions that reproduce it.
"""

from __future__ import annotations

import hashlib

import attrs

from interpreter.agents import HintedAgent
from interpreter.engine import Match
from interpreter.engine.invariants import Watch, deep_checks
from interpreter.engine.rng import Random


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
         first: int = 0, replay_every: int = 1) -> SoakReport:
    """Games ``first`` to ``first + games - 1`` of a soak; game i has seed
    ``seed + i``. ``decks``: one deck per seat, or a function giving game
    i's decks. ``check_every``: the deep checks run on average once every
    that many actions; ``replay_every``: games i with i a multiple of it are
    replayed (a replay costs as much as the game)."""
    report = SoakReport()
    for index in range(first, first + games):
        game_seed = seed + index
        seats = decks(index) if callable(decks) else decks
        violation = _soak_one(compiled, seats, game_seed, check_every, report,
                              index % replay_every == 0)
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


def _soak_one(compiled, decks, seed, check_every, report, replayed) -> Violation | None:
    match = Match.start(compiled, decks, seed)
    agents = [HintedAgent(seed * 1000 + i) for i in range(len(decks))]
    checkpoints = Random(seed ^ 0x5EED)
    actions: list[int] = []
    watch = Watch(match)
    try:
        while True:
            problem = watch.check()
            report.checks += 1
            if problem:
                return Violation(seed, actions, problem)
            if match.is_terminal():
                break
            if checkpoints.below(check_every) == 0:
                problem = deep_checks(match)
                if problem:
                    return Violation(seed, actions, problem)
            action = agents[match.current_player()].act(match)
            actions.append(action)
            match.apply_action(action)
            report.actions += 1
    except Exception as err:  # a crash is a violation, with what reproduces it
        return Violation(seed, actions, f"{type(err).__name__}: {err}")
    problem = deep_checks(match, with_log=True)
    if problem:
        return Violation(seed, actions, problem)
    kind = match.state.result[0]
    report.results[kind] = report.results.get(kind, 0) + 1
    if not replayed:
        return None
    replay = Match.start(compiled, decks, seed)
    for action in actions:
        replay.apply_action(action)
    if _digest(replay) != _digest(match):
        return Violation(seed, actions, "replaying the same seed and actions gave a "
                         "different log")
    return None


def _digest(match) -> str:
    return hashlib.sha256(repr(match.state.log).encode()).hexdigest()
