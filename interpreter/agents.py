"""Agents: whoever answers a game's decisions through the step API.

* :class:`RandomAgent` picks uniformly with its own seeded generator, among
  the choices the rules file says simulated players prefer
  (:func:`preferred_actions`) when any is offered;
* :class:`FirstLegalAgent` always takes the first legal action;
* :class:`ScriptedAgent` plays a list of choices given by label (as
  ``action_to_string`` reads them) and fails loudly on a decision its script
  does not cover or a choice that is not legal.

Commands name agents with :func:`agent_named` (``--p1 random``); every agent
that plays by itself is in :data:`AGENTS`.
"""

from __future__ import annotations

from interpreter.engine import Machine
from interpreter.engine.rng import Random
from interpreter.engine.state import Frame
from interpreter.errors import CardrulesError, CouldNotRun, Problem, did_you_mean, listing


class RandomAgent:
    """Picks uniformly; among the choices a game's rules file says simulated
    players prefer ("simulation prefers"), when any is offered."""

    def __init__(self, seed: int = 0):
        self.rng = Random(seed)

    def act(self, match) -> int:
        if getattr(getattr(match, "game", None), "prefer", ()):
            return self.rng.choice(preferred_actions(match))
        return self.rng.choice(match.legal_actions())


def preferred_actions(match) -> list[int]:
    """The legal actions a simulated player prefers ("simulation prefers"):
    those matching the first tier whose condition holds for the deciding
    player and that matches any; all of them when none does."""
    legal = match.legal_actions()
    tiers = getattr(match.game, "prefer", ())
    if not tiers:
        return legal
    labels = [match.action_to_string(a) for a in legal]
    probe = None
    for prefixes, test in tiers:
        if test is not None:
            if probe is None:
                probe = (Machine(match.game, match.state),
                         Frame("probe", 0, {"you": match.state.decision.player}))
            if not test(*probe):
                continue
        chosen = [a for a, label in zip(legal, labels) if _matches(label, prefixes)]
        if chosen:
            return chosen
    return legal


def _matches(label: str, prefixes: tuple[str, ...]) -> bool:
    """A label starts with one of the prefixes; a number ("3") is a whole
    label (a number chosen), not the start of "30"."""
    return any(label == p if p.isdigit() else label.startswith(p) for p in prefixes)


class FirstLegalAgent:
    def act(self, match) -> int:
        return match.legal_actions()[0]


class ScriptedAgent:
    """Plays scripted choices in order; each is an option's label."""

    def __init__(self, choices: list[str]):
        self.choices = list(choices)
        self.used = 0

    def act(self, match) -> int:
        decision = match.state.decision
        if self.used >= len(self.choices):
            raise CardrulesError(Problem(
                "E807", f"unscripted decision: player {decision.player + 1} must "
                f"{decision.prompt} ({', '.join(decision.labels)})"))
        wanted = self.choices[self.used]
        self.used += 1
        for action in match.legal_actions():
            if match.action_to_string(action) == wanted:
                return action
        raise CardrulesError(Problem(
            "E808", f'illegal scripted choice "{wanted}" (step {self.used}): player '
            f"{decision.player + 1} must {decision.prompt}: {', '.join(decision.labels)}"))


def play_out(match, agents, max_decisions: int = 100_000, each_turn=None) -> int:
    """Let the agents answer decisions until the game ends; returns how many.
    ``each_turn(match)`` is called at the first decision of every turn."""
    decisions = 0
    turn = None
    while not match.is_terminal():
        if decisions >= max_decisions:
            match.game_over_by_cap(f"more than {max_decisions} decisions")
            break
        if each_turn is not None and match.state.turn != turn:
            turn = match.state.turn
            each_turn(match)
        player = match.current_player()
        match.apply_action(agents[player].act(match))
        decisions += 1
    return decisions


# The agents a command can name, each made from the seed of its seat and
# the text after a colon in its name ("search:200"), if any.
# An agent that takes no setting refuses one (:func:`no_setting`).
AGENTS = {
    "random": lambda seed, setting: no_setting("random", setting) or RandomAgent(seed),
    "first": lambda seed, setting: no_setting("first", setting) or FirstLegalAgent(),
}


def no_setting(name: str, setting: str | None) -> None:
    """Refuses a setting given to an agent that takes none."""
    if setting is not None:
        raise CouldNotRun(Problem("E817", f'the agent "{name}" takes no setting ("{setting}")',
                                  None, None, (name,)))


def agent_named(spec: str, seed: int):
    """The agent a command line names (``random``, ``first``, ...; a
    setting after a colon where the agent takes one), playing with ``seed``."""
    name, _, setting = spec.partition(":")
    make = AGENTS.get(name.strip().lower())
    if make is None:
        raise CouldNotRun(Problem(
            "E816", f'no agent called "{spec}"', None, None,
            (listing(sorted(AGENTS)),), did_you_mean(name, sorted(AGENTS))))
    return make(seed, setting.strip() or None)
