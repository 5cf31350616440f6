"""Agents: whoever answers a game's decisions through the step API.

The simple ones (``simple``: random, greedy, first-legal, scripted, and
:func:`play_out`), the random one that takes a game's agent settings
(``hints``: ``hinted``, reading ``rules/GAME.hints``) and the search agent (``search``: information-set Monte
Carlo tree search). Commands name agents with :func:`agent_named`
(``--p1 random``, ``--p2 search:200``); every agent that plays by itself is
in :data:`AGENTS`.
"""

from __future__ import annotations

from interpreter.agents.hints import HintedAgent, preferred_actions
from interpreter.agents.search import SearchAgent, search_agent
from interpreter.agents.simple import (FirstLegalAgent, GreedyAgent, RandomAgent,
                                       ScriptedAgent, option_kind, play_out)
from interpreter.errors import CouldNotRun, Problem, did_you_mean, listing

__all__ = ["AGENTS", "DEFAULT_AGENT", "FirstLegalAgent", "GreedyAgent", "HintedAgent", "RandomAgent",
           "ScriptedAgent", "SearchAgent", "agent_named", "option_kind", "play_out",
           "preferred_actions"]


def _searching(seed: int, setting: str | None) -> SearchAgent:
    try:
        return search_agent(seed, setting)
    except ValueError:
        raise CouldNotRun(Problem(
            "E818", f'"{setting}" is not a budget for the agent "search"', None, None,
            ("a number of iterations per decision (search:200) or seconds per "
             "decision (search:0.5s)",))) from None


# The agents a command can name, each made from the seed of its seat and
# the text after a colon in its name ("search:200"), if any.
# An agent that takes no setting refuses one (:func:`no_setting`).
AGENTS = {
    "random": lambda seed, setting: no_setting("random", setting) or RandomAgent(seed),
    "greedy": lambda seed, setting: no_setting("greedy", setting) or GreedyAgent(seed),
    "hinted": lambda seed, setting: no_setting("hinted", setting) or HintedAgent(seed),
    "first": lambda seed, setting: no_setting("first", setting) or FirstLegalAgent(),
    "search": _searching,
}

# Who plays a seat no option names (play, simulate): random, with the
# game's agent settings where it has some, so that games end as people's do
DEFAULT_AGENT = "hinted"


def no_setting(name: str, setting: str | None) -> None:
    """Refuses a setting given to an agent that takes none."""
    if setting is not None:
        raise CouldNotRun(Problem("E817", f'the agent "{name}" takes no setting ("{setting}")',
                                  None, None, (name,)))


def agent_named(spec: str, seed: int):
    """The agent a command line names (``random``, ``greedy``, ``search:200``,
    ...; a setting after a colon where the agent takes one), playing with
    ``seed``."""
    name, _, setting = spec.partition(":")
    make = AGENTS.get(name.strip().lower())
    if make is None:
        raise CouldNotRun(Problem(
            "E816", f'no agent called "{spec}"', None, None,
            (listing(sorted(AGENTS)),), did_you_mean(name, sorted(AGENTS))))
    return make(seed, setting.strip() or None)
